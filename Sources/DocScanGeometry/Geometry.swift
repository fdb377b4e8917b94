/// Plane geometry shared by every DocScan module: points, axis-aligned rectangles, quadrilaterals and homographies, in
/// pixel coordinates with the origin at the top-left, x to the right and y down.
import Foundation

/// A point in pixel coordinates: x to the right, y down, pixel centres at whole numbers.
public struct Point: Hashable, Sendable, Codable {
    public var x: Double
    public var y: Double

    /// Creates a point.
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    /// The sum of two points taken as vectors.
    public static func + (a: Point, b: Point) -> Point { Point(x: a.x + b.x, y: a.y + b.y) }
    /// The difference of two points taken as vectors.
    public static func - (a: Point, b: Point) -> Point { Point(x: a.x - b.x, y: a.y - b.y) }
    /// The point scaled by `s` about the origin.
    public static func * (a: Point, s: Double) -> Point { Point(x: a.x * s, y: a.y * s) }

    /// Euclidean distance to another point.
    public func distance(to other: Point) -> Double {
        ((x - other.x) * (x - other.x) + (y - other.y) * (y - other.y)).squareRoot()
    }

    /// Encodes as `[x, y]`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.unkeyedContainer()
        try container.encode(x)
        try container.encode(y)
    }

    /// Decodes from `[x, y]`.
    public init(from decoder: any Decoder) throws {
        var container = try decoder.unkeyedContainer()
        x = try container.decode(Double.self)
        y = try container.decode(Double.self)
    }
}

/// An axis-aligned rectangle: `x`, `y` is its top-left corner, in pixels with y down.
public struct Rect: Hashable, Sendable, Codable {
    public var x: Double
    public var y: Double
    public var width: Double
    public var height: Double

    /// Creates a rectangle from its top-left corner and size.
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// The smallest rectangle holding every point; nil for no points.
    public init?(enclosing points: some Sequence<Point>) {
        var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
        for p in points {
            minX = min(minX, p.x)
            minY = min(minY, p.y)
            maxX = max(maxX, p.x)
            maxY = max(maxY, p.y)
        }
        guard minX.isFinite else { return nil }
        self.init(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
    }

    /// The smallest rectangle holding every one of `rects`; nil for none.
    public init?(enclosing rects: some Sequence<Rect>) {
        var remaining = rects.makeIterator()
        guard var box = remaining.next() else { return nil }
        while let next = remaining.next() { box = box.union(next) }
        self = box
    }

    public var minX: Double { x }
    public var minY: Double { y }
    public var maxX: Double { x + width }
    public var maxY: Double { y + height }
    public var area: Double { max(0, width) * max(0, height) }

    /// The four corners as a quad: top-left, top-right, bottom-right, bottom-left.
    public var quad: Quad {
        Quad([Point(x: minX, y: minY), Point(x: maxX, y: minY), Point(x: maxX, y: maxY), Point(x: minX, y: maxY)])
    }

    /// The same rectangle in an image `width` × `height` after the image is turned `quarterTurns` × 90° clockwise.
    public func turned(quarterTurns: Int, inWidth width: Double, height: Double) -> Rect {
        switch ((quarterTurns % 4) + 4) % 4 {
        case 1: return Rect(x: height - maxY, y: minX, width: self.height, height: self.width)
        case 2: return Rect(x: width - maxX, y: height - maxY, width: self.width, height: self.height)
        case 3: return Rect(x: minY, y: width - maxX, width: self.height, height: self.width)
        default: return self
        }
    }

    /// The smallest rectangle holding both.
    public func union(_ other: Rect) -> Rect {
        let left = min(minX, other.minX), top = min(minY, other.minY)
        return Rect(x: left, y: top, width: max(maxX, other.maxX) - left, height: max(maxY, other.maxY) - top)
    }

    /// The area shared by both (zero when they do not overlap).
    public func intersectionArea(_ other: Rect) -> Double {
        max(0, min(maxX, other.maxX) - max(minX, other.minX)) * max(0, min(maxY, other.maxY) - max(minY, other.minY))
    }

    /// Intersection over union of the two areas (0 when disjoint, 1 when equal).
    public func intersectionOverUnion(_ other: Rect) -> Double {
        let shared = intersectionArea(other)
        let union = area + other.area - shared
        return union > 0 ? shared / union : 0
    }

    /// Encodes as `[x, y, width, height]`.
    public func encode(to encoder: any Encoder) throws { try [x, y, width, height].encode(to: encoder) }

    /// Decodes from `[x, y, width, height]`.
    public init(from decoder: any Decoder) throws {
        let values = try [Double](from: decoder)
        guard values.count == 4 else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "a rectangle is [x, y, width, height]"))
        }
        self.init(x: values[0], y: values[1], width: values[2], height: values[3])
    }
}

