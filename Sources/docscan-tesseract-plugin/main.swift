// A plugin executable made with DocScanPlugins in three lines: Tesseract, isolated in its own process.
//
// `Plugins/tesseract-isolated/plugin.json` runs it; `docscan bench-plugin` uses it to measure what the out-of-process
// path costs against the same recognizer in process. The first argument is the level (fast or accurate).
import DocScanPlugins
import DocScanRecognition
import DocScanTesseract

let level = CommandLine.arguments.dropFirst().first.flatMap(RecognitionLevel.init(rawValue:)) ?? .fast
await PluginServer.serve(TesseractRecognizer(.init(id: "tesseract-isolated", defaultLevel: level)))
