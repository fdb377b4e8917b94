@testable import DocScan
import Foundation
import Testing

/// Detection on drawn photos whose every outline is known: what must and must not count as a document.
@Suite("Detection")
struct DetectionTests {
    /// The printed page drawn in both photos: an upright rectangle with rows of dark strokes, like lines of print.
    static let page = (left: 300, top: 150, right: 700, bottom: 700)

    static func isPrint(_ x: Int, _ y: Int) -> Bool {
        let inside = x >= page.left + 40 && x < page.right - 40 && y >= page.top + 50 && y < page.bottom - 50
        return inside && (y - page.top) % 24 < 9 && (x * 7 + y / 24 * 13) % 40 < 33
    }

    static func onPage(_ x: Int, _ y: Int) -> Bool {
        x >= page.left && x < page.right && y >= page.top && y < page.bottom
    }

    /// The page's outline as a quad, for comparison with what was found.
    static var pageQuad: Quad {
        let (left, top) = (Double(page.left) - 0.5, Double(page.top) - 0.5)
        let (right, bottom) = (Double(page.right) - 0.5, Double(page.bottom) - 0.5)
        return Quad([
            Point(x: left, y: top), Point(x: right, y: top), Point(x: right, y: bottom), Point(x: left, y: bottom),
        ])
    }

    /// Whether the point (`x`, `y`) lies inside `corners`, a convex quad listed clockwise on screen.
    static func isInside(_ x: Double, _ y: Double, _ corners: [Point]) -> Bool {
        (0..<4).allSatisfy { i in
            let (a, b) = (corners[i], corners[(i + 1) % 4])
            return (b.x - a.x) * (y - a.y) - (b.y - a.y) * (x - a.x) >= 0
        }
    }

    /// Expects exactly one document in `photo`, outlined as `corners` with at least `minimumIoU`.
    static func expectOneDocument(in photo: Image, outlining corners: [Point], minimumIoU: Double) throws {
        let documents = try DocumentDetector().detect(in: photo)
        #expect(documents.count == 1, "\(documents.map(\.quad))")
        let best = documents.map { $0.quad.intersectionOverUnion(Quad(corners)) }.max() ?? 0
        #expect(best >= minimumIoU, "best IoU \(best): \(documents.map(\.quad))")
    }

    @Test("A hard shadow's blank patch beside the page is not another document")
    func shadowIsNoDocument() throws {
        // Mid-grey desk; the shadow of a phone falls as a dark, sharp-edged band to the page's right.
        let photo = try makeImage(width: 1000, height: 800) { x, y in
            if Self.onPage(x, y) { return Self.isPrint(x, y) ? [40, 40, 40] : [235, 238, 240] }
            let shadowed = x >= 760 && x < 900 && y >= 250 && y < 600
            let desk: UInt8 = shadowed ? 80 : 160
            return [desk, desk, desk + 6]
        }
        let documents = try DocumentDetector().detect(in: photo)
        #expect(documents.count == 1, "\(documents.map(\.quad))")
        let found = try #require(documents.first)
        #expect(found.quad.intersectionOverUnion(Self.pageQuad) >= 0.97)
    }

    /// A drawn rectangle, as left, top, right and bottom pixel edges (right and bottom excluded).
    typealias Rectangle = (left: Int, top: Int, right: Int, bottom: Int)

    /// Whether (`x`, `y`) lies in `rectangle`.
    static func isInside(_ x: Int, _ y: Int, _ rectangle: Rectangle) -> Bool {
        x >= rectangle.left && x < rectangle.right && y >= rectangle.top && y < rectangle.bottom
    }

    /// Whether (`x`, `y`) is print on `paper`: rows of word-like strokes `thickness` pixels tall, one every `pitch`
    /// pixels, `inset` pixels in from its sides and top and bottom.
    static func isPrint(
        _ x: Int, _ y: Int, on paper: Rectangle, inset: (x: Int, y: Int), pitch: Int, thickness: Int
    ) -> Bool {
        let block = (left: paper.left + inset.x, top: paper.top + inset.y, right: paper.right - inset.x,
                     bottom: paper.bottom - inset.y)
        guard isInside(x, y, block) else { return false }
        let row = (y - block.top) / pitch
        return (y - block.top) % pitch < thickness && (x * 7 + row * 13) % 40 < 33
    }

    @Test("A card lying in a phone's hard shadow on a pale desk is found as the card, not as the shadow round it")
    func cardInsideShadow() throws {
        // The shadow's rectangle and the card's are outlined equally crisply; the shadow, larger, came first, and as
        // it holds the card's print it was not called a shadow (seed 149000 multi-08: IoU 0.40 with the card).
        let card: Rectangle = (left: 380, top: 310, right: 640, bottom: 470)
        let photo = try makeImage(width: 1000, height: 800) { x, y in
            if Self.isInside(x, y, card) {
                let print = Self.isPrint(x, y, on: card, inset: (30, 30), pitch: 20, thickness: 7)
                return print ? [40, 40, 40] : [225, 232, 235]
            }
            let shadowed = x >= 250 && x < 750 && y >= 200 && y < 620
            return shadowed ? [124, 120, 120] : [204, 200, 200]
        }
        let truth = Self.quad(left: card.left, top: card.top, right: card.right, bottom: card.bottom)
        try Self.expectOneDocument(in: photo, outlining: truth.corners, minimumIoU: 0.97)
    }

    @Test("A card beside a page is found though its print is too fine to show as lines and a lit patch fades its edge")
    func cardWithFadingEdgeBesidePage() throws {
        // Grey desk with a soft lit patch below the card's right half, as light as the card, so that half of the
        // card's lower side shows no step (outlined about 0.74 of the way round); the card's print is specks a
        // camera's blur leaves of small type (marks about 6%, lines about 0.27), past the bar for a card outlined
        // that weakly until smooth, marked stock lighter than the desk counted (seed 155000 multi-08: two cards
        // missed that way).
        let page: Rectangle = (left: 60, top: 80, right: 420, bottom: 720)
        let card: Rectangle = (left: 560, top: 250, right: 900, bottom: 470)
        let photo = try makeImage(width: 1000, height: 800) { x, y in
            if Self.isInside(x, y, page) {
                let print = Self.isPrint(x, y, on: page, inset: (40, 50), pitch: 24, thickness: 9)
                return print ? [40, 40, 40] : [238, 240, 240]
            }
            if Self.isInside(x, y, card) {
                let printed = Self.isInside(x, y, (card.left + 30, card.top + 30, card.right - 30, card.bottom - 30))
                let speck = printed && x % 4 < 3 && y % 4 < 3 && Self.grain(x / 4, y / 4) % 100 < 10
                return speck ? [60, 60, 60] : [200, 202, 203]
            }
            func ramp(_ v: Double) -> Double { min(1, max(0, v)) }
            let (fx, fy) = (Double(x), Double(y))
            let lit = y >= card.bottom
                ? 22 * ramp((fx - 700) / 50) * ramp(1 - (fx - 900) / 150) * ramp(1 - (fy - 470) / 150) : 0
            let desk = UInt8(180 + lit)
            return [desk + 2, desk, desk]
        }
        let documents = try DocumentDetector().detect(in: photo)
        #expect(documents.count == 2, "\(documents.map(\.quad))")
        let truth = Self.quad(left: card.left, top: card.top, right: card.right, bottom: card.bottom)
        let best = documents.map { $0.quad.intersectionOverUnion(truth) }.max() ?? 0
        #expect(best >= 0.97, "best IoU with the card \(best): \(documents.map(\.quad))")
    }

    @Test("A page on woven check cloth whose light squares match its paper is found, and nothing else")
    func pageOnCheckedCloth() throws {
        // Squares of 40 pixels alternate between the page's own white and a mid-grey, both woven (threads 4 pixels
        // wide): all of the cloth carries fine detail that paper lacks.
        let photo = try makeImage(width: 1000, height: 800) { x, y in
            if Self.onPage(x, y) { return Self.isPrint(x, y) ? [40, 40, 40] : [232, 234, 236] }
            let light = ((x / 40) + (y / 40)) % 2 == 0
            let weave = ((x / 4) + (y / 4)) % 2 == 0 ? 12 : -12
            let base = light ? 232 : 150
            let value = UInt8(clamping: base + weave)
            return [value, value, UInt8(clamping: base + 2 + weave)]
        }
        let documents = try DocumentDetector().detect(in: photo)
        let found = try #require(documents.first)
        #expect(documents.count == 1, "\(documents.map(\.quad))")
        #expect(found.quad.intersectionOverUnion(Self.pageQuad) >= 0.95, "\(found.quad.corners)")
    }

