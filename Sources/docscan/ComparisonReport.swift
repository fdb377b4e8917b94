import DocScan
import DocScanMetrics
import DocScanRecognition
import Foundation

/// The HTML report of `docscan compare --report DIR`: `index.html` and the page images it shows, in one folder that
/// needs no network and runs no script. Per photo, each page with every recognizer's word boxes side by side (colored
/// by confidence) and each reading against the truth; at the top, the summary table and a reliability diagram per
/// recognizer.
struct ComparisonReport {
    /// One scanned page and what each recognizer made of it.
    struct PageEntry {
        var page: ScannedPage
        /// The matched true text; nil when the photo has no truth, empty when no true page matched this one.
        var truth: String?
        /// Per recognizer (in the report's order): its reading, its error, or nil when it did not run.
        var outcomes: [Result<RecognizedPage, RecognitionError>?]
    }

    let folder: URL
    let recognizers: [String]
    private var sections: [String] = []
    private var imageCount = 0

    /// Where the page images go, inside `folder`.
    static let imagesFolder = "pages"
    /// Marks an `index.html` as ours, so a rerun may replace it and nothing else is ever overwritten.
    static let generatorMark = "<meta name=\"generator\" content=\"docscan compare\">"
    /// Longest side of the page images in the report, in pixels.
    static let imageSide = 1100

    /// Prepares `folder` (created if missing).
    /// - Throws: when the folder cannot be created, or holds an `index.html` that DocScan did not write.
    init(folder: URL, recognizers: [String]) throws {
        self.folder = folder
        self.recognizers = recognizers
        let index = folder.appendingPathComponent("index.html")
        if let existing = try? String(contentsOf: index, encoding: .utf8), !existing.contains(Self.generatorMark) {
            throw ReportError("\(index.path) exists and was not written by docscan compare; choose another --report folder")
        }
        do {
            try FileManager.default.createDirectory(
                at: folder.appendingPathComponent(Self.imagesFolder), withIntermediateDirectories: true)
        } catch {
            throw ReportError("cannot create the report folder \(folder.path): \(error.localizedDescription)")
        }
    }

    /// Adds a photo that could not be scanned.
    mutating func add(photo: String, failure: String) {
        sections.append("<section><h3>\(escape(photo))</h3><p class=\"error\">Not scanned: \(escape(failure))</p></section>")
    }

    /// Adds a photo's pages, writing their images into the report folder.
    mutating func add(photo: String, pages: [PageEntry], unmatchedTruthPages: Int) throws {
        var html = "<section><h3>\(escape(photo))</h3>"
        if unmatchedTruthPages > 0 {
            html += "<p class=\"error\">\(unmatchedTruthPages) true page(s) matched no scanned page: read as empty.</p>"
        }
        for entry in pages {
            let image = try imageFile(for: entry.page)
            html += "<h4>Page \(entry.page.index)</h4><div class=\"readings\">"
            for (id, outcome) in zip(recognizers, entry.outcomes) {
                html += figure(id: id, image: image, outcome: outcome, truth: entry.truth)
            }
            html += "</div><div class=\"texts\">"
            for (id, outcome) in zip(recognizers, entry.outcomes) {
                guard case .success(let reading)? = outcome else { continue }
                html += "<div class=\"text\"><h5>\(escape(id))</h5><p>\(textHTML(reading.text, truth: entry.truth))</p></div>"
            }
            html += "</div>"
        }
        sections.append(html + "</section>")
    }

    /// Writes `index.html` with the summary and every photo added, and returns its location.
    func write(summary tallies: [RecognizerTally], pairwiseCER: [String: Double]) throws -> URL {
        var html = """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8">\(Self.generatorMark)
            <title>DocScan: recognizers compared</title><style>\(Self.style)</style></head><body>
            <h1>Recognizers compared</h1>
            <p>\(sections.count) photo(s), read by \(recognizers.map(escape).joined(separator: ", ")).
            Word boxes are colored by confidence: \(legend()).</p>
            <h2>Summary</h2>\(summaryTable(tallies))
            """
        if !pairwiseCER.isEmpty {
            html += "<ul>"
            for (pair, cer) in pairwiseCER.sorted(by: { $0.key < $1.key }) {
                html += "<li>\(escape(pair)): mean CER of one reading against the other \(percent(cer))</li>"
            }
            html += "</ul>"
        }
        let failures = tallies.flatMap { tally in tally.failures.map { (tally.id, $0) } }
        if !failures.isEmpty {
            html += "<h3>Errors</h3><ul class=\"error\">"
            for (id, failure) in failures { html += "<li>\(escape(id)): \(escape(failure))</li>" }
            html += "</ul>"
        }
        if tallies.contains(where: { !$0.scoredWords.isEmpty }) {
            html += "<h2>Reliability</h2><p>Bars: the share of words right in each raw-confidence bin (a calibrated "
                + "recognizer's bars follow the diagonal); dots: the same for calibrated confidences.</p><div class=\"diagrams\">"
            for tally in tallies where !tally.scoredWords.isEmpty { html += reliabilityDiagram(tally) }
            html += "</div>"
        }
        html += "<h2>Photos</h2>" + sections.joined(separator: "\n") + "</body></html>\n"
        let index = folder.appendingPathComponent("index.html")
        do {
            try Data(html.utf8).write(to: index, options: .atomic)
        } catch {
            throw ReportError("cannot write \(index.path): \(error.localizedDescription)")
        }
        return index
    }

