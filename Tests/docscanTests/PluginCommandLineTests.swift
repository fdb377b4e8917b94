import Foundation
import Testing

@Suite("docscan with plugins")
struct PluginCommandLineTests {
    /// The sh test plugins of the PluginTests target.
    static let testPlugins = Paths.packageRoot.appendingPathComponent("Tests/PluginTests/Fixtures")

    @Test("a plugin folder in DOCSCAN_PLUGIN_PATH is listed with the shipped ones, and a broken manifest is explained")
    func listed() async throws {
        let output = try await DocScanTool.run(
            ["recognizers"], environment: ["DOCSCAN_PLUGIN_PATH": Self.testPlugins.path])
        #expect(output.status == 0, "stderr: \(output.standardError)")
        #expect(output.standardOutput.contains("sh-good: Test plugin (good) 1, default level fast"))
        #expect(output.standardOutput.contains("plugin: \(Self.testPlugins.appendingPathComponent("good").path)"))
        #expect(output.standardOutput.contains("tesseract-isolated: Tesseract, out of process"), "the shipped plugin")
        #expect(output.standardError.contains("broken-manifest") && output.standardError.contains("'command' has the wrong type"))
        let json = try await DocScanTool.run(["recognizers", "--json"], environment: ["DOCSCAN_PLUGIN_PATH": Self.testPlugins.path])
        let ids = json.standardOutput.split(separator: "\n").compactMap {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])?["id"] as? String
        }
        #expect(ids.starts(with: ["fast", "accurate"]) && ids.contains("sh-crash") && ids.contains("tesseract-isolated"))
    }

    @Test("compare goes on when a plugin crashes: its pages show errors, the other recognizers' results are complete")
    func compareWithCrashingPlugin() async throws {
        let folder = try Paths.folder(withCorpusFiles: [
            "card-04.jpg", "card-04.truth.json", "card-05.jpg", "card-05.truth.json", "prose-01.jpg", "prose-01.truth.json",
        ])
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = try await DocScanTool.run(
            ["compare", folder.path, "--recognizers", "fast,sh-crash,sh-exit", "--json"],
            environment: ["DOCSCAN_PLUGIN_PATH": Self.testPlugins.path])
        // Failures make the exit status 1, but the run finishes and prints the whole table.
        #expect(output.status == 1, "stderr: \(output.standardError)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(output.standardOutput.utf8)) as? [String: Any])
        let rows = try #require(object["recognizers"] as? [[String: Any]])
        let byID = Dictionary(uniqueKeysWithValues: rows.map { ($0["recognizer"] as? String ?? "", $0) })
        let fast = try #require(byID["fast"])
        #expect(fast["errors"] as? Int == 0 && fast["pages"] as? Int == 3, "\(fast)")
        // fast read exactly what it reads when it runs alone.
        let alone = try await DocScanTool.run(["compare", folder.path, "--recognizers", "fast", "--json"])
        let aloneObject = try #require(try JSONSerialization.jsonObject(with: Data(alone.standardOutput.utf8)) as? [String: Any])
        let aloneRow = try #require((aloneObject["recognizers"] as? [[String: Any]])?.first)
        #expect(aloneRow["cer"] as? Double == fast["cer"] as? Double && aloneRow["word_f1"] as? Double == fast["word_f1"] as? Double)
        // The crashing plugin reads pages 1 and 2 of each process and dies on the third.
        let crash = try #require(byID["sh-crash"])
        let crashFailures = crash["failures"] as? [String] ?? []
        #expect(crashFailures.count == 1 && crashFailures[0].contains("exited with status 139 while reading the page"), "\(crash)")
        // The sh plugin's own process: a shell holds a megabyte or two, far less than the host's Tesseract.
        let crashMemory = try #require(crash["peak_mb"] as? Double)
        #expect(crashMemory > 0.1 && crashMemory < 20, "\(crash)")
        let exit = try #require(byID["sh-exit"])
        let exitFailures = exit["failures"] as? [String] ?? []
        #expect(exitFailures.count == 3 && exitFailures.allSatisfy { $0.contains("cannot load model: file not found") }, "\(exit)")
    }
}
