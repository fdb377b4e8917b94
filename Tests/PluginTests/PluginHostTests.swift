import DocScan
import DocScanGeometry
import DocScanRecognition
import Foundation
import Testing

@testable import DocScanPlugins

/// The test plugins: `Fixtures/plugin.sh` in one mode per folder (see the script's header).
enum TestPlugins {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")

    static func recognizer(_ mode: String) throws -> PluginRecognizer {
        PluginRecognizer(manifest: try PluginManifest(folder: folder.appendingPathComponent(mode)))
    }

    static let page = try! PageImage(
        width: 120, height: 80, pixelFormat: .gray, pixels: (0..<9600).map { UInt8(truncatingIfNeeded: $0 * 7) })
}

/// How long a call took, in seconds.
func seconds(_ body: () async throws -> Void) async rethrows -> Double {
    let start = ContinuousClock.now
    try await body()
    let elapsed = ContinuousClock.now - start
    return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
}

@Suite("Out-of-process plugins")
struct PluginHostTests {
    @Test("a plugin reads pages in one long-lived process, sees only its page, and reports progress up to 1")
    func goodPlugin() async throws {
        let plugin = try TestPlugins.recognizer("good")
        let fractions = Fractions()
        var request = RecognitionRequest()
        request.progressHandler = { fractions.append($0) }
        let first = try await plugin.recognize(TestPlugins.page, request: request)
        let second = try await plugin.recognize(TestPlugins.page, request: request)
        await plugin.shutdown()
        // "page N of process PID, K file(s) beside the image"
        let firstText = try #require(first.lines.first?.text)
        let secondText = try #require(second.lines.first?.text)
        #expect(firstText.hasPrefix("page 1 of process ") && secondText.hasPrefix("page 2 of process "))
        let process = { (text: String) in text.split(separator: " ")[4] }
        #expect(process(firstText) == process(secondText), "one process for both pages")
        #expect(firstText.hasSuffix("1 file(s) beside the image"), "the page's folder holds the page alone: \(firstText)")
        #expect(first.words.first?.box == Rect(x: 2, y: 3, width: 12, height: 10))
        #expect(first.words.first?.confidence?.value == 0.75)
        #expect(first.provenance.recognizer == "sh-good" && first.provenance.backend == "plugin Test plugin (good)")
        #expect(fractions.values == [0.5, 1, 0.5, 1])
    }

    @Test(
        "a broken plugin fails its page with a clear error, in time",
        arguments: [
            ("exit", "exited with status 3 before the handshake; its stderr ends: cannot load model: file not found"),
            ("hang", "did not answer within 2.0 s; it was stopped"),
            ("garbage", "wrote a line that is not a protocol message: Traceback (most recent call last):"),
            ("malformed", "returned a malformed result: block 1 line 1 word 1 has a box outside the 120×80 page"),
            ("oldprotocol", "speaks protocol 99; this docscan speaks 1"),
        ])
    func brokenPlugin(mode: String, message: String) async throws {
        let plugin = try TestPlugins.recognizer(mode)
        var caught: RecognitionError?
        let elapsed = await seconds {
            do throws(RecognitionError) { _ = try await plugin.recognize(TestPlugins.page, request: RecognitionRequest()) } catch { caught = error }
        }
        await plugin.shutdown()
        let error = try #require(caught)
        #expect(error.description.contains("plugin 'sh-\(mode)' \(message)"), "\(error)")
        // The hanging plugin would sleep 1000 s: the page ends at the manifest's 2 s limit instead, which the message
        // above says. Wall time is bounded loosely: the whole test run shares two cores, and a test waits its turn for
        // one after every await (a CI run once took 60 s here while the corpus suites held both cores).
        #expect(elapsed < 300, "took \(elapsed) s")
    }