    /// An axis-aligned rectangle's outline as a quad (pixel centres, as the detector reports them).
    static func quad(left: Int, top: Int, right: Int, bottom: Int) -> Quad {
        let (l, t, r, b) = (Double(left) - 0.5, Double(top) - 0.5, Double(right) - 0.5, Double(bottom) - 0.5)
        return Quad([Point(x: l, y: t), Point(x: r, y: t), Point(x: r, y: b), Point(x: l, y: b)])
    }

    /// A pseudo-random value for a grain of a drawn surface (an integer hash, the same on every platform).
    static func grain(_ cx: Int, _ cy: Int) -> UInt32 {
        var v = UInt32(truncatingIfNeeded: cx) &* 374_761_393 &+ UInt32(truncatingIfNeeded: cy) &* 668_265_263
        v = (v ^ (v >> 13)) &* 1_274_126_177
        return v ^ (v >> 16)
    }

    @Test("A dark card on granite is found as the card, not with the grains round it", arguments: [6, 7])
    func cardOnGranite(grainSize: Int) throws {
        // Grains of four greys, from near black to near white; the card is dark green with light print. Grains
        // touching the card make ever larger outlines round it, each nearly as crisp as the last.
        let card = (left: 260, top: 220, right: 740, bottom: 540)
        let levels: [UInt8] = [25, 95, 160, 215]
        let photo = try makeImage(width: 1000, height: 800) { x, y in
            let onCard = x >= card.left && x < card.right && y >= card.top && y < card.bottom
            if onCard {
                let print = x >= card.left + 40 && x < card.right - 40 && y >= card.top + 60 && y < card.bottom - 60
                    && (y - card.top) % 30 < 8 && (x * 7 + (y - card.top) / 30 * 13) % 40 < 33
                return print ? [200, 210, 205] : [38, 58, 30]
            }
            let v = levels[Int(Self.grain(x / grainSize, y / grainSize) % 4)]
            return [v, v, v + 4]
        }
        let documents = try DocumentDetector().detect(in: photo)
        #expect(documents.count == 1, "\(documents.map(\.quad))")
        let found = try #require(documents.first)
        let truth = Self.quad(left: card.left, top: card.top, right: card.right, bottom: card.bottom)
        #expect(found.quad.intersectionOverUnion(truth) >= 0.97, "\(found.quad.corners)")
    }

    @Test("A card whose corner a thumb hides is found to that corner, its sides run on past the thumb")
    func cardCornerUnderThumb() throws {
        // Two printed cards on a grey desk; a thumb (a skin-coloured ellipse) over the second card's top right corner.
        // The card's outline then runs along the thumb's edge: a pentagon, which fitted as four sides blended the
        // cut with the card's right side (IoU 0.83 with the card before; seed 29000 multi-05, a card under a thumb
        // on granite, was missed that way).
        func card(centre: (Double, Double), angle: Double) -> [Point] {
            let (c, s) = (cos(angle * .pi / 180), sin(angle * .pi / 180))
            return [(-280.0, -170.0), (280, -170), (280, 170), (-280, 170)].map { dx, dy in
                Point(x: centre.0 + dx * c - dy * s, y: centre.1 + dx * s + dy * c)
            }
        }
        let cards = [card(centre: (450, 600), angle: -4), card(centre: (1150, 640), angle: 7)]
        // Five rows of print per card, as thick strokes across its middle.
        let strokes = cards.flatMap { q in
            (0..<5).map { row -> (Point, Point) in
                let t = 0.25 + 0.1 * Double(row)
                let start = Point(x: q[0].x + (q[3].x - q[0].x) * t, y: q[0].y + (q[3].y - q[0].y) * t)
                let end = Point(x: q[1].x + (q[2].x - q[1].x) * t, y: q[1].y + (q[2].y - q[1].y) * t)
                return (Point(x: start.x + (end.x - start.x) * 0.15, y: start.y + (end.y - start.y) * 0.15),
                        Point(x: start.x + (end.x - start.x) * 0.7, y: start.y + (end.y - start.y) * 0.7))
            }
        }
        func onStroke(_ x: Double, _ y: Double) -> Bool {
            strokes.contains { a, b in
                let (dx, dy) = (b.x - a.x, b.y - a.y)
                let t = min(1, max(0, ((x - a.x) * dx + (y - a.y) * dy) / (dx * dx + dy * dy)))
                let (ex, ey) = (x - a.x - t * dx, y - a.y - t * dy)
                return ex * ex + ey * ey <= 3.5 * 3.5
            }
        }
        let thumb = (x: cards[1][1].x - 20, y: cards[1][1].y + 30, angle: 35 * Double.pi / 180)
        let photo = try makeImage(width: 1600, height: 1200) { x, y in
            let (px, py) = (Double(x), Double(y))
            let (u, v) = ((px - thumb.x) * cos(thumb.angle) + (py - thumb.y) * sin(thumb.angle),
                          -(px - thumb.x) * sin(thumb.angle) + (py - thumb.y) * cos(thumb.angle))
            if (u / 80) * (u / 80) + (v / 150) * (v / 150) <= 1 { return [120, 150, 190] }
            if cards.contains(where: { Self.isInside(px, py, $0) }) { return onStroke(px, py) ? [40, 40, 40] : [232, 236, 238] }
            let noise = (x * 7 + y * 13) % 9 - 4
            return [UInt8(112 + noise), UInt8(120 + noise), UInt8(128 + noise)]
        }
        let documents = try DocumentDetector().detect(in: photo)
        #expect(documents.count == 2, "\(documents.map(\.quad))")
        for corners in cards {
            let best = documents.map { $0.quad.intersectionOverUnion(Quad(corners)) }.max() ?? 0
            #expect(best >= 0.97, "card at \(corners[0]): best IoU \(best)")
        }
    }

    @Test(
        "A card whose side a thumb reaches over from the frame's edge is found with that side straight past the thumb",
        arguments: [[60, 80, 120], [120, 150, 200]] as [[UInt8]])
    func cardSideUnderThumb(skin: [UInt8]) throws {
        // A card on a tan desk; a thumb (a long skin-coloured ellipse) comes in from the right edge of the frame and
        // covers the lower part of the card's right side. The card's outline follows the thumb's curve there, and a
        // least-squares line through every outline point near that side leaned it across the thumb (IoU 0.982 here,
        // 0.9996 fitted to the side's straight stretches; seed 43000 card-01, a card under a dark thumb on light wood,
        // came out at 0.80 that way).
        let (c, s) = (cos(4.0 * .pi / 180), sin(4.0 * .pi / 180))
        let card = [(-560.0, -340.0), (560, -340), (560, 340), (-560, 340)].map { dx, dy in
            Point(x: 760 + dx * c - dy * s, y: 600 + dx * s + dy * c)
        }
        let thumb = (x: card[1].x + 0.8 * (card[2].x - card[1].x) + 150, y: card[1].y + 0.8 * (card[2].y - card[1].y))
        let photo = try makeImage(width: 1600, height: 1200) { x, y in
            let (px, py) = (Double(x), Double(y))
            let (u, v) = ((px - thumb.x) / 330, (py - thumb.y) / 150)
            if u * u + v * v <= 1 { return skin }
            if Self.isInside(px, py, card) {
                let printed = y % 40 < 12 && (x * 7 + y / 40 * 13) % 50 < 38 && abs(px - 700) < 380 && abs(py - 560) < 230
                return printed ? [40, 40, 40] : [236, 238, 240]
            }
            let noise = (x * 7 + y * 13) % 9 - 4
            return [UInt8(150 + noise), UInt8(180 + noise), UInt8(205 + noise)]
        }
        try Self.expectOneDocument(in: photo, outlining: card, minimumIoU: 0.995)
    }

