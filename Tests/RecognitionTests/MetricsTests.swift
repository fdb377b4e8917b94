import DocScanMetrics
import DocScanRecognition
import Foundation
import Testing

@Suite("Word overlap and confidence calibration")
struct MetricsTests {
    @Test("word F1 counts each word as often as it occurs, order ignored")
    func wordOverlap() {
        // Truth bag: the ×2, cat, sat. Reading bag: the ×2, cat, dog. Matched: the, the, cat.
        let overlap = WordOverlap("the cat the dog", truth: "the cat sat the")
        #expect(overlap == WordOverlap(matched: 3, read: 4, truth: 4))
        #expect(overlap.precision == 0.75 && overlap.recall == 0.75 && overlap.f1 == 0.75)
        // Precision 1/1, recall 1/4: F1 = 2 · 0.25 / 1.25 = 0.4.
        #expect(abs(WordOverlap("cat", truth: "the cat sat the").f1 - 0.4) < 1e-12)
        #expect(WordOverlap("", truth: "").f1 == 1)
        #expect(WordOverlap("", truth: "word").f1 == 0)
        let options = TextErrorRate.Normalization(ignoresCase: true, ignoresPunctuation: true)
        #expect(WordOverlap("Hello, World!", truth: "hello world", options).f1 == 1)
        #expect(WordOverlap("a b", truth: "a") + WordOverlap("c", truth: "c d") == WordOverlap(matched: 2, read: 3, truth: 3))
    }

    @Test("ECE by hand: two bins, each half of the words")
    func expectedCalibrationError() {
        let words = [
            ScoredWord(confidence: 0.95, isCorrect: true), ScoredWord(confidence: 0.95, isCorrect: false),
            ScoredWord(confidence: 0.15, isCorrect: false), ScoredWord(confidence: 0.15, isCorrect: false),
        ]
        // Bin 9: confidence 0.95, right 0.5 → 0.45. Bin 1: confidence 0.15, right 0 → 0.15. Each weighs one half.
        #expect(abs(CalibrationError.expected(words) - 0.30) < 1e-12)
        #expect(CalibrationError.expected([]) == 0)
        #expect(CalibrationError.expected([ScoredWord(confidence: 1, isCorrect: true)]) == 0)
    }

    @Test("isotonic fit by hand: violators pooled, steps non-decreasing")
    func isotonicFit() throws {
        let words = [(0.1, false), (0.2, true), (0.3, false), (0.4, true), (0.5, true)].map {
            ScoredWord(confidence: $0.0, isCorrect: $0.1)
        }
        // 0.2 (right) and 0.3 (wrong) pool to 0.5; 0.4 and 0.5 (both right) pool to 1.
        let fit = ConfidenceCalibration(fitting: words)
        #expect(fit.thresholds == [0.1, 0.2, 0.4] && fit.values == [0, 0.5, 1])
        #expect(fit.calibrated(0.05) == 0 && fit.calibrated(0.2) == 0.5 && fit.calibrated(0.25) == 0.5)
        #expect(fit.calibrated(0.45) == 1 && fit.calibrated(0.99) == 1)
        #expect(ConfidenceCalibration(fitting: []).calibrated(0.42) == 0.42)
        let decoded = try JSONDecoder().decode(ConfidenceCalibration.self, from: JSONEncoder().encode(fit))
        #expect(decoded == fit)
    }

    @Test("a fitted map lowers ECE on words it was not fitted on")
    func calibrationHoldsOut() {
        // An overconfident recognizer: it says c, and is right with probability c², on a fixed pseudo-random sample.
        var state: UInt64 = 42
        func next() -> Double {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Double(state >> 11) / Double(1 << 53)
        }
        func sample(_ n: Int) -> [ScoredWord] {
            (0..<n).map { _ in
                let c = next()
                return ScoredWord(confidence: c, isCorrect: next() < c * c)
            }
        }
        let fitting = sample(4000), heldOut = sample(4000)
        let map = ConfidenceCalibration(fitting: fitting)
        let raw = CalibrationError.expected(heldOut)
        let calibrated = CalibrationError.expected(
            heldOut.map { ScoredWord(confidence: map.calibrated($0.confidence), isCorrect: $0.isCorrect) })
        #expect(raw > 0.1, "raw ECE \(raw)")  // the mean of c − c² over [0, 1] is 1/6
        #expect(calibrated < raw / 3, "raw \(raw), calibrated \(calibrated)")
        #expect(zip(map.values, map.values.dropFirst()).allSatisfy { $0 <= $1 })
    }

    @Test("word differences by hand: the fewest edits, matches as early as they can be, substitutions as missing then extra")
    func wordDifferences() {
        // Truth "the quick brown fox", read "the quack brown brown fox": one substitution, one insertion.
        let fox = WordDifference.between("the quack brown brown fox", truth: "the  quick\nbrown fox")
        #expect(fox == [.same("the"), .missing("quick"), .extra("quack"), .same("brown"), .extra("brown"), .same("fox")])
        #expect(WordDifference.between("", truth: "a b") == [.missing("a"), .missing("b")])
        #expect(WordDifference.between("a b", truth: "") == [.extra("a"), .extra("b")])
        #expect(WordDifference.between("", truth: "").isEmpty)
        // The edits shown are the edits counted by WER.
        let reading = "Total 12.50 EUR paid by card", truth = "TOTAL 12.50 EUR paid with card today"
        let steps = WordDifference.between(reading, truth: truth)
        var edits = 0
        for (n, step) in steps.enumerated() {
            switch step {
            case .same: continue
            case .missing: edits += 1
            case .extra:
                // The read half of a substitution is the same edit as the missing word before it.
                if n > 0, case .missing = steps[n - 1] { continue }
                edits += 1
            }
        }
        #expect(edits == TextErrorRate.words(reading, truth: truth).edits)
    }

    @Test("reliability bins by hand")
    func reliabilityBins() {
        let words = [(0.05, false), (0.15, true), (0.95, true), (0.97, false), (1.0, true)].map {
            ScoredWord(confidence: $0.0, isCorrect: $0.1)
        }
        let bins = CalibrationError.reliability(words, bins: 2)
        #expect(bins.map(\.count) == [2, 3])
        #expect(abs(bins[0].meanConfidence - 0.1) < 1e-12 && bins[0].accuracy == 0.5)
        #expect(abs(bins[1].meanConfidence - 2.92 / 3) < 1e-12 && abs(bins[1].accuracy - 2.0 / 3) < 1e-12)
        // ECE = (2 · |0.1 − 0.5| + 3 · |2.92/3 − 2/3|) / 5 = (0.8 + 0.92) / 5
        #expect(abs(CalibrationError.expected(words, bins: 2) - 0.344) < 1e-12)
        #expect(CalibrationError.reliability([], bins: 3).map(\.count) == [0, 0, 0])
    }
}
