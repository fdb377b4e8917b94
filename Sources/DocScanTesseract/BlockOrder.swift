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
/// lines.
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

    /// Whether a block of extent `upper` must come before one of extent `lower`: they share a column, do not share
    /// rows, and `upper`'s centre lies higher.
    static func mustPrecede(_ upper: Rect, _ lower: Rect) -> Bool {
        let across = min(upper.maxX, lower.maxX) - max(upper.minX, lower.minX)
        guard across > sharedColumn * min(upper.width, lower.width) else { return false }
        let down = min(upper.maxY, lower.maxY) - max(upper.minY, lower.minY)
        guard down <= 0.5 * min(upper.height, lower.height) else { return false }
        return upper.minY + upper.height / 2 < lower.minY + lower.height / 2
    }
}