    @Test("A receipt that a hard shadow's slanting edge cuts in two is found whole, its lit and its shaded part")
    func receiptCutByHardShadow() throws {
        // A receipt on a dark red desk; the shadow of a straight edge (a phone's, a table's) halves the light below
        // a slanting line that crosses the receipt's two long sides. The lit part's outline is no rectangle to a
        // camera and scored nothing; the shaded part alone was taken for the document (IoU 0.57 here; seed 73000
        // multi-02, a receipt under an edge's shadow on carpet, came out at 0.497 that way).
        let receipt = [Point(x: 500, y: 120), Point(x: 820, y: 150), Point(x: 760, y: 1100), Point(x: 440, y: 1070)]
        let photo = try makeImage(width: 1200, height: 1200) { x, y in
            let (px, py) = (Double(x), Double(y))
            let shade = py > 300 + 0.6 * px ? 0.5 : 1.0
            var color: [Double]
            if Self.isInside(px, py, receipt) {
                let printed = y % 30 < 9 && (x * 7 + y / 30 * 13) % 40 < 30 && px > 520 && px < 740 && py > 180 && py < 1040
                color = printed ? [50, 50, 50] : [232, 236, 238]
            } else {
                let noise = Double((x * 7 + y * 13) % 9 - 4)
                color = [40 + noise, 40 + noise, 120 + noise]
            }
            return color.map { UInt8(max(0, min(255, $0 * shade))) }
        }
        try Self.expectOneDocument(in: photo, outlining: receipt, minimumIoU: 0.97)
    }

    @Test("A pale card with no print to be found, beside a receipt on a light wooden desk, is a document")
    func blankCardOnWood() throws {
        // Shake can blur a small card's print past finding any. Its outline is crisp all round, its stock smooth
        // and 60 levels lighter than the desk, of another colour than the desk: it was dropped as a patch of the
        // desk for holding no print (seed 79000 multi-08, a card on wood beside a receipt under an edge's shadow).
        func corners(_ points: [(Double, Double)]) -> [Point] { points.map { Point(x: $0.0, y: $0.1) } }
        let receipt = corners([(300, 100), (620, 120), (580, 1100), (260, 1080)])
        let card = corners([(900, 450), (1380, 480), (1360, 780), (880, 750)])
        let photo = try makeImage(width: 1600, height: 1200) { x, y in
            let (px, py) = (Double(x), Double(y))
            if Self.isInside(px, py, receipt) {
                let printed = y % 30 < 9 && (x * 7 + y / 30 * 13) % 40 < 30 && px > 320 && px < 560 && py > 160 && py < 1040
                return printed ? [50, 50, 50] : [232, 236, 238]
            }
            if Self.isInside(px, py, card) { return [236, 238, 240] }
            let noise = (x * 7 + y * 13) % 9 - 4
            return [UInt8(120 + noise), UInt8(165 + noise), UInt8(205 + noise)]
        }
        let documents = try DocumentDetector().detect(in: photo)
        #expect(documents.count == 2, "\(documents.map(\.quad))")
        for truth in [receipt, card] {
            let best = documents.map { $0.quad.intersectionOverUnion(Quad(truth)) }.max() ?? 0
            #expect(best >= 0.97, "\(truth[0]): best IoU \(best)")
        }
    }

    @Test("A white page on a desk as light as its paper, outlined only by the hairline of shade at its edge, is found")
    func pageOutlinedByHairline() throws {
        // Seed 83000 prose-09: light falling alike on a white page and a pale desk left no step of colour across
        // most of the page's edge, only the thin line of shade along it; a finger's shadow across the desk was taken
        // for the document (IoU 0). Here the paper and the desk are the same grey under the same gradient of light,
        // and the page's edge is a line 2 pixels wide and 30 levels darker.
        let page = [Point(x: 380, y: 180), Point(x: 1250, y: 260), Point(x: 1180, y: 1060), Point(x: 300, y: 960)]
        let printArea = [Point(x: 470, y: 260), Point(x: 1160, y: 325), Point(x: 1100, y: 980), Point(x: 400, y: 900)]
        func distanceToOutline(_ x: Double, _ y: Double) -> Double {
            (0..<4).map { i in
                let (a, b) = (page[i], page[(i + 1) % 4])
                let (dx, dy) = (b.x - a.x, b.y - a.y)
                let t = max(0, min(1, ((x - a.x) * dx + (y - a.y) * dy) / (dx * dx + dy * dy)))
                return ((x - a.x - t * dx) * (x - a.x - t * dx) + (y - a.y - t * dy) * (y - a.y - t * dy)).squareRoot()
            }.min() ?? .infinity
        }
        let photo = try makeImage(width: 1600, height: 1200) { x, y in
            let (px, py) = (Double(x), Double(y))
            let light = 228 - x / 100 - y / 120 + (x * 7 + y * 13) % 5 - 2
            if distanceToOutline(px, py) < 1 { return [UInt8(light - 30), UInt8(light - 29), UInt8(light - 28)] }
            let printed = Self.isInside(px, py, printArea) && y % 28 < 8 && (x * 7 + y / 28 * 13) % 40 < 31
            return printed ? [60, 60, 60] : [UInt8(light), UInt8(light + 1), UInt8(light + 2)]
        }
        try Self.expectOneDocument(in: photo, outlining: page, minimumIoU: 0.97)
    }

    @Test("Cards of one size side by side are documents, not the squares of a pattern, even one with little print")
    func cardsOfOneSize() throws {
        // Three densely printed cards in a row and a fourth, below, with a single short line of print.
        let cards = [(left: 40, top: 120), (left: 380, top: 120), (left: 720, top: 120), (left: 380, top: 480)]
        let (width, height) = (240, 150)
        let photo = try makeImage(width: 1000, height: 800) { x, y in
            for (n, card) in cards.enumerated() {
                let (right, bottom) = (card.left + width, card.top + height)
                guard x >= card.left, x < right, y >= card.top, y < bottom else { continue }
                let print =
                    n < 3
                    ? x >= card.left + 20 && x < right - 20 && y >= card.top + 25 && y < bottom - 25
                        && (y - card.top) % 20 < 6 && (x * 7 + (y - card.top) / 20 * 13) % 40 < 33
                    : x >= card.left + 20 && x < card.left + 120 && y >= card.top + 30 && y < card.top + 38
                return print ? [40, 40, 40] : [235, 238, 240]
            }
            return [120, 128, 135]
        }
        let documents = try DocumentDetector().detect(in: photo)
        #expect(documents.count == 4, "\(documents.map(\.quad))")
        for card in cards {
            let truth = Self.quad(left: card.left, top: card.top, right: card.left + width, bottom: card.top + height)
            let best = documents.map { $0.quad.intersectionOverUnion(truth) }.max() ?? 0
            #expect(best >= 0.97, "card at \(card): best IoU \(best)")
        }
    }

