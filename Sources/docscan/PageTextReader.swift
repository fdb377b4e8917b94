import DocScan
import DocScanRecognition
import Foundation

/// Reads the pages of a scan with one recognizer, a few pages at a time (one per core).
struct PageTextReader {
    let recognizer: any TextRecognizer
    let request: RecognitionRequest

    /// Each page's reading or error, by page index.
    func read(_ pages: [ScannedPage], paths: [Int: String]) async -> [Int: Result<RecognizedPage, RecognitionError>] {
        let width = max(1, ProcessInfo.processInfo.activeProcessorCount)
        return await withTaskGroup(of: (Int, Result<RecognizedPage, RecognitionError>).self) { group in
            var results: [Int: Result<RecognizedPage, RecognitionError>] = [:]
            var pending = pages[...]
            func startNext() {
                guard let page = pending.popFirst() else { return }
                let (recognizer, request) = (self.recognizer, self.request)
                let file = paths[page.index].map { URL(fileURLWithPath: $0) }
                let index = page.index
                group.addTask { (index, await Self.read(page, file: file, recognizer: recognizer, request: request)) }
            }
            for _ in 0..<width { startNext() }
            for await (index, result) in group {
                results[index] = result
                startNext()
            }
            return results
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
