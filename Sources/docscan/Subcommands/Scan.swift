import ArgumentParser
import DocScan
import Foundation

/// `docscan scan`: photos in, page images (and JSON) out.
struct Scan: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Detect, flatten and clean the documents in photos; write each page as a PNG.",
        discussion: """
            Each page is written as DIR/NAME-pN.png. With --json, one JSON object per photo is printed on its own \
            line. A photo that fails is reported (on stderr, and as {"source": ..., "error": ...} with --json) and the \
            others go on; the exit status is then 1.
            """
    )

    @Argument(help: "Photos to scan (JPEG, PNG, TIFF, WebP, BMP), or folders of them.", completion: .file())
    var photos: [String]

    @Option(name: .shortAndLong, help: "Folder for the page images (created if missing).", completion: .directory)
    var out = "docscan-out"

    @Flag(help: "Print one JSON object per photo.")
    var json = false

    @Flag(name: .customLong("no-ocr"), help: "Skip text recognition (the only behaviour until recognition exists).")
    var noOCR = false

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

    func validate() throws {
        if let dpi, !(dpi >= 10 && dpi <= 2400) { throw ValidationError("--dpi must be between 10 and 2400") }
        if !(maxMegapixels > 0) { throw ValidationError("--max-megapixels must be positive") }
    }

    func run() async throws {
        var options = DocumentScanner.Options()
        options.lightMode = mode
        options.correctsLighting = !noLight
        options.splitsSpreads = !noSplit
        options.maximumPixels = Int(maxMegapixels * 1_000_000)
        if let dpi { options.resolution = .dotsPerInch(dpi) }
        let scanner = DocumentScanner(options: options)
        let photos = PhotoList.expand(self.photos)
        guard !photos.isEmpty else {
            throw ValidationError("no JPEG, PNG, TIFF, WebP or BMP files in the given folders")
        }
        let writer = PageWriter(folder: URL(fileURLWithPath: out), inputs: photos.map { URL(fileURLWithPath: $0) })

        var failures = 0
        for photo in photos {
            let report: ScanReport
            switch scanAndWrite(photo, scanner: scanner, writer: writer) {
            case .success(let (result, paths)):
                report = ScanReport(source: photo, result: result, imagePaths: paths)
                if !json { printSummary(of: result, photo: photo, paths: paths) }
            case .failure(let error):
                failures += 1
                report = ScanReport(source: photo, error: error)
                FileHandle.standardError.write(Data("docscan: \(error.message)\n".utf8))
            }
            if json { print(try report.jsonLine()) }
        }
        if failures > 0 { throw ExitCode.failure }
    }

    private func scanAndWrite(_ photo: String, scanner: DocumentScanner, writer: PageWriter)
        -> Result<(ScanResult, [Int: String]), DocScanError>
    {
        Result { () throws(DocScanError) in
            let result = try scanner.scan(contentsOf: URL(fileURLWithPath: photo))
            return (result, try writer.write(result.pages, of: URL(fileURLWithPath: photo)))
        }
    }

    private func printSummary(of result: ScanResult, photo: String, paths: [Int: String]) {
        for page in result.pages {
            let state =
                page.detected
                ? "detected, confidence \(String(format: "%.2f", page.confidence))"
                : "no outline found, whole frame used"
            print(
                "\(photo): page \(page.index) → \(paths[page.index] ?? "?") (\(page.image.width)x\(page.image.height), \(state))"
            )
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
