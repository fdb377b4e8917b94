import DocScan
import DocScanGeometry
import DocScanRecognition
import Foundation
import Testing

@testable import DocScanTesseract

/// The reader of printed rules (rows of dashes and equals signs) that Tesseract's layout analysis removes.
@Suite("Rule lines")
struct RuleLineReaderTests {
    /// A white page 400 × 200 with dark pixels where `ink` says.
    static func page(_ ink: (Int, Int) -> Bool) -> GrayPixels {
        var bytes = [UInt8](repeating: 250, count: 400 * 200)
        for y in 0..<200 { for x in 0..<400 where ink(x, y) { bytes[y * 400 + x] = 30 } }
        return GrayPixels(width: 400, height: 200, bytes: bytes)
    }

    /// The rules the reader finds on `pixels`, whose characters are 20 pixels tall, with no line read.
    static func rules(in pixels: GrayPixels) -> [RuleLineReader.Rule] {
        RuleLineReader(pixels: pixels, glyphHeight: 20).rules(avoiding: [])
    }

    /// Twenty marks 8 pixels wide at a pitch of 14, starting at x = 40.
    static func onMark(_ x: Int) -> Bool { x >= 40 && x < 40 + 20 * 14 && (x - 40) % 14 < 8 }

    @Test("A row of dashes is read as that many dashes, with one box per dash")
    func dashes() {
        let pixels = Self.page { x, y in Self.onMark(x) && (99...100).contains(y) }
        let rules = Self.rules(in: pixels)
        #expect(rules.map(\.text) == [String(repeating: "-", count: 20)])
        #expect(rules.first?.marks.first == Rect(x: 40, y: 99, width: 8, height: 2))
    }

    @Test("Dashes split by paler pixels, and one faded past the ink level, are counted whole")
    func fadedDashes() {
        // The faint print of a thermal receipt: each dash has a column paler than the ink level, and the eighth dash
        // faded to a trace; the row still holds twenty printed characters.
        var pixels = Self.page { x, y in Self.onMark(x) && (99...100).contains(y) }
        for y in 99...100 {
            for mark in 0..<20 { pixels.bytes[y * 400 + 40 + 14 * mark + 3] = 175 }
            for x in (40 + 14 * 7)..<(40 + 14 * 7 + 8) { pixels.bytes[y * 400 + x] = 205 }
        }
        let rules = Self.rules(in: pixels)
        #expect(rules.map(\.text) == [String(repeating: "-", count: 20)])
        #expect(rules.first?.marks.first == Rect(x: 40, y: 99, width: 8, height: 2))
    }

    @Test("Equals signs whose two bars blur joined into one thick band are still equals signs")
    func joinedEqualsSigns() {
        let pixels = Self.page { x, y in Self.onMark(x) && (96...103).contains(y) }
        let rules = Self.rules(in: pixels)
        #expect(rules.map(\.text) == [String(repeating: "=", count: 20)])
    }

    @Test("A row whose marks blur joined along most of its length is read for the marks that stand apart")
    func partlyJoinedRow() {
        // Blur has grayed every gap of a row of 20 dashes, past what the grid of cells takes for separate marks; at
        // the fixed ink level the first 8 still part, the other 12 run together. The 8 are read: the 12 cost the
        // same characters whether the row is read in part or left out.
        var pixels = Self.page { x, y in Self.onMark(x) && (99...100).contains(y) }
        for y in 99...100 {
            for x in 40..<(40 + 19 * 14 + 8) where !Self.onMark(x) {
                pixels.bytes[y * 400 + x] = x < 40 + 8 * 14 ? 180 : 120
            }
        }
        let rules = Self.rules(in: pixels)
        #expect(rules.map(\.text) == [String(repeating: "-", count: 8)])
    }

    @Test("A long row of alike thin dashes whose gaps blur up to four tenths full is read whole; a short one is not")
    func longRowOfBlurredDashes() {
        // The faint rules of seed 155000 receipt-01 and 163000 receipt-05: gaps a third to four tenths as dark as the
        // dashes, and each dash printed as two pieces, so that the runs of ink at the fixed level keep no steady pitch.
        // Across a receipt (24 dashes) that is a rule; 8 such marks may be a band of print, and so may 24 marks that
        // are not alike (half of them, here and there, paler).
        func row(of count: Int, gap: UInt8, paler: UInt8? = nil) -> GrayPixels {
            var pixels = Self.page { x, y in
                x >= 40 && x < 40 + count * 14 && (x - 40) % 14 < 8 && (99...100).contains(y)
            }
            for y in 99...100 {
                for x in 40..<(40 + (count - 1) * 14 + 8) {
                    let column = (x - 40) % 14, mark = (x - 40) / 14
                    if column >= 8 {
                        pixels.bytes[y * 400 + x] = gap
                    } else if (3...4).contains(column) {
                        pixels.bytes[y * 400 + x] = 160
                    } else if let paler, [1, 2, 4, 7, 8, 10, 13, 14, 16, 19, 20, 22].contains(mark) {
                        pixels.bytes[y * 400 + x] = paler
                    }
                }
            }
            return pixels
        }
        #expect(Self.rules(in: row(of: 24, gap: 184)).map(\.text) == [String(repeating: "-", count: 24)])
        #expect(Self.rules(in: row(of: 24, gap: 162)).map(\.text) == [String(repeating: "-", count: 24)])
        #expect(Self.rules(in: row(of: 8, gap: 184)).isEmpty)
        #expect(Self.rules(in: row(of: 24, gap: 210, paler: 150)).isEmpty)
    }

