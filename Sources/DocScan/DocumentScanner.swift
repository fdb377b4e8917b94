import Foundation

/// One flat page produced from a photo.
public struct ScannedPage: Sendable {
    /// Position of the page among the photo's pages, from 1, in reading order.
    public var index: Int
    /// The page's corners in the upright photo, in the page's reading order (top-left, top-right, bottom-right,
    /// bottom-left of the page as it should be read).
    public var quad: Quad
    /// False when no outline was found and the whole frame was used.
    public var detected: Bool
    /// Detection confidence, 0...1.
    public var confidence: Double
    /// The flat, upright, evenly lit page.
    public var image: Image
    /// The same flat, upright page before lighting correction.
    public var unlitImage: Image
    /// Clockwise rotation, in degrees (0, 90, 180, 270), of the page's up direction in the photo: its quad's
    /// ``Quad/uprightRotation``.
    public var rotation: Int { quad.uprightRotation }
    /// Residual text rotation removed from the page, degrees, counter-clockwise positive.
    public var skewDegrees: Double
    /// Maps upright photo pixels to page pixels; its inverse maps any page point (an OCR box) back into the photo.
    public var homography: Homography
    /// Which half of a two-page spread this page is, if any.
    public var spreadSide: SpreadSide?
    /// The same page cut from the photo with a suspected camera shake removed, when the scanner was asked for it
    /// (``DocumentScanner/Options/rendersSuspectedShake``) and measured a smear that may or may not be a shake. A
    /// recognizer's readings of the two decide which to keep: see ``read(with:request:fileURL:)``.
    public var unshaken: UnshakenRendering?
    /// The same page cut from the photo as it was taken, when the scanner removed a camera shake it judged clear
    /// (``ScanResult/motionBlur``) and was asked for alternative renderings
    /// (``DocumentScanner/Options/rendersSuspectedShake``). Print's own structure can now and then pass for a shake,
    /// and removing a shake that was not there echoes every stroke: a recognizer's readings of the two decide which
    /// to keep (see ``read(with:request:fileURL:)``).
    public var shakeLeftIn: ShakenRendering?
    /// The radius, in page pixels, of a lens's defocus worth trying to undo before reading the page (see
    /// ``DefocusCorrector``), when the scanner was asked for alternative renderings
    /// (``DocumentScanner/Options/rendersSuspectedShake``) and neither removed a shake nor suspected one, and the
    /// radius is one ``DefocusCorrector`` undoes (``DefocusCorrector/radii``). A recognizer's readings decide whether
    /// the page reads better with it undone: see ``read(with:request:fileURL:)``.
    public var refocusRadius: Double?

    /// The half of a book spread a page came from.
    public enum SpreadSide: String, Sendable, Codable {
        case left, right
    }

    /// A page's pixels with a suspected camera shake removed: same size, same map from the photo.
    public struct UnshakenRendering: Sendable {
        /// The smear removed.
        public var motionBlur: MotionBlur
        /// The flat, upright, evenly lit page.
        public var image: Image
        /// The same page before lighting correction.
        public var unlitImage: Image
    }

    /// A page's pixels cut from the photo as it was taken, with the camera shake the scanner removed left in: same
    /// size, same map from the photo.
    public struct ShakenRendering: Sendable {
        /// The flat, upright, evenly lit page.
        public var image: Image
        /// The same page before lighting correction.
        public var unlitImage: Image

        /// A rendering of the page's size, on the page's map from the photo.
        public init(image: Image, unlitImage: Image) {
            self.image = image
            self.unlitImage = unlitImage
        }
    }

    /// The page with its ``unshaken`` rendering as its own pixels (and no alternative left), or the page itself when
    /// it has none.
    public func adoptingUnshaken() -> ScannedPage {
        guard let unshaken else { return self }
        return adopting(image: unshaken.image, unlitImage: unshaken.unlitImage)
    }

