@testable import DocScan
import DocScanMetrics
import Foundation
import Testing

/// A synthetic flat page: rows of dark "words" on paper, with a soft top-to-bottom light fall-off and, optionally, a
/// hard-edged shadow over the right half. Returns the page and a mask of which pixels are ink.
func syntheticPage(width: Int = 800, height: Int = 1000, hardShadow: Bool) throws -> (Image, [Bool]) {
    var ink = [Bool](repeating: false, count: width * height)
    var y = 60
    var row = 0
    while y + 14 < height - 60 {
        var x = 50 + (row % 3) * 7
        var word = 0
        while x < width - 60 {
            let length = 18 + ((word * 37 + row * 11) % 50)
            for yy in y..<(y + 14) {
                for xx in x..<min(x + length, width - 50) where (xx + yy) % 5 != 0 { ink[yy * width + xx] = true }
            }
            x += length + 12
            word += 1
        }
        y += 30
        row += 1
    }
    let image = try makeImage(width: width, height: height, format: .gray) { x, y in
        var value = ink[y * width + x] ? 45.0 : 235.0
        value *= 1.0 - 0.25 * Double(y) / Double(height)  // light falls off towards the bottom
        if hardShadow && x >= width / 2 { value *= 0.45 }
        return [UInt8(value)]
    }
    return (image, ink)
}

func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }

@Suite("Illumination")
struct IlluminationTests {
    @Test(
        "A hard shadow edge and a light gradient disappear; ink keeps its contrast",
        arguments: IlluminationCorrector.Mode.allCases)
    func flattensHardShadow(_ mode: IlluminationCorrector.Mode) throws {
        let (page, ink) = try syntheticPage(hardShadow: true)
        let flat = try IlluminationCorrector(mode: mode).correct(page).grayscale()
        let width = page.width
        var paperLeft: [Double] = [], paperRight: [Double] = [], inkLeft: [Double] = [], inkRight: [Double] = []
        for y in stride(from: 40, to: page.height - 40, by: 3) {
            for x in stride(from: 20, to: width - 20, by: 3) where abs(x - width / 2) > 8 {
                // Paper: no ink within 3 px. Ink: ink with ink all around.
                let around = (-3...3).flatMap { dy in (-3...3).map { dx in ink[(y + dy) * width + x + dx] } }
                let value = Double(flat.pixel(x: x, y: y)[0])
                if !around.contains(true) {
                    if x < width / 2 { paperLeft.append(value) } else { paperRight.append(value) }
                } else if ink[y * width + x], around.filter({ $0 }).count > 35 {
                    if x < width / 2 { inkLeft.append(value) } else { inkRight.append(value) }
                }
            }
        }
        #expect(
            median(paperLeft) >= 245 && median(paperRight) >= 245, "paper \(median(paperLeft)) | \(median(paperRight))")
        #expect(abs(median(paperLeft) - median(paperRight)) <= 4)
        // Nearly all of the paper is white, on both sides of the shadow edge.
        let allPaper = (paperLeft + paperRight).sorted()
        #expect(allPaper[allPaper.count / 50] >= 225, "2nd percentile of paper: \(allPaper[allPaper.count / 50])")
        #expect(median(inkLeft) <= 90 && median(inkRight) <= 90, "ink \(median(inkLeft)) | \(median(inkRight))")
    }

    /// A 600 × 400 page of `paper` with rows of 3-pixel strokes of `ink`, like lines of small print.
    static func printedPage(paper: UInt8, ink: UInt8) throws -> Image {
        try makeImage(width: 600, height: 400, format: .gray) { x, y in
            let inLine = (y % 40) >= 10 && (y % 40) < 26 && x >= 40 && x < 560
            return [inLine && (x % 9) < 3 ? ink : paper]
        }
    }

    static func medianValue(_ image: Image, where wanted: (Int, Int) -> Bool) -> Int {
        var values: [UInt8] = []
        image.withUnsafePixels { pixels, bytesPerRow in
            for y in 0..<image.height {
                for x in 0..<image.width where wanted(x, y) { values.append(pixels[y * bytesPerRow + x]) }
            }
        }
        return Int(values.sorted()[values.count / 2])
    }

    static func isStroke(_ x: Int, _ y: Int) -> Bool { (y % 40) >= 12 && (y % 40) < 24 && x >= 40 && x < 560 && x % 9 == 1 }
    static func isPaper(_ x: Int, _ y: Int) -> Bool { (y % 40) < 6 || (y % 40) >= 30 }

    @Test("Faint print keeps its contrast for people and for a recognizer, on paper that turns white")
    func faintInkKeepsContrast() throws {
        // Ink at 85% of the paper's brightness: thin, blurred print seen from afar (a faded receipt's strokes, 0.85 to
        // 0.95 of its paper once warped, vanished from the display rendering when it whitened all above 0.9).
        let page = try Self.printedPage(paper: 200, ink: 170)
        let display = try IlluminationCorrector(mode: .gray).correct(page)
        let reading = try IlluminationCorrector.readingImage(of: page)
        let displayStroke = Self.medianValue(display, where: Self.isStroke)
        let readingStroke = Self.medianValue(reading, where: Self.isStroke)
        #expect(Self.medianValue(display, where: Self.isPaper) >= 250 && Self.medianValue(reading, where: Self.isPaper) >= 245)
        #expect(readingStroke <= 225 && displayStroke <= 225, "strokes \(displayStroke) | \(readingStroke)")
    }

    @Test("Light print on a dark card stays light for people and turns dark on white for a recognizer")
    func lightPrintOnDarkPaper() throws {
        let card = try Self.printedPage(paper: 40, ink: 220)
        let display = try IlluminationCorrector(mode: .gray).correct(card)
        // The input image is a value: correcting it leaves it as it was.
        #expect(Self.medianValue(card, where: Self.isPaper) == 40 && Self.medianValue(card, where: Self.isStroke) == 220)
        #expect(Self.medianValue(display, where: Self.isPaper) <= 60)
        #expect(Self.medianValue(display, where: Self.isStroke) >= 180)
        let reading = try IlluminationCorrector.readingImage(of: card)
        #expect(Self.medianValue(reading, where: Self.isPaper) >= 240)
        #expect(Self.medianValue(reading, where: Self.isStroke) <= 60)
        // White print on pale card stock (pink, say) stands only about 30 levels above it.
        let paleCard = try IlluminationCorrector.readingImage(of: try Self.printedPage(paper: 190, ink: 222))
        #expect(Self.medianValue(paleCard, where: Self.isPaper) >= 240)
        #expect(Self.medianValue(paleCard, where: Self.isStroke) <= 100)
        // Dark print on light paper is never inverted.
        let page = try IlluminationCorrector.readingImage(of: try Self.printedPage(paper: 210, ink: 40))
        #expect(Self.medianValue(page, where: Self.isPaper) >= 240 && Self.medianValue(page, where: Self.isStroke) <= 60)
    }

    @Test("Colour mode keeps three channels; gray and black-and-white give one")
    func channels() throws {
        let color = try makeImage(width: 64, height: 64) { x, _ in [200, 180, UInt8(100 + x)] }
        #expect(try IlluminationCorrector(mode: .color).correct(color).pixelFormat == .bgr)
        #expect(try IlluminationCorrector(mode: .gray).correct(color).pixelFormat == .gray)
        let bw = try IlluminationCorrector(mode: .blackAndWhite).correct(color)
        #expect(bw.pixelFormat == .gray)
        #expect(bw.withUnsafePixels { pixels, _ in pixels.allSatisfy { $0 == 0 || $0 == 255 } })
    }
}