    @Test("Blurred equals signs joined almost half way across the whole page are read; over part of it they are not")
    func blurredRowAcrossPage() {
        // A small receipt's separator row as blur leaves it (seeds 155000-169000, 2-3 MP): each sign's two bars one
        // band, the gaps between signs 0.48 as dark as the signs (too dark to part at the fixed ink level), too joined
        // for a row in general, but alike marks at a steady pitch across the receipt's whole width. Twenty such marks
        // over two thirds of the page are not.
        func row(from first: Int, count: Int) -> GrayPixels {
            var pixels = Self.page { x, y in
                x >= first && x < first + count * 14 && (x - first) % 14 < 8 && (96...103).contains(y)
            }
            for y in 96...103 {
                for x in first..<(first + (count - 1) * 14 + 8) where (x - first) % 14 >= 8 {
                    pixels.bytes[y * 400 + x] = 145
                }
            }
            return pixels
        }
        #expect(Self.rules(in: row(from: 12, count: 27)).map(\.text) == [String(repeating: "=", count: 27)])
        #expect(Self.rules(in: row(from: 40, count: 20)).isEmpty)
    }

    @Test("The page's outermost rows are no rule")
    func pageEdge() {
        let pixels = Self.page { x, y in Self.onMark(x) && y <= 1 }
        #expect(Self.rules(in: pixels).isEmpty)
    }

