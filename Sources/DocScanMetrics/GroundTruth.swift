import DocScan
import Foundation

/// The ground truth of one photo: a `NAME.truth.json` file beside `NAME.jpg` (the calibration corpus's format, which is
/// also the shape of `docscan scan --json` output, so a corrected scan report is a valid truth file).
public struct GroundTruth: Codable, Sendable {
    /// One page of the photo.
    public struct Page: Codable, Sendable {
        /// Corners in the upright photo, in the page's reading order.
        public var quad: Quad?
        /// Clockwise rotation of the page's up direction in the photo (0, 90, 180, 270).
        public var rotation: Int?
        /// Physical width in millimetres.
        public var widthMM: Double?
        /// Physical height in millimetres.
        public var heightMM: Double?
        /// The page's text, lines joined by newlines.
        public var text: String?

        enum CodingKeys: String, CodingKey {
            case quad, rotation, text
            case widthMM = "width_mm"
            case heightMM = "height_mm"
        }
    }

    /// The photo's file name.
    public var source: String?
    /// Kind of document (prose, receipt, card, form, spread, multi).
    public var kind: String?
    /// Upright width of the photo.
    public var width: Int?
    /// Upright height of the photo.
    public var height: Int?
    /// Pages in reading order.
    public var pages: [Page]

    /// Reads a truth file.
    /// - Throws: The file system's or the decoder's error.
    public init(contentsOf url: URL) throws {
        self = try JSONDecoder().decode(GroundTruth.self, from: Data(contentsOf: url))
    }

    /// The truth file that belongs to a photo (`NAME.truth.json` beside it), if it exists.
    public static func file(for photo: URL) -> URL? {
        let candidate = photo.deletingPathExtension().appendingPathExtension("truth.json")
        return FileManager.default.fileExists(atPath: candidate.path) ? candidate : nil
    }
}
