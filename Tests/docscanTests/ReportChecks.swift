import DocScan
import Foundation
import Testing

/// A headless Chromium (Debian's `chromium`, or another build on the PATH) that renders a page the way a reader's
/// browser does.
enum HeadlessBrowser {
    static let executable: URL? = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for name in ["chromium", "chromium-browser", "google-chrome"] {
            for folder in path.split(separator: ":") {
                let candidate = URL(fileURLWithPath: String(folder)).appendingPathComponent(name)
                if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            }
        }
        return nil
    }()

    /// Runs the browser headless on `page` with `arguments` added, and returns its exit status and standard output.
    static func run(_ browser: URL, _ arguments: [String], page: URL, profile: URL) async throws -> (Int32, String) {
        try await onOwnThread { try runBlocking(browser, arguments, page: page, profile: profile) }
    }

    private static func runBlocking(_ browser: URL, _ arguments: [String], page: URL, profile: URL) throws -> (Int32, String) {
        let process = Process()
        process.executableURL = browser
        process.arguments =
            [
                "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--no-first-run",
                "--user-data-dir=\(profile.path)", "--window-size=1400,1800",
            ] + arguments + [page.absoluteString]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}

/// Checks a `docscan compare --report` folder: every file it refers to is there, and a real browser renders it.
func checkReport(_ folder: URL, pages: Int, recognizers: [String]) async throws {
    let index = folder.appendingPathComponent("index.html")
    let html = try String(contentsOf: index, encoding: .utf8)
    #expect(!html.contains("<script") && !html.contains("http://") && !html.contains("https://"), "self-contained")
    // Every image the report shows is a file in the report folder.
    let sources = html.components(separatedBy: "src=\"").dropFirst().map { String($0.prefix { $0 != "\"" }) }
    #expect(sources.count == pages * recognizers.count)
    for source in Set(sources) {
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent(source).path), "\(source)")
    }
    for id in recognizers { #expect(html.contains("<b>\(id)</b>")) }

    guard let browser = HeadlessBrowser.executable else {
        // .ci/with-deps installs Debian's chromium for the test suite; elsewhere the browser check is left out.
        print("note: no Chromium on the PATH; the report was not opened in a browser")
        return
    }
    let profile = try Paths.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: profile) }
    let (status, dom) = try await HeadlessBrowser.run(browser, ["--dump-dom"], page: index, profile: profile)
    #expect(status == 0)
    // The browser's own parse of the page has what we wrote: a figure per page and recognizer, the reliability
    // diagrams, the summary row of each recognizer.
    let figures = dom.components(separatedBy: "<figure>").count - 1
    #expect(figures == pages * recognizers.count + recognizers.count, "figures in the rendered DOM: \(figures)")
    #expect(dom.contains("Recognizers compared") && dom.contains("</table>"))
    let screenshot = folder.appendingPathComponent("screenshot.png")
    let (shotStatus, _) = try await HeadlessBrowser.run(browser, ["--screenshot=\(screenshot.path)"], page: index, profile: profile)
    #expect(shotStatus == 0)
    // The screenshot shows a page, not a blank window: dark text and colored boxes on white.
    let image = try ImageLoader().load(contentsOf: screenshot).image
    var dark = 0, colored = 0, total = 0
    for y in stride(from: 0, to: image.height, by: 4) {
        for x in stride(from: 0, to: image.width, by: 4) {
            let p = image.pixel(x: x, y: y)
            total += 1
            if p.count >= 3 {
                if p[0] < 80 && p[1] < 80 && p[2] < 80 { dark += 1 }
                if Int(p.max()!) - Int(p.min()!) > 80 { colored += 1 }
            }
        }
    }
    #expect(Double(dark) / Double(total) > 0.002 && Double(colored) / Double(total) > 0.002, "dark \(dark), colored \(colored) of \(total)")
}
