import DocScanGeometry

/// How thoroughly to read: the trade between speed and accuracy, as in Vision's recognition level.
public enum RecognitionLevel: String, Sendable, Codable, CaseIterable {
    /// Quicker, for clean and large text.
    case fast
    /// Slower, for the best reading.
    case accurate
}

/// What to read and how: the options of Vision's text request, and more.
///
/// A recognizer that cannot honour an option it is given reports a warning in the result's diagnostics, or fails with
/// ``RecognitionError/unsupportedOption(recognizer:option:)`` when ``isStrict`` is set.
public struct RecognitionRequest: Sendable {
    /// The level to read at; nil uses the recognizer's own default.
    public var level: RecognitionLevel?
    /// Languages to read, most likely first, as ISO 639-2 codes the models use (`eng`, `deu`, `chi_sim`).
    public var languages: [String] = ["eng"]
    /// Whether a dictionary and language model may correct the reading.
    public var usesLanguageCorrection = true
    /// Words the text is likely to hold (names, product codes) that the reading should prefer.
    public var customWords: [String] = []
    /// When set, the only characters the reading may contain.
    public var allowedCharacters: String?
    /// Text shorter than this fraction of the page height is skipped, and the page is read at a lower resolution
    /// accordingly (so a larger value reads faster). 0 reads all text.
    public var minimumTextHeight = 0.0
    /// The part of the page to read, in fractions of its width and height with the origin at the top-left; nil reads
    /// all of it. Boxes in the result stay in whole-page pixels.
    public var regionOfInterest: Rect?
    /// How many readings to keep per line (the best first), where the recognizer has alternatives.
    public var maximumCandidates = 1
    /// The longest a page may take; recognition stops with ``RecognitionError/deadlineExceeded`` after it.
    public var timeLimit: Duration?
    /// Called with the share of the page done, from 0 to 1, never decreasing; it may be called on any thread.
    public var progressHandler: (@Sendable (Double) -> Void)?
    /// Whether an option the recognizer cannot honour is an error rather than a warning.
    public var isStrict = false
    /// Whether the recognizer may find the page sideways or upside down and read it turned (the turn it found is in
    /// the result's provenance). False reads the page the way it is given, which saves the trials when the way up is
    /// already known.
    public var detectsOrientation = true

    /// A request with the defaults: the recognizer's level, English, language correction on, the whole page.
    public init() {}

    /// Checks the options that every recognizer relies on.
    public func validate() throws(RecognitionError) {
        guard !languages.isEmpty else { throw .invalidRequest("at least one language is needed") }
        for language in languages where language.isEmpty || language.contains(where: { !($0.isLetter || $0.isNumber || $0 == "_" || $0 == "-") }) {
            throw .invalidRequest("'\(language)' is not a language code such as eng or chi_sim")
        }
        guard minimumTextHeight >= 0, minimumTextHeight < 1 else {
            throw .invalidRequest("the minimum text height is a fraction of the page height in [0, 1), not \(minimumTextHeight)")
        }
        guard maximumCandidates >= 1 else { throw .invalidRequest("at least one candidate per line must be asked for") }
        if let roi = regionOfInterest {
            let inside = roi.minX >= 0 && roi.minY >= 0 && roi.maxX <= 1 + 1e-9 && roi.maxY <= 1 + 1e-9
            guard inside, roi.width > 0, roi.height > 0 else {
                throw .invalidRequest(
                    "the region of interest is given in fractions of the page (x, y, width, height within 0...1)")
            }
        }
        if let timeLimit, timeLimit <= .zero { throw .invalidRequest("the time limit must be positive") }
        if let allowed = allowedCharacters, allowed.isEmpty {
            throw .invalidRequest("the set of allowed characters is empty")
        }
    }

    /// The region of interest in pixels of a page of the given size (the whole page when none is set).
    public func pixelRegion(width: Int, height: Int) -> Rect {
        guard let roi = regionOfInterest else { return Rect(x: 0, y: 0, width: Double(width), height: Double(height)) }
        return Rect(
            x: roi.x * Double(width), y: roi.y * Double(height), width: roi.width * Double(width),
            height: roi.height * Double(height))
    }
}
