import DocScanRecognition
import Foundation

/// A recognizer that runs in a plugin process: any program that speaks the plugin protocol (`Plugins/README.md`).
///
/// The process starts with the first page and serves the following ones, one at a time. A page that takes longer
/// than the manifest's `timeout_seconds` (or the request's time limit), a crash, a line that is not JSON or a result
/// that does not fit the page becomes a ``RecognitionError/engineFailure(_:)`` for that page, with the end of the
/// plugin's stderr; the process is stopped and the next page starts a new one. The plugin sees only the page it is
/// given, as a PNG file in a fresh folder of its own that is removed afterwards.
public struct PluginRecognizer: TextRecognizer {
    /// The plugin's manifest.
    public let manifest: PluginManifest
    private let host: PluginHost

    /// A recognizer for the plugin `manifest` describes; nothing starts until the first page.
    public init(manifest: PluginManifest) {
        self.manifest = manifest
        host = PluginHost(manifest: manifest)
    }

    public var descriptor: RecognizerDescriptor { manifest.descriptor }

    public func prepare(for request: RecognitionRequest) async throws(RecognitionError) -> any RecognitionSession {
        Session(host: host, defaultLevel: manifest.defaultLevel)
    }

    /// Asks the plugin to exit (closing its stdin) and stops it if it has not within two seconds.
    public func shutdown() async { await host.stop() }

    /// The process id of the plugin's running process (to measure it from outside); nil when none runs.
    public func runningProcessIdentifier() async -> Int32? { await host.runningProcessIdentifier() }

    private struct Session: RecognitionSession {
        let host: PluginHost
        let defaultLevel: RecognitionLevel

        func recognize(_ page: PageImage, request: RecognitionRequest) async throws(RecognitionError) -> RecognizedPage {
            try await host.read(page, request: request, level: request.level ?? defaultLevel)
        }
    }
}