@Suite("Text layout and spreads")
struct TextLayoutTests {
    /// A flat, upright prose page from the corpus, scanned by the real pipeline.
    static let flatPage: Image? = {
        guard let name = TestData.corpusPhotos.first(where: { $0.hasPrefix("prose") }) else { return nil }
        var options = DocumentScanner.Options()
        options.lightMode = .gray
        let result = try? DocumentScanner(options: options).scan(
            contentsOf: TestData.corpus.appendingPathComponent(name))
        return try? result?.pages.first?.image.fitting(longSide: 1200)
    }()

    @Test("Quarter turns are found on a real page", arguments: 0..<4)
    func quarterTurns(_ turns: Int) throws {
        let page = try #require(Self.flatPage)
        let base = try TextLayoutAnalyzer().analyze(page)
        #expect(base.quarterTurns == 0)
        let layout = try TextLayoutAnalyzer().analyze(page.rotated(quarterTurns: turns))
        #expect(layout.quarterTurns == (4 - turns) % 4, "turned \(turns): \(layout)")
        #expect(layout.lineConfidence > 0.3)
    }

    @Test("Light print on dark card stock is read for its lines and turned upright", arguments: 0..<4)
    func darkCard(_ turns: Int) throws {
        // Seed 19019 (2.8 MP): a dark card with light print, photographed upside down (182°).
        let result = try DocumentScanner().scan(contentsOf: TestData.fixture("dark-card-upside-down.jpg"))
        let page = try #require(result.pages.first)
        #expect(result.pages.count == 1)
        #expect(page.rotation == 180)
        let preview = try page.image.fitting(longSide: 1000)
        let layout = try TextLayoutAnalyzer().analyze(preview.rotated(quarterTurns: turns))
        #expect(layout.quarterTurns == (4 - turns) % 4, "turned \(turns): \(layout)")
    }

    @Test("White print on a pale pink card is turned upright")
    func palePinkCard() throws {
        // Seed 27000 card-06 (2.8 MP, JPEG quality 80 here): white print only 25-40 grey levels lighter than its
        // pink card, photographed at 82°. Its print was taken for paper: the page stayed sideways and read as nothing.
        let result = try DocumentScanner().scan(contentsOf: TestData.fixture("white-print-on-pink-card.jpg"))
        let page = try #require(result.pages.first)
        #expect(result.pages.count == 1)
        #expect(page.rotation == 90)
        #expect(page.image.width > page.image.height)
    }

