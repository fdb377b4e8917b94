internal import CDocScanShim

/// A document outline found in a photo.
public struct DetectedDocument: Sendable, Equatable {
    /// Corners in photo pixels, ordered as seen in the photo (top-left first, clockwise).
    public var quad: Quad
    /// 0...1: how much of the outline shows a clear edge, weighted by the shape's plausibility.
    public var confidence: Double
    /// False for the whole-frame fallback used when no outline qualifies.
    public var detected: Bool
}

/// Stage 2 of the pipeline: finds the outline of every document in a photo (several receipts or cards side by side
/// each get their own), searching a downscaled copy and refining the corners at full resolution.
///
/// When no outline qualifies, ``detect(in:)`` returns the whole frame with `detected == false` rather than failing.
public struct DocumentDetector: Sendable {
    /// Tuning knobs; the defaults suit phone photos.
    public struct Options: Sendable, Equatable {
        /// Longer side of the downscaled copy that is searched, in pixels.
        public var workingSize = 560
        /// Smallest document, as a fraction of the photo's area.
        public var minimumAreaFraction = 0.005
        /// Weakest outline accepted, 0...1.
        public var minimumConfidence = 0.5
        /// Most documents returned from one photo.
        public var maximumDocuments = 8
        /// Whether corners are refined against full-resolution edges.
        public var refinesCorners = true
        /// Most times as long as it is wide that a document other than the main one may be in its true proportions
        /// (by the camera model of ``PerspectiveCorrector``): a till receipt is rarely more than eight, while a sliver
        /// of carpet or cloth that a tilted camera narrows to a wedge comes out twenty times as long as it is wide.
        public var maximumElongation = 12.0

        /// The default options.
        public init() {}
    }

    /// The options in effect.
    public var options: Options

    /// Creates a detector.
    public init(options: Options = Options()) {
        self.options = options
    }

    /// Finds the documents in a photo, in reading order (top to bottom, then left to right).
    /// - Returns: At least one document; the whole frame with `detected == false` when nothing qualifies.
    /// - Throws: ``DocScanError`` when OpenCV fails.
    public func detect(in image: Image) throws(DocScanError) -> [DetectedDocument] {
        var settings = ds_detect_options_default()
        settings.working_size = Int32(clamping: options.workingSize)
        settings.min_area_fraction = options.minimumAreaFraction
        settings.min_confidence = options.minimumConfidence
        settings.refine = options.refinesCorners ? 1 : 0
        var results = [ds_detection](repeating: ds_detection(), count: max(1, options.maximumDocuments))
        var count: Int32 = 0
        try withExtendedLifetime(image.storage) { () throws(DocScanError) in
            try check(
                ds_detect_documents(image.storage.handle, &settings, &results, Int32(results.count), &count),
                "document detection")
        }
        let all = results.prefix(Int(count)).map { detection -> DetectedDocument in
            let c = withUnsafeBytes(of: detection.corners) { Array($0.bindMemory(to: Double.self)) }
            let quad = Quad((0..<4).map { Point(x: c[2 * $0], y: c[2 * $0 + 1]) })
            return DetectedDocument(quad: quad, confidence: detection.confidence, detected: true)
        }
        let found = Self.withDocumentProportions(
            all, imageWidth: image.width, imageHeight: image.height, maximumElongation: options.maximumElongation)
        guard !found.isEmpty else {
            let frame = Quad(width: Double(image.width), height: Double(image.height))
            return [DetectedDocument(quad: frame, confidence: 0, detected: false)]
        }
        return ReadingOrder.sorted(found) { $0.quad }
    }

    /// `documents` without those after the first (the main document, kept whatever its shape) that are truly more
    /// than `maximumElongation` times as long as they are wide.
    static func withDocumentProportions(
        _ documents: [DetectedDocument], imageWidth: Int, imageHeight: Int, maximumElongation: Double
    ) -> [DetectedDocument] {
        Array(documents.prefix(1))
            + documents.dropFirst().filter {
                elongation(of: $0.quad, imageWidth: imageWidth, imageHeight: imageHeight) <= maximumElongation
            }
    }

    /// How many times as long as it is wide the rectangle photographed as `quad` truly is (1 or more).
    static func elongation(of quad: Quad, imageWidth: Int, imageHeight: Int) -> Double {
        let aspect = PerspectiveCorrector.aspectRatio(of: quad, imageWidth: imageWidth, imageHeight: imageHeight)
        return max(aspect, 1 / aspect)
    }

    /// Moves the sides of a rough outline onto the document's edges at full resolution.
    /// - Parameters:
    ///   - quad: A convex outline, corners in order.
    ///   - image: The photo.
    ///   - searchRadius: How far across each side to look, in pixels.
    /// - Returns: The refined outline (sides without clear support stay where they were).
    /// - Throws: ``DocScanError`` for a non-convex outline or a non-positive radius.
    public func refine(_ quad: Quad, in image: Image, searchRadius: Double) throws(DocScanError) -> Quad {
        var corners = quad.corners.flatMap { [$0.x, $0.y] }
        try withExtendedLifetime(image.storage) { () throws(DocScanError) in
            try check(ds_refine_quad(image.storage.handle, &corners, searchRadius), "corner refinement")
        }
        return Quad((0..<4).map { Point(x: corners[2 * $0], y: corners[2 * $0 + 1]) })
    }
}

/// Reading order of separate documents: rows from top to bottom, left to right within a row. Two documents share a row
/// when their centres differ vertically by less than half the height of the smaller one.
public enum ReadingOrder {
    /// Sorts items by the reading order of their outlines.
    public static func sorted<Item>(_ items: [Item], by outline: (Item) -> Quad) -> [Item] {
        let entries = items.map { item -> (item: Item, height: Double, centre: Point) in
            let ys = outline(item).corners.map(\.y)
            return (item, ys.max()! - ys.min()!, outline(item).centroid)
        }
        var rows: [[(item: Item, height: Double, centre: Point)]] = []
        for entry in entries.sorted(by: { $0.centre.y < $1.centre.y }) {
            if let first = rows.last?.first,
                abs(entry.centre.y - first.centre.y) < 0.5 * min(first.height, entry.height)
            {
                rows[rows.count - 1].append(entry)
            } else {
                rows.append([entry])
            }
        }
        return rows.flatMap { $0.sorted { $0.centre.x < $1.centre.x }.map(\.item) }
    }
}
