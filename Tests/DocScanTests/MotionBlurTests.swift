import DocScanRecognition
import Foundation
import Testing

@testable import DocScan

/// Camera shake: measured on generated photos whose shake the generator recorded (fixtures `shaken-*.jpg`, from the
/// corpus the generator made before November 2026; `shaken-prose.jpg` and `shaken-receipt.jpg` saved again at JPEG
/// quality 80 to keep the repository small, and `shaken-prose.jpg` cut to its page and a margin of the cloth round
/// it), never found in sharp corpus photos, and removed only inside the region asked for.
@Suite("Motion blur")
struct MotionBlurTests {
    /// The shake the generator put into a photo: its length and direction in upright photo pixels.
    static func recordedShake(_ photo: URL) throws -> (length: Double, degrees: Double)? {
        let url = photo.deletingPathExtension().appendingPathExtension("truth.json")
        let truth = try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any]
        let conditions = truth?["conditions"] as? [String: Any]
        guard let length = conditions?["motion"] as? Double, length > 0,
            let degrees = conditions?["motion_angle"] as? Double
        else { return nil }
        return (length, degrees)
    }

    /// The photo, and the outlines of its documents.
    static func photoAndDocuments(_ url: URL) throws -> (Image, [Quad]) {
        let photo = try ImageLoader().load(contentsOf: url).image
        return (photo, try DocumentDetector().detect(in: photo).map(\.quad))
    }

    static func angleBetween(_ a: Double, _ b: Double) -> Double {
        let d = abs((a - b).truncatingRemainder(dividingBy: 180))
        return min(d, 180 - d)
    }

    @Test(
        "A recorded shake is found in its direction and undone",
        arguments: ["shaken-form.jpg", "shaken-receipt.jpg", "shaken-spread.jpg", "shaken-prose.jpg"])
    func findsShake(_ name: String) throws {
        let (blur, documents) = try Self.expectRecordedShakeMeasured(in: TestData.fixture(name))
        #expect(MotionBlurCorrector().isShake(blur, documents: documents), "\(blur)")
    }

    /// Measures the shake in the part of the photo at `url` that holds its documents, and expects it in the direction
    /// and of the length the generator recorded. Returns the measurement and the documents' outlines.
    static func expectRecordedShakeMeasured(in url: URL) throws -> (MotionBlur, [Quad]) {
        let recorded = try #require(try recordedShake(url))
        let (photo, documents) = try photoAndDocuments(url)
        let corrector = MotionBlurCorrector()
        let blur = try #require(try corrector.measure(in: photo, region: corrector.region(around: documents, in: photo)))
        #expect(angleBetween(blur.angleDegrees, recorded.degrees) <= 8, "\(blur) against \(recorded)")
        // The generator draws the shake as a line of whole pixels, about a pixel longer than recorded.
        #expect(blur.length >= recorded.length - 0.5 && blur.length <= recorded.length + 2.5, "\(blur) against \(recorded)")
        return (blur, documents)
    }

    @Test(
        "Sharp photos are left alone: ruled forms, print in line with the page, a card, a spread",
        arguments: ["form-02.jpg", "form-05.jpg", "prose-09.jpg", "card-02.jpg", "spread-03.jpg", "multi-05.jpg"])
    func sharpIsNoShake(_ name: String) throws {
        let url = TestData.corpus.appendingPathComponent(name)
        #expect(try Self.recordedShake(url) == nil)
        let (photo, documents) = try Self.photoAndDocuments(url)
        let found = try MotionBlurCorrector().shake(in: photo, documents: documents)
        #expect(found == nil, "\(String(describing: found))")
    }

    @Test("A shake is found at its own length where a receipt's print shows a deeper comb three times as long")
    func shakeNotTakenAtThreeTimesItsLength() throws {
        // The corpus's multi-03: a receipt and a card on a dark desk, shaken by 4.8 pixels nearly along the receipt's
        // lines. Its deepest comb lies at 15 pixels; divided out at that length, the receipt's print echoed every
        // stroke and read as one letter. The spectrum's fall-off at low frequencies shows no shake that long.
        _ = try Self.expectRecordedShakeMeasured(in: TestData.corpus.appendingPathComponent("multi-03.jpg"))
    }

    @Test("A long smear with shallow notches is a shake when the quarters of the page show it on their own")
    func longSmearConfirmedByQuarters() throws {
        // Seed 7009 (2.8 MP, prose on cloth): a shake of 5.25 px at 123.6° that leaves notches too shallow for the
        // measurement of the whole page alone.
        let photo = try ImageLoader().load(contentsOf: TestData.fixture("page-with-long-shake.jpg")).image
        let documents = try DocumentDetector().detect(in: photo).map(\.quad)
        let corrector = MotionBlurCorrector()
        let alone = try #require(try corrector.measure(in: photo, region: corrector.region(around: documents, in: photo)))
        #expect(!corrector.isShake(alone, documents: documents), "\(alone)")
        let blur = try #require(try corrector.shake(in: photo, documents: documents))
        #expect((blur.agreeingQuarters ?? 0) >= 3, "\(blur)")
        #expect(Self.angleBetween(blur.angleDegrees, 123.6) <= 6, "\(blur)")
        #expect(blur.length >= 5.25 - 0.5 && blur.length <= 5.25 + 2.5, "\(blur)")
    }

    @Test("Only a long smear is settled by its quarters, and only when three or more agree")
    func quarterRule() {
        let corrector = MotionBlurCorrector()
        let page = [Quad(width: 1000, height: 1400)]
        var long = MotionBlur(length: 7, angleDegrees: 40, notchDepth: 0.15, anisotropy: 0.4)
        #expect(!corrector.isShake(long, documents: page))
        long.agreeingQuarters = 2
        #expect(!corrector.isShake(long, documents: page))
        long.agreeingQuarters = 3
        #expect(corrector.isShake(long, documents: page))
        // In line with the page's sides: the quarters still decide.
        long.angleDegrees = 90
        #expect(corrector.isShake(long, documents: page))
        // Print's own combs are short: four agreeing quarters do not make a 3-pixel comb a shake.
        var short = MotionBlur(length: 3, angleDegrees: 40, notchDepth: 0.15, anisotropy: 0.4, agreeingQuarters: 4)
        #expect(!corrector.isShake(short, documents: page))
        short.length = 7
        short.anisotropy = 0.1
        #expect(!corrector.isShake(short, documents: page))
    }

    @Test("The scanner reports the shake it removed, and only when there was one")
    func scannerReportsShake() throws {
        let shaken = try DocumentScanner().scan(contentsOf: TestData.fixture("shaken-form.jpg"))
        let blur = try #require(shaken.motionBlur)
        #expect(Self.angleBetween(blur.angleDegrees, 90.6) <= 8)
        let sharp = try DocumentScanner().scan(contentsOf: TestData.corpus.appendingPathComponent("form-02.jpg"))
        #expect(sharp.motionBlur == nil)
        var options = DocumentScanner.Options()
        options.correctsMotionBlur = false
        let kept = try DocumentScanner(options: options).scan(contentsOf: TestData.fixture("shaken-form.jpg"))
        #expect(kept.motionBlur == nil)
    }

    @Test("Removal changes only the region asked for, and refuses regions outside the photo and absurd lengths")
    func removalStaysInRegion() throws {
        let photo = try makeImage(width: 300, height: 200) { x, y in
            let v = UInt8((x / 7 + y / 5) % 2 == 0 ? 40 : 220)
            return [v, v, v]
        }
        let blur = MotionBlur(length: 5, angleDegrees: 30, notchDepth: 0.3, anisotropy: 2)
        let region = PixelRegion(x: 100, y: 50, width: 120, height: 100)
        let corrected = try MotionBlurCorrector().removing(blur, from: photo, region: region)
        #expect(corrected.width == photo.width && corrected.height == photo.height)
        var changedInside = 0
        for y in 0..<photo.height {
            for x in 0..<photo.width {
                let inside = x >= 100 && x < 220 && y >= 50 && y < 150
                if inside {
                    if corrected.pixel(x: x, y: y) != photo.pixel(x: x, y: y) { changedInside += 1 }
                } else {
                    #expect(corrected.pixel(x: x, y: y) == photo.pixel(x: x, y: y))
                }
            }
        }
        #expect(changedInside > 1000)
        #expect(throws: DocScanError.self) {
            try MotionBlurCorrector().removing(blur, from: photo, region: PixelRegion(x: 250, y: 0, width: 100, height: 10))
        }
        #expect(throws: DocScanError.self) {
            try MotionBlurCorrector().removing(
                MotionBlur(length: 500, angleDegrees: 0, notchDepth: 1, anisotropy: 3), from: photo)
        }
    }

    @Test("A region with too little structure gives no measurement")
    func blankHasNoMeasurement() throws {
        let blank = try makeImage(width: 600, height: 600) { _, _ in [200, 200, 200] }
        #expect(try MotionBlurCorrector().measure(in: blank) == nil)
    }

    @Test("Which smears count as in line with a document")
    func inLineRule() {
        let upright = Quad(width: 1000, height: 1400)
        #expect(MotionBlurCorrector.isInLine(2, withSidesOf: upright, margin: 3))
        #expect(MotionBlurCorrector.isInLine(178.5, withSidesOf: upright, margin: 3))
        #expect(MotionBlurCorrector.isInLine(91, withSidesOf: upright, margin: 3))
        #expect(!MotionBlurCorrector.isInLine(10, withSidesOf: upright, margin: 3))
        #expect(!MotionBlurCorrector.isInLine(45, withSidesOf: upright, margin: 3))
        // Under perspective the sides run from 165° (bottom) to 181° (top): every direction between is in line.
        let tilted = Quad([
            Point(x: 1074, y: 1233), Point(x: 265, y: 1218), Point(x: 334, y: 315), Point(x: 926, y: 154),
        ])
        #expect(MotionBlurCorrector.isInLine(167, withSidesOf: tilted, margin: 3))
        #expect(!MotionBlurCorrector.isInLine(140, withSidesOf: tilted, margin: 3))
    }

    @Test("A smear in line with the page needs a larger loss of detail than one across it")
    func alignedNeedsMore() {
        let corrector = MotionBlurCorrector()
        let page = [Quad(width: 1000, height: 1400)]
        let moderate = MotionBlur(length: 4, angleDegrees: 30, notchDepth: 0.3, anisotropy: 1.2)
        #expect(corrector.isShake(moderate, documents: page))
        var aligned = moderate
        aligned.angleDegrees = 1
        #expect(!corrector.isShake(aligned, documents: page))
        aligned.anisotropy = 2.5
        #expect(corrector.isShake(aligned, documents: page))
        let shallow = MotionBlur(length: 4, angleDegrees: 30, notchDepth: 0.18, anisotropy: 1.2)
        #expect(!corrector.isShake(shallow, documents: page))
    }
}

