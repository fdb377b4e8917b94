import DocScan
import Foundation
import Testing

@Suite("Geometry")
struct GeometryTests {
    @Test("A homography from four point pairs maps them exactly, and its inverse maps back")
    func homographyRoundTrip() throws {
        let source = [Point(x: 10, y: 20), Point(x: 400, y: 35), Point(x: 420, y: 610), Point(x: -5, y: 590)]
        let target = Quad(width: 300, height: 400).corners
        let h = try #require(Homography(from: source, to: target))
        for (s, t) in zip(source, target) { #expect(h.apply(s).distance(to: t) < 1e-6) }
        let inverse = try #require(h.inverse)
        for (s, t) in zip(source, target) { #expect(inverse.apply(t).distance(to: s) < 1e-6) }
        let identity = h.followed(by: inverse)
        let p = Point(x: 123, y: 456)
        #expect(identity.apply(p).distance(to: p) < 1e-6)
    }

    @Test("Collinear points give no homography")
    func degenerate() {
        let line = [Point(x: 0, y: 0), Point(x: 1, y: 1), Point(x: 2, y: 2), Point(x: 3, y: 3)]
        #expect(Homography(from: line, to: Quad(width: 10, height: 10).corners) == nil)
    }

    @Test("IoU of hand-computed cases")
    func intersectionOverUnion() {
        let a = Quad([Point(x: 0, y: 0), Point(x: 2, y: 0), Point(x: 2, y: 2), Point(x: 0, y: 2)])
        let shifted = Quad(a.corners.map { Point(x: $0.x + 1, y: $0.y) })  // overlap 2 of union 6
        let far = Quad(a.corners.map { Point(x: $0.x + 5, y: $0.y) })
        // Area 2, inside a.
        let diamond = Quad([Point(x: 1, y: 0), Point(x: 2, y: 1), Point(x: 1, y: 2), Point(x: 0, y: 1)])
        #expect(abs(a.intersectionOverUnion(a) - 1) < 1e-12)
        #expect(abs(a.intersectionOverUnion(shifted) - 1.0 / 3) < 1e-12)
        #expect(a.intersectionOverUnion(far) == 0)
        #expect(abs(a.intersectionOverUnion(diamond) - 0.5) < 1e-12)
        // Winding does not matter.
        #expect(abs(a.intersectionOverUnion(Quad(diamond.corners.reversed())) - 0.5) < 1e-12)
    }

    @Test("Relabelling corners after quarter turns")
    func rotatedLabels() {
        let q = Quad([Point(x: 0, y: 0), Point(x: 1, y: 0), Point(x: 1, y: 1), Point(x: 0, y: 1)])
        #expect(q.rotatedLabels(quarterTurns: 1).topLeft == q.bottomLeft)
        #expect(q.rotatedLabels(quarterTurns: 2).topLeft == q.bottomRight)
        #expect(q.rotatedLabels(quarterTurns: 3).topLeft == q.topRight)
        #expect(q.rotatedLabels(quarterTurns: 4) == q)
    }

    @Test("A quad's up direction in its image, to the nearest quarter turn")
    func uprightRotation() {
        let upright = Quad([Point(x: 0, y: 0), Point(x: 100, y: 0), Point(x: 100, y: 300), Point(x: 0, y: 300)])
        #expect(upright.uprightRotation == 0)
        // A page image that had to be turned a quarter clockwise to stand upright had its top on the left: 270.
        #expect(upright.rotatedLabels(quarterTurns: 1).uprightRotation == 270)
        #expect(upright.rotatedLabels(quarterTurns: 2).uprightRotation == 180)
        #expect(upright.rotatedLabels(quarterTurns: 3).uprightRotation == 90)
        // Seed 33000 receipt-06, lying at about 140°: nearer upside down than a quarter turn, whichever corner the
        // outline happened to start from.
        let receipt = Quad([
            Point(x: 3530, y: 2485), Point(x: 2809, y: 2905), Point(x: 1068, y: 700), Point(x: 1511, y: 132),
        ])
        #expect(receipt.uprightRotation == 180)
        // A page whose top points right.
        let right = Quad([Point(x: 300, y: 0), Point(x: 300, y: 100), Point(x: 0, y: 100), Point(x: 0, y: 0)])
        #expect(right.uprightRotation == 90)
    }

    /// Projects a rectangle of `width` x `height` mm lying on a table through a pinhole camera tilted by `tilt` degrees
    /// about an axis at `azimuth` degrees, with focal length `focal` pixels and the principal point at the centre.
    static func photograph(
        width: Double, height: Double, tilt: Double, azimuth: Double, focal: Double, distance: Double
    ) -> Quad {
        let t = tilt * .pi / 180, a = azimuth * .pi / 180
        let axis = (cos(a), sin(a), 0.0)
        // Rodrigues rotation of a point about `axis` by `t`.
        func rotate(_ p: (Double, Double, Double)) -> (Double, Double, Double) {
            let (kx, ky, kz) = axis
            let dot = kx * p.0 + ky * p.1 + kz * p.2
            let cross = (ky * p.2 - kz * p.1, kz * p.0 - kx * p.2, kx * p.1 - ky * p.0)
            let c = cos(t), s = sin(t)
            return (
                p.0 * c + cross.0 * s + kx * dot * (1 - c), p.1 * c + cross.1 * s + ky * dot * (1 - c),
                p.2 * c + cross.2 * s + kz * dot * (1 - c)
            )
        }
        let corners = [
            (-width / 2, -height / 2), (width / 2, -height / 2), (width / 2, height / 2), (-width / 2, height / 2),
        ]
        return Quad(
            corners.map { x, y in
                let (px, py, pz) = rotate((x, y, 0))
                let z = pz + distance
                return Point(x: 2016 + focal * px / z, y: 1512 + focal * py / z)
            })
    }

    @Test(
        "True aspect ratio from a tilted photo of an A4 page, whatever the lens when the tilt is oblique",
        arguments: [(0.0, 0.0, 0.72), (20, 30, 0.72), (40, 135, 0.72), (30, 250, 0.72), (30, 30, 1.4), (35, 120, 0.55)])
    func aspectRatio(tilt: Double, azimuth: Double, focal: Double) {
        let quad = Self.photograph(
            width: 210, height: 297, tilt: tilt, azimuth: azimuth, focal: focal * 4032, distance: 450)
        let estimate = PerspectiveCorrector.aspectRatio(of: quad, imageWidth: 4032, imageHeight: 3024)
        #expect(abs(estimate / (210.0 / 297) - 1) < 0.01, "estimated \(estimate), true \(210.0 / 297)")
        // The naive estimate from edge lengths is far off under strong tilt; the camera model is not.
        if tilt >= 35 {
            let naive =
                (quad.topLeft.distance(to: quad.topRight) + quad.bottomLeft.distance(to: quad.bottomRight))
                / (quad.topLeft.distance(to: quad.bottomLeft) + quad.topRight.distance(to: quad.bottomRight))
            #expect(abs(naive / (210.0 / 297) - 1) > abs(estimate / (210.0 / 297) - 1))
        }
    }

    @Test(
        "Tilt square to the page: the focal length is unobservable, so EXIF's 35 mm equivalent is used",
        arguments: [0.0, 90])
    func aspectRatioWithEXIFFocalLength(azimuth: Double) {
        // A 28 mm-equivalent lens: 28 / 43.27 of the 5040-pixel diagonal.
        let focal = 28 / 43.27 * 5040
        let quad = Self.photograph(width: 210, height: 297, tilt: 35, azimuth: azimuth, focal: focal, distance: 450)
        let withEXIF = PerspectiveCorrector.aspectRatio(
            of: quad, imageWidth: 4032, imageHeight: 3024, focalLength35mm: 28)
        #expect(abs(withEXIF / (210.0 / 297) - 1) < 0.002)
    }

    @Test("Page size keeps about the source's pixel count, and a DPI target uses the recognised paper size")
    func pageSize() {
        let quad = Self.photograph(width: 210, height: 297, tilt: 25, azimuth: 60, focal: 0.72 * 4032, distance: 450)
        let size = PerspectiveCorrector().pageSize(for: quad, imageWidth: 4032, imageHeight: 3024)
        #expect(abs(Double(size.width * size.height) / quad.area - 1) < 0.01)
        let atDPI = PerspectiveCorrector(resolution: .dotsPerInch(200)).pageSize(
            for: quad, imageWidth: 4032, imageHeight: 3024)
        #expect(atDPI.width == 1654 && atDPI.height == 2339)  // A4 at 200 dpi
    }

    @Test("Separate documents are ordered in rows top to bottom, left to right within a row")
    func readingOrder() {
        func box(_ x: Double, _ y: Double, _ w: Double, _ h: Double) -> Quad {
            Quad([Point(x: x, y: y), Point(x: x + w, y: y), Point(x: x + w, y: y + h), Point(x: x, y: y + h)])
        }
        // Two side by side (the right one slightly higher), one below.
        let quads = [box(0, 600, 300, 200), box(400, 40, 300, 400), box(0, 60, 300, 400)]
        let sorted = ReadingOrder.sorted(quads) { $0 }
        #expect(sorted == [quads[2], quads[1], quads[0]])
    }

    @Test("A warp sampled cubically keeps a thin stroke darker than one sampled bilinearly, and both keep the paper")
    func warpSampling() throws {
        // A 1-pixel dark stroke (40) on paper (230), shifted half a pixel: every sample falls between two pixels.
        // Bilinear sampling averages the stroke with the paper beside it (135); cubic sampling, by its weights at
        // the half (-0.09, 0.59, 0.59, -0.09), keeps it near 117.
        let width = 40, height = 8
        var pixels = [UInt8](repeating: 230, count: width * height)
        for y in 0..<height { pixels[y * width + 20] = 40 }
        let image = try Image(width: width, height: height, pixelFormat: .gray, pixels: pixels)
        func darkest(_ sampling: Image.Sampling) throws -> (stroke: Int, paper: Int) {
            let warped = try image.warped(by: .translation(x: 0.5, y: 0), width: width, height: height, sampling: sampling)
            let row = (0..<width).map { Int(warped.pixel(x: $0, y: height / 2)[0]) }
            return (row[17...23].min()!, min(row[2...14].min()!, row[26...37].min()!))
        }
        let linear = try darkest(.linear), cubic = try darkest(.cubic)
        #expect(abs(linear.stroke - 135) <= 1, "bilinear: \(linear.stroke)")
        #expect(cubic.stroke + 10 <= linear.stroke, "darkest stroke pixel: cubic \(cubic.stroke), linear \(linear.stroke)")
        #expect(linear.paper >= 229 && cubic.paper >= 229, "paper: linear \(linear.paper), cubic \(cubic.paper)")
        // The scanner samples small pages (an A4 page at 150 dpi) cubically, large ones (at 200 dpi) bilinearly.
        #expect(DocumentScanner.sampling(forPageWidth: 1240, height: 1754) == .cubic)
        #expect(DocumentScanner.sampling(forPageWidth: 1654, height: 2339) == .linear)
    }
}
