import DocScanRecognition
import Testing

@testable import DocScanTesseract

/// The language correction that puts back decimal points Tesseract read as commas.
@Suite("Decimal points")
struct DecimalPointsTests {
    @Test("A comma before the two last digits of an amount becomes a point, in the word, its glyph and its line")
    func amounts() {
        let read = [SentencePunctuationTests.block(["CHOCOLATE BAR 1,29", "TOTAL $17,64", "VAT 20% incl. 2.94"])]
        let (blocks, count) = DecimalPoints.corrected(read)
        #expect(count == 2)
        #expect(SentencePunctuationTests.texts(blocks) == ["CHOCOLATE BAR 1.29", "TOTAL $17.64", "VAT 20% incl. 2.94"])
        let price = blocks[0].lines[0].words[2]
        #expect(price.text == "1.29")
        #expect(price.glyphs.map(\.text).joined() == "1.29")
    }

    @Test("Thousands, lists, dates and words keep their commas")
    func commasLeftAlone() {
        for word in [
            "1,234", "1,234.56", "12,345,67", "3,", ",29", "Leeds,", "a,bc", "1,2", "10,11,12", "1,2345", "x,12",
            "03,02,2024",
        ] {
            #expect(DecimalPoints.misreadPoint(in: word) == nil, "\(word)")
        }
        let read = [SentencePunctuationTests.block(["Portland, OR 97205", "Tel (754) 372-5158", "1,234 items"])]
        let (blocks, count) = DecimalPoints.corrected(read)
        #expect(count == 0)
        #expect(blocks == read)
    }

    @Test("The comma's place is found before a closing bracket or a percent sign")
    func closingMarks() {
        #expect(DecimalPoints.misreadPoint(in: "(12,50)") == 3)
        #expect(DecimalPoints.misreadPoint(in: "7,25%") == 1)
        #expect(DecimalPoints.misreadPoint(in: "£3,99") == 2)
    }
}