    /// Photos with several documents that were once merged, split or missed: the fixture and each document's true
    /// corners with the least IoU the detector must reach.
    static let severalDocuments: [(fixture: String, truths: [(corners: [(Double, Double)], minimumIoU: Double)])] = [
        // Seed 33000 multi-06 at 35% (JPEG quality 85): a dark thumb over the middle of a pale card's lower edge on a
        // gingham cloth. With the hidden stretch counted as missing outline, the card fell short of the outline a
        // second document needs and only the receipt was returned.
        ("receipt-and-card-under-thumb-on-gingham.jpg", [
            ([(59.0, 100.4), (423.0, 45.4), (471.3, 966.6), (143.0, 887.7)], 0.98),
            ([(721.9, 492.3), (1376.6, 654.0), (1243.2, 1042.7), (661.8, 826.9)], 0.95),
        ]),
        // Seed 33000 multi-05 (3 MP, shaken by 5.8 px): a thumb over the whole left side of a pale card on wood,
        // beside a receipt. With a quarter of its outline hidden (0.68 seen), the card fell short of the three
        // quarters a second document needs and was missed. The thumb still pulls its left side in (IoU 0.94).
        ("card-under-thumb-on-wood-beside-receipt.jpg", [
            ([(115.2, 415.4), (699.9, 509.8), (668.9, 837.2), (38.9, 778.2)], 0.92),
            ([(798.4, 44.7), (1183.7, 64.3), (1460.8, 1187.1), (1042.9, 1304.1)], 0.98),
        ]),
        // Seed 33000 multi-03 (3 MP, upright at JPEG quality 80 here): a thumb over the end of a receipt on granite,
        // beside a card. The receipt's sides, run on past the thumb, meet at its hidden corner; a near twin whose
        // corner follows the thumb's own edge, 92 px off, was better supported and chosen (IoU 0.975, the receipt's
        // end read sheared).
        ("receipt-end-under-thumb-beside-card.jpg", [
            ([(909.9, 1468.7), (565.0, 1453.5), (258.1, 113.6), (710.1, 53.8)], 0.983),
            ([(1396.2, 915.9), (925.9, 867.3), (934.6, 573.4), (1440.1, 612.0)], 0.98),
        ]),
        // A 2 MP photo from the generator (seed 17000): the carpet's light mottling outlines a region round the
        // receipt and one card that holds no print of its own.
        ("carpet-receipt-and-cards.jpg", [
            ([(169.3, 260.7), (238.5, 63.0), (861.0, 218.6), (880.6, 411.1)], 0.97),
            ([(362.7, 745.5), (450.6, 431.1), (650.0, 486.9), (602.9, 801.3)], 0.97),
            ([(316.4, 1537.0), (368.4, 955.7), (632.6, 960.2), (646.2, 1501.5)], 0.97),
        ]),
        // Seed 33000 multi-02 at 75% (JPEG quality 75): two cards and a receipt on a pale desk, a hand's shadow across
        // the first card. Its lit piece and its shaded piece part by a few pixels along the shadow's soft edge and were
        // taken for two documents (four in all; the lit piece alone has IoU 0.49 with the card). Joined, they are the
        // card short of its left end, in the shade beyond the lit piece (0.70).
        ("card-cut-by-hand-shadow-beside-receipt.jpg", [
            ([(56.1, 689.6), (274.6, 703.4), (264.7, 844.4), (45.4, 831.4)], 0.68),
            ([(391.7, 495.9), (591.4, 524.2), (509.6, 1127.3), (306.1, 1101.3)], 0.97),
            ([(639.2, 631.3), (838.7, 632.6), (839.9, 1025.8), (638.4, 1026.7)], 0.97),
        ]),
        // Seed 51000 multi-01 (2.8 MP, EXIF 8) and multi-04 (2 MP): a navy card and a dark teal one on a black desk,
        // beside a receipt (and a pale card). They differ from the desk by 7 and 9 Lab units, about the 7 that a step
        // of colour needed anywhere, and were missed (IoU 0): in the dark a smaller step counts.
        ("navy-card-on-black-desk-beside-receipt.jpg", [
            ([(942.6, 404.0), (1371.8, 333.1), (1401.9, 612.2), (989.9, 690.1)], 0.98),
            ([(259.0, 110.6), (729.5, 58.4), (932.8, 1302.6), (543.5, 1387.0)], 0.98),
        ]),
        ("teal-card-on-black-desk-between-card-and-receipt.jpg", [
            ([(476.2, 568.0), (483.6, 261.5), (686.9, 261.1), (684.7, 569.1)], 0.98),
            ([(413.9, 967.6), (384.0, 643.8), (591.7, 620.3), (627.4, 944.5)], 0.97),
            ([(89.2, 1464.7), (88.4, 1136.0), (1016.1, 1098.7), (1041.6, 1432.7)], 0.98),
        ]),
        // Seed 55000 multi-08 (2 MP, EXIF 4): a card with a red logo, a thumb over its lower edge, beside another
        // card on wood. The thumb pulled the card's outline 4 px in along that edge, so it scored too low to replace
        // its crisply outlined logo, which was returned instead (IoU 0.04). Kept as a frame round the logo and its
        // own print, its sides moved onto the edges they run beside, it is the card.
        ("card-under-thumb-with-logo-beside-card.jpg", [
            ([(42.9, 815.9), (643.6, 658.4), (750.3, 1026.2), (178.5, 1171.3)], 0.98),
            ([(932.4, 642.7), (1558.1, 616.9), (1534.4, 996.3), (940.7, 1022.7)], 0.98),
        ]),
        // Seed 59000 multi-01 (3 MP, JPEG quality 65): a white card in soft shade on a near-white desk, beside a
        // receipt. The card steps from the desk by a few levels along its lit sides, and its outline scored 0.498,
        // just under the 0.5 an outline needs to be chosen (IoU 0). Its clear lines of print on smooth stock make it a
        // document all the same.
        ("pale-card-on-pale-desk-beside-receipt.jpg", [
            ([(1426.4, 603.4), (1411.3, 929.1), (87.2, 793.2), (116.6, 317.1)], 0.98),
            ([(1005.8, 1167.4), (920.3, 1567.0), (678.7, 1539.4), (776.5, 1112.2)], 0.98),
        ]),
        // Seed 65000 multi-08 (2 MP, JPEG quality 80 here): a pale card on a light desk beside a receipt and a dark
        // card, tilted 30 degrees. Its edges step from the desk by a few levels (0.62 outlined, 0.75 needed) and it
        // was missed, though it holds clear lines of print (0.46) in an outline a camera sees a rectangle as.
        ("pale-card-beside-receipt-and-dark-card.jpg", [
            ([(521.7, 832.0), (133.4, 815.9), (69.6, 601.1), (505.5, 622.2)], 0.98),
            ([(957.3, 1127.4), (660.9, 1122.0), (628.1, 81.3), (1134.2, 103.2)], 0.98),
            ([(1421.9, 923.1), (1071.9, 898.2), (1130.1, 706.7), (1518.0, 738.4)], 0.97),
        ]),
        // Seed 29000 multi-07 (2.8 MP): a dark brown card with a red band on a black desk, beside a receipt and a
        // pale card, an edge's hard shadow beyond it. An outline that took in the shadow beside the card replaced
        // the card's own (0.71 against 0.81), then fell short of the outline a further document needs, and the card
        // was missed (IoU 0). Falling short, it gives the card back. (The red band is still left out.)
        ("dark-card-beside-its-shadow-on-black-desk.jpg", [
            ([(180.9, 324.7), (634.3, 381.5), (527.4, 1357.0), (57.0, 1331.6)], 0.98),
            ([(859.2, 717.2), (1299.7, 759.1), (1276.3, 1046.2), (831.2, 1013.7)], 0.98),
            ([(1442.1, 813.4), (1845.7, 778.3), (1871.0, 1052.4), (1466.5, 1097.0)], 0.94),
        ]),
        // Seed 101000 multi-08 (2.8 MP, EXIF 3): two receipts and a card on a pale desk, a phone's shadow over one
        // receipt. Only that receipt, stepping from the desk by 13 levels, was found; the others step by nothing and
        // were missed (IoU 0). The hairline pass, run when every document found steps by so little, finds them.
        // The card's faint left side then lost to the edge of the receipt beside it: its top and bottom sides, run on
        // across the desk to that edge, made an outline better supported than the card's own (IoU 0.69). An outline
        // that borrows a neighbour's edge across bare desk gives way to the card's own, and a frame from one
        // receipt's edge to the other's, which then held the card and fell short, gives it back.
        ("receipts-and-card-on-pale-desk.jpg", [
            ([(546.4, 322.0), (750.1, 305.0), (743.5, 1217.5), (555.3, 1152.9)], 0.98),
            ([(881.2, 664.4), (1176.7, 656.4), (1185.1, 883.9), (892.1, 865.4)], 0.97),
            ([(1265.5, 159.5), (1667.4, 47.6), (1765.0, 1385.8), (1367.1, 1320.6)], 0.98),
        ]),
        // Seed 69000 multi-07 (3 MP, EXIF 3), the band of it that holds the cards (rows 900-1600 of the upright photo,
        // JPEG quality 90): three cards on a pale desk, a phone's hard shadow across the middle one's right end. Only
        // its lit part was outlined (IoU 0.78): no outline of the shaded rest was proposed to be put back with it.
        ("cards-on-pale-desk-one-cut-by-phone-shadow.jpg", [
            ([(126.6, 300.9), (477.6, 290.3), (455.1, 521.2), (72.6, 530.7)], 0.97),
            ([(610.1, 241.7), (963.7, 254.3), (966.9, 482.1), (581.7, 464.0)], 0.97),
            ([(1024.7, 217.7), (1383.3, 210.2), (1440.3, 433.6), (1048.8, 439.4)], 0.97),
        ]),
        // Seed 111000 multi-02 (2.8 MP, EXIF 3): a card under a thumb beside a long receipt on a dark desk, slightly
        // defocused. The card's outline ran on across the desk to the receipt's crisp edge (IoU 0.75). (The thumb
        // still pulls its left side in.)
        ("card-beside-receipt-on-dark-desk.jpg", [
            ([(38.2, 736.4), (513.3, 775.7), (507.3, 1095.7), (59.2, 1041.3)], 0.95),
            ([(659.9, 112.5), (1250.2, 102.0), (1044.8, 1788.7), (619.0, 1712.7)], 0.98),
        ]),
        // Seed 197000 multi-01 (2 MP, EXIF 5; upright, at two thirds, JPEG quality 70): a receipt and two cards on a
        // pale desk, a phone's hard shadow over the end of the last card and the desk beside it. The shadow's edge on
        // the desk runs on from the card's sides, so the card was outlined with a wedge of the shadow (IoU 0.80; its
        // own side in the shade was never proposed). The side is moved in to where the card alone is outlined all
        // round, the wedge left out being a shadow on the desk.
        ("card-beside-receipt-and-card-in-phone-shadow-wedge.jpg", [
            ([(174.6, 189.0), (224.0, 41.7), (593.3, 222.9), (592.0, 363.0)], 0.98),
            ([(299.1, 527.1), (347.4, 315.6), (481.4, 372.3), (456.0, 577.7)], 0.98),
            ([(325.6, 1010.6), (349.1, 674.8), (509.6, 697.6), (513.8, 1005.6)], 0.97),
        ]),
        // Seed 209000 multi-07 (2 MP, scaled to half, JPEG quality 75): a receipt and two cards on a pale desk, a
        // phone's hard shadow over most of one card. The shadow, a crisp rectangle holding the card's print, was
        // outlined and taken for the card (IoU 0.44). Its outline crosses the card's, whose lit end is the same paper
        // in more light, so it is a shadow and the card is chosen.
        ("card-crossing-phone-shadow-on-pale-desk.jpg", [
            ([(544.2, 72.3), (544.4, 184.5), (117.7, 150.9), (162.1, 52.0)], 0.95),
            ([(360.2, 225.8), (359.4, 393.7), (219.1, 391.6), (239.7, 226.8)], 0.95),
            ([(280.6, 476.5), (247.2, 746.6), (72.3, 724.2), (134.9, 465.1)], 0.92),
        ]),
        // Seed 209000 multi-05 (2 MP, at two fifths, JPEG quality 55): a receipt and a black card with a red logo on a
        // grey desk. Split once by lightness, the card lay with the desk; its outline was missed (or, at full size,
        // its corner cut off behind the logo: IoU 0.78). The darker tones are split again on their own.
        ("black-card-with-red-logo-beside-receipt.jpg", [
            ([(461.3, 612.0), (256.4, 627.9), (141.6, 270.1), (298.0, 185.7)], 0.97),
            ([(170.4, 543.0), (47.4, 571.8), (18.1, 469.3), (131.4, 424.3)], 0.95),
        ]),
        // Seed 231000 multi-01 (2 MP, EXIF 5; upright, at two fifths, JPEG quality 70): three white cards on a black
        // desk, two of them end to end, the second sticking out past the side of an outline round both. That outline
        // was taken for one document (IoU 0.46 and 0.44): what of the cards lies inside it leaves a band of desk.
        ("cards-end-to-end-on-black-desk.jpg", [
            ([(353.0, 262.9), (459.7, 42.5), (548.5, 131.1), (451.3, 322.6)], 0.97),
            ([(219.3, 491.6), (328.6, 291.4), (426.5, 354.9), (327.6, 530.4)], 0.97),
            ([(56.4, 746.6), (187.0, 565.5), (287.8, 610.4), (172.5, 770.7)], 0.97),
        ]),
    ]

