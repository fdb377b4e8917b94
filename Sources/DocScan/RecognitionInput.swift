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
        /// The rendering of the page that was read.
        public var rendering: Rendering
        /// Whether the reading came from the page's ``ScannedPage/unshaken`` rendering, which then reads better.
        public var isFromUnshaken: Bool { rendering == .unshaken }

        /// The renderings of a page a reading can come from.
        public enum Rendering: Sendable, Equatable {
            /// The page as the scanner cut it out.
            case asTaken
            /// The page's ``ScannedPage/unshaken`` rendering.
            case unshaken
            /// The page with a lens's defocus of ``ScannedPage/refocusRadius`` undone.
            case refocused
            /// The page's ``ScannedPage/shakeLeftIn`` rendering: cut from the photo as taken, the shake the scanner
            /// removed left in.
            case shakeLeftIn
        }
    }

    /// Reads the page with `recognizer`. A page with another rendering worth trying is read that way too: its
    /// ``unshaken`` rendering; its ``shakeLeftIn`` rendering after a first reading with three tenths or more of its
    /// words under 0.7 confidence (``isWorthLeavingShakeIn(_:)``); or else, with a ``refocusRadius``, after a `fast`
    /// first reading with three tenths or more of its words unsure (``isWorthRefocusing(_:)``), the page with that
    /// defocus undone (``DefocusCorrector``); and either of the last two after a first reading of next to nothing
    /// (``readsNextToNothing(_:)``), at either level. The other reading is kept when it holds more believable text than
    /// noise (a positive ``RecognizedPage/legibility``) and beats the first one's legibility by a clear margin (5% of
    /// it, and at least two characters) without leaving most of its text out (``leavesTextOut(_:than:)``), or reads
    /// most of the text the first one left out (``readsTextLeftOut(_:than:)``): a smear or a defocus that was not there
    /// leaves the print ringing, and one that was leaves it blurred. Between two readings of noise the one with less
    /// noise is not better, so the page as taken is kept. Each reading is judged by what it read itself
    /// (``RecognizedPage/asRead``), without the words a recognizer filled in from its other readings of the same
    /// rendering: a poor rendering has more gaps to fill, so filled readings would look alike. A page read with nearly
    /// every word sure (``RecognizedPage/isSettled``) is not read again. When the first reading found the page upright
    /// (and read more than next to nothing), the other is read without orientation trials
    /// (``RecognitionRequest/detectsOrientation`` off): it is the same page the same way up (on the committed corpus
    /// under `fast`, this cut the 17 other readings from 22.8 s to 14.0 s). A refocused reading, or one with the shake
    /// left in, that is kept says so in its provenance's level mapping. A first reading whose words carry no confidence
    /// cannot be judged against another, so the page is then not read again. Progress runs from 0 to 1 once over both
    /// readings; the request's time limit covers both (the other reading gets what the first one left, and none is made
    /// when nothing is left).
    /// - Throws: ``RecognitionError`` from the recognizer, or `invalidImage` when the page cannot be handed to it.
    public func read(with recognizer: any TextRecognizer, request: RecognitionRequest, fileURL: URL? = nil) async
        throws(RecognitionError) -> Reading
    {
        let input: PageImage
        do throws(DocScanError) { input = try recognitionInput(fileURL: fileURL) } catch {
            throw .invalidImage(error.message)
        }
        guard unshaken != nil || shakeLeftIn != nil || refocusRadius != nil else {
            return Reading(page: try await recognizer.recognize(input, request: request), rendering: .asTaken)
        }
        let started = ContinuousClock.now
        let progress = request.progressHandler
        var halves = (request, request)
        halves.0.progressHandler = progress.map { report in { @Sendable in report($0 / 2) } }
        halves.1.progressHandler = progress.map { report in { @Sendable in report(0.5 + $0 / 2) } }
        let asTaken = try await recognizer.recognize(input, request: halves.0)
        let kept = Reading(page: asTaken, rendering: .asTaken)
        // Each rendering is judged by what its own reading held, without the words filled in from others.
        let judged = asTaken.asRead
        let readNextToNothing = Self.readsNextToNothing(judged)
        let isWorthAnother =
            unshaken != nil || readNextToNothing
            || (shakeLeftIn != nil ? Self.isWorthLeavingShakeIn(judged) : Self.isWorthRefocusing(judged))
        if judged.isSettled || judged.legibility == nil || !isWorthAnother {
            progress?(1)
            return kept
        }
        // The time limit is the whole page's: the other reading gets what the first one left.
        if let limit = request.timeLimit {
            let left = limit - (ContinuousClock.now - started)
            guard left > .zero else {
                progress?(1)
                return kept
            }
            halves.1.timeLimit = left
        }
        if Task.isCancelled { throw .cancelled }
        // The other rendering is the same page the same way up: when the first reading found it upright, the
        // other is read as it is, without the trials of its other turns. A first reading of next to nothing found
        // no way up.
        if (asTaken.provenance.orientationQuarterTurns ?? 0) % 4 == 0 && !readNextToNothing {
            halves.1.detectsOrientation = false
        }
        // A rendering that cannot be made (an absurd radius set by hand) leaves the first reading as it is.
        guard let other = otherRendering(fileURL: fileURL) else {
            progress?(1)
            return kept
        }
        var otherReading = try await recognizer.recognize(other.input, request: halves.1)
        guard Self.readsBetter(otherReading.asRead, than: judged) else { return kept }
        let note: String? =
            switch other.rendering {
            case .refocused: refocusRadius.map { "read with a lens defocus of \(String(format: "%.1f", $0)) px undone" }
            case .shakeLeftIn: "read with the camera shake the scanner removed left in"
            case .asTaken, .unshaken: nil
            }
        if let note {
            let mapping = otherReading.provenance.levelMapping
            otherReading.provenance.levelMapping = mapping.isEmpty ? note : mapping + "; " + note
        }
        return Reading(page: otherReading, rendering: other.rendering)
    }

    /// The page's other rendering for a recognizer: its unshaken one, its shake-left-in one, or else the page with
    /// its ``refocusRadius`` of defocus undone; nil when there is none or it cannot be made.
    func otherRendering(fileURL: URL?) -> (input: PageImage, rendering: Reading.Rendering)? {
        do throws(DocScanError) {
            let unlit: Image
            let rendering: Reading.Rendering
            if let unshaken {
                (unlit, rendering) = (unshaken.unlitImage, .unshaken)
            } else if let shakeLeftIn {
                (unlit, rendering) = (shakeLeftIn.unlitImage, .shakeLeftIn)
            } else if let refocusRadius {
                unlit = try DefocusCorrector().removing(radius: refocusRadius, from: unlitImage)
                rendering = .refocused
            } else {
                return nil
            }
            let input = try IlluminationCorrector.readingImage(of: unlit).pageImage(
                pageToPhoto: homography.inverse, fileURL: fileURL)
            return (input, rendering)
        } catch {
            return nil
        }
    }

    /// The share of a `fast` first reading's words that must be unsure (under 0.7) for ``read(with:request:fileURL:)``
    /// to read the page again with a defocus undone. A defocus that costs text leaves many words unsure; a card or a
    /// form read with a word or two unsure has nothing to gain, and refocused it can read ringing as bars and specks.
    /// Over twelve generated sets read `fast`, refocusing only pages with three tenths of their words unsure left
    /// pooled CER at 6.80% instead of 6.74% (a tenth) and took 14% less time (pages whose first reading was already
    /// good took most of that time and gained little). `accurate` does not refocus on unsure words
    /// (``isWorthRefocusing(_:)``).
    static let unsureShareWorthRefocusing = 0.3
    /// The share of a first reading's words that must be unsure for ``read(with:request:fileURL:)`` to read the page
    /// again with the shake the scanner removed left in, at either level. On the 95 photos of seventeen generated sets
    /// whose shake was removed, three tenths instead of a tenth read them at 7.90% CER instead of 7.88% (`accurate`,
    /// 10.09% without that reading) in 507 s instead of 635 s (470 s without): a phantom shake echoes every stroke
    /// and leaves most words unsure.
    static let unsureShareWorthLeavingShakeIn = 0.3

    /// Whether a `fast` reading leaves enough unsure words for a refocused reading to be worth its time (see
    /// ``unsureShareWorthRefocusing``); never for a reading without word confidences (nothing read, or a recognizer
    /// that gives none): there is nothing to judge the page's blur by. Never for an `accurate` one either, whose own
    /// other readings (enlarged, faint print darkened, ink evened out) cover soft print: the refocused reading it
    /// kept by legibility read worse than the page as taken on each page measured, and refocusing cost time. On the
    /// corpus and seeds 133000 and 135000, not refocusing `accurate`'s unsure pages moved 3 pages, each better (corpus
    /// multi-07's first document 32.5% -> 26.9%, seed 133000 form-01 12.6% -> 11.5%, 135000 multi-07's first 12.9% ->
    /// 7.1%; pooled 4.60% -> 4.58%, 6.44% -> 6.26% with a detection fix, 2.97% -> 2.95%), its median page 7-16%
    /// quicker. (`fast`, with fewer readings of its own, still gains from it: seed 137000 multi-04's second card read
    /// 12.5% refocused, 23.7% as taken.)
    static func isWorthRefocusing(_ reading: RecognizedPage) -> Bool {
        reading.provenance.level == .fast && hasUnsureWords(reading, share: unsureShareWorthRefocusing)
    }

    /// The believable text (``RecognizedPage/legibility``) under which a first reading has read next to nothing of
    /// a page that has another rendering: the other is then read too, whatever the share of unsure words, and with
    /// the trials of its other turns, since nothing read says which way is up. Seed 73000 multi-03's card, shaken by
    /// 4.7 pixels and cut upside down, read as four lines of noise that passed for upright; its unshaken rendering,
    /// read with those trials, was turned and read at 46.6% CER instead of 90.2%.
    static let nextToNothing = 20.0

    /// Whether a reading holds less believable text than ``nextToNothing`` (nothing read at all included).
    static func readsNextToNothing(_ reading: RecognizedPage) -> Bool {
        (reading.legibility ?? 0) < nextToNothing
    }

    /// Whether a reading leaves enough unsure words (``unsureShareWorthLeavingShakeIn``) for a reading with the
    /// removed shake left in to be worth its time; never for a reading without word confidences.
    static func isWorthLeavingShakeIn(_ reading: RecognizedPage) -> Bool {
        hasUnsureWords(reading, share: unsureShareWorthLeavingShakeIn)
    }

    /// Whether `share` or more of a reading's words are under 0.7 confidence; false when none carries one.
    private static func hasUnsureWords(_ reading: RecognizedPage, share: Double) -> Bool {
        let confidences = reading.words.compactMap { $0.confidence?.value }
        guard !confidences.isEmpty else { return false }
        return Double(confidences.filter { $0 < 0.7 }.count) >= share * Double(confidences.count)
    }

    /// The rule ``read(with:request:fileURL:)`` keeps another rendering's reading by: more believable text than
    /// noise, and either more than the page as taken by 5% of it and at least two characters, without leaving most of
    /// its text out (``leavesTextOut(_:than:)``), or most of the text the page as taken left out
    /// (``readsTextLeftOut(_:than:)``).
    static func readsBetter(_ rendering: RecognizedPage, than asTaken: RecognizedPage) -> Bool {
        guard let taken = asTaken.legibility, let other = rendering.legibility else { return false }
        return other > 0
            && (other > taken + max(2, 0.05 * abs(taken)) && !leavesTextOut(rendering, than: asTaken)
                || readsTextLeftOut(rendering, than: asTaken))
    }

    /// Whether a reading holds over twice the letters and digits of the page as taken, and more text weighted by
    /// confidence: it read the page the first reading left mostly unread (``leavesTextOut(_:than:)`` the other way
    /// round). Believable text counts its many unsure words against it, so it can fall short of a first reading of a
    /// few sure lines: the committed corpus's multi-03 receipt, unshaken, read 370 letters and digits (believable text
    /// 44.0, weighted 149.9) against 118 as taken (42.0 and 63.6), 24.0% CER against 75.4%.
    static func readsTextLeftOut(_ rendering: RecognizedPage, than asTaken: RecognizedPage) -> Bool {
        rendering.lettersAndDigits > 2 * asTaken.lettersAndDigits && rendering.weightedText > asTaken.weightedText
    }

    /// Whether a reading holds under half the letters and digits of the page as taken, and less text weighted by
    /// confidence (``RecognizedPage/weightedText``): it read less of the page, not the page better. Believable text
    /// counts unsure words against a reading, so a reading of one sure word can beat one of the whole page whose words
    /// are mostly unsure: seed 83000 card-01, a card half under a thumb, read refocused as "oftware" (legibility 6.3,
    /// 7 letters) against 46 letters as taken, most of them right, at -3.3 (so 95.7% CER instead of 67.3%). A reading
    /// of noise holds many letters but little weighted text, so a true reading of the page it beats keeps winning.
    static func leavesTextOut(_ rendering: RecognizedPage, than asTaken: RecognizedPage) -> Bool {
        2 * rendering.lettersAndDigits < asTaken.lettersAndDigits && rendering.weightedText < asTaken.weightedText
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