    @Test(
        "Both levels read a receipt's faint row of dashes, its marks broken by paler pixels, as its 40 dashes",
        arguments: ["fast", "accurate"])
    func faintDashesOnReceipt(level: String) async throws {
        // Seed 123000 receipt-07 (2 MP) as the pipeline flattens it, cut to the rule and the lines round it: 1-pixel
        // dashes at a pitch of 11.4 pixels, each dash paler than the ink in a column or two. Measured: 40 dashes at
        // both levels. Before the marks were counted on a grid, `accurate` read no rule on the receipt's whole page.
        let url = SamplePage.root.appendingPathComponent("Tests/DocScanTests/Fixtures/receipt-rule-faint-dashes.png")
        let page = try ImageLoader().load(contentsOf: url).image.pageImage()
        let recognizer = level == "fast" ? SamplePage.fast : SamplePage.accurate
        let read = try await recognizer.recognize(page, request: RecognitionRequest())
        let lines = read.text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        let rule = try #require(
            lines.firstIndex { !$0.isEmpty && $0.allSatisfy { $0 == "-" } }, "no rule in:\n\(read.text)")
        #expect(lines[rule] == String(repeating: "-", count: 40), "\(lines[rule].count) dashes")
        #expect(
            lines[..<rule].contains { $0.hasPrefix("Till") }
                && lines[(rule + 1)...].contains { $0.hasPrefix("Olive oil") }, "\(read.text)")
    }

    @Test("A page read sideways has no rules: the ends of its lines, one under another, repeat like dashes")
    func pageReadSideways() {
        let pixels = Self.page { x, y in Self.onMark(x) && (99...100).contains(y) }
        let upright = (0..<3).map { k in
            RecognizedLine(
                text: "TOTAL 3.00", confidence: nil, box: Rect(x: 40 + 30 * Double(k), y: 20, width: 15, height: 150))
        }
        #expect(RuleLineReader(pixels: pixels, glyphHeight: 20).rules(avoiding: upright).isEmpty)
    }

    @Test("Two bars one above the other are equals signs")
    func equalsSigns() {
        let pixels = Self.page { x, y in Self.onMark(x) && ((98...99).contains(y) || (103...104).contains(y)) }
        let rules = Self.rules(in: pixels)
        #expect(rules.map(\.text) == [String(repeating: "=", count: 20)])
    }

    @Test("The dashed side of a drawn box, a continuous rule and a row already read are not rules")
    func notRules() {
        let box = Self.page { x, y in
            (Self.onMark(x) && (99...100).contains(y)) || ((x == 40 || x == 40 + 19 * 14 + 7) && (99...140).contains(y))
        }
        #expect(Self.rules(in: box).isEmpty)
        let solid = Self.page { x, y in x >= 40 && x < 320 && (99...100).contains(y) }
        #expect(Self.rules(in: solid).isEmpty)
        let read = Self.page { x, y in Self.onMark(x) && (99...100).contains(y) }
        let line = RecognizedLine(text: "----", confidence: nil, box: Rect(x: 30, y: 90, width: 300, height: 20))
        #expect(RuleLineReader(pixels: read, glyphHeight: 20).rules(avoiding: [line]).isEmpty)
    }

    @Test("A box drawn in light grey is no rule, though its upright sides are fainter than the fixed ink level")
    func faintBoxSide() {
        // Seed 133000 form-01 (2 MP): the tops of four fields, broken into marks that blur half joined, were read as
        // rows of dashes because their sides (131-205, the paper near white) were looked for at the fixed level, 150.
        func page(withSides: Bool) -> GrayPixels {
            var bytes = [UInt8](repeating: 250, count: 400 * 200)
            for y in 99...100 { for x in 40..<320 { bytes[y * 400 + x] = Self.onMark(x) ? 30 : 184 } }
            if withSides { for y in 101...140 { for x in [38, 318] { bytes[y * 400 + x] = 170 } } }
            for y in 20..<50 { for x in 300..<340 { bytes[y * 400 + x] = 30 } }  // print, which sets the page's ink level
            return GrayPixels(width: 400, height: 200, bytes: bytes)
        }
        #expect(Self.rules(in: page(withSides: false)).map(\.text) == [String(repeating: "-", count: 20)])
        #expect(Self.rules(in: page(withSides: true)).isEmpty)
    }

    @Test("A box side broken into even marks is no rule even where its steady marks stop short of the box's corners")
    func boxSideWithUnevenEnds() {
        // Even marks from x = 40 to 320; nearer the corners (x = 10 and x = 380) the breaks are irregular.
        let box = Self.page { x, y in
            let side = (Self.onMark(x) || (10..<34).contains(x) || (326..<381).contains(x)) && (99...100).contains(y)
            return side || ((x == 10 || x == 380) && (99...140).contains(y))
        }
        #expect(Self.rules(in: box).isEmpty)
        let free = Self.page { x, y in
            (Self.onMark(x) || (10..<34).contains(x) || (326..<381).contains(x)) && (99...100).contains(y)
        }
        #expect(Self.rules(in: free).count == 1)
    }

    @Test("A row of equals signs that Tesseract read as nonsense of no confidence is read as the rule instead")
    func misreadEqualsSigns() {
        // Blur joined each sign's two bars into one band 15 pixels thick, 0.75 of the characters' height: thicker than
        // a rule found between read lines may be, so the band alone is no rule; Tesseract's line of no confidence
        // over it shows where one lies. A line read with confidence over the same band stays as read.
        let pixels = Self.page { x, y in Self.onMark(x) && (93...107).contains(y) }
        let reader = RuleLineReader(pixels: pixels, glyphHeight: 20)
        #expect(reader.rules(avoiding: []).isEmpty)
        let title = RecognizedLine(
            text: "GREEN VALLEY FOODS", confidence: Confidence(value: 0.9, native: 90),
            box: Rect(x: 40, y: 40, width: 280, height: 20))
        func read(_ confidence: Double) -> [String] {
            let misread = RecognizedLine(
                text: "SSSBVSSsStSsSesSSaSS", confidence: Confidence(value: confidence, native: 100 * confidence),
                box: Rect(x: 40, y: 93, width: 280, height: 15))
            let blocks = [RecognizedBlock(box: Rect(x: 40, y: 40, width: 280, height: 68), lines: [title, misread])]
            return RuleLineReader.replacingMisreadRules(blocks, reader: reader, region: nil) { _ in true }
                .flatMap(\.lines).map(\.text)
        }
        #expect(read(0) == ["GREEN VALLEY FOODS", String(repeating: "=", count: 20)])
        #expect(read(0.6) == ["GREEN VALLEY FOODS", "SSSBVSSsStSsSesSSaSS"])
        // Nor does a line of no confidence give way to a rule that the request's allowed characters leave out.
        let blocks = [RecognizedBlock(box: Rect(x: 40, y: 93, width: 280, height: 15), lines: [
            RecognizedLine(text: "SSSB", confidence: Confidence(value: 0, native: 0), box: Rect(x: 40, y: 93, width: 280, height: 15))
        ])]
        #expect(RuleLineReader.replacingMisreadRules(blocks, reader: reader, region: nil) { $0 != "=" } == blocks)
        // Small equals signs whose bars blur into a band as thin as a dash's are equals signs when Tesseract's reading
        // of the row says so.
        let thin = RuleLineReader(pixels: Self.page { x, y in Self.onMark(x) && (99...100).contains(y) }, glyphHeight: 20)
        let said = RecognizedLine(
            text: "Sassssssss===5=2=", confidence: Confidence(value: 0, native: 0), box: Rect(x: 40, y: 98, width: 280, height: 4))
        let read = RuleLineReader.replacingMisreadRules([RecognizedBlock(box: said.box, lines: [said])], reader: thin, region: nil) { _ in true }
        #expect(read.flatMap(\.lines).map(\.text) == [String(repeating: "=", count: 20)])
        // The rule put in place, which has no confidence (Tesseract did not read it), is no noise at a line's end for
        // the reading's later passes (`accurate`'s second look comes after it).
        #expect(PageReader.withoutEdgeNoise(read).flatMap(\.lines).map(\.text) == [String(repeating: "=", count: 20)])
    }

    @Test("A line of print read with no confidence is not taken for a rule")
    func misreadPrintStaysPrint() {
        // Uneven marks as tall as the characters, 8 to 20 pixels wide, some touching: no rule at any band thickness.
        let widths = [8, 14, 20, 9, 16, 11, 20, 8, 13, 18, 10, 15]
        var starts: [Int] = []
        var x = 40
        for (k, w) in widths.enumerated() { starts.append(x); x += w + (k % 3 == 0 ? 0 : 5) }
        let pixels = Self.page { x, y in
            (90...109).contains(y) && zip(starts, widths).contains { x >= $0 && x < $0 + $1 }
        }
        let line = RecognizedLine(
            text: "eoemc ew reece", confidence: Confidence(value: 0, native: 0), box: Rect(x: 40, y: 90, width: 200, height: 20))
        let blocks = [RecognizedBlock(box: line.box, lines: [line])]
        let reader = RuleLineReader(pixels: pixels, glyphHeight: 20)
        #expect(RuleLineReader.replacingMisreadRules(blocks, reader: reader, region: nil) { _ in true } == blocks)
    }

    @Test("Rules are put between the lines they lie between, in reading order")
    func placement() {
        let above = RecognizedLine(text: "Till 8", confidence: nil, box: Rect(x: 40, y: 60, width: 100, height: 20))
        let below = RecognizedLine(text: "TOTAL", confidence: nil, box: Rect(x: 40, y: 120, width: 100, height: 20))
        let block = RecognizedBlock(box: Rect(x: 40, y: 60, width: 100, height: 80), lines: [above, below])
        let rule = RuleLineReader.Rule(
            character: "-", marks: (0..<6).map { Rect(x: Double(40 + 14 * $0), y: 99, width: 8, height: 2) })
        let placed = RuleLineReader.adding([rule], to: [block])
        #expect(placed.count == 1)
        #expect(placed.first?.lines.map(\.text) == ["Till 8", "------", "TOTAL"])
        #expect(placed.first?.lines[1].confidence == nil)
    }

    @Test("Drawn lines are erased; the letters inside a box and a large bold letter are kept")
    func drawnLinesErased() throws {
        // A box 300 × 50 drawn with 2-pixel lines, a 10-pixel "letter" inside it, and a bold 6-pixel-wide bar as
        // tall as a title letter (36 pixels) outside.
        let pixels = Self.page { x, y in
            let box =
                ((40...340).contains(x) && ((60...61).contains(y) || (110...111).contains(y)))
                || ((40...41).contains(x) || (339...340).contains(x)) && (60...111).contains(y)
            let letter = (60...66).contains(x) && (80...92).contains(y)
            let bold = (20...25).contains(x) && (140...175).contains(y)
            return box || letter || bold
        }
        let erased = try #require(DrawnLineEraser(glyphHeight: 12).erasing(in: pixels))
        func isInk(_ x: Int, _ y: Int) -> Bool { erased.bytes[y * 400 + x] < 128 }
        #expect(!isInk(200, 60) && !isInk(200, 111) && !isInk(40, 85) && !isInk(340, 85))
        #expect(isInk(63, 86) && isInk(60, 80) && isInk(66, 92))
        #expect(isInk(22, 150) && isInk(20, 140))
    }

    @Test("A page of print is not ruled: a row along its letters is mostly strokes across it")
    func printIsNotRuled() {
        // Lines of letters set close (1-pixel gaps, like serifs that nearly touch), each letter 7 pixels wide: a
        // 12-pixel stem, a bar across its top and one across its bottom. The bars make rows of thin ink 380 pixels
        // long, broken only by the stems.
        let pixels = Self.page { x, y in
            let row = (y - 20) % 24, cell = (x - 10) % 8
            guard y >= 20, y < 180, x >= 10, x < 390, row < 12, cell < 7 else { return false }
            return cell < 2 || row < 2 || row >= 10
        }
        #expect(DrawnLineEraser(glyphHeight: 12).erasing(in: pixels) == nil)
    }
}
