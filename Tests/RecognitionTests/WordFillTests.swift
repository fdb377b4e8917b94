import DocScanGeometry
import DocScanRecognition
import Foundation
import Testing

@testable import DocScanTesseract

/// The rule that fills a kept reading from the page's other readings, word by word.
@Suite("Word fill")
struct WordFillTests {
    /// A word at (x, y), `width` wide and `height` tall, read with `confidence`.
    static func word(
        _ text: String, _ confidence: Double, _ x: Double, _ y: Double, width: Double = 40, height: Double = 10
    )
        -> RecognizedWord
    {
        RecognizedWord(
            text: text, confidence: Confidence(value: confidence, native: confidence * 100),
            box: Rect(x: x, y: y, width: width, height: height))
    }

    /// A word Tesseract read down a column of rows: 34 pixels tall, its glyphs given empty boxes at the page's
    /// corner (300, 600), as Tesseract gives those of a block it read turned.
    static func readDownRows(_ text: String, _ confidence: Double, _ x: Double, _ y: Double) -> RecognizedWord {
        var word = Self.word(text, confidence, x, y, width: 12, height: 34)
        word.glyphs = text.map {
            RecognizedGlyph(text: String($0), confidence: nil, box: Rect(x: 300, y: 600, width: 0, height: 0))
        }
        return word
    }

    /// A block of one line per list of words.
    static func block(_ lines: [[RecognizedWord]]) -> RecognizedBlock {
        let recognized = lines.map { words in
            RecognizedLine(
                text: words.map(\.text).joined(separator: " "), confidence: nil,
                box: Rect(enclosing: words.map(\.box)) ?? Rect(x: 0, y: 0, width: 0, height: 0), words: words)
        }
        return RecognizedBlock(
            box: Rect(enclosing: recognized.map(\.box)) ?? Rect(x: 0, y: 0, width: 0, height: 0), lines: recognized)
    }

