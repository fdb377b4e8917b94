internal import CDocScanShim
import Foundation

/// An immutable 8-bit image, gray or colour (blue, green, red), whose pixels live in the C shim.
///
/// `Image` is a value: operations return new images and never change this one, so an image can be shared freely across
/// tasks. The pixels are freed when the last copy goes away.
public struct Image: Sendable {
    /// Channel layout of the pixels.
    public enum PixelFormat: Int, Sendable {
        /// One luminance byte per pixel.
        case gray = 1
        /// Three bytes per pixel: blue, green, red.
        case bgr = 3
    }

    let storage: ImageStorage

    init(storage: ImageStorage) { self.storage = storage }

    /// Width in pixels.
    public var width: Int { Int(ds_image_width(storage.handle)) }
    /// Height in pixels.
    public var height: Int { Int(ds_image_height(storage.handle)) }
    /// Channel layout.
    public var pixelFormat: PixelFormat { ds_image_channels(storage.handle) == 1 ? .gray : .bgr }

    /// Copies pixels into a new image.
    /// - Parameters:
    ///   - width: Width in pixels.
    ///   - height: Height in pixels.
    ///   - pixelFormat: Layout of `pixels`.
    ///   - pixels: `height` rows of `width * channels` bytes, tightly packed.
    /// - Throws: ``DocScanError`` with code `invalidArgument` when the sizes do not match.
    public init(width: Int, height: Int, pixelFormat: PixelFormat, pixels: [UInt8]) throws(DocScanError) {
        let rowBytes = width * pixelFormat.rawValue
        guard width > 0, height > 0, pixels.count == rowBytes * height,
            let w = Int32(exactly: width), let h = Int32(exactly: height)
        else {
            throw DocScanError(.invalidArgument, "pixel buffer does not match \(width)x\(height) \(pixelFormat)")
        }
        self = try pixels.withUnsafeBytes { buffer in
            Result { () throws(DocScanError) in
                try Image.make("create image") {
                    ds_image_create(w, h, Int32(pixelFormat.rawValue), buffer.baseAddress!, rowBytes, $0)
                }
            }
        }.get()
    }

    /// Calls `body` with the pixel rows and the distance in bytes between row starts. The buffer is valid only inside
    /// `body`.
    public func withUnsafePixels<Result>(
        _ body: (_ pixels: UnsafeRawBufferPointer, _ bytesPerRow: Int) throws -> Result
    ) rethrows -> Result {
        try withExtendedLifetime(storage) {
            let rowBytes = ds_image_bytes_per_row(storage.handle)
            let buffer = UnsafeRawBufferPointer(start: ds_image_pixels(storage.handle), count: rowBytes * height)
            return try body(buffer, rowBytes)
        }
    }

    /// The channel values of one pixel (one for gray, blue-green-red for colour).
    public func pixel(x: Int, y: Int) -> [UInt8] {
        precondition(x >= 0 && x < width && y >= 0 && y < height, "pixel (\(x), \(y)) is outside the image")
        let channels = pixelFormat.rawValue
        return withUnsafePixels { pixels, rowBytes in
            (0..<channels).map { pixels[y * rowBytes + x * channels + $0] }
        }
    }

    /// Encodings for ``encoded(as:)``.
    public enum Encoding: Sendable, Equatable {
        /// Lossless PNG.
        case png
        /// JPEG with a quality from 1 to 100.
        case jpeg(quality: Int)
    }

    /// The image encoded as PNG or JPEG bytes.
    /// - Throws: ``DocScanError`` with code `outputFailed` when encoding fails.
    public func encoded(as encoding: Encoding = .png) throws(DocScanError) -> Data {
        var buffer: OpaquePointer?
        switch encoding {
        case .png: try check(ds_image_encode(storage.handle, DS_ENCODING_PNG, 3, &buffer), "PNG encoding")
        case .jpeg(let quality):
            try check(
                ds_image_encode(storage.handle, DS_ENCODING_JPEG, Int32(clamping: quality), &buffer), "JPEG encoding")
        }
        defer { ds_buffer_free(buffer) }
        return Data(bytes: ds_buffer_bytes(buffer!), count: ds_buffer_length(buffer!))
    }

