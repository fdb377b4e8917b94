import Foundation

/// Stage 3 of the pipeline: the flat-page geometry of a photographed rectangle, and the warp that produces it.
///
/// The aspect ratio comes from a pinhole camera model (Zhang and He, "Whiteboard scanning and image enhancement", 2007):
/// the quad's vanishing geometry gives the focal length, and with it the rectangle's true proportions. Where the quad is
/// too close to a parallelogram for the focal length to be observable (a page square to the tilt), the focal length
/// recorded in the photo's EXIF data is used, and without it a typical phone main camera (24-26 mm equivalent). The output resolution follows the source: the page gets about as many pixels as the quad covers
/// in the photo, so nothing is blindly enlarged.
public struct PerspectiveCorrector: Sendable {
    /// How the size of the flat page is chosen.
    public enum Resolution: Sendable, Equatable {
        /// As many pixels as the document covers in the photo.
        case source
        /// The given dots per inch, when the page's proportions match a known paper size (A4, A5, Letter, Legal,
        /// ID card, business card, 80 mm receipt); otherwise as for ``source``.
        case dotsPerInch(Double)
    }

    /// The size rule in effect.
    public var resolution: Resolution

    /// Creates a corrector.
    public init(resolution: Resolution = .source) {
        self.resolution = resolution
    }

    /// The true width-to-height ratio of the rectangle photographed as `quad`.
    /// - Parameters:
    ///   - quad: Corners in order (top-left, top-right, bottom-right, bottom-left) in photo pixels.
    ///   - imageWidth: Photo width; the principal point is assumed at the centre.
    ///   - imageHeight: Photo height.
    ///   - focalLength35mm: The lens's 35 mm-equivalent focal length from EXIF, if known.
    public static func aspectRatio(of quad: Quad, imageWidth: Int, imageHeight: Int, focalLength35mm: Double? = nil)
        -> Double
    {
        let u0 = Double(imageWidth) / 2, v0 = Double(imageHeight) / 2
        func vector(_ p: Point) -> SIMD3<Double> { SIMD3(p.x - u0, p.y - v0, 1) }
        func cross(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> SIMD3<Double> {
            SIMD3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x)
        }
        func dot(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> Double { (a * b).sum() }
        let m1 = vector(quad.topLeft), m2 = vector(quad.topRight), m3 = vector(quad.bottomLeft),
            m4 = vector(quad.bottomRight)
        let k2 = dot(cross(m1, m4), m3) / dot(cross(m2, m4), m3)
        let k3 = dot(cross(m1, m4), m2) / dot(cross(m3, m4), m2)
        let n2 = k2 * m2 - m1, n3 = k3 * m3 - m1
        let longSide = Double(max(imageWidth, imageHeight))
        // 35 mm equivalents refer to the 43.27 mm diagonal of a 36 × 24 mm frame.
        let diagonal = (Double(imageWidth * imageWidth + imageHeight * imageHeight)).squareRoot()
        let assumedFocal = focalLength35mm.map { $0 / 43.27 * diagonal } ?? Self.typicalFocalLength * longSide
        var focalSquared = assumedFocal * assumedFocal
        let scale = longSide * 1e-3
        if abs(n2.z) > 1e-3 * scale, abs(n3.z) > 1e-3 * scale {
            let estimate = -(n2.x * n3.x + n2.y * n3.y) / (n2.z * n3.z)
            if estimate > pow(0.4 * longSide, 2), estimate < pow(4 * longSide, 2) { focalSquared = estimate }
        }
        let width = (n2.x * n2.x + n2.y * n2.y) / focalSquared + n2.z * n2.z
        let height = (n3.x * n3.x + n3.y * n3.y) / focalSquared + n3.z * n3.z
        guard width > 0, height > 0, width.isFinite, height.isFinite else {
            let w = (quad.topLeft.distance(to: quad.topRight) + quad.bottomLeft.distance(to: quad.bottomRight)) / 2
            let h = (quad.topLeft.distance(to: quad.bottomLeft) + quad.topRight.distance(to: quad.bottomRight)) / 2
            return w / max(h, 1e-9)
        }
        return (width / height).squareRoot()
    }

    /// Focal length of a typical phone main camera (24-26 mm equivalent on a 4:3 sensor), as a multiple of the photo's
    /// longer side.
    public static let typicalFocalLength = 0.72

    /// Known paper sizes in millimetres (width × height, portrait).
    static let paperSizes: [(name: String, width: Double, height: Double)] = [
        ("A4", 210, 297), ("A5", 148, 210), ("Letter", 215.9, 279.4), ("Legal", 215.9, 355.6),
        ("ID card", 53.98, 85.6), ("business card", 55, 85), ("business card (US)", 50.8, 88.9),
    ]

    /// The flat page's size in pixels for a photographed quad.
    public func pageSize(for quad: Quad, imageWidth: Int, imageHeight: Int, focalLength35mm: Double? = nil)
        -> (width: Int, height: Int)
    {
        let aspect = Self.aspectRatio(
            of: quad, imageWidth: imageWidth, imageHeight: imageHeight, focalLength35mm: focalLength35mm)
        if case .dotsPerInch(let dpi) = resolution, let paper = Self.paper(matching: aspect) {
            let (shortMM, longMM) = (paper.width, paper.height)
            let (wMM, hMM) = aspect >= 1 ? (longMM, shortMM) : (shortMM, longMM)
            return (max(1, Int((wMM / 25.4 * dpi).rounded())), max(1, Int((hMM / 25.4 * dpi).rounded())))
        }
        let height = (quad.area / aspect).squareRoot()
        return (max(1, Int((aspect * height).rounded())), max(1, Int(height.rounded())))
    }

    /// The known paper size whose proportions match `aspect` within 2%, if any.
    static func paper(matching aspect: Double) -> (name: String, width: Double, height: Double)? {
        let portrait = aspect >= 1 ? 1 / aspect : aspect
        if portrait < 0.45 {
            // Long and narrow: a till receipt, 80 mm wide, any length.
            return ("receipt", 80, 80 / portrait)
        }
        return paperSizes.first { abs($0.width / $0.height - portrait) / portrait < 0.02 }
    }

    /// The map from photo pixels to a `width` × `height` flat page whose corners are the quad's.
    /// - Returns: nil for a degenerate quad.
    public static func homography(from quad: Quad, width: Int, height: Int) -> Homography? {
        Homography(from: quad.corners, to: Quad(width: Double(width), height: Double(height)).corners)
    }
}
