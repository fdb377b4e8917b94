import ArgumentParser
import DocScan
import DocScanMetrics
import DocScanRecognition
import Foundation

/// `docscan bench-plugin`: what reading through a plugin process costs, against the same recognizer in process.
struct BenchPlugin: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench-plugin",
        abstract: "Time a plugin against the same recognizer in process, on an already-flat page (medians).",
        discussion: """
            Each round reads the page in process, then through the plugin, both warm (models loaded, the plugin's \
            process already running). The overhead is the median over rounds of the plugin's time over the in-process \
            time, minus one: writing the page as PNG, the JSON on both sides, and the plugin reading the file. The default pair \
            is the shipped tesseract-isolated plugin (Tesseract fast in a process of its own) and fast. Build with \
            `swift build -c release` first.
            """
    )

    @Argument(help: "An already-flat page image.", completion: .file())
    var page: String

    @Option(help: "The plugin's recognizer id.")
    var plugin = "tesseract-isolated"

    @Option(help: "The in-process recognizer it is compared with.")
    var inProcess = "fast"

    @Option(help: "The level both read at (fast or accurate); by default each recognizer's own.")
    var level: RecognitionLevel?

    @Option(help: "Timed rounds (after one warm-up round).")
    var iterations = 9

    @Flag(help: "Print the medians as JSON.")
    var json = false

    func validate() throws {
        guard iterations >= 1 else { throw ValidationError("--iterations must be at least 1") }
    }

    func run() async throws {
        let input: PageImage
        do throws(DocScanError) {
            input = try ImageLoader().load(contentsOf: URL(fileURLWithPath: page)).image.pageImage()
        } catch {
            FileHandle.standardError.write(Data("docscan: \(error.message)\n".utf8))
            throw ExitCode.failure
        }
        let registry = RecognizerRegistry(RecognitionOptions.recognizers(tessdata: nil).all)
        let local = try registry.recognizer(inProcess), remote = try registry.recognizer(plugin)
        var request = RecognitionRequest()
        request.level = level
        var samples: [String: [Double]] = [:]
        var texts: [String: String] = [:]
        let clock = ContinuousClock()
        for round in 0...iterations {
            for (name, recognizer) in [("in process", local), ("plugin", remote)] {
                let start = clock.now
                let result = try await recognizer.recognize(input, request: request)
                if round > 0 { samples[name, default: []].append((clock.now - start).milliseconds) }
                texts[name] = result.text
            }
        }
        await local.shutdown()
        await remote.shutdown()
        let medians = samples.mapValues { $0.sorted()[$0.count / 2] }
        let inside = medians["in process"] ?? 1, outside = medians["plugin"] ?? 0
        // Each round's two reads run back to back, so their ratio cancels most of the machine's drift; the overhead is
        // the median of those ratios.
        let ratios = zip(samples["plugin"] ?? [], samples["in process"] ?? []).map { $0 / $1 - 1 }.sorted()
        let overhead = ratios.isEmpty ? 0 : ratios[ratios.count / 2]
        let cer = TextErrorRate.characters(texts["plugin"] ?? "", truth: texts["in process"] ?? "").rate
        if json {
            let object: [String: Any] = [
                "page": page, "level": level?.rawValue ?? "default", "iterations": iterations, "plugin": plugin, "in_process": inProcess,
                "median_ms": medians.mapValues { ($0 * 10).rounded() / 10 }, "overhead": overhead, "text_cer": cer,
            ]
            print(String(decoding: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), as: UTF8.self))
            return
        }
        print("\(page) (\(input.width)×\(input.height)), level \(level?.rawValue ?? "default"): median of \(iterations) warm rounds")
        print(String(format: "  %@ in process  %8.1f ms", inProcess, inside))
        print(String(format: "  %@ (plugin)  %8.1f ms", plugin, outside))
        print(String(format: "  overhead %+.1f%% of the in-process time (median of the rounds' ratios); text CER between them %.2f%%", 100 * overhead, 100 * cer))
    }
}
