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
    func budgetAbandonsOneReading() throws {
        let monitor = EngineMonitor(deadline: nil, progress: nil)
        let reader = try Self.reader(monitor)
        let input = SamplePage.scanned.input

        let started = ContinuousClock.now
        let abandoned = try monitor.within(.milliseconds(20)) { () throws(RecognitionError) in try reader.read(input) }
        let abandonedTime = ContinuousClock.now - started
        #expect(abandoned == nil)
        #expect(monitor.stopped == nil)

        let whole = try #require(try monitor.within(.seconds(600)) { () throws(RecognitionError) in try reader.read(input) })
        let wholeTime = ContinuousClock.now - started - abandonedTime
        #expect(TextErrorRate.characters(whole.text, truth: SamplePage.scanned.truth).rate < 0.05)
        // Stopped at its first words, not read to the end.
        #expect(abandonedTime < wholeTime / 2, "abandoned after \(abandonedTime), whole reading \(wholeTime)")
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
