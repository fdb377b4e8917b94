import Foundation

/// The process's resident memory, read from `/proc/self/status` (Linux), and its high-water mark, which can be
/// reset there (writing 5 to `/proc/self/clear_refs`) so that each recognizer's peak is measured on its own.
/// Where `/proc` is missing (macOS), nothing is measured and every reading is nil.
enum ResidentMemory {
    /// Bytes resident now.
    static var current: Int? { statusField("VmRSS") }

    /// The most bytes resident since the process started or since the last ``resetPeak(handingBackFreedMemory:)``.
    static var peak: Int? { statusField("VmHWM") }

    /// The most bytes another process (a plugin) has held since it started.
    static func peak(ofProcess pid: Int32) -> Int? { statusField("VmHWM", process: String(pid)) }

    /// Starts a new high-water mark at the current resident size; false when the system does not allow it. With
    /// `handingBackFreedMemory`, memory freed but still held by the allocator is handed back first (glibc's
    /// `malloc_trim`), so that the new mark starts from what the process really holds.
    @discardableResult
    static func resetPeak(handingBackFreedMemory: Bool = false) -> Bool {
        if handingBackFreedMemory { _ = trimAllocator?(0) }
        guard let handle = FileHandle(forWritingAtPath: "/proc/self/clear_refs") else { return false }
        defer { try? handle.close() }
        do { try handle.write(contentsOf: Data("5".utf8)) } catch { return false }
        return true
    }

    private typealias Trim = @convention(c) (Int) -> Int32
    /// glibc's `malloc_trim`, looked up at run time (other C libraries have none).
    private static let trimAllocator: Trim? = {
        #if canImport(Glibc)
            guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "malloc_trim") else { return nil }
            return unsafeBitCast(symbol, to: Trim.self)
        #else
            return nil
        #endif
    }()

    private static func statusField(_ name: String, process: String = "self") -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(process)/status", encoding: .utf8) else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix(name + ":") {
            // "VmHWM:	  123456 kB"
            let number = line.dropFirst(name.count + 1).split(whereSeparator: \.isWhitespace).first
            return number.flatMap { Int($0) }.map { $0 * 1024 }
        }
        return nil
    }
}
