import DocScanRecognition
import Foundation
import Testing

@testable import DocScan

/// A lens focused a little off: its blur divided out, the radius a scanner offers a recognizer to try, and which
/// pages get one.
@Suite("Defocus")
struct DefocusTests {
    /// Print-like marks: strokes 2-3 pixels wide at 30 on paper at 230.
    static func sharpPrint(_ x: Int, _ y: Int) -> UInt8 {
        let stem = x % 11 < 3 && (y / 15) % 2 == 0
        let bar = y % 15 < 2 && x % 23 < 15
        return stem || bar ? 30 : 230
    }

    /// `value` blurred by a uniform disk of `radius` pixels in linear light, as a lens out of focus blurs it (the
    /// image's edges repeat outwards).
    static func defocused(_ value: (Int, Int) -> UInt8, width: Int, height: Int, radius: Double) -> [UInt8] {
        let reach = Int(radius.rounded(.up))
        var weights: [(dx: Int, dy: Int, weight: Double)] = []
        for dy in -reach...reach {
            for dx in -reach...reach {
                // The share of the pixel inside the disk, from 8 × 8 samples.
                var inside = 0
                for sy in 0..<8 {
                    for sx in 0..<8 {
                        let px = Double(dx) + (Double(sx) + 0.5) / 8 - 0.5
                        let py = Double(dy) + (Double(sy) + 0.5) / 8 - 0.5
                        if px * px + py * py <= radius * radius { inside += 1 }
                    }
                }
                if inside > 0 { weights.append((dx, dy, Double(inside))) }
            }
        }
        let total = weights.reduce(0) { $0 + $1.weight }
        var out = [UInt8](repeating: 0, count: width * height)
        for y in 0..<height {
            for x in 0..<width {
                var linear = 0.0
                for w in weights {
                    let sx = min(width - 1, max(0, x + w.dx)), sy = min(height - 1, max(0, y + w.dy))
                    linear += w.weight * pow(Double(value(sx, sy)) / 255, 2.2)
                }
                out[y * width + x] = UInt8((255 * pow(linear / total, 1 / 2.2)).rounded())
            }
        }
        return out
    }

    /// Mean absolute difference from the sharp print, away from the image's edges.
    static func error(of image: Image, from sharp: (Int, Int) -> UInt8, margin: Int) -> Double {
        var sum = 0.0, count = 0
        for y in margin..<(image.height - margin) {
            for x in margin..<(image.width - margin) {
                sum += abs(Double(image.pixel(x: x, y: y)[0]) - Double(sharp(x, y)))
                count += 1
            }
        }
        return sum / Double(count)
    }

    @Test("Dividing out a known defocus brings blurred print closer to the sharp print")
    func removesKnownDefocus() throws {
        let (width, height) = (180, 150)
        let sharp = Self.sharpPrint(_:_:)
        let blurred = Self.defocused(sharp, width: width, height: height, radius: 2)
        let photo = try makeImage(width: width, height: height, format: .gray) { x, y in [blurred[y * width + x]] }
        let restored = try DefocusCorrector().removing(radius: 2, from: photo)
        #expect(restored.width == width && restored.height == height && restored.pixelFormat == .gray)
        let before = Self.error(of: photo, from: sharp, margin: 10)
        let after = Self.error(of: restored, from: sharp, margin: 10)
        // Measured: 21.7 levels after, 32.0 before (the Wiener filter's regularisation keeps some of the blur).
        #expect(after < 0.75 * before, "mean error \(after) after, \(before) before")
        // Too small a disk (a tenth of the blur's area) barely sharpens: the radius matters.
        let halfway = Self.error(of: try DefocusCorrector().removing(radius: 0.6, from: photo), from: sharp, margin: 10)
        #expect(halfway > after, "mean error \(halfway) with too small a disk")
    }

    @Test("Absurd radii are refused with a clear error")
    func refusesAbsurdRadius() throws {
        let photo = try makeImage(width: 40, height: 40) { x, _ in x % 4 < 2 ? [0, 0, 0] : [255, 255, 255] }
        for radius in [0.0, -1, 40, .nan] {
            #expect(throws: DocScanError.self) { try DefocusCorrector().removing(radius: radius, from: photo) }
        }
        let colour = try DefocusCorrector().removing(radius: 1.5, from: photo)
        #expect(colour.pixelFormat == photo.pixelFormat)
    }

    @Test("The radius tried grows with the photo's size, a little less than in proportion")
    func typicalRadius() {
        let corrector = DefocusCorrector()
        #expect(abs(corrector.typicalRadius(photoWidth: 1732, photoHeight: 1155) - 1.6) < 0.01)
        let large = corrector.typicalRadius(photoWidth: 4032, photoHeight: 3024)
        #expect(large > 3.2 && large < 3.5, "\(large)")
    }

