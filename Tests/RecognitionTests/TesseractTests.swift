import DocScan
import DocScanMetrics
import DocScanRecognition
import DocScanTesseract
import Foundation
import Testing

/// The sample photo, scanned once through the real pipeline, and its true text.
enum SamplePage {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let photo = root.appendingPathComponent("Calibration/sample/sample.jpg")

    static let scanned: (page: ScannedPage, input: PageImage, truth: String) = {
        let result = try! DocumentScanner().scan(contentsOf: photo)
        let truth = try! GroundTruth(contentsOf: GroundTruth.file(for: photo)!)
        let page = result.pages[0]
        return (page, try! page.recognitionInput(), truth.pages[0].text!)
    }()

    /// A fixture photo (`Tests/DocScanTests/Fixtures/NAME`) scanned as `docscan` scans for `accurate`, with the other
    /// renderings worth reading (``DocumentScanner/Options/rendersSuspectedShake``), and the true text of its page
    /// `page` (0 for the first).
    static func scanForReading(fixture name: String, page: Int = 0) throws -> (scan: ScanResult, truth: String) {
        let photo = root.appendingPathComponent("Tests/DocScanTests/Fixtures/\(name)")
        let truth = try #require(try GroundTruth(contentsOf: GroundTruth.file(for: photo)!).pages[page].text)
        var options = DocumentScanner.Options()
        options.rendersSuspectedShake = true
        return (try DocumentScanner(options: options).scan(contentsOf: photo), truth)
    }

    /// The page at a fifth of its size in each direction (each pixel the mean of a 5 × 5 block): print so small that
    /// Tesseract misreads a word in every few lines.
    static let shrunk: PageImage = {
        let page = scanned.input, factor = 5
        let width = page.width / factor, height = page.height / factor
        var pixels = [UInt8](repeating: 0, count: width * height)
        for y in 0..<height {
            for x in 0..<width {
                var sum = 0
                for dy in 0..<factor {
                    for dx in 0..<factor { sum += Int(page.pixels[(y * factor + dy) * page.width + x * factor + dx]) }
                }
                pixels[y * width + x] = UInt8(sum / (factor * factor))
            }
        }
        return try! PageImage(width: width, height: height, pixelFormat: .gray, pixels: pixels)
    }()

    /// `page` turned clockwise by `quarterTurns`, without a map into the photo.
    static func rotated(_ page: PageImage, quarterTurns: Int) -> PageImage {
        let w = page.width, h = page.height
        let turns = ((quarterTurns % 4) + 4) % 4
        let (width, height) = turns % 2 == 0 ? (w, h) : (h, w)
        var pixels = [UInt8](repeating: 0, count: w * h)
        for y in 0..<h {
            for x in 0..<w {
                let (u, v): (Int, Int) =
                    switch turns {
                    case 1: (h - 1 - y, x)
                    case 2: (w - 1 - x, h - 1 - y)
                    case 3: (y, w - 1 - x)
                    default: (x, y)
                    }
                pixels[v * width + u] = page.pixels[y * w + x]
            }
        }
        return try! PageImage(width: width, height: height, pixelFormat: .gray, pixels: pixels)
    }

    /// The words of `text` with surrounding punctuation removed.
    static func words(_ text: String) -> [String] {
        text.split(whereSeparator: \.isWhitespace).map { $0.trimmingCharacters(in: .punctuationCharacters) }
    }

    static let recognizers = TesseractRecognizer.standard()
    static var fast: TesseractRecognizer { recognizers[0] }
    static var accurate: TesseractRecognizer { recognizers[1] }

    /// The first page of the photo at `path` (from the package root) scanned and read by `recognizer`, and its true
    /// text from the photo's truth file.
    static func scanAndRead(_ path: String, with recognizer: TesseractRecognizer) async throws
        -> (read: RecognizedPage, truth: String)
    {
        let photo = root.appendingPathComponent(path)
        let truth = try #require(try GroundTruth(contentsOf: GroundTruth.file(for: photo)!).pages[0].text)
        let page = try #require(try DocumentScanner().scan(contentsOf: photo).pages.first)
        return (try await recognizer.recognize(try page.recognitionInput(), request: RecognitionRequest()), truth)
    }

