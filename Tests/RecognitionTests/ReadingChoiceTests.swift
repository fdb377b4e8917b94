import DocScanGeometry
import DocScanRecognition
import Testing

@testable import DocScanTesseract

/// The pure rules by which the levels choose among several readings of a page.
@Suite("Reading choice")
struct ReadingChoiceTests {
    /// One block holding the given words (text and confidence 0...1) on one line each.
    static func reading(_ words: [(String, Double)]) -> [RecognizedBlock] {
        let lines = words.enumerated().map { i, word in
            let box = Rect(x: 10, y: Double(i) * 30, width: 100, height: 20)
            let confidence = Confidence(value: word.1, native: word.1 * 100)
            return RecognizedLine(
                text: word.0, confidence: confidence, box: box,
                words: [RecognizedWord(text: word.0, confidence: confidence, box: box)])
        }
        return [RecognizedBlock(box: Rect(x: 0, y: 0, width: 1000, height: 1000), lines: lines)]
    }

    @Test("A blurred page read as a block wins over a first reading that found one line")
    func manyUnsureWordsHoldTheText() {
        // The shape of a measured case (seed 19000 prose-03): 15 words first, then 420 words of which 92 are sure.
        let first = Self.reading(Array(repeating: ("engineer", 0.8), count: 3) + Array(repeating: ("xx", 0.4), count: 12))
        let block = Self.reading(Array(repeating: ("engineer", 0.8), count: 92) + Array(repeating: ("ermgree", 0.4), count: 328))
        #expect(PageReader.evidence(block) < PageReader.evidence(first))  // the penalty alone would keep the first
        #expect(PageReader.readsBetter(block, than: first))
    }

    @Test("A small receipt whose first reading found its heading alone gives way to a reading of its unsure lines")
    func unsureLinesBeatAHeadingAlone() {
        // The shape of a measured case (seed 65000 multi-06, a receipt with 3 px print): its bold heading read
        // surely (98% CER); enlarged and darkened, 118 words at 0.38 on average (57% CER).
        let first = Self.reading([("FRESH", 0.96), ("MARKET", 0.96)])
        let enlarged = Self.reading(
            Array(repeating: ("Cheddar", 0.8), count: 6) + Array(repeating: ("cheese", 0.35), count: 100))
        #expect(PageReader.evidence(enlarged) < PageReader.evidence(first))  // the penalty alone would keep the first
        #expect(PageReader.readsBetter(enlarged, than: first))
        // A second reading of the heading alone, a little surer, is no better.
        #expect(!PageReader.readsBetter(Self.reading([("FRESH", 0.97), ("MARKET", 0.97)]), than: first))
        // Nor is a dark card's weave read as hundreds of unsure characters without a sure one (seed 71000 multi-01,
        // a card read as nothing, darkened and enlarged: 628 characters, 333% CER), however much of it there is.
        let weave = Self.reading(Array(repeating: ("aval", 0.3), count: 150))
        #expect(PageReader.weightedText(weave) > 1.2 * PageReader.weightedText([]) + 2)
        #expect(!PageReader.readsBetter(weave, than: []))
    }

    @Test("Noise read as many unsure words does not replace a reading with as much sure text")
    func noiseLoses() {
        let first = Self.reading(Array(repeating: ("receipt", 0.9), count: 20))
        let noisy = Self.reading(Array(repeating: ("receipt", 0.9), count: 22) + Array(repeating: ("il;", 0.3), count: 60))
        #expect(!PageReader.readsBetter(noisy, than: first))
    }

    @Test("Clearly more believable text wins; a few characters more do not")
    func evidenceMargin() {
        let first = Self.reading(Array(repeating: ("total", 0.9), count: 20))
        let more = Self.reading(Array(repeating: ("total", 0.9), count: 24))
        let barely = Self.reading(Array(repeating: ("total", 0.9), count: 20) + [("a", 0.9)])
        #expect(PageReader.readsBetter(more, than: first))
        #expect(!PageReader.readsBetter(barely, than: first))
    }

    @Test("fast shrinks large print to 20 px and enlarges print under 7 px to 16 px, at most threefold; accurate never enlarges first")
    func readingScale() {
        #expect(PageReader.scale(forGlyphHeight: 40, level: .fast) == 0.5)
        #expect(PageReader.scale(forGlyphHeight: 14, level: .fast) == 1)  // between the two: read as it is
        #expect(PageReader.scale(forGlyphHeight: 8, level: .fast) == 1)
        #expect(PageReader.scale(forGlyphHeight: 6.4, level: .fast) == 2.5)
        #expect(PageReader.scale(forGlyphHeight: 4, level: .fast) == 3)  // 16 / 4 = 4, capped
        #expect(PageReader.scale(forGlyphHeight: 96, level: .accurate) == 0.5)
        #expect(PageReader.scale(forGlyphHeight: 6, level: .accurate) == 1)
    }

