import DocScanGeometry
import Foundation

/// The pixels of one page handed to a recognizer: 8-bit gray or RGB, tightly packed rows from the top.
///
/// A page usually comes from the scan pipeline, which also knows where it sits in the photo: `pageToPhoto` maps page
/// pixels back into the source photo, so every box a recognizer finds can be shown on the original.
public struct PageImage: Sendable {
    /// How the bytes of a pixel are laid out.
    public enum PixelFormat: Int, Sendable {
        case gray = 1
        case rgb = 3
    }

    public let width: Int
    public let height: Int
    public let pixelFormat: PixelFormat
    /// `width × height × channels` bytes, row after row.
    public let pixels: [UInt8]
    /// Pixels per inch of the page when known (from the paper size or the camera); nil lets the recognizer estimate it.
    public var resolution: Double?
    /// The map from page pixels to the source photo's upright pixels, when the page came from a photo.
    public var pageToPhoto: Homography?
    /// Where the same page is stored as an image file, when it is (out-of-process recognizers read it from there).
    public var fileURL: URL?

    /// Creates a page from packed pixels.
    /// - Throws: ``RecognitionError/invalidImage(_:)`` when the buffer does not match the size and format.
    public init(
        width: Int, height: Int, pixelFormat: PixelFormat, pixels: [UInt8], resolution: Double? = nil,
        pageToPhoto: Homography? = nil, fileURL: URL? = nil
    ) throws(RecognitionError) {
        guard width > 0, height > 0 else {
            throw .invalidImage("the page is \(width)×\(height) pixels; both sides must be positive")
        }
        guard pixels.count == width * height * pixelFormat.rawValue else {
            throw .invalidImage(
                "the page holds \(pixels.count) bytes, but \(width)×\(height) \(pixelFormat) pixels need "
                    + "\(width * height * pixelFormat.rawValue)")
        }
        if let resolution, !(resolution > 0 && resolution.isFinite) {
            throw .invalidImage("the resolution must be a positive number of pixels per inch, not \(resolution)")
        }
        self.width = width
        self.height = height
        self.pixelFormat = pixelFormat
        self.pixels = pixels
        self.resolution = resolution
        self.pageToPhoto = pageToPhoto
        self.fileURL = fileURL
    }

    /// Maps a rectangle in page pixels into the photo, when the page knows where it came from.
    public func photoQuad(for box: Rect) -> Quad? {
        pageToPhoto.map { $0.apply(box.quad) }
    }
}
