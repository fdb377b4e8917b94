internal import CDocScanShim
import Foundation

/// Undoes the blur of a lens focused a little off: a uniform disk, divided out of a page with a Wiener deconvolution
/// in linear light.
///
/// Unlike a shake, a defocus leaves no mark in a 2-3 megapixel photo's spectrum that tells it from print that is
/// simply soft (the first ring of zeros of a small disk lies near the sampling limit, where the lens, the sensor's
/// noise and the JPEG fill it in), so its radius is not measured. The scanner instead gives each page a typical radius
/// for the photo's size (``ScannedPage/refocusRadius``), and a recognizer's readings of the page with and without it
/// decide which to keep (see ``ScannedPage/read(with:request:fileURL:)``).
public struct DefocusCorrector: Sendable {
    /// The radius, in photo pixels, of the defocus tried on a photo of 2 megapixels. Defocus blur spans a fixed share
    /// of the frame, so it grows with the photo's size; see ``typicalRadius(photoWidth:photoHeight:)``.
    public var radiusAtTwoMegapixels = 1.6

    /// The radii, in pixels, ``removing(radius:from:)`` undoes.
    public static let radii: ClosedRange<Double> = 0.5...16

    /// Creates a corrector.
    public init() {}

    /// The defocus radius, in photo pixels, tried on a photo of `photoWidth` × `photoHeight` pixels:
    /// ``radiusAtTwoMegapixels`` × (megapixels / 2)^0.4, a little less than in proportion to the frame (a
    /// larger sensor's lens is usually sharper for its pixels).
    public func typicalRadius(photoWidth: Int, photoHeight: Int) -> Double {
        radiusAtTwoMegapixels * pow(Double(photoWidth * photoHeight) / 2_000_000, 0.4)
    }

    /// `image` with a defocus of `radius` pixels divided out.
    /// - Throws: ``DocScanError`` when the radius is outside ``radii`` or OpenCV fails.
    public func removing(radius: Double, from image: Image) throws(DocScanError) -> Image {
        try Image.make("defocus removal") { ds_remove_defocus(image.storage.handle, radius, $0) }
    }
}
