import ArgumentParser

/// The `docscan` command-line tool: a thin layer over the DocScan library.
@main
struct DocScanCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "docscan",
        abstract: "Turn phone photos of documents into flat, evenly lit pages and their text.",
        subcommands: [Scan.self, Recognizers.self, Compare.self, Calibrate.self, Evaluate.self, Bench.self, BenchRecognizer.self, BenchPlugin.self],
        defaultSubcommand: nil
    )
}