    @Test(
        "Several documents in one photo are each found: a card under a thumb beside a receipt (on gingham, on wood), a receipt's end under a thumb, cards and a receipt on mottled carpet, a card cut in two by a hand's shadow, dark cards on a black desk, a card under a thumb behind its own logo, a pale card on a pale desk (twice), a dark card beside its shadow, receipts and a card that barely step from a pale desk, a card whose end a phone's shadow cuts off, a card beside a receipt whose edge its outline must not borrow, a card outlined with a wedge of a phone's shadow, a card that a phone's shadow crosses, a black card with a red logo, two cards end to end",
        arguments: severalDocuments)
    func severalDocumentsInOnePhoto(fixture: String, truths: [(corners: [(Double, Double)], minimumIoU: Double)]) throws {
        let photo = try ImageLoader().load(contentsOf: TestData.fixture(fixture)).image
        let documents = try DocumentDetector().detect(in: photo)
        #expect(documents.count == truths.count, "\(documents.map(\.quad))")
        for truth in truths {
            let quad = Quad(truth.corners.map { Point(x: $0.0, y: $0.1) })
            let best = documents.map { $0.quad.intersectionOverUnion(quad) }.max() ?? 0
            #expect(best >= truth.minimumIoU, "document at \(quad.corners[0]): best IoU \(best)")
        }
    }

    @Test(
        "A page or a receipt on woven cloth is told from the cloth: by its smooth surface where colour alone does not, and apart from a row of light squares running on past its edge",
        arguments: [
            // 2 MP photos from the generator. Seed 13000: gingham whose white squares match the paper, a phone's hard
            // shadow over a corner (found nowhere before). Seed 21000: plain linen as pale as the paper, a hard shadow
            // edge across the page (found as two documents before).
            ("gingham-page-in-phone-shadow.jpg", [(530.7, 1126.9), (175.8, 691.9), (676.5, 73.1), (1211.8, 464.4)]),
            // (The same photo serves as prose-with-unsure-shake.jpg elsewhere.)
            ("prose-with-unsure-shake.jpg", [(65.6, 69.8), (889.3, 260.9), (808.6, 1262.2), (134.2, 1509.2)]),
            // Seed 43000 prose-07 (2 MP, EXIF 7): a page tilted 28 degrees on blue gingham. A row of the cloth's white
            // squares runs on past the page's top and closes an outline with a wedge of cloth at its top right,
            // better supported than the page's own and chosen (IoU 0.921, the page read at 70% CER).
            ("gingham-rows-past-tilted-page.jpg", [(320.1, 145.7), (1008.3, 370.4), (1109.0, 1465.2), (62.5, 1465.3)]),
            // Seed 85000 receipt-02 (3 MP): a receipt on green gingham whose light squares match its paper, a phone's
            // hard shadow across its end. Its dense print and the shadow roughen the paper, so the cloth measured only
            // 2.2 times as rough and was not taken for woven; the receipt was missed and a patch of the cloth
            // outlined instead (IoU 0).
            (
                "receipt-on-green-gingham-in-phone-shadow.jpg",
                [(1962.6, 197.3), (1781.1, 763.6), (216.9, 716.4), (63.2, 144.6)]
            ),
        ])
    func pageOnWovenCloth(fixture: String, corners: [(Double, Double)]) throws {
        try Self.expectOnlyDocument(in: fixture, at: corners)
    }

    /// Detects the documents in `fixture` and expects exactly one, outlined within 0.97 IoU of `corners`.
    static func expectOnlyDocument(in fixture: String, at corners: [(Double, Double)]) throws {
        let photo = try ImageLoader().load(contentsOf: TestData.fixture(fixture)).image
        let truth = Quad(corners.map { Point(x: $0.0, y: $0.1) })
        let documents = try DocumentDetector().detect(in: photo)
        #expect(documents.count == 1, "\(documents.map(\.quad))")
        let best = documents.map { $0.quad.intersectionOverUnion(truth) }.max() ?? 0
        #expect(best >= 0.97, "best IoU with the document \(best)")
    }

    @Test(
        "An outline that adds to a document only a strip of the surface beyond it, or the grey side of a book's page block, loses to the document's own",
        arguments: [
            // Seed 105000 prose-02 (3 MP, shrunk to 80% and saved at JPEG quality 85): a page on grey gingham whose
            // squares match its paper. Rows of them run on past its top and its right side and close an outline as
            // crisp as the page's and a little larger, which was chosen (IoU 0.73 here, 0.84 in the original).
            (
                "page-on-gingham-rows-past-two-sides.jpg",
                [(162.9, 1006.5), (383.3, 173.9), (1399.9, 368.4), (1469.6, 1128.2)]
            ),
            // Seed 97000 card-05 (12 MP, EXIF 2): a dark card on a coarsely mottled carpet, its blotches too large for
            // the fine detail to call rough. An outline round the card and a strip of carpet on each side was chosen
            // (IoU 0.80).
            ("dark-card-on-coarse-carpet.jpg", [(431.7, 353.3), (3828.8, 374.2), (3674.8, 2202.3), (821.3, 2862.2)]),
            // Seed 105000 spread-07 (3 MP, EXIF 3): an open book on a pale desk, the grey side of its page block
            // showing along one edge. The book's outline with the rim and without it were equally supported, and
            // the larger came first (IoU 0.92 with the book; the pages 0.91 and 0.93).
            (
                "book-with-page-block-rim-on-pale-desk.jpg",
                [(950.0, 248.5), (1402.4, 849.8), (886.4, 1725.7), (147.7, 1289.8)]
            ),
        ])
    func stripOfSurfaceIsNoPartOfTheDocument(fixture: String, corners: [(Double, Double)]) throws {
        try Self.expectOnlyDocument(in: fixture, at: corners)
    }