    @Test("A scanned page turned by quarters keeps its corners in reading order and its map into the photo", arguments: 1..<4)
    func turnedPage(_ turns: Int) throws {
        let page = try #require(try DocumentScanner().scan(contentsOf: TestData.fixture("caps-label.jpg")).pages.first)
        let turned = try page.turned(quarterTurns: turns)
        let (width, height) = turns % 2 == 0 ? (page.image.width, page.image.height) : (page.image.height, page.image.width)
        #expect(turned.image.width == width && turned.image.height == height)
        #expect(turned.unlitImage.width == width && turned.unlitImage.height == height)
        #expect(turned.rotation == (page.rotation + 360 - 90 * turns) % 360)
        // The turned page's corners, mapped into the photo, are its quad's corners in order.
        let corners = [Point(x: 0, y: 0), Point(x: Double(width - 1), y: 0), Point(x: Double(width - 1), y: Double(height - 1)), Point(x: 0, y: Double(height - 1))]
        for (corner, expected) in zip(corners, turned.quad.corners) {
            #expect(turned.photoPoint(for: corner).distance(to: expected) < 2, "\(corner) -> \(turned.photoPoint(for: corner)), quad \(expected)")
        }
        // The same ink: the turned image is the page's image turned.
        #expect(try turned.image.encoded() == (try page.image.rotated(quarterTurns: turns).encoded()))
    }

    @Test("A label of capitals and digits is not turned over: its shapes say nothing about up and down")
    func capitalsStayAsTheyAre() throws {
        // SN 1W2K-RAAY-E0CO / LOT 83685957/4890 / REF #QY8Z-IDT3, upright (made by Plugins/glyphs/make_codes.py):
        // the slash and the Q's tail below the baseline once read as descenders, and the label came out upside down.
        let result = try DocumentScanner().scan(contentsOf: TestData.fixture("caps-label.jpg"))
        #expect(result.pages.map(\.rotation) == [0])
        let layout = try TextLayoutAnalyzer().analyze(result.pages[0].image.rotated(quarterTurns: 2))
        #expect(TextLayoutAnalyzer().decision(for: layout).quarterTurns == 0, "turned over, it stays as given: \(layout)")
    }

    @Test("A till receipt is turned upright by its thin, faint print, not only its bold lines", arguments: [0, 2])
    func faintReceipt(_ turns: Int) throws {
        // Seed 33000 receipt-01, flattened upside down by the scanner (gray, JPEG quality 70): thin item lines beside a
        // bold heading, totals and a barcode. Otsu's threshold fell between the two and kept only the bold ones, and
        // the receipt was left upside down.
        try expectTurnedOver("faint-receipt-upside-down.jpg", turns: turns)
    }

    @Test("A till receipt with its barcode at the top is upside down", arguments: [0, 2])
    func receiptBarcode(_ turns: Int) throws {
        // Seed 31000 receipt-04 (2 MP, shaken), flattened upside down (gray, JPEG quality 70): its shop name, in large
        // capitals at the bottom, was no taller than its bold total line, and its letter shapes too blurred to tell;
        // the barcode, printed at a receipt's end, was not counted, and the receipt was left upside down.
        try expectTurnedOver("receipt-upside-down-barcode-at-top.jpg", turns: turns)
    }

    @Test("A receipt in capitals lying upside down is turned over, its commas above the lines no ascenders", arguments: [0, 2])
    func upsideDownCapitals(_ turns: Int) throws {
        // Seed 245000 multi-01's receipt as the scanner previewed it (shaken 4.4 px in a 2 MP photo; gray, JPEG quality
        // 60), upside down, its barcode at the top: capitals and digits only, whose commas and slashes lay above the
        // lines. Taken for ascenders, they said upright (1.0) over the barcode, while the receipt the right way up,
        // with those marks below the lines and nothing above, said nothing from its letters.
        try expectTurnedOver("shaken-receipt-upside-down-in-capitals.jpg", turns: turns)
    }

    @Test("A receipt's bold heading is not taken for a barcode")
    func boldHeadingIsNoBarcode() throws {
        // Corpus receipt-03 (2 MP, photographed at 275°): its shop name in large bold capitals fills its band with
        // upright strokes as a barcode's bars do, but half its columns are inked only in part. Taken for a barcode, it
        // put the receipt's end at the top.
        let result = try DocumentScanner().scan(contentsOf: TestData.corpus.appendingPathComponent("receipt-03.jpg"))
        #expect(result.pages.map(\.rotation) == [270])
    }

    @Test("A card is judged by its print, not its logo's large letters", arguments: [0, 2])
    func cardWithLogo(_ turns: Int) throws {
        // Seed 33000 multi-05's card (3 MP, shaken), flattened upside down (gray, JPEG quality 70): a monogram in a box
        // beside the name, title and company. Its letters, five times as tall as the print, merged those three lines
        // into one band whose shapes said the card was upright.
        try expectTurnedOver("card-with-logo-upside-down.jpg", turns: turns)
    }

