import DocScan
import DocScanMetrics
import Foundation
import Testing

/// Runs the built `docscan` executable.
struct DocScanTool {
    struct Output {
        var status: Int32
        var standardOutput: String
        var standardError: String
    }

    /// The executable sits beside the test bundle in SwiftPM's build folder.
    static let executable: URL = {
        var folder = URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL.deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = folder.appendingPathComponent("docscan")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            folder.deleteLastPathComponent()
        }
        return folder.appendingPathComponent("docscan")
    }()

    /// Runs `docscan` with `arguments` and waits for it to end, on a thread of its own (see `onOwnThread`).
    static func run(_ arguments: [String], in directory: URL? = nil, environment: [String: String] = [:]) async throws
        -> Output
    {
        try await onOwnThread { try runBlocking(arguments, in: directory, environment: environment) }
    }

    private static func runBlocking(_ arguments: [String], in directory: URL?, environment: [String: String]) throws
        -> Output
    {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        if let directory { process.currentDirectoryURL = directory }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        // Read both pipes before waiting, so a chatty child cannot fill a pipe and block.
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Output(
            status: process.terminationStatus, standardOutput: String(decoding: outData, as: UTF8.self),
            standardError: String(decoding: errData, as: UTF8.self))
    }
}

/// Runs `body`, which blocks (waiting for a child process), on a new thread, and resumes with its result.
///
/// Tests run in parallel on Swift concurrency's thread pool, which has as many threads as cores: two here. A test that
/// waited for a child process on a pool thread would hold up every other test for that long (and make the ones that
/// measure time fail).
func onOwnThread<Value: Sendable>(_ body: @escaping @Sendable () throws -> Value) async throws -> Value {
    try await withCheckedThrowingContinuation { continuation in
        Thread.detachNewThread { continuation.resume(with: Result { try body() }) }
    }
}

enum Paths {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let sample = packageRoot.appendingPathComponent("Calibration/sample/sample.jpg")

    static func temporaryFolder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("docscan-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// A new temporary folder holding copies of these files of the calibration corpus.
    static func folder(withCorpusFiles names: [String]) throws -> URL {
        let folder = try temporaryFolder()
        let corpus = packageRoot.appendingPathComponent("Calibration/corpus")
        for name in names {
            try FileManager.default.copyItem(at: corpus.appendingPathComponent(name), to: folder.appendingPathComponent(name))
        }
        return folder
    }
}

func decodeReports(_ output: String) throws -> [ScanReport] {
    try output.split(separator: "\n").map { try JSONDecoder().decode(ScanReport.self, from: Data($0.utf8)) }
}

@Suite("docscan command line")
struct CommandLineTests {
    @Test("Help lists the subcommands and exits 0")
    func help() async throws {
        let output = try await DocScanTool.run(["--help"])
        #expect(output.status == 0)
        for command in ["scan", "compare", "recognizers", "evaluate", "bench", "bench-recognizer"] {
            #expect(output.standardOutput.contains(command))
        }
        #expect(output.standardOutput.contains("USAGE: docscan <subcommand>"))
    }

    @Test("bench --detect-only times each photo of a folder and ends with their median and slowest detection")
    func benchFolder() async throws {
        let folder = try Paths.folder(withCorpusFiles: ["card-03.jpg", "form-02.jpg"])
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = try await DocScanTool.run(["bench", folder.path, "--detect-only", "--iterations", "1"])
        #expect(output.status == 0, "stderr: \(output.standardError)")
        let lines = output.standardOutput.split(separator: "\n").map(String.init)
        // Two photos, each with its decode and detection, and no later stage.
        #expect(lines.filter { $0.contains(".jpg: ") }.count == 2)
        #expect(lines.filter { $0.hasPrefix("  detect ") }.count == 2)
        #expect(!output.standardOutput.contains("warp"))
        // Where the high-water mark can be reset (Linux), each photo's peak while it is decoded and detected.
        if FileManager.default.isWritableFile(atPath: "/proc/self/clear_refs") {
            let peaks = lines.filter {
                $0.hasPrefix("  peak RSS ") && $0.contains(" MB (while decoding and detection ran; ")
            }
            #expect(peaks.count == 2)
        }
        let summary = try #require(lines.last)
        #expect(summary.hasPrefix("detect over 2 photos: median "), "\(summary)")
        #expect(summary.hasSuffix(".jpg)"), "\(summary)")
    }

