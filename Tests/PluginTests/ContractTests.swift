import DocScanGeometry
import DocScanPlugins
import DocScanRecognition
import DocScanRecognitionTestKit
import DocScanTesseract
import Foundation
import Testing

/// A recognizer that breaks the contract in several ways at once, to show that the kit finds each.
struct CarelessRecognizer: TextRecognizer {
    struct Session: RecognitionSession {
        func recognize(_ page: PageImage, request: RecognitionRequest) async throws(RecognitionError) -> RecognizedPage {
            var word = RecognizedWord(text: "", confidence: Confidence(value: 0.5, native: 50), box: Rect(x: -20, y: 5, width: 10, height: 10))
            word.confidence?.value = 1.5
            let line = RecognizedLine(text: "DOCSCAN", confidence: nil, box: Rect(x: 0, y: 0, width: 10, height: 10), words: [word])
            return RecognizedPage(
                width: page.width / 2, height: page.height, blocks: [RecognizedBlock(box: line.box, lines: [line])],
                provenance: RecognitionProvenance(recognizer: "", backend: "careless", version: "0", models: [], level: .fast, levelMapping: ""))
        }
    }
    var descriptor: RecognizerDescriptor {
        RecognizerDescriptor(
            id: "care less", name: "Careless", version: "0", model: "none", languages: ["eng"], levels: [.fast],
            defaultLevel: .accurate, capabilities: .init())
    }
    func prepare(for request: RecognitionRequest) async throws(RecognitionError) -> any RecognitionSession { Session() }
}

@Suite("Recognizer contract kit")
struct ContractTests {
    @Test("Tesseract fast keeps the contract")
    func tesseract() async {
        let violations = await RecognizerContract(TesseractRecognizer(.init(id: "fast", defaultLevel: .fast))).violations()
        #expect(violations.isEmpty, "\(violations)")
    }

    @Test("Tesseract through a plugin process (PluginServer and PluginRecognizer) keeps the contract too")
    func tesseractPlugin() async throws {
        let folder = TestPlugins.folder.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Plugins/tesseract-isolated")
        let plugin = PluginRecognizer(manifest: try PluginManifest(folder: folder))
        let violations = await RecognizerContract(plugin).violations()
        #expect(violations.isEmpty, "\(violations)")
    }

    @Test("the kit finds each way a careless recognizer breaks the contract")
    func careless() async {
        let violations = await RecognizerContract(CarelessRecognizer()).violations()
        let expected = [
            "its id 'care less' must be letters, digits, '-' or '_'",
            "its default level is not one of its levels",
            "the result is for a 264×162 page, not the 528×162 one it was given",
            "word 1 has a box outside the page",
            "word 1 has a confidence outside 0...1: 1.5",
            "word 1 has no text",
        ]
        for sentence in expected {
            #expect(violations.contains { $0.contains(sentence) }, "missing: \(sentence) in \(violations)")
        }
    }
}
