import CTesseract
import DocScanMetrics
import DocScanRecognition
import Foundation
import Testing

@testable import DocScanTesseract

/// A time budget for one optional reading: the real engine on the sample page, stopped by the budget without an error
/// and ready for the next reading, while the request's deadline still stops the page with one.
@Suite("Engine time budget")
struct EngineBudgetTests {
    /// A `fast` page reader on a freshly loaded English engine, reporting to `monitor`.
    static func reader(_ monitor: EngineMonitor) throws -> PageReader {
        let folder = try TesseractModelLocator().folder(for: ["eng"], level: .fast)
        let key = HandleKey(folder: folder.path, languages: ["eng"], usesDictionary: false, customWords: [])
        return PageReader(handle: try TesseractHandle(key: key), monitor: monitor, level: .fast, request: RecognitionRequest())
    }

    @Test("a reading over its budget is abandoned without an error, and the next reading is whole")
    func budgetAbandonsOneReading() async throws {
        let progress = HighestProgress()
        let monitor = EngineMonitor(deadline: nil, progress: { progress.record($0) })
        let reader = try Self.reader(monitor)
        let pixels = GrayPixels(SamplePage.scanned.input)
        // One engine run at a time, on an engine thread, as the recognizer runs them (OpenMP serialized there).
        let runs = await onEngineThread { () -> Runs in
            func read() throws(RecognitionError) -> [RecognizedBlock] {
                try reader.run(pixels, resolution: nil, region: nil, mode: PSM_AUTO, choices: false)
            }
            let abandoned = Result { () throws(RecognitionError) in try monitor.within(.milliseconds(20), read) }
            let reachedWhenAbandoned = progress.highest
            let stopped = monitor.stopped
            let whole = Result { () throws(RecognitionError) in try monitor.within(.seconds(600), read) }
            return Runs(
                abandoned: abandoned, reachedWhenAbandoned: reachedWhenAbandoned, stoppedAfter: stopped, whole: whole)
        }
        #expect(try runs.abandoned.get() == nil)
        #expect(runs.stoppedAfter == nil)
        let whole = try #require(try runs.whole.get())
        let text = whole.flatMap(\.lines).map(\.text).joined(separator: "\n")
        #expect(TextErrorRate.characters(text, truth: SamplePage.scanned.truth).rate < 0.05)
        // Stopped at its first words, not read to the end: the engine's progress, reported between words, had not
        // risen when the budget stopped it, and rose past half way in the whole reading (measured: 0 and 0.68; the
        // engine's last report comes before its last words).
        #expect(runs.reachedWhenAbandoned < 0.1, "abandoned at \(runs.reachedWhenAbandoned)")
        #expect(progress.highest > 0.5, "whole reading reached \(progress.highest)")
    }

    /// What ``budgetAbandonsOneReading()`` saw on its engine thread.
    struct Runs: Sendable {
        var abandoned: Result<[RecognizedBlock]?, RecognitionError>
        var reachedWhenAbandoned: Double
        var stoppedAfter: EngineMonitor.Stop?
        var whole: Result<[RecognizedBlock]?, RecognitionError>
    }

    /// The highest progress an engine monitor reported.
    final class HighestProgress: @unchecked Sendable {
        private let lock = NSLock()
        private var value = 0.0
        var highest: Double { lock.withLock { value } }
        func record(_ progress: Double) { lock.withLock { value = max(value, progress) } }
    }

    @Test("the request's deadline still stops the page with an error inside a budget")
    func deadlineStillThrows() throws {
        let monitor = EngineMonitor(deadline: .now + .milliseconds(20), progress: nil)
        let reader = try Self.reader(monitor)
        #expect(throws: RecognitionError.deadlineExceeded) {
            _ = try monitor.within(.seconds(600)) { () throws(RecognitionError) in try reader.read(SamplePage.scanned.input) }
        }
    }

    @Test("fast gives a one-block reading twice its first reading's time, and at least two seconds")
    func fastAlternativeBudget() {
        #expect(PageReader.fastAlternativeBudget(firstRun: .milliseconds(159)) == .seconds(2))
        #expect(PageReader.fastAlternativeBudget(firstRun: .milliseconds(1004)) == .milliseconds(2008))
        #expect(PageReader.fastAlternativeBudget(firstRun: .seconds(3)) == .seconds(6))
    }
}
