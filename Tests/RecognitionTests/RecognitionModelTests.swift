import DocScanGeometry
import DocScanMetrics
import DocScanRecognition
import Foundation
import Testing

/// A recognizer with no capabilities, to test what the host does around any recognizer.
struct PlainRecognizer: TextRecognizer {
    /// The confidence of the one word it reads (0...1), or none.
    var wordConfidence: Double? = nil

    struct Session: RecognitionSession {
        var wordConfidence: Double?

        func recognize(_ page: PageImage, request: RecognitionRequest) async throws(RecognitionError) -> RecognizedPage {
            let word = RecognizedWord(
                text: "hello", confidence: wordConfidence.map { Confidence(value: $0, native: $0 * 100) },
                box: Rect(x: 10, y: 10, width: 40, height: 10))
            let line = RecognizedLine(text: "hello", confidence: nil, box: word.box, words: [word])
            return RecognizedPage(
                width: page.width, height: page.height, blocks: [RecognizedBlock(box: word.box, lines: [line])],
                provenance: RecognitionProvenance(
                    recognizer: "", backend: "plain", version: "1", models: [], level: .fast, levelMapping: "none"))
        }
    }
    var descriptor: RecognizerDescriptor {
        RecognizerDescriptor(
            id: "plain", name: "Plain", version: "1", model: "none", languages: ["eng"], levels: [.fast],
            defaultLevel: .fast, capabilities: .init())
    }
    func prepare(for request: RecognitionRequest) async throws(RecognitionError) -> any RecognitionSession {
        Session(wordConfidence: wordConfidence)
    }
}

@Suite("Recognition model")
struct RecognitionModelTests {
    let page = try! PageImage(width: 100, height: 50, pixelFormat: .gray, pixels: [UInt8](repeating: 255, count: 5000))

    @Test("an unknown recognizer id lists the known ones")
    func unknownRecognizer() throws {
        let registry = RecognizerRegistry([PlainRecognizer()])
        #expect(throws: RecognitionError.unknownRecognizer("best", known: ["plain"])) { try registry.recognizer("best") }
        #expect(RecognitionError.unknownRecognizer("best", known: ["plain"]).description.contains("known recognizers: plain"))
    }