    /// Expects the flat page in `fixture`, which lies upside down, to be turned over when analysed as it is, and to
    /// stay as it is when given a half turn first (`turns` 0 or 2).
    func expectTurnedOver(_ fixture: String, turns: Int, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let page = try ImageLoader().load(contentsOf: TestData.fixture(fixture)).image
        let layout = try TextLayoutAnalyzer().analyze(page.rotated(quarterTurns: turns))
        #expect(
            TextLayoutAnalyzer().decision(for: layout).quarterTurns == (2 + turns) % 4, "turned \(turns): \(layout)",
            sourceLocation: sourceLocation)
    }

    /// A document's outline in a photo, flattened with its top towards `facing` degrees (screen angles: -90 is up).
    static func outline(facing degrees: Double, centre: Point = Point(x: 1000, y: 1000)) -> Quad {
        let angle = (degrees + 90) * .pi / 180  // the direction of the outline's right side
        let right = Point(x: cos(angle) * 100, y: sin(angle) * 100), up = Point(x: sin(angle) * 60, y: -cos(angle) * 60)
        func corner(_ r: Double, _ u: Double) -> Point {
            Point(x: centre.x + r * right.x + u * up.x, y: centre.y + r * right.y + u * up.y)
        }
        return Quad([corner(-1, 1), corner(1, 1), corner(1, -1), corner(-1, -1)])
    }

    static let clear = TextLayout(quarterTurns: 0, skewDegrees: 1, lineConfidence: 0.8, uprightConfidence: 0.9)

    @Test("A page whose letters say little about up and down faces the way the clearest page of its photo faces")
    func unclearPageFollowsClearOne() {
        let analyzer = TextLayoutAnalyzer()
        // Both outlines face up in the photo as flattened; the clear page stays upright, so the photo's way is up.
        let unsure = TextLayout(quarterTurns: 2, skewDegrees: -2, lineConfidence: 0.7, uprightConfidence: 0.1)
        let decisions = analyzer.decisions(for: [
            (Self.outline(facing: -90), Self.clear), (Self.outline(facing: -90, centre: Point(x: 400, y: 900)), unsure),
        ])
        #expect(decisions.map(\.quarterTurns) == [0, 0])
        #expect(decisions[1].skewDegrees == -2, "a half turn keeps the skew of the lines")
        // Flattened facing down and a little left in the photo, upright as it is by its own unsure verdict: turned
        // half round, it faces up within 10 degrees.
        let upright = TextLayout(quarterTurns: 0, skewDegrees: 0, lineConfidence: 0.7, uprightConfidence: 0.1)
        let tilted = analyzer.decisions(for: [
            (Self.outline(facing: -90), Self.clear), (Self.outline(facing: 100), upright),
        ])
        #expect(tilted[1].quarterTurns == 2, "\(tilted)")
    }

    @Test("A page whose lines show no direction takes any quarter turn to face the photo's way, and loses its skew")
    func pageWithoutLinesFollowsClearOne() {
        let faint = TextLayout(quarterTurns: 0, skewDegrees: 3, lineConfidence: 0.2, uprightConfidence: 0.0)
        let decisions = TextLayoutAnalyzer().decisions(for: [
            (Self.outline(facing: -90), Self.clear), (Self.outline(facing: 180), faint),
        ])
        // Flattened facing left, its top towards the photo's up is three quarter turns clockwise away.
        #expect(decisions[1].quarterTurns == 3, "\(decisions)")
        #expect(decisions[1].skewDegrees == 0)
    }

    @Test("A long page lying across stands up on fainter evidence that its lines run across its width")
    func longPageLyingAcrossStands() {
        let analyzer = TextLayoutAnalyzer()
        // A receipt flattened lying across (3.7 times as wide as tall), its lines faint (0.1): seed 175000 receipt-04.
        let receipt = TextLayout(
            quarterTurns: 3, skewDegrees: 0, lineConfidence: 0.1, uprightConfidence: 0.9, aspectRatio: 3.7)
        #expect(analyzer.decision(for: receipt).quarterTurns == 3)
        // As faint on a page that is not long, or where the lines run along the page's length, nothing is turned.
        var square = receipt
        square.aspectRatio = 1.4
        #expect(analyzer.decision(for: square).quarterTurns == 0)
        var along = receipt
        along.quarterTurns = 2
        #expect(analyzer.decision(for: along).quarterTurns == 0)
        var blank = receipt
        blank.lineConfidence = 0.02
        #expect(analyzer.decision(for: blank).quarterTurns == 0, "no lines at all: no evidence")
        // With a clear page in the photo, an unclear long page lying across takes the quarter turn that makes it
        // stand facing the photo's way, not the half turn that would face it as well but leave it lying.
        let faintLong = TextLayout(
            quarterTurns: 0, skewDegrees: 0, lineConfidence: 0.0, uprightConfidence: 0.0, aspectRatio: 3.5)
        let decisions = analyzer.decisions(for: [
            (Self.outline(facing: -90), Self.clear), (Self.outline(facing: -90, centre: Point(x: 400, y: 900)), faintLong),
        ])
        #expect([1, 3].contains(decisions[1].quarterTurns), "\(decisions)")
        // Alone, with no lines found at all, it stands with its top towards the photo's top: flattened with its top
        // facing right in the photo, a quarter turn clockwise; facing left, three.
        #expect(analyzer.decisions(for: [(Self.outline(facing: 0), faintLong)]).map(\.quarterTurns) == [1])
        #expect(analyzer.decisions(for: [(Self.outline(facing: 180), faintLong)]).map(\.quarterTurns) == [3])
        var faintSquare = faintLong
        faintSquare.aspectRatio = 1.5
        #expect(analyzer.decisions(for: [(Self.outline(facing: 0), faintSquare)]).map(\.quarterTurns) == [0])
    }

    @Test("Clear pages keep their own way up, and with no clear page, or only one page, every page does")
    func clearPagesKeepTheirWay() {
        let analyzer = TextLayoutAnalyzer()
        let alsoClear = TextLayout(quarterTurns: 2, skewDegrees: 0, lineConfidence: 0.6, uprightConfidence: 0.55)
        let unsure = TextLayout(quarterTurns: 2, skewDegrees: 0, lineConfidence: 0.7, uprightConfidence: 0.1)
        #expect(
            analyzer.decisions(for: [(Self.outline(facing: -90), Self.clear), (Self.outline(facing: -90), alsoClear)])
                .map(\.quarterTurns) == [0, 2])
        let halfSure = TextLayout(quarterTurns: 0, skewDegrees: 0, lineConfidence: 0.35, uprightConfidence: 0.55)
        #expect(
            analyzer.decisions(for: [(Self.outline(facing: -90), halfSure), (Self.outline(facing: -90), unsure)])
                .map(\.quarterTurns) == [0, 2], "no guide: each page decides alone")
        #expect(analyzer.decisions(for: [(Self.outline(facing: 90), unsure)]).map(\.quarterTurns) == [2])
    }

    @Test("A card among receipts whose print says little about its way up is turned as they are")
    func cardFollowsReceipts() throws {
        // Corpus multi-04 (12 MP, turned 270 degrees): two receipts and a card. The card's name, title and small
        // print told its way up too faintly (upright confidence under 0.5), and it came out upside down.
        let photo = TestData.corpus.appendingPathComponent("multi-04.jpg")
        let truth = try GroundTruth(contentsOf: try #require(GroundTruth.file(for: photo)))
        let result = try DocumentScanner().scan(contentsOf: photo)
        let score = DetectionScore(found: result.pages.map { ($0.quad, $0.rotation) }, truth: truth.pages)
        #expect(score.rotationCorrect == [true, true, true], "\(score)")
    }

    @Test("Both pages of a spread that lean different ways are turned upright, in reading order", arguments: 1..<4)
    func turnedSpread(_ turns: Int) throws {
        // Corpus spread-05: its pages lean about a degree apart. Judged over the whole spread at one angle, the
        // x-height bands blurred and the spread came out upside down when the photo was turned by half or quarter
        // turns; each quarter of the page is now judged at its own angle.
        var loaded = try ImageLoader().load(contentsOf: TestData.corpus.appendingPathComponent("spread-05.jpg"))
        let upright = try DocumentScanner().scan(loaded)
        #expect(upright.pages.map(\.rotation) == [0, 0])
        loaded.image = try loaded.image.rotated(quarterTurns: turns)
        let turned = try DocumentScanner().scan(loaded)
        #expect(turned.pages.map(\.rotation) == [90 * turns, 90 * turns])
        // The left page still comes first: each page's centre is the upright page's, turned with the photo.
        func centre(_ quad: Quad) -> Point {
            Point(x: quad.corners.map(\.x).reduce(0, +) / 4, y: quad.corners.map(\.y).reduce(0, +) / 4)
        }
        var size = (width: Double(upright.width), height: Double(upright.height))
        var centres = upright.pages.map { centre($0.quad) }
        for _ in 0..<turns {  // a quarter turn clockwise takes (x, y) to (height - 1 - y, x)
            centres = centres.map { Point(x: size.height - 1 - $0.y, y: $0.x) }
            size = (size.height, size.width)
        }
        for (page, expected) in zip(turned.pages, centres) {
            #expect(centre(page.quad).distance(to: expected) < 20, "page \(page.index): \(centre(page.quad)), expected \(expected)")
        }
    }

    @Test("Residual skew is measured to a few tenths of a degree", arguments: [-8.0, -3.0, 1.5, 6.0])
    func skew(_ degrees: Double) throws {
        let page = try #require(Self.flatPage)
        let base = try TextLayoutAnalyzer().analyze(page).skewDegrees
        let centre = Point(x: Double(page.width - 1) / 2, y: Double(page.height - 1) / 2)
        // Turning the page clockwise by d makes its lines lean by −d in the counter-clockwise-positive convention.
        let turned = try page.warped(
            by: .rotation(degrees: degrees, about: centre), width: page.width, height: page.height)
        let measured = try TextLayoutAnalyzer().analyze(turned).skewDegrees
        #expect(abs((measured - base) - -degrees) < 0.3, "expected \(-degrees), measured \(measured - base)")
    }

    @Test("A spread a recognizer finds upside down swaps its halves; separate documents keep their order")
    func spreadTurnedOver() throws {
        let spread = try DocumentScanner().scan(contentsOf: TestData.corpus.appendingPathComponent("spread-02.jpg"))
        try #require(spread.pages.map(\.spreadSide) == [.left, .right])
        let (turned, newIndices) = try spread.turningPages([1: 2, 2: 2])
        #expect(newIndices == [1: 2, 2: 1])
        #expect(turned.pages.map(\.index) == [1, 2])
        #expect(turned.pages.map(\.spreadSide) == [.left, .right])
        #expect(turned.pages.map(\.rotation) == spread.pages.map { ($0.rotation + 180) % 360 })
        // What was cut as the right half is now the left page, upside down: its top-left corner is the old
        // bottom-right.
        #expect(turned.pages[0].quad.topLeft == spread.pages[1].quad.bottomRight)
        #expect(turned.pages[1].quad.topLeft == spread.pages[0].quad.bottomRight)
        #expect(try turned.pages[0].image.encoded() == (try spread.pages[1].image.rotated(quarterTurns: 2).encoded()))

        // One half turned alone is a disagreement, not an upside-down spread: no swap.
        #expect(try spread.turningPages([1: 2]).newIndices == [1: 1, 2: 2])

        let documents = try DocumentScanner().scan(contentsOf: TestData.corpus.appendingPathComponent("multi-03.jpg"))
        try #require(documents.pages.count == 2 && documents.pages.allSatisfy { $0.spreadSide == nil })
        let (turnedDocuments, documentIndices) = try documents.turningPages([1: 2, 2: 2])
        #expect(documentIndices == [1: 1, 2: 2])
        #expect(turnedDocuments.pages.map(\.quad.bottomRight) == documents.pages.map(\.quad.topLeft))
    }

    /// Two copies of a page side by side, with a gap and optionally a shaded fold between them.
    static func sideBySide(_ page: Image, shadedFold: Bool) throws -> Image {
        let gray = try page.grayscale()
        let gap = gray.width / 12
        let width = gray.width * 2 + gap, height = gray.height
        let mid = Double(width) / 2
        return try makeImage(width: width, height: height, format: .gray) { x, y in
            let source: UInt8
            if x < gray.width {
                source = gray.pixel(x: x, y: y)[0]
            } else if x >= gray.width + gap {
                source = gray.pixel(x: x - gray.width - gap, y: y)[0]
            } else {
                source = 250
            }
            guard shadedFold else { return [source] }
            let distance = abs(Double(x) - mid) / Double(width)
            return [UInt8(Double(source) * (1 - 0.45 * exp(-distance * distance / 0.0008)))]
        }
    }

    @Test("A spread's shaded fold is found at its place; two columns without a fold are never split")
    func gutter() throws {
        let page = try #require(Self.flatPage).fitting(longSide: 700)
        let spread = try Self.sideBySide(page, shadedFold: true)
        let gutter = try #require(try SpreadSplitter().findGutter(in: spread))
        #expect(abs(gutter.topX - Double(spread.width) / 2) < Double(spread.width) * 0.01)
        #expect(abs(gutter.bottomX - Double(spread.width) / 2) < Double(spread.width) * 0.01)
        #expect(try SpreadSplitter().findGutter(in: Self.sideBySide(page, shadedFold: false)) == nil)
        #expect(try SpreadSplitter().findGutter(in: page) == nil)
    }

    @Test("Dark stock with light print is never split, though its shading dips in the middle as a fold does")
    func darkStockHasNoGutter() throws {
        // Seed 99000 multi-03: a maroon business card (median 34 of 255), its name on the left and its address on the
        // right, was cut in two where its shading dipped by 7 between them.
        #expect(try SpreadSplitter().findGutter(in: Self.twoBlockCard(stock: 45, ink: 215)) == nil)
        // The same card as light stock with dark print is taken for a spread: what tells them apart is the stock.
        #expect(try SpreadSplitter().findGutter(in: Self.twoBlockCard(stock: 235, ink: 40)) != nil)
    }

    @Test("A finger's shadow down part of a card is no fold: a fold is darker than both its sides all the way down")
    func fingerShadowIsNoGutter() throws {
        // Seed 251000 card-06: a hand's shadow over a white card dipped by 18 levels down the middle on average, and
        // the card was cut in two there; but in 4 of the 12 bands of rows the dip was darker than one side only.
        #expect(try SpreadSplitter().findGutter(in: Self.twoBlockCard(stock: 235, ink: 40, shadedFrom: 0.45)) == nil)
        // Shaded all the way down, the same card is taken for a spread.
        #expect(try SpreadSplitter().findGutter(in: Self.twoBlockCard(stock: 235, ink: 40)) != nil)
    }

    /// A card 1000 × 620 of `stock` grey with lines of `ink` in two blocks (a name on the left, an address on the
    /// right), shaded down the middle by up to 30% from the row `shadedFrom` (a fraction of the height) to the bottom.
    static func twoBlockCard(stock: Double, ink: Double, shadedFrom: Double = 0) throws -> Image {
        let width = 1000, height = 620
        func inBlock(_ x: Int, _ y: Int, columns: Range<Int>, rows: Range<Int>) -> Bool {
            columns.contains(x) && rows.contains(y) && (y - rows.lowerBound) % 50 < 14 && x % 6 < 3
        }
        return try makeImage(width: width, height: height, format: .gray) { x, y in
            let name = inBlock(x, y, columns: 80..<420, rows: 120..<260)
            let address = inBlock(x, y, columns: 600..<920, rows: 380..<520)
            let distance = abs(Double(x) - Double(width) / 2) / Double(width)
            let shaded = Double(y) >= shadedFrom * Double(height)
            let shade = shaded ? 1 - 0.3 * exp(-distance * distance / 0.0008) : 1
            return [UInt8((name || address ? ink : stock) * shade)]
        }
    }

    /// The width of ``rectifiedBook(paper:)``'s border: a dark cover (10 px) and a grey page block (8 px).
    static let bookBorder = 18

    /// A rectified book, 1000 × 700: its cover and page block all round, and inside them paper whose gray level at
    /// each column `paper` gives.
    static func rectifiedBook(paper: @escaping (Int) -> Double) throws -> Image {
        try makeImage(width: 1000, height: 700, format: .gray) { x, y in
            let edge = min(x, y, 999 - x, 699 - y)
            if edge < 10 { return [60] }
            if edge < bookBorder { return [150] }
            return [UInt8(paper(x))]
        }
    }

    @Test("A book's border is trimmed at the step onto the page, not where the shade along a curled page's fore-edge fades")
    func borderTrimmedAtStep() throws {
        // Along the left the paper's shade rises smoothly from 160 to 205 over 80 px (seed 61000 spread-05's left page
        // was cut 60-85 px short where that shade came within 20 levels of the paper).
        let border = Self.bookBorder
        let book = try Self.rectifiedBook { x in x < border + 80 ? 160 + 45 * Double(x - border) / 80 : 205 }
        let insets = try #require(try BorderTrimmer().border(of: book))
        for (side, inset) in [("left", insets.left), ("top", insets.top), ("right", insets.right), ("bottom", insets.bottom)] {
            #expect(abs(inset - Double(border)) <= 2, "\(side) inset \(inset)")
        }
    }

    @Test("A page shaded all along one side of its book is trimmed at the step onto it, though the shade never nears the paper further in")
    func borderTrimmedBeforeShadedPage() throws {
        // The left 160 px of paper lie in a level shade (170) 35 levels under the paper further in (205), the far page
        // of a tilted spread (seed 71000 spread-01).
        let book = try Self.rectifiedBook { x in x < 160 ? 170 : 205 }
        let insets = try #require(try BorderTrimmer().border(of: book))
        #expect(abs(insets.left - Double(Self.bookBorder)) <= 2, "left inset \(insets.left)")
    }

    @Test("A hand's shadow across the end of a page is not taken for the book's border")
    func borderTrimmedBeforeShadowAcrossPage() throws {
        // Seed 147000 spread-06: a hand's shadow lies across the end of the upper page, level for 40-odd columns of
        // the working copy and 55 levels under the lit paper, its edge a sharp rise; the page was cut at the shadow's
        // edge, 80 px short (IoU 0.897). Here the left 48 px of paper lie in such a shade (175 against 230), its edge
        // rising over 6 px.
        let border = Self.bookBorder
        let book = try Self.rectifiedBook { x in
            x < border + 48 ? 175 : x < border + 54 ? 175 + 55 * Double(x - border - 48) / 6 : 230
        }
        let insets = try #require(try BorderTrimmer().border(of: book))
        #expect(abs(insets.left - Double(border)) <= 2, "left inset \(insets.left)")
        #expect(abs(insets.right - Double(border)) <= 2, "right inset \(insets.right)")
    }

    @Test("A page's margin under a hand's fingers, unevenly shaded, is not taken for the book's border")
    func borderTrimmedBeforeFingersShadow() throws {
        // Seed 255000 spread-01: a hand's shadow over the left page's margin, its fingers shading it from 161 to 192
        // where the paper is 216, its edge sharp, 77 columns of the working copy from the page's edge; the page was cut
        // at the shadow's edge (IoU 0.851). Here 75 px of paper lie in such shade, 165 to 190 and back.
        let border = Self.bookBorder
        let book = try Self.rectifiedBook { x in
            x < border + 75 ? 177.5 + 12.5 * sin(Double(x) / 5) : 216
        }
        let insets = try #require(try BorderTrimmer().border(of: book))
        #expect(abs(insets.left - Double(border)) <= 2, "left inset \(insets.left)")
        #expect(abs(insets.right - Double(border)) <= 2, "right inset \(insets.right)")
    }

    @Test("A wide page block as level as shade is trimmed off: its sharp edge onto the page is no shadow's")
    func borderTrimmedPastWidePageBlock() throws {
        // Seed 177000 spread-01 (2 MP, tilted 30 degrees): the page block showed 22 columns wide at 143-147, as level
        // as a page in shade, and the page rose from it within two columns to 207; the block was kept as shaded paper
        // before a shadow's edge. Here the block runs 30 px past the book's own border, at 145.
        let border = Self.bookBorder
        let book = try Self.rectifiedBook { x in x < border + 30 ? 145 : 207 }
        let insets = try #require(try BorderTrimmer().border(of: book))
        #expect(abs(insets.left - Double(border + 30)) <= 2, "left inset \(insets.left)")
        #expect(abs(insets.top - Double(border)) <= 2, "top inset \(insets.top)")
    }

    @Test("A page whose end lies in shade past the reach is trimmed at the step onto it, though the step overshoots the shade")
    func borderTrimmedBeforeShadeAfterOvershoot() throws {
        // Seed 161000 spread-05: below a cover's rim the page lies in a hand's shadow further in than the side's reach,
        // and the rise onto it (to 185) stands a few levels over the shade that follows (174-179); the shade was not
        // taken as level, so no border was found on any side and the pages kept their rim and page block (IoU
        // 0.889, 0.884). Here the first 3 px of the page are at 187, then 176 for 150 px, then the paper at 215.
        let border = Self.bookBorder
        let book = try Self.rectifiedBook { x in x < border + 3 ? 187 : x < border + 150 ? 176 : 215 }
        let insets = try #require(try BorderTrimmer().border(of: book))
        for (side, inset) in [("left", insets.left), ("top", insets.top), ("right", insets.right), ("bottom", insets.bottom)] {
            #expect(abs(inset - Double(border)) <= 2, "\(side) inset \(inset)")
        }
    }

    @Test("A spread whose hard cover shows along two sides only is cut to its pages")
    func spreadInsideCoverSeenOnTwoSides() throws {
        // Seed 65000 spread-07 (2.8 MP): a hard-cover book tilted 32 degrees on granite. Its cover shows along the
        // top and the left, its other edges hidden behind the page block, and the pages came out with the cover
        // round them (IoU 0.917 and 0.899).
        try Self.expectTwoPages(
            in: "spread-in-cover-seen-on-two-sides.jpg",
            matching: [
                [(115.9, 338.3), (856.3, 296.5), (969.8, 1199.6), (442.4, 1166.7)],
                [(856.3, 296.5), (1777.7, 244.5), (1581.4, 1237.7), (969.8, 1199.6)],
            ])
    }

    @Test("The far page of a book at a slant, its print too small for paper to show between it, is found with the near one")
    func farPageOfSmallPrint() throws {
        // Seed 510000 spread-16 (2 MP, the book's part cut out and saved again at JPEG quality 50): a hard-cover book
        // on gingham, tilted 36 degrees. The far page's print is about 4 pixels tall, so dense that its region measured
        // rough as cloth (4, against the near page's 2), and only the near page was found.
        try Self.expectTwoPages(
            in: "spread-far-page-small-print-in-hard-cover.jpg",
            matching: [
                [(849.0, 60.6), (927.1, 379.2), (164.2, 463.7), (232.9, 151.9)],
                [(927.1, 379.2), (1056.9, 908.8), (55.2, 959.0), (164.2, 463.7)],
            ])
    }

    /// Expects the scan of a spread's fixture to give two pages, each within IoU 0.95 of its true corners (in reading
    /// order).
    static func expectTwoPages(
        in fixture: String, matching pages: [[(Double, Double)]], sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let scan = try DocumentScanner().scan(contentsOf: TestData.fixture(fixture))
        #expect(scan.pages.count == 2, "\(scan.pages.map(\.quad))", sourceLocation: sourceLocation)
        for (page, truth) in zip(scan.pages, pages) {
            let iou = page.quad.intersectionOverUnion(Quad(truth.map { Point(x: $0.0, y: $0.1) }))
            #expect(iou >= 0.95, "page \(page.quad): IoU \(iou)", sourceLocation: sourceLocation)
        }
    }

    @Test("A band on three sides or more is a border; on fewer only round a spread, meeting at a corner or all dark")
    func borderSides() {
        let left: Int32 = 1, top: Int32 = 2, right: Int32 = 4, bottom: Int32 = 8
        let dark = { (sides: Int32) in sides | sides << 4 }
        #expect(BorderTrimmer.isBorder(bandedSides: left | top | right, isSpread: false))
        #expect(BorderTrimmer.isBorder(bandedSides: left | top | right | bottom, isSpread: false))
        #expect(!BorderTrimmer.isBorder(bandedSides: left | top, isSpread: false))
        #expect(!BorderTrimmer.isBorder(bandedSides: dark(bottom), isSpread: false))
        #expect(BorderTrimmer.isBorder(bandedSides: left | top, isSpread: true))
        #expect(BorderTrimmer.isBorder(bandedSides: bottom | left, isSpread: true))
        #expect(!BorderTrimmer.isBorder(bandedSides: left | right, isSpread: true))
        #expect(BorderTrimmer.isBorder(bandedSides: dark(left | right), isSpread: true))
        #expect(!BorderTrimmer.isBorder(bandedSides: top, isSpread: true))
        #expect(BorderTrimmer.isBorder(bandedSides: dark(top), isSpread: true))
        #expect(!BorderTrimmer.isBorder(bandedSides: dark(top) | bottom, isSpread: true))
        #expect(!BorderTrimmer.isBorder(bandedSides: 0, isSpread: true))
    }
}
