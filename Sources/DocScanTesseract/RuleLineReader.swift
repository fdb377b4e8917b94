import DocScanGeometry
import DocScanRecognition

/// Reads the rows of dashes and equals signs printed across receipts and forms (`-----`, `=====`). Tesseract's layout
/// analysis takes such a row for a ruled line and removes it before reading, so its characters never reach the text.
/// This reader looks between the lines Tesseract read for a thin band of ink broken into evenly spaced marks, counts
/// the marks, and tells a dash (one bar) from an equals sign (two bars one above the other). A continuous rule, or
/// marks too uneven to be a printed row of characters, is left alone.
struct RuleLineReader {
    /// The page in upright reading orientation, dark print on light paper.
    let pixels: GrayPixels
    /// The typical height of the page's characters, in pixels.
    let glyphHeight: Double

    /// A row of repeated marks found on the page.
    struct Rule: Equatable {
        var character: Character
        /// One box per mark, left to right.
        var marks: [Rect]
        var box: Rect { marks.dropFirst().reduce(marks[0]) { $0.union($1) } }
        var text: String { String(repeating: character, count: marks.count) }
    }

    /// Pixels darker than this are ink (the reading rendering leaves paper near white).
    static let inkBelow: UInt8 = 150
    /// Fewest marks that make a row of characters rather than a few stray specks.
    static let minimumMarks = 6

    /// The rules in `region` (or the whole page) that do not overlap any of `lines`.
    func rules(avoiding lines: [RecognizedLine], in region: Rect? = nil) -> [Rule] {
        let left = max(0, Int((region?.minX ?? 0).rounded(.down)))
        let right = min(pixels.width, Int((region?.maxX ?? Double(pixels.width)).rounded(.up)))
        let top = max(0, Int((region?.minY ?? 0).rounded(.down)))
        let bottom = min(pixels.height, Int((region?.maxY ?? Double(pixels.height)).rounded(.up)))
        guard right - left > 8, bottom - top > 2, glyphHeight >= 4 else { return [] }

        // Rows the read lines cover (with a little margin) are theirs; a line narrower than two characters (a bar
        // read at the page's edge) does not claim the rows.
        var taken = [Bool](repeating: false, count: pixels.height)
        for line in lines where line.box.width >= 2 * glyphHeight {
            let margin = 0.1 * line.box.height
            let from = max(0, Int((line.box.minY - margin).rounded(.down)))
            let to = min(pixels.height, Int((line.box.maxY + margin).rounded(.up)))
            if from < to { for y in from..<to { taken[y] = true } }
        }
        // Rows with enough ink to belong to a row of marks: a dash covers about half of its cell.
        let minimumInk = max(Self.minimumMarks * 2, Int(glyphHeight * 1.5))
        var inked = [Bool](repeating: false, count: pixels.height)
        for y in top..<bottom where !taken[y] {
            var count = 0
            let row = y * pixels.width
            for x in left..<right where pixels.bytes[row + x] < Self.inkBelow { count += 1 }
            inked[y] = count >= minimumInk
        }

        // Bands of inked rows; the two bars of an equals sign, a stroke apart, make one band.
        let barGap = max(1, Int((0.3 * glyphHeight).rounded()))
        var bands: [(top: Int, bottom: Int, bars: Int)] = []
        var y = top
        while y < bottom {
            guard inked[y] else { y += 1; continue }
            var end = y
            while end + 1 < bottom && inked[end + 1] { end += 1 }
            if let last = bands.last, y - last.bottom - 1 <= barGap, !(last.bottom + 1..<y).contains(where: { taken[$0] }) {
                bands[bands.count - 1] = (last.top, end, last.bars + 1)
            } else {
                bands.append((y, end, 1))
            }
            y = end + 1
        }

        // A rule is thin next to the characters.
        let maximumHeight = 0.6 * glyphHeight
        return bands.compactMap { band -> Rule? in
            guard band.bars <= 2, Double(band.bottom - band.top + 1) <= maximumHeight else { return nil }
            return rule(top: band.top, bottom: band.bottom, bars: band.bars, left: left, right: right)
        }
    }

