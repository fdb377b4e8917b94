internal import CDocScanShim
import Foundation

/// A decoded photo, turned upright according to its EXIF orientation.
public struct LoadedImage: Sendable {
    /// The upright pixels.
    public var image: Image
    /// What the file's header said (format, stored size, EXIF orientation).
    public var header: ImageHeader
}

/// Stage 1 of the pipeline: reads JPEG, PNG, TIFF, WebP and BMP files, refusing damaged, unsupported and oversized ones
/// before decoding them, and applies the EXIF orientation.
public struct ImageLoader: Sendable {
    /// The largest image accepted, in pixels (default 100 megapixels). Checked from the header, before decoding.
    public var maximumPixels: Int

    /// Creates a loader.
    public init(maximumPixels: Int = 100_000_000) {
        self.maximumPixels = maximumPixels
    }

    /// Reads and decodes an image file.
    /// - Throws: ``DocScanError`` with code `unreadableFile`, `emptyFile`, `unsupportedFormat`, `damagedImage` or
    ///   `imageTooLarge`.
    public func load(contentsOf url: URL) throws(DocScanError) -> LoadedImage {
        try load(Self.contents(of: url), name: url.path)
    }

    /// Reads an image file's bytes undecoded (mapped when safe), for callers that decode them more than once.
    /// - Throws: ``DocScanError`` with code `unreadableFile` when the file is missing, a directory or unreadable.
    public static func contents(of url: URL) throws(DocScanError) -> Data {
        do {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
                throw DocScanError(.unreadableFile, "\(url.path): no such file")
            }
            guard !isDirectory.boolValue else {
                throw DocScanError(.unreadableFile, "\(url.path): is a directory, not an image")
            }
            return try Data(contentsOf: url, options: .mappedIfSafe)
        } catch let error as DocScanError {
            throw error
        } catch {
            throw DocScanError(.unreadableFile, "\(url.path): cannot be read (\(error.localizedDescription))")
        }
    }

    /// Decodes an encoded image held in memory.
    /// - Parameters:
    ///   - data: The file's bytes.
    ///   - name: How to refer to the image in error messages.
    /// - Throws: ``DocScanError`` with code `emptyFile`, `unsupportedFormat`, `damagedImage` or `imageTooLarge`.
    public func load(_ data: Data, name: String = "image") throws(DocScanError) -> LoadedImage {
        guard !data.isEmpty else { throw DocScanError(.emptyFile, "\(name): the file is empty") }
        guard let header = ImageHeader(data) else {
            throw DocScanError(
                .unsupportedFormat, "\(name): not a JPEG, PNG, TIFF, WebP or BMP image (or its header is damaged)")
        }
        let pixels = header.storedWidth.multipliedReportingOverflow(by: header.storedHeight)
        guard !pixels.overflow, pixels.partialValue <= maximumPixels else {
            throw DocScanError(
                .imageTooLarge,
                "\(name): \(header.storedWidth)x\(header.storedHeight) pixels is over the limit of \(maximumPixels) pixels"
            )
        }
        guard header.isComplete else {
            throw DocScanError(
                .damagedImage, "\(name): the \(header.format.rawValue.uppercased()) data ends early (truncated file)")
        }
        let decoded = data.withUnsafeBytes { bytes in
            Result { () throws(DocScanError) in
                try Image.make("decode") { ds_image_decode(bytes.baseAddress!, bytes.count, $0) }
            }
        }
        let stored: Image
        switch decoded {
        case .success(let image): stored = image
        case .failure(let error): throw DocScanError(error.code, "\(name): \(error.message)")
        }
        guard stored.width == header.storedWidth, stored.height == header.storedHeight else {
            throw DocScanError(.damagedImage, "\(name): the decoded size does not match the header")
        }
        return LoadedImage(image: try stored.applyingEXIFOrientation(header.orientation), header: header)
    }
}