    @Test("a plugin that crashes midway through a batch fails that page only, and is restarted for the next")
    func crashMidway() async throws {
        let plugin = try TestPlugins.recognizer("crash")
        var outcomes: [Result<RecognizedPage, RecognitionError>] = []
        for _ in 0..<4 {
            do { outcomes.append(.success(try await plugin.recognize(TestPlugins.page, request: RecognitionRequest()))) } catch {
                outcomes.append(.failure(error))
            }
        }
        await plugin.shutdown()
        let texts = outcomes.map { (try? $0.get())?.lines.first?.text }
        #expect(texts[0]?.hasPrefix("page 1 ") == true && texts[1]?.hasPrefix("page 2 ") == true)
        guard case .failure(let error) = outcomes[2] else {
            Issue.record("page 3 should have failed")
            return
        }
        #expect(error.description.contains("exited with status 139 while reading the page"), "\(error)")
        #expect(error.description.contains("segmentation fault in page 3"), "the stderr tail: \(error)")
        // A new process: its first page.
        #expect(texts[3]?.hasPrefix("page 1 ") == true, "\(texts)")
    }

    @Test("a malformed result costs its page only: the plugin keeps serving")
    func malformedThenGood() async throws {
        let plugin = try TestPlugins.recognizer("malformed")
        for _ in 0..<2 {
            await #expect(throws: RecognitionError.self) {
                try await plugin.recognize(TestPlugins.page, request: RecognitionRequest())
            }
        }
        await plugin.shutdown()
    }

    @Test("cancelling a page stops a plugin that hangs, promptly")
    func cancellation() async throws {
        let plugin = try TestPlugins.recognizer("hang")
        let task = Task { try await plugin.recognize(TestPlugins.page, request: RecognitionRequest()) }
        try await Task.sleep(for: .milliseconds(300))
        let elapsed = await seconds {
            task.cancel()
            let result = await task.result
            #expect(throws: RecognitionError.cancelled) { try result.get() }
        }
        // The error says cancelled, not the 2 s timeout; the bound only guards against a hang.
        #expect(elapsed < 300, "cancelled in \(elapsed) s")
        await plugin.shutdown()
    }

    @Test("the request's time limit ends a slow page with deadlineExceeded")
    func deadline() async throws {
        let plugin = try TestPlugins.recognizer("slow")
        var request = RecognitionRequest()
        request.timeLimit = .milliseconds(500)
        await #expect(throws: RecognitionError.deadlineExceeded) {
            try await plugin.recognize(TestPlugins.page, request: request)
        }
        await plugin.shutdown()
    }

    @Test("a line that came after the deadline is a time-out, however late the host looks; one that came before is read")
    func lateLines() async throws {
        // A busy machine can hold the host back past its deadline while the plugin's answer waits in the pipe.
        let connection = try PluginConnection(
            executable: URL(fileURLWithPath: "/bin/sh"), arguments: ["-c", "echo early; sleep 2; echo late; sleep 5"],
            folder: FileManager.default.temporaryDirectory, environment: [:])
        let start = ContinuousClock.now
        try await Task.sleep(for: .seconds(3))  // both lines are in by now
        #expect(await connection.next(before: start + .seconds(1)) == .line("early"))
        #expect(await connection.next(before: start + .seconds(1)) == .timedOut)
        #expect(await connection.next(before: ContinuousClock.now + .seconds(1)) == .line("late"))
        connection.kill()
    }

    @Test("several pages at once are served one at a time, all of them")
    func concurrentPages() async throws {
        let plugin = try TestPlugins.recognizer("good")
        let texts = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<4 {
                group.addTask { try await plugin.recognize(TestPlugins.page, request: RecognitionRequest()).text }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        await plugin.shutdown()
        #expect(Set(texts.map { $0.split(separator: " ")[1] }) == ["1", "2", "3", "4"], "\(texts)")
    }

    @Test("a program that is not there is an error that says what to run")
    func missingProgram() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("docscan-plugin-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(#"{"id": "venv", "protocol": 1, "command": [".venv/bin/python", "plugin.py"], "setup": "./setup.sh"}"#.utf8)
            .write(to: folder.appendingPathComponent("plugin.json"))
        let plugin = PluginRecognizer(manifest: try PluginManifest(folder: folder))
        #expect(plugin.manifest.executable == nil)
        await #expect(throws: RecognitionError.engineFailure(
            "plugin 'venv' cannot start: '.venv/bin/python' is not an executable program in \(folder.standardizedFileURL.path); run `./setup.sh` in \(folder.standardizedFileURL.path) first")) {
            try await plugin.recognize(TestPlugins.page, request: RecognitionRequest())
        }
    }

    @Test("plugins are found in each folder of DOCSCAN_PLUGIN_PATH, or as the folder itself; bad manifests are reported")
    func discovery() throws {
        let environment = [
            "DOCSCAN_PLUGIN_PATH": TestPlugins.folder.path + ":" + TestPlugins.folder.appendingPathComponent("good").path,
            "XDG_DATA_HOME": "/nonexistent", "HOME": "/nonexistent",
        ]
        let discovery = PluginDiscovery.standard(shipped: nil, environment: environment)
        #expect(discovery.searchPath.map(\.path) == [
            "/nonexistent/docscan/plugins", TestPlugins.folder.path, TestPlugins.folder.appendingPathComponent("good").path,
        ])
        let (found, problems) = discovery.manifests()
        #expect(found.map(\.id).sorted() == ["sh-crash", "sh-exit", "sh-garbage", "sh-good", "sh-hang", "sh-malformed", "sh-oldprotocol", "sh-slow"])
        // The good plugin again, through its own folder: the first one found wins.
        #expect(problems.contains { $0.reason.contains("id 'sh-good' is already taken") })
        #expect(problems.contains { $0.folder.hasSuffix("broken-manifest") && $0.reason.contains("'command' has the wrong type") })
        let good = try #require(found.first { $0.id == "sh-good" })
        #expect(good.descriptor.capabilities.wordBoxes && !good.descriptor.capabilities.candidates)
        #expect(good.timeoutSeconds == 2 && good.levels == [.fast] && good.defaultLevel == .fast)
    }

    @Test("pages travel as uncompressed PNG: what is written reads back the same, gray and RGB")
    func pngRoundTrip() throws {
        let gray = TestPlugins.page
        let decodedGray = try UncompressedPNG.decode(UncompressedPNG.encode(gray))
        #expect(decodedGray.width == 120 && decodedGray.height == 80 && decodedGray.pixels == gray.pixels)
        // Large enough for several stored blocks of at most 65535 bytes.
        let rgb = try PageImage(
            width: 300, height: 200, pixelFormat: .rgb, pixels: (0..<180_000).map { UInt8(truncatingIfNeeded: $0 / 3 + $0 % 3) })
        let decodedRGB = try UncompressedPNG.decode(UncompressedPNG.encode(rgb))
        #expect(decodedRGB.pixelFormat == .rgb && decodedRGB.pixels == rgb.pixels)
        // Another decoder (libpng through OpenCV, which checks every CRC and the Adler-32) reads the same pixels.
        let loaded = try ImageLoader().load(UncompressedPNG.encode(rgb), name: "page.png")
        #expect(loaded.header.format == .png && loaded.image.width == 300 && loaded.image.height == 200)
        #expect(loaded.image.pixel(x: 7, y: 5) == Array(rgb.pixels[(5 * 300 + 7) * 3..<(5 * 300 + 7) * 3 + 3]).reversed())
        #expect(throws: RecognitionError.invalidImage("not a PNG file")) { try UncompressedPNG.decode(Data("GIF89a".utf8)) }
    }

    @Test("a request that knows the way up reaches the plugin as detects_orientation false; older hosts mean true")
    func orientationOption() throws {
        var request = RecognitionRequest()
        request.detectsOrientation = false
        let sent = try JSONEncoder().encode(PluginRequestOptions(request, level: .fast))
        let json = try #require(try JSONSerialization.jsonObject(with: sent) as? [String: Any])
        #expect(json["detects_orientation"] as? Bool == false)
        #expect(try JSONDecoder().decode(PluginRequestOptions.self, from: sent).request.detectsOrientation == false)
        let older = Data(#"{"level": "fast", "languages": ["eng"]}"#.utf8)
        #expect(try JSONDecoder().decode(PluginRequestOptions.self, from: older).request.detectsOrientation == true)
    }
}

/// Progress values, collected from any thread.
final class Fractions: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [Double] = []
    func append(_ value: Double) { lock.withLock { stored.append(value) } }
    var values: [Double] { lock.withLock { stored } }
}
