import DocScanGeometry
import DocScanRecognition

/// Puts the blocks of a reading in reading order where Tesseract's own order reads a block before one above it in the
/// same column, or the page's heading after the blocks below it.
///
/// Tesseract orders blocks by its column analysis, and now and then places a block after blocks below it that it
/// shares a column with: a receipt's closing lines ("Thank you for shopping with us!") read before its items, a shop's
/// town read after its date. The text then holds the right characters in the wrong place, which costs every one of
/// them twice in a comparison with the page's true text. On the forms of generated photos, the title set to the right
/// of the first fields came after them.
///
/// The order is Tesseract's, changed only as far as two rules demand. Of two blocks that share a column (their spans
/// across the page overlap by more than ``sharedColumn`` of the narrower one) and do not share rows (their spans down
/// the page overlap by at most half of the shorter one), the upper one comes first. A block that lies wholly above all
/// the others comes first of all: a form's title set to the right of its first fields shares a column with none of
/// them. Blocks in different columns otherwise keep Tesseract's order, so a page of two columns still reads down the
/// left one first. Among the blocks the rules leave free, Tesseract's order decides. A block's extent is that of its
/// lines. Then two columns that are the halves of one set of rows (a form's labels and the values beside them, a
/// receipt's items and their prices) are read row by row (``pairingRows(_:)``).
struct BlockOrder {
    /// The share of the narrower of two blocks' widths that their spans across the page must overlap by for them to
    /// share a column.
    static let sharedColumn = 0.3

    /// `blocks` (upright page pixels) in reading order.
    static func arranged(_ blocks: [RecognizedBlock]) -> [RecognizedBlock] {
        guard blocks.count > 1 else { return blocks }
        let extents = blocks.map { Rect(enclosing: $0.lines.map(\.box)) ?? $0.box }
        let all = blocks.indices
        // precedes[i][j]: block i must come before block j.
        var precedes = extents.map { upper in extents.map { lower in mustPrecede(upper, lower) } }
        // A block above all the others (a form's title set to the right of its first fields) heads the page.
        if let heading = all.first(where: { i in all.allSatisfy { $0 == i || extents[i].maxY <= extents[$0].minY } }) {
            for j in all where j != heading { precedes[heading][j] = true }
        }
        // Kahn's algorithm, taking the earliest block in Tesseract's order among those whose predecessors are placed.
        // Both rules only ever put a block before one whose centre lies lower, so they cannot go round in a circle.
        var waiting = all.map { j in all.count { precedes[$0][j] } }
        var placed = [Bool](repeating: false, count: blocks.count)
        var order: [Int] = []
        for _ in all {
            guard let next = all.first(where: { !placed[$0] && waiting[$0] == 0 }) else { return blocks }
            placed[next] = true
            order.append(next)
            for j in all where precedes[next][j] { waiting[j] -= 1 }
        }
        return order.map { blocks[$0] }
    }

    /// `blocks` with each pair of blocks that are the two columns of one set of rows read row by row: a form's labels
    /// and the values beside them, a receipt's items and the prices beside them. Tesseract reads such columns one after
    /// the other ("Full name", "Date of birth", then "Sophie Hughes", "13/01/1956"), which puts every value as far
    /// from its label as the column is long. Two blocks are taken for such columns when one is at most half as wide as
    /// the other (a page's two columns of prose are alike in width), or both hold short lines (``holdsFields(_:)``: a
    /// form's labels and its values are often alike in width) and each line of the one lies wholly beside its partner
    /// in the other; and each of that one block's lines, two or more, shares its row with exactly one line of the other
    /// (their spans down the page overlap by more than half the shorter line's height) and no two of them with the
    /// same one. Its lines then join the other block's, each beside its partner (left to right), in the place of
    /// whichever block came first. A run of blocks of one line each stacked down one column (``columnRuns(_:)``: a
    /// form's labels read each as a block of its own) counts as one block here, and stays as it was when it pairs with
    /// none.
    static func pairingRows(_ blocks: [RecognizedBlock]) -> [RecognizedBlock] {
        // Each unit: the block that is paired, and the blocks it stands for while it pairs with none.
        var units = columnRuns(withSingleLinesPaired(blocks))
        var merged = true
        while merged {
            merged = false
            search: for i in units.indices {
                for j in units.indices where j != i {
                    if let rows = Self.rows(ofNarrow: units[j].block, beside: units[i].block) {
                        // In the place of whichever of the two came first.
                        units[min(i, j)] = (rows, [rows])
                        units.remove(at: max(i, j))
                        merged = true
                        break search
                    }
                }
            }
        }
        return units.flatMap(\.parts)
    }

