import DocScan

/// How well the pages found in one photo match its ground truth.
public struct DetectionScore: Sendable {
    /// For each true page (in truth order): the IoU with the found page matched to it (0 when none was).
    public var pageIoU: [Double]
    /// For each true page: the largest distance, in pixels, between its corners and the matched page's corners taken in
    /// reading order (so a page turned the wrong way shows a large error), or nil when unmatched.
    public var cornerError: [Double?]
    /// For each true page: whether the matched page's rotation equals the true rotation (nil when unknown or unmatched).
    public var rotationCorrect: [Bool?]
    /// Number of pages found.
    public var foundPages: Int
    /// Number of true pages.
    public var truePages: Int
    /// Whether the found pages came out in the true reading order.
    public var orderCorrect: Bool

    /// Whether the page count is right.
    public var pageCountCorrect: Bool { foundPages == truePages }
    /// The mean IoU over the true pages.
    public var meanIoU: Double { pageIoU.isEmpty ? 1 : pageIoU.reduce(0, +) / Double(pageIoU.count) }

    /// Scores found page outlines (in the order produced) against the true ones. Pages are paired greedily by IoU.
    /// - Parameters:
    ///   - found: Outlines and rotations of the found pages, in output order.
    ///   - truth: The true pages, in reading order.
    public init(found: [(quad: Quad, rotation: Int)], truth: [GroundTruth.Page]) {
        truePages = truth.count
        foundPages = found.count
        var pairs: [(iou: Double, truth: Int, found: Int)] = []
        for (t, page) in truth.enumerated() {
            guard let quad = page.quad else { continue }
            for (f, candidate) in found.enumerated() {
                let iou = quad.intersectionOverUnion(candidate.quad)
                if iou > 0 { pairs.append((iou, t, f)) }
            }
        }
        var matchOfTruth = [Int?](repeating: nil, count: truth.count)
        var usedFound = Set<Int>()
        for pair in pairs.sorted(by: { $0.iou > $1.iou })
        where matchOfTruth[pair.truth] == nil && !usedFound.contains(pair.found) {
            matchOfTruth[pair.truth] = pair.found
            usedFound.insert(pair.found)
        }
        pageIoU = truth.indices.map { t in
            guard let f = matchOfTruth[t], let quad = truth[t].quad else { return 0 }
            return quad.intersectionOverUnion(found[f].quad)
        }
        cornerError = truth.indices.map { t in
            guard let f = matchOfTruth[t], let quad = truth[t].quad else { return nil }
            return quad.maximumCornerDistance(to: found[f].quad)
        }
        rotationCorrect = truth.indices.map { t in
            guard let f = matchOfTruth[t], let rotation = truth[t].rotation else { return nil }
            return found[f].rotation == rotation
        }
        let matched = matchOfTruth.compactMap { $0 }
        orderCorrect = matched.count == truth.count && matched == matched.sorted()
    }
}
