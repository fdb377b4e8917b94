import DocScanRecognition
import Foundation

/// A plugin's `plugin.json`: who it is, how to start it and what it can do.
///
/// ```json
/// {"id": "rapidocr", "name": "RapidOCR", "version": "1.4.4", "protocol": 1,
///  "command": [".venv/bin/python", "rapidocr_plugin.py"],
///  "languages": ["eng"], "levels": ["accurate"], "capabilities": {"word_boxes": true}}
/// ```
public struct PluginManifest: Sendable, Equatable, Decodable {
    /// The recognizer id (`--recognizer ID`): letters, digits, `-` and `_`.
    public var id: String
    /// A human-readable name.
    public var name: String
    /// The plugin's version.
    public var version: String
    /// The protocol version it speaks (see ``PluginProtocol/version``).
    public var protocolVersion: Int
    /// The program and its arguments, run from the plugin's folder. A program given as a path (`./run`,
    /// `.venv/bin/python`) is relative to the folder; a bare name (`python3`) is looked up in `PATH`.
    public var command: [String]
    /// Languages it reads, as ISO 639-2 codes; empty when it does not say.
    public var languages: [String]
    /// Levels it reads at, and the one used when a request names none.
    public var levels: [RecognitionLevel]
    public var defaultLevel: RecognitionLevel
    /// What it can honour beyond plain text; capabilities not listed are ones it does not have.
    public var capabilities: RecognizerDescriptor.Capabilities
    /// Its model, in words (shown by `docscan recognizers` and in every result).
    public var model: String
    /// The longest a page may take before the host gives up and restarts the plugin.
    public var timeoutSeconds: Double
    /// The longest the plugin may take to start and answer the handshake.
    public var startupTimeoutSeconds: Double
    /// What to run once, in the folder, before the plugin can start (`./setup.sh`), when it needs that.
    public var setup: String?

    /// The folder the manifest was read from (the plugin's working directory).
    public internal(set) var folder: URL = URL(fileURLWithPath: "/")

    enum CodingKeys: String, CodingKey {
        case id, name, version, protocolVersion = "protocol", command, languages, levels, defaultLevel = "default_level"
        case capabilities, model, timeoutSeconds = "timeout_seconds", startupTimeoutSeconds = "startup_timeout_seconds"
        case setup
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decode(String.self, forKey: .id)
        name = try c.decodeIfPresent(String.self, forKey: .name) ?? id
        version = try c.decodeIfPresent(String.self, forKey: .version) ?? "unknown"
        protocolVersion = try c.decode(Int.self, forKey: .protocolVersion)
        command = try c.decode([String].self, forKey: .command)
        languages = try c.decodeIfPresent([String].self, forKey: .languages) ?? []
        levels = try c.decodeIfPresent([RecognitionLevel].self, forKey: .levels) ?? [.accurate]
        defaultLevel = try c.decodeIfPresent(RecognitionLevel.self, forKey: .defaultLevel) ?? levels.first ?? .accurate
        capabilities = try c.decodeIfPresent(RecognizerDescriptor.Capabilities.self, forKey: .capabilities) ?? .init()
        model = try c.decodeIfPresent(String.self, forKey: .model) ?? "not stated"
        timeoutSeconds = try c.decodeIfPresent(Double.self, forKey: .timeoutSeconds) ?? 120
        startupTimeoutSeconds = try c.decodeIfPresent(Double.self, forKey: .startupTimeoutSeconds) ?? 60
        setup = try c.decodeIfPresent(String.self, forKey: .setup)
    }

