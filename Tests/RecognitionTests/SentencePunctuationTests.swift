import DocScan
import DocScanGeometry
import DocScanRecognition
import Foundation
import Testing

@testable import DocScanTesseract

/// The language correction that puts back full stops Tesseract read as commas.
@Suite("Sentence punctuation")
struct SentencePunctuationTests {
    /// A block of one line per string, each word its own glyphs, laid out left to right.
    static func block(_ lines: [String]) -> RecognizedBlock {
        let recognized = lines.enumerated().map { row, text in
            var x = 0.0
            let words = text.split(separator: " ").map { part in
                let glyphs = part.enumerated().map { i, character in
                    RecognizedGlyph(
                        text: String(character), confidence: nil,
                        box: Rect(x: x + 8 * Double(i), y: 20 * Double(row), width: 8, height: 10))
                }
                defer { x += 8 * Double(part.count) + 6 }
                return RecognizedWord(
                    text: String(part), confidence: nil,
                    box: Rect(x: x, y: 20 * Double(row), width: 8 * Double(part.count), height: 10), glyphs: glyphs)
            }
            let box = Rect(enclosing: words.map(\.box)) ?? Rect(x: 0, y: 0, width: 0, height: 0)
            return RecognizedLine(text: text, confidence: nil, box: box, words: words)
        }
        return RecognizedBlock(
            box: Rect(enclosing: recognized.map(\.box)) ?? Rect(x: 0, y: 0, width: 0, height: 0), lines: recognized)
    }

    static func texts(_ blocks: [RecognizedBlock]) -> [String] { blocks.flatMap(\.lines).map(\.text) }

    @Test("A comma before a capitalised article or pronoun becomes a full stop, in the word, its glyph and its line")
    func commaBeforeSentenceStarter() {
        let read = [Self.block(["the end of the year, There is still time, and the mayor, The council agreed."])]
        let (blocks, count) = SentencePunctuation.corrected(read)
        #expect(count == 2)
        #expect(Self.texts(blocks) == ["the end of the year. There is still time, and the mayor. The council agreed."])
        let year = blocks[0].lines[0].words[4]
        #expect(year.text == "year.")
        #expect(year.glyphs.map(\.text).joined() == "year.")
    }

    @Test("A line or a paragraph that ends in a comma is read on into the next line, or the next paragraph")
    func commaAtLineEnd() {
        let read = [
            Self.block(["The committee met over the weekend,", "Several families stayed at home,"]),
            Self.block(["Our accountant left."]),
        ]
        let (blocks, count) = SentencePunctuation.corrected(read)
        #expect(count == 2)
        #expect(
            Self.texts(blocks) == [
                "The committee met over the weekend.", "Several families stayed at home.", "Our accountant left.",
            ])
    }

    @Test("A section number that opens a line keeps its full stop before a capitalised heading")
    func sectionNumber() {
        let read = [Self.block(["1, Personal details", "Full name", "4, Declaration", "Paid 1, Total 2,"])]
        let (blocks, count) = SentencePunctuation.corrected(read)
        #expect(count == 2)
        #expect(Self.texts(blocks) == ["1. Personal details", "Full name", "4. Declaration", "Paid 1, Total 2,"])
    }

    @Test("Commas before names, before \"I\" and before lower case are left alone")
    func commasLeftAlone() {
        let read = [
            Self.block(["Portland, OR 97205", "Smith, John", "as I said, I think so", "rain, which fell,"]),
            Self.block(["and then some,"]),
        ]
        let (blocks, count) = SentencePunctuation.corrected(read)
        #expect(count == 0)
        #expect(blocks == read)
    }

    @Test("A comma alone, or after punctuation, is no word's end")
    func commaWithoutWord() {
        #expect(!SentencePunctuation.endsInFullStop(",", openingLine: false, before: "The"))
        #expect(!SentencePunctuation.endsInFullStop("\",", openingLine: false, before: "The"))
        #expect(SentencePunctuation.endsInFullStop("2024,", openingLine: false, before: "The"))
        #expect(!SentencePunctuation.endsInFullStop("2024,", openingLine: true, before: "Total"))
    }

    @Test("Only English readings are corrected")
    func languages() {
        #expect(SentencePunctuation.applies(to: ["eng"]))
        #expect(SentencePunctuation.applies(to: ["deu", "eng"]))
        #expect(!SentencePunctuation.applies(to: ["deu"]))
    }
}

