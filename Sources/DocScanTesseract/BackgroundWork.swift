import Foundation

/// Work started on another thread while the calling thread goes on, its value waited for where it is needed: a page's
/// own analyses of its pixels (its checkboxes) run while Tesseract reads the page, so that they add nothing to the
/// time a single page takes.
final class BackgroundWork<Value: Sendable>: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    // Written once on the worker before `done` is signalled, read only after it is.
    private var result: Value?

    /// Starts `work` on a global queue.
    init(_ work: @escaping @Sendable () -> Value) {
        DispatchQueue.global(qos: .userInitiated).async { [self] in
            result = work()
            done.signal()
        }
    }

    /// The work's value, waited for if it is not done yet.
    var value: Value {
        done.wait()
        defer { done.signal() }
        return result!
    }
}