    /// Expects the photo at `path` (with its truth beside it) to be read again as one block and, so read, to stay
    /// under `budget` CER.
    static func expectReadAsOneBlock(
        _ path: String, with recognizer: TesseractRecognizer, under budget: Double,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let (read, truth) = try await scanAndRead(path, with: recognizer)
        #expect(
            read.provenance.levelMapping.contains("as one block"), "\(read.provenance.levelMapping)",
            sourceLocation: sourceLocation)
        let rate = TextErrorRate.characters(read.text, truth: truth).rate
        #expect(rate < budget, "CER \(rate)", sourceLocation: sourceLocation)
    }
}

@Suite("Tesseract through the whole pipeline", .serialized)
struct TesseractTests {
    @Test("accurate and fast read the sample photo within their error budgets")
    func characterErrorRates() async throws {
        let (_, input, truth) = SamplePage.scanned
        let accurate = try await SamplePage.accurate.recognize(input, request: RecognitionRequest())
        let fast = try await SamplePage.fast.recognize(input, request: RecognitionRequest())
        let accurateCER = TextErrorRate.characters(accurate.text, truth: truth).rate
        let fastCER = TextErrorRate.characters(fast.text, truth: truth).rate
        #expect(accurateCER < 0.03, "accurate CER \(accurateCER)")
        #expect(fastCER < 0.06, "fast CER \(fastCER)")
        #expect(accurate.provenance.level == .accurate && fast.provenance.level == .fast)
        #expect(accurate.provenance.models.allSatisfy { $0.hasSuffix("eng.traineddata") })
    }

    @Test("word boxes lie on the page and map into the photo")
    func boxesMapIntoThePhoto() async throws {
        let (page, input, _) = SamplePage.scanned
        let result = try await SamplePage.fast.recognize(input, request: RecognitionRequest())
        let words = result.words
        #expect(words.count > 100)
        for word in words {
            #expect(word.box.minX >= 0 && word.box.minY >= 0)
            #expect(word.box.maxX <= Double(input.width) && word.box.maxY <= Double(input.height))
            let quad = try #require(word.photoQuad)
            // Each corner goes back onto the page where it came from.
            for (photoCorner, pageCorner) in zip(quad.corners, word.box.quad.corners) {
                #expect(page.homography.apply(photoCorner).distance(to: pageCorner) < 0.01)
            }
            // And the word lies within the page's outline in the photo.
            #expect(quad.intersectionOverUnion(page.quad) > 0 && quad.area < page.quad.area)
        }
    }

    @Test("a range of the page text has the box of the words it covers")
    func rangeBoundingBoxes() async throws {
        let result = try await SamplePage.fast.recognize(SamplePage.scanned.input, request: RecognitionRequest())
        let text = result.text
        let range = try #require(text.range(of: "Library"))
        let box = try #require(result.boundingBox(for: range))
        let word = try #require(result.words.first { $0.text.contains("Library") })
        #expect(box.intersectionOverUnion(word.box) > 0.6)
        #expect(box.width < word.box.width + 1)
        // A range across two lines gives one box per line.
        let newline = try #require(text.range(of: "\n", range: range.upperBound..<text.endIndex))
        let across = text.index(newline.lowerBound, offsetBy: -3)..<text.index(newline.upperBound, offsetBy: 3)
        #expect(result.lineBoxes(for: across).count == 2)
    }

    @Test("candidates come from the engine's alternatives, the reading first")
    func candidates() async throws {
        var request = RecognitionRequest()
        request.maximumCandidates = 3
        let result = try await SamplePage.accurate.recognize(SamplePage.scanned.input, request: request)
        let lines = result.lines
        #expect(lines.allSatisfy { $0.candidates.count <= 3 && $0.candidates.first?.text == $0.text })
        #expect(lines.contains { $0.candidates.count > 1 })
        let plain = try await SamplePage.accurate.recognize(SamplePage.scanned.input, request: RecognitionRequest())
        #expect(plain.lines.allSatisfy { $0.candidates.isEmpty })
    }

    @Test("progress rises to 1 and never falls")
    func progress() async throws {
        final class Log: @unchecked Sendable {
            let lock = NSLock()
            var values: [Double] = []
        }
        let log = Log()
        var request = RecognitionRequest()
        request.progressHandler = { value in log.lock.withLock { log.values.append(value) } }
        _ = try await SamplePage.fast.recognize(SamplePage.scanned.input, request: request)
        let values = log.lock.withLock { log.values }
        #expect(values.count > 3)
        #expect(zip(values, values.dropFirst()).allSatisfy { $0 <= $1 })
        #expect(values.last == 1)
    }