    /// The page with its ``shakeLeftIn`` rendering as its own pixels (and no alternative left), or the page itself
    /// when it has none.
    public func adoptingShakeLeftIn() -> ScannedPage {
        guard let shakeLeftIn else { return self }
        return adopting(image: shakeLeftIn.image, unlitImage: shakeLeftIn.unlitImage)
    }

    /// The page with `image` and `unlitImage` as its pixels and neither alternative rendering left.
    private func adopting(image: Image, unlitImage: Image) -> ScannedPage {
        var page = self
        page.image = image
        page.unlitImage = unlitImage
        page.unshaken = nil
        page.shakeLeftIn = nil
        return page
    }

    /// How many page pixels one photo pixel spans at the page's centre (the square root of the map's local area
    /// scale).
    public var pixelsPerPhotoPixel: Double {
        let centre = Point(x: Double(image.width) / 2, y: Double(image.height) / 2)
        guard let source = homography.inverse?.apply(centre) else { return 1 }
        let across = homography.apply(Point(x: source.x + 1, y: source.y))
        let down = homography.apply(Point(x: source.x, y: source.y + 1))
        let area = abs((across.x - centre.x) * (down.y - centre.y) - (across.y - centre.y) * (down.x - centre.x))
        return area > 0 && area.isFinite ? area.squareRoot() : 1
    }

    /// Maps a point on the page back into the upright photo.
    public func photoPoint(for pagePoint: Point) -> Point {
        homography.inverse.map { $0.apply(pagePoint) } ?? pagePoint
    }

    /// The page turned `quarterTurns` × 90° clockwise, as when a recognizer finds it upside down or sideways: its
    /// images, its corners (still in the page's reading order), its rotation and its map from the photo turn with it.
    /// - Throws: ``DocScanError`` when OpenCV fails.
    public func turned(quarterTurns: Int) throws(DocScanError) -> ScannedPage {
        let k = ((quarterTurns % 4) + 4) % 4
        guard k != 0 else { return self }
        var page = self
        page.image = try image.rotated(quarterTurns: k)
        page.unlitImage = try unlitImage.rotated(quarterTurns: k)
        if let unshaken {
            page.unshaken = UnshakenRendering(
                motionBlur: unshaken.motionBlur, image: try unshaken.image.rotated(quarterTurns: k),
                unlitImage: try unshaken.unlitImage.rotated(quarterTurns: k))
        }
        if let shakeLeftIn {
            page.shakeLeftIn = ShakenRendering(
                image: try shakeLeftIn.image.rotated(quarterTurns: k),
                unlitImage: try shakeLeftIn.unlitImage.rotated(quarterTurns: k))
        }
        page.quad = quad.rotatedLabels(quarterTurns: k)
        page.homography = homography.followed(
            by: DocumentScanner.quarterTurns(k, width: image.width, height: image.height))
        return page
    }
}

/// Milliseconds spent in each stage of the pipeline.
public struct StageTimings: Sendable, Codable, Equatable {
    public var load = 0.0
    public var detect = 0.0
    /// Measuring camera shake, and removing it when there is one.
    public var deblur = 0.0
    public var warp = 0.0
    public var light = 0.0
    public var deskew = 0.0
    public var split = 0.0

    /// Zero timings.
    public init() {}

    /// The sum of all stages.
    public var total: Double { load + detect + deblur + warp + light + deskew + split }
}

/// Everything the pipeline produced from one photo.
public struct ScanResult: Sendable {
    /// Upright width of the photo (EXIF orientation applied).
    public var width: Int
    /// Upright height of the photo.
    public var height: Int
    /// The photo's header.
    public var header: ImageHeader
    /// The pages, in reading order.
    public var pages: [ScannedPage]
    /// The camera shake removed before the pages were cut out, if there was one.
    public var motionBlur: MotionBlur?
    /// Time per stage.
    public var timings: StageTimings

