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

    @Test("Lines running across leave only the half turn; standing lines, or none, add both quarter turns")
    func turns() {
        #expect(PageReader.turnsToTry(Self.block([(400, 20), (380, 22), (30, 25)])) == [2])
        #expect(PageReader.turnsToTry(Self.block([(20, 400), (22, 380), (400, 20)])) == [1, 3, 2])
        #expect(PageReader.turnsToTry(Self.block([])) == [1, 3, 2])
        #expect(PageReader.turnsToTry([]) == [1, 3, 2])
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

    @Test("A turned reading of nothing never wins, however unsure the upright one")
    func emptyTurnLoses() {
        // Seed 13000 multi-07's business card, read upright as unsure words (evidence about -16) and upside down as
        // nothing at all (evidence 0): the card must stay as it is.
        let upright = ReadingChoiceTests.reading([
            ("(Sophie", 0.5), ("walsh", 0.55), ("Chief", 0.5), ("Exraatice", 0.3), ("Officer", 0.6), ("[Harbour", 0.4),
            ("Architects:", 0.45), ("Nal", 0.2), ("Gir", 0.2), ("ensGaae", 0.1),
        ])
        #expect(PageReader.evidence(upright) < -2)
        #expect(!PageReader.turnedReadingWins([], over: upright))
        #expect(!PageReader.turnedReadingWins(ReadingChoiceTests.reading([("ab", 0.9)]), over: upright))
        // The same card read right after a wrong start still wins.
        let wrongWay = ReadingChoiceTests.reading([("suaupeg", 0.2), ("eudjspey", 0.2), ("ASIN", 0.3), ("PeYON", 0.2)])
        let rightWay = ReadingChoiceTests.reading([("Laura", 0.9), ("Morgan", 0.92), ("Project", 0.85), ("Coordinator", 0.8)])
        #expect(PageReader.turnedReadingWins(rightWay, over: wrongWay))
    }

    @Test("A turn that reads fewer unsure words, no surer of them, does not win")
    func fewerUnsureWordsLose() {
        // Two readings of nonsense, as of corpus form-06, a blurred form (upright: 88 letters and digits at 0.15,
        // evidence -26; upside down: 63 at 0.14, evidence -17): the turned one reads fewer words, so it costs less
        // evidence, yet its characters are no surer.
        let upright = ReadingChoiceTests.reading(Array(repeating: ("Wenn", 0.24), count: 40))
        let turned = ReadingChoiceTests.reading(Array(repeating: ("uaM", 0.15), count: 20) + [("Tel", 0.75), ("the", 0.7)])
        #expect(PageReader.clearlyBetter(PageReader.evidence(turned), than: PageReader.evidence(upright)))
        #expect(PageReader.characterConfidence(turned) < PageReader.characterConfidence(upright))
        #expect(!PageReader.turnedReadingWins(turned, over: upright))
        #expect(PageReader.characterConfidence([]) == 0)
    }

    @Test("A turn that reads twice the text of a sensible reading wins, though a little less surely")
    func twiceTheTextWins() {
        // Seed 171000 card-04 under `fast`, lying a quarter turn wrong: at turn 0 Tesseract read its first three lines
        // sideways, surely; at three quarters it read all eight, a few characters wrong.
        let sideways = ReadingChoiceTests.reading([
            ("Claire", 0.95), ("Collina", 0.9), ("Chief", 0.95), ("Executive", 0.95), ("Officer", 0.95),
            ("Silverline", 0.95), ("Software", 0.95),
        ])
        let turned = ReadingChoiceTests.reading([
            ("Claire", 0.93), ("Collina", 0.88), ("Chlet", 0.6), ("Executive", 0.93), ("Officer", 0.93),
            ("Silverline", 0.93), ("Software", 0.93), ("Tel", 0.9), ("(490)", 0.85), ("699-4574", 0.85),
            ("Clalre.collins@silverlinesoftware.co.uk", 0.7), ("191", 0.9), ("High", 0.93), ("Street", 0.93),
            ("Denver,", 0.9), ("CO", 0.9), ("80202", 0.9), ("www.silverlinesofiware.co.uk", 0.75),
        ])
        #expect(PageReader.evidence(sideways) > 0)
        #expect(PageReader.characterConfidence(turned) < PageReader.characterConfidence(sideways))
        #expect(PageReader.turnedReadingWins(turned, over: sideways))
        // Not over a reading of nonsense, however much more the turn reads (``fewerUnsureWordsLose``'s rule stands).
        let nonsense = ReadingChoiceTests.reading(Array(repeating: ("Wenn", 0.24), count: 5))
        let moreNonsense = ReadingChoiceTests.reading(Array(repeating: ("uaM", 0.2), count: 12) + [("Tel", 0.75)])
        #expect(PageReader.evidence(nonsense) <= 0)
        #expect(!PageReader.turnedReadingWins(moreNonsense, over: nonsense))
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

    /// A reading of one word a line (``ReadingChoiceTests/reading(_:)``, whose lines lie: 100 × 20), each line's box
    /// standing (20 × 120) instead when `standing`.
    static func lines(_ words: [(String, Double)], standing: Bool) -> [RecognizedBlock] {
        var blocks = ReadingChoiceTests.reading(words)
        guard standing else { return blocks }
        for i in blocks[0].lines.indices {
            let box = Rect(x: 1000 - Double(i) * 30, y: 10, width: 20, height: 120)
            blocks[0].lines[i].box = box
            blocks[0].lines[i].words[0].box = box
        }
        return blocks
    }

    @Test("A reading whose lines stand is sideways, and a quarter turn whose lines lie, as sure, puts it right")
    func sidewaysReadingTurned() {
        // Seed 175000 receipt-04, left lying by the scanner: Tesseract read every line down the page, surely, bottom to
        // top (77.8% CER); turned a quarter the right way it reads them across, as surely, in order (1.9%).
        let receipt = [("MAIN", 0.93), ("STREET", 0.92), ("DELI", 0.9), ("Boston,", 0.88), ("EGGS", 0.91)]
        let sideways = Self.lines(receipt, standing: true)
        #expect(PageReader.readsSideways(sideways))
        #expect(!PageReader.readsSideways(Self.lines(receipt, standing: false)))
        // Two standing lines are too few to say; a page of lying lines with a few standing ones is not sideways.
        #expect(!PageReader.readsSideways(Self.lines(Array(receipt.prefix(2)), standing: true)))
        #expect(!PageReader.readsSideways(Self.lines(Array(receipt.prefix(2)), standing: true) + Self.lines(receipt, standing: false)))
        // Not clearly better, so only the sideways rule turns it.
        let across = Self.lines(receipt.map { ($0.0, $0.1 - 0.02) }, standing: false)
        #expect(!PageReader.turnedReadingWins(across, over: sideways))
        #expect(PageReader.turnedReadingLiesAcross(across, whereKeptStands: sideways))
        // The other quarter turn is upside down: its lines lie too, but hold noise.
        let upsideDown = Self.lines([("IHCI", 0.3), ("'LL3EH", 0.2), ("NIVW", 0.25), ("'uotsog", 0.2)], standing: false)
        #expect(!PageReader.turnedReadingLiesAcross(upsideDown, whereKeptStands: sideways))
        // A kept reading that lies across is never turned this way.
        #expect(!PageReader.turnedReadingLiesAcross(across, whereKeptStands: Self.lines(receipt, standing: false)))
        // Nor by a turned reading that still stands.
        #expect(!PageReader.turnedReadingLiesAcross(sideways, whereKeptStands: sideways))
    }
}