    @Test("An enlarged reading holds at most 12 MP; a large page is never shrunk for it, nor a shrinking factor changed")
    func enlargementBudget() {
        // A receipt of 1 MP keeps its threefold enlargement (9 MP).
        #expect(PageReader.withinPixelBudget(3, width: 500, height: 2000) == 3)
        // A 3 MP page may grow twice: 2 × 2 × 3 MP = 12 MP.
        #expect(abs(PageReader.withinPixelBudget(3, width: 1500, height: 2000) - 2) < 1e-9)
        // Seed 77000 card-06's outline, which took in a stretch of wood grain: 9.6 MP, enlarged by 1.12 at most, too
        // little to be worth an extra reading.
        let woodGrain = PageReader.withinPixelBudget(3, width: 3015, height: 3186)
        #expect(woodGrain > 1 && woodGrain < PageReader.leastWorthwhileEnlargement)
        #expect(PageReader.withinPixelBudget(3, width: 4000, height: 5000) == 1)  // over the budget already: as it is
        #expect(PageReader.withinPixelBudget(0.5, width: 4000, height: 5000) == 0.5)  // shrinking: untouched
    }

    @Test("fast reads print under 20 px that it read as nothing again, enlarged to 16 px or by half; no other reading")
    func enlargedWhenNothingRead() {
        // Seed 71000 multi-04: a dark card's light print, 8 px tall, read as nothing at all (100% CER); enlarged
        // twice, it reads.
        let nothing = Self.reading([])
        let marks = Self.reading([("..", 0.3), ("-", 0.2)])
        let words = Self.reading([("Fletcher", 0.8)])
        #expect(PageReader.enlargementWhenNothingRead(nothing, glyphHeight: 8, scale: 1, level: .fast) == 2)
        #expect(PageReader.enlargementWhenNothingRead(marks, glyphHeight: 8, scale: 1, level: .fast) == 2)
        #expect(PageReader.enlargementWhenNothingRead(nothing, glyphHeight: 14, scale: 1, level: .fast) == 1.5)
        #expect(PageReader.enlargementWhenNothingRead(words, glyphHeight: 8, scale: 1, level: .fast) == nil)
        #expect(PageReader.enlargementWhenNothingRead(nothing, glyphHeight: 5, scale: 3, level: .fast) == nil)  // enlarged already
        #expect(PageReader.enlargementWhenNothingRead(nothing, glyphHeight: 30, scale: 2.0 / 3, level: .fast) == nil)
        #expect(PageReader.enlargementWhenNothingRead(nothing, glyphHeight: 8, scale: 1, level: .accurate) == nil)
        #expect(PageReader.enlargementWhenNothingRead(nothing, glyphHeight: nil, scale: 1, level: .fast) == nil)  // no marks
    }

    @Test("A reading is mostly noise when under 3% of its characters are in sure words, and it is 50 or more")
    func mostlyNoise() {
        // Seed 53000 multi-02's dark card, its weave enlarged as small print: 970 words, 25 of them sure.
        let weave = Self.reading(Array(repeating: ("Sx", 0.9), count: 25) + Array(repeating: ("SEAS", 0.2), count: 945))
        // Seed 29000 prose-02, blurred, enlarged: 95 of 2,167 characters sure (4.4%), and 64% CER against 71% as it is.
        let blurred = Self.reading(Array(repeating: ("sure", 0.8), count: 24) + Array(repeating: ("unsure", 0.4), count: 345))
        let short = Self.reading(Array(repeating: ("cA", 0.2), count: 7))
        #expect(PageReader.isMostlyNoise(weave))
        #expect(!PageReader.isMostlyNoise(blurred))  // 96 of 2,166 characters sure
        #expect(!PageReader.isMostlyNoise(short))
    }

    @Test("A page has a till receipt's shape when its short side is under 0.45 of its long side, either way up")
    func slipShape() {
        #expect(PageReader.isSlip(width: 430, height: 1400))
        #expect(PageReader.isSlip(width: 1400, height: 430))
        #expect(!PageReader.isSlip(width: 850, height: 1100))  // a letter page
        #expect(!PageReader.isSlip(width: 500, height: 1000))  // half a sheet, 0.5
    }

