import DocScanGeometry
import DocScanRecognition
import Testing

@testable import DocScanTesseract

/// The rule that puts Tesseract's blocks in reading order.
@Suite("Block order")
struct BlockOrderTests {
    /// Blocks in Tesseract's order, each one line named after what it stands for, and the names in reading order.
    struct Layout: Sendable, CustomTestStringConvertible {
        var testDescription: String
        /// (name, x, y, width, height) of each block, in Tesseract's order.
        var blocks: [(String, Double, Double, Double, Double)]
        var readingOrder: [String]

        var read: [RecognizedBlock] {
            blocks.map { name, x, y, width, height in
                let box = Rect(x: x, y: y, width: width, height: height)
                return RecognizedBlock(box: box, lines: [RecognizedLine(text: name, confidence: nil, box: box)])
            }
        }
    }

    static let layouts = [
        Layout(
            testDescription: "a receipt's closing line read between its heading and its items moves below the items",
            blocks: [("heading", 40, 10, 200, 20), ("thanks", 20, 800, 230, 20), ("items", 20, 100, 250, 600)],
            readingOrder: ["heading", "items", "thanks"]),
        Layout(
            testDescription: "two columns keep Tesseract's order: down the left one, then down the right one",
            blocks: [
                ("left top", 0, 0, 300, 400), ("left bottom", 0, 420, 300, 400), ("right top", 340, 0, 300, 400),
                ("right bottom", 340, 420, 300, 400),
            ],
            readingOrder: ["left top", "left bottom", "right top", "right bottom"]),
        Layout(
            testDescription: "a title across both columns comes first; blocks side by side in a row keep their order",
            blocks: [
                ("left", 0, 100, 300, 400), ("right", 340, 100, 300, 400), ("title", 0, 0, 640, 40),
                ("value", 340, 600, 200, 20), ("label", 0, 602, 200, 20),
            ],
            readingOrder: ["title", "left", "right", "value", "label"]),
        Layout(
            testDescription: "a form's title, set to the right above its first fields, heads the page",
            blocks: [
                ("instructions", 100, 140, 220, 20), ("section", 100, 180, 160, 20), ("title", 330, 80, 450, 35),
                ("field", 100, 230, 80, 20),
            ],
            readingOrder: ["title", "instructions", "section", "field"]),
        Layout(
            testDescription: "a block beside the top one, reaching as high, takes nothing first",
            blocks: [("instructions", 100, 140, 220, 20), ("date", 500, 150, 100, 20)],
            readingOrder: ["instructions", "date"]),
    ]

    @Test("Blocks in reading order", arguments: layouts)
    func order(_ layout: Layout) {
        #expect(BlockOrder.arranged(layout.read).map { $0.lines[0].text } == layout.readingOrder)
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
