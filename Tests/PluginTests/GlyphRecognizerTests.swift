import DocScan
import DocScanRecognition
import DocScanRecognitionTestKit
import Foundation
import DocScanPlugins
import GlyphRecognizer
import Testing

@Suite("Glyph classifier plugin")
struct GlyphRecognizerTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let recognizer = GlyphRecognizer(model: try! GlyphModel(contentsOf: root.appendingPathComponent("Plugins/glyphs/model.json")))
    /// A label in Noto Mono, a face the model was not trained on (Tests/DocScanTests/Fixtures/caps-label.jpg).
    static let label = root.appendingPathComponent("Tests/DocScanTests/Fixtures/caps-label.jpg")
    static let labelText = "SN 1W2K-RAAY-E0CO\nLOT 83685957/4890\nREF #QY8Z-IDT3"

    /// Characters that differ between two texts of the same length, or nil when their lengths differ.
    static func differences(_ a: String, _ b: String) -> Int? {
        guard a.count == b.count else { return nil }
        return zip(a, b).filter { $0 != $1 }.count
    }

    @Test("it keeps the recognizer contract")
    func contract() async {
        let violations = await RecognizerContract(Self.recognizer).violations()
        #expect(violations.isEmpty, "\(violations)")
    }

    @Test("it reads a label of codes in a face it was not trained on, given upright or upside down")
    func label() async throws {
        let page = try DocumentScanner().scan(contentsOf: Self.label).pages[0].recognitionInput()
        let upright = try await Self.recognizer.recognize(page, request: RecognitionRequest())
        // Noto Mono's O and 0 are one shape apart from a dot: at most the two O/0 of this label may be swapped.
        let wrong = try #require(Self.differences(upright.text, Self.labelText), "\(upright.text)")
        #expect(wrong <= 2, "\(upright.text)")
        #expect(upright.lines.count == 3 && upright.words.count == 6)
        let turned = try await Self.recognizer.recognize(
            try PageImage(
                width: page.width, height: page.height, pixelFormat: page.pixelFormat,
                pixels: Self.halfTurn(page.pixels, channels: page.pixelFormat.rawValue)),
            request: RecognitionRequest())
        #expect(turned.text == upright.text && turned.provenance.orientationQuarterTurns == 2)
        var asGiven = RecognitionRequest()
        asGiven.detectsOrientation = false
        let untried = try await Self.recognizer.recognize(
            try PageImage(
                width: page.width, height: page.height, pixelFormat: page.pixelFormat,
                pixels: Self.halfTurn(page.pixels, channels: page.pixelFormat.rawValue)),
            request: asGiven)
        #expect(untried.provenance.orientationQuarterTurns == 0 && untried.text != upright.text)
        // Boxes come back on the page as given: "SN", top left on the upright page, is bottom right on the turned one.
        let turnedFirst = try #require(turned.words.first?.box), first = try #require(upright.words.first?.box)
        #expect(abs(turnedFirst.x - (Double(page.width) - first.x - first.width)) < 1.5)
        #expect(abs(turnedFirst.y - (Double(page.height) - first.y - first.height)) < 1.5)
    }

    @Test("allowed characters narrow what a glyph may be named")
    func allowedCharacters() async throws {
        let page = try DocumentScanner().scan(contentsOf: Self.label).pages[0].recognitionInput()
        var request = RecognitionRequest()
        request.allowedCharacters = "0123456789/"
        let digits = try await Self.recognizer.recognize(page, request: request)
        #expect(digits.text.allSatisfy { "0123456789/ \n".contains($0) }, "\(digits.text)")
        #expect(digits.lines[1].text.hasSuffix("83685957/4890"), "\(digits.lines.map(\.text))")
    }

    static func halfTurn(_ pixels: [UInt8], channels: Int) -> [UInt8] {
        var turned = [UInt8](repeating: 0, count: pixels.count)
        let count = pixels.count / channels
        for i in 0..<count {
            for c in 0..<channels { turned[(count - 1 - i) * channels + c] = pixels[i * channels + c] }
        }
        return turned
    }
}

@Suite("Glyph classifier, out of process")
struct GlyphPluginTests {
    @Test("through its plugin process it reads the label as in process, and says which way up it found it")
    func throughThePlugin() async throws {
        let plugin = PluginRecognizer(
            manifest: try PluginManifest(folder: GlyphRecognizerTests.root.appendingPathComponent("Plugins/glyphs")))
        let page = try DocumentScanner().scan(contentsOf: GlyphRecognizerTests.label).pages[0].recognitionInput()
        let turnedOver = try PageImage(
            width: page.width, height: page.height, pixelFormat: page.pixelFormat,
            pixels: GlyphRecognizerTests.halfTurn(page.pixels, channels: page.pixelFormat.rawValue))
        let inProcess = try await GlyphRecognizerTests.recognizer.recognize(turnedOver, request: RecognitionRequest())
        let outside = try await plugin.recognize(turnedOver, request: RecognitionRequest())
        await plugin.shutdown()
        #expect(outside.text == inProcess.text && outside.words.map(\.box) == inProcess.words.map(\.box))
        #expect(outside.provenance.orientationQuarterTurns == 2)
        #expect(outside.provenance.levelMapping.hasPrefix("Otsu binarization") && outside.provenance.levelMapping.contains("out of process"))
        #expect(outside.provenance.timingsMilliseconds["plugin recognize"] != nil)
    }
}