/// Owns a plugin's process, starts it when needed, and lets one page at a time talk to it.
actor PluginHost {
    let manifest: PluginManifest
    private var connection: PluginConnection?
    private var busy = false
    private var waiting: [CheckedContinuation<Void, Never>] = []
    private var nextID = 0

    init(manifest: PluginManifest) {
        self.manifest = manifest
    }

    /// Reads one page through the plugin, starting it first when it is not running.
    func read(_ page: PageImage, request: RecognitionRequest, level: RecognitionLevel) async throws(RecognitionError)
        -> RecognizedPage
    {
        await acquire()
        defer { release() }
        if Task.isCancelled { throw .cancelled }
        let started = ContinuousClock.now
        let connection = try await runningConnection()
        let startup = (ContinuousClock.now - started).milliseconds

        // The page goes into a folder of its own, readable by this user only, removed after the reading: in memory
        // (/dev/shm) where there is room, else in the temporary folder.
        let png = UncompressedPNG.encode(page)
        var written: URL?
        var lastError: (any Error)?
        for base in Self.pageFolderBases {
            let folder = base.appendingPathComponent("docscan-page-\(UUID().uuidString)")
            do {
                try FileManager.default.createDirectory(
                    at: folder, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
                try png.write(to: folder.appendingPathComponent("page.png"))
                written = folder
                break
            } catch {
                try? FileManager.default.removeItem(at: folder)
                lastError = error
            }
        }
        guard let folder = written else {
            throw .engineFailure(
                "cannot write the page for plugin '\(manifest.id)': \(lastError?.localizedDescription ?? "no folder")")
        }
        let file = folder.appendingPathComponent("page.png")
        defer { try? FileManager.default.removeItem(at: folder) }

        nextID += 1
        let id = nextID
        let image = PluginImage(path: file.path, width: page.width, height: page.height, resolution: page.resolution)
        let message = HostMessage.recognize(id: id, image: image, options: PluginRequestOptions(request, level: level))
        do {
            try connection.send(try JSONEncoder().encode(message))
        } catch {
            throw await failure(connection, "could not be sent the page (\(error.localizedDescription))")
        }

        // The request's own time limit is a deadline the caller asked for, counted from the start of this reading
        // (starting the plugin included); the manifest's is the plugin's limit for a page, counted from sending it.
        let pluginLimit = Duration.milliseconds(Int64(manifest.timeoutSeconds * 1000))
        let pluginDeadline = ContinuousClock.now + pluginLimit
        let requestDeadline = request.timeLimit.map { started + $0 }
        let deadline = requestDeadline.map { min($0, pluginDeadline) } ?? pluginDeadline
        var progress = 0.0
        while true {
            switch await connection.next(before: deadline) {
            case .cancelled:
                connection.kill()
                self.connection = nil
                throw .cancelled
            case .timedOut:
                if let requestDeadline, requestDeadline <= pluginDeadline {
                    connection.kill()
                    self.connection = nil
                    throw .deadlineExceeded
                }
                throw await failure(connection, "did not answer within \(Self.seconds(pluginLimit)); it was stopped")
            case .closed:
                let status = await connection.exitStatus(within: .seconds(1))
                throw await failure(connection, "exited\(status.map { " with status \($0)" } ?? "") while reading the page")
            case .line(let line):
                guard let data = line.data(using: .utf8),
                    let reply = try? JSONDecoder().decode(PluginMessage.self, from: data)
                else {
                    throw await failure(connection, "wrote a line that is not a protocol message: \(Self.excerpt(line))")
                }
                guard reply.id == nil || reply.id == id else {
                    throw await failure(connection, "answered page \(reply.id!) while page \(id) was asked for")
                }
                switch reply.type {
                case "progress":
                    if let fraction = reply.fraction, fraction.isFinite {
                        progress = max(progress, min(1, fraction))
                        request.progressHandler?(progress)
                    }
                case "error":
                    // The plugin is still in step with us: only this page failed.
                    throw .engineFailure("plugin '\(manifest.id)' could not read the page: \(reply.message ?? "no reason given")")
                case "result":
                    let wire: PluginPage
                    switch reply.page {
                    case .success(let page)?: wire = page
                    case .failure(let problem)?:
                        throw .engineFailure("plugin '\(manifest.id)' returned a malformed result: \(problem.message)")
                    case nil: throw .engineFailure("plugin '\(manifest.id)' returned a result without a \"page\"")
                    }
                    let provenance = RecognitionProvenance(
                        recognizer: manifest.id, backend: "plugin \(manifest.name)", version: manifest.version,
                        models: [manifest.model], level: level,
                        levelMapping: "out of process: `\(manifest.command.joined(separator: " "))` in \(manifest.folder.path)",
                        resolution: page.resolution,
                        timingsMilliseconds: ["start": startup, "plugin": (ContinuousClock.now - started).milliseconds - startup])
                    do throws(PluginPageError) {
                        let result = try wire.recognizedPage(width: page.width, height: page.height, provenance: provenance)
                        if request.progressHandler != nil && progress < 1 { request.progressHandler?(1) }
                        return result
                    } catch {
                        throw .engineFailure("plugin '\(manifest.id)' returned a malformed result: \(error.message)")
                    }
                default:
                    throw await failure(connection, "sent an unknown message type '\(reply.type)'")
                }
            }
        }
    }

    func runningProcessIdentifier() -> Int32? {
        guard let connection, connection.process.isRunning else { return nil }
        return connection.process.processIdentifier
    }

    /// Where page folders are made, best first.
    static let pageFolderBases: [URL] = {
        var bases: [URL] = []
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: "/dev/shm", isDirectory: &isDirectory), isDirectory.boolValue,
            FileManager.default.isWritableFile(atPath: "/dev/shm")
        {
            bases.append(URL(fileURLWithPath: "/dev/shm"))
        }
        bases.append(FileManager.default.temporaryDirectory)
        return bases
    }()

    /// Stops the plugin, if it runs.
    func stop() async {
        guard let connection else { return }
        self.connection = nil
        await connection.stop(grace: .seconds(2))
    }

    // MARK: - Parts

    private func acquire() async {
        if !busy {
            busy = true
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    private func release() {
        if waiting.isEmpty { busy = false } else { waiting.removeFirst().resume() }
    }

    /// The running connection, started and greeted first when there is none.
    private func runningConnection() async throws(RecognitionError) -> PluginConnection {
        if let connection, connection.process.isRunning { return connection }
        connection = nil
        guard let executable = manifest.executable else {
            var message = "plugin '\(manifest.id)' cannot start: '\(manifest.command[0])' is not an executable program"
            message += manifest.command[0].contains("/") ? " in \(manifest.folder.path)" : " on the PATH"
            if let setup = manifest.setup { message += "; run `\(setup)` in \(manifest.folder.path) first" }
            throw .engineFailure(message)
        }
        var environment = ProcessInfo.processInfo.environment
        environment["DOCSCAN_PLUGIN_PROTOCOL"] = String(PluginProtocol.version)
        if let bin = Bundle.main.executableURL?.resolvingSymlinksInPath().deletingLastPathComponent() {
            environment["DOCSCAN_BIN_DIR"] = bin.path
        }
        let connection: PluginConnection
        do {
            connection = try PluginConnection(
                executable: executable, arguments: Array(manifest.command.dropFirst()), folder: manifest.folder,
                environment: environment)
        } catch {
            throw .engineFailure("plugin '\(manifest.id)' cannot start \(executable.path): \(error.localizedDescription)")
        }
        do {
            try connection.send(try JSONEncoder().encode(HostMessage.hello()))
        } catch {
            throw await failure(connection, "exited before the handshake")
        }
        let limit = Duration.milliseconds(Int64(manifest.startupTimeoutSeconds * 1000))
        switch await connection.next(before: .now + limit) {
        case .line(let line):
            guard let data = line.data(using: .utf8), let hello = try? JSONDecoder().decode(PluginMessage.self, from: data),
                hello.type == "hello"
            else {
                throw await failure(connection, "did not answer the handshake with a hello: \(Self.excerpt(line))")
            }
            guard hello.protocolVersion == PluginProtocol.version else {
                throw await failure(
                    connection,
                    "speaks protocol \(hello.protocolVersion.map(String.init) ?? "(none given)"); this docscan speaks \(PluginProtocol.version)")
            }
        case .closed:
            let status = await connection.exitStatus(within: .seconds(1))
            throw await failure(connection, "exited\(status.map { " with status \($0)" } ?? "") before the handshake")
        case .timedOut:
            throw await failure(connection, "did not answer the handshake within \(Self.seconds(limit)); it was stopped")
        case .cancelled:
            connection.kill()
            throw .cancelled
        }
        self.connection = connection
        return connection
    }

    /// Stops a plugin that broke the protocol, and the error for the page, with the end of its stderr.
    private func failure(_ connection: PluginConnection, _ what: String) async -> RecognitionError {
        connection.kill()
        if self.connection === connection { self.connection = nil }
        // The plugin is killed: its stderr ends as soon as the reader has drained it (a child it left holding the
        // pipe open is waited for a second at most).
        let stderr = await connection.errorOutput(within: .seconds(1))
        let tail = stderr.isEmpty ? "" : "; its stderr ends: \(Self.excerpt(stderr, last: true))"
        return .engineFailure("plugin '\(manifest.id)' \(what)\(tail)")
    }

    private static func excerpt(_ text: String, last: Bool = false) -> String {
        let limit = 400
        guard text.count > limit else { return text }
        return last ? "…" + text.suffix(limit) : text.prefix(limit) + "…"
    }

    private static func seconds(_ duration: Duration) -> String {
        String(format: "%.1f s", Double(duration.components.seconds) + Double(duration.components.attoseconds) * 1e-18)
    }
}
