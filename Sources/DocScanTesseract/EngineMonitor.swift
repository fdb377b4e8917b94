import CTesseract
import DocScanRecognition
import Foundation

/// Tesseract's progress monitor bridged to Swift: task cancellation and the request's deadline stop the engine between
/// words, and progress goes to the request's handler, never decreasing.
final class EngineMonitor: @unchecked Sendable {
    enum Stop { case cancelled, deadline }

    let monitor: OpaquePointer
    private let lock = NSLock()
    private var stopReason: Stop?
    private var reported = 0.0
    private let deadline: ContinuousClock.Instant?
    private let progress: (@Sendable (Double) -> Void)?
    /// The share of the work before and after this engine run, so several runs on one page report one rising curve.
    var span: ClosedRange<Double> = 0...1

    init(deadline: ContinuousClock.Instant?, progress: (@Sendable (Double) -> Void)?) {
        monitor = TessMonitorCreate()
        self.deadline = deadline
        self.progress = progress
        TessMonitorSetCancelThis(monitor, Unmanaged.passUnretained(self).toOpaque())
        TessMonitorSetCancelFunc(monitor) { context, _ in
            guard let context else { return false }
            return Unmanaged<EngineMonitor>.fromOpaque(context).takeUnretainedValue().shouldStop()
        }
    }

    deinit {
        TessMonitorDelete(monitor)
    }

    /// Asks the engine to stop at the next word.
    func cancel() {
        lock.withLock { if stopReason == nil { stopReason = .cancelled } }
    }

    /// Why the engine was stopped, if it was.
    var stopped: Stop? { lock.withLock { stopReason } }

    /// Throws when the engine was stopped.
    func check() throws(RecognitionError) {
        switch stopped {
        case .cancelled: throw .cancelled
        case .deadline: throw .deadlineExceeded
        case nil: break
        }
    }

    /// Reports progress within the current span (0...1 of this engine run).
    func report(_ fraction: Double) {
        guard let progress else { return }
        let value = span.lowerBound + (span.upperBound - span.lowerBound) * min(1, max(0, fraction))
        let rose: Bool = lock.withLock {
            guard value > reported else { return false }
            reported = value
            return true
        }
        if rose { progress(value) }
    }

    /// Called by Tesseract between words: records progress and says whether to stop.
    private func shouldStop() -> Bool {
        report(Double(TessMonitorGetProgress(monitor)) / 100)
        if let deadline, ContinuousClock.now >= deadline {
            lock.withLock { if stopReason == nil { stopReason = .deadline } }
        }
        return stopped != nil
    }
}
