import DocScanRecognition
import Foundation

extension ScannedPage {
    /// The page as a recognizer's input: its ``IlluminationCorrector/readingImage(of:)`` rendering, whatever the
    /// page's own rendering, with the map back into the photo so that every box the recognizer finds is also placed
    /// on the photo. `fileURL` is where the page image was written, if it was.
    public func recognitionInput(fileURL: URL? = nil) throws(DocScanError) -> PageImage {
        try IlluminationCorrector.readingImage(of: unlitImage).pageImage(pageToPhoto: homography.inverse, fileURL: fileURL)
    }
}

extension Image {
    /// The image's gray pixels as a recognizer's input, for a page that is already flat (a scan, a screenshot).
    /// `pageToPhoto` maps page pixels into a photo the page came from, if any.
    public func pageImage(pageToPhoto: Homography? = nil, fileURL: URL? = nil) throws(DocScanError) -> PageImage {
        let gray = pixelFormat == .gray ? self : try grayscale()
        let width = gray.width, height = gray.height
        let pixels = gray.withUnsafePixels { buffer, bytesPerRow in
            [UInt8](unsafeUninitializedCapacity: width * height) { target, count in
                for y in 0..<height {
                    for x in 0..<width { target[y * width + x] = buffer[y * bytesPerRow + x] }
                }
                count = width * height
            }
        }
        do {
            return try PageImage(
                width: width, height: height, pixelFormat: .gray, pixels: pixels, pageToPhoto: pageToPhoto,
                fileURL: fileURL)
        } catch {
            throw DocScanError(.internalFailure, "the page could not be handed to the recognizer: \(error)")
        }
    }
}
