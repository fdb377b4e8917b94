import ArgumentParser
import DocScan
import Foundation

/// `docscan bench`: medians of each pipeline stage on each photo given, and of detection over all of them.
struct Bench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Time each pipeline stage on photos (medians over repeated runs) and report peak memory.",
        discussion: """
            Build with `swift build -c release` first; debug builds are many times slower. The baseline is decoding \
            the photo alone, measured in the same run, so the ratio to it holds on noisy machines. Given several \
            photos (or folders), it ends with the median and the slowest of their detection medians; \
            `--detect-only` times decoding and detection alone, quick enough for a whole folder. Peak memory is \
            the process's while the pipeline runs (on Linux the high-water mark is reset before it), beside its peak \
            over every stage timed on the photo.
            """
    )

    @Argument(help: "The photos to time, or folders of them.", completion: .file())
    var photos: [String]

    @Option(help: "Timed runs per stage (after one warm-up run).")
    var iterations = 15

    @Option(help: "Threads OpenCV may use (1 = one core).")
    var threads = 1

    @Flag(help: "Time decoding and detection only.")
    var detectOnly = false

    @Flag(help: "Print the medians as JSON, one object per photo.")
    var json = false

    func validate() throws {
        guard iterations >= 1 else { throw ValidationError("--iterations must be at least 1") }
    }

    func run() async throws {
        Runtime.limitThreads(to: threads)
        var figures: [(photo: String, medians: [String: Double], peak: Double)] = []
        for photo in PhotoList.expand(photos) {
            let measured = try measure(photo)
            figures.append((photo, measured.medians, measured.peak))
        }
        guard figures.count > 1, !json else { return }
        // Over the photos: the median and the slowest of their medians.
        func summary(of stage: String, as label: String) -> String {
            let sorted = figures.map { (photo: $0.photo, median: $0.medians[stage] ?? 0) }
                .sorted { $0.median < $1.median }
            let slowest = sorted[sorted.count - 1]
            return String(
                format: "%@ over %d photos: median %.1f ms, slowest %.1f ms (%@)", label as NSString, sorted.count,
                sorted[sorted.count / 2].median, slowest.median, slowest.photo as NSString)
        }
        if !detectOnly {
            let peaks = figures.map(\.peak).sorted()
            let memory = String(
                format: "; peak RSS while it ran: median %.0f MB, most %.0f MB", peaks[peaks.count / 2],
                peaks[peaks.count - 1])
            print(summary(of: Self.pipelineStage, as: "pipeline") + memory)
        }
        print(summary(of: "detect", as: "detect"))
    }

    /// Times the stages on `photo`, prints their medians and returns them by stage name, with the peak resident memory
    /// (MB) while the pipeline ran (decoding and detection, with `--detect-only`).
    private func measure(_ photo: String) throws -> (medians: [String: Double], peak: Double) {
        // This photo's peak memory only: the high-water mark starts again at each photo.
        ResidentMemory.resetPeak(handingBackFreedMemory: true)
        let data = try ImageLoader.contents(of: URL(fileURLWithPath: photo))
        let loader = ImageLoader()
        let loaded = try loader.load(data, name: photo)
        let detector = DocumentDetector()
        // The first detection in a process also pays for whatever is set up once (tables, thread pools): what a
        // one-photo `docscan scan` waits for. One sample, not a median.
        let clock = ContinuousClock()
        let firstStart = clock.now
        let documents = try detector.detect(in: loaded.image)
        let firstDetection = (clock.now - firstStart).milliseconds

        var stages: [(String, () throws -> Void)] = [
            (Self.decodeStage, { _ = try loader.load(data, name: photo) }),
            ("detect", { _ = try detector.detect(in: loaded.image) }),
        ]
        var description = "\(photo): \(loaded.image.width)x\(loaded.image.height)"
        if !detectOnly {
            let later = try laterStages(on: loaded, documents: documents, data: data, name: photo)
            stages += later.stages
            description += ", page \(later.pageWidth)x\(later.pageHeight)"
        }

        var medians: [String: Double] = [:]
        // The peak while the whole pipeline runs (decoding and detection, with `--detect-only`) is measured on its
        // own, the high-water mark reset before it: not that of the shake removal timed before it on every photo,
        // shaken or not. (It includes what the bench holds for its other stages: the decoded photo and its page.)
        let peakStage = detectOnly ? Self.decodeStage : Self.pipelineStage
        var earlierPeak: Int?, isReset = false
        for (name, body) in stages {
            if name == peakStage {
                earlierPeak = ResidentMemory.peak
                isReset = ResidentMemory.resetPeak(handingBackFreedMemory: true)
            }
            try body()
            var samples: [Double] = []
            for _ in 0..<iterations {
                let start = clock.now
                try body()
                samples.append((clock.now - start).milliseconds)
            }
            medians[name] = samples.sorted()[samples.count / 2]
        }
        let megabytes = { (bytes: Int?) in Double(bytes ?? 0) / 1_048_576 }
        let peak = megabytes(ResidentMemory.peak)
        let photoPeak = max(peak, megabytes(earlierPeak))
        if json {
            var object = medians.mapValues { ($0 * 10).rounded() / 10 } as [String: Any]
            object["peak_rss_mb"] = peak
            object["peak_rss_mb_all_stages"] = photoPeak
            object["detect (first in process)"] = (firstDetection * 10).rounded() / 10
            object["photo"] = photo
            object["megapixels"] = Double(loaded.image.width * loaded.image.height) / 1e6
            let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
            print(String(decoding: data, as: UTF8.self))
            return (medians, peak)
        }
        print("\(description), \(threads) thread(s), median of \(iterations)")
        let baseline = medians[Self.decodeStage] ?? 1
        for (name, _) in stages {
            let value = medians[name] ?? 0
            print("  " + Self.padded(name) + String(format: " %8.1f ms  %5.2fx decode", value, value / baseline))
        }
        print(
            "  " + Self.padded("detect, first in process")
                + String(format: " %8.1f ms  (one run, before the others)", firstDetection))
        if isReset {
            print(
                String(
                    format: "  peak RSS %.0f MB (while %@ ran; over every stage timed on this photo: %.0f MB)", peak,
                    (detectOnly ? "decoding and detection" : "the pipeline") as NSString, photoPeak))
        } else {
            print(String(format: "  peak RSS %.0f MB (the process, over every stage timed)", peak))
        }
        return (medians, peak)
    }

    /// `name` padded with spaces to the width of the stage column.
    static func padded(_ name: String) -> String {
        name.count >= 26 ? name : name + String(repeating: " ", count: 26 - name.count)
    }

    /// The stage that decodes the photo alone: the baseline the other stages are compared with.
    static let decodeStage = "decode (baseline)"

    /// The stage that runs the whole pipeline, from the JPEG's bytes to finished pages.
    static let pipelineStage = "pipeline (load to pages)"

    /// The stages after detection, on the first document found in `loaded`, and the size of its page.
    private func laterStages(
        on loaded: LoadedImage, documents: [DetectedDocument], data: Data, name: String
    ) throws -> (stages: [(String, () throws -> Void)], pageWidth: Int, pageHeight: Int) {
        let quad = documents[0].quad
        let size = PerspectiveCorrector().pageSize(
            for: quad, imageWidth: loaded.image.width, imageHeight: loaded.image.height)
        guard let toPage = PerspectiveCorrector.homography(from: quad, width: size.width, height: size.height) else {
            throw ValidationError("degenerate outline")
        }
        // Sampled as the scanner samples a page of this size.
        let sampling = DocumentScanner.sampling(forPageWidth: size.width, height: size.height)
        let page = try loaded.image.warped(by: toPage, width: size.width, height: size.height, sampling: sampling)
        let preview = try page.fitting(longSide: 1000)
        let loader = ImageLoader()
        let scanner = DocumentScanner()
        let shake = MotionBlurCorrector()
        let outlines = documents.map(\.quad)
        let region = shake.region(around: outlines, in: loaded.image)
        // Removal runs only on shaken photos; it is timed with the photo's own measurement.
        let measured =
            try shake.measure(in: loaded.image, region: region)
            ?? MotionBlur(length: 5, angleDegrees: 0, notchDepth: 0, anisotropy: 0)
        let stages: [(String, () throws -> Void)] = [
            ("deblur: measure", { _ = try shake.shake(in: loaded.image, documents: outlines) }),
            ("deblur: remove (if shaken)", { _ = try shake.removing(measured, from: loaded.image, region: region) }),
            ("warp", {
                _ = try loaded.image.warped(by: toPage, width: size.width, height: size.height, sampling: sampling)
            }),
            ("light", { _ = try IlluminationCorrector().correct(page) }),
            ("deskew", { _ = try TextLayoutAnalyzer().analyze(preview) }),
            ("split", { _ = try SpreadSplitter().findGutter(in: preview) }),
            (Self.pipelineStage, { _ = try scanner.scan(loader.load(data, name: name)) }),
        ]
        return (stages, size.width, size.height)
    }
}