    // MARK: - Parts

    /// Writes the page's display image, downscaled, and returns its path relative to the report.
    private mutating func imageFile(for page: ScannedPage) throws -> String {
        imageCount += 1
        let name = "\(Self.imagesFolder)/\(imageCount).jpg"
        do {
            let data = try page.image.fitting(longSide: Self.imageSide).encoded(as: .jpeg(quality: 80))
            try data.write(to: folder.appendingPathComponent(name), options: .atomic)
        } catch {
            throw ReportError("cannot write the report image \(name): \(error)")
        }
        return name
    }

    /// One recognizer's view of a page: the image with its word boxes, and a caption with its scores.
    private func figure(id: String, image: String, outcome: Result<RecognizedPage, RecognitionError>?, truth: String?)
        -> String
    {
        var html = "<figure><div class=\"page\"><img src=\"\(image)\" alt=\"page\">"
        var caption = "<b>\(escape(id))</b>"
        switch outcome {
        case .success(let reading)?:
            html += "<svg viewBox=\"0 0 \(reading.width) \(reading.height)\" preserveAspectRatio=\"none\">"
            for word in reading.words {
                let box = word.box
                let confidence = word.confidence?.value
                let title = "\(word.text) " + (confidence.map { String(format: "%.2f", $0) } ?? "(no confidence)")
                html += String(
                    format: "<rect x=\"%.0f\" y=\"%.0f\" width=\"%.0f\" height=\"%.0f\" style=\"stroke:%@;fill:%@\"><title>%@</title></rect>",
                    box.x, box.y, box.width, box.height, color(confidence), color(confidence, alpha: 0.18), escape(title))
            }
            html += "</svg>"
            let words = reading.words.compactMap { $0.confidence?.value }
            caption += " · \(reading.words.count) words"
            if !words.isEmpty { caption += " · mean confidence \(percent(words.reduce(0, +) / Double(words.count)))" }
            if let truth { caption += " · CER \(percent(TextErrorRate.characters(reading.text, truth: truth, Self.normalization).rate))" }
        case .failure(let error)?:
            caption += " · <span class=\"error\">error: \(escape(error.description))</span>"
        case nil:
            caption += " · not read"
        }
        return html + "</div><figcaption>\(caption)</figcaption></figure>"
    }

    /// The reading, word by word against the truth when there is one: missing true words struck out, extra words
    /// underlined.
    private func textHTML(_ reading: String, truth: String?) -> String {
        guard let truth else { return escape(reading) }
        var html = ""
        for step in WordDifference.between(reading, truth: truth, Self.normalization) {
            switch step {
            case .same(let word): html += escape(word) + " "
            case .missing(let word): html += "<del>\(escape(word))</del> "
            case .extra(let word): html += "<ins>\(escape(word))</ins> "
            }
        }
        return html
    }

