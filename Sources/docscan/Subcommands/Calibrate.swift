import ArgumentParser
import DocScan
import DocScanMetrics
import DocScanRecognition
import Foundation

/// `docscan calibrate`: fits each recognizer's map from raw word confidence to the chance the word is right.
struct Calibrate: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Fit each recognizer's confidence calibration on photos with truth, and report ECE before and after.",
        discussion: """
            The photos (sorted by name) are split in two: every other photo is used for fitting, the rest are held \
            out, so the ECE reported after calibration is measured on words the map has never seen. The map is an \
            isotonic regression of "the word occurs in the true text" on the raw confidence, written as \
            OUT/ID.json (one file per recognizer, replaced on every run).
            """
    )

    @Argument(help: "Photos, or folders of photos, with truth files beside them.", completion: .file())
    var paths: [String] = ["Calibration/corpus"]

    @Option(help: "Recognizers to calibrate (comma-separated ids).")
    var recognizers = "fast,accurate"

    @Option(help: "Folder the calibration files are written to (created if missing).", completion: .directory)
    var out = "Calibration/confidence"

    @OptionGroup(title: "Recognition")
    var recognition: RecognitionOptions

    func run() async throws {
        let registry = try recognition.registry(calibrated: false)
        let ids = RecognitionOptions.ids(recognizers)
        guard !ids.isEmpty else { throw ValidationError("--recognizers needs at least one id") }
        let readers = try ids.map { try registry.recognizer($0) }
        let request = try recognition.request()
        var options = DocumentScanner.Options()
        options.rendersSuspectedShake = true  // pages read with a suspected shake removed or a defocus undone too
        let scanner = DocumentScanner(options: options)
        let photos = PhotoList.expand(paths).filter { GroundTruth.file(for: URL(fileURLWithPath: $0)) != nil }
        guard photos.count >= 2 else { throw ValidationError("calibration needs at least two photos with truth files") }
        var fitting = ids.map { RecognizerTally(id: $0) }, heldOut = fitting
        let progress = ProgressBar(total: photos.count * readers.count)
        var done = 0
        for (n, photo) in photos.enumerated() {
            let url = URL(fileURLWithPath: photo)
            let scanned: ScanResult
            do {
                scanned = try scanner.scan(contentsOf: url)
            } catch {
                FileHandle.standardError.write(Data("docscan: \(photo): \(error.message)\n".utf8))
                continue
            }
            let truth = try GroundTruth(contentsOf: GroundTruth.file(for: url)!).pages
            for (i, reader) in readers.enumerated() {
                let outcomes = await PageTextReader(recognizer: reader, request: request).read(scanned.pages)
                let pages = outcomes.compactMapValues { try? $0.result.get() }
                if n % 2 == 0 {
                    fitting[i].score(pages, of: scanned.pages, against: truth)
                } else {
                    heldOut[i].score(pages, of: scanned.pages, against: truth)
                }
                done += 1
                progress.update(done: done, label: "\(url.lastPathComponent) \(ids[i])")
            }
        }
        progress.finish()
        for reader in readers { await reader.shutdown() }

        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        print("recognizer   fitted words  held-out words  held-out ECE raw  calibrated")
        for (i, reader) in readers.enumerated() {
            let map = ConfidenceCalibration(fitting: fitting[i].scoredWords)
            let test = heldOut[i].scoredWords
            let raw = CalibrationError.expected(test)
            let calibrated = CalibrationError.expected(
                test.map { ScoredWord(confidence: map.calibrated($0.confidence), isCorrect: $0.isCorrect) })
            let descriptor = reader.descriptor
            let stored = StoredCalibration(
                recognizer: descriptor.id, name: descriptor.name, version: descriptor.version, model: descriptor.model,
                level: descriptor.defaultLevel.rawValue, fittedWords: fitting[i].scoredWords.count,
                heldOutWords: test.count, heldOutECERaw: raw, heldOutECECalibrated: calibrated, map: map)
            let file = URL(fileURLWithPath: out).appendingPathComponent("\(descriptor.id).json")
            try StoredCalibration.encoder().encode(stored).write(to: file, options: .atomic)
            print(
                descriptor.id.padding(toLength: 12, withPad: " ", startingAt: 0)
                    + String(format: " %12d  %14d  %16.4f  %10.4f", stored.fittedWords, test.count, raw, calibrated))
        }
    }
}