/// Four corners of a document: top-left, top-right, bottom-right, bottom-left, in that order.
public struct Quad: Hashable, Sendable, Codable {
    /// The corners in order: top-left, top-right, bottom-right, bottom-left.
    public var corners: [Point]

    /// Creates a quad from four corners in the order top-left, top-right, bottom-right, bottom-left.
    public init(_ corners: [Point]) {
        precondition(corners.count == 4, "a quad has four corners")
        self.corners = corners
    }

    /// The axis-aligned rectangle spanning `width` x `height` pixels (pixel edges, not centres).
    public init(width: Double, height: Double) {
        self.init([
            Point(x: -0.5, y: -0.5), Point(x: width - 0.5, y: -0.5), Point(x: width - 0.5, y: height - 0.5),
            Point(x: -0.5, y: height - 0.5),
        ])
    }

    public var topLeft: Point { corners[0] }
    public var topRight: Point { corners[1] }
    public var bottomRight: Point { corners[2] }
    public var bottomLeft: Point { corners[3] }

    /// The mean of the corners.
    public var centroid: Point { corners.reduce(Point(x: 0, y: 0), +) * 0.25 }

    /// Area enclosed (shoelace formula), positive whatever the winding.
    public var area: Double { abs(Polygon.signedArea(corners)) }

    /// Clockwise rotation in degrees (0, 90, 180, 270), to the nearest quarter turn, of the document's up direction
    /// (from the middle of its bottom side to the middle of its top side) against the up of the image its corners are
    /// in. A page photographed upside down is at 180, one whose top points right at 90.
    public var uprightRotation: Int {
        let up = (topLeft + topRight) * 0.5 - (bottomLeft + bottomRight) * 0.5
        let quarters = Int((atan2(up.x, -up.y) / (Double.pi / 2)).rounded())
        return (quarters % 4 + 4) % 4 * 90
    }

    /// The same corners relabelled after turning the document clockwise by `quarterTurns` × 90°: the corner that then
    /// sits at the top-left comes first.
    public func rotatedLabels(quarterTurns: Int) -> Quad {
        let k = ((quarterTurns % 4) + 4) % 4
        return Quad((0..<4).map { corners[(($0 - k) % 4 + 4) % 4] })
    }

    /// Intersection over union of the areas of two convex quads (0 when disjoint, 1 when equal).
    public func intersectionOverUnion(_ other: Quad) -> Double {
        let shared = Polygon.convexIntersectionArea(corners, other.corners)
        let union = area + other.area - shared
        return union > 0 ? shared / union : 0
    }

    /// Largest distance between corresponding corners.
    public func maximumCornerDistance(to other: Quad) -> Double {
        zip(corners, other.corners).map { $0.distance(to: $1) }.max() ?? 0
    }

    public func encode(to encoder: any Encoder) throws { try corners.encode(to: encoder) }

    public init(from decoder: any Decoder) throws {
        let corners = try [Point](from: decoder)
        guard corners.count == 4 else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "a quad has 4 corners"))
        }
        self.corners = corners
    }
}

/// Plane polygon helpers.
enum Polygon {
    static func signedArea(_ points: [Point]) -> Double {
        var sum = 0.0
        for i in points.indices {
            let a = points[i], b = points[(i + 1) % points.count]
            sum += a.x * b.y - b.x * a.y
        }
        return sum / 2
    }

    /// Area shared by two convex polygons (Sutherland–Hodgman clipping).
    static func convexIntersectionArea(_ first: [Point], _ second: [Point]) -> Double {
        let subject = signedArea(first) < 0 ? Array(first.reversed()) : first
        let clip = signedArea(second) < 0 ? Array(second.reversed()) : second
        var output = subject
        for i in clip.indices {
            guard !output.isEmpty else { break }
            let a = clip[i], b = clip[(i + 1) % clip.count]
            // Inside means to the left of a→b for counter-clockwise polygons in a y-up frame; the sign convention only
            // has to agree with signedArea, which it does.
            func side(_ p: Point) -> Double { (b.x - a.x) * (p.y - a.y) - (b.y - a.y) * (p.x - a.x) }
            let input = output
            output = []
            for j in input.indices {
                let current = input[j], previous = input[(j + input.count - 1) % input.count]
                let currentInside = side(current) >= 0, previousInside = side(previous) >= 0
                if currentInside != previousInside {
                    let t = side(previous) / (side(previous) - side(current))
                    output.append(previous + (current - previous) * t)
                }
                if currentInside { output.append(current) }
            }
        }
        return output.count >= 3 ? abs(signedArea(output)) : 0
    }
}

