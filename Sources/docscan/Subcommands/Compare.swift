import ArgumentParser
import DocScan
import DocScanMetrics
import DocScanPlugins
import DocScanRecognition
import Foundation

/// `docscan compare`: several recognizers on the same scanned pages, side by side.
struct Compare: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Read the same pages with several recognizers and compare them, against truth files when there are some.",
        discussion: """
            Each photo is scanned once and every recognizer reads the same pages, so differences come from the \
            recognizers alone. Truth is NAME.truth.json beside the photo or in --truth DIR, in the shape of \
            `docscan scan --json` output: {"pages": [{"quad": [[x,y],...], "text": "..."}]}. Pages are matched by \
            outline overlap when the truth has outlines, else in order; a true page with no match reads as empty. \
            A word counts as right when it occurs in the true text (each true word once); ECE compares word \
            confidences with how often such words are right, over ten bins; ECE cal does the same with the \
            calibrated confidences, for recognizers with a calibration file (see `docscan calibrate`). Peak MB is how \
            far the process's resident memory rose above its level when the recognizer started on a photo (its \
            models load on the first; Linux only); for a plugin, the most its own process has held. Without \
            truth, the recognizers are compared with each other (CER of one reading against another).
            """
    )

    @Argument(help: "Photos, or folders of photos.", completion: .file())
    var paths: [String]

    @Option(help: "Recognizers to compare (comma-separated ids; see `docscan recognizers`).")
    var recognizers = "fast,accurate"

    @Option(help: "Folder of NAME.truth.json files, looked up before the photo's own folder.", completion: .directory)
    var truth: String?

    @Option(
        help: "Write an HTML report to this folder (created if missing): pages with each recognizer's word boxes, texts against the truth, reliability diagrams.",
        completion: .directory)
    var report: String?

    @Flag(help: "Print the table as JSON.")
    var json = false

    @OptionGroup(title: "Recognition")
    var recognition: RecognitionOptions

    func validate() throws {
        guard !recognizerIDs.isEmpty else { throw ValidationError("--recognizers needs at least one id") }
        if let truth {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: truth, isDirectory: &isDirectory), isDirectory.boolValue else {
                throw ValidationError("--truth \(truth) is not a folder")
            }
        }
    }

    var recognizerIDs: [String] { RecognitionOptions.ids(recognizers) }

    func run() async throws {
        let registry = try recognition.registry()
        let readers = try recognizerIDs.map { try registry.recognizer($0) }
        let request = try recognition.request()
        var options = DocumentScanner.Options()
        options.rendersSuspectedShake = true  // pages read with a suspected shake removed or a defocus undone too
        let scanner = DocumentScanner(options: options)
        var tallies = recognizerIDs.map { RecognizerTally(id: $0) }
        var agreements: [String: [Double]] = [:]
        var disagreements: [Disagreement] = []
        let photos = PhotoList.expand(paths)
        guard !photos.isEmpty else { throw ValidationError("no photo found in \(paths.joined(separator: ", "))") }
        var htmlReport = try report.map { try ComparisonReport(folder: URL(fileURLWithPath: $0), recognizers: recognizerIDs) }
        let progress = ProgressBar(total: photos.count * readers.count)
        var done = 0
        for photo in photos {
            let url = URL(fileURLWithPath: photo)
            let scanned: ScanResult
            do {
                scanned = try scanner.scan(contentsOf: url)
            } catch {
                FileHandle.standardError.write(Data("docscan: \(photo): \(error.message)\n".utf8))
                for i in tallies.indices { tallies[i].failures.append("\(photo): \(error.message)") }
                htmlReport?.add(photo: photo, failure: error.message)
                continue
            }
            let truthPages = try truthFile(for: url).map { try GroundTruth(contentsOf: $0).pages }
            var readings: [[Int: RecognizedPage]] = []
            var outcomesByRecognizer: [[Int: Result<RecognizedPage, RecognitionError>]] = []
            for (i, reader) in readers.enumerated() {
                // A plugin's memory is in its own process: its row shows that process's high-water mark.
                let plugin = reader as? PluginRecognizer
                let measuresMemory = plugin == nil && ResidentMemory.resetPeak()
                let residentBefore = ResidentMemory.current
                let outcomes = await PageTextReader(recognizer: reader, request: request).read(scanned.pages)
                if measuresMemory, let residentBefore, let peak = ResidentMemory.peak {
                    tallies[i].peakAddedBytes = max(tallies[i].peakAddedBytes ?? 0, peak - residentBefore)
                } else if let pid = await plugin?.runningProcessIdentifier(), let peak = ResidentMemory.peak(ofProcess: pid) {
                    tallies[i].peakAddedBytes = max(tallies[i].peakAddedBytes ?? 0, peak)
                }
                outcomesByRecognizer.append(outcomes.mapValues(\.result))
                var pages: [Int: RecognizedPage] = [:]
                for (index, outcome) in outcomes {
                    switch outcome.result {
                    case .success(let page):
                        pages[index] = page
                        tallies[i].milliseconds.append(outcome.milliseconds)
                    case .failure(let error):
                        tallies[i].failures.append("\(photo) page \(index): \(error)")
                    }
                }
                if let truthPages {
                    tallies[i].score(pages, of: scanned.pages, against: truthPages)
                } else {
                    tallies[i].pagesRead += pages.count
                    tallies[i].confidences += pages.values.flatMap(\.words).compactMap { $0.confidence?.value }
                }
                readings.append(pages)
                done += 1
                progress.update(done: done, label: "\(url.lastPathComponent) \(recognizerIDs[i])")
            }
            if htmlReport != nil {
                let matches = truthPages.map { TruthMatch.pair(scanned.pages, with: $0) } ?? []
                try htmlReport?.add(
                    photo: photo,
                    pages: scanned.pages.map { page in
                        ComparisonReport.PageEntry(
                            page: page, truth: truthPages == nil ? nil : matches.first { $0.page?.index == page.index }?.truth.text ?? "",
                            outcomes: outcomesByRecognizer.map { $0[page.index] })
                    },
                    unmatchedTruthPages: matches.filter { $0.page == nil && $0.truth.text != nil }.count)
            }
            if truthPages == nil {
                for a in readings.indices {
                    for b in readings.indices where a < b {
                        let key = "\(recognizerIDs[a]) vs \(recognizerIDs[b])"
                        for (index, page) in readings[a] {
                            guard let other = readings[b][index] else { continue }
                            agreements[key, default: []].append(
                                TextErrorRate.characters(page.text, truth: other.text).rate)
                            for (mine, theirs) in Self.disagreeingLines(page, other) {
                                disagreements.append(
                                    Disagreement(
                                        photo: photo, page: index, recognizers: (recognizerIDs[a], recognizerIDs[b]),
                                        lines: (mine, theirs)))
                            }
                        }
                    }
                }
            }
        }
        progress.finish()
        for reader in readers { await reader.shutdown() }
        if let htmlReport {
            let index = try htmlReport.write(summary: tallies, pairwiseCER: agreements.mapValues { $0.reduce(0, +) / Double($0.count) })
            FileHandle.standardError.write(Data("docscan: report written to \(index.path)\n".utf8))
        }
        if json {
            let rows = tallies.map(\.summary)
            var object: [String: Any] = ["recognizers": rows]
            if !agreements.isEmpty { object["pairwise_cer"] = agreements.mapValues { $0.reduce(0, +) / Double($0.count) } }
            if !disagreements.isEmpty { object["disagreements"] = disagreements.map(\.json) }
            let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .prettyPrinted])
            print(String(decoding: data, as: UTF8.self))
        } else {
            printTable(tallies, agreements: agreements)
            for disagreement in disagreements.prefix(Self.printedDisagreements) { print(disagreement.line) }
            if disagreements.count > Self.printedDisagreements {
                print("… and \(disagreements.count - Self.printedDisagreements) more lines read differently (--json lists all)")
            }
        }
        if tallies.contains(where: { !$0.failures.isEmpty }) { throw ExitCode.failure }
    }

    /// Lines shown in the table output where two recognizers read differently.
    static let printedDisagreements = 20

    /// A line one recognizer read differently from another, on a page without truth.
    struct Disagreement {
        var photo: String
        var page: Int
        var recognizers: (String, String)
        var lines: (String, String)

        var line: String {
            "\(photo) page \(page): \(recognizers.0) \"\(lines.0)\" | \(recognizers.1) \"\(lines.1)\""
        }

        var json: [String: Any] {
            ["photo": photo, "page": page, recognizers.0: lines.0, recognizers.1: lines.1]
        }
    }

    /// Each line of `a` that `b` did not read the same (after normalisation), with `b`'s closest line (by CER; empty
    /// when `b` read nothing there).
    static func disagreeingLines(_ a: RecognizedPage, _ b: RecognizedPage) -> [(String, String)] {
        let theirs = b.lines.map(\.text)
        let normalized = Set(theirs.map { TextErrorRate.normalize($0) })
        return a.lines.map(\.text).compactMap { mine in
            guard !normalized.contains(TextErrorRate.normalize(mine)) else { return nil }
            let closest = theirs.min {
                TextErrorRate.characters($0, truth: mine).rate < TextErrorRate.characters($1, truth: mine).rate
            }
            return (mine, closest ?? "")
        }
    }

    /// The truth file of a photo: in --truth DIR first, then beside the photo.
    func truthFile(for photo: URL) -> URL? {
        if let truth {
            let name = photo.deletingPathExtension().lastPathComponent + ".truth.json"
            let url = URL(fileURLWithPath: truth).appendingPathComponent(name)
            if FileManager.default.fileExists(atPath: url.path) { return url }
        }
        return GroundTruth.file(for: photo)
    }

    func printTable(_ tallies: [RecognizerTally], agreements: [String: [Double]]) {
        print("recognizer      pages   CER      WER      word F1  median ms  peak MB  mean conf  ECE    ECE cal  errors")
        for tally in tallies {
            let s = tally.summary
            func percent(_ key: String) -> String {
                (s[key] as? Double).map { String(format: "%6.2f%%", 100 * $0) } ?? "      -"
            }
            func number(_ key: String, _ format: String) -> String {
                (s[key] as? Double).map { String(format: format, $0) } ?? "-"
            }
            print(
                tally.id.padding(toLength: 15, withPad: " ", startingAt: 0)
                    + String(format: " %5d  ", tally.pagesRead) + percent("cer") + "  " + percent("wer") + "  "
                    + percent("word_f1") + "  " + number("median_ms", "%9.0f") + "  " + number("peak_mb", "%7.0f") + "  "
                    + percent("mean_confidence") + "  " + number("ece", "%.3f").padding(toLength: 5, withPad: " ", startingAt: 0)
                    + "  " + number("calibrated_ece", "%.3f").padding(toLength: 7, withPad: " ", startingAt: 0) + "  "
                    + "\(tally.failures.count)")
        }
        for (pair, rates) in agreements.sorted(by: { $0.key < $1.key }) {
            print(String(format: "%@: mean CER of one reading against the other %.2f%% over %d pages", pair, 100 * rates.reduce(0, +) / Double(rates.count), rates.count))
        }
        for failure in tallies.flatMap({ tally in tally.failures.map { "\(tally.id): \($0)" } }) { print("error: \(failure)") }
    }
}

