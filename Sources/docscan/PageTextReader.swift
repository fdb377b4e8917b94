import DocScan
import DocScanRecognition
import Foundation

/// Reads the pages of a scan with one recognizer, a few pages at a time (one per core).
struct PageTextReader {
    let recognizer: any TextRecognizer
    let request: RecognitionRequest

    /// One page's reading or error, and the time it took (wall clock, on a machine busy with the other pages).
    struct Outcome: Sendable {
        var result: Result<RecognizedPage, RecognitionError>
        var milliseconds: Double
    }

    /// Each page's reading or error, by page index.
    func read(_ pages: [ScannedPage], paths: [Int: String]) async -> [Int: Result<RecognizedPage, RecognitionError>] {
        await readTimed(pages, paths: paths).mapValues(\.result)
    }

    /// Each page's reading or error and its time, by page index.
    func readTimed(_ pages: [ScannedPage], paths: [Int: String] = [:]) async -> [Int: Outcome] {
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
                    let result = await Self.read(page, file: file, recognizer: recognizer, request: request)
                    return (index, Outcome(result: result, milliseconds: (ContinuousClock.now - started).milliseconds))
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

    private static func read(
        _ page: ScannedPage, file: URL?, recognizer: any TextRecognizer, request: RecognitionRequest
    ) async -> Result<RecognizedPage, RecognitionError> {
        let input: PageImage
        do throws(DocScanError) { input = try page.recognitionInput(fileURL: file) } catch {
            return .failure(.invalidImage(error.message))
        }
        do throws(RecognitionError) {
            return .success(try await recognizer.recognize(input, request: request))
        } catch {
            return .failure(error)
        }
    }

    /// Frees the engines before exit.
    func shutdown() async {
        await recognizer.shutdown()
    }
}
