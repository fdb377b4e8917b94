import ArgumentParser
import DocScan
import DocScanMetrics
import DocScanRecognition
import DocScanTesseract
import Foundation

/// `docscan bench-recognizer`: a recognizer against the `tesseract` command on the same flat page, side by side.
struct BenchRecognizer: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench-recognizer",
        abstract: "Time a recognizer against the tesseract command on an already-flat page (medians, side by side).",
        discussion: """
            Each round runs, in turn: the tesseract command (`tesseract PAGE stdout`, with OMP_THREAD_LIMIT=1, its \
            fastest setting on few cores), a cold read (decode the page, load the models, read), and a warm read \
            (models already loaded). The ratio compares the cold read with the command, which also decodes and \
            loads on every run. The texts are compared by CER. Build with `swift build -c release` first.
            """
    )

    @Argument(help: "An already-flat page image.", completion: .file())
    var page: String

    @Option(help: "Recognizer level to time: fast or accurate.")
    var level: RecognitionLevel = .accurate

    @Option(help: "Timed rounds (after one warm-up round).")
    var iterations = 7

    @Option(help: "The tesseract command.")
    var tesseract = "tesseract"

    @Flag(help: "Also time the tesseract command with OpenMP left as it is (slow on few cores).")
    var untamed = false

    @Flag(help: "Print the medians as JSON.")
    var json = false

    func validate() throws {
        guard iterations >= 1 else { throw ValidationError("--iterations must be at least 1") }
        guard FileManager.default.isReadableFile(atPath: page) else { throw ValidationError("cannot read \(page)") }
    }

    func run() async throws {
        let url = URL(fileURLWithPath: page)
        let data = try ImageLoader.contents(of: url)
        do throws(DocScanError) { _ = try ImageLoader().load(data, name: page) } catch {
            FileHandle.standardError.write(Data("docscan: \(error.message)\n".utf8))
            throw ExitCode.failure
        }
        let request = RecognitionRequest()
        func recognizer() -> TesseractRecognizer {
            TesseractRecognizer(.init(id: level.rawValue, defaultLevel: level))
        }
        let warm = recognizer()
        var samples: [String: [Double]] = [:]
        var texts: [String: String] = [:]
        var stages: [String: Double] = [:]
        let clock = ContinuousClock()
        func time(_ name: String, _ body: () async throws -> String) async throws {
            let start = clock.now
            let text = try await body()
            samples[name, default: []].append((clock.now - start).milliseconds)
            texts[name] = text
        }
        for round in 0...iterations {
            try await time("tesseract command") { try runCommand(limitingThreads: true) }
            if untamed { try await time("tesseract command, OpenMP as is") { try runCommand(limitingThreads: false) } }
            let fresh = recognizer()
            try await time("docscan \(level.rawValue), cold") {
                let input = try ImageLoader().load(data, name: page).image.pageImage()
                return try await fresh.recognize(input, request: request).text
            }
            await fresh.shutdown()  // outside the timing, like the command's exit
            try await time("docscan \(level.rawValue), warm") {
                let input = try ImageLoader().load(data, name: page).image.pageImage()
                let result = try await warm.recognize(input, request: request)
                stages = result.provenance.timingsMilliseconds
                return result.text
            }
            if round == 0 { samples = [:] }  // the warm-up round is not counted
        }
        await warm.shutdown()

        let medians = samples.mapValues { $0.sorted()[$0.count / 2] }
        let baseline = medians["tesseract command"] ?? 1
        let reference = texts["tesseract command"] ?? ""
        let names = samples.keys.sorted()
        if json {
            var object: [String: Any] = ["page": page, "iterations": iterations]
            object["median_ms"] = medians.mapValues { ($0 * 10).rounded() / 10 }
            object["ratio_to_command"] = medians.mapValues { ($0 / baseline * 1000).rounded() / 1000 }
            object["cer_to_command"] = texts.mapValues { TextErrorRate.characters($0, truth: reference).rate }
            object["warm_stages_ms"] = stages.mapValues { ($0 * 10).rounded() / 10 }
            let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
            print(String(decoding: data, as: UTF8.self))
            return
        }
        print("\(page): median of \(iterations) rounds")
        for name in names {
            let cer = TextErrorRate.characters(texts[name] ?? "", truth: reference).rate
            print(
                "  " + name.padding(toLength: 38, withPad: " ", startingAt: 0)
                    + String(
                        format: " %8.1f ms  %5.2fx command  text CER to command %.2f%%", medians[name] ?? 0,
                        (medians[name] ?? 0) / baseline, 100 * cer))
        }
        let stageList = stages.sorted { $0.key < $1.key }.map { "\($0.key) \(Int($0.value.rounded())) ms" }
        print("  stages of the last warm read: " + stageList.joined(separator: ", "))
    }

    /// Runs the tesseract command on the page and returns its text.
    func runCommand(limitingThreads: Bool) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [tesseract, page, "stdout"]
        var environment = ProcessInfo.processInfo.environment
        if limitingThreads { environment["OMP_THREAD_LIMIT"] = "1" } else { environment["OMP_THREAD_LIMIT"] = nil }
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let text = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            FileHandle.standardError.write(
                Data("docscan: `\(tesseract) \(page) stdout` failed (exit \(process.terminationStatus))\n".utf8))
            throw ExitCode.failure
        }
        return String(decoding: text, as: UTF8.self)
    }
}
extension RecognitionLevel: ExpressibleByArgument {}