    @Test("cancelling the task stops the engine mid-page")
    func cancellation() async throws {
        let input = SamplePage.scanned.input
        let accurate = SamplePage.accurate
        _ = try await accurate.prepare(for: RecognitionRequest())  // models loaded, so only reading is timed
        let started = ContinuousClock.now
        let task = Task { try await accurate.recognize(input, request: RecognitionRequest()) }
        try await Task.sleep(for: .milliseconds(300))
        task.cancel()
        let outcome = await task.result
        let elapsed = ContinuousClock.now - started
        #expect(throws: RecognitionError.cancelled) { try outcome.get() }
        #expect(elapsed < .seconds(2), "took \(elapsed)")
    }

    @Test("a time limit stops the page with a deadline error")
    func deadline() async throws {
        var request = RecognitionRequest()
        request.timeLimit = .milliseconds(200)
        await #expect(throws: RecognitionError.deadlineExceeded) {
            try await SamplePage.accurate.recognize(SamplePage.scanned.input, request: request)
        }
    }

    @Test("several pages at once read the same as one at a time")
    func concurrency() async throws {
        let input = SamplePage.scanned.input
        let fast = SamplePage.fast
        let alone = try await fast.recognize(input, request: RecognitionRequest()).text
        let together = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<3 { group.addTask { try await fast.recognize(input, request: RecognitionRequest()).text } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(together == [alone, alone, alone])
    }

    @Test("a missing language names the package to install")
    func missingLanguage() async throws {
        var request = RecognitionRequest()
        request.languages = ["eng", "xyz"]
        do {
            _ = try await SamplePage.fast.recognize(SamplePage.scanned.input, request: request)
            Issue.record("reading with a missing language succeeded")
        } catch {
            guard case .missingLanguage(let language, _, let hint) = error else {
                Issue.record("unexpected error \(error)")
                return
            }
            #expect(language == "xyz")
            #expect(hint.contains("apt-get install tesseract-ocr-xyz"))
        }
    }

    @Test("a minimum text height skips smaller text and reads faster")
    func minimumTextHeight() async throws {
        let input = SamplePage.scanned.input
        let all = try await SamplePage.fast.recognize(input, request: RecognitionRequest())
        var request = RecognitionRequest()
        request.minimumTextHeight = 0.015
        let large = try await SamplePage.fast.recognize(input, request: request)
        let threshold = 0.015 * Double(input.height)
        #expect(!large.lines.isEmpty)
        #expect(large.lines.allSatisfy { $0.box.height >= threshold })
        #expect(large.lines.count < all.lines.count / 2)
        #expect(large.text.contains("Library"))  // the heading stays
        #expect(large.provenance.levelMapping.contains("skipped"))
    }

    @Test("fast reads print about 4 px tall enlarged threefold, and reads it")
    func fastEnlargesSmallPrint() async throws {
        // Read as it is, this page gives nothing at all (CER 100%); enlarged, 5.5% when this test was written.
        let (_, _, truth) = SamplePage.scanned
        let page = try await SamplePage.fast.recognize(SamplePage.shrunk, request: RecognitionRequest())
        let cer = TextErrorRate.characters(page.text, truth: truth).rate
        #expect(page.provenance.levelMapping.contains("page at 300%"), "\(page.provenance.levelMapping)")
        #expect(cer < 0.12, "CER \(cer)")
    }

    @Test("custom words are read where the plain reading gets them wrong")
    func customWords() async throws {
        let (_, _, truth) = SamplePage.scanned
        let plain = try await SamplePage.accurate.recognize(SamplePage.shrunk, request: RecognitionRequest())
        let read = Set(SamplePage.words(plain.text))
        let missed = Set(SamplePage.words(truth).filter { $0.count >= 5 && $0.allSatisfy(\.isLetter) })
            .subtracting(read).sorted()
        try #require(missed.count >= 4, "the shrunk page should be hard enough to misread some words: \(missed)")

        var request = RecognitionRequest()
        request.customWords = missed
        let helped = try await SamplePage.accurate.recognize(SamplePage.shrunk, request: request)
        let fixed = missed.filter(Set(SamplePage.words(helped.text)).contains)
        let before = TextErrorRate.characters(plain.text, truth: truth).rate
        let after = TextErrorRate.characters(helped.text, truth: truth).rate
        #expect(fixed.count * 2 >= missed.count, "fixed \(fixed) of \(missed)")
        #expect(after < before, "CER \(before) → \(after)")
        #expect(helped.provenance.levelMapping.contains("custom words"))
    }

    @Test("a photo turned a quarter, a half or three quarters reads as well as upright", arguments: [1, 2, 3])
    func turnedPhotos(turns: Int) async throws {
        let (_, input, truth) = SamplePage.scanned
        let upright = try await SamplePage.accurate.recognize(input, request: RecognitionRequest())
        var loaded = try ImageLoader().load(contentsOf: SamplePage.photo)
        loaded.image = try loaded.image.rotated(quarterTurns: turns)
        let page = try #require(try DocumentScanner().scan(loaded).pages.first)
        let turned = try await SamplePage.accurate.recognize(try page.recognitionInput(), request: RecognitionRequest())
        let uprightCER = TextErrorRate.characters(upright.text, truth: truth).rate
        let turnedCER = TextErrorRate.characters(turned.text, truth: truth).rate
        #expect(turnedCER <= uprightCER + 0.01, "CER upright \(uprightCER), turned \(turns): \(turnedCER)")
    }

    @Test("accurate turns a page handed to it upside down or sideways", arguments: [1, 2, 3])
    func turnedPages(turns: Int) async throws {
        let (_, input, truth) = SamplePage.scanned
        let turned = try await SamplePage.accurate.recognize(SamplePage.rotated(input, quarterTurns: turns), request: RecognitionRequest())
        let rate = TextErrorRate.characters(turned.text, truth: truth).rate
        #expect(rate < 0.03, "CER \(rate)")
        // Tesseract reads some sideways pages on its own (its layout analysis finds vertical lines); when accurate
        // turns the page, it must be the right way.
        let found = try #require(turned.provenance.orientationQuarterTurns)
        #expect(found == 0 || found == (4 - turns) % 4, "turned \(turns), turned back \(found)")
    }

    @Test("fast turns a page handed to it upside down or sideways", arguments: [1, 2, 3])
    func fastTurnsPages(turns: Int) async throws {
        let (_, input, truth) = SamplePage.scanned
        let upright = try await SamplePage.fast.recognize(input, request: RecognitionRequest())
        let turned = try await SamplePage.fast.recognize(SamplePage.rotated(input, quarterTurns: turns), request: RecognitionRequest())
        let uprightCER = TextErrorRate.characters(upright.text, truth: truth).rate
        let turnedCER = TextErrorRate.characters(turned.text, truth: truth).rate
        #expect(turnedCER <= uprightCER + 0.01, "CER upright \(uprightCER), turned \(turns): \(turnedCER)")
        let found = try #require(turned.provenance.orientationQuarterTurns)
        #expect(found == 0 || found == (4 - turns) % 4, "turned \(turns), turned back \(found)")
    }

    @Test("a request that knows the way up reads a page as given, at either level",
          arguments: RecognitionLevel.allCases)
    func orientationKnown(level: RecognitionLevel) async throws {
        let (_, input, truth) = SamplePage.scanned
        let upsideDown = SamplePage.rotated(input, quarterTurns: 2)
        let recognizer = level == .fast ? SamplePage.fast : SamplePage.accurate
        var request = RecognitionRequest()
        request.detectsOrientation = false
        let asGiven = try await recognizer.recognize(upsideDown, request: request)
        #expect(asGiven.provenance.orientationQuarterTurns == 0)
        // Upside-down print read as it is is nonsense: the option took effect (turned, the page reads under 3%).
        let rate = TextErrorRate.characters(asGiven.text, truth: truth).rate
        #expect(rate > 0.5, "CER \(rate)")
    }

    @Test("a region of interest limits the reading to that part of the page")
    func regionOfInterest() async throws {
        let input = SamplePage.scanned.input
        var request = RecognitionRequest()
        request.regionOfInterest = Rect(x: 0, y: 0, width: 1, height: 0.25)
        let top = try await SamplePage.fast.recognize(input, request: request)
        #expect(!top.lines.isEmpty)
        #expect(top.lines.allSatisfy { $0.box.minY < 0.27 * Double(input.height) })
    }
}
