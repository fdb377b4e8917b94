import DocScanGeometry
import DocScanRecognition
import Testing

@testable import DocScanTesseract

/// The rule that puts Tesseract's blocks in reading order.
@Suite("Block order")
struct BlockOrderTests {
    /// A block of one line whose text is `name`, over `x...x+width` and `y...y+height`.
    static func block(_ name: String, x: Double, y: Double, width: Double, height: Double = 20) -> RecognizedBlock {
        let box = Rect(x: x, y: y, width: width, height: height)
        return RecognizedBlock(box: box, lines: [RecognizedLine(text: name, confidence: nil, box: box)])
    }

    static func names(_ blocks: [RecognizedBlock]) -> [String] { blocks.map { $0.lines[0].text } }

    @Test("A block read before the blocks above it in its column moves below them")
    func lateBlockInColumn() {
        // A receipt: Tesseract read its closing line between its heading and its items.
        let read = [
            Self.block("heading", x: 40, y: 10, width: 200),
            Self.block("thanks", x: 20, y: 800, width: 230),
            Self.block("items", x: 20, y: 100, width: 250, height: 600),
        ]
        #expect(Self.names(BlockOrder.arranged(read)) == ["heading", "items", "thanks"])
    }

    @Test("Two columns keep Tesseract's order: down the left one, then down the right one")
    func columns() {
        let read = [
            Self.block("left top", x: 0, y: 0, width: 300, height: 400),
            Self.block("left bottom", x: 0, y: 420, width: 300, height: 400),
            Self.block("right top", x: 340, y: 0, width: 300, height: 400),
            Self.block("right bottom", x: 340, y: 420, width: 300, height: 400),
        ]
        #expect(Self.names(BlockOrder.arranged(read)) == Self.names(read))
    }

    @Test("A title across both columns comes before them, and blocks side by side in a row keep their order")
    func titleAndRows() {
        let read = [
            Self.block("left", x: 0, y: 100, width: 300, height: 400),
            Self.block("right", x: 340, y: 100, width: 300, height: 400),
            Self.block("title", x: 0, y: 0, width: 640, height: 40),
            Self.block("value", x: 340, y: 600, width: 200),
            Self.block("label", x: 0, y: 602, width: 200),
        ]
        #expect(Self.names(BlockOrder.arranged(read)) == ["title", "left", "right", "value", "label"])
    }

    @Test("A block above all the others heads the page, though it shares a column with none of them")
    func heading() {
        // A form: its title set to the right, above its first fields, read after them.
        let read = [
            Self.block("instructions", x: 100, y: 140, width: 220),
            Self.block("section", x: 100, y: 180, width: 160),
            Self.block("title", x: 330, y: 80, width: 450, height: 35),
            Self.block("field", x: 100, y: 230, width: 80),
        ]
        #expect(Self.names(BlockOrder.arranged(read)) == ["title", "instructions", "section", "field"])
        // A block beside the top one, reaching as high, takes nothing first.
        let beside = [read[0], Self.block("date", x: 500, y: 150, width: 100)]
        #expect(Self.names(BlockOrder.arranged(beside)) == ["instructions", "date"])
    }

    @Test("The rule: a shared column, no shared rows, the higher centre first")
    func rule() {
        let upper = Rect(x: 0, y: 0, width: 100, height: 20), lower = Rect(x: 50, y: 40, width: 100, height: 20)
        #expect(BlockOrder.mustPrecede(upper, lower))
        #expect(!BlockOrder.mustPrecede(lower, upper))
        // Side by side: no shared column.
        #expect(!BlockOrder.mustPrecede(upper, Rect(x: 120, y: 40, width: 100, height: 20)))
        // Overlapping rows (a tall block beside a line in it): no constraint either way.
        let tall = Rect(x: 0, y: 0, width: 100, height: 200)
        #expect(!BlockOrder.mustPrecede(tall, Rect(x: 20, y: 150, width: 50, height: 20)))
    }
}