    /// The result with each page turned by the quarter turns a recognizer found it needs (keyed by page index; see
    /// ``ScannedPage/turned(quarterTurns:)``), its pages still in reading order: when both halves of a book spread are
    /// turned upside down, the spread was photographed upside down, so the half cut as the left one is the right page
    /// and the two swap places. Also returns each page's new index, keyed by its old one.
    /// - Throws: ``DocScanError`` when OpenCV fails.
    public func turningPages(_ quarterTurns: [Int: Int]) throws(DocScanError) -> (result: ScanResult, newIndices: [Int: Int]) {
        func isHalfTurn(_ page: ScannedPage) -> Bool { ((quarterTurns[page.index] ?? 0) % 4 + 4) % 4 == 2 }
        var turned: [ScannedPage] = []
        for page in pages { turned.append(try page.turned(quarterTurns: quarterTurns[page.index] ?? 0)) }
        var i = 0
        while i + 1 < turned.count {
            guard turned[i].spreadSide == .left, turned[i + 1].spreadSide == .right,
                isHalfTurn(pages[i]), isHalfTurn(pages[i + 1])
            else {
                i += 1
                continue
            }
            turned.swapAt(i, i + 1)
            turned[i].spreadSide = .left
            turned[i + 1].spreadSide = .right
            i += 2
        }
        var newIndices: [Int: Int] = [:]
        for position in turned.indices {
            newIndices[turned[position].index] = position + 1
            turned[position].index = position + 1
        }
        var result = self
        result.pages = turned
        return (result, newIndices)
    }
}

/// The whole preprocessing pipeline: load → detect → deblur → warp → light → deskew → split, for every document in a
/// photo.
///
/// Each stage is also available on its own (``ImageLoader``, ``DocumentDetector``, ``MotionBlurCorrector``,
/// ``PerspectiveCorrector``, ``IlluminationCorrector``, ``TextLayoutAnalyzer``, ``SpreadSplitter``). The scanner
/// decides orientation, skew and the spread split on a small preview of each document and then renders each page from
/// the photo with a single full-resolution warp, so the pixels are resampled only once.
public struct DocumentScanner: Sendable {
    /// Pipeline settings.
    public struct Options: Sendable {
        /// Largest photo accepted, in pixels.
        public var maximumPixels = 100_000_000
        /// Detection tuning.
        public var detection = DocumentDetector.Options()
        /// Output size rule.
        public var resolution = PerspectiveCorrector.Resolution.source
        /// Output rendering.
        public var lightMode = IlluminationCorrector.Mode.color
        /// Whether to measure camera shake and remove a clear one.
        public var correctsMotionBlur = true
        /// Whether to also cut each page out with a smear removed that may be a camera shake but is not clearly one
        /// (``MotionBlurCorrector/isSuspected(_:documents:)``), as ``ScannedPage/unshaken``, for a recognizer's
        /// readings to decide. It costs such photos a deconvolution and a second warp, so it is worth it only when the
        /// pages will be read. A page of a photo whose shake was clear enough to remove is also cut out as the photo
        /// was taken (``ScannedPage/shakeLeftIn``), and a page of a photo with no shake removed or suspected gets a
        /// ``ScannedPage/refocusRadius`` instead.
        public var rendersSuspectedShake = false
        /// Whether to even out lighting at all.
        public var correctsLighting = true
        /// Whether to turn pages upright (0/90/180/270).
        public var correctsOrientation = true
        /// Whether to remove residual skew.
        public var correctsSkew = true
        /// Whether to split book spreads into pages.
        public var splitsSpreads = true
        /// Whether to trim a border that runs round a document (a book's cover and page block).
        public var trimsBorders = true

        /// The default settings.
        public init() {}
    }

    /// The settings in effect.
    public var options: Options

    /// Creates a scanner.
    public init(options: Options = Options()) {
        self.options = options
    }

    /// Scans a photo file.
    /// - Throws: ``DocScanError`` for unreadable, damaged or oversized input, or `cancelled` when the task is cancelled.
    public func scan(contentsOf url: URL) throws(DocScanError) -> ScanResult {
        let clock = ContinuousClock()
        let start = clock.now
        let loaded = try ImageLoader(maximumPixels: options.maximumPixels).load(contentsOf: url)
        let loading = milliseconds(clock.now - start)
        var result = try scan(loaded)
        result.timings.load = loading
        return result
    }