/// Smears that are not clearly a shake: rendered both ways when the pages will be read, and the reading decides.
@Suite("Suspected shake")
struct SuspectedShakeTests {
    /// A page reading holding `words` (text and confidence 0...1, nil for none).
    static func reading(_ words: [(String, Double?)]) -> RecognizedPage {
        let box = Rect(x: 0, y: 0, width: 10, height: 10)
        let recognized = words.map { text, value in
            RecognizedWord(text: text, confidence: value.map { Confidence(value: $0, native: $0 * 100) }, box: box)
        }
        let line = RecognizedLine(text: words.map(\.0).joined(separator: " "), confidence: nil, box: box, words: recognized)
        let provenance = RecognitionProvenance(
            recognizer: "test", backend: "test", version: "1", models: [], level: .accurate, levelMapping: "")
        return RecognizedPage(
            width: 10, height: 10, blocks: [RecognizedBlock(box: box, lines: [line])], provenance: provenance)
    }

    @Test("Legibility counts sure letters and digits by confidence squared, less a quarter of each unsure character")
    func legibility() throws {
        let page = Self.reading([("Total", 1.0), ("12.50", 0.8), ("x;!", 0.3), ("-----", nil)])
        // 5 × 1 + 4 × 0.64 (the point is not counted) − 0.25 × 3; the rule drawn without a confidence counts nothing.
        let expected: Double = 5 + 4 * 0.64 - 0.75
        let legibility = try #require(page.legibility)
        #expect(abs(legibility - expected) < 1e-9)
        #expect(Self.reading([("-----", nil)]).legibility == nil)
        #expect(Self.reading([]).legibility == 0)
    }

