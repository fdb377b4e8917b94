internal import CDocScanShim

/// Stage 4 of the pipeline: evens out lighting and removes shadows, soft and hard-edged, so that the paper becomes
/// uniformly white while the ink keeps its contrast.
public struct IlluminationCorrector: Sendable {
    /// The rendering of the corrected page.
    public enum Mode: String, Sendable, CaseIterable, Codable {
        /// Colour kept.
        case color
        /// One gray channel.
        case gray
        /// Black ink on white paper, thresholded locally (Sauvola).
        case blackAndWhite = "bw"
    }

    /// The rendering in effect.
    public var mode: Mode

    /// Creates a corrector.
    public init(mode: Mode = .color) {
        self.mode = mode
    }

    /// The page with its illumination divided out.
    /// - Throws: ``DocScanError`` when OpenCV fails.
    public func correct(_ page: Image) throws(DocScanError) -> Image {
        let shimMode: ds_light_mode =
            switch mode {
            case .color: DS_LIGHT_COLOR
            case .gray: DS_LIGHT_GRAY
            case .blackAndWhite: DS_LIGHT_BLACK_AND_WHITE
            }
        return try Image.make("illumination correction") { ds_flatten_illumination(page.storage.handle, shimMode, $0) }
    }

    /// The page as a text recognizer should see it: one gray channel with the illumination divided out, where only
    /// the paper itself turns white and faint or blurred strokes keep every shade (the ``Mode`` renderings, made for
    /// people, whiten them).
    /// - Throws: ``DocScanError`` when OpenCV fails.
    public static func readingImage(of page: Image) throws(DocScanError) -> Image {
        try Image.make("illumination correction") { ds_flatten_illumination(page.storage.handle, DS_LIGHT_READING, $0) }
    }
}