    /// The marks of one band: runs of inked columns, kept when they are evenly spaced and alike.
    private func rule(top: Int, bottom: Int, bars: Int, left: Int, right: Int) -> Rule? {
        var runs: [(start: Int, end: Int)] = []
        var runStart: Int?
        for x in left...right {
            var ink = false
            if x < right {
                for y in top...bottom where pixels.bytes[y * pixels.width + x] < Self.inkBelow {
                    ink = true
                    break
                }
            }
            if ink, runStart == nil { runStart = x }
            if !ink, let start = runStart {
                runs.append((start, x))
                runStart = nil
            }
        }
        // Specks narrower than a stroke are noise.
        let minimumWidth = max(1, Int((0.12 * glyphHeight).rounded()))
        runs.removeAll { $0.end - $0.start < minimumWidth }
        guard runs.count >= Self.minimumMarks else { return nil }

        // The longest stretch of marks at a steady pitch, each about as wide as the others.
        let widths = runs.map { Double($0.end - $0.start) }
        let pitches = zip(runs.dropFirst(), runs).map { Double($0.start - $1.start) }
        let pitch = pitches.sorted()[pitches.count / 2], width = widths.sorted()[widths.count / 2]
        guard pitch >= 0.3 * glyphHeight, pitch <= 1.5 * glyphHeight, width <= 0.95 * pitch else { return nil }
        var best = 0..<0, start = 0
        for k in 0..<runs.count {
            let steady = k > 0 && abs(pitches[k - 1] - pitch) <= 0.25 * pitch
            let alike = abs(widths[k] - width) <= 0.4 * width
            if !alike { start = k + 1; continue }
            if k > start && !steady { start = k }
            if k + 1 - start > best.count { best = start..<(k + 1) }
        }
        guard best.count >= Self.minimumMarks else { return nil }
        // The side of a drawn box (a form's field), broken into marks by blur and resampling, turns into upright
        // sides at its ends, which may lie beyond the steady stretch; a printed row of characters stands free.
        let ends = [runs[best.lowerBound].start, runs[best.upperBound - 1].end - 1, runs[0].start, runs[runs.count - 1].end - 1]
        if ends.contains(where: { hasUprightLine(near: $0, top: top, bottom: bottom) }) { return nil }
        let height = Double(bottom - top + 1)
        let marks = runs[best].map { run -> Rect in
            Rect(x: Double(run.start), y: Double(top), width: Double(run.end - run.start), height: height)
        }
        return Rule(character: bars == 2 ? "=" : "-", marks: marks)
    }

    /// Whether a column within a few pixels of `x` is inked along much of a character's height just above or just
    /// below the band `top...bottom`.
    private func hasUprightLine(near x: Int, top: Int, bottom: Int) -> Bool {
        let reach = Int(glyphHeight.rounded())
        let columns = max(0, x - 6)...min(pixels.width - 1, x + 6)
        for span in [(top - reach)..<top, (bottom + 1)..<(bottom + 1 + reach)] {
            let rows = max(0, span.lowerBound)..<min(pixels.height, span.upperBound)
            guard rows.count >= reach / 2 else { continue }
            for column in columns {
                let inked = rows.filter { pixels.bytes[$0 * pixels.width + column] < Self.inkBelow }.count
                if inked * 10 >= rows.count * 4 { return true }
            }
        }
        return false
    }

    /// `blocks` with each rule found between their lines added as a line of its own (see
    /// ``RecognizedBlock/inserting(_:into:)``).
    /// The added lines have no confidence, since Tesseract did not read them.
    static func adding(_ rules: [Rule], to blocks: [RecognizedBlock]) -> [RecognizedBlock] {
        RecognizedBlock.inserting(
            rules.map { rule in
                let glyphs = rule.marks.map { RecognizedGlyph(text: String(rule.character), confidence: nil, box: $0) }
                let word = RecognizedWord(text: rule.text, confidence: nil, box: rule.box, glyphs: glyphs)
                return RecognizedLine(text: rule.text, confidence: nil, box: rule.box, words: [word])
            }, into: blocks)
    }
}

extension RecognizedBlock {
    /// `blocks` with `lines` inserted in reading order: each inside the block whose lines it lies between (before
    /// the first line lower than its middle), or as a block of its own between blocks.
    static func inserting(_ lines: [RecognizedLine], into blocks: [RecognizedBlock]) -> [RecognizedBlock] {
        var blocks = blocks
        for line in lines {
            let box = line.box
            let centre = box.y + box.height / 2
            if let b = blocks.firstIndex(where: { $0.box.minY <= centre && centre <= $0.box.maxY }) {
                let at = blocks[b].lines.firstIndex { $0.box.y + $0.box.height / 2 > centre } ?? blocks[b].lines.endIndex
                blocks[b].lines.insert(line, at: at)
                blocks[b].box = blocks[b].box.union(box)
            } else {
                let at = blocks.firstIndex { $0.box.minY > centre } ?? blocks.endIndex
                blocks.insert(RecognizedBlock(box: box, lines: [line]), at: at)
            }
        }
        return blocks
    }
}
