import DocScan
import DocScanRecognition
import Foundation

/// Reads the pages of a scan with one recognizer, a few pages at a time (one per core).
struct PageTextReader {
    let recognizer: any TextRecognizer
    let request: RecognitionRequest

    /// One page's reading or error, which of the page's renderings it came from, and the time it took (wall clock,
    /// on a machine busy with the other pages).
    struct Outcome: Sendable {
        var result: Result<RecognizedPage, RecognitionError>
        var rendering = ScannedPage.Reading.Rendering.asTaken
        var milliseconds: Double
    }

    /// Each page's reading or error and its time, by page index.
    func read(_ pages: [ScannedPage], paths: [Int: String] = [:]) async -> [Int: Outcome] {
        let width = max(1, ProcessInfo.processInfo.activeProcessorCount)
        return await withTaskGroup(of: (Int, Outcome).self) { group in
            var outcomes: [Int: Outcome] = [:]
            var pending = pages[...]
            func startNext() {
                guard let page = pending.popFirst() else { return }
                let (recognizer, request) = (self.recognizer, self.request)
                let file = paths[page.index].map { URL(fileURLWithPath: $0) }
                let index = page.index
                group.addTask {
                    let started = ContinuousClock.now
                    var outcome: Outcome
                    do throws(RecognitionError) {
                        let reading = try await page.read(with: recognizer, request: request, fileURL: file)
                        outcome = Outcome(result: .success(reading.page), rendering: reading.rendering, milliseconds: 0)
                    } catch {
                        outcome = Outcome(result: .failure(error), milliseconds: 0)
                    }
                    outcome.milliseconds = (ContinuousClock.now - started).milliseconds
                    return (index, outcome)
                }
            }
            for _ in 0..<width { startNext() }
            for await (index, outcome) in group {
                outcomes[index] = outcome
                startNext()
            }
            return outcomes
        }
    }

    /// Frees the engines before exit.
    func shutdown() async {
        await recognizer.shutdown()
    }
}