    @Test("A receipt's prices, read down the rows as tall words when laid out, come in from the reading as one block")
    func pricesReadDownRows() {
        // The shape of seed 85000 multi-03's third receipt: the item names read surely, the price column read as
        // tall words spanning three rows; read as one block, each row holds its price.
        let kept = [
            Self.block([
                [Self.word("Batteries", 0.94, 18, 130, width: 55), Self.word("AA", 0.94, 80, 130, width: 13)],
                [Self.word("COFFEE", 0.95, 18, 143, width: 37), Self.word("BEANS", 0.96, 61, 143, width: 31)],
                [Self.word("BANANAS", 0.95, 18, 168, width: 43)],
            ]),
            Self.block([[Self.readDownRows("vis", 0.72, 243, 128)]]),
        ]
        let asOneBlock = [
            Self.block([
                [Self.word("Batteries", 0.91, 18, 130, width: 55), Self.word("5.05", 0.9, 243, 131, width: 24)],
                [Self.word("COFFEE", 0.93, 18, 143, width: 37), Self.word("25.80", 0.88, 237, 143, width: 30)],
                [Self.word("BANANAS", 0.9, 18, 168, width: 43), Self.word("1,09", 0.3, 243, 168, width: 24)],
            ])
        ]
        let filled = WordFill.filling(kept, from: [asOneBlock])
        #expect(filled.filled == 2)
        #expect(
            filled.blocks.flatMap(\.lines).map(\.text) == ["Batteries AA 5.05", "COFFEE BEANS 25.80", "BANANAS"])
    }

    @Test("Sure kept words stay; words read nowhere else come in as lines of their own, in reading order")
    func keptWordsStay() {
        let kept = [
            Self.block([
                [Self.word("Total", 0.95, 10, 10), Self.word("12.50", 0.6, 100, 10)],
                [Self.word("Thank", 0.9, 10, 60), Self.word("you", 0.9, 60, 60)],
            ])
        ]
        let other = [
            Self.block([
                // A surer reading of a word the kept reading holds with some confidence does not replace it.
                [Self.word("Total", 0.97, 10, 10), Self.word("12.58", 0.95, 100, 10)],
                // A line the kept reading missed.
                [Self.word("Cash", 0.92, 10, 35), Self.word("20.00", 0.9, 100, 35)],
                // Unsure words and marks without letters or digits stay out.
                [Self.word("Visa", 0.6, 10, 85), Self.word("|", 0.99, 100, 85)],
            ])
        ]
        let filled = WordFill.filling(kept, from: [other])
        #expect(filled.filled == 2)
        #expect(filled.blocks.flatMap(\.lines).map(\.text) == ["Total 12.50", "Cash 20.00", "Thank you"])
        // Unsure noise with fewer letters and digits than the sure word over it gives way; with more, it stays.
        let noisy = [Self.block([[Self.word("Total", 0.95, 10, 10), Self.word("i2", 0.2, 100, 10)]])]
        let sure = [Self.block([[Self.word("12.50", 0.9, 100, 10)]])]
        #expect(WordFill.filling(noisy, from: [sure]).blocks.flatMap(\.lines).map(\.text) == ["Total 12.50"])
        let longer = [Self.block([[Self.word("Total", 0.95, 10, 10), Self.word("i2Z5O9", 0.2, 100, 10)]])]
        #expect(WordFill.filling(longer, from: [sure]).blocks.flatMap(\.lines).map(\.text) == ["Total i2Z5O9"])
        // A sure word of two characters joins a kept line beside it, but is not a line on its own.
        let short = [Self.block([[Self.word("kg", 0.95, 150, 10)], [Self.word("OM", 0.95, 10, 40)]])]
        #expect(
            WordFill.filling(kept, from: [short]).blocks.flatMap(\.lines).map(\.text) == [
                "Total 12.50 kg", "Thank you",
            ])
    }

    @Test("A word is read down rows when its glyphs are stacked or could not be placed, not when its box is tall")
    func readDownRows() {
        #expect(WordFill.isReadDownRows(Self.readDownRows("SBE", 0.83, 262, 206), besideRowsOf: 10))
        var stacked = Self.word("ab", 0.9, 0, 0, width: 12, height: 30)
        stacked.glyphs = [
            RecognizedGlyph(text: "a", confidence: nil, box: Rect(x: 1, y: 2, width: 10, height: 10)),
            RecognizedGlyph(text: "b", confidence: nil, box: Rect(x: 1, y: 18, width: 10, height: 10)),
        ]
        #expect(WordFill.isReadDownRows(stacked, besideRowsOf: 12))
        // A word on a slanted line of a photographed page can have a tall box; its glyphs still run across.
        var slanted = Self.word("tested", 0.97, 0, 0, width: 42, height: 26)
        slanted.glyphs = "tested".enumerated().map { n, character in
            RecognizedGlyph(
                text: String(character), confidence: nil,
                box: Rect(x: Double(7 * n), y: Double(12 - 2 * n), width: 7, height: 13))
        }
        #expect(!WordFill.isReadDownRows(slanted, besideRowsOf: 12))
        // As tall as a row and a half: one row.
        #expect(!WordFill.isReadDownRows(Self.readDownRows("SBE", 0.83, 262, 206), besideRowsOf: 20))
    }

    @Test("A reading whose lines run down the page, a quarter turn from upright, is not filled")
    func linesRunningDown() {
        // The page read as handed over, turned: each line a column of words one under another.
        let down = [
            Self.block([
                [
                    Self.word("the", 0.9, 10, 10, width: 12, height: 40),
                    Self.word("festival", 0.9, 10, 60, width: 12, height: 90),
                ],
                [Self.word("unusual", 0.9, 40, 10, width: 12, height: 80)],
            ])
        ]
        #expect(WordFill.linesRunDown(down))
        let across = [Self.block([[Self.word("335", 0.95, 10, 30, width: 50), Self.word("TTF", 0.95, 70, 30)]])]
        let filled = WordFill.filling(down, from: [across])
        #expect(filled.filled == 0)
        #expect(filled.blocks == down)
        #expect(!WordFill.linesRunDown(across))
    }

    @Test("A filled page read back as the kept reading held it: filled words give way to the words they replaced")
    func readAsKept() throws {
        let noisy = [Self.block([[Self.word("Total", 0.95, 10, 10), Self.word("i2", 0.2, 100, 10)]])]
        let sure = [Self.block([[Self.word("12.50", 0.9, 100, 10)], [Self.word("Cash", 0.92, 10, 35)]])]
        func page(_ blocks: [RecognizedBlock]) -> RecognizedPage {
            RecognizedPage(
                width: 300, height: 100, blocks: blocks,
                provenance: RecognitionProvenance(
                    recognizer: "accurate", backend: "Tesseract", version: "5", models: [], level: .accurate,
                    levelMapping: ""))
        }
        let kept = page(noisy)
        let filled = page(WordFill.filling(noisy, from: [sure]).blocks)
        #expect(filled.lines.map(\.text) == ["Total 12.50", "Cash"])
        #expect(try #require(filled.legibility) > #require(kept.legibility))
        #expect(filled.asRead.words.map(\.text) == ["Total", "i2"])
        #expect(filled.asRead.text == "Total i2")
        #expect(filled.asRead.legibility == kept.legibility)
        #expect(kept.asRead == kept)
        // Which words were filled in is not part of the JSON.
        let json = try #require(String(data: try JSONEncoder().encode(filled), encoding: .utf8))
        #expect(!json.contains("i2"))
        let decoded = try JSONDecoder().decode(RecognizedPage.self, from: Data(json.utf8))
        #expect(decoded.text == filled.text)
        #expect(decoded.asRead.text == filled.text)
    }
}
