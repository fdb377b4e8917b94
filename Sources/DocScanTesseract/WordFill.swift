import DocScanGeometry
import DocScanRecognition

/// Fills a kept reading of a page, word by word, from the page's other readings: where a sure word of another
/// reading lies on paper the kept reading read nothing of, or read only as noise, it joins the kept reading.
///
/// `accurate` reads a page several ways and keeps the one with the most believable text, but no one way reads every
/// part of a page best. A till receipt read as laid out keeps its item names with certainty and splits off the narrow
/// column of prices, which it then reads down the rows as a few tall words of noise; read as one block it holds the
/// prices, but its separator rows read as long unsure noise that costs it the comparison. Word by word, each reading
/// gives what it reads surely.
///
/// `accurate` fills last, after the second look. On the corpus and seeds 81000, 85000, 93000 and 95000 (220 photos),
/// filling moved 36 pages' `accurate` CER down by over half a point and 2 up (seed 93000, never looked at before,
/// 3.08% -> 2.88%); see Calibration/MEASUREMENTS.md for `fast`.
enum WordFill {
    /// The least confidence a word of another reading needs to be brought into the kept one.
    static let sureConfidence = 0.8
    /// The most confidence a kept word may have and still be replaced as noise by a sure word over it.
    static let noiseConfidence = 0.5
    /// The letters and digits a word needs to come in on a line of its own (a kept line beside it may take a word of
    /// two: a quantity, a unit).
    static let leastOnALineOfItsOwn = 3
    /// Two words share paper when the overlap of their boxes is at least this share of the smaller box.
    static let sharedShare = 0.2

    /// `kept` with the sure words of `others` (other readings of the same page, in the same pixels) added where no
    /// kept word lies, or put in place of kept words that are all noise: read down rows (``isReadDownRows(_:besideRowsOf:)``),
    /// or under ``noiseConfidence`` with fewer letters and digits in all than the sure word holds. The surest words go
    /// first. A word joins the line it shares a row with (the nearest, in its place from left to right); a word with
    /// no such line, and ``leastOnALineOfItsOwn`` letters and digits, starts a line of its own in reading order, which
    /// later words of its row join. Each word brought in keeps the kept words it took the place of
    /// (``RecognizedWord/tookPlaceOf``). A reading whose lines run down the page (``linesRunDown(_:)``) is not filled.
    /// Returns the filled reading and how many words were added or put in place.
    static func filling(_ kept: [RecognizedBlock], from others: [[RecognizedBlock]]) -> (
        blocks: [RecognizedBlock], filled: Int
    ) {
        guard !linesRunDown(kept) else { return (kept, 0) }
        var offers: [(word: RecognizedWord, line: RecognizedLine)] = []
        for reading in others {
            for line in reading.flatMap(\.lines) {
                for var word in line.words where isSure(word) {
                    word.tookPlaceOf = []
                    offers.append((word, line))
                }
            }
        }
        offers.sort { ($0.word.confidence?.value ?? 0) > ($1.word.confidence?.value ?? 0) }
        var blocks = kept
        var filled = 0
        for offer in offers {
            var word = offer.word
            let shared = wordsSharingPaper(with: word.box, in: blocks)
            var remaining = blocks
            if !shared.isEmpty {
                let words = shared.map { blocks[$0.block].lines[$0.line].words[$0.word] }
                let readDownRows = words.allSatisfy { isReadDownRows($0, besideRowsOf: word.box.height) }
                let noise =
                    words.allSatisfy { ($0.confidence?.value ?? 1) < noiseConfidence }
                    && RecognizedPage.lettersAndDigits(of: words) < RecognizedPage.lettersAndDigits(of: [word])
                guard readDownRows || noise else { continue }
                remaining = removing(shared, from: blocks)
                word.tookPlaceOf = words
            }
            if let (b, l) = lineSharingRow(with: word.box, in: remaining) {
                blocks = remaining
                blocks[b].lines[l] = adding(word, to: blocks[b].lines[l])
                blocks[b].box = blocks[b].box.union(word.box)
            } else {
                // A line of its own, which the words of its row that come later join.
                guard RecognizedPage.lettersAndDigits(of: [word]) >= leastOnALineOfItsOwn else { continue }
                let line = RecognizedLine(
                    text: word.text, confidence: offer.line.confidence, box: word.box, words: [word])
                blocks = RecognizedBlock.inserting([line], into: remaining)
            }
            filled += 1
        }
        return (blocks, filled)
    }

    /// Whether most lines of a reading are taller than wide: the page was read as handed over, turned a quarter, with
    /// its lines running down it. Its words are tall with their glyphs one under another, like words read down rows
    /// (``isReadDownRows(_:besideRowsOf:)``), and the other readings' sure words, read across the turned lines, are
    /// noise; such a reading is not filled.
    static func linesRunDown(_ blocks: [RecognizedBlock]) -> Bool {
        let lines = blocks.flatMap(\.lines)
        return 2 * lines.filter { $0.box.height > $0.box.width }.count > lines.count
    }

