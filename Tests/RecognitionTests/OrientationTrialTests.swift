import DocScanGeometry
import DocScanRecognition
import Testing

@testable import DocScanTesseract

/// The pure rules of `accurate`'s orientation trials: which turns to read and when a turned reading wins.
@Suite("Orientation trials")
struct OrientationTrialTests {
    /// A block of lines with the given sizes (width × height), one above the other.
    static func block(_ sizes: [(Double, Double)]) -> [RecognizedBlock] {
        let lines = sizes.enumerated().map { i, size in
            RecognizedLine(
                text: "text", confidence: nil, box: Rect(x: 10, y: Double(i) * 60, width: size.0, height: size.1))
        }
        return [RecognizedBlock(box: Rect(x: 0, y: 0, width: 1000, height: 1000), lines: lines)]
    }

    @Test("Lines running across leave only the half turn; standing lines add both quarter turns")
    func turns() {
        #expect(PageReader.turnsToTry(Self.block([(400, 20), (380, 22), (30, 25)])) == [2])
        #expect(PageReader.turnsToTry(Self.block([(20, 400), (22, 380), (400, 20)])) == [1, 3, 2])
    }

    @Test("A turn wins by 30% of the kept reading's evidence and at least two characters")
    func margin() {
        // An upside-down receipt: both readings poor, the right one clearly less so.
        #expect(PageReader.clearlyBetter(-37.8, than: -57.4))
        // Two readings of nonsense a few characters apart.
        #expect(!PageReader.clearlyBetter(-17.0, than: -19.9))
        #expect(!PageReader.clearlyBetter(1.5, than: 0))
        #expect(PageReader.clearlyBetter(79.3, than: -19.9))
        #expect(!PageReader.clearlyBetter(120, than: 100))
        #expect(PageReader.clearlyBetter(131, than: 100))
    }

    @Test("A few confident words from a page full of print is a poor reading: it may be upside down")
    func sparseReading() {
        // Corpus multi-07's faint receipt, read upside down: three words Tesseract was sure of ("SNOS 3 Waived"), on a
        // page showing hundreds of letter-like marks.
        let upsideDown = ReadingChoiceTests.reading([("SNOS", 0.9), ("3", 0.9), ("Waived", 0.85)])
        #expect(!PageReader.isPoor(upsideDown))
        #expect(!PageReader.isPoor(upsideDown, marksOnPage: 40))
        #expect(PageReader.isPoor(upsideDown, marksOnPage: 400))
        // The same page read the right way up holds about as many letters as it shows marks.
        let upright = ReadingChoiceTests.reading(Array(repeating: ("BUTTER", 0.9), count: 60))
        #expect(!PageReader.isPoor(upright, marksOnPage: 400))
    }
}
