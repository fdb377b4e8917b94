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
        guard !words.isEmpty else { return 0 }
        let total = reliability(words, bins: bins).reduce(0.0) { sum, bin in
            sum + Double(bin.count) * abs(bin.meanConfidence - bin.accuracy)
        }
        return total / Double(words.count)
    }

    /// One bin of a reliability diagram: the words whose confidence falls in `range`.
    public struct Bin: Sendable, Equatable {
        /// The confidences the bin holds (the last bin includes 1).
        public var range: ClosedRange<Double>
        /// How many words fall in it.
        public var count: Int
        /// Their mean confidence (0 when empty).
        public var meanConfidence: Double
        /// The share of them that are right (0 when empty).
        public var accuracy: Double
    }

    /// The `bins` equal-width confidence bins of a reliability diagram, empty ones included.
    public static func reliability(_ words: [ScoredWord], bins: Int = 10) -> [Bin] {
        precondition(bins > 0, "at least one bin")
        var count = [Int](repeating: 0, count: bins)
        var confidence = [Double](repeating: 0, count: bins)
        var correct = [Int](repeating: 0, count: bins)
        for word in words {
            let bin = min(bins - 1, max(0, Int(word.confidence * Double(bins))))
            count[bin] += 1
            confidence[bin] += word.confidence
            correct[bin] += word.isCorrect ? 1 : 0
        }
        return (0..<bins).map { bin in
            let n = Double(max(1, count[bin]))
            return Bin(
                range: Double(bin) / Double(bins)...Double(bin + 1) / Double(bins), count: count[bin],
                meanConfidence: confidence[bin] / n, accuracy: Double(correct[bin]) / n)
        }
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
