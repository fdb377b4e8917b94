import DocScanGeometry
import DocScanRecognition
import Foundation

/// The checks every ``TextRecognizer`` must pass for DocScan (and its users) to rely on it: run them from your
/// backend's tests.
///
/// ```swift
/// import DocScanRecognitionTestKit
/// import Testing
///
/// @Test func keepsTheContract() async {
///     let violations = await RecognizerContract(MyRecognizer()).violations()
///     #expect(violations.isEmpty, "\(violations)")
/// }
/// ```
///
/// It reads ``testPage`` (large, clean, black-on-white print of `DOCSCAN 2024`) and checks the descriptor, the
/// result's geometry and confidences, that readings do not depend on what else runs at the same time, what a
/// request the recognizer cannot honour does in strict mode, progress, cancellation and the JSON form of the result.
public struct RecognizerContract: Sendable {
    /// The recognizer under test.
    public let recognizer: any TextRecognizer
    /// The page it reads (by default ``testPage``).
    public let page: PageImage

    /// Checks `recognizer` on `page`.
    public init(_ recognizer: any TextRecognizer, page: PageImage = RecognizerContract.testPage) {
        self.recognizer = recognizer
        self.page = page
    }

    /// What the recognizer does wrong, one sentence per violation; empty when it keeps the contract.
    public func violations() async -> [String] {
        var found = descriptorViolations()
        let request = RecognitionRequest()
        let first: RecognizedPage
        do throws(RecognitionError) {
            first = try await recognizer.recognize(page, request: request)
        } catch {
            return found + ["reading a clean page with the default request failed: \(error)"]
        }
        found += resultViolations(first)
        if first.text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
            found.append("it read no text from a page of large clean print")
        }
        found += await concurrencyViolations(expected: first.text)
        found += await requestViolations()
        if recognizer.descriptor.capabilities.progress { found += await progressViolations() }
        do {
            let decoded = try JSONDecoder().decode(RecognizedPage.self, from: JSONEncoder().encode(first))
            if decoded != first { found.append("its result does not survive a JSON round trip unchanged") }
        } catch {
            found.append("its result cannot be written as JSON and read back: \(error)")
        }
        await recognizer.shutdown()
        return found
    }

    // MARK: - Checks

    private func descriptorViolations() -> [String] {
        let d = recognizer.descriptor
        var found: [String] = []
        if d.id.isEmpty || !d.id.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }) {
            found.append("its id '\(d.id)' must be letters, digits, '-' or '_'")
        }
        if d.name.isEmpty { found.append("its descriptor has no name") }
        if d.levels.isEmpty { found.append("its descriptor lists no levels") }
        if !d.levels.contains(d.defaultLevel) { found.append("its default level is not one of its levels") }
        if d.languages.contains(where: { $0.isEmpty || $0.contains(" ") || $0.contains("+") }) {
            found.append("its languages must be codes such as eng or chi_sim: \(d.languages)")
        }
        return found
    }

    private func resultViolations(_ result: RecognizedPage) -> [String] {
        var found: [String] = []
        if result.width != page.width || result.height != page.height {
            found.append("the result is for a \(result.width)×\(result.height) page, not the \(page.width)×\(page.height) one it was given")
        }
        let bounds = Rect(x: -1, y: -1, width: Double(page.width) + 2, height: Double(page.height) + 2)
        func checkBox(_ box: Rect, _ what: String) {
            let finite = [box.x, box.y, box.width, box.height].allSatisfy(\.isFinite)
            if !finite || box.width < 0 || box.height < 0 || box.minX < bounds.minX || box.minY < bounds.minY
                || box.maxX > bounds.maxX || box.maxY > bounds.maxY
            {
                found.append("\(what) has a box outside the page: \(box)")
            }
        }
        func checkConfidence(_ confidence: Confidence?, _ what: String) {
            guard let confidence else { return }
            if !(0...1).contains(confidence.value) { found.append("\(what) has a confidence outside 0...1: \(confidence.value)") }
        }
        for (l, line) in result.lines.enumerated() {
            let what = "line \(l + 1) (\"\(line.text)\")"
            checkBox(line.box, what)
            checkConfidence(line.confidence, what)
            if !line.words.isEmpty && line.text.isEmpty { found.append("\(what) has words but no text") }
            for (w, word) in line.words.enumerated() {
                checkBox(word.box, "\(what) word \(w + 1)")
                checkConfidence(word.confidence, "\(what) word \(w + 1)")
                if word.text.isEmpty { found.append("\(what) word \(w + 1) has no text") }
                for glyph in word.glyphs { checkBox(glyph.box, "\(what) word \(w + 1) glyph '\(glyph.text)'") }
            }
            if line.candidates.count > 1 && !recognizer.descriptor.capabilities.candidates {
                found.append("\(what) has candidates though its descriptor claims none")
            }
        }
        if result.provenance.recognizer != recognizer.descriptor.id {
            found.append("the result's provenance names '\(result.provenance.recognizer)', not '\(recognizer.descriptor.id)'")
        }
        return found
    }

    private func concurrencyViolations(expected: String) async -> [String] {
        let (recognizer, page) = (self.recognizer, self.page)
        let texts = await withTaskGroup(of: String?.self) { group in
            for _ in 0..<3 {
                group.addTask { try? await recognizer.recognize(page, request: RecognitionRequest()).text }
            }
            return await group.reduce(into: [String?]()) { $0.append($1) }
        }
        guard texts.allSatisfy({ $0 == expected }) else {
            return ["three readings at once differ from one alone (\(texts.map { $0 ?? "error" }) vs \(expected))"]
        }
        return []
    }

    private func requestViolations() async -> [String] {
        var found: [String] = []
        var invalid = RecognitionRequest()
        invalid.languages = []
        do throws(RecognitionError) {
            _ = try await recognizer.recognize(page, request: invalid)
            found.append("a request without languages was read instead of refused")
        } catch {
            if case .invalidRequest = error {} else { found.append("a request without languages failed with \(error), not invalidRequest") }
        }
        // In strict mode, an option the descriptor does not claim is an error.
        let c = recognizer.descriptor.capabilities
        var strict = RecognitionRequest()
        strict.isStrict = true
        if !c.customWords { strict.customWords = ["DocScan"] } else if !c.regionOfInterest {
            strict.regionOfInterest = Rect(x: 0, y: 0, width: 0.5, height: 0.5)
        } else if !c.allowedCharacters { strict.allowedCharacters = "0123456789" } else { return found }
        do throws(RecognitionError) {
            _ = try await recognizer.recognize(page, request: strict)
            found.append("in strict mode, an option it does not claim was ignored instead of refused")
        } catch {
            if case .unsupportedOption = error {} else { found.append("in strict mode, an unclaimed option failed with \(error), not unsupportedOption") }
        }
        // A task cancelled before it reads gets the cancellation error.
        let (recognizer, page) = (self.recognizer, self.page)
        let task = Task { () async throws(RecognitionError) -> RecognizedPage in
            withUnsafeCurrentTask { $0?.cancel() }
            return try await recognizer.recognize(page, request: RecognitionRequest())
        }
        if case .failure(let error) = await task.result, (error as? RecognitionError) == .cancelled {} else {
            found.append("a cancelled task was not answered with RecognitionError.cancelled")
        }
        return found
    }

    private func progressViolations() async -> [String] {
        final class Fractions: @unchecked Sendable {
            let lock = NSLock()
            var values: [Double] = []
        }
        let fractions = Fractions()
        var request = RecognitionRequest()
        request.progressHandler = { value in fractions.lock.withLock { fractions.values.append(value) } }
        do throws(RecognitionError) { _ = try await recognizer.recognize(page, request: request) } catch {
            return ["reading with a progress handler failed: \(error)"]
        }
        let values = fractions.lock.withLock { fractions.values }
        if values.isEmpty { return ["it claims progress but reported none"] }
        if zip(values, values.dropFirst()).contains(where: { $0 > $1 }) { return ["its progress went down: \(values)"] }
        if values.last != 1 { return ["its progress did not end at 1 (last \(values.last!))"] }
        if values.contains(where: { !(0...1).contains($0) }) { return ["its progress left 0...1: \(values)"] }
        return []
    }
}
