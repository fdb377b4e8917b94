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

extension ScannedPage {
    /// A page's reading, and which of its renderings it came from.
    public struct Reading: Sendable {
        /// What the recognizer read.
        public var page: RecognizedPage
        /// Whether the reading came from the page's ``ScannedPage/unshaken`` rendering, which then reads better.
        public var isFromUnshaken: Bool
    }

    /// Reads the page with `recognizer`. A page with an ``unshaken`` rendering is read that way too, and that reading
    /// is kept when it holds more believable text than noise (a positive ``RecognizedPage/legibility``) and beats the
    /// other reading's legibility by a clear margin (5% of it, and at least two characters): a smear that was not a
    /// shake leaves the print ringing, and one that was leaves it blurred. Between two readings of noise the one with
    /// less noise is not better, so the page as taken is kept. A page read with nearly every word sure
    /// (``RecognizedPage/isSettled``) is not read again. Progress runs from 0 to 1 once over both readings; a time
    /// limit applies to each.
    /// - Throws: ``RecognitionError`` from the recognizer, or `invalidImage` when the page cannot be handed to it.
    public func read(with recognizer: any TextRecognizer, request: RecognitionRequest, fileURL: URL? = nil) async
        throws(RecognitionError) -> Reading
    {
        let input: PageImage
        do throws(DocScanError) { input = try recognitionInput(fileURL: fileURL) } catch {
            throw .invalidImage(error.message)
        }
        guard let unshaken else {
            return Reading(page: try await recognizer.recognize(input, request: request), isFromUnshaken: false)
        }
        let alternative: PageImage
        do throws(DocScanError) {
            alternative = try IlluminationCorrector.readingImage(of: unshaken.unlitImage).pageImage(
                pageToPhoto: homography.inverse, fileURL: fileURL)
        } catch {
            throw .invalidImage(error.message)
        }
        let progress = request.progressHandler
        var halves = (request, request)
        halves.0.progressHandler = progress.map { report in { @Sendable in report($0 / 2) } }
        halves.1.progressHandler = progress.map { report in { @Sendable in report(0.5 + $0 / 2) } }
        let asTaken = try await recognizer.recognize(input, request: halves.0)
        if asTaken.isSettled {
            progress?(1)
            return Reading(page: asTaken, isFromUnshaken: false)
        }
        let unshakenReading = try await recognizer.recognize(alternative, request: halves.1)
        return Self.readsBetter(unshakenReading, than: asTaken)
            ? Reading(page: unshakenReading, isFromUnshaken: true) : Reading(page: asTaken, isFromUnshaken: false)
    }

    /// The rule ``read(with:request:fileURL:)`` keeps the unshaken rendering's reading by: more believable text than
    /// noise, and more than the page as taken by 5% of it and at least two characters.
    static func readsBetter(_ unshaken: RecognizedPage, than asTaken: RecognizedPage) -> Bool {
        guard let taken = asTaken.legibility, let other = unshaken.legibility else { return false }
        return other > 0 && other > taken + max(2, 0.05 * abs(taken))
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
