import CTesseract
import DocScanRecognition
import Foundation

/// Tesseract's progress monitor bridged to Swift: task cancellation and the request's deadline stop the engine between
/// words, and progress goes to the request's handler, never decreasing. A run can also be given a time budget of its
/// own (``within(_:_:)``): an optional reading that overruns it is abandoned, and the page goes on.
final class EngineMonitor: @unchecked Sendable {
    /// Why the engine was stopped: the request was cancelled, its deadline passed, or one run's budget ran out.
    enum Stop { case cancelled, deadline, budget }

    let monitor: OpaquePointer
    private let lock = NSLock()
    private var stopReason: Stop?
    private var reported = 0.0
    private let deadline: ContinuousClock.Instant?
    private var budgetEnd: ContinuousClock.Instant?
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

    /// Throws when the engine was stopped by cancellation or the deadline (a run's spent budget is no error).
    func check() throws(RecognitionError) {
        switch stopped {
        case .cancelled: throw .cancelled
        case .deadline: throw .deadlineExceeded
        case .budget, nil: break
        }
    }

    /// Runs `body` (one or more engine runs) with the engine also stopped once `budget` has passed, or the budget of
    /// an enclosing call, if that ends first; nil when a budget stopped it. The monitor is then ready for the next
    /// run, unless the enclosing budget has run out too. Cancellation and the request's deadline still throw.
    func within<T>(_ budget: Duration, _ body: () throws(RecognitionError) -> T) throws(RecognitionError) -> T? {
        let enclosing: ContinuousClock.Instant? = lock.withLock {
            let enclosing = budgetEnd
            let end = ContinuousClock.now + budget
            budgetEnd = enclosing.map { min($0, end) } ?? end
            return enclosing
        }
        defer {
            lock.withLock {
                budgetEnd = enclosing
                if stopReason == .budget, enclosing.map({ ContinuousClock.now < $0 }) ?? true { stopReason = nil }
            }
        }
        let value = try body()
        return stopped == .budget ? nil : value
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
        let now = ContinuousClock.now
        return lock.withLock {
            if stopReason == nil {
                if let deadline, now >= deadline {
                    stopReason = .deadline
                } else if let budgetEnd, now >= budgetEnd {
                    stopReason = .budget
                }
            }
            return stopReason != nil
        }
    }
}