    /// A copy scaled to `width` x `height` (area averaging when shrinking).
    /// - Throws: ``DocScanError`` for a non-positive size.
    public func resized(width: Int, height: Int) throws(DocScanError) -> Image {
        try Image.make("resize") {
            ds_image_resize(storage.handle, Int32(clamping: width), Int32(clamping: height), $0)
        }
    }

    /// A copy scaled so that its longer side is at most `longSide` pixels (the image itself when already small enough).
    /// - Throws: ``DocScanError`` when scaling fails.
    public func fitting(longSide: Int) throws(DocScanError) -> Image {
        let longest = max(width, height)
        guard longest > longSide else { return self }
        let scale = Double(longSide) / Double(longest)
        return try resized(
            width: max(1, Int((Double(width) * scale).rounded())),
            height: max(1, Int((Double(height) * scale).rounded())))
    }

    /// One-channel luminance version of the image.
    /// - Throws: ``DocScanError`` when conversion fails.
    public func grayscale() throws(DocScanError) -> Image {
        if pixelFormat == .gray { return self }
        return try Image.make("gray conversion") { ds_image_to_gray(storage.handle, $0) }
    }

    /// The image transformed as an EXIF orientation tag (1...8) says, i.e. as a viewer shows it.
    /// - Throws: ``DocScanError`` with code `invalidArgument` for a value outside 1...8.
    public func applyingEXIFOrientation(_ orientation: Int) throws(DocScanError) -> Image {
        if orientation == 1 { return self }
        return try Image.make("EXIF orientation") { ds_image_orient(storage.handle, Int32(clamping: orientation), $0) }
    }

    /// The image turned clockwise by `quarterTurns` × 90°.
    /// - Throws: ``DocScanError`` when the copy fails.
    public func rotated(quarterTurns: Int) throws(DocScanError) -> Image {
        let turns = ((quarterTurns % 4) + 4) % 4
        return try applyingEXIFOrientation([1, 6, 3, 8][turns])
    }

    /// How ``warped(by:width:height:sampling:)`` samples the image between its pixels.
    public enum Sampling: Sendable {
        /// Bilinear interpolation: smooth, blurring a stroke by up to half a pixel.
        case linear
        /// Cubic interpolation: as sharp as the image, with a slight overshoot along strong edges.
        case cubic
    }

    /// Renders `width` x `height` pixels through a projective map from this image's pixels to the output's, sampled as
    /// `sampling` says (cubic by default, so that print a few pixels wide keeps the sharpness the photo gives it).
    /// - Throws: ``DocScanError`` for a singular map or a non-positive size.
    public func warped(by homography: Homography, width: Int, height: Int, sampling: Sampling = .cubic)
        throws(DocScanError) -> Image
    {
        let matrix = homography.matrix
        let mode: ds_sampling = sampling == .cubic ? DS_SAMPLING_CUBIC : DS_SAMPLING_LINEAR
        return try matrix.withUnsafeBufferPointer { m in
            Result { () throws(DocScanError) in
                try Image.make("perspective warp") {
                    ds_image_warp(storage.handle, m.baseAddress!, Int32(clamping: width), Int32(clamping: height), mode, $0)
                }
            }
        }.get()
    }

    /// Runs a shim function that creates an image through its out-parameter.
    static func make(
        _ context: @autoclosure () -> String,
        _ create: (UnsafeMutablePointer<OpaquePointer?>) -> ds_status
    ) throws(DocScanError) -> Image {
        var handle: OpaquePointer?
        try check(create(&handle), context())
        guard let handle else { throw DocScanError(.internalFailure, "\(context()): no image was produced") }
        return Image(storage: ImageStorage(handle))
    }
}

/// Sole owner of one `ds_image`; frees it on deinit.
///
/// `@unchecked Sendable`: the handle is set once and the image it points to is never mutated after creation (every
/// shim function takes it as `const`), so concurrent reads from several threads are safe.
final class ImageStorage: @unchecked Sendable {
    let handle: OpaquePointer

    init(_ handle: OpaquePointer) { self.handle = handle }

    deinit { ds_image_free(handle) }
}