    /// Scans a decoded, upright photo.
    /// - Throws: ``DocScanError`` when a stage fails, or `cancelled` when the task is cancelled.
    public func scan(_ loaded: LoadedImage) throws(DocScanError) -> ScanResult {
        let clock = ContinuousClock()
        var timings = StageTimings()
        var photo = loaded.image
        try checkCancellation()

        var start = clock.now
        let documents = try DocumentDetector(options: options.detection).detect(in: photo)
        timings.detect = milliseconds(clock.now - start)

        // Camera shake, measured where the documents are: sharpening the print before the pages are cut out.
        start = clock.now
        var motionBlur: MotionBlur?
        var unshaken: (photo: Image, blur: MotionBlur)?
        var shaken: Image?  // the photo as taken, when a shake was removed and the pages will be read
        let corrector = MotionBlurCorrector()
        let outlines = documents.map(\.quad)
        if options.correctsMotionBlur, let smear = try corrector.assessedSmear(in: photo, documents: outlines),
            let region = corrector.region(around: outlines, in: photo)
        {
            if smear.isShake {
                try checkCancellation()
                if options.rendersSuspectedShake { shaken = photo }
                photo = try corrector.removing(smear.blur, from: photo, region: region)
                motionBlur = smear.blur
            } else if options.rendersSuspectedShake && corrector.isSuspected(smear.blur, documents: outlines) {
                try checkCancellation()
                unshaken = (try corrector.removing(smear.blur, from: photo, region: region), smear.blur)
            }
        }
        timings.deblur = milliseconds(clock.now - start)

        var pages: [ScannedPage] = []
        let refocusRadius =
            options.rendersSuspectedShake && motionBlur == nil && unshaken == nil
            ? DefocusCorrector().typicalRadius(photoWidth: photo.width, photoHeight: photo.height) : nil
        // Every document is flattened and its text read for direction before any is turned, so that one whose print
        // says too little about its way up can face the way the clearest of the others faces in the photo.
        var flattened: [FlatDocument] = []
        for document in documents {
            try checkCancellation()
            flattened.append(
                try flatten(document, in: photo, focalLength35mm: loaded.header.focalLength35mm, timings: &timings))
        }
        let decisions = orientations(of: flattened)
        for (flat, decision) in zip(flattened, decisions) {
            try checkCancellation()
            pages += try pagesOf(
                flat, quarterTurns: decision.quarterTurns, skewDegrees: decision.skewDegrees, in: photo,
                unshaken: unshaken, shaken: shaken, timings: &timings
            ).map { page in
                var page = page
                page.refocusRadius = refocusRadius.map { $0 * page.pixelsPerPhotoPixel }.flatMap {
                    DefocusCorrector.radii.contains($0) ? $0 : nil
                }
                return page
            }
        }
        for index in pages.indices { pages[index].index = index + 1 }
        return ScanResult(
            width: photo.width, height: photo.height, header: loaded.header, pages: pages, motionBlur: motionBlur,
            timings: timings)
    }

    /// A detected document flattened: its outline (a book's cover trimmed off), the flat page's size, the map onto
    /// it, a preview at the text layout analysis's size, and that analysis when the pages are to be turned or
    /// deskewed.
    private struct FlatDocument {
        var document: DetectedDocument
        var size: (width: Int, height: Int)
        var toPage: Homography
        var preview: Image
        var layout: TextLayout?
    }