/// What one recognizer did over the whole comparison.
struct RecognizerTally {
    let id: String
    var pagesRead = 0
    var characters = TextErrorRate.zero
    var words = TextErrorRate.zero
    var overlap = WordOverlap.zero
    var milliseconds: [Double] = []
    var confidences: [Double] = []
    var scoredWords: [ScoredWord] = []
    /// The same words with their calibrated confidences, for recognizers that have a calibration.
    var calibratedWords: [ScoredWord] = []
    /// The most the process's resident memory rose above its level when this recognizer started on a photo.
    var peakAddedBytes: Int?
    var failures: [String] = []
    var hasTruth = false

    /// Scores the readings of one photo's pages against its true pages.
    mutating func score(_ readings: [Int: RecognizedPage], of pages: [ScannedPage], against truth: [GroundTruth.Page]) {
        hasTruth = true
        // Every character of the truth counts, printed rules (-----) too, as in `docscan evaluate`.
        let options = ComparisonReport.normalization
        for (truePage, match) in TruthMatch.pair(pages, with: truth) {
            guard let trueText = truePage.text else { continue }
            let reading = match.flatMap { readings[$0.index] }
            let text = reading?.text ?? ""
            pagesRead += 1
            characters = characters + TextErrorRate.characters(text, truth: trueText, options)
            words = words + TextErrorRate.words(text, truth: trueText, options)
            overlap = overlap + WordOverlap(text, truth: trueText, options)
            // Each recognized word is right when it can take a still unused word of the truth.
            var unused: [String: Int] = [:]
            for word in TextErrorRate.normalize(trueText, options).split(separator: " ") { unused[String(word), default: 0] += 1 }
            for word in reading?.words ?? [] {
                guard let confidence = word.confidence?.value else { continue }
                confidences.append(confidence)
                let normalized = TextErrorRate.normalize(word.text, options)
                let isCorrect = unused[normalized, default: 0] > 0
                if isCorrect { unused[normalized]! -= 1 }
                scoredWords.append(ScoredWord(confidence: confidence, isCorrect: isCorrect))
                if let calibrated = word.confidence?.calibrated {
                    calibratedWords.append(ScoredWord(confidence: calibrated, isCorrect: isCorrect))
                }
            }
        }
    }

