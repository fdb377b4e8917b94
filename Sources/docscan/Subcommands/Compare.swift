import ArgumentParser
import DocScan
import DocScanMetrics
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
            confidences with how often such words are right, over ten bins. Without truth, the recognizers are \
            compared with each other (CER of one reading against another).
            """
    )

    @Argument(help: "Photos, or folders of photos.", completion: .file())
    var paths: [String]

    @Option(help: "Recognizers to compare (comma-separated ids; see `docscan recognizers`).")
    var recognizers = "fast,accurate"

    @Option(help: "Folder of NAME.truth.json files, looked up before the photo's own folder.", completion: .directory)
    var truth: String?

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
        let scanner = DocumentScanner()
        var tallies = recognizerIDs.map { RecognizerTally(id: $0) }
        var agreements: [String: [Double]] = [:]
        var disagreements: [Disagreement] = []
        let photos = PhotoList.expand(paths)
        guard !photos.isEmpty else { throw ValidationError("no photo found in \(paths.joined(separator: ", "))") }
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
                continue
            }
            let truthPages = try truthFile(for: url).map { try GroundTruth(contentsOf: $0).pages }
            var readings: [[Int: RecognizedPage]] = []
            for (i, reader) in readers.enumerated() {
                let outcomes = await PageTextReader(recognizer: reader, request: request).readTimed(scanned.pages)
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
        print("recognizer      pages   CER      WER      word F1  median ms  mean conf  ECE      errors")
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
                    + percent("word_f1") + "  " + number("median_ms", "%9.0f") + "  " + percent("mean_confidence")
                    + "    " + number("ece", "%.3f") + "    " + "\(tally.failures.count)")
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
    var failures: [String] = []
    var hasTruth = false

    /// Scores the readings of one photo's pages against its true pages.
    mutating func score(_ readings: [Int: RecognizedPage], of pages: [ScannedPage], against truth: [GroundTruth.Page]) {
        hasTruth = true
        let options = TextErrorRate.Normalization(ignoresRules: true)
        for (n, truePage) in truth.enumerated() {
            guard let trueText = truePage.text else { continue }
            let match: ScannedPage?
            if let quad = truePage.quad {
                match = pages.max { $0.quad.intersectionOverUnion(quad) < $1.quad.intersectionOverUnion(quad) }
                    .flatMap { $0.quad.intersectionOverUnion(quad) > 0.5 ? $0 : nil }
            } else {
                match = n < pages.count ? pages[n] : nil
            }
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
        }
        let sorted = milliseconds.sorted()
        if !sorted.isEmpty { row["median_ms"] = sorted[sorted.count / 2] }
        if !confidences.isEmpty { row["mean_confidence"] = confidences.reduce(0, +) / Double(confidences.count) }
        if !failures.isEmpty { row["failures"] = failures }
        return row
    }
}