    /// Flattens one detected document and reads its text layout.
    private func flatten(
        _ document: DetectedDocument, in photo: Image, focalLength35mm: Double?, timings: inout StageTimings
    ) throws(DocScanError) -> FlatDocument {
        let clock = ContinuousClock()
        var start = clock.now
        var document = document
        var (size, toPage, preview) = try rectify(document.quad, in: photo, focalLength35mm: focalLength35mm)
        timings.warp += milliseconds(clock.now - start)

        // A cover and page block round an open book: keep the pages.
        start = clock.now
        if options.trimsBorders, document.detected,
            let pages = try pagesInsideBorder(
                of: document.quad, preview: preview, toPage: toPage, size: size, in: photo)
        {
            document.quad = pages
            (size, toPage, preview) = try rectify(document.quad, in: photo, focalLength35mm: focalLength35mm)
        }
        timings.detect += milliseconds(clock.now - start)

        start = clock.now
        var layout: TextLayout?
        if options.correctsOrientation || options.correctsSkew { layout = try TextLayoutAnalyzer().analyze(preview) }
        timings.deskew += milliseconds(clock.now - start)
        return FlatDocument(document: document, size: size, toPage: toPage, preview: preview, layout: layout)
    }

    /// The quarter turns and skew each flattened document gets, as the options allow: the text layout analysis's
    /// decisions for the documents of one photo (``TextLayoutAnalyzer/decisions(for:)``).
    private func orientations(of flattened: [FlatDocument]) -> [(quarterTurns: Int, skewDegrees: Double)] {
        let analyzed = flattened.compactMap { flat in flat.layout.map { (quad: flat.document.quad, layout: $0) } }
        guard analyzed.count == flattened.count else { return flattened.map { _ in (0, 0) } }
        let analyzer = TextLayoutAnalyzer()
        // Without turns, each page keeps its own skew (a turn chosen with the others may have dropped it).
        let decisions =
            options.correctsOrientation
            ? analyzer.decisions(for: analyzed) : analyzed.map { analyzer.decision(for: $0.layout) }
        return decisions.map { decision in
            (options.correctsOrientation ? decision.quarterTurns : 0, options.correctsSkew ? decision.skewDegrees : 0)
        }
    }

    /// Turns one flattened document into one page, or two for a book spread; each page is also cut from the
    /// `unshaken` photo (a suspected shake removed) or the `shaken` one (the photo as taken, before a shake was
    /// removed), when there is one, with the same map.
    private func pagesOf(
        _ flat: FlatDocument, quarterTurns turns: Int, skewDegrees skew: Double, in photo: Image,
        unshaken: (photo: Image, blur: MotionBlur)?, shaken: Image?, timings: inout StageTimings
    ) throws(DocScanError) -> [ScannedPage] {
        let clock = ContinuousClock()
        var start = clock.now
        let (document, size, toPage, preview) = (flat.document, flat.size, flat.toPage, flat.preview)
        let rotatedSize = turns % 2 == 0 ? size : (size.height, size.width)
        let toUpright = toPage.followed(by: Self.quarterTurns(turns, width: size.width, height: size.height))
        timings.deskew += milliseconds(clock.now - start)

        // Spread split, on the upright preview.
        start = clock.now
        var regions: [(quad: Quad, side: ScannedPage.SpreadSide?)] = [
            (Quad(width: Double(rotatedSize.0), height: Double(rotatedSize.1)), nil)
        ]
        if options.splitsSpreads, document.detected,
            let halves = try spreadHalves(
                preview: preview.rotated(quarterTurns: turns), pageWidth: rotatedSize.0, pageHeight: rotatedSize.1)
        {
            regions = [(halves.left, .left), (halves.right, .right)]
        }
        timings.split += milliseconds(clock.now - start)

        guard let fromUpright = toUpright.inverse else {
            throw DocScanError(.internalFailure, "the page map is singular")
        }
        var pages: [ScannedPage] = []
        for region in regions {
            try checkCancellation()
            start = clock.now
            let width = max(
                1,
                Int(
                    ((region.quad.topRight.x - region.quad.topLeft.x + region.quad.bottomRight.x
                        - region.quad.bottomLeft.x) / 2).rounded()))
            let height = rotatedSize.1
            guard
                let toRegion = Homography(
                    from: region.quad.corners, to: Quad(width: Double(width), height: Double(height)).corners)
            else { throw DocScanError(.internalFailure, "the page region is degenerate") }
            var toFinal = toUpright.followed(by: toRegion)
            if skew != 0 {
                let centre = Point(x: Double(width - 1) / 2, y: Double(height - 1) / 2)
                toFinal = toFinal.followed(by: .rotation(degrees: skew, about: centre))
            }
            let sampling = Self.sampling(forPageWidth: width, height: height)
            let unlit = try photo.warped(by: toFinal, width: width, height: height, sampling: sampling)
            let unshakenUnlit = try unshaken?.photo.warped(by: toFinal, width: width, height: height, sampling: sampling)
            let shakenUnlit = try shaken?.warped(by: toFinal, width: width, height: height, sampling: sampling)
            timings.warp += milliseconds(clock.now - start)

            start = clock.now
            let image = try lit(unlit)
            var alternative: ScannedPage.UnshakenRendering?
            if let unshaken, let unshakenUnlit {
                alternative = .init(motionBlur: unshaken.blur, image: try lit(unshakenUnlit), unlitImage: unshakenUnlit)
            }
            let leftIn = try shakenUnlit.map { unlit throws(DocScanError) in
                ScannedPage.ShakenRendering(image: try lit(unlit), unlitImage: unlit)
            }
            timings.light += milliseconds(clock.now - start)

            pages.append(
                ScannedPage(
                    index: 0, quad: fromUpright.apply(region.quad), detected: document.detected,
                    confidence: document.confidence, image: image, unlitImage: unlit,
                    skewDegrees: skew, homography: toFinal, spreadSide: region.side, unshaken: alternative,
                    shakeLeftIn: leftIn))
        }
        return pages
    }

