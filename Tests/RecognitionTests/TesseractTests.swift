import DocScan
import DocScanMetrics
import DocScanRecognition
import DocScanRecognitionTestKit
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

    @Test(
        "a photo smeared by camera shake reads far better with the shake removed, and a mild shake removed costs nothing",
        arguments: ["Calibration/corpus/form-04", "Calibration/corpus/prose-01", "Tests/DocScanTests/Fixtures/page-with-long-shake"])
    func shakenPhotos(name: String) async throws {
        let photo = SamplePage.root.appendingPathComponent("\(name).jpg")
        let truth = try #require(try GroundTruth(contentsOf: GroundTruth.file(for: photo)!).pages[0].text)
        var kept = DocumentScanner.Options()
        kept.correctsMotionBlur = false
        var cer: [Double] = []
        for options in [DocumentScanner.Options(), kept] {
            let page = try #require(try DocumentScanner(options: options).scan(contentsOf: photo).pages.first)
            let read = try await SamplePage.accurate.recognize(try page.recognitionInput(), request: RecognitionRequest())
            cer.append(TextErrorRate.characters(read.text, truth: truth).rate)
        }
        // Measured: the long shake 2.4% against 10.0% with the shake left in; prose-01 (12 MP, its page sampled
        // bilinearly) 0.8% against 3.1%. form-04 (2 MP, its page sampled cubically) reads at 4.9% against 4.1%: its
        // shake, 2.9 px, is mild enough that the sharper sampling leaves Tesseract as much to read either way (with
        // bilinear sampling this test recorded 8.6% against 46.7%). A mild shake removed must cost no more than a point.
        if name.hasSuffix("form-04") {
            #expect(cer[0] < 0.08 && cer[0] < cer[1] + 0.01, "CER with the shake removed \(cer[0]), left in \(cer[1])")
        } else {
            #expect(cer[0] < 0.12 && cer[0] * 3 < cer[1], "CER with the shake removed \(cer[0]), left in \(cer[1])")
        }
    }

    @Test("a smear the scanner does not trust is removed when the page reads clearly better without it")
    func suspectedShake() async throws {
        let (scan, truth) = try SamplePage.scanForReading(fixture: "prose-with-unsure-shake.jpg")
        #expect(scan.motionBlur == nil, "the smear is not a clear shake")
        let page = try #require(scan.pages.first)
        #expect(page.unshaken != nil)
        let judged = try await page.read(with: SamplePage.accurate, request: RecognitionRequest())
        var asTaken = page
        asTaken.unshaken = nil
        let plain = try await asTaken.read(with: SamplePage.accurate, request: RecognitionRequest())
        #expect(judged.isFromUnshaken && !plain.isFromUnshaken)
        let judgedCER = TextErrorRate.characters(judged.page.text, truth: truth).rate
        let plainCER = TextErrorRate.characters(plain.page.text, truth: truth).rate
        // Measured: 6.9% against 32.7% with the smear left in.
        #expect(judgedCER < 0.10 && judgedCER * 3 < plainCER, "CER judged \(judgedCER), as taken \(plainCER)")
    }

    @Test("a shake the scanner removed that was not there is left in when the page reads clearly better with it")
    func shakeRemovedWrongly() async throws {
        // Corpus prose-08 (3 MP, no shake), cut out as the scanner cuts it, and again from the photo with a 16 px
        // shake across its lines removed that the camera never made: what the scanner hands over when print's own
        // structure passes for a shake (seed 57000 spread-03, both pages read at 71% CER). Every stroke is echoed.
        let photo = SamplePage.root.appendingPathComponent("Calibration/corpus/prose-08.jpg")
        let truth = try #require(try GroundTruth(contentsOf: GroundTruth.file(for: photo)!).pages[0].text)
        let loaded = try ImageLoader().load(contentsOf: photo)
        var options = DocumentScanner.Options()
        options.correctsMotionBlur = false
        let clean = try #require(try DocumentScanner(options: options).scan(loaded).pages.first)
        let phantom = MotionBlur(length: 16, angleDegrees: 90, notchDepth: 0, anisotropy: 0)
        let echoed = try MotionBlurCorrector().removing(phantom, from: loaded.image)
            .warped(by: clean.homography, width: clean.unlitImage.width, height: clean.unlitImage.height)
        var page = clean
        page.image = echoed
        page.unlitImage = echoed
        page.refocusRadius = nil
        let echoedOnly = try await page.read(with: SamplePage.accurate, request: RecognitionRequest())
        page.shakeLeftIn = .init(image: clean.image, unlitImage: clean.unlitImage)
        let judged = try await page.read(with: SamplePage.accurate, request: RecognitionRequest())
        #expect(echoedOnly.rendering == .asTaken && judged.rendering == .shakeLeftIn)
        #expect(judged.page.provenance.levelMapping.contains("left in"), "\(judged.page.provenance.levelMapping)")
        let judgedCER = TextErrorRate.characters(judged.page.text, truth: truth).rate
        let echoedCER = TextErrorRate.characters(echoedOnly.page.text, truth: truth).rate
        #expect(judgedCER < 0.05 && judgedCER * 3 < echoedCER, "CER judged \(judgedCER), echoed \(echoedCER)")
    }

    @Test("a shake the scanner removed that was there stays removed when the page is also read with it left in")
    func shakeRemovedRightly() async throws {
        let (scan, truth) = try SamplePage.scanForReading(fixture: "page-with-long-shake.jpg")
        #expect(scan.motionBlur != nil, "a clear shake")
        let page = try #require(scan.pages.first)
        #expect(page.shakeLeftIn != nil && page.unshaken == nil && page.refocusRadius == nil)
        let judged = try await page.read(with: SamplePage.accurate, request: RecognitionRequest())
        #expect(judged.rendering == .asTaken)
        let cer = TextErrorRate.characters(judged.page.text, truth: truth).rate
        #expect(cer < 0.06, "CER \(cer)")
    }

    @Test("a defocused page is read with the defocus undone when that reads clearly better")
    func defocusedPage() async throws {
        // Seed 29000 receipt-06 (2.8 MP, a disk of 1.64 px), cut to the receipt: the scanner gives a page of the whole
        // photo a defocus of 1.83 px to try, and of this smaller crop less, so the test asks for the whole photo's.
        let (scan, truth) = try SamplePage.scanForReading(fixture: "defocused-receipt.jpg")
        var page = try #require(scan.pages.first)
        #expect(page.unshaken == nil && page.refocusRadius != nil)
        let wholePhotoRadius = DefocusCorrector().typicalRadius(photoWidth: 1440, photoHeight: 1920)
        page.refocusRadius = wholePhotoRadius * page.pixelsPerPhotoPixel
        let judged = try await page.read(with: SamplePage.accurate, request: RecognitionRequest())
        var asTaken = page
        asTaken.refocusRadius = nil
        let plain = try await asTaken.read(with: SamplePage.accurate, request: RecognitionRequest())
        #expect(judged.rendering == .refocused && plain.rendering == .asTaken)
        #expect(judged.page.provenance.levelMapping.contains("defocus"), "\(judged.page.provenance.levelMapping)")
        // The renderings are judged by what each reading held before words were filled in from the page's other
        // readings (`asRead`): measured 34.4% refocused against 39.1% as taken. Filling narrows the gap, the page as
        // taken having more to fill: 28.5% against 30.7%.
        let judgedCER = TextErrorRate.characters(judged.page.text, truth: truth).rate
        let plainCER = TextErrorRate.characters(plain.page.text, truth: truth).rate
        let judgedAsRead = TextErrorRate.characters(judged.page.asRead.text, truth: truth).rate
        let plainAsRead = TextErrorRate.characters(plain.page.asRead.text, truth: truth).rate
        #expect(judgedAsRead < plainAsRead - 0.04, "CER as read: judged \(judgedAsRead), as taken \(plainAsRead)")
        #expect(judgedCER < plainCER - 0.015, "CER judged \(judgedCER), as taken \(plainCER)")
    }

    @Test("A page whose first reading is next to nothing is read its other way with the trials of its turns")
    func nextToNothingReadWithTurns() async throws {
        // Seed 73000 multi-03 (2.8 MP, JPEG quality 60, shaken by 4.7 px): its card, cut upside down, reads as four
        // lines of noise that pass for upright, and its unshaken rendering was read the same way up.
        // Measured: 46.6%, against 90.2% without the trials.
        let (scan, truth) = try SamplePage.scanForReading(fixture: "card-upside-down-beside-shaken-receipt.jpg", page: 1)
        try #require(scan.pages.count == 2)
        let reading = try await scan.pages[1].read(with: SamplePage.accurate, request: RecognitionRequest())
        #expect(reading.page.provenance.orientationQuarterTurns == 2)
        let rate = TextErrorRate.characters(reading.page.text, truth: truth).rate
        #expect(rate < 0.6, "CER \(rate)")
    }

    @Test("accurate reads again a page whose first reading is sure of every word but left whole paragraphs out")
    func pageHalfRead() async throws {
        // Seed 41000 prose-10 (2.8 MP, defocused), cut to the page: Tesseract's layout analysis dropped the upper half
        // of the page and read the rest with every word sure; 58% of the page's marks lay on the lines read.
        // Measured: 0.5%, against 49% from the first reading alone.
        try await SamplePage.expectReadAsOneBlock(
            "Tests/DocScanTests/Fixtures/prose-half-read-when-defocused.jpg", with: SamplePage.accurate, under: 0.05)
    }

    @Test("fast reads a form again as one block with its drawn lines erased, so its boxes do not run through the text")
    func formAsOneBlockWithoutLines() async throws {
        // Seed 57000 form-04 (2 MP, JPEG quality 65, on carpet): Tesseract's layout analysis loses most of the form,
        // and read as one block its field boxes' lines garble the text they run through.
        // Measured: 10.8%, against 40.5% with the lines left in.
        try await SamplePage.expectReadAsOneBlock(
            "Tests/DocScanTests/Fixtures/form-on-carpet-read-as-one-block.jpg", with: SamplePage.fast, under: 0.16)
    }

    @Test("accurate reads the values in a form's drawn boxes, which layout analysis drops, and not its checkboxes")
    func textInDrawnBoxes() async throws {
        // Seed 31000 form-05 (3 MP, JPEG quality 82 here): a parking permit form on cloth, its fields filled in.
        let (read, truth) = try await SamplePage.scanAndRead(
            "Tests/DocScanTests/Fixtures/form-with-filled-boxes.jpg", with: SamplePage.accurate)
        // "James Morgan" is read with the lines erased at under 0.6 confidence on average: a field misread costs no
        // more than a field left out, so such lines join the reading from 0.3.
        for value in ["Account Director", "Andrew Turner", "M-976074", "James Morgan"] {
            #expect(read.text.contains(value), "\(value) missing from:\n\(read.text)")
        }
        #expect(read.provenance.levelMapping.contains("drawn boxes"))
        // Its three checkboxes (one ticked) were read as "X", "(D]" and "DD" before they were found in the pixels.
        let mapping = read.provenance.levelMapping
        #expect(mapping.contains("left out 3 words read in checkboxes"), "\(mapping)")
        let text = read.text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(text.contains("Preferred contact: Email Telephone Post"), "\(text)")
        // Measured: 9.6% (11.9% before the checkboxes were left out), against 14.0% with only lines 0.6 sure added,
        // and 21.8% before the boxes were erased for a second reading.
        let rate = TextErrorRate.characters(read.text, truth: truth).rate
        #expect(rate < 0.11, "CER \(rate)")
    }

    @Test("accurate reads faint lines beside a bold one again with its ink evened out, and keeps that reading")
    func faintLinesBesideBoldOne() async throws {
        // The shape of a faded till receipt (seed 67000 multi-02): its bold heading, and item lines so faint that
        // Tesseract's one threshold for the page, set between the heading and the rest, turns them to paper. That
        // receipt read at 92.5% CER, 8.8% with its ink evened out.
        let faint: UInt8 = 205
        let page = RecognizerContract.drawnPage(
            lines: [("DOCSCAN", 0), ("SCAN 2024", faint), ("CODA 4200", faint), ("DOCS 2042", faint)], paper: 245)
        let truth = "DOCSCAN\nSCAN 2024\nCODA 4200\nDOCS 2042"
        let read = try await SamplePage.accurate.recognize(page, request: RecognitionRequest())
        #expect(read.provenance.levelMapping.contains("ink evened out"), "\(read.provenance.levelMapping)")
        // Measured: 16.2% (the blocky face reads as DOCSCAH and 2b24 now and then); the heading alone would be 81%.
        #expect(read.text.contains("CODA"), "\(read.text)")
        let rate = TextErrorRate.characters(read.text, truth: truth).rate
        #expect(rate < 0.3, "CER \(rate): \(read.text)")
    }

    @Test("fast reads a till receipt again as one block with its faint print darkened, and keeps the better reading")
    func receiptAsOneBlock() async throws {
        // Corpus receipt-02: Tesseract's layout analysis splits the receipt's columns of items and prices and loses
        // lines of its faint print.
        // Measured: 10.2%, against 26.3% from the first reading alone.
        try await SamplePage.expectReadAsOneBlock("Calibration/corpus/receipt-02.jpg", with: SamplePage.fast, under: 0.15)
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