    @Test("accurate reads a settled page no other way, but a till receipt always, and a page with print left unread")
    func settledReceiptsAreReadAgain() {
        // Seed 33000 receipt-06, flattened: its black heading, total and barcode read with every word sure, while its
        // pale item lines fell on the paper's side of Tesseract's threshold (76% CER; read again as a darkened block,
        // 8%).
        let bold = Self.reading(Array(repeating: ("BAKER", 0.95), count: 24))
        #expect(PageReader.isSettled(bold))
        #expect(!PageReader.readsOtherWays(bold, width: 1700, height: 2200, shareOfMarksRead: 0.9))
        #expect(PageReader.readsOtherWays(bold, width: 783, height: 2889, shareOfMarksRead: 0.9))
        let unsure = Self.reading(Array(repeating: ("BAKER", 0.5), count: 24))
        #expect(PageReader.readsOtherWays(unsure, width: 1700, height: 2200, shareOfMarksRead: 0.9))
        // Seed 41000 prose-10 (the whole photo), defocused: half the page read with every word sure, 58% of its marks
        // on the lines read (42% CER; read again as one block, 2.4%).
        #expect(PageReader.readsOtherWays(bold, width: 1700, height: 2200, shareOfMarksRead: 0.58))
        #expect(!PageReader.readsOtherWays(bold, width: 1700, height: 2200, shareOfMarksRead: 0.9))
    }

    @Test("A reading misses the print when it holds under a quarter as many letters and digits as the page has marks")
    func missedPrint() {
        let reading = Self.reading([("receipt", 0.9), ("total", 0.9), ("12.50", 0.8)])  // 16 letters and digits
        #expect(PageReader.missesPrint(reading, marksOnPage: 65))
        #expect(!PageReader.missesPrint(reading, marksOnPage: 64))
        #expect(PageReader.isPoor(reading, marksOnPage: 65))
    }

    @Test("The share of a page's marks that its reading's lines hold counts only lines of text height")
    func readShareOfMarks() {
        // Two lines, 30 pixels apart from y = 0, each 20 pixels tall and 100 wide at x = 10 (see `reading`).
        let reading = Self.reading([("first", 0.9), ("second", 0.9)])
        let onLines = [Point(x: 50, y: 10), Point(x: 50, y: 40)]
        let below = [Point(x: 50, y: 100), Point(x: 50, y: 130)]
        #expect(PageReader.readShare(of: onLines + below, by: reading, glyphHeight: 10) == 0.5)
        #expect(PageReader.readShare(of: onLines, by: reading, glyphHeight: 10) == 1)
        // A "line" far taller than the print (noise read along a gutter's shading) holds nothing.
        #expect(PageReader.readShare(of: onLines, by: reading, glyphHeight: 5) == 0)
        #expect(PageReader.readShare(of: [], by: reading, glyphHeight: 10) == 1)
    }

    @Test("A reading of much more print, less sure, replaces one that read part of the page surely")
    func readingMorePrintWins() {
        // The shape of seed 127000 form-01: enlarged, its upper fields read surely and the rest dropped; whitened at
        // its size, every field read, less surely (408 letters against 280, evidence 44 against 77).
        let marks = (0..<14).map { Point(x: 50, y: 10 + 30 * Double($0)) }
        let kept = Self.reading(Array(repeating: ("Fletcher", 0.95), count: 9))  // 72 letters on 9 of 14 lines
        let whole = Self.reading(Array(repeating: ("Fletcher", 0.75), count: 14))  // 112 letters on all 14
        #expect(!PageReader.readsBetter(whole, than: kept))  // evidence 63 against 65
        #expect(PageReader.readsMorePrint(whole, than: kept, marks: marks, glyphHeight: 10))
        // Not a little more print (80 letters), nor more letters on fewer of the marks (a receipt's lines joined), nor
        // a reading of unsure words (evidence under half the kept one's).
        let little = Self.reading(Array(repeating: ("Fletcher", 0.95), count: 10))
        #expect(!PageReader.readsMorePrint(little, than: kept, marks: marks, glyphHeight: 10))
        let joined = Self.reading(Array(repeating: ("Fletcher Street", 0.95), count: 8))
        #expect(!PageReader.readsMorePrint(joined, than: kept, marks: marks, glyphHeight: 10))
        let unsure = Self.reading(Array(repeating: ("Fletcher", 0.6), count: 14))
        #expect(!PageReader.readsMorePrint(unsure, than: kept, marks: marks, glyphHeight: 10))
    }