    /// A flat page as the options render it: evenly lit, or only turned gray when lighting is off and a gray mode asked.
    private func lit(_ unlit: Image) throws(DocScanError) -> Image {
        if options.correctsLighting { return try IlluminationCorrector(mode: options.lightMode).correct(unlit) }
        return options.lightMode != .color ? try unlit.grayscale() : unlit
    }

    /// The pages inside a border that runs round the document (a book's cover and page block), as a quad in the photo,
    /// or nil when there is no such border.
    private func pagesInsideBorder(
        of quad: Quad, preview: Image, toPage: Homography, size: (width: Int, height: Int), in photo: Image
    ) throws(DocScanError) -> Quad? {
        // A spread's gutter runs down the preview only when its lines run across it: the lines of a receipt lying
        // sideways leave gaps between them that can pass for a gutter (seed 243000 receipt-05).
        let border = try BorderTrimmer().border(of: preview) { () throws(DocScanError) in
            guard try SpreadSplitter().findGutter(in: preview) != nil else { return false }
            return try TextLayoutAnalyzer().analyze(preview).quarterTurns % 2 == 0
        }
        guard let border,
            let fromPreview = toPage.followed(by: Self.scaling(Double(preview.width) / Double(size.width))).inverse
        else { return nil }
        let w = Double(preview.width) - 0.5, h = Double(preview.height) - 0.5
        let inner = Quad([
            Point(x: border.left - 0.5, y: border.top - 0.5), Point(x: w - border.right, y: border.top - 0.5),
            Point(x: w - border.right, y: h - border.bottom), Point(x: border.left - 0.5, y: h - border.bottom),
        ])
        let rough = fromPreview.apply(inner)
        let previewPixel = Double(size.width) / Double(preview.width)
        return (try? DocumentDetector().refine(rough, in: photo, searchRadius: 2 * previewPixel + 2)) ?? rough
    }

    /// The two halves of an upright spread, as quads in page pixels (`pageWidth` × `pageHeight`), or nil for a
    /// single page.
    private func spreadHalves(preview: Image, pageWidth: Int, pageHeight: Int) throws(DocScanError) -> (
        left: Quad, right: Quad
    )? {
        guard let gutter = try SpreadSplitter().findGutter(in: preview) else { return nil }
        let scale = Double(pageWidth) / Double(preview.width)
        let top = (gutter.topX + 0.5) * scale - 0.5, bottom = (gutter.bottomX + 0.5) * scale - 0.5
        let w = Double(pageWidth) - 0.5, h = Double(pageHeight) - 0.5
        return (
            Quad([Point(x: -0.5, y: -0.5), Point(x: top, y: -0.5), Point(x: bottom, y: h), Point(x: -0.5, y: h)]),
            Quad([Point(x: top, y: -0.5), Point(x: w, y: -0.5), Point(x: w, y: h), Point(x: bottom, y: h)])
        )
    }

