import DocScan
import DocScanGeometry
import DocScanRecognition
import Foundation
import Testing

@testable import DocScanTesseract

/// A form's checkboxes, found in the page's pixels so that what Tesseract reads in them is left out.
@Suite("Checkboxes")
struct CheckBoxTests {
    /// Two rows of preferred-contact boxes as the pipeline renders them (seed 121000 form-03 and form-05, in gray):
    /// the first with 21 px boxes drawn pale and thin, the second with 13 px boxes; one of each row ticked with a cross.
    static func rows() throws -> GrayPixels {
        let url = SamplePage.root.appendingPathComponent("Tests/DocScanTests/Fixtures/checkboxes-ticked-and-empty.png")
        return GrayPixels(try ImageLoader().load(contentsOf: url).image.pageImage())
    }

    @Test("Every box is found, ticked or not, and no letter is taken for one")
    func findsBoxes() throws {
        // The rows' print is 7-8 px from the x-height's foot to its top (as the page's median mark measures it).
        let found = CheckBoxes.find(in: try Self.rows(), glyphHeight: 7)
        let expected = [(229.0, 23.0, 21.0), (390, 23, 21), (552, 23, 21), (140, 79, 13), (241, 79, 13), (342, 79, 13)]
        for (x, y, side) in expected {
            let box = Rect(x: x, y: y, width: side, height: side)
            #expect(found.contains { $0.intersectionArea(box) > 0.7 * box.area }, "no box at \(box) in \(found)")
        }
        #expect(found.count == expected.count, "\(found)")
    }

    @Test("A square outline under 12 pixels is not taken for a box: a blurred letter can be one")
    func smallSquares() {
        var bytes = [UInt8](repeating: 255, count: 100 * 40)
        func square(x: Int, y: Int, side: Int) {
            for i in 0..<side {
                for (px, py) in [(x + i, y), (x + i, y + side - 1), (x, y + i), (x + side - 1, y + i)] {
                    bytes[py * 100 + px] = 0
                }
            }
        }
        square(x: 10, y: 10, side: 9)
        square(x: 50, y: 10, side: 14)
        let found = CheckBoxes.find(in: GrayPixels(width: 100, height: 40, bytes: bytes), glyphHeight: 5)
        #expect(found == [Rect(x: 50, y: 10, width: 14, height: 14)])
    }

    @Test("Words read in a box as tall as the print beside them go; words beside it, and a letter taken for one, stay")
    func wordsOutside() {
        let box = Rect(x: 100, y: 50, width: 20, height: 20)
        func word(_ text: String, _ x: Double, _ y: Double, _ width: Double, _ height: Double) -> RecognizedWord {
            RecognizedWord(text: text, confidence: nil, box: Rect(x: x, y: y, width: width, height: height))
        }
        func texts(_ words: [RecognizedWord]) -> [String] {
            let line = RecognizedLine(text: "", confidence: nil, box: Rect(enclosing: words.map(\.box))!, words: words)
            return CheckBoxes.wordsOutside([box], on: line).map(\.text)
        }
        let label = word("contact:", 20, 53, 60, 15), after = word("Email", 126, 54, 40, 14)
        // "[_]" read over the box, and "(" read taller than the line: left out.
        #expect(texts([label, word("[_]", 99, 49, 22, 22), after]) == ["contact:", "Email"])
        #expect(texts([label, word("(", 102, 46, 9, 28), after]) == ["contact:", "Email"])
        // A word one letter of which passed for a box stays.
        #expect(texts([word("Registration", 60, 50, 90, 20)]) == ["Registration"])
        // An "a" passed for a box, in a line of words twice its height, stays.
        let running = [word("made", 20, 40, 60, 36), word("a", 99, 49, 22, 22), word("plan", 126, 45, 40, 38)]
        #expect(texts(running) == ["made", "a", "plan"])
        // So does a word alone on its line: there is nothing to measure the box against.
        #expect(texts([word("160", 99, 49, 22, 22)]) == ["160"])
    }
}

/// The pronoun "I" opening a line, which Tesseract reads as a bar or drops as noise.
@Suite("Pronoun I")
struct PronounITests {
    @Test("I or a bar before a word in lower case opens a sentence; before anything else it does not")
    func opensLine() {
        #expect(PronounI.opensLine("I", before: "confirm"))
        #expect(PronounI.opensLine("|", before: "confirm"))
        #expect(PronounI.opensLine("|", before: "am,"))
        #expect(!PronounI.opensLine("|", before: "EMMA"))
        #expect(!PronounI.opensLine("|", before: "claire.hayes@example.com"))
        #expect(!PronounI.opensLine("|", before: nil))
        #expect(!PronounI.opensLine("l", before: "confirm"))
    }