    /// `blocks` as units for ``pairingRows(_:)``: each run of two or more consecutive blocks of one line each, every
    /// line below the one before and starting within a line's height of the run's first across the page (a column of
    /// a form's labels, or of its values), joined into one block; every other block on its own.
    static func columnRuns(_ blocks: [RecognizedBlock]) -> [(block: RecognizedBlock, parts: [RecognizedBlock])] {
        var units: [(block: RecognizedBlock, parts: [RecognizedBlock])] = []
        var run: [RecognizedBlock] = []
        func close() {
            if run.count >= 2, let box = Rect(enclosing: run.map(\.box)) {
                units.append((RecognizedBlock(box: box, lines: run.flatMap(\.lines)), run))
            } else {
                units += run.map { ($0, [$0]) }
            }
            run = []
        }
        for block in blocks {
            guard block.lines.count == 1 else {
                close()
                units.append((block, [block]))
                continue
            }
            if let first = run.first?.lines[0].box, let last = run.last?.lines[0].box {
                let line = block.lines[0].box
                let stacked =
                    line.minY >= last.minY + 0.5 * last.height
                    && abs(line.minX - first.minX) <= max(line.height, first.height)
                if !stacked { close() }
            }
            run.append(block)
        }
        close()
        return units
    }

    /// The lines of a till receipt's `blocks` as one block read row by row: top to bottom, and left to right along
    /// each row. A receipt is one column of rows, an item on the left and its price on the right, set far apart in
    /// monospaced print; Tesseract's layout analysis often splits the rows into columns (the items of a stretch in a
    /// block, their prices in another, read after the items or lines later), which puts each price as far from its
    /// item as the stretch is long. Rows are taken along the print's slant (``slant(of:width:)``): a receipt
    /// flattened from a strongly tilted photo keeps its rows sloping by a few degrees, across which an item and its
    /// price lie 15 pixels apart (seed 163000 receipt-03). A line joins a row when its band along the slant shares
    /// its row with every line's in it (a tall bold total beside two small lines joins neither's row with the other).
    static func rowByRow(_ blocks: [RecognizedBlock]) -> [RecognizedBlock] {
        guard let extent = Rect(enclosing: blocks.map(\.box)) else { return blocks }
        let lines = blocks.flatMap(\.lines)
        guard lines.count > 1 else { return blocks }
        let slope = slant(of: lines, width: extent.width)
        // Each line's band down the page along the slant: its middle moved back to the page's left edge, and the
        // height its print takes (the box's, less what the slant adds over the box's width).
        let bands = lines.map { line -> Rect in
            let box = line.box
            let height = max(2, box.height - abs(slope) * box.width)
            let middle = box.minY + box.height / 2 - slope * (box.minX + box.width / 2)
            return Rect(x: box.minX, y: middle - height / 2, width: box.width, height: height)
        }
        let order = lines.indices.sorted { bands[$0].minY + bands[$0].height / 2 < bands[$1].minY + bands[$1].height / 2 }
        var rows: [[Int]] = []
        for index in order {
            if let last = rows.last, last.allSatisfy({ sharesRow(bands[$0], bands[index]) }) {
                rows[rows.count - 1].append(index)
            } else {
                rows.append([index])
            }
        }
        let ordered = rows.flatMap { $0.sorted { lines[$0].box.minX < lines[$1].box.minX } }.map { lines[$0] }
        return [RecognizedBlock(box: extent, lines: ordered)]
    }

    /// How far the print of `lines` drops per pixel across the page (positive when rows fall to the right): the median
    /// over the lines whose first and last words lie at least ``slantSpan`` of the page's `width` apart of the slope
    /// between those words' middles; 0 when no line spans that far.
    static func slant(of lines: [RecognizedLine], width: Double) -> Double {
        let slopes = lines.compactMap { line -> Double? in
            guard let first = line.words.first?.box, let last = line.words.last?.box else { return nil }
            let run = (last.minX + last.width / 2) - (first.minX + first.width / 2)
            guard run >= slantSpan * width else { return nil }
            return ((last.minY + last.height / 2) - (first.minY + first.height / 2)) / run
        }.sorted()
        return slopes.isEmpty ? 0 : slopes[slopes.count / 2]
    }

    /// The least share of the page's width between a line's first and last words for the line to show the slant.
    static let slantSpan = 0.4