    /// The flat page size, the map onto it, and a preview for orientation, skew and gutter decisions, at the size the
    /// text layout analysis works at (``TextLayoutAnalyzer/analysisSize(width:height:)``).
    private func rectify(_ quad: Quad, in photo: Image, focalLength35mm: Double?) throws(DocScanError)
        -> (size: (width: Int, height: Int), toPage: Homography, preview: Image)
    {
        let corrector = PerspectiveCorrector(resolution: options.resolution)
        let size = corrector.pageSize(
            for: quad, imageWidth: photo.width, imageHeight: photo.height, focalLength35mm: focalLength35mm)
        guard let toPage = PerspectiveCorrector.homography(from: quad, width: size.width, height: size.height) else {
            throw DocScanError(.internalFailure, "the document outline is degenerate")
        }
        let previewScale = min(
            1,
            Double(TextLayoutAnalyzer.analysisSize(width: size.width, height: size.height))
                / Double(max(size.width, size.height)))
        let previewWidth = max(1, Int((Double(size.width) * previewScale).rounded()))
        let previewHeight = max(1, Int((Double(size.height) * previewScale).rounded()))
        // The preview is sampled bilinearly, as the text layout analysis and the gutter search were measured on:
        // sampled cubically, it turned the orientation of a few borderline pages either way and lost a gutter
        // (generated seed 33000, spread-07).
        let preview = try photo.warped(
            by: toPage.followed(by: Self.scaling(Double(previewWidth) / Double(size.width))), width: previewWidth,
            height: previewHeight, sampling: .linear)
        return (size, toPage, preview)
    }

    /// Pages with fewer pixels than this (an A4 page under about 175 dpi) are warped with cubic sampling.
    ///
    /// Their print is a few pixels wide, and bilinear sampling blurs it by up to half a pixel more than the photo did.
    /// Larger pages read the same either way (replayed on 13 generated sets: the same CER with the bar anywhere from 2 to
    /// 6 MP), and a cubic warp takes three times as long (61.5 ms against 18.7 ms for a 4.2 MP page, one core).
    public static let cubicSamplingPixelLimit = 3_000_000

    /// How the scanner samples a page of `width` × `height` pixels from the photo: cubically under
    /// ``cubicSamplingPixelLimit``, bilinearly above.
    public static func sampling(forPageWidth width: Int, height: Int) -> Image.Sampling {
        width * height < cubicSamplingPixelLimit ? .cubic : .linear
    }

    /// Scaling of pixel coordinates (pixel edges stay on pixel edges).
    static func scaling(_ s: Double) -> Homography {
        Homography(matrix: [s, 0, 0.5 * s - 0.5, 0, s, 0.5 * s - 0.5, 0, 0, 1])
    }

    /// The map that turns a `width` × `height` image clockwise by `turns` quarter turns.
    static func quarterTurns(_ turns: Int, width: Int, height: Int) -> Homography {
        let w = Double(width - 1), h = Double(height - 1)
        switch ((turns % 4) + 4) % 4 {
        case 1: return Homography(matrix: [0, -1, h, 1, 0, 0, 0, 0, 1])
        case 2: return Homography(matrix: [-1, 0, w, 0, -1, h, 0, 0, 1])
        case 3: return Homography(matrix: [0, 1, 0, -1, 0, w, 0, 0, 1])
        default: return .identity
        }
    }
}

func checkCancellation() throws(DocScanError) {
    if Task.isCancelled { throw DocScanError(.cancelled, "the scan was cancelled") }
}

func milliseconds(_ duration: Duration) -> Double {
    let (seconds, attoseconds) = duration.components
    return Double(seconds) * 1000 + Double(attoseconds) / 1e15
}
