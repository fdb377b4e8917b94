/// What a recognizer is and what it can do; shown by `docscan recognizers` and stated in every result.
public struct RecognizerDescriptor: Sendable, Codable, Equatable {
    /// What the recognizer can honour beyond plain text.
    public struct Capabilities: Sendable, Codable, Equatable {
        public var wordBoxes = false
        public var glyphBoxes = false
        /// Alternative readings per line.
        public var candidates = false
        public var customWords = false
        public var languageCorrection = false
        public var allowedCharacters = false
        public var minimumTextHeight = false
        public var regionOfInterest = false
        public var progress = false
        public var cancellation = false
        public var deadline = false

        /// No capabilities; set the ones the recognizer has.
        public init() {}

        enum CodingKeys: String, CodingKey {
            case wordBoxes = "word_boxes", glyphBoxes = "glyph_boxes", candidates
            case customWords = "custom_words", languageCorrection = "language_correction"
            case allowedCharacters = "allowed_characters", minimumTextHeight = "minimum_text_height"
            case regionOfInterest = "region_of_interest", progress, cancellation, deadline
        }

        public init(from decoder: any Decoder) throws {
            // Capabilities a plugin does not mention are ones it does not have.
            let c = try decoder.container(keyedBy: CodingKeys.self)
            func flag(_ key: CodingKeys) throws -> Bool { try c.decodeIfPresent(Bool.self, forKey: key) ?? false }
            wordBoxes = try flag(.wordBoxes)
            glyphBoxes = try flag(.glyphBoxes)
            candidates = try flag(.candidates)
            customWords = try flag(.customWords)
            languageCorrection = try flag(.languageCorrection)
            allowedCharacters = try flag(.allowedCharacters)
            minimumTextHeight = try flag(.minimumTextHeight)
            regionOfInterest = try flag(.regionOfInterest)
            progress = try flag(.progress)
            cancellation = try flag(.cancellation)
            deadline = try flag(.deadline)
        }
    }

    /// The id callers use (`fast`, `accurate`, `rapidocr`).
    public var id: String
    /// A human-readable name.
    public var name: String
    /// The engine's version.
    public var version: String
    /// Which model files the recognizer reads (for Tesseract, the traineddata paths), or their identity.
    public var model: String
    /// Languages it has models for.
    public var languages: [String]
    /// Levels it supports; `defaultLevel` is used when a request names none.
    public var levels: [RecognitionLevel]
    public var defaultLevel: RecognitionLevel
    public var capabilities: Capabilities

    /// Creates a descriptor.
    public init(
        id: String, name: String, version: String, model: String, languages: [String], levels: [RecognitionLevel],
        defaultLevel: RecognitionLevel, capabilities: Capabilities
    ) {
        self.id = id
        self.name = name
        self.version = version
        self.model = model
        self.languages = languages
        self.levels = levels
        self.defaultLevel = defaultLevel
        self.capabilities = capabilities
    }

    enum CodingKeys: String, CodingKey {
        case id, name, version, model, languages, levels, defaultLevel = "default_level", capabilities
    }

    /// The options of `request` this recognizer cannot honour, named as a user would name them.
    public func unsupportedOptions(in request: RecognitionRequest) -> [String] {
        var missing: [String] = []
        let c = capabilities
        if let level = request.level, !levels.contains(level) { missing.append("level '\(level.rawValue)'") }
        if !request.customWords.isEmpty && !c.customWords { missing.append("custom words") }
        if !request.usesLanguageCorrection && !c.languageCorrection { missing.append("turning language correction off") }
        if request.allowedCharacters != nil && !c.allowedCharacters { missing.append("allowed characters") }
        if request.minimumTextHeight > 0 && !c.minimumTextHeight { missing.append("minimum text height") }
        if request.regionOfInterest != nil && !c.regionOfInterest { missing.append("region of interest") }
        if request.maximumCandidates > 1 && !c.candidates { missing.append("several candidates per line") }
        if request.progressHandler != nil && !c.progress { missing.append("progress reporting") }
        if request.timeLimit != nil && !c.deadline { missing.append("a time limit") }
        let unknown = request.languages.filter { !languages.contains($0) }
        if !unknown.isEmpty && !languages.isEmpty { missing.append("language \(unknown.joined(separator: "+"))") }
        return missing
    }
}
