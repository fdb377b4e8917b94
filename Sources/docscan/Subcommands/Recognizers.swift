import ArgumentParser
import DocScanRecognition
import DocScanTesseract
import Foundation

/// `docscan recognizers`: what can read text here.
struct Recognizers: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List the registered text recognizers with their descriptors.")

    @Flag(help: "Print the descriptors as JSON, one per line.")
    var json = false

    @Option(help: "Folder of Tesseract models (*.traineddata), searched before the standard places.", completion: .directory)
    var tessdata: String?

    func run() async throws {
        let models = TesseractModelLocator(explicitFolder: tessdata.map { URL(fileURLWithPath: $0) })
        let registry = RecognizerRegistry(TesseractRecognizer.standard(models: models))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        for recognizer in registry.all {
            let d = recognizer.descriptor
            if json {
                print(String(decoding: try encoder.encode(d), as: UTF8.self))
                continue
            }
            let capabilities = Mirror(reflecting: d.capabilities).children.compactMap { child -> String? in
                (child.value as? Bool) == true ? child.label : nil
            }
            print("\(d.id): \(d.name) \(d.version), default level \(d.defaultLevel.rawValue)")
            print("  model: \(d.model)")
            print("  languages: \(d.languages.isEmpty ? "none installed" : d.languages.joined(separator: ", "))")
            print("  capabilities: \(capabilities.joined(separator: ", "))")
        }
    }
}