    /// `blocks` with each run of blocks of one line each that reads a column of rows and then the column beside it
    /// (k blocks, two or more, then k more, the m-th of the second sharing its row with the m-th of the first and with
    /// no other, each column wholly on one side of the other, their lines short: ``holdsFields(_:)``) read row by row
    /// instead: a form's labels and the values beside them, each its own block.
    static func withSingleLinesPaired(_ blocks: [RecognizedBlock]) -> [RecognizedBlock] {
        var blocks = blocks
        var start = 0
        while start < blocks.count {
            var paired = false
            for k in stride(from: (blocks.count - start) / 2, through: 2, by: -1) {
                let first = Array(blocks[start..<start + k]), second = Array(blocks[start + k..<start + 2 * k])
                guard (first + second).allSatisfy({ $0.lines.count == 1 }),
                    holdsFields((first + second).map(\.lines[0]))
                else { continue }
                let a = first.map(\.lines[0].box), b = second.map(\.lines[0].box)
                let leftFirst = a[0].maxX <= b[0].minX
                let inRows = (0..<k).allSatisfy { m in
                    sharesRow(a[m], b[m]) && (leftFirst ? a[m].maxX <= b[m].minX : b[m].maxX <= a[m].minX)
                        && (0..<k).allSatisfy { n in n == m || !sharesRow(a[m], b[n]) }
                }
                guard inRows else { continue }
                let rows = (0..<k).flatMap { m in leftFirst ? [first[m], second[m]] : [second[m], first[m]] }
                blocks.replaceSubrange(start..<start + 2 * k, with: rows)
                start += 2 * k
                paired = true
                break
            }
            if !paired { start += 1 }
        }
        return blocks
    }

    /// `wide` with the lines of `narrow` placed beside their partners, when `narrow` is the other column of `wide`'s
    /// rows (see ``pairingRows(_:)``); nil otherwise.
    static func rows(ofNarrow narrow: RecognizedBlock, beside wide: RecognizedBlock) -> RecognizedBlock? {
        guard narrow.lines.count >= 2,
            let narrowExtent = Rect(enclosing: narrow.lines.map(\.box)),
            let wideExtent = Rect(enclosing: wide.lines.map(\.box)),
            case let isNarrower = narrowExtent.width <= 0.5 * wideExtent.width,
            isNarrower || (holdsFields(narrow.lines) && holdsFields(wide.lines))
        else { return nil }
        var partner: [Int] = []
        for line in narrow.lines {
            let mates = wide.lines.indices.filter { sharesRow(wide.lines[$0].box, line.box) }
            guard mates.count == 1, !partner.contains(mates[0]) else { return nil }
            // Columns alike in width are the halves of rows only when each line lies wholly beside its partner.
            let mate = wide.lines[mates[0]].box
            guard isNarrower || line.box.maxX <= mate.minX || mate.maxX <= line.box.minX else { return nil }
            partner.append(mates[0])
        }
        var lines: [RecognizedLine] = []
        for (w, line) in wide.lines.enumerated() {
            guard let n = partner.firstIndex(of: w) else {
                lines.append(line)
                continue
            }
            let mate = narrow.lines[n]
            lines += mate.box.minX < line.box.minX ? [mate, line] : [line, mate]
        }
        var rows = wide
        rows.lines = lines
        rows.box = Rect(enclosing: [wide.box, narrow.box]) ?? wide.box
        return rows
    }

    /// The most words a block's lines may hold on average for the block to be a column of a form's labels or of the
    /// values beside them, whatever its width: a column of prose holds five words a line or more, and two such
    /// columns of about one width are never paired.
    static let fieldWordsPerLine = 3.0

    /// Whether `lines` are short enough to be a column of labels or of the values beside them
    /// (``fieldWordsPerLine``).
    static func holdsFields(_ lines: [RecognizedLine]) -> Bool {
        guard !lines.isEmpty else { return false }
        let words = lines.reduce(0) { $0 + $1.text.split(separator: " ").count }
        return Double(words) <= fieldWordsPerLine * Double(lines.count)
    }

    /// Whether a block of extent `upper` must come before one of extent `lower`: they share a column, do not share
    /// rows, and `upper`'s centre lies higher.
    static func mustPrecede(_ upper: Rect, _ lower: Rect) -> Bool {
        let across = min(upper.maxX, lower.maxX) - max(upper.minX, lower.minX)
        guard across > sharedColumn * min(upper.width, lower.width), !sharesRow(upper, lower) else { return false }
        return upper.minY + upper.height / 2 < lower.minY + lower.height / 2
    }

    /// Whether two extents share a row: their spans down the page overlap by more than half the shorter one's height.
    static func sharesRow(_ a: Rect, _ b: Rect) -> Bool {
        min(a.maxY, b.maxY) - max(a.minY, b.minY) > 0.5 * min(a.height, b.height)
    }
}