    @Test(
        "A receipt outlined on over a board of the desk's colour beyond its end is trimmed to its end",
        arguments: [-20.0, 8.0])
    func outlineTrimmedOffDesk(degrees: Double) throws {
        // Seed 133000 multi-05 (3 MP): a receipt outlined on to a line of the wood's grain a tenth of its length beyond
        // its end (IoU 0.900). Drawn: a receipt 200 × 533 with rows of print on a dark orange desk, and beyond its top
        // end a board as wide as it and 12% of its length, of the desk's chroma and lighter (Lab lightness 165 against
        // 110): receipt and board together are outlined crisply all round, and are the larger outline. Measured
        // before the trim: the board taken in at both angles (IoU 0.89).
        let (centreX, centreY, width, length) = (466.7, 433.3, 200.0, 533.3)
        let angle = degrees * .pi / 180
        let across = (x: cos(angle), y: sin(angle)), along = (x: -sin(angle), y: cos(angle))
        let photo = try makeImage(width: 1000, height: 800) { x, y in
            let (dx, dy) = (Double(x) - centreX, Double(y) - centreY)
            let a = dx * across.x + dy * across.y, b = dx * along.x + dy * along.y
            guard abs(a) <= width / 2 else { return [30, 86, 150] }
            if abs(b) <= length / 2 {
                let row = (b + length / 2 - 41.7).truncatingRemainder(dividingBy: 35)
                let printed = b + length / 2 >= 41.7 && b + length / 2 < 41.7 + 13 * 35 && row >= 0 && row < 9.2
                    && (a < width / 2 - 70.8 && a > -width / 2 + 18.3 || a > width / 2 - 54.2 && a < width / 2 - 18.3)
                return printed ? [60, 60, 60] : [228, 234, 236]
            }
            return b < -length / 2 && b >= -length / 2 - 0.12 * length ? [82, 140, 213] : [30, 86, 150]
        }
        let corner = { (a: Double, b: Double) in
            Point(x: centreX + a * across.x + b * along.x, y: centreY + a * across.y + b * along.y)
        }
        let receipt = [
            corner(-width / 2, -length / 2), corner(width / 2, -length / 2), corner(width / 2, length / 2),
            corner(-width / 2, length / 2),
        ]
        try Self.expectOneDocument(in: photo, outlining: receipt, minimumIoU: 0.97)
    }

    @Test("Two cards one above the other, their sides in line, are two documents, not one outline round both",
        arguments: [-12.0, 5.0])
    func cardsInLineAreTwoDocuments(degrees: Double) throws {
        // Seed 139000 multi-04 (2 MP): two white cards on a pale grey desk, a tenth of their length apart, whose long
        // sides run along the same two lines. The outline along those lines, round both cards and the desk between
        // them, replaced them and was then taken as their whole (IoU 0.448, one card missed). Drawn: two cards of
        // 100 × 190 with rows of print, 50 apart; without the check, one outline round both at both angles.
        let (centreX, centreY, width, length, gap) = (500.0, 400.0, 100.0, 190.0, 50.0)
        let angle = degrees * .pi / 180
        let across = (x: cos(angle), y: sin(angle)), along = (x: -sin(angle), y: cos(angle))
        let photo = try makeImage(width: 1000, height: 800) { x, y in
            let (dx, dy) = (Double(x) - centreX, Double(y) - centreY)
            let a = dx * across.x + dy * across.y, b = dx * along.x + dy * along.y
            guard abs(a) <= width / 2 && abs(b) >= gap / 2 && abs(b) <= gap / 2 + length else { return [196, 198, 200] }
            let fromEnd = abs(b) - gap / 2
            let printed = fromEnd >= 0.15 * length && fromEnd < 0.8 * length
                && fromEnd.truncatingRemainder(dividingBy: 0.1 * length) < 0.03 * length
                && a > -0.35 * width && a < 0.2 * width
            return printed ? [70, 70, 70] : [236, 238, 240]
        }
        let corner = { (a: Double, b: Double) in
            Point(x: centreX + a * across.x + b * along.x, y: centreY + a * across.y + b * along.y)
        }
        let cards = [-1.0, 1.0].map { side in
            let near = side * gap / 2, far = side * (gap / 2 + length)
            return Quad([corner(-width / 2, near), corner(width / 2, near), corner(width / 2, far), corner(-width / 2, far)])
        }
        let documents = try DocumentDetector().detect(in: photo)
        #expect(documents.count == 2, "\(documents.map(\.quad))")
        for card in cards {
            let best = documents.map { $0.quad.intersectionOverUnion(card) }.max() ?? 0
            #expect(best >= 0.95, "best IoU \(best): \(documents.map(\.quad))")
        }
    }

    @Test(
        "A card's accent bar along its end is part of the card, on a pale desk, a dark one and a wooden one",
        arguments: ["pale", "dark", "wooden"], [150.0, 300.0])
    func accentBarIsPartOfCard(desk: String, length: Double) throws {
        // Seeds 123000-143000: a third of the generated business cards carry a coloured bar along their left end, a
        // twentieth of their length. On a pale desk the bar steps from the paper more than from the desk, and the
        // corners refined at full size moved onto the paper's edge (seed 139000 multi-04, IoU 0.926); on wood, whose
        // colour is near a red bar's, the working outline held the paper alone (seed 131000 multi-05, 0.953). Drawn: a
        // white card `length` long, with a red bar a twentieth of that and rows of print, turned by 8 degrees on a
        // 1000 × 800 photo; the wooden desk with a grain that runs in waves across it.
        let (centreX, centreY, height, bar) = (500.0, 400.0, length * 55 / 85, length / 20)
        let angle = 8 * Double.pi / 180
        let along = (x: cos(angle), y: sin(angle)), across = (x: -sin(angle), y: cos(angle))
        let surface = { (x: Int, y: Int) -> [UInt8] in
            switch desk {
            case "pale": return [196, 198, 200]
            case "dark": return [22, 21, 20]
            default:
                let grain = 1 - 0.15 * (0.5 + 0.5 * sin(Double(y) * 0.2 + 4 * sin(Double(x) * 0.013)))
                return [70, 120, 190].map { UInt8(($0 * grain).rounded()) }
            }
        }
        let photo = try makeImage(width: 1000, height: 800) { x, y in
            let (dx, dy) = (Double(x) - centreX, Double(y) - centreY)
            let a = dx * along.x + dy * along.y, b = dx * across.x + dy * across.y
            guard abs(a) <= length / 2 && abs(b) <= height / 2 else { return surface(x, y) }
            if a < -length / 2 + bar { return [40, 40, 180] }
            let fromTop = b + height / 2
            let printed = a > -0.3 * length && a < 0.3 * length && fromTop >= 0.15 * height && fromTop < 0.85 * height
                && fromTop.truncatingRemainder(dividingBy: 0.12 * height) < 0.04 * height
            return printed ? [60, 60, 60] : [240, 238, 236]
        }
        let corner = { (a: Double, b: Double) in
            Point(x: centreX + a * along.x + b * across.x, y: centreY + a * along.y + b * across.y)
        }
        let card = Quad([
            corner(-length / 2, -height / 2), corner(length / 2, -height / 2), corner(length / 2, height / 2),
            corner(-length / 2, height / 2),
        ])
        let documents = try DocumentDetector().detect(in: photo)
        #expect(documents.count == 1, "\(documents.map(\.quad))")
        let best = documents.map { $0.quad.intersectionOverUnion(card) }.max() ?? 0
        #expect(best >= 0.98, "best IoU \(best): \(documents.map(\.quad))")
    }