/// A projective map of the plane (a 3×3 matrix, row-major, acting on column vectors [x, y, 1]).
public struct Homography: Hashable, Sendable, Codable {
    /// The nine entries, row by row.
    public var matrix: [Double]

    /// Creates a homography from nine row-major entries.
    public init(matrix: [Double]) {
        precondition(matrix.count == 9, "a homography has 9 entries")
        self.matrix = matrix
    }

    /// The identity map.
    public static let identity = Homography(matrix: [1, 0, 0, 0, 1, 0, 0, 0, 1])

    /// A translation.
    public static func translation(x: Double, y: Double) -> Homography {
        Homography(matrix: [1, 0, x, 0, 1, y, 0, 0, 1])
    }

    /// A rotation by `degrees` clockwise on screen (y down) about `centre`.
    public static func rotation(degrees: Double, about centre: Point) -> Homography {
        let r = degrees * .pi / 180
        let c = cos(r), s = sin(r)
        // Screen-clockwise with y down is the usual counter-clockwise matrix.
        return Homography(matrix: [
            c, -s, centre.x - c * centre.x + s * centre.y, s, c, centre.y - s * centre.x - c * centre.y, 0, 0, 1,
        ])
    }

    /// The map that sends each of four source points to the matching target point.
    /// - Returns: nil when three of the points are collinear.
    public init?(from source: [Point], to target: [Point]) {
        precondition(source.count == 4 && target.count == 4, "a homography is fixed by four point pairs")
        // h33 = 1; solve the 8×8 linear system by Gaussian elimination with partial pivoting.
        var rows: [[Double]] = []
        for (p, q) in zip(source, target) {
            rows.append([p.x, p.y, 1, 0, 0, 0, -q.x * p.x, -q.x * p.y, q.x])
            rows.append([0, 0, 0, p.x, p.y, 1, -q.y * p.x, -q.y * p.y, q.y])
        }
        guard let h = Self.solve(&rows) else { return nil }
        self.init(matrix: h + [1])
    }

    private static func solve(_ a: inout [[Double]]) -> [Double]? {
        let n = a.count
        for column in 0..<n {
            let pivot = (column..<n).max { abs(a[$0][column]) < abs(a[$1][column]) }!
            guard abs(a[pivot][column]) > 1e-12 else { return nil }
            a.swapAt(column, pivot)
            for row in 0..<n where row != column {
                let factor = a[row][column] / a[column][column]
                if factor == 0 { continue }
                for k in column...n { a[row][k] -= factor * a[column][k] }
            }
        }
        return (0..<n).map { a[$0][n] / a[$0][$0] }
    }

    /// Maps a point.
    public func apply(_ p: Point) -> Point {
        let m = matrix
        let w = m[6] * p.x + m[7] * p.y + m[8]
        return Point(x: (m[0] * p.x + m[1] * p.y + m[2]) / w, y: (m[3] * p.x + m[4] * p.y + m[5]) / w)
    }

    /// Maps every corner of a quad.
    public func apply(_ quad: Quad) -> Quad { Quad(quad.corners.map(apply)) }

    /// The map that applies `self` first, then `next`.
    public func followed(by next: Homography) -> Homography {
        let a = next.matrix, b = matrix
        var product = [Double](repeating: 0, count: 9)
        for i in 0..<3 {
            for j in 0..<3 {
                product[i * 3 + j] = (0..<3).reduce(0) { $0 + a[i * 3 + $1] * b[$1 * 3 + j] }
            }
        }
        return Homography(matrix: product)
    }

    /// The inverse map, or nil when the matrix is singular.
    public var inverse: Homography? {
        let m = matrix
        let cofactors = [
            m[4] * m[8] - m[5] * m[7], m[2] * m[7] - m[1] * m[8], m[1] * m[5] - m[2] * m[4],
            m[5] * m[6] - m[3] * m[8], m[0] * m[8] - m[2] * m[6], m[2] * m[3] - m[0] * m[5],
            m[3] * m[7] - m[4] * m[6], m[1] * m[6] - m[0] * m[7], m[0] * m[4] - m[1] * m[3],
        ]
        let determinant = m[0] * cofactors[0] + m[1] * cofactors[3] + m[2] * cofactors[6]
        guard abs(determinant) > 1e-15 else { return nil }
        return Homography(matrix: cofactors.map { $0 / determinant })
    }
}