@Suite("Sentence punctuation through Tesseract", .serialized)
struct SentencePunctuationReadingTests {
    /// Eight lines of seed 119000 prose-01's flat page (3 MP, defocused, x-height about 8 px) as the pipeline renders
    /// it, in gray.
    static func page() throws -> PageImage {
        let url = SamplePage.root.appendingPathComponent("Tests/DocScanTests/Fixtures/sentence-ends-read-as-commas.png")
        return try ImageLoader().load(contentsOf: url).image.pageImage()
    }

    @Test("accurate reads a small page's sentence ends as full stops, where Tesseract reads two of them as commas")
    func sentenceEnds() async throws {
        // Tesseract reads "as soon as possible, Several" and "this year, The city council" on this page.
        let read = try await SamplePage.accurate.recognize(try Self.page(), request: RecognitionRequest())
        let mapping = read.provenance.levelMapping
        #expect(mapping.contains("full stops read as commas put back"), "\(mapping)")
        let text = read.text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        for sentenceEnd in ["as soon as possible. Several", "this year. The city council"] {
            #expect(text.contains(sentenceEnd), "\(sentenceEnd) missing from: \(text)")
        }
        let starters = SentencePunctuation.sentenceStarters.joined(separator: "|")
        #expect(text.range(of: ", (\(starters)) ", options: .regularExpression) == nil, "\(text)")
        // Commas inside sentences stay commas.
        #expect(text.contains("over the weekend, and several questions"))
    }

    @Test("With language correction off, accurate leaves the commas as Tesseract read them")
    func withoutLanguageCorrection() async throws {
        var request = RecognitionRequest()
        request.usesLanguageCorrection = false
        let read = try await SamplePage.accurate.recognize(try Self.page(), request: request)
        #expect(!read.provenance.levelMapping.contains("full stop"), "\(read.provenance.levelMapping)")
        let text = read.text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(text.contains("possible, Several") || text.contains("year, The city"), "\(text)")
    }
}

/// The spurious opening quotes Tesseract reads before the first word of a line.
@Suite("Hairline quotes")
struct HairlineQuoteTests {
    /// A line of one word whose first glyph is `‘` with `quoteBox`, on a line 20 pixels tall.
    static func line(_ text: String, quoteBox: Rect) -> [RecognizedBlock] {
        var glyphs = [RecognizedGlyph(text: "‘", confidence: nil, box: quoteBox)]
        for (i, character) in text.dropFirst().enumerated() {
            let box = Rect(x: 104 + 9 * Double(i), y: 52, width: 8, height: 13)
            glyphs.append(RecognizedGlyph(text: String(character), confidence: nil, box: box))
        }
        let word = RecognizedWord(
            text: text, confidence: nil, box: Rect(enclosing: glyphs.map(\.box))!, glyphs: glyphs)
        let after = RecognizedWord(text: "museum", confidence: nil, box: Rect(x: 140, y: 52, width: 50, height: 13))
        let box = Rect(x: 100, y: 48, width: 90, height: 20)
        let line = RecognizedLine(text: "\(text) museum", confidence: nil, box: box, words: [word, after])
        return [RecognizedBlock(box: line.box, lines: [line])]
    }

    @Test("A quote as thin as a hairline and as tall as the letters is dropped, with its glyph")
    func hairlineDropped() {
        let read = Self.line("‘The", quoteBox: Rect(x: 100, y: 50, width: 1, height: 15))
        let kept = PageReader.withoutHairlineQuotes(read)
        #expect(kept[0].lines[0].text == "The museum")
        #expect(kept[0].lines[0].words[0].glyphs.map(\.text) == ["T", "h", "e"])
        #expect(kept[0].lines[0].words[0].box.minX == 104)
        #expect(kept[0].lines[0].box.minX == 104)
    }

    @Test("A quotation mark's small shape at the top of the line is kept")
    func quoteKept() {
        let read = Self.line("‘The", quoteBox: Rect(x: 100, y: 49, width: 4, height: 4))
        #expect(PageReader.withoutHairlineQuotes(read) == read)
    }
}
