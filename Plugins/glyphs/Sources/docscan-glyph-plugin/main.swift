// The glyph classifier as a DocScan plugin. Its argument is the model file, model.json in the plugin's folder
// (written by train.py).
import DocScanPlugins
import Foundation
import GlyphRecognizer

let path = CommandLine.arguments.dropFirst().first ?? "model.json"
do {
    let model = try GlyphModel(contentsOf: URL(fileURLWithPath: path))
    await PluginServer.serve(GlyphRecognizer(model: model))
} catch {
    FileHandle.standardError.write(Data("docscan-glyph-plugin: \(error)\n".utf8))
    exit(1)
}