    private func summaryTable(_ tallies: [RecognizerTally]) -> String {
        let columns: [(title: String, key: String, format: (Double) -> String)] = [
            ("CER", "cer", percent), ("WER", "wer", percent), ("Word F1", "word_f1", percent),
            ("Median ms per page", "median_ms", { String(format: "%.0f", $0) }),
            ("Peak MB", "peak_mb", { String(format: "%.0f", $0) }),
            ("Mean confidence", "mean_confidence", percent), ("ECE", "ece", { String(format: "%.3f", $0) }),
            ("ECE calibrated", "calibrated_ece", { String(format: "%.3f", $0) }),
        ]
        var html = "<table><tr><th>Recognizer</th><th>Pages</th>"
        for column in columns { html += "<th>\(column.title)</th>" }
        html += "<th>Errors</th></tr>"
        for tally in tallies {
            let row = tally.summary
            html += "<tr><td>\(escape(tally.id))</td><td>\(tally.pagesRead)</td>"
            for column in columns { html += "<td>\((row[column.key] as? Double).map(column.format) ?? "–")</td>" }
            html += "<td\(tally.failures.isEmpty ? "" : " class=\"error\"")>\(tally.failures.count)</td></tr>"
        }
        return html + "</table>"
    }

    /// A reliability diagram: per confidence bin, the share of words right (bars, raw confidences; dots, calibrated).
    private func reliabilityDiagram(_ tally: RecognizerTally) -> String {
        let size = 220.0, margin = 30.0
        func x(_ v: Double) -> Double { margin + v * size }
        func y(_ v: Double) -> Double { margin + (1 - v) * size }
        let raw = CalibrationError.reliability(tally.scoredWords)
        let most = Double(raw.map(\.count).max() ?? 1)
        var svg = "<figure><svg class=\"diagram\" viewBox=\"0 0 \(Int(size + 2 * margin)) \(Int(size + 2 * margin))\">"
        svg += String(format: "<rect x=\"%.0f\" y=\"%.0f\" width=\"%.0f\" height=\"%.0f\" class=\"frame\"/>", margin, margin, size, size)
        for bin in raw where bin.count > 0 {
            // Bar opacity shows how many words the bin holds.
            svg += String(
                format: "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" class=\"bar\" style=\"opacity:%.2f\"><title>%@</title></rect>",
                x(bin.range.lowerBound) + 1, y(bin.accuracy), size * (bin.range.upperBound - bin.range.lowerBound) - 2,
                bin.accuracy * size, 0.35 + 0.65 * Double(bin.count) / most,
                "\(bin.count) words, mean confidence \(percent(bin.meanConfidence)), \(percent(bin.accuracy)) right")
        }
        for bin in CalibrationError.reliability(tally.calibratedWords) where bin.count > 0 {
            svg += String(
                format: "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4\" class=\"calibrated\"><title>%@</title></circle>",
                x(bin.meanConfidence), y(bin.accuracy),
                "calibrated: \(bin.count) words, mean \(percent(bin.meanConfidence)), \(percent(bin.accuracy)) right")
        }
        svg += String(format: "<line x1=\"%.0f\" y1=\"%.0f\" x2=\"%.0f\" y2=\"%.0f\" class=\"diagonal\"/>", x(0), y(0), x(1), y(1))
        for tick in [0.0, 0.5, 1.0] {
            svg += String(format: "<text x=\"%.0f\" y=\"%.0f\" class=\"tick\">%.1f</text>", x(tick) - 6, y(0) + 16, tick)
            svg += String(format: "<text x=\"%.0f\" y=\"%.0f\" class=\"tick\">%.1f</text>", 2.0, y(tick) + 4, tick)
        }
        svg += "</svg>"
        var caption = "<b>\(escape(tally.id))</b>: ECE \(String(format: "%.3f", CalibrationError.expected(tally.scoredWords)))"
        if !tally.calibratedWords.isEmpty {
            caption += ", calibrated \(String(format: "%.3f", CalibrationError.expected(tally.calibratedWords)))"
        }
        return svg + "<figcaption>\(caption) · x: confidence, y: share right</figcaption></figure>"
    }

    private func legend() -> String {
        [0.0, 0.5, 0.7, 0.9, 1.0].map { "<span class=\"swatch\" style=\"border-color:\(color($0))\">\($0)</span>" }
            .joined(separator: " ") + " <span class=\"swatch\" style=\"border-color:\(color(nil))\">none</span>"
    }

    // MARK: - Helpers

    /// Red through amber to green as the confidence goes from 0.5 (and below) to 1; gray without one.
    private func color(_ confidence: Double?, alpha: Double = 1) -> String {
        guard let confidence else { return "hsla(0,0%,50%,\(alpha))" }
        let hue = 120 * min(1, max(0, (confidence - 0.5) / 0.5))
        return String(format: "hsla(%.0f,85%%,40%%,%.2f)", hue, alpha)
    }

    private func percent(_ value: Double) -> String { String(format: "%.2f%%", 100 * value) }

    private func escape(_ text: String) -> String {
        var escaped = ""
        for character in text {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            default: escaped.append(character)
            }
        }
        return escaped
    }

    /// The normalisation used for scoring (see `RecognizerTally`): whitespace folded, every character counted, the
    /// printed rules (`-----`) too.
    static let normalization = TextErrorRate.Normalization()

    static let style = """
        body{font:14px/1.45 system-ui,sans-serif;margin:24px;color:#222}
        h1{margin-top:0}h3{border-top:1px solid #ccc;padding-top:12px}
        table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:4px 8px;text-align:right}
        td:first-child,th:first-child{text-align:left}th{background:#f3f3f3}
        .readings{display:flex;gap:16px;flex-wrap:wrap;align-items:flex-start}
        figure{margin:0}.page{position:relative;width:420px}
        .page img{width:100%;display:block;border:1px solid #ddd}
        .page svg{position:absolute;left:0;top:0;width:100%;height:100%}
        .page rect{stroke-width:1.5;vector-effect:non-scaling-stroke}
        .texts{display:flex;gap:16px;flex-wrap:wrap}.text{width:420px}.text p{white-space:pre-wrap;margin:0}
        .text h5{margin:8px 0 4px}
        del{background:#fdd;color:#a00}ins{background:#dfd;color:#060;text-decoration:underline}
        .error{color:#b00}.swatch{border:2px solid;padding:0 4px}
        .diagrams{display:flex;gap:24px;flex-wrap:wrap}.diagram{width:280px}
        .frame{fill:none;stroke:#999}.bar{fill:#4a7bd0}.calibrated{fill:#e08a00}
        .diagonal{stroke:#444;stroke-dasharray:4 3}.tick{font-size:11px;fill:#555}
        """
}

/// A report that cannot be written.
struct ReportError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
