import DocScanRecognition
import Foundation

extension ScannedPage {
    /// The page as a recognizer's input: gray pixels, with the map back into the photo so that every box the
    /// recognizer finds is also placed on the photo. `fileURL` is where the page image was written, if it was.
    public func recognitionInput(fileURL: URL? = nil) throws(DocScanError) -> PageImage {
        let gray = image.pixelFormat == .gray ? image : try image.grayscale()
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
                width: width, height: height, pixelFormat: .gray, pixels: pixels, pageToPhoto: homography.inverse,
                fileURL: fileURL)
        } catch {
            throw DocScanError(.internalFailure, "the page could not be handed to the recognizer: \(error)")
        }
    }
}
