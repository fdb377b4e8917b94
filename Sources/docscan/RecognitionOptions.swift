import ArgumentParser
import DocScanGeometry
import DocScanPlugins
import DocScanRecognition
import DocScanTesseract
import Foundation

/// The recognition options shared by the subcommands that read text.
struct RecognitionOptions: ParsableArguments {
    @Option(help: "Recognizer id: fast, accurate, or another registered one (see `docscan recognizers`).")
    var recognizer = "accurate"

    @Option(help: "Languages to read, joined by '+', most likely first (eng+deu).")
    var languages = "eng"

    @Option(help: "A file of words the text is likely to hold (one per line): names, product codes.", completion: .file())
    var customWords: String?

    @Option(help: "Skip text shorter than this fraction of the page height (0...1); reading gets faster.")
    var minTextHeight: Double = 0

    @Option(help: "Read only this region of each page: x,y,width,height as fractions of the page (0...1).")
    var roi: String?

    @Option(help: "Alternative readings to keep per line.")
    var candidates = 1

    @Option(help: "Characters the text may contain (all others are never read).")
    var allowedCharacters: String?

    @Flag(help: "Turn off the dictionary's corrections.")
    var noLanguageCorrection = false

    @Option(help: "Give up on a page after this many seconds.")
    var timeout: Double?

    @Flag(help: "Fail when the recognizer cannot honour an option, instead of warning.")
    var strict = false

    @Option(help: "Folder of Tesseract models (*.traineddata), searched before the standard places.", completion: .directory)
    var tessdata: String?

    @Option(
        help: ArgumentHelp(
            "Folder of confidence calibrations (ID.json, from `docscan calibrate`).",
            discussion: "Default: Calibration/confidence of the DocScan checkout docscan was built in."),
        completion: .directory)
    var calibration: String?

    func validate() throws {
        _ = try request()
    }

    /// The ids of a comma-separated `--recognizers` list, spaces trimmed and empty entries dropped.
    static func ids(_ list: String) -> [String] {
        list.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    /// The registry of recognizers this run can use; with `calibrated`, each recognizer that has a calibration
    /// file in `--calibration` (or the shipped folder) reports calibrated word confidences too.
    /// - Throws: when `--calibration` is not a folder or one of its files is not a calibration.
    func registry(calibrated: Bool = true) throws -> RecognizerRegistry {
        let recognizers = Self.recognizers(tessdata: tessdata).all
        guard calibrated else { return RecognizerRegistry(recognizers) }
        let folder: URL
        if let calibration {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: calibration, isDirectory: &isDirectory), isDirectory.boolValue
            else { throw ValidationError("--calibration \(calibration) is not a folder") }
            folder = URL(fileURLWithPath: calibration)
        } else if let shipped = Checkout.folder("Calibration/confidence") {
            folder = shipped
        } else {
            return RecognizerRegistry(recognizers)
        }
        return RecognizerRegistry(
            try recognizers.map { recognizer -> any TextRecognizer in
                guard let (stored, file) = try StoredCalibration.load(id: recognizer.descriptor.id, from: folder) else {
                    return recognizer
                }
                return CalibratedRecognizer(
                    recognizer, calibration: stored.map,
                    source: "\(file.path) (fitted on \(stored.fittedWords) words, \(stored.name) \(stored.version))")
            })
    }

    /// The built-in recognizers (Tesseract `fast` and `accurate`), then the plugins found in the checkout's `Plugins`,
    /// the user's data folder and `DOCSCAN_PLUGIN_PATH`; and the plugin folders that could not be used.
    static func recognizers(tessdata: String?) -> (all: [any TextRecognizer], problems: [PluginDiscovery.Problem]) {
        let models = TesseractModelLocator(explicitFolder: tessdata.map { URL(fileURLWithPath: $0) })
        var recognizers: [any TextRecognizer] = TesseractRecognizer.standard(models: models)
        var (manifests, problems) = PluginDiscovery.standard(shipped: Checkout.folder("Plugins")).manifests()
        let builtIn = Set(recognizers.map(\.descriptor.id))
        for manifest in manifests {
            if builtIn.contains(manifest.id) {
                problems.append(.init(folder: manifest.folder.path, reason: "id '\(manifest.id)' is a built-in recognizer's; skipped"))
            } else {
                recognizers.append(PluginRecognizer(manifest: manifest))
            }
        }
        return (recognizers, problems)
    }

    /// The request the options describe.
    func request() throws -> RecognitionRequest {
        var request = RecognitionRequest()
        request.languages = languages.split(separator: "+").map { String($0).trimmingCharacters(in: .whitespaces) }
        request.usesLanguageCorrection = !noLanguageCorrection
        request.minimumTextHeight = minTextHeight
        request.maximumCandidates = candidates
        request.allowedCharacters = allowedCharacters
        request.isStrict = strict
        if let timeout {
            guard timeout > 0 else { throw ValidationError("--timeout must be a positive number of seconds") }
            request.timeLimit = .milliseconds(Int64(timeout * 1000))
        }
        if let roi {
            let values = roi.split(separator: ",").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
            guard values.count == 4 else {
                throw ValidationError("--roi takes four numbers: x,y,width,height as fractions of the page")
            }
            request.regionOfInterest = Rect(x: values[0], y: values[1], width: values[2], height: values[3])
        }
        if let customWords {
            do {
                let text = try String(contentsOfFile: customWords, encoding: .utf8)
                request.customWords = text.split(whereSeparator: \.isNewline).map {
                    $0.trimmingCharacters(in: .whitespaces)
                }.filter { !$0.isEmpty }
            } catch {
                throw ValidationError("cannot read the custom words file \(customWords): \(error.localizedDescription)")
            }
        }
        do { try request.validate() } catch { throw ValidationError(error.description) }
        return request
    }
}
