import ArgumentParser
import DocScanPlugins
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
        let (recognizers, problems) = RecognitionOptions.recognizers(tessdata: tessdata)
        let registry = RecognizerRegistry(recognizers)
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
            if let plugin = recognizer as? PluginRecognizer {
                let manifest = plugin.manifest
                print("  plugin: \(manifest.folder.path), runs `\(manifest.command.joined(separator: " "))`")
                if manifest.executable == nil {
                    let setup = manifest.setup.map { "; run `\($0)` in that folder first" } ?? ""
                    print("  not ready: '\(manifest.command[0])' is not there\(setup)")
                }
            } else {
                print("  built in")
            }
            print("  model: \(d.model)")
            print("  languages: \(d.languages.isEmpty ? "none installed" : d.languages.joined(separator: ", "))")
            print("  capabilities: \(capabilities.joined(separator: ", "))")
        }
        for problem in problems {
            FileHandle.standardError.write(Data("docscan: plugin skipped: \(problem)\n".utf8))
        }
    }
}