    @Test("A bar opening a line before a word in lower case becomes I; bars elsewhere stay")
    func corrects() {
        let blocks = [SentencePunctuationTests.block(["| confirm that", "Page | of 4", "| EMMA"])]
        let corrected = PronounI.corrected(blocks)
        #expect(corrected.count == 1)
        #expect(corrected.blocks[0].lines.map(\.text) == ["I confirm that", "Page | of 4", "| EMMA"])
        #expect(corrected.blocks[0].lines[0].words[0].glyphs.map(\.text) == ["I"])
    }

    @Test("Edge noise leaves an unsure I opening a line before a word in lower case")
    func keptFromEdgeNoise() {
        var block = SentencePunctuationTests.block(["I confirm that", "I Smith"])
        for l in block.lines.indices {
            block.lines[l].words[0].confidence = Confidence(value: 0.3, native: 30)
        }
        let kept = PageReader.withoutEdgeNoise([block])
        #expect(kept[0].lines.map(\.text) == ["I confirm that", "Smith"])
    }
}

/// Unsure words stretched past any print's shape: a signature, or a drawn line's edge, read as letters.
@Suite("Stretched words")
struct StretchedWordTests {
    static func word(_ text: String, confidence: Double, width: Double, height: Double, x: Double) -> RecognizedWord {
        RecognizedWord(
            text: text, confidence: Confidence(value: confidence, native: confidence * 100),
            box: Rect(x: x, y: 10, width: width, height: height))
    }

    @Test("A signature read as a few wide letters goes; words of print, sure words and marks without letters stay")
    func dropsStretchedWords() {
        let words = [
            Self.word("Signature", confidence: 0.96, width: 70, height: 15, x: 0),
            Self.word("LoL", confidence: 0.33, width: 249, height: 22, x: 80),  // seed 121000 form-03's signature
            Self.word("mm", confidence: 0.4, width: 30, height: 8, x: 340),  // wide letters, still print
            Self.word("SUMMARY", confidence: 0.9, width: 400, height: 20, x: 380),  // letter-spaced, and sure
            Self.word("——", confidence: 0.3, width: 80, height: 2, x: 800),  // a rule: no letter
        ]
        let line = RecognizedLine(text: "", confidence: nil, box: Rect(enclosing: words.map(\.box))!, words: words)
        let kept = PageReader.withoutStretchedWords([RecognizedBlock(box: line.box, lines: [line])])
        #expect(kept.flatMap(\.lines).flatMap(\.words).map(\.text) == ["Signature", "mm", "SUMMARY", "——"])
        #expect(kept[0].lines[0].text == "Signature mm SUMMARY ——")
    }
}

/// Shrinking a page for its analyses.
@Suite("Gray pixels")
struct GrayPixelsTests {
    @Test("Shrinking averages each target pixel's footprint of whole source pixels", arguments: [0.5, 0.37, 0.8])
    func shrinking(factor: Double) {
        let width = 53, height = 41
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<(width * height)).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let shrunk = GrayPixels(width: width, height: height, bytes: bytes).scaled(by: factor)
        let newWidth = Int((Double(width) * factor).rounded()), newHeight = Int((Double(height) * factor).rounded())
        #expect(shrunk.width == newWidth && shrunk.height == newHeight)
        let sx = Double(width) / Double(newWidth), sy = Double(height) / Double(newHeight)
        for y in 0..<newHeight {
            let y0 = Int(Double(y) * sy), y1 = max(y0 + 1, min(height, Int(Double(y + 1) * sy)))
            for x in 0..<newWidth {
                let x0 = Int(Double(x) * sx), x1 = max(x0 + 1, min(width, Int(Double(x + 1) * sx)))
                var sum = 0
                for yy in y0..<y1 {
                    for xx in x0..<x1 { sum += Int(bytes[yy * width + xx]) }
                }
                #expect(shrunk.bytes[y * newWidth + x] == UInt8(sum / ((y1 - y0) * (x1 - x0))), "at \(x), \(y)")
            }
        }
    }
}
