import DocScan
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
}