    /// Reads and checks `FOLDER/plugin.json`.
    /// - Throws: ``PluginError/invalidManifest(_:reason:)`` saying what is wrong.
    public init(folder: URL) throws(PluginError) {
        let file = folder.appendingPathComponent("plugin.json")
        let data: Data
        do { data = try Data(contentsOf: file) } catch {
            throw .invalidManifest(file.path, reason: "cannot be read (\(error.localizedDescription))")
        }
        do {
            self = try JSONDecoder().decode(PluginManifest.self, from: data)
        } catch let error as DecodingError {
            throw .invalidManifest(file.path, reason: Self.describe(error))
        } catch {
            throw .invalidManifest(file.path, reason: "\(error)")
        }
        self.folder = folder.standardizedFileURL
        guard !id.isEmpty, id.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }) else {
            throw .invalidManifest(file.path, reason: "the id '\(id)' must be letters, digits, '-' or '_'")
        }
        guard !command.isEmpty, !command[0].isEmpty else {
            throw .invalidManifest(file.path, reason: "'command' must name a program to run")
        }
        guard levels.contains(defaultLevel) else {
            throw .invalidManifest(file.path, reason: "'default_level' must be one of 'levels'")
        }
        guard timeoutSeconds > 0, startupTimeoutSeconds > 0 else {
            throw .invalidManifest(file.path, reason: "timeouts must be positive numbers of seconds")
        }
    }

    /// The descriptor `docscan recognizers` shows and every result names. Cancellation and time limits are always
    /// there: the host stops the process when a page is cancelled or late, whatever the plugin does.
    public var descriptor: RecognizerDescriptor {
        var capabilities = capabilities
        capabilities.cancellation = true
        capabilities.deadline = true
        return RecognizerDescriptor(
            id: id, name: name, version: version, model: model, languages: languages, levels: levels,
            defaultLevel: defaultLevel, capabilities: capabilities)
    }

    /// The program to run: a path inside the folder, or a name found in `PATH`; nil when neither exists.
    public var executable: URL? {
        let program = command[0]
        if program.contains("/") {
            let url = program.hasPrefix("/") ? URL(fileURLWithPath: program) : folder.appendingPathComponent(program)
            return FileManager.default.isExecutableFile(atPath: url.path) ? url.standardizedFileURL : nil
        }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for directory in path.split(separator: ":") {
            let url = URL(fileURLWithPath: String(directory)).appendingPathComponent(program)
            if FileManager.default.isExecutableFile(atPath: url.path) { return url }
        }
        return nil
    }

    /// A decoding error in words: which field, and what is wrong with it.
    static func describe(_ error: any Error) -> String {
        guard let error = error as? DecodingError else { return "\(error)" }
        switch error {
        case .keyNotFound(let key, _): return "'\(key.stringValue)' is missing"
        case .typeMismatch(_, let context), .valueNotFound(_, let context):
            let path = context.codingPath.map(\.stringValue).joined(separator: ".")
            return "'\(path)' has the wrong type (\(context.debugDescription))"
        case .dataCorrupted(let context):
            let path = context.codingPath.map(\.stringValue).joined(separator: ".")
            return path.isEmpty ? "not valid JSON" : "'\(path)': \(context.debugDescription)"
        @unknown default: return "\(error)"
        }
    }
}

/// Where plugins are looked for, and what was found there.
public struct PluginDiscovery: Sendable {
    /// A plugin folder that could not be used, and why.
    public struct Problem: Sendable, Equatable, CustomStringConvertible {
        public var folder: String
        public var reason: String
        public var description: String { "\(folder): \(reason)" }

        /// A problem with the plugin in `folder`.
        public init(folder: String, reason: String) {
            self.folder = folder
            self.reason = reason
        }
    }

    /// Folders searched, in order: each holds plugin folders, or is one itself.
    public var searchPath: [URL]

    /// Searches `searchPath`.
    public init(searchPath: [URL]) {
        self.searchPath = searchPath
    }

    /// The standard search path: `shipped` (the `Plugins/` folder of a DocScan checkout, when given), the user's data
    /// folder (`$XDG_DATA_HOME/docscan/plugins`, by default `~/.local/share/docscan/plugins`), then each folder of
    /// `DOCSCAN_PLUGIN_PATH` (colon-separated).
    public static func standard(shipped: URL?, environment: [String: String] = ProcessInfo.processInfo.environment)
        -> PluginDiscovery
    {
        var folders: [URL] = []
        if let shipped { folders.append(shipped) }
        let dataHome =
            environment["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0) }
            ?? URL(fileURLWithPath: environment["HOME"] ?? NSHomeDirectory()).appendingPathComponent(".local/share")
        folders.append(dataHome.appendingPathComponent("docscan/plugins"))
        for entry in (environment["DOCSCAN_PLUGIN_PATH"] ?? "").split(separator: ":") where !entry.isEmpty {
            folders.append(URL(fileURLWithPath: String(entry)))
        }
        return PluginDiscovery(searchPath: folders)
    }

    /// The manifests found (the first of each id wins) and the plugin folders that could not be used.
    public func manifests() -> (found: [PluginManifest], problems: [Problem]) {
        var found: [PluginManifest] = [], problems: [Problem] = []
        var seen = Set<String>()
        for folder in searchPath {
            for candidate in pluginFolders(in: folder) {
                do throws(PluginError) {
                    let manifest = try PluginManifest(folder: candidate)
                    if seen.contains(manifest.id) {
                        problems.append(Problem(folder: candidate.path, reason: "id '\(manifest.id)' is already taken by another plugin; skipped"))
                        continue
                    }
                    seen.insert(manifest.id)
                    found.append(manifest)
                } catch {
                    problems.append(Problem(folder: candidate.path, reason: error.description))
                }
            }
        }
        return (found, problems)
    }

    /// `folder` itself when it holds a `plugin.json`, else its subfolders that do.
    private func pluginFolders(in folder: URL) -> [URL] {
        let fm = FileManager.default
        if fm.fileExists(atPath: folder.appendingPathComponent("plugin.json").path) { return [folder] }
        guard let names = try? fm.contentsOfDirectory(atPath: folder.path) else { return [] }
        return names.sorted().map { folder.appendingPathComponent($0) }.filter {
            fm.fileExists(atPath: $0.appendingPathComponent("plugin.json").path)
        }
    }
}
