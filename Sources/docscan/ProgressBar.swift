import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A one-line progress bar on stderr for runs of several photos, drawn only when stderr is a terminal.
final class ProgressBar {
    private let total: Int
    private let enabled: Bool
    private var drawn = false

    init(total: Int) {
        self.total = total
        enabled = total > 1 && isatty(STDERR_FILENO) == 1
    }

    /// Shows `done` of `total` finished, working on `label`.
    func update(done: Int, label: String) {
        guard enabled else { return }
        let width = 30
        let filled = total > 0 ? width * done / total : 0
        let name = label.count > 40 ? "…" + label.suffix(39) : label
        let line = "[\(String(repeating: "#", count: filled))\(String(repeating: "-", count: width - filled))] \(done)/\(total) \(name)"
        FileHandle.standardError.write(Data(("\r\u{1B}[K" + line).utf8))
        drawn = true
    }

    /// Erases the bar so other output starts on a clean line.
    func clear() {
        guard enabled, drawn else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
        drawn = false
    }

    /// Erases the bar at the end of the run.
    func finish() { clear() }
}