    @Test("Pages get a radius to try only when they will be read and the scanner neither removed nor suspected a shake")
    func whichPagesGetARadius() throws {
        var reading = DocumentScanner.Options()
        reading.rendersSuspectedShake = true
        // Corpus prose-09: sharp, no smear measured that may be a shake.
        let sharp = TestData.corpus.appendingPathComponent("prose-09.jpg")
        let scanned = try DocumentScanner(options: reading).scan(contentsOf: sharp)
        let page = try #require(scanned.pages.first)
        #expect(page.unshaken == nil)
        let photoRadius = DefocusCorrector().typicalRadius(photoWidth: scanned.width, photoHeight: scanned.height)
        let radius = try #require(page.refocusRadius)
        // The page is cut out near the photo's own resolution: the radius follows the page's scale at its centre.
        #expect(abs(radius - photoRadius * page.pixelsPerPhotoPixel) < 1e-9)
        #expect(page.pixelsPerPhotoPixel > 0.8 && page.pixelsPerPhotoPixel < 1.25, "\(page.pixelsPerPhotoPixel)")
        #expect(try DocumentScanner().scan(contentsOf: sharp).pages.allSatisfy { $0.refocusRadius == nil })
        let shaken = try DocumentScanner(options: reading).scan(contentsOf: TestData.fixture("shaken-form.jpg"))
        #expect(shaken.motionBlur != nil && shaken.pages.allSatisfy { $0.refocusRadius == nil })
        let unsure = try DocumentScanner(options: reading).scan(
            contentsOf: TestData.fixture("prose-with-unsure-shake.jpg"))
        #expect(unsure.pages.allSatisfy { $0.unshaken != nil && $0.refocusRadius == nil })
    }

    @Test("Only a fast first reading with three tenths or more of its words unsure is worth reading refocused")
    func worthRefocusing() {
        func reading(unsure: Int, level: RecognitionLevel) -> RecognizedPage {
            let words = Array(repeating: ("Total", Double?.some(0.95)), count: 20 - unsure)
                + Array(repeating: ("x", Double?.some(0.4)), count: unsure)
            var page = SuspectedShakeTests.reading(words)
            page.provenance.level = level
            return page
        }
        #expect(!ScannedPage.isWorthRefocusing(reading(unsure: 5, level: .fast)))  // 5 in 20
        #expect(ScannedPage.isWorthRefocusing(reading(unsure: 6, level: .fast)))  // 6 in 20
        // `accurate`'s own other readings cover soft print: never, however unsure.
        #expect(!ScannedPage.isWorthRefocusing(reading(unsure: 20, level: .accurate)))
        // Without confidences the two readings could not be compared.
        var unjudged = SuspectedShakeTests.reading([("Total", nil), ("12.50", nil)])
        unjudged.provenance.level = .fast
        #expect(!ScannedPage.isWorthRefocusing(unjudged))
    }

    @Test("Only a first reading with three tenths or more of its words unsure, at either level, is worth reading with a removed shake left in")
    func worthLeavingShakeIn() {
        let twoUnsure = Array(repeating: ("Total", Double?.some(0.95)), count: 18) + [("x", 0.4), ("y", 0.69)]
        #expect(!ScannedPage.isWorthLeavingShakeIn(SuspectedShakeTests.reading(twoUnsure)))  // 2 in 20
        let sixUnsure = Array(repeating: ("Total", Double?.some(0.95)), count: 14) + Array(repeating: ("x", 0.4), count: 6)
        #expect(ScannedPage.isWorthLeavingShakeIn(SuspectedShakeTests.reading(sixUnsure)))  // 6 in 20
        var fast = SuspectedShakeTests.reading(sixUnsure)
        fast.provenance.level = .fast
        #expect(ScannedPage.isWorthLeavingShakeIn(fast))
        #expect(!ScannedPage.isWorthLeavingShakeIn(SuspectedShakeTests.reading([("Total", nil), ("12.50", nil)])))
    }

    @Test("A page's scale from the photo is read off its map, whichever way the page is turned")
    func pixelsPerPhotoPixel() throws {
        let photo = TestData.corpus.appendingPathComponent("card-01.jpg")
        var page = try #require(try DocumentScanner().scan(contentsOf: photo).pages.first)
        // The map shrunk by half about the page's centre: half as many page pixels for each photo pixel there.
        let before = page.pixelsPerPhotoPixel
        let (cx, cy) = (Double(page.image.width) / 2, Double(page.image.height) / 2)
        page.homography = page.homography.followed(by: .translation(x: -cx, y: -cy))
            .followed(by: Homography(matrix: [0.5, 0, 0, 0, 0.5, 0, 0, 0, 1])).followed(by: .translation(x: cx, y: cy))
        #expect(abs(page.pixelsPerPhotoPixel - 0.5 * before) < 0.01 * before, "\(page.pixelsPerPhotoPixel), \(before)")
        #expect(abs(try page.turned(quarterTurns: 1).pixelsPerPhotoPixel - page.pixelsPerPhotoPixel) < 0.01 * before)
    }

    @Test("A radius no corrector undoes leaves a page without its other rendering instead of failing its reading")
    func absurdRadiusIsNoRendering() throws {
        var reading = DocumentScanner.Options()
        reading.rendersSuspectedShake = true
        let photo = TestData.corpus.appendingPathComponent("card-01.jpg")
        var page = try #require(try DocumentScanner(options: reading).scan(contentsOf: photo).pages.first)
        #expect(page.otherRendering(fileURL: nil)?.rendering == .refocused)
        page.refocusRadius = 40
        #expect(page.otherRendering(fileURL: nil) == nil)
    }
}
