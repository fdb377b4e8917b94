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

    /// A block of one line per (text, x, y, width), each line 12 pixels tall.
    static func block(_ lines: [(String, Double, Double, Double)]) -> RecognizedBlock {
        let recognized = lines.map { text, x, y, width in
            RecognizedLine(text: text, confidence: nil, box: Rect(x: x, y: y, width: width, height: 12))
        }
        return RecognizedBlock(
            box: Rect(enclosing: recognized.map(\.box)) ?? Rect(x: 0, y: 0, width: 0, height: 0), lines: recognized)
    }

    @Test("A form's labels and the values beside them, each its own block, read row by row")
    func labelsAndValuesInRows() {
        // The shape of seed 81000 form-05: Tesseract read the four labels, then the four values (15.4% CER; 5.6% row by
        // row).
        let labels = [
            ("Full name", 75.0, 186.0), ("Date of birth", 75, 240), ("Telephone", 74, 289), ("Email address", 75, 341),
        ]
        let values = [
            ("Sophie Hughes", 269.0, 184.0), ("13/01/1956", 272, 239), ("(369) 222-3486", 269, 288),
            ("sophie.hughes@example.com", 269, 339),
        ]
        let read =
            [Self.block([("1. Personal details", 75, 144, 139)])]
            + (labels + values).map { Self.block([($0.0, $0.1, $0.2, 90)]) } + [
                Self.block([("2. Address", 74, 402, 80)])
            ]
        let expected = ["1. Personal details"] + zip(labels, values).flatMap { [$0.0.0, $0.1.0] } + ["2. Address"]
        #expect(BlockOrder.pairingRows(read).flatMap(\.lines).map(\.text) == expected)
        // Two columns of one-line blocks that do not share their rows keep their order.
        let apart = (labels.map { ($0.0, $0.1, $0.2) } + values.map { ($0.0, $0.1, $0.2 + 25) }).map {
            Self.block([($0.0, $0.1, $0.2, 90)])
        }
        #expect(BlockOrder.pairingRows(apart).flatMap(\.lines).map(\.text) == (labels + values).map(\.0))
    }

    @Test("A narrow column of prices beside a receipt's items joins them row by row; two columns of prose do not")
    func pricesBesideItems() {
        let items = Self.block([
            ("BANANAS", 20, 100, 120), ("Coffee beans", 20, 120, 150), ("3 x 8.25", 30, 140, 90),
            ("APPLES", 20, 160, 100),
        ])
        let prices = Self.block([("1.07", 240, 101, 40), ("24.75", 232, 121, 48), ("2.29", 240, 161, 40)])
        #expect(
            BlockOrder.pairingRows([items, prices]).flatMap(\.lines).map(\.text)
                == ["BANANAS", "1.07", "Coffee beans", "24.75", "3 x 8.25", "APPLES", "2.29"])
        #expect(BlockOrder.pairingRows([items, prices]).count == 1)
        // Columns of prose alike in width, line for line in the same rows, are read one after the other.
        let left = Self.block([
            ("It was the best of times,", 0, 0, 300), ("it was the worst of times,", 0, 20, 300),
            ("it was the age of wisdom,", 0, 40, 300),
        ])
        let right = Self.block([
            ("it was the age of foolishness,", 340, 0, 300), ("it was the epoch of belief,", 340, 20, 300),
            ("it was the epoch of incredulity,", 340, 40, 300),
        ])
        #expect(
            BlockOrder.pairingRows([left, right]).flatMap(\.lines).map(\.text) == (left.lines + right.lines).map(\.text)
        )
    }

    @Test("A form's labels and values alike in width are read row by row, each line a block or each column one")
    func labelsAndValuesAlikeInWidth() {
        // The shape of seed 175000 form-02: each label, a section's heading and each value a block of its own, the
        // labels read before the values (40.1% CER; 6.5% row by row). The values are about as wide as the labels.
        let labels = [
            ("1. Personal details", 199.0, 370.0, 355.0), ("Full name", 196, 483, 161),
            ("Date of birth", 196, 633, 213), ("Telephone", 194, 787, 180), ("Email address", 195, 930, 233), ("2. Address", 194, 1097, 207),
        ]
        let values = [
            ("DANIEL FISCHER", 703.0, 481.0, 351.0), ("14/02/1950", 707, 631, 200), ("+44 72 224 5541", 714, 784, 296),
        ]
        let rows = [
            "1. Personal details", "Full name", "DANIEL FISCHER", "Date of birth", "14/02/1950", "Telephone",
            "+44 72 224 5541", "Email address", "2. Address",
        ]
        let eachLineABlock = (labels + values).map { Self.block([$0]) }
        #expect(BlockOrder.pairingRows(eachLineABlock).flatMap(\.lines).map(\.text) == rows)
        #expect(BlockOrder.pairingRows([Self.block(labels), Self.block(values)]).flatMap(\.lines).map(\.text) == rows)
        // Blocks of one line that pair with none stay as they were.
        let unpaired = labels.map { Self.block([$0]) }
        #expect(BlockOrder.pairingRows(unpaired).map(\.lines.count) == [1, 1, 1, 1, 1, 1])
        // A value that reaches into its label's span is no column beside it: the blocks keep their order.
        let reaching = [("DANIEL FISCHER", 300.0, 481.0, 351.0)] + values.dropFirst()
        #expect(BlockOrder.pairingRows([Self.block(labels), Self.block(reaching)]).count == 2)
        // Nor are two columns of prose lines, each line a block of its own, read row by row.
        let prose = [
            ("It was the best of times,", 0.0, 0.0, 300.0), ("it was the worst of times,", 0, 20, 300),
            ("it was the age of foolishness,", 340, 0, 300), ("it was the epoch of belief,", 340, 20, 300),
        ]
        #expect(BlockOrder.pairingRows(prose.map { Self.block([$0]) }).flatMap(\.lines).map(\.text) == prose.map(\.0))
    }

    @Test("A receipt's items and prices split over blocks every which way are read row by row")
    func receiptRowByRow() {
        // The shape of the corpus's multi-06 first receipt: items in blocks of a few lines, their prices in blocks of
        // their own read after all the items, and a few prices in the items' block as lines of their own (45.2% CER
        // row by row, 48.5% as read; pairingRows finds no two columns that pair line for line).
        let items = [Self.block([("CROISSANT", 20, 100, 60), ("Green tea", 20, 114, 60)]),
                     Self.block([("Apples", 20, 128, 40), ("Olive oil", 20, 142, 60), ("1.83", 248, 142, 22)])]
        let prices = [Self.block([("2.49", 248, 101, 22)]), Self.block([("3.25", 248, 115, 22), ("2.31", 247, 128, 22)])]
        // A bold total 26 pixels tall shares its row with both lines beside it, which share none with each other.
        let total = RecognizedBlock(
            box: Rect(x: 20, y: 156, width: 60, height: 26),
            lines: [RecognizedLine(text: "TOTAL", confidence: nil, box: Rect(x: 20, y: 156, width: 60, height: 26))])
        let beside = Self.block([("108.17", 230, 157, 40), ("(incl.)", 230, 170, 40)])
        let rows = BlockOrder.rowByRow(items + prices + [total, beside])
        #expect(rows.count == 1)
        #expect(
            rows.flatMap(\.lines).map(\.text)
                == ["CROISSANT", "2.49", "Green tea", "3.25", "Apples", "2.31", "Olive oil", "1.83", "TOTAL", "108.17",
                    "(incl.)"])
    }

    @Test("A receipt whose rows slope, flattened from a tilted photo, is read row by row along the slope")
    func slopingReceipt() {
        // Rows rising 0.07 pixels per pixel to the right (seed 163000 receipt-03): a price sits 15 pixels above its
        // item, level with the quantity line above.
        func line(_ words: [(String, Double, Double)], row: Double) -> RecognizedLine {
            let recognized = words.map { text, x, width in
                RecognizedWord(text: text, confidence: nil, box: Rect(x: x, y: row - 0.07 * (x + width / 2) - 6, width: width, height: 12))
            }
            let box = Rect(enclosing: recognized.map(\.box)) ?? Rect(x: 0, y: 0, width: 0, height: 0)
            return RecognizedLine(text: words.map(\.0).joined(separator: " "), confidence: nil, box: box, words: recognized)
        }
        let lines = [
            line([("Paper", 20, 30), ("towels", 55, 40)], row: 100), line([("8.06", 250, 35)], row: 100),
            line([("2", 35, 8), ("x", 47, 8), ("4.03", 60, 25)], row: 120),
            line([("LIGHT", 20, 35), ("BULB", 60, 30), ("9.04", 250, 35)], row: 140),
        ]
        let blocks = lines.map { RecognizedBlock(box: $0.box, lines: [$0]) }
        #expect(abs(BlockOrder.slant(of: lines, width: 265) + 0.07) < 1e-9)
        #expect(
            BlockOrder.rowByRow(blocks).flatMap(\.lines).map(\.text)
                == ["Paper towels", "8.06", "2 x 4.03", "LIGHT BULB 9.04"])
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
