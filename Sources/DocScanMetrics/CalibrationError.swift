import DocScanRecognition
import Foundation

/// One recognized word's raw confidence (0...1) and whether the word was exactly right.
public struct ScoredWord: Sendable, Equatable, Codable {
    /// The recognizer's confidence, 0...1.
    public var confidence: Double
    /// Whether the word matched the truth exactly.
    public var isCorrect: Bool

    /// Creates a scored word.
    public init(confidence: Double, isCorrect: Bool) {
        self.confidence = confidence
        self.isCorrect = isCorrect
    }
}

/// Expected calibration error: how far confidences are from the share of words they get right.
///
/// Words are put in `bins` equal-width confidence bins; ECE is the mean, weighted by the bin's share of words, of
/// |mean confidence − share correct| in each bin. 0 is perfect; a recognizer that says 0.9 and is right half the time
/// scores 0.4.
public enum CalibrationError {
    /// The ECE of `words` over `bins` bins (0 for no words).
    public static func expected(_ words: [ScoredWord], bins: Int = 10) -> Double {
        precondition(bins > 0, "at least one bin")
        guard !words.isEmpty else { return 0 }
        var count = [Int](repeating: 0, count: bins)
        var confidence = [Double](repeating: 0, count: bins)
        var correct = [Int](repeating: 0, count: bins)
        for word in words {
            let bin = min(bins - 1, max(0, Int(word.confidence * Double(bins))))
            count[bin] += 1
            confidence[bin] += word.confidence
            correct[bin] += word.isCorrect ? 1 : 0
        }
        var total = 0.0
        for bin in 0..<bins where count[bin] > 0 {
            let n = Double(count[bin])
            total += n * abs(confidence[bin] / n - Double(correct[bin]) / n)
        }
        return total / Double(words.count)
    }
}

extension ConfidenceCalibration {
    /// Fits the map to `words`. The result is non-decreasing in the raw confidence; with no words it is the identity
    /// (no steps).
    public init(fitting words: [ScoredWord]) {
        let sorted = words.sorted { $0.confidence < $1.confidence }
        // Blocks of (smallest confidence, sum correct, count), merged while a block's mean is below the one before.
        var blocks: [(start: Double, correct: Double, count: Double)] = []
        for word in sorted {
            blocks.append((word.confidence, word.isCorrect ? 1 : 0, 1))
            while blocks.count > 1 {
                let last = blocks[blocks.count - 1], previous = blocks[blocks.count - 2]
                guard last.correct / last.count <= previous.correct / previous.count
                    || last.start == previous.start
                else { break }
                blocks.removeLast(2)
                blocks.append((previous.start, previous.correct + last.correct, previous.count + last.count))
            }
        }
        self.init(thresholds: blocks.map(\.start), values: blocks.map { $0.correct / $0.count })
    }
}