    @Test("A book beside the hard shadow a phone casts is one document: the shadow's band holds no print")
    func shadowBandIsNoDocument() throws {
        // A 3 MP photo from the generator (seed 9000): the phone's shadow falls on the light desk beside the book in
        // a crisply outlined band, which the line measure (fooled by sensor noise) took for a printed page.
        let photo = try ImageLoader().load(contentsOf: TestData.fixture("spread-beside-phone-shadow.jpg")).image
        let book = Quad([(643.6, 282.1), (1841.1, 589.8), (1815.5, 1390.9), (419.7, 1271.5)].map { Point(x: $0.0, y: $0.1) })
        let documents = try DocumentDetector().detect(in: photo)
        #expect(documents.count == 1, "\(documents.map(\.quad))")
        let best = documents.map { $0.quad.intersectionOverUnion(book) }.max() ?? 0
        #expect(best >= 0.85, "best IoU with the book \(best)")
    }

    /// Photos whose document something once hid or cut: the fixture, the document's true corners, and the least IoU
    /// the detector must reach.
    static let hiddenDocuments: [(fixture: String, corners: [(Double, Double)], minimumIoU: Double)] = [
        // Seed 25000 prose-06 (2 MP): a justified page on a light desk, half in a hard shadow. Its right edge is
        // too faint to outline, and the left edge of the text block and the page's sides made two outlines that
        // share a whole side (two documents, IoU 0.52 with the page). Joined, they are the page short of its right
        // margin, which is still lost.
        ("page-cut-by-text-edge.jpg", [(320.6, 1263.1), (407.3, 95.5), (1812.0, 455.8), (1560.4, 1344.5)], 0.75),
        // Seed 25000 form-04, shrunk from 12 MP to 1.9 MP: a phone's shadow over the form's corner, outlined more
        // crisply than the form and holding a rule and a few words of it, was taken for a second document and
        // kept the form from being chosen (two pages, IoU 0.79).
        ("form-under-phone-shadow.jpg", [(165.3, 546.0), (739.0, 320.8), (917.6, 1446.8), (353.9, 1357.3)], 0.97),
        // Photos from the generator (seed 23000). A 12 MP card on a plain desk: the JPEG's blocks spread the
        // desk's fine texture so widely that it passed for woven cloth, and every outline was dropped as a patch
        // of it (the whole frame came back). A receipt beside the crisp shadow of a phone, which was taken for
        // the document and hid the receipt it overlaps (IoU 0.29). A dark card on wood under a thumb that leaves
        // one word clear, which was taken for the card (IoU 0.01).
        ("card-on-noisy-desk.jpg", [(225.5, 876.0), (3445.8, 83.0), (3934.9, 2941.0), (178.2, 2752.4)], 0.97),
        ("receipt-beside-phone-shadow.jpg", [(229.8, 24.2), (667.3, 67.2), (561.7, 1415.8), (24.2, 1347.4)], 0.97),
        ("dark-card-on-wood-under-thumb.jpg", [(35.3, 481.9), (1776.2, 35.3), (1957.5, 1295.5), (260.9, 1476.7)], 0.93),
        // Seed 29000 receipt-07 (2 MP, EXIF 4): a phone's shadow and a thumb cut a receipt on cloth into a lit
        // top, a shadowed corner and a lit strip; the top and the corner fill nine tenths of the receipt's own
        // outline, which was passed over for them (two pages, IoU 0.65).
        ("receipt-cut-by-phone-shadow.jpg", [(827.1, 204.6), (1373.0, 42.3), (1567.5, 1137.0), (993.6, 1142.4)], 0.97),
        // Seed 27000 receipt-04 (12 MP, shaken by 9.7 px): a hand's shadow across a receipt on wood and a thumb over
        // its end. The receipt's outline took in the shadowed strip but not the tip of the thumb, a speck half over
        // its edge, and lost to the strip (IoU 0.10).
        // (JPEG quality 60 here.)
        ("receipt-under-hand-shadow-and-thumb.jpg", [(141.2, 2922.8), (297.4, 1091.0), (3984.3, 1612.2), (3680.6, 2799.7)], 0.97),
        // Seed 29000 receipt-02 (12 MP, JPEG quality 60 here): a shadow's edge across a receipt's end on wood runs on
        // across the lit desk beyond it, and the outline it closes (the receipt and a strip of desk) was chosen
        // over the receipt's own, both fully supported (IoU 0.966, the page read askew).
        ("receipt-past-shadow-edge-on-wood.jpg", [(1535.9, 224.6), (2463.6, 385.8), (2144.2, 3591.2), (1064.0, 3467.2)], 0.985),
        // Seed 27000 card-05 at 35% (JPEG quality 85): a card lying wholly in a phone's hard shadow on a light desk.
        // The shadow's crisp outline, round the card and a band of shaded desk, was nearly as well supported as the
        // card's own and replaced it (IoU 0.76).
        ("card-in-phone-shadow.jpg", [(86.1, 833.5), (344.6, 57.9), (842.2, 213.2), (595.7, 996.8)], 0.98),
        // Seed 29000 receipt-05 at 70% (JPEG quality 85): a phone's shadow over a receipt's end on dark denim,
        // darker than its surroundings all round but on average by only 15 levels (little over the denim, much over
        // the paper), was kept as a document and cut the receipt short (two pages, IoU 0.63).
        ("receipt-under-phone-shadow-on-denim.jpg", [(910.7, 1092.1), (305.7, 956.4), (525.6, 96.1), (988.0, 99.4)], 0.98),
        // Seed 27000 form-04 (2 MP, JPEG quality 80 here): a phone's shadow over a form's corner on a light desk,
        // holding weak lines (0.14) and few marks of the form's print, was kept as a second document and cut the
        // form along its edge (two pages, IoU 0.83; one page, 0.975, at this quality).
        ("form-corner-in-phone-shadow.jpg", [(85.5, 152.4), (1017.5, 95.7), (1101.1, 1213.2), (379.5, 1459.6)], 0.99),
        // Seed 53000 card-03 (2.8 MP, original bytes: saved again, the speck is no longer outlined): a close-up card
        // on granite. A cluster of dark grains beside it, a seventy-seventh of its size and darker than the stone
        // round it, made lines enough (0.32) to pass for print and was kept as a second document.
        ("card-beside-dark-granite-grains.jpg", [(1517.9, 1174.2), (424.2, 861.3), (304.4, 138.5), (1733.7, 163.0)], 0.98),
        // Pieces cut off along a slanting edge, which no camera sees as a rectangle. Seed 27000 card-03 (3 MP): a
        // phone's shadow across a card on wood and a thumb over its left end; the lit piece, bounded by the shadow's
        // edge, was taken for the card (IoU 0.56). Seed 45000 card-06 (2 MP): a card on green gingham under a
        // thumb; a wedge bounded by the card's side and the cloth's checks was taken for it (IoU 0.10). The thumb
        // still hides part of each card's edge.
        ("card-cut-by-phone-shadow-edge.jpg", [(39.2, 200.6), (1817.7, 57.4), (1958.7, 1210.7), (105.2, 1388.2)], 0.92),
        ("card-under-thumb-on-gingham.jpg", [(935.8, 78.3), (883.5, 1168.1), (332.7, 1037.9), (369.3, 145.0)], 0.92),
        // Seed 37000 card-02 (2 MP): a hand's shadow and a thumb across a card on a dark desk cut it into a large
        // piece and a slanting wedge. The large piece fills most of the card's outline, which the thumb alone
        // interrupts, and gives way to it, as the two pieces together did when the wedge still counted.
        ("card-cut-by-hand-shadow-under-thumb.jpg", [(960.0, 47.2), (1168.2, 1485.5), (310.4, 1575.7), (27.4, 262.9)], 0.98),
        // Seed 47000 card-02 (2.8 MP): a dark card on mottled carpet. Two specks of the carpet at the photo's edge, a
        // hundredth of the card's size, no lighter or darker than the carpet round them but with lines in their
        // mottling, were kept as documents (three pages).
        ("card-on-mottled-carpet.jpg", [(107.4, 375.7), (1864.3, 85.9), (1720.2, 934.5), (494.3, 1382.7)], 0.98),
        // Seed 61000 prose-09 (2.8 MP): a page on a dark desk, an edge's hard shadow along its right side. Each of
        // a chain of slightly larger outlines, the last taking in the shadow's dark strip, was within 0.05 of the one
        // it replaced, and the page's own (1.0) gave way to the last (0.94; IoU 0.89).
        ("page-beside-shadow-strip-on-dark-desk.jpg", [(54.8, 963.3), (156.5, 49.5), (1554.0, 140.6), (1358.5, 1273.3)], 0.98),
        // Seed 69000 card-01 (2.8 MP, EXIF 2): a phone's hard shadow over most of a card on a light desk. The shadow's
        // outline, across the card and onto the desk, was crisper than the card's (0.98 against 0.86) and was taken
        // for it (IoU 0.77). The card's outline holds it and a strip of its own paper in full light.
        ("card-half-in-phone-shadow.jpg", [(103.1, 1022.6), (1172.7, 802.0), (1347.9, 1767.1), (202.4, 1698.0)], 0.98),
    ]