    @Test("an option the recognizer cannot honour is a warning, or an error in strict mode")
    func strictMode() async throws {
        var request = RecognitionRequest()
        request.customWords = ["DocScan"]
        let lenient = try await PlainRecognizer().recognize(page, request: request)
        #expect(lenient.diagnostics.map(\.message) == ["plain cannot honour custom words; it was ignored"])
        request.isStrict = true
        await #expect(throws: RecognitionError.unsupportedOption(recognizer: "plain", option: "custom words")) {
            try await PlainRecognizer().recognize(self.page, request: request)
        }
    }

    @Test("confidence stays nil when the engine has none, and boxes map into the photo")
    func noInventedConfidence() async throws {
        var input = page
        input.pageToPhoto = Homography.translation(x: 100, y: 200)
        let result = try await PlainRecognizer().recognize(input, request: RecognitionRequest())
        #expect(result.lines[0].confidence == nil && result.words[0].confidence == nil)
        #expect(result.words[0].photoQuad?.topLeft == Point(x: 110, y: 210))
    }

    @Test("a reading turned with its page keeps every box on the same ink, and its photo quads follow the new corners")
    func turnedReading() {
        // A 100 × 50 page with one word at (10, 5), 20 × 10; the page turned a quarter clockwise is 50 × 100.
        let word = RecognizedWord(
            text: "word", confidence: nil, box: Rect(x: 10, y: 5, width: 20, height: 10),
            glyphs: [RecognizedGlyph(text: "w", confidence: nil, box: Rect(x: 10, y: 5, width: 5, height: 10))])
        let line = RecognizedLine(text: "word", confidence: nil, box: word.box, words: [word])
        let reading = RecognizedPage(
            width: 100, height: 50, blocks: [RecognizedBlock(box: word.box, lines: [line])],
            provenance: RecognitionProvenance(recognizer: "plain", backend: "none", version: "0", models: [], level: .fast, levelMapping: ""))
        let quarter = reading.turned(quarterTurns: 1, pageToPhoto: .translation(x: 100, y: 200))
        #expect(quarter.width == 50 && quarter.height == 100)
        #expect(quarter.words[0].box == Rect(x: 35, y: 10, width: 10, height: 20))
        #expect(quarter.words[0].glyphs[0].box == Rect(x: 35, y: 10, width: 10, height: 5))
        #expect(quarter.blocks[0].box == quarter.lines[0].box && quarter.lines[0].box == quarter.words[0].box)
        #expect(quarter.words[0].photoQuad?.topLeft == Point(x: 135, y: 210))
        #expect(reading.turned(quarterTurns: 2, pageToPhoto: nil).words[0].box == Rect(x: 70, y: 35, width: 20, height: 10))
        #expect(reading.turned(quarterTurns: 3, pageToPhoto: nil).words[0].box == Rect(x: 5, y: 70, width: 10, height: 20))
        #expect(quarter.turned(quarterTurns: 3, pageToPhoto: nil).words.map(\.box) == reading.words.map(\.box))
    }

    @Test("a calibrated recognizer adds the calibrated value beside the raw one, and says where the map came from")
    func calibratedConfidence() async throws {
        let map = ConfidenceCalibration(thresholds: [0, 0.5, 0.95], values: [0.1, 0.6, 0.9])
        let recognizer = CalibratedRecognizer(PlainRecognizer(wordConfidence: 0.8), calibration: map, source: "test map")
        #expect(recognizer.descriptor == PlainRecognizer().descriptor)
        let result = try await recognizer.recognize(page, request: RecognitionRequest())
        let confidence = try #require(result.words[0].confidence)
        #expect(confidence.value == 0.8 && confidence.native == 80 && confidence.calibrated == 0.6)
        #expect(result.provenance.confidenceCalibration == "test map")
        let json = String(decoding: try JSONEncoder().encode(result), as: UTF8.self)
        #expect(json.contains("\"calibrated\":0.6") && json.contains("\"confidence_calibration\":\"test map\""))
        // No confidence, nothing to calibrate: none is made up.
        let none = try await CalibratedRecognizer(PlainRecognizer(), calibration: map, source: "test map")
            .recognize(page, request: RecognitionRequest())
        #expect(none.words[0].confidence == nil)
    }

    @Test("bad requests and pages are refused with a reason")
    func validation() {
        var request = RecognitionRequest()
        request.minimumTextHeight = 1.5
        #expect(throws: RecognitionError.self) { try request.validate() }
        request = RecognitionRequest()
        request.regionOfInterest = Rect(x: 0.5, y: 0, width: 0.8, height: 1)
        #expect(throws: RecognitionError.self) { try request.validate() }
        request = RecognitionRequest()
        request.languages = ["eng;rm -rf"]
        #expect(throws: RecognitionError.self) { try request.validate() }
        #expect(throws: RecognitionError.self) {
            try PageImage(width: 10, height: 10, pixelFormat: .rgb, pixels: [UInt8](repeating: 0, count: 100))
        }
    }

    @Test("a line's range box is the union of the glyphs in the range")
    func lineRangeBox() {
        let glyphs = ["a", "b"].enumerated().map { i, t in
            RecognizedGlyph(text: t, confidence: nil, box: Rect(x: Double(i * 10), y: 0, width: 8, height: 10))
        }
        let first = RecognizedWord(text: "ab", confidence: nil, box: Rect(x: 0, y: 0, width: 18, height: 10), glyphs: glyphs)
        let second = RecognizedWord(text: "cd", confidence: nil, box: Rect(x: 30, y: 0, width: 20, height: 10))
        let line = RecognizedLine(text: "ab cd", confidence: nil, box: Rect(x: 0, y: 0, width: 50, height: 10), words: [first, second])
        let text = line.text
        #expect(line.boundingBox(for: text.index(after: text.startIndex)..<text.index(text.startIndex, offsetBy: 2)) == glyphs[1].box)
        #expect(line.boundingBox(for: text.range(of: "b c")!) == Rect(x: 10, y: 0, width: 40, height: 10))
        #expect(line.boundingBox(for: text.startIndex..<text.startIndex) == nil)
    }

    @Test("CER and WER by hand")
    func errorRates() {
        #expect(TextErrorRate.characters("kitten", truth: "sitting") == TextErrorRate(edits: 3, reference: 7))
        #expect(TextErrorRate.characters("a  b\nc", truth: "a b c").edits == 0)
        #expect(TextErrorRate.words("the cat sat", truth: "the cat sat down") == TextErrorRate(edits: 1, reference: 4))
        #expect(TextErrorRate.characters("", truth: "").rate == 0)
        #expect(TextErrorRate.characters("x", truth: "").rate == 1)
        #expect(TextErrorRate.characters("Café", truth: "Cafe\u{301}").edits == 0)  // NFC
        #expect(TextErrorRate.characters("TOTAL 3.00", truth: "------\nTOTAL 3.00\n=====", .init(ignoresRules: true)).edits == 0)
        #expect(TextErrorRate.characters("a--b", truth: "a--b", .init(ignoresRules: true)).edits == 0)
        #expect(TextErrorRate.characters("HELLO!", truth: "hello", .init(ignoresCase: true, ignoresPunctuation: true)).edits == 0)
    }

    @Test("hOCR and PDF carry the words")
    func documents() async throws {
        let result = try await PlainRecognizer().recognize(page, request: RecognitionRequest())
        let hocr = result.hOCR(imageName: "p.png")
        #expect(hocr.contains("class=\"ocrx_word\"") && hocr.contains("bbox 10 10 50 20\">hello</span>"))
        var pdf = SearchablePDF()
        pdf.addPage(jpeg: Data([0xFF, 0xD8, 0xFF, 0xD9]), width: 100, height: 50, isGray: true, text: result)
        let bytes = String(decoding: pdf.data(), as: UTF8.self)
        #expect(bytes.hasPrefix("%PDF-1.4") && bytes.contains("(hello) Tj") && bytes.hasSuffix("%%EOF\n"))
        #expect(SearchablePDF.winAnsi("a(b)\\é€") == "a\\(b\\)\\\\\\351?")
    }
}
