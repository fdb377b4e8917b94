import ArgumentParser
import DocScan
import DocScanRecognition
import DocScanTesseract
import Foundation

/// `docscan scan`: photos in, page images (and JSON) out.
struct Scan: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Detect, flatten and clean the documents in photos, write each page as a PNG, and read their text.",
        discussion: """
            Each page is written as DIR/NAME-pN.png. The text goes to stdout (--format text, the default), or as one \
            JSON object per photo per line (--format json or --json), or into DIR/NAME-pN.hocr (--format hocr) or one \
            searchable DIR/NAME.pdf per photo (--format pdf). A photo that fails is reported (on stderr, and as \
            {"source": ..., "error": ...} in JSON) and the others go on; the exit status is then 1. A page whose \
            recognition fails keeps its image and reports "recognition_error".
            """
    )

    @Argument(help: "Photos to scan (JPEG, PNG, TIFF, WebP, BMP), or folders of them.", completion: .file())
    var photos: [String]

    @Option(name: .shortAndLong, help: "Folder for the page images (created if missing).", completion: .directory)
    var out = "docscan-out"

    @Flag(help: "Print one JSON object per photo (the same as --format json).")
    var json = false

    @Option(help: "Output: text (stdout), json (stdout), hocr (a file per page) or pdf (a searchable PDF per photo).")
    var format: OutputFormat?

    @Flag(name: .customLong("no-ocr"), help: "Skip text recognition: pages and geometry only.")
    var noOCR = false

    @OptionGroup(title: "Recognition")
    var recognition: RecognitionOptions

    @Option(help: "Page rendering: color, gray or bw.")
    var mode: IlluminationCorrector.Mode = .color

    @Option(help: "Render pages at this resolution when their paper size is recognised (A4, Letter, cards, receipts).")
    var dpi: Double?

    @Option(help: "Largest photo accepted, in megapixels.")
    var maxMegapixels: Double = 100

    @Flag(help: "Keep the pages as photographed: no lighting correction.")
    var noLight = false

    @Flag(help: "Never split book spreads.")
    var noSplit = false

    @Flag(help: "Leave camera shake in: no motion blur removal.")
    var noDeblur = false

    enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
        case text, json, hocr, pdf
    }

    /// The output format asked for: --json is --format json; without either, text.
    var output: OutputFormat { format ?? (json ? .json : .text) }

    func validate() throws {
        if json, let format, format != .json { throw ValidationError("--json and --format \(format.rawValue) conflict") }
        if noOCR, [.hocr, .pdf].contains(output) {
            throw ValidationError("--format \(output.rawValue) needs recognition; drop --no-ocr")
        }
        if let dpi, !(dpi >= 10 && dpi <= 2400) { throw ValidationError("--dpi must be between 10 and 2400") }
        if !(maxMegapixels > 0) { throw ValidationError("--max-megapixels must be positive") }
    }

    func run() async throws {
        var options = DocumentScanner.Options()
        options.lightMode = mode
        options.correctsLighting = !noLight
        options.splitsSpreads = !noSplit
        options.correctsMotionBlur = !noDeblur
        options.maximumPixels = Int(maxMegapixels * 1_000_000)
        if let dpi { options.resolution = .dotsPerInch(dpi) }
        let photos = PhotoList.expand(self.photos)
        guard !photos.isEmpty else {
            throw ValidationError("no JPEG, PNG, TIFF, WebP or BMP files in the given folders")
        }
        let writer = PageWriter(folder: URL(fileURLWithPath: out), inputs: photos.map { URL(fileURLWithPath: $0) })
        var reader: PageTextReader?
        if !noOCR {
            let registry = try recognition.registry()
            let recognizer = try registry.recognizer(recognition.recognizer), request = try recognition.request()
            reader = PageTextReader(recognizer: recognizer, request: request)
            options.rendersSuspectedShake = true  // pages read with a suspected shake removed or a defocus undone too
        }
        let scanner = DocumentScanner(options: options)
        let progress = ProgressBar(total: photos.count)

        var failures = 0
        // While a photo's pages are read, the next photo is scanned on another core; results still come out in the
        // order of the photos.
        var nextScan = Self.startScan(of: photos[0], scanner: scanner, writer: writer)
        for (number, photo) in photos.enumerated() {
            progress.update(done: number, label: photo)
            var report: ScanReport
            let scan = await nextScan.value
            if number + 1 < photos.count {
                nextScan = Self.startScan(of: photos[number + 1], scanner: scanner, writer: writer)
            }
            switch scan {
            case .success(let (scanned, paths)):
                var result = scanned
                var outcomes: [Int: Result<RecognizedPage, RecognitionError>] = [:]
                if let reader {
                    let pageOutcomes = await reader.read(result.pages, paths: paths)
                    outcomes = pageOutcomes.mapValues(\.result)
                    do throws(DocScanError) {
                        try keepRenderingRead(&result, where: pageOutcomes, paths: paths, writer: writer)
                        try turnUpright(&result, readings: &outcomes, paths: paths, writer: writer)
                    } catch {
                        failures += 1
                        progress.clear()
                        FileHandle.standardError.write(Data("docscan: \(error.message)\n".utf8))
                    }
                }
                report = ScanReport(source: photo, result: result, imagePaths: paths)
                var readings: [Int: RecognizedPage] = [:]
                if reader != nil {
                    for (i, page) in result.pages.enumerated() {
                        let outcome = outcomes[page.index] ?? .failure(.engineFailure("the page was not read"))
                        report.pages[i].attach(outcome, recognizer: recognition.recognizer)
                        if case .success(let reading) = outcome { readings[page.index] = reading }
                        if case .failure(let error) = outcome {
                            failures += 1
                            progress.clear()
                            FileHandle.standardError.write(Data("docscan: \(photo) page \(page.index): \(error)\n".utf8))
                        }
                    }
                }
                do {
                    try writeDocuments(of: result, readings: readings, paths: paths, photo: photo)
                } catch {
                    failures += 1
                    progress.clear()
                    FileHandle.standardError.write(Data("docscan: \(error)\n".utf8))
                }
                progress.clear()
                if output == .text { printText(of: result, report: report, photo: photo, paths: paths) }
            case .failure(let error):
                failures += 1
                report = ScanReport(source: photo, error: error)
                progress.clear()
                FileHandle.standardError.write(Data("docscan: \(error.message)\n".utf8))
            }
            if output == .json { print(try report.jsonLine()) }
        }
        progress.finish()
        await reader?.shutdown()
        if failures > 0 { throw ExitCode.failure }
    }

    /// Gives each page whose other rendering read better (``ScannedPage/read(with:request:fileURL:)``) that
    /// rendering's pixels, written again; the other pages drop theirs. The photo's removed shake is the one a page's
    /// unshaken rendering removed, or none when every page read better with the scanner's removed shake left in.
    private func keepRenderingRead(
        _ result: inout ScanResult, where outcomes: [Int: PageTextReader.Outcome], paths: [Int: String],
        writer: PageWriter
    ) throws(DocScanError) {
        var shakeRemovalKept = false, shakeRemovalUndone = false
        for (i, page) in result.pages.enumerated() {
            let kept: ScannedPage
            switch outcomes[page.index]?.rendering {
            case .unshaken? where page.unshaken != nil:
                kept = page.adoptingUnshaken()
                result.motionBlur = page.unshaken?.motionBlur
            case .shakeLeftIn? where page.shakeLeftIn != nil:
                kept = page.adoptingShakeLeftIn()
                shakeRemovalUndone = true
            default:
                shakeRemovalKept = shakeRemovalKept || page.shakeLeftIn != nil
                result.pages[i].unshaken = nil
                result.pages[i].shakeLeftIn = nil
                continue
            }
            if let path = paths[page.index] { try writer.rewrite(kept, at: path) }
            result.pages[i] = kept
        }
        if shakeRemovalUndone && !shakeRemovalKept { result.motionBlur = nil }
    }

    /// Turns each page that its recognizer found upside down or sideways (and read turned) the right way up: the page,
    /// its corners, rotation and map, its reading's boxes, and its image file, written again. The halves of a spread
    /// read upside down swap places (``ScanResult/turningPages(_:)``), files and readings with them.
    private func turnUpright(
        _ result: inout ScanResult, readings: inout [Int: Result<RecognizedPage, RecognitionError>], paths: [Int: String],
        writer: PageWriter
    ) throws(DocScanError) {
        var quarterTurns: [Int: Int] = [:]
        for (index, outcome) in readings {
            if case .success(let reading) = outcome, let turns = reading.provenance.orientationQuarterTurns,
                turns % 4 != 0
            {
                quarterTurns[index] = turns
            }
        }
        guard !quarterTurns.isEmpty else { return }
        let (turned, newIndices) = try result.turningPages(quarterTurns)
        var moved: [Int: Result<RecognizedPage, RecognitionError>] = [:]
        for (oldIndex, newIndex) in newIndices {
            let page = turned.pages[newIndex - 1]
            let turns = quarterTurns[oldIndex] ?? 0
            if turns != 0 || newIndex != oldIndex, let path = paths[newIndex] { try writer.rewrite(page, at: path) }
            moved[newIndex] = readings[oldIndex].map { outcome in
                outcome.map { turns == 0 ? $0 : $0.turned(quarterTurns: turns, pageToPhoto: page.homography.inverse) }
            }
        }
        result = turned
        readings = moved
    }

    /// Writes the hOCR or PDF files the format asks for.
    private func writeDocuments(of result: ScanResult, readings: [Int: RecognizedPage], paths: [Int: String], photo: String)
        throws
    {
        switch output {
        case .hocr:
            for page in result.pages {
                guard let reading = readings[page.index], let path = paths[page.index] else { continue }
                let target = URL(fileURLWithPath: path).deletingPathExtension().appendingPathExtension("hocr")
                let name = URL(fileURLWithPath: path).lastPathComponent
                try Data(reading.hOCR(imageName: name, pageNumber: page.index).utf8).write(to: target, options: .atomic)
            }
        case .pdf:
            var pdf = SearchablePDF()
            for page in result.pages {
                let jpeg = try page.image.encoded(as: .jpeg(quality: 85))
                pdf.addPage(
                    jpeg: jpeg, width: page.image.width, height: page.image.height,
                    isGray: page.image.pixelFormat == .gray, resolution: dpi ?? 300, text: readings[page.index])
            }
            guard let first = paths[1] else { return }
            let stem = URL(fileURLWithPath: first).lastPathComponent.replacingOccurrences(of: "-p1.png", with: "")
            let target = URL(fileURLWithPath: first).deletingLastPathComponent().appendingPathComponent(stem + ".pdf")
            try pdf.data().write(to: target, options: .atomic)
        case .text, .json:
            break
        }
    }

    private func printText(of result: ScanResult, report: ScanReport, photo: String, paths: [Int: String]) {
        for (page, entry) in zip(result.pages, report.pages) {
            let state =
                page.detected
                ? "detected, confidence \(String(format: "%.2f", page.confidence))"
                : "no outline found, whole frame used"
            print(
                "==> \(photo): page \(page.index) → \(paths[page.index] ?? "?") (\(page.image.width)x\(page.image.height), \(state)) <=="
            )
            if let text = entry.text { print(text.isEmpty ? "(no text found)" : text) }
        }
    }

    /// Scans `photo` and writes its pages, in a task of its own.
    private static func startScan(of photo: String, scanner: DocumentScanner, writer: PageWriter)
        -> Task<Result<(ScanResult, [Int: String]), DocScanError>, Never>
    {
        Task.detached {
            Result { () throws(DocScanError) in
                let result = try scanner.scan(contentsOf: URL(fileURLWithPath: photo))
                return (result, try writer.write(result.pages, of: URL(fileURLWithPath: photo)))
            }
        }
    }

}

extension IlluminationCorrector.Mode: ExpressibleByArgument {}

extension ScanReport {
    /// The report as one line of JSON.
    func jsonLine() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(self), as: UTF8.self)
    }
}