    @Test(
        "Documents are found past what once hid or cut them: desk noise taken for cloth, a phone's shadow, a thumb over a card, a text block's edge, specks of the surface beside one, a shadow's strip along one, a shadow's outline across one",
        arguments: hiddenDocuments)
    func documentPastWhatHidIt(fixture: String, corners: [(Double, Double)], minimumIoU: Double) throws {
        let photo = try ImageLoader().load(contentsOf: TestData.fixture(fixture)).image
        let document = Quad(corners.map { Point(x: $0.0, y: $0.1) })
        let documents = try DocumentDetector().detect(in: photo)
        #expect(documents.count == 1, "\(documents.map(\.quad))")
        let best = documents.map { $0.quad.intersectionOverUnion(document) }.max() ?? 0
        #expect(best >= minimumIoU, "best IoU with the document \(best)")
    }

    /// A rectangle turned by `degrees` about its centre, as the centre, half its width and half its height.
    struct TurnedRectangle {
        var centre: (x: Double, y: Double), half: (width: Double, height: Double), degrees: Double

        /// The point (`x`, `y`) in the rectangle's own frame: along its width, along its height, from its centre.
        func local(_ x: Double, _ y: Double) -> (u: Double, v: Double) {
            let (c, s) = (cos(degrees * .pi / 180), sin(degrees * .pi / 180))
            let (dx, dy) = (x - centre.x, y - centre.y)
            return (dx * c + dy * s, -dx * s + dy * c)
        }

        func contains(_ x: Double, _ y: Double) -> Bool {
            let (u, v) = local(x, y)
            return abs(u) < half.width && abs(v) < half.height
        }

        /// Its corners, clockwise on screen from the top-left.
        var quad: Quad {
            let (c, s) = (cos(degrees * .pi / 180), sin(degrees * .pi / 180))
            return Quad([(-1.0, -1.0), (1, -1), (1, 1), (-1, 1)].map { signs in
                let (u, v) = (signs.0 * half.width, signs.1 * half.height)
                return Point(x: centre.x + u * c - v * s, y: centre.y + u * s + v * c)
            })
        }
    }

    @Test("A navy card a few levels darker than a black desk is found beside a page")
    func darkCardOnDarkDesk() throws {
        // Seed 151000 multi-07 (2.8 MP): a navy card at 18 on a desk at 23, under every threshold the outlines were
        // judged by, was missed beside a receipt and a light card. Drawn: a page and a navy card with light print on a
        // black desk (25, 24, 23 against the card's 22, 17, 15), blurred (three passes of a 3 x 3 box, about a
        // Gaussian of 1.4 px) and given sensor noise (about 2 levels).
        let (width, height) = (1200, 900)
        let page = TurnedRectangle(centre: (380, 450), half: (225, 330), degrees: 12)
        let card = TurnedRectangle(centre: (880, 380), half: (210, 128), degrees: -8)
        var planes = [[Float]](repeating: [Float](repeating: 0, count: width * height), count: 3)
        for y in 0..<height {
            for x in 0..<width {
                var colour: [Float] = [25, 24, 23]
                if page.contains(Double(x), Double(y)) {
                    let (u, v) = page.local(Double(x), Double(y))
                    let print = abs(u) < 170 && abs(v) < 280 && (v + 280).truncatingRemainder(dividingBy: 28) < 9
                    colour = print ? [60, 60, 60] : [215, 220, 222]
                } else if card.contains(Double(x), Double(y)) {
                    let (u, v) = card.local(Double(x), Double(y))
                    let print = u > -170 && u < 140 && abs(v) < 90 && (v + 90).truncatingRemainder(dividingBy: 30) < 9
                    colour = print ? [190, 190, 190] : [22, 17, 15]
                }
                for c in 0..<3 { planes[c][y * width + x] = colour[c] }
            }
        }
        // A 3 x 3 box average, the edges repeated outwards.
        func boxBlurred(_ plane: [Float]) -> [Float] {
            var across = plane, out = plane
            for y in 0..<height {
                for x in 0..<width {
                    let row = y * width
                    across[row + x] = (plane[row + max(x - 1, 0)] + plane[row + x] + plane[row + min(x + 1, width - 1)]) / 3
                }
            }
            for y in 0..<height {
                for x in 0..<width {
                    out[y * width + x] =
                        (across[max(y - 1, 0) * width + x] + across[y * width + x] + across[min(y + 1, height - 1) * width + x]) / 3
                }
            }
            return out
        }
        for c in 0..<3 { for _ in 0..<3 { planes[c] = boxBlurred(planes[c]) } }
        // Noise: three hashed uniform values per pixel, summed (the same for each channel, as a sensor's brightness).
        func uniform(_ x: Int, _ y: Int, _ k: UInt64) -> Float {
            let mixed = (UInt64(x) &* 374_761_393 &+ UInt64(y) &* 668_265_263 &+ k &* 2_246_822_519) & 0xffff_ffff
            return Float((mixed &* 2_654_435_761) >> 7 & 0xffff) / 65535
        }
        let photo = try makeImage(width: width, height: height) { x, y in
            let noise = (uniform(x, y, 1) + uniform(x, y, 2) + uniform(x, y, 3) - 1.5) * 4
            return (0..<3).map { UInt8(clamping: Int((planes[$0][y * width + x] + noise).rounded())) }
        }
        let documents = try DocumentDetector().detect(in: photo)
        #expect(documents.count == 2, "\(documents.map(\.quad))")
        for (name, truth) in [("page", page.quad), ("card", card.quad)] {
            let best = documents.map { $0.quad.intersectionOverUnion(truth) }.max() ?? 0
            #expect(best >= 0.95, "\(name): best IoU \(best)")
        }
    }

    @Test("A further outline that is truly twenty times as long as it is wide is a sliver of the desk; a receipt is kept, and so is the main document")
    func documentProportions() {
        // Seed 45000 card-04 (12 MP, camera tilted 32 degrees): a purple card on carpet, and beside it a wedge of carpet
        // that came out 251 x 4829 pixels once flattened.
        let (width, height) = (4032, 3024)
        func document(_ corners: [(Double, Double)]) -> DetectedDocument {
            DetectedDocument(quad: Quad(corners.map { Point(x: $0.0, y: $0.1) }), confidence: 0.8, detected: true)
        }
        let card = document([(174.2, 425.2), (3755.2, 622.7), (3192.0, 2700.3), (618.3, 2088.2)])
        let wedge = document([(3835.4, 326.5), (3967.3, 368.0), (3899.3, 2985.6), (3118.6, 2971.4)])
        #expect(DocumentDetector.elongation(of: wedge.quad, imageWidth: width, imageHeight: height) > 15)
        // Seed 47000 receipt-05: an 80 x 298 mm till receipt (3.72 times as long as it is wide) in a 1200 x 1600
        // photo, camera tilted 25 degrees, its true corners.
        let receiptCorners = [(1138.0, 856.0), (1084.9, 1109.2), (47.0, 794.2), (180.7, 434.8)]
        let receiptElongation = DocumentDetector.elongation(
            of: Quad(receiptCorners.map { Point(x: $0.0, y: $0.1) }), imageWidth: 1200, imageHeight: 1600)
        #expect(abs(receiptElongation - 298 / 80.0) < 0.05, "receipt: \(receiptElongation)")
        // In the 12 MP photo, a receipt beside the card, seen less steeply.
        let receipt = document([(1200, 300), (1700, 330), (1800, 2600), (1050, 2650)])
        let kept = DocumentDetector.withDocumentProportions(
            [card, wedge, receipt], imageWidth: width, imageHeight: height, maximumElongation: 12)
        #expect(kept == [card, receipt])
        // The main document is never dropped: when nothing else qualifies, it is what the photo shows.
        #expect(
            DocumentDetector.withDocumentProportions([wedge, card], imageWidth: width, imageHeight: height, maximumElongation: 12)
                == [wedge, card])
    }
}
