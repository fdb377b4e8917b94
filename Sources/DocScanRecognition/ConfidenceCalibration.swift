/// A monotonic map from a recognizer's raw word confidence to the probability that the word is exactly right.
///
/// Raw confidences mean different things per engine (Tesseract's follows its weakest glyph), so a 0.9 from one
/// recognizer and a 0.9 from another are not the same promise. A calibration, fitted on pages with known text
/// (`docscan calibrate`, or `init(fitting:)` in DocScanMetrics), is a step function: each step's value is the share
/// of words in that raw-confidence range that were right.
public struct ConfidenceCalibration: Sendable, Equatable, Codable {
    /// Raw confidences at which the calibrated value steps, ascending: `thresholds[i]` is the smallest raw confidence
    /// of step `i`.
    public var thresholds: [Double]
    /// The calibrated probability of each step, non-decreasing.
    public var values: [Double]

    /// Creates a step function from its steps.
    public init(thresholds: [Double], values: [Double]) {
        precondition(thresholds.count == values.count, "one value per threshold")
        self.thresholds = thresholds
        self.values = values
    }

    /// The calibrated probability for a raw confidence: the value of the last step at or below it (the first step's
    /// value below all steps); the raw value itself when the map has no steps.
    public func calibrated(_ confidence: Double) -> Double {
        guard !thresholds.isEmpty else { return confidence }
        var low = 0, high = thresholds.count
        while low < high {
            let middle = (low + high) / 2
            if thresholds[middle] <= confidence { low = middle + 1 } else { high = middle }
        }
        return values[max(0, low - 1)]
    }
}

extension RecognizedPage {
    /// The same page with every word's ``Confidence/calibrated`` set through `calibration`, and `source` recorded in
    /// the provenance. Words without a confidence stay without one.
    public func calibratingWordConfidences(with calibration: ConfidenceCalibration, source: String) -> RecognizedPage {
        var page = self
        for b in page.blocks.indices {
            for l in page.blocks[b].lines.indices {
                for w in page.blocks[b].lines[l].words.indices {
                    guard let raw = page.blocks[b].lines[l].words[w].confidence?.value else { continue }
                    page.blocks[b].lines[l].words[w].confidence?.calibrated = calibration.calibrated(raw)
                }
            }
        }
        page.provenance.confidenceCalibration = source
        return page
    }
}

/// A recognizer whose word confidences also carry the calibrated probability that the word is right.
///
/// It reads exactly as the recognizer it wraps (same descriptor, same sessions) and fills in
/// ``Confidence/calibrated`` on every word it returns.
public struct CalibratedRecognizer: TextRecognizer {
    /// The recognizer that reads.
    public let base: any TextRecognizer
    /// The map applied to its word confidences.
    public let calibration: ConfidenceCalibration
    /// Where the map came from (a file path, or how it was fitted), stated in every result's provenance.
    public let source: String

    /// Wraps `base`, calibrating its word confidences with `calibration`.
    public init(_ base: any TextRecognizer, calibration: ConfidenceCalibration, source: String) {
        self.base = base
        self.calibration = calibration
        self.source = source
    }

    public var descriptor: RecognizerDescriptor { base.descriptor }

    public func prepare(for request: RecognitionRequest) async throws(RecognitionError) -> any RecognitionSession {
        Session(base: try await base.prepare(for: request), calibration: calibration, source: source)
    }

    public func shutdown() async { await base.shutdown() }

    private struct Session: RecognitionSession {
        let base: any RecognitionSession
        let calibration: ConfidenceCalibration
        let source: String

        func recognize(_ page: PageImage, request: RecognitionRequest) async throws(RecognitionError) -> RecognizedPage {
            try await base.recognize(page, request: request).calibratingWordConfidences(with: calibration, source: source)
        }
    }
}
