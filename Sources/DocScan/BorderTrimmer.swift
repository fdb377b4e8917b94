internal import CDocScanShim

/// Finds the pages inside a border that runs round a flat document: a book's cover and page block around an open
/// spread. Part of the detection stage: the outline found in the photo is the book's, and the pages are what the user
/// wants. A band along only one or two sides (a business card's coloured edge) is part of the document and stays.
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

    /// The border round a flat (rectified) document, or nil when there is none.
    /// - Throws: ``DocScanError`` when OpenCV fails.
    public func border(of document: Image) throws(DocScanError) -> Insets? {
        var insets = [Double](repeating: 0, count: 4)
        var found: Int32 = 0
        try withExtendedLifetime(document.storage) { () throws(DocScanError) in
            try check(ds_find_inner_page(document.storage.handle, &insets, &found), "border detection")
        }
        guard found != 0 else { return nil }
        return Insets(left: insets[0], top: insets[1], right: insets[2], bottom: insets[3])
    }
}
