import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One running plugin process: its stdin, the lines of its stdout as they arrive, and the tail of its stderr.
///
/// Two threads per process read stdout and stderr with blocking reads, so the plugin can never stall on a full pipe.
/// Everything here is safe to call from any thread; ``PluginHost`` makes sure one page at a time talks to it.
final class PluginConnection: @unchecked Sendable {
    /// What waiting for the next stdout line ended with.
    enum Event: Equatable {
        case line(String)
        /// The plugin closed its stdout (it exited or crashed).
        case closed
        case timedOut
        case cancelled
    }

    let process: Process
    private let input: FileHandle
    private let lock = NSLock()
    /// Lines not yet taken, with when they arrived.
    private var lines: [(text: String, arrival: ContinuousClock.Instant)] = []
    private var closed = false
    private var waiter: (token: UInt64, deadline: ContinuousClock.Instant, continuation: CheckedContinuation<Event, Never>)?
    private var nextToken: UInt64 = 0
    private var errorTail = Data()
    private var errorsEnded = false

    /// The most stderr kept, from its end.
    static let errorTailBytes = 2000
    /// A stdout line longer than this ends the connection (the plugin is not speaking the protocol).
    static let longestLine = 256 << 20

    /// Starts `executable` with `arguments` in `folder`.
    /// - Throws: when the process cannot be started.
    init(executable: URL, arguments: [String], folder: URL, environment: [String: String]) throws {
        Self.ignoreBrokenPipes
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = folder
        process.environment = environment
        let stdin = Pipe(), stdout = Pipe(), stderr = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        self.process = process
        input = stdin.fileHandleForWriting
        let output = stdout.fileHandleForReading, errors = stderr.fileHandleForReading
        Thread.detachNewThread { [self] in readLines(from: output) }
        Thread.detachNewThread { [self] in readErrors(from: errors) }
    }

    /// A plugin that dies while the host writes to it must not kill the host with SIGPIPE: the write fails instead.
    private static let ignoreBrokenPipes: Void = { signal(SIGPIPE, SIG_IGN) }()

    /// Writes one line to the plugin's stdin.
    /// - Throws: when the plugin no longer reads it (it exited).
    func send(_ line: Data) throws {
        try input.write(contentsOf: line + Data([0x0A]))
    }

    /// The next line of stdout, or why there is none before `deadline`. A line that arrived after the deadline is
    /// not delivered (``Event/timedOut`` instead), however late the caller or the timer comes to look: on a busy
    /// machine neither may run on time.
    func next(before deadline: ContinuousClock.Instant) async -> Event {
        let token: UInt64 = lock.withLock {
            nextToken += 1
            return nextToken
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Event, Never>) in
                lock.lock()
                if let first = lines.first {
                    if first.arrival > deadline {
                        lock.unlock()
                        continuation.resume(returning: .timedOut)
                        return
                    }
                    lines.removeFirst()
                    lock.unlock()
                    continuation.resume(returning: .line(first.text))
                    return
                }
                if closed {
                    lock.unlock()
                    continuation.resume(returning: .closed)
                    return
                }
                waiter = (token, deadline, continuation)
                lock.unlock()
                let delay = ContinuousClock.now.duration(to: deadline)
                let seconds = max(0, Double(delay.components.seconds) + Double(delay.components.attoseconds) * 1e-18)
                DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { [self] in resume(token, with: .timedOut) }
                if Task.isCancelled { resume(token, with: .cancelled) }
            }
        } onCancel: {
            resume(token, with: .cancelled)
        }
    }

    /// The last lines the plugin wrote to stderr, trimmed, once the stream has ended or `wait` has passed: a plugin's
    /// last words reach the reader thread after its exit is seen, and a fixed pause missed them on a busy machine.
    func errorOutput(within wait: Duration) async -> String {
        let end = ContinuousClock.now + wait
        while !lock.withLock({ errorsEnded }) && ContinuousClock.now < end {
            try? await Task.sleep(for: .milliseconds(5))
        }
        let tail = lock.withLock { errorTail }
        return String(decoding: tail, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Stops the plugin at once (SIGKILL). Its pipes close and any waiting read ends with `.closed`.
    func kill() {
        if process.isRunning { sendSignal(SIGKILL, to: process.processIdentifier) }
        try? input.close()
    }

    /// Closes stdin, which asks the plugin to exit, and kills it when it has not after `grace`.
    func stop(grace: Duration) async {
        try? input.close()
        let end = ContinuousClock.now + grace
        while process.isRunning && ContinuousClock.now < end { try? await Task.sleep(for: .milliseconds(10)) }
        kill()
    }

    /// The exit status, once the process has ended within `wait` (a crash is reported as 128 + the signal).
    func exitStatus(within wait: Duration) async -> Int32? {
        let end = ContinuousClock.now + wait
        while process.isRunning && ContinuousClock.now < end { try? await Task.sleep(for: .milliseconds(5)) }
        guard !process.isRunning else { return nil }
        return process.terminationReason == .uncaughtSignal ? 128 + process.terminationStatus : process.terminationStatus
    }

    // MARK: - Reader threads

    private func resume(_ token: UInt64, with event: Event) {
        lock.lock()
        guard let current = waiter, current.token == token else {
            lock.unlock()
            return
        }
        waiter = nil
        lock.unlock()
        current.continuation.resume(returning: event)
    }

    private func deliver(_ line: String) {
        let arrival = ContinuousClock.now
        lock.lock()
        if let current = waiter, arrival <= current.deadline {
            waiter = nil
            lock.unlock()
            current.continuation.resume(returning: .line(line))
        } else {
            // Kept for a later look; a waiter past its deadline (its timer late) learns it timed out.
            lines.append((line, arrival))
            let late = waiter
            waiter = nil
            lock.unlock()
            late?.continuation.resume(returning: .timedOut)
        }
    }

    private func readLines(from handle: FileHandle) {
        var buffer = Data()
        while let chunk = Self.readSome(handle, upTo: 1 << 16) {
            buffer.append(chunk)
            while let newline = buffer.firstIndex(of: 0x0A) {
                deliver(String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self))
                buffer.removeSubrange(buffer.startIndex...newline)
            }
            if buffer.count > Self.longestLine { break }
        }
        if !buffer.isEmpty && buffer.count <= Self.longestLine { deliver(String(decoding: buffer, as: UTF8.self)) }
        try? handle.close()
        lock.lock()
        closed = true
        let current = waiter
        waiter = nil
        lock.unlock()
        current?.continuation.resume(returning: .closed)
    }

    /// What one read(2) returns: as much as is there, waiting only while nothing is; nil at the end of the stream.
    /// (`FileHandle.read(upToCount:)` waits for the whole count, which would hold back a short reply.)
    private static func readSome(_ handle: FileHandle, upTo count: Int) -> Data? {
        var buffer = [UInt8](repeating: 0, count: count)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(handle.fileDescriptor, $0.baseAddress, count) }
            if n > 0 { return Data(buffer[0..<n]) }
            if n < 0 && errno == EINTR { continue }
            return nil
        }
    }

    private func readErrors(from handle: FileHandle) {
        while let chunk = Self.readSome(handle, upTo: 1 << 14) {
            lock.withLock {
                errorTail.append(chunk)
                if errorTail.count > Self.errorTailBytes { errorTail = errorTail.suffix(Self.errorTailBytes) }
            }
        }
        try? handle.close()
        lock.withLock { errorsEnded = true }
    }
}

/// `kill(2)`, under a name that does not clash with ``PluginConnection/kill()``.
private func sendSignal(_ signal: Int32, to pid: Int32) {
    _ = kill(pid, signal)
}