    /// Whether a word was read down the page across rows `rowHeight` tall: its box is at least two rows tall, and its
    /// glyphs lie one under another (their centres spread further down than across) or could not be placed in it
    /// (Tesseract gives the glyphs of a block it read turned empty boxes at the page's corner). Tesseract reads a
    /// narrow column of short rows (a receipt's prices) that way, as a few tall, often confident, words.
    static func isReadDownRows(_ word: RecognizedWord, besideRowsOf rowHeight: Double) -> Bool {
        guard word.box.height >= 2 * rowHeight, word.glyphs.count >= 2 else { return false }
        let placed = word.glyphs.map(\.box).filter { $0.area > 0 && word.box.intersectionArea($0) >= 0.5 * $0.area }
        guard 2 * placed.count >= word.glyphs.count else { return true }
        let xs = placed.map { $0.minX + $0.width / 2 }, ys = placed.map { $0.minY + $0.height / 2 }
        return (ys.max()! - ys.min()!) > (xs.max()! - xs.min()!)
    }

    /// Whether a word is sure enough to be brought into another reading, and holds two letters or digits (a speck of
    /// a texture or a box's edge reads as one, surely).
    static func isSure(_ word: RecognizedWord) -> Bool {
        (word.confidence?.value ?? 0) >= sureConfidence && RecognizedPage.lettersAndDigits(of: [word]) >= 2
    }

    /// Whether two boxes share paper: their overlap is at least ``sharedShare`` of the smaller one.
    static func sharesPaper(_ a: Rect, _ b: Rect) -> Bool {
        let smaller = min(a.area, b.area)
        return smaller > 0 && a.intersectionArea(b) >= sharedShare * smaller
    }

    /// Where the words of `blocks` that share paper with `box` are.
    static func wordsSharingPaper(with box: Rect, in blocks: [RecognizedBlock]) -> [(block: Int, line: Int, word: Int)]
    {
        var found: [(block: Int, line: Int, word: Int)] = []
        for b in blocks.indices {
            for l in blocks[b].lines.indices {
                for w in blocks[b].lines[l].words.indices where sharesPaper(blocks[b].lines[l].words[w].box, box) {
                    found.append((b, l, w))
                }
            }
        }
        return found
    }

    /// The line of `blocks` that shares a row with `box` (their heights overlap by half the smaller one's, and neither
    /// is twice as tall as the other) and lies nearest it across the page.
    static func lineSharingRow(with box: Rect, in blocks: [RecognizedBlock]) -> (block: Int, line: Int)? {
        var best: (block: Int, line: Int, gap: Double)?
        for b in blocks.indices {
            for l in blocks[b].lines.indices {
                let line = blocks[b].lines[l].box
                let overlap = min(line.maxY, box.maxY) - max(line.minY, box.minY)
                guard overlap >= 0.5 * min(line.height, box.height), line.height < 2 * box.height,
                    box.height < 2 * line.height
                else { continue }
                let gap = max(0, max(line.minX - box.maxX, box.minX - line.maxX))
                if best.map({ gap < $0.gap }) ?? true { best = (b, l, gap) }
            }
        }
        return best.map { ($0.block, $0.line) }
    }

    /// `line` with `word` among its words, in its place from left to right, and its text and box to match.
    static func adding(_ word: RecognizedWord, to line: RecognizedLine) -> RecognizedLine {
        var line = line
        let middle = word.box.minX + word.box.width / 2
        let at = line.words.firstIndex { $0.box.minX + $0.box.width / 2 > middle } ?? line.words.endIndex
        line.words.insert(word, at: at)
        line.text = line.wordsText
        line.box = line.box.union(word.box)
        return line
    }

    /// `blocks` without the words at `places`; lines and blocks left empty go, and the lines that lost words shrink
    /// to the words left (text and box).
    static func removing(_ places: [(block: Int, line: Int, word: Int)], from blocks: [RecognizedBlock])
        -> [RecognizedBlock]
    {
        var blocks = blocks
        for place in places.sorted(by: { ($0.block, $0.line, $0.word) > ($1.block, $1.line, $1.word) }) {
            blocks[place.block].lines[place.line].words.remove(at: place.word)
            var line = blocks[place.block].lines[place.line]
            line.text = line.wordsText
            line.box = Rect(enclosing: line.words.map(\.box)) ?? line.box
            blocks[place.block].lines[place.line] = line
        }
        return blocks.compactMap { block in
            var block = block
            block.lines.removeAll { $0.words.isEmpty }
            return block.lines.isEmpty ? nil : block
        }
    }
}