    @Test("The unshaken reading is kept only for clearly more believable text, never for less noise")
    func judge() {
        let taken = Self.reading(Array(repeating: ("invoice", 0.9), count: 10))
        let clearlyMore = Self.reading(Array(repeating: ("invoice", 0.9), count: 12))
        let barelyMore = Self.reading(Array(repeating: ("invoice", 0.9), count: 10) + [("a", 0.9)])
        #expect(ScannedPage.readsBetter(clearlyMore, than: taken))
        #expect(!ScannedPage.readsBetter(barelyMore, than: taken))
        // Two readings of noise: the one with less of it is not better.
        let noise = Self.reading(Array(repeating: ("ii;", 0.3), count: 200))
        let lessNoise = Self.reading(Array(repeating: ("ii;", 0.3), count: 40))
        #expect(!ScannedPage.readsBetter(lessNoise, than: noise))
        #expect(ScannedPage.readsBetter(taken, than: noise))
    }

    @Test("Another rendering that reads one sure word where the page as taken read most of its text unsure is not kept")
    func oneSureWordIsNotTheWholePage() throws {
        // Seed 83000 card-01, half under a thumb: read as taken (46 letters and digits, most of them right, most words
        // unsure) and refocused (one word, sure).
        let taken = Self.reading([
            ("M", 0.91), ("1", 0.74), ("michael.mi.", 0.65), ("yvare.com", 0.45), ("Bris", 0.97), ("%", 0.67),
            ("i", 0.94), ("DJ", 0.86), ("silverlinesoftware.com", 0.0),
        ])
        let refocused = Self.reading([("oftware", 0.95)])
        // Its believable text is clearly more: unsure words count against the page as taken.
        let (other, first) = (try #require(refocused.legibility), try #require(taken.legibility))
        #expect(other > first + 2 && other > 0)
        #expect(ScannedPage.leavesTextOut(refocused, than: taken))
        #expect(!ScannedPage.readsBetter(refocused, than: taken))
        // The same word read where the page as taken read little more is still a better reading.
        let little = Self.reading([("ofw", 0.5), ("%", 0.4)])
        #expect(ScannedPage.readsBetter(refocused, than: little))
    }

    @Test("Another rendering that reads the whole page, mostly unsure, is kept over a few sure lines read as taken")
    func wholePageOverAFewSureLines() {
        // The shape of the committed corpus's multi-03 receipt: as taken, its heading and a few lines read surely;
        // unshaken, the same lines and most of its items, unsure (24.0% CER instead of 75.4%).
        let sureLines: [(String, Double?)] = Array(repeating: ("RECEIPT", 0.9), count: 12)
        let taken = Self.reading(sureLines)
        let unshaken = Self.reading(sureLines + Array(repeating: ("Tomatoes", 0.5), count: 30))
        // Its unsure words cost it more believable text than its sure ones hold over the page as taken.
        #expect((unshaken.legibility ?? 0) < (taken.legibility ?? 0))
        #expect(ScannedPage.readsTextLeftOut(unshaken, than: taken))
        #expect(ScannedPage.readsBetter(unshaken, than: taken))
        // Twice as many unsure words are noise: less believable text than none.
        let noise = Self.reading(sureLines + Array(repeating: ("Tomatoes", 0.5), count: 60))
        #expect(!ScannedPage.readsBetter(noise, than: taken))
    }

    @Test("Only a smear longer than a stroke, with some notches and some loss of detail, is worth trying")
    func suspicion() {
        let corrector = MotionBlurCorrector()
        func suspected(length: Double, notchDepth: Double, anisotropy: Double) -> Bool {
            let smear = MotionBlur(length: length, angleDegrees: 30, notchDepth: notchDepth, anisotropy: anisotropy)
            return corrector.isSuspected(smear, documents: [Quad(width: 1000, height: 1400)])
        }
        #expect(suspected(length: 5, notchDepth: 0.12, anisotropy: 0.4))
        #expect(!suspected(length: 2.5, notchDepth: 0.12, anisotropy: 0.4))
        #expect(!suspected(length: 5, notchDepth: 0.05, anisotropy: 0.4))
        #expect(!suspected(length: 5, notchDepth: 0.12, anisotropy: 0.1))
    }

    @Test(
        "A smear along the page's lines needs more loss of detail to be worth trying: print loses detail along them",
        arguments: [(1.0, 0.6, false), (91, 0.6, false), (91, 1.2, true), (30, 0.6, true)])
    func suspicionInLine(degrees: Double, anisotropy: Double, isSuspected: Bool) {
        let smear = MotionBlur(length: 5, angleDegrees: degrees, notchDepth: 0.12, anisotropy: anisotropy)
        let page = [Quad(width: 1000, height: 1400)]
        #expect(MotionBlurCorrector().isSuspected(smear, documents: page) == isSuspected)
    }

    @Test("A shake across the print is found where the print's own comb along its lines is darker")
    func shakeAcrossPrintComb() throws {
        // Seed 61000's prose-08 (2 MP, small print on a dark desk): the generator drew its 3.28 px shake at 127.6° as
        // three pixels along the diagonal, a 4.2 px smear at 135°. The darkest comb in the spectrum is print's own,
        // 2.7 px along the lines (1°); the shake's comb is shallower but takes away the fine detail along it.
        let url = TestData.fixture("prose-with-shake-across-print-comb.jpg")
        #expect(try MotionBlurTests.recordedShake(url) != nil)
        let (photo, documents) = try MotionBlurTests.photoAndDocuments(url)
        let corrector = MotionBlurCorrector()
        let smear = try #require(try corrector.assessedSmear(in: photo, documents: documents))
        #expect(MotionBlurTests.angleBetween(smear.blur.angleDegrees, 135) <= 5, "\(smear.blur)")
        #expect(smear.blur.length >= 3.5 && smear.blur.length <= 5, "\(smear.blur)")
        #expect(!smear.isShake && corrector.isSuspected(smear.blur, documents: documents), "\(smear.blur)")
    }

    @Test("A photo whose smear is not clearly a shake gets an unshaken rendering only when asked, of the same page")
    func rendering() throws {
        let photo = TestData.fixture("prose-with-unsure-shake.jpg")
        let plain = try DocumentScanner().scan(contentsOf: photo)
        #expect(plain.motionBlur == nil && plain.pages.allSatisfy { $0.unshaken == nil })
        var options = DocumentScanner.Options()
        options.rendersSuspectedShake = true
        let scan = try DocumentScanner(options: options).scan(contentsOf: photo)
        #expect(scan.motionBlur == nil)
        let page = try #require(scan.pages.first)
        let unshaken = try #require(page.unshaken)
        #expect(unshaken.image.width == page.image.width && unshaken.image.height == page.image.height)
        #expect(unshaken.unlitImage.width == page.unlitImage.width && unshaken.unlitImage.height == page.unlitImage.height)
        let adopted = page.adoptingUnshaken()
        #expect(adopted.unshaken == nil && adopted.homography == page.homography)
        let turned = try page.turned(quarterTurns: 1)
        #expect(turned.unshaken?.image.width == page.image.height)
    }
}