    @Test("A reading with fewer letters on lines through a tenth fewer of the marks does not replace the kept one")
    func leavingOutPrintLoses() {
        // Ten lines of marks, one mark per line at y = 10, 40, 70, ... (see `reading`: lines 30 pixels apart).
        let marks = (0..<10).map { Point(x: 50, y: 10 + 30 * Double($0)) }
        let unsure = Self.reading(Array(repeating: ("Parking", 0.5), count: 10))  // every line, unsure: 70 letters
        let sureFew = Self.reading(Array(repeating: ("Vehicle", 0.95), count: 8))  // eight lines, sure: 56 letters
        #expect(PageReader.readsBetter(sureFew, than: unsure))
        #expect(PageReader.losesPrint(sureFew, than: unsure, marks: marks, glyphHeight: 10))
        let sureAll = Self.reading(Array(repeating: ("Vehicle", 0.95), count: 10))
        #expect(!PageReader.losesPrint(sureAll, than: unsure, marks: marks, glyphHeight: 10))
        // More letters on fewer lines (a receipt's item and price joined) is no loss; nor is reading more of the
        // print; without marks nothing is lost.
        let longer = Self.reading(Array(repeating: ("VEHICLE 12.50", 0.9), count: 8))
        #expect(!PageReader.losesPrint(longer, than: unsure, marks: marks, glyphHeight: 10))
        #expect(!PageReader.losesPrint(unsure, than: sureFew, marks: marks, glyphHeight: 10))
        #expect(!PageReader.losesPrint(sureFew, than: unsure, marks: [], glyphHeight: 10))
    }

    @Test("A sure bar at a line's end by the page's side is its edge and goes; a bar inside the page stays")
    func edgeBarsGo() {
        // The shape of seed 57000 card-01's dark card (1252 px wide) read as one block: its sides read as `|`.
        func word(_ text: String, x: Double, width: Double, confidence: Double = 0.9) -> RecognizedWord {
            RecognizedWord(
                text: text, confidence: Confidence(value: confidence, native: confidence * 100),
                box: Rect(x: x, y: 100, width: width, height: 50))
        }
        func line(_ words: [RecognizedWord]) -> RecognizedLine {
            RecognizedLine(
                text: words.map(\.text).joined(separator: " "), confidence: nil,
                box: words.dropFirst().reduce(words[0].box) { $0.union($1.box) }, words: words)
        }
        let edged = line([word("|", x: 0, width: 3), word("Thomas", x: 338, width: 297), word("|", x: 1247, width: 4)])
        let barsOnly = line([word("|", x: 1, width: 3), word("¦", x: 1240, width: 4, confidence: 0.7)])
        let boxed = line([word("|", x: 30, width: 3), word("Total", x: 45, width: 100), word("|", x: 900, width: 3)])
        let page = [RecognizedBlock(box: Rect(x: 0, y: 0, width: 1252, height: 811), lines: [edged, barsOnly, boxed])]
        let lines = PageReader.withoutEdgeBars(page, width: 1252).flatMap(\.lines)
        #expect(lines.map(\.text) == ["Thomas", "| Total |"])
        #expect(lines.first?.box == Rect(x: 338, y: 100, width: 297, height: 50))
        #expect(PageReader.withoutEdgeBars(page, width: 1252).count == 1)
        #expect(PageReader.withoutEdgeBars([RecognizedBlock(box: page[0].box, lines: [barsOnly])], width: 1252).isEmpty)
    }

    @Test(
        "An unsure line read down a sliver of a page read across goes; a sure one, a word on end and a turned page stay"
    )
    func sliversGo() {
        // The shape of seed 131000 form-03 enlarged: the page's left edge read as one line 5 × 795 px at 0.24.
        func line(_ text: String, _ box: Rect, confidence: Double) -> RecognizedLine {
            let word = RecognizedWord(
                text: text, confidence: Confidence(value: confidence, native: confidence * 100), box: box)
            return RecognizedLine(text: text, confidence: nil, box: box, words: [word])
        }
        let sliver = line("9 Cele ee eae ani See ow ei oo", Rect(x: 0, y: 43, width: 5, height: 795), confidence: 0.24)
        let across = (0..<4).map {
            line(
                "Vehicle Parking Permit Request", Rect(x: 160, y: 46 + 30 * Double($0), width: 286, height: 18),
                confidence: 0.95)
        }
        let sureSliver = line("ISBN 978 0 14", Rect(x: 590, y: 100, width: 12, height: 300), confidence: 0.9)
        let onEnd = line("PRICES", Rect(x: 500, y: 300, width: 20, height: 120), confidence: 0.3)
        let page = [
            RecognizedBlock(
                box: Rect(x: 0, y: 0, width: 606, height: 858), lines: across + [sliver, sureSliver, onEnd])
        ]
        let kept = PageReader.withoutSlivers(page).flatMap(\.lines)
        #expect(kept.count == 6)
        #expect(!kept.contains(sliver))
        #expect(PageReader.withoutEdgeNoise(page).flatMap(\.lines).allSatisfy { $0.box.width > 5 })
        // A page read as handed over, turned a quarter: every line runs down it, and none goes.
        let turned = [RecognizedBlock(box: page[0].box, lines: [sliver, sureSliver])]
        #expect(PageReader.withoutSlivers(turned) == turned)
    }
}
