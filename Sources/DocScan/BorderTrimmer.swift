internal import CDocScanShim

/// Finds the pages inside a border that runs round a flat document: a book's cover and page block around an open
/// spread. Part of the detection stage: the outline found in the photo is the book's, and the pages are what the user
/// wants. A band along only one or two sides (a business card's coloured edge) is part of the document and stays,
/// unless the document is a spread: a hard cover seen at a tilt shows along two sides that meet at a corner, its other
/// edges hidden behind the page block, and a page block along one side only.
public struct BorderTrimmer: Sendable {
    /// Widths of the border on each side, in pixels of the examined image.
    public struct Insets: Sendable, Equatable {
        public var left: Double
        public var top: Double
        public var right: Double
        public var bottom: Double
    }

    /// Creates a trimmer.
    public init() {}

    /// The border round a flat (rectified) document, or nil when there is none: a band on three sides or more, or,
    /// when `isSpread` says the document is a book's spread (asked only then, as finding a gutter costs more than
    /// finding the bands), on two sides that meet at a corner or on sides that are all far darker than the paper.
    /// - Throws: ``DocScanError`` when OpenCV fails, or what `isSpread` throws.
    public func border(of document: Image, isSpread: () throws(DocScanError) -> Bool = { false })
        throws(DocScanError) -> Insets?
    {
        var insets = [Double](repeating: 0, count: 4)
        var banded: Int32 = 0
        try withExtendedLifetime(document.storage) { () throws(DocScanError) in
            try check(ds_find_inner_page(document.storage.handle, &insets, &banded), "border detection")
        }
        if !Self.isBorder(bandedSides: banded, isSpread: false) {
            guard Self.isBorder(bandedSides: banded, isSpread: true), try isSpread() else { return nil }
        }
        return Insets(left: insets[0], top: insets[1], right: insets[2], bottom: insets[3])
    }

    /// Whether bands on the sides set in `bandedSides` (bits 1 left, 2 top, 4 right, 8 bottom; the same shifted left
    /// by 4 for a band far darker than the paper) make a border. A book shows its cover or page block along any of its
    /// sides, as the camera sees it: along one only when it lies square to the camera on that side (seed 285000
    /// spread-01, the page block along the foot of an upside-down spread). A band that is only shade (a page curling
    /// down to its fore-edge) counts so only beside another.
    static func isBorder(bandedSides: Int32, isSpread: Bool) -> Bool {
        let banded = (0..<4).filter { bandedSides & (1 << $0) != 0 }
        if banded.count >= 3 { return true }
        guard isSpread, !banded.isEmpty else { return false }
        // Two sides meet at a corner when they are neighbours: left and top, top and right, and so on round.
        let meetAtCorner = banded.count == 2 && banded.contains { banded.contains(($0 + 1) % 4) }
        return meetAtCorner || banded.allSatisfy { bandedSides & (16 << $0) != 0 }
    }
}