    @Test("Scanning the sample photo writes its page and a JSON report that matches the truth")
    func scanSample() async throws {
        let folder = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = try await DocScanTool.run(["scan", Paths.sample.path, "--json", "--out", folder.path])
        #expect(output.status == 0, "stderr: \(output.standardError)")
        let report = try #require(try decodeReports(output.standardOutput).first)
        #expect(report.error == nil)
        #expect(report.width == 4032 || report.width == 3024)
        let page = try #require(report.pages.first)
        #expect(page.detected && page.confidence > 0.5 && page.index == 1)
        let written = try ImageLoader().load(contentsOf: URL(fileURLWithPath: try #require(page.image)))
        #expect(written.header.format == .png)
        #expect(written.image.width == page.width && written.image.height == page.height)
        let truth = try GroundTruth(contentsOf: try #require(GroundTruth.file(for: Paths.sample)))
        let trueQuad = try #require(truth.pages.first?.quad)
        #expect(page.quad.intersectionOverUnion(trueQuad) > 0.97)
        let timings = try #require(report.timings)
        #expect(timings.detect > 0 && timings.warp > 0 && timings.light > 0)
    }

    @Test("A page the recognizer finds upside down is written upright, its corners and boxes in reading order")
    func pagesTurnedUpright() async throws {
        // Seed 29000 receipt-01 at half size (3 MP, JPEG quality 75), lying upside down (180°). Its monospaced columns
        // project down the page almost as sharply as its lines do across it, so the scan alone trusts neither
        // direction and leaves it as photographed; `accurate` reads it the right way up.
        let photo = Paths.packageRoot.appendingPathComponent(
            "Tests/DocScanTests/Fixtures/receipt-with-faint-line-direction.jpg")
        let trueQuad = Quad(
            [(653.0, 1864.7), (233.6, 1591.8), (578.5, 179.1), (1321.8, 447.3)].map { Point(x: $0.0, y: $0.1) })
        let folder = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let plain = try await DocScanTool.run(["scan", photo.path, "--json", "--no-ocr", "--out", folder.path])
        let plainPage = try #require(try decodeReports(plain.standardOutput).first?.pages.first)
        #expect(plainPage.rotation == 0, "the scan alone now turns this receipt right: pick another fixture")
        let output = try await DocScanTool.run(["scan", photo.path, "--json", "--out", folder.path])
        #expect(output.status == 0, "stderr: \(output.standardError)")
        let report = try #require(try decodeReports(output.standardOutput).first)
        let page = try #require(report.pages.first)
        #expect(report.pages.count == 1)
        #expect(page.rotation == 180)
        #expect(page.recognition?.orientationQuarterTurns == 2)
        #expect(page.quad.maximumCornerDistance(to: trueQuad) < 15, "\(page.quad) against \(trueQuad)")
        let written = try ImageLoader().load(contentsOf: URL(fileURLWithPath: try #require(page.image))).image
        #expect(written.width == page.width && written.height == page.height)
        // The first line read lies at the top of the page, near the page's top edge in the photo.
        let first = try #require(page.lines?.first)
        #expect(first.box.minY < 0.2 * Double(page.height), "first line \(first.text) at \(first.box)")
        let corner = try #require(first.photoQuad?.topLeft)
        let top = page.quad.topLeft.distance(to: corner), bottom = page.quad.bottomRight.distance(to: corner)
        #expect(top < bottom, "the first line's top-left corner lies nearer the page's bottom")
    }

    @Test("A smear kept only because the page reads better without it is reported, and the page written without it")
    func suspectedShakeKept() async throws {
        // A 2 MP prose photo (seed 21000) with a 3.4 px shake the Deblur stage does not trust on its own.
        let photo = Paths.packageRoot.appendingPathComponent("Tests/DocScanTests/Fixtures/prose-with-unsure-shake.jpg")
        let folder = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let plain = try await DocScanTool.run(["scan", photo.path, "--json", "--no-ocr", "--out", folder.path])
        let plainReport = try #require(try decodeReports(plain.standardOutput).first)
        #expect(plainReport.motionBlur == nil)
        let plainPage = try ImageLoader().load(contentsOf: URL(fileURLWithPath: try #require(plainReport.pages.first?.image)))
        let read = try await DocScanTool.run(["scan", photo.path, "--json", "--out", folder.path])
        #expect(read.status == 0, "stderr: \(read.standardError)")
        let report = try #require(try decodeReports(read.standardOutput).first)
        let blur = try #require(report.motionBlur, "the reading without the smear was not kept")
        #expect(blur.length >= 3)
        let page = try #require(report.pages.first)
        let written = try ImageLoader().load(contentsOf: URL(fileURLWithPath: try #require(page.image))).image
        #expect(written.width == plainPage.image.width && written.height == plainPage.image.height)
        #expect(try written.encoded() != plainPage.image.encoded(), "the page written is the one read")
    }

    @Test("bench-recognizer times our backend against the tesseract command and gets the same text")
    func benchRecognizer() async throws {
        let folder = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // A flat page at 100 dpi keeps the rounds short.
        let scan = try await DocScanTool.run(["scan", Paths.sample.path, "--no-ocr", "--mode", "gray", "--dpi", "100", "--out", folder.path])
        #expect(scan.status == 0, "stderr: \(scan.standardError)")
        let page = folder.appendingPathComponent("sample-p1.png").path
        let output = try await DocScanTool.run(["bench-recognizer", page, "--level", "fast", "--iterations", "1", "--json"])
        #expect(output.status == 0, "stderr: \(output.standardError)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(output.standardOutput.utf8)) as? [String: Any])
        let ratios = try #require(object["ratio_to_command"] as? [String: Double])
        let agreement = try #require(object["cer_to_command"] as? [String: Double])
        #expect(Set(ratios.keys) == ["tesseract command", "docscan fast, cold", "docscan fast, warm"])
        #expect(ratios.values.allSatisfy { $0 > 0 })
        #expect((agreement["docscan fast, warm"] ?? 1) < 0.01, "text differs from the command's: \(agreement)")

        let bad = try await DocScanTool.run(["bench-recognizer", Paths.packageRoot.appendingPathComponent("README.md").path])
        #expect(bad.status == 1 && bad.standardError.contains("not a JPEG, PNG"), "stderr: \(bad.standardError)")
    }

    @Test("compare reads the same pages with each recognizer and scores them against the truth, or each other")
    func compare() async throws {
        let folder = try Paths.folder(withCorpusFiles: ["card-04.jpg", "card-04.truth.json"])
        defer { try? FileManager.default.removeItem(at: folder) }
        let report = folder.appendingPathComponent("report")
        let output = try await DocScanTool.run(
            ["compare", folder.path, "--recognizers", "fast,accurate", "--json", "--report", report.path])
        #expect(output.status == 0, "stderr: \(output.standardError)")
        try await checkReport(report, pages: 1, recognizers: ["fast", "accurate"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(output.standardOutput.utf8)) as? [String: Any])
        let rows = try #require(object["recognizers"] as? [[String: Any]])
        #expect(rows.compactMap { $0["recognizer"] as? String } == ["fast", "accurate"])
        for row in rows {
            #expect(row["pages"] as? Int == 1)
            #expect((row["cer"] as? Double ?? 1) < 0.05, "\(row)")
            #expect((row["word_f1"] as? Double ?? 0) > 0.9, "\(row)")
            let ece = try #require(row["ece"] as? Double)
            #expect(ece >= 0 && ece <= 1)
            #expect((row["peak_mb"] as? Double ?? 0) > 1, "the recognizer's memory is measured: \(row)")
        }
        // Without truth the recognizers are compared with each other.
        try FileManager.default.removeItem(at: folder.appendingPathComponent("card-04.truth.json"))
        let untruthed = try await DocScanTool.run(["compare", folder.path, "--recognizers", "fast,accurate", "--json"])
        let other = try #require(try JSONSerialization.jsonObject(with: Data(untruthed.standardOutput.utf8)) as? [String: Any])
        let pairwise = try #require(other["pairwise_cer"] as? [String: Double])
        #expect((pairwise["fast vs accurate"] ?? 1) < 0.05)
        // Lines read differently are listed with the other recognizer's closest line; identical readings list none.
        let disagreements = other["disagreements"] as? [[String: Any]] ?? []
        if pairwise["fast vs accurate"] == 0 { #expect(disagreements.isEmpty, "\(disagreements)") }
        for disagreement in disagreements { #expect(disagreement["fast"] as? String != disagreement["accurate"] as? String) }

        let unknown = try await DocScanTool.run(["compare", folder.path, "--recognizers", "fast,nope"])
        #expect(unknown.status != 0 && unknown.standardError.contains("known recognizers: accurate, fast"))
        // A report folder with someone else's index.html is left alone.
        let foreign = folder.appendingPathComponent("site")
        try FileManager.default.createDirectory(at: foreign, withIntermediateDirectories: true)
        try Data("<html>mine</html>".utf8).write(to: foreign.appendingPathComponent("index.html"))
        let refused = try await DocScanTool.run(["compare", folder.path, "--recognizers", "fast", "--report", foreign.path])
        #expect(refused.status != 0 && refused.standardError.contains("was not written by docscan compare"))
        #expect(try String(contentsOf: foreign.appendingPathComponent("index.html"), encoding: .utf8) == "<html>mine</html>")
    }

    @Test("calibrate fits a map per recognizer on half the photos and scores it on the other half")
    func calibrate() async throws {
        let folder = try Paths.folder(withCorpusFiles: ["card-04.jpg", "card-04.truth.json", "card-05.jpg", "card-05.truth.json"])
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("confidence")
        let output = try await DocScanTool.run(["calibrate", folder.path, "--recognizers", "fast", "--out", out.path])
        #expect(output.status == 0, "stderr: \(output.standardError)")
        let data = try Data(contentsOf: out.appendingPathComponent("fast.json"))
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(object["recognizer"] as? String == "fast")
        #expect((object["fitted_words"] as? Int ?? 0) > 5 && (object["held_out_words"] as? Int ?? 0) > 5, "\(object)")
        let map = try #require(object["map"] as? [String: [Double]])
        let values = try #require(map["values"])
        #expect(!values.isEmpty && zip(values, values.dropFirst()).allSatisfy { $0 <= $1 })
        #expect(values.allSatisfy { (0...1).contains($0) })
    }

    @Test("Bad inputs fail one by one with clear errors and exit 1, while good photos in the same run succeed")
    func badInputs() async throws {
        let folder = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let sampleData = try Data(contentsOf: Paths.sample)
        let empty = folder.appendingPathComponent("empty.jpg")
        let truncated = folder.appendingPathComponent("truncated.jpg")
        let text = folder.appendingPathComponent("notes.jpg")
        let huge = folder.appendingPathComponent("huge.png")
        try Data().write(to: empty)
        try sampleData.prefix(sampleData.count / 3).write(to: truncated)
        try Data("shopping list: milk, eggs\n".utf8).write(to: text)
        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + Array("IHDR".utf8)
        png += [0, 0, 0xEA, 0x60, 0, 0, 0xEA, 0x60, 8, 2, 0, 0, 0, 0, 0, 0, 0]
        try Data(png).write(to: huge)
        let out = folder.appendingPathComponent("out")
        let inputs = [empty.path, Paths.sample.path, truncated.path, text.path, huge.path, "/nonexistent/photo.jpg"]
        let output = try await DocScanTool.run(["scan"] + inputs + ["--json", "--out", out.path])
        #expect(output.status == 1)
        let reports = try decodeReports(output.standardOutput)
        #expect(reports.map(\.source) == inputs)
        #expect(
            reports.map { $0.error?.code } == [
                "empty-file", nil, "damaged-image", "unsupported-format", "image-too-large", "unreadable-file",
            ])
        #expect(reports[1].pages.count == 1)
        #expect(FileManager.default.fileExists(atPath: try #require(reports[1].pages.first?.image)))
        for input in inputs where input != Paths.sample.path {
            #expect(output.standardError.contains(input), "stderr should name \(input)")
        }
    }

    @Test("An output folder that cannot be created is a clear error")
    func unwritableOutput() async throws {
        let folder = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("a-file")
        try Data("x".utf8).write(to: file)
        let output = try await DocScanTool.run([
            "scan", Paths.sample.path, "--out", file.appendingPathComponent("pages").path,
        ])
        #expect(output.status == 1)
        #expect(output.standardError.contains("cannot create the output folder"))
    }

    @Test("Inputs are never overwritten, and photos with the same name do not overwrite each other's pages")
    func neverOverwrites() async throws {
        let folder = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let sampleData = try Data(contentsOf: Paths.sample)
        let photo = folder.appendingPathComponent("a.jpg")
        let victim = folder.appendingPathComponent("a-p1.png")  // exactly the name a.jpg's first page would get
        try sampleData.write(to: photo)
        try sampleData.write(to: victim)
        let output = try await DocScanTool.run(["scan", photo.path, victim.path, "--out", folder.path])
        #expect(output.status == 1)
        #expect(output.standardError.contains("refusing to overwrite"))
        #expect(try Data(contentsOf: victim) == sampleData)

        let second = folder.appendingPathComponent("other")
        try FileManager.default.createDirectory(at: second, withIntermediateDirectories: true)
        try sampleData.write(to: second.appendingPathComponent("a.jpg"))
        let out = folder.appendingPathComponent("out")
        let twice = try await DocScanTool.run([
            "scan", photo.path, second.appendingPathComponent("a.jpg").path, "--json", "--out", out.path,
        ])
        #expect(twice.status == 0)
        let images = try decodeReports(twice.standardOutput).compactMap { $0.pages.first?.image }
        #expect(images.map { URL(fileURLWithPath: $0).lastPathComponent } == ["a-p1.png", "a-2-p1.png"])
    }

    @Test("A folder argument scans the images in it, in name order; an empty folder is an error")
    func scanFolder() async throws {
        let folder = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let photos = folder.appendingPathComponent("photos")
        try FileManager.default.createDirectory(at: photos, withIntermediateDirectories: true)
        let sampleData = try Data(contentsOf: Paths.sample)
        try sampleData.write(to: photos.appendingPathComponent("b.jpg"))
        try sampleData.write(to: photos.appendingPathComponent("a.jpg"))
        try Data("notes".utf8).write(to: photos.appendingPathComponent("notes.txt"))
        let output = try await DocScanTool.run([
            "scan", photos.path, "--json", "--out", folder.appendingPathComponent("out").path,
        ])
        #expect(output.status == 0, "stderr: \(output.standardError)")
        let sources = try decodeReports(output.standardOutput).map { URL(fileURLWithPath: $0.source).lastPathComponent }
        #expect(sources == ["a.jpg", "b.jpg"])

        let empty = folder.appendingPathComponent("empty")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        let none = try await DocScanTool.run(["scan", empty.path])
        #expect(none.status == 64)
        #expect(none.standardError.contains("no JPEG, PNG, TIFF, WebP or BMP files"))
    }

    @Test("Invalid options are rejected before any work, with exit status 64")
    func invalidOptions() async throws {
        let output = try await DocScanTool.run(["scan", Paths.sample.path, "--mode", "sepia"])
        #expect(output.status == 64)
        #expect(output.standardError.contains("sepia"))
    }
}