    /// The row of the table, as JSON-ready values (absent when not measured).
    var summary: [String: Any] {
        var row: [String: Any] = ["recognizer": id, "pages": pagesRead, "errors": failures.count]
        if hasTruth {
            row["cer"] = characters.rate
            row["wer"] = words.rate
            row["word_f1"] = overlap.f1
            if !scoredWords.isEmpty { row["ece"] = CalibrationError.expected(scoredWords) }
            if !calibratedWords.isEmpty { row["calibrated_ece"] = CalibrationError.expected(calibratedWords) }
        }
        if let peakAddedBytes { row["peak_mb"] = Double(peakAddedBytes) / 1_048_576 }
        let sorted = milliseconds.sorted()
        if !sorted.isEmpty { row["median_ms"] = sorted[sorted.count / 2] }
        if !confidences.isEmpty { row["mean_confidence"] = confidences.reduce(0, +) / Double(confidences.count) }
        if !failures.isEmpty { row["failures"] = failures }
        return row
    }
}

/// Which scanned page each true page of a photo is: the page whose outline overlaps the true quad most (IoU > 0.5)
/// when the truth has quads, else the page in the same position.
enum TruthMatch {
    static func pair(_ pages: [ScannedPage], with truth: [GroundTruth.Page]) -> [(truth: GroundTruth.Page, page: ScannedPage?)] {
        truth.enumerated().map { n, truePage in
            guard let quad = truePage.quad else { return (truePage, n < pages.count ? pages[n] : nil) }
            let best = pages.max { $0.quad.intersectionOverUnion(quad) < $1.quad.intersectionOverUnion(quad) }
            return (truePage, best.flatMap { $0.quad.intersectionOverUnion(quad) > 0.5 ? $0 : nil })
        }
    }
}
