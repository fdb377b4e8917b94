import DocScanGeometry

/// A confidence as a recognizer reports it: a probability-like value in 0...1, and the engine's own number; for
/// words, also the calibrated probability that the word is exactly right, when a calibration is known.
///
/// A result has no confidence at all when the engine gives none; DocScan never makes one up.
public struct Confidence: Sendable, Codable, Equatable {
    /// The confidence mapped to 0...1 (for Tesseract, its 0–100 percentage divided by 100).
    public var value: Double
    /// The number as the engine reported it.
    public var native: Double
    /// The probability that the word is exactly right, from the recognizer's ``ConfidenceCalibration``; nil when
    /// the recognizer has none (see ``CalibratedRecognizer``) and on lines and glyphs.
    public var calibrated: Double?

    /// Creates a confidence from the engine's number and its 0...1 mapping.
    public init(value: Double, native: Double, calibrated: Double? = nil) {
        self.value = min(1, max(0, value))
        self.native = native
        self.calibrated = calibrated
    }
}

/// One alternative reading with its confidence.
public struct TextCandidate: Sendable, Codable, Equatable {
    public var text: String
    public var confidence: Confidence?

    public init(text: String, confidence: Confidence?) {
        self.text = text
        self.confidence = confidence
    }
}

/// One character (or the smallest unit the engine boxes).
public struct RecognizedGlyph: Sendable, Codable, Equatable {
    public var text: String
    public var confidence: Confidence?
    /// Box in page pixels, origin top-left.
    public var box: Rect
    /// The box mapped into the source photo, when the page came from one.
    public var photoQuad: Quad?
    /// The engine's other guesses for this glyph, best first (the reading itself not repeated).
    public var alternatives: [TextCandidate]

    public init(text: String, confidence: Confidence?, box: Rect, photoQuad: Quad? = nil, alternatives: [TextCandidate] = []) {
        self.text = text
        self.confidence = confidence
        self.box = box
        self.photoQuad = photoQuad
        self.alternatives = alternatives
    }

    enum CodingKeys: String, CodingKey { case text, confidence, box, photoQuad = "photo_quad", alternatives }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        text = try c.decode(String.self, forKey: .text)
        confidence = try c.decodeIfPresent(Confidence.self, forKey: .confidence)
        box = try c.decode(Rect.self, forKey: .box)
        photoQuad = try c.decodeIfPresent(Quad.self, forKey: .photoQuad)
        alternatives = try c.decodeIfPresent([TextCandidate].self, forKey: .alternatives) ?? []
    }

    /// Glyphs are many, and most have no alternatives: the empty list is left out of the JSON.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(text, forKey: .text)
        try c.encodeIfPresent(confidence, forKey: .confidence)
        try c.encode(box, forKey: .box)
        try c.encodeIfPresent(photoQuad, forKey: .photoQuad)
        if !alternatives.isEmpty { try c.encode(alternatives, forKey: .alternatives) }
    }
}

/// One word.
public struct RecognizedWord: Sendable, Codable, Equatable {
    public var text: String
    public var confidence: Confidence?
    public var box: Rect
    public var photoQuad: Quad?
    /// Whether the engine found the word in its dictionary or the custom words, when it says.
    public var isFromDictionary: Bool?
    public var glyphs: [RecognizedGlyph]
    /// For a word the recognizer took from another of its readings of the page, where the reading it kept read nothing
    /// or only noise: the kept reading's words it took the place of (none where that read nothing). Nil for a word of
    /// the kept reading. Not part of the JSON: it lets a caller that reads two renderings of a page judge each by what
    /// its own reading held (``RecognizedPage/asRead``).
    package var tookPlaceOf: [RecognizedWord]?

    /// The words of the reading the recognizer kept that this word stands for: itself, or for a word filled in from
    /// another reading, the words it took the place of.
    package var asRead: [RecognizedWord] { tookPlaceOf.map { $0.flatMap(\.asRead) } ?? [self] }

    public init(
        text: String, confidence: Confidence?, box: Rect, photoQuad: Quad? = nil, isFromDictionary: Bool? = nil,
        glyphs: [RecognizedGlyph] = []
    ) {
        self.text = text
        self.confidence = confidence
        self.box = box
        self.photoQuad = photoQuad
        self.isFromDictionary = isFromDictionary
        self.glyphs = glyphs
    }

    enum CodingKeys: String, CodingKey {
        case text, confidence, box, photoQuad = "photo_quad", isFromDictionary = "from_dictionary", glyphs
    }
}

/// One line of text.
public struct RecognizedLine: Sendable, Codable, Equatable {
    /// The line's text: its words separated by single spaces.
    public var text: String
    public var confidence: Confidence?
    public var box: Rect
    public var photoQuad: Quad?
    /// Readings of the whole line, best first; the first is `text`. Only where the engine has real alternatives.
    public var candidates: [TextCandidate]
    public var words: [RecognizedWord]

    public init(
        text: String, confidence: Confidence?, box: Rect, photoQuad: Quad? = nil, candidates: [TextCandidate] = [],
        words: [RecognizedWord] = []
    ) {
        self.text = text
        self.confidence = confidence
        self.box = box
        self.photoQuad = photoQuad
        self.candidates = candidates
        self.words = words
    }

    /// The line's words joined by spaces: its text once its words have changed.
    package var wordsText: String { words.map(\.text).joined(separator: " ") }

    enum CodingKeys: String, CodingKey { case text, confidence, box, photoQuad = "photo_quad", candidates, words }

    /// The box around the characters of `range` (a range of `text`), like Vision's `boundingBox(for:)`: the union of
    /// the glyphs in it where glyph boxes exist, else of the words it touches, else the line's box. Nil for an empty
    /// range or one outside the text.
    public func boundingBox(for range: Range<String.Index>) -> Rect? {
        guard !range.isEmpty, range.lowerBound >= text.startIndex, range.upperBound <= text.endIndex else { return nil }
        var boxes: [Rect] = []
        var cursor = text.startIndex
        for word in words {
            guard !word.text.isEmpty, let found = text.range(of: word.text, range: cursor..<text.endIndex) else {
                continue
            }
            cursor = found.upperBound
            guard found.overlaps(range) else { continue }
            let glyphsMatch = word.glyphs.map(\.text).joined() == word.text
            guard glyphsMatch, !word.glyphs.isEmpty else {
                boxes.append(word.box)
                continue
            }
            var glyphStart = found.lowerBound
            for glyph in word.glyphs {
                let glyphEnd = text.index(glyphStart, offsetBy: glyph.text.count)
                if (glyphStart..<glyphEnd).overlaps(range) { boxes.append(glyph.box) }
                glyphStart = glyphEnd
            }
        }
        if boxes.isEmpty { return words.isEmpty ? box : nil }
        return Rect(enclosing: boxes)
    }
}

/// A block of lines the engine found together (a paragraph, a column, a table cell).
public struct RecognizedBlock: Sendable, Codable, Equatable {
    public var box: Rect
    public var photoQuad: Quad?
    public var lines: [RecognizedLine]

    public init(box: Rect, photoQuad: Quad? = nil, lines: [RecognizedLine]) {
        self.box = box
        self.photoQuad = photoQuad
        self.lines = lines
    }

    enum CodingKeys: String, CodingKey { case box, photoQuad = "photo_quad", lines }
}

extension RecognizedBlock {
    /// The block with its own box and every line, word and glyph box passed through `transform` (photo quads are
    /// left as they are).
    public func transformingBoxes(_ transform: (Rect) -> Rect) -> RecognizedBlock {
        var block = self
        block.box = transform(box)
        for l in block.lines.indices {
            block.lines[l].box = transform(block.lines[l].box)
            block.lines[l].words = block.lines[l].words.map { $0.transformingBoxes(transform) }
        }
        return block
    }
}

extension RecognizedWord {
    /// The word with its box and its glyphs' boxes passed through `transform` (photo quads are left as they are).
    public func transformingBoxes(_ transform: (Rect) -> Rect) -> RecognizedWord {
        var word = self
        word.box = transform(box)
        for g in word.glyphs.indices { word.glyphs[g].box = transform(word.glyphs[g].box) }
        word.tookPlaceOf = tookPlaceOf?.map { $0.transformingBoxes(transform) }
        return word
    }
}

/// A warning about the request or the reading; strict mode turns unsupported options into errors instead.
public struct RecognitionDiagnostic: Sendable, Codable, Equatable {
    public var message: String

    public init(_ message: String) { self.message = message }
}

/// What ran to produce a result, so a reading can be reproduced and compared.
public struct RecognitionProvenance: Sendable, Codable, Equatable {
    /// The recognizer id it was asked through.
    public var recognizer: String
    /// The engine and its version (`Tesseract 5.3.0`).
    public var backend: String
    public var version: String
    /// The model files read.
    public var models: [String]
    public var level: RecognitionLevel
    /// What the level meant for this engine, in words (`fast LSTM model, page at 24 px text height, no dictionary`).
    public var levelMapping: String
    /// Quarter turns clockwise the recognizer applied to read the page upright (0 when it looked and found it upright
    /// or did not look); nil when it did not check.
    public var orientationQuarterTurns: Int?
    /// The resolution the engine was told, in pixels per inch, when it was told one.
    public var resolution: Double?
    /// Milliseconds per stage (`prepare`, `recognize`, `extract`, ...).
    public var timingsMilliseconds: [String: Double]
    /// Where the calibration of the word confidences came from, when they were calibrated.
    public var confidenceCalibration: String?

    public init(
        recognizer: String, backend: String, version: String, models: [String], level: RecognitionLevel,
        levelMapping: String, orientationQuarterTurns: Int? = nil, resolution: Double? = nil,
        timingsMilliseconds: [String: Double] = [:], confidenceCalibration: String? = nil
    ) {
        self.recognizer = recognizer
        self.backend = backend
        self.version = version
        self.models = models
        self.level = level
        self.levelMapping = levelMapping
        self.orientationQuarterTurns = orientationQuarterTurns
        self.resolution = resolution
        self.timingsMilliseconds = timingsMilliseconds
        self.confidenceCalibration = confidenceCalibration
    }

    enum CodingKeys: String, CodingKey {
        case recognizer, backend, version, models, level, levelMapping = "level_mapping"
        case orientationQuarterTurns = "orientation_quarter_turns", resolution, timingsMilliseconds = "timings_ms"
        case confidenceCalibration = "confidence_calibration"
    }
}

/// The text read from one page: blocks of lines of words of glyphs, each with its box on the page and in the photo.
public struct RecognizedPage: Sendable, Codable, Equatable {
    /// The page size in pixels that boxes refer to.
    public var width: Int
    public var height: Int
    public var blocks: [RecognizedBlock]
    public var provenance: RecognitionProvenance
    public var diagnostics: [RecognitionDiagnostic]

    public init(
        width: Int, height: Int, blocks: [RecognizedBlock], provenance: RecognitionProvenance,
        diagnostics: [RecognitionDiagnostic] = []
    ) {
        self.width = width
        self.height = height
        self.blocks = blocks
        self.provenance = provenance
        self.diagnostics = diagnostics
    }

    /// All lines in reading order.
    public var lines: [RecognizedLine] { blocks.flatMap(\.lines) }

    /// All words in reading order.
    public var words: [RecognizedWord] { lines.flatMap(\.words) }

    /// The reading as the recognizer's kept reading held it: each word it filled in from its other readings of the
    /// page back to the words it took the place of (``RecognizedWord/tookPlaceOf``). Two renderings of a page are
    /// judged against each other this way, since filling narrows the gap between a good rendering and a poor one,
    /// which has more to fill.
    package var asRead: RecognizedPage {
        guard words.contains(where: { $0.tookPlaceOf != nil }) else { return self }
        var page = self
        page.blocks = blocks.compactMap { block in
            var block = block
            block.lines = block.lines.compactMap { line in
                guard line.words.contains(where: { $0.tookPlaceOf != nil }) else { return line }
                var line = line
                line.words = line.words.flatMap(\.asRead)
                line.text = line.wordsText
                return line.words.isEmpty ? nil : line
            }
            return block.lines.isEmpty ? nil : block
        }
        return page
    }

    /// How much believable text the reading holds, for choosing between two readings of the same page: see
    /// ``legibility(of:)``. Nil when the recognizer gives its words no confidence.
    public var legibility: Double? { Self.legibility(of: words) }

    /// How much believable text `words` hold: the letters and digits of the words read with confidence 0.7 or more,
    /// weighted by the square of their confidence, less a quarter of all the characters of the words read with less,
    /// so that noise read as text (a texture, ringing round print) counts against a reading. Words without a
    /// confidence (a rule of dashes drawn rather than read) count for nothing; nil when no word has one.
    public static func legibility(of words: [RecognizedWord]) -> Double? {
        guard words.isEmpty || words.contains(where: { $0.confidence != nil }) else { return nil }
        var sum = 0.0
        for word in words {
            guard let confidence = word.confidence?.value else { continue }
            if confidence >= 0.7 {
                sum += confidenceWeightedLetters(of: word)
            } else {
                sum -= 0.25 * Double(word.text.count)
            }
        }
        return sum
    }

    /// How much text the reading holds, sure of it or not: see ``weightedText(of:)``.
    public var weightedText: Double { Self.weightedText(of: words) }

    /// The letters and digits of `words`, each weighted by the square of its word's confidence (words without one count
    /// for nothing): text that is there to be read, whether or not the recognizer is sure of it.
    public static func weightedText(of words: [RecognizedWord]) -> Double {
        words.reduce(0) { $0 + confidenceWeightedLetters(of: $1) }
    }

    /// The letters and digits of `word`, weighted by the square of its confidence (nothing without one).
    private static func confidenceWeightedLetters(of word: RecognizedWord) -> Double {
        let confidence = word.confidence?.value ?? 0
        return Double(lettersAndDigits(of: [word])) * confidence * confidence
    }

    /// How many letters and digits the reading holds.
    public var lettersAndDigits: Int { Self.lettersAndDigits(of: words) }

    /// How many letters and digits `words` hold.
    public static func lettersAndDigits(of words: [RecognizedWord]) -> Int {
        words.reduce(0) { $0 + $1.text.filter { $0.isLetter || $0.isNumber }.count }
    }

    /// Whether the reading leaves little to gain from reading the page another way: see ``isSettled(_:)``.
    public var isSettled: Bool { Self.isSettled(words) }

    /// Whether `words` leave little to gain from reading their page another way: 20 words or more with a confidence,
    /// under 3% of them below 0.7, and 0.9 on average. Words without a confidence are not counted.
    public static func isSettled(_ words: [RecognizedWord]) -> Bool {
        let confidences = words.compactMap { $0.confidence?.value }
        guard confidences.count >= 20 else { return false }
        let unsure = confidences.filter { $0 < 0.7 }.count
        return Double(unsure) < 0.03 * Double(confidences.count)
            && confidences.reduce(0, +) / Double(confidences.count) >= 0.9
    }

    /// The page text in reading order: one line of text per line, a blank line between blocks.
    public var text: String {
        blocks.map { $0.lines.map(\.text).joined(separator: "\n") }.filter { !$0.isEmpty }.joined(separator: "\n\n")
    }

    /// The box around the characters of `range`, a range of ``text``: the union over the lines it touches of each
    /// line's ``RecognizedLine/boundingBox(for:)``. Nil for an empty range or one outside the text.
    public func boundingBox(for range: Range<String.Index>) -> Rect? {
        Rect(enclosing: lineBoxes(for: range))
    }

    /// One box per line that `range` (a range of ``text``) touches, for highlighting text across lines.
    public func lineBoxes(for range: Range<String.Index>) -> [Rect] {
        let text = self.text
        guard !range.isEmpty, range.lowerBound >= text.startIndex, range.upperBound <= text.endIndex else { return [] }
        var boxes: [Rect] = []
        var cursor = text.startIndex
        for line in lines where !line.text.isEmpty {
            guard let found = text.range(of: line.text, range: cursor..<text.endIndex) else { continue }
            cursor = found.upperBound
            guard found.overlaps(range) else { continue }
            // The same characters as a range of the line's own text.
            let start = text.distance(from: found.lowerBound, to: max(found.lowerBound, range.lowerBound))
            let end = text.distance(from: found.lowerBound, to: min(found.upperBound, range.upperBound))
            let lower = line.text.index(line.text.startIndex, offsetBy: start)
            let upper = line.text.index(line.text.startIndex, offsetBy: end)
            if let box = line.boundingBox(for: lower..<upper) { boxes.append(box) }
        }
        return boxes
    }

    /// The same reading on the page turned `quarterTurns` × 90° clockwise (as a scan turns a page that a recognizer
    /// found upside down or sideways): every box turns with the page, and width and height swap for a quarter turn.
    /// With `pageToPhoto`, the turned page's map into the photo, the photo quads are mapped again so that their
    /// corners follow the turned boxes; without it they keep their corners (the same places in the photo).
    public func turned(quarterTurns: Int, pageToPhoto: Homography?) -> RecognizedPage {
        let k = ((quarterTurns % 4) + 4) % 4
        guard k != 0 else { return self }
        let (w, h) = (Double(width), Double(height))
        var page = self
        if k % 2 == 1 { (page.width, page.height) = (height, width) }
        page.blocks = blocks.map { $0.transformingBoxes { $0.turned(quarterTurns: k, inWidth: w, height: h) } }
        return pageToPhoto.map { page.mappingBoxes(through: $0) } ?? page
    }

    /// The same page with every box also mapped into the photo through `pageToPhoto`.
    public func mappingBoxes(through pageToPhoto: Homography) -> RecognizedPage {
        var page = self
        for b in page.blocks.indices {
            page.blocks[b].photoQuad = pageToPhoto.apply(page.blocks[b].box.quad)
            for l in page.blocks[b].lines.indices {
                page.blocks[b].lines[l].photoQuad = pageToPhoto.apply(page.blocks[b].lines[l].box.quad)
                for w in page.blocks[b].lines[l].words.indices {
                    var word = page.blocks[b].lines[l].words[w]
                    word.photoQuad = pageToPhoto.apply(word.box.quad)
                    for g in word.glyphs.indices { word.glyphs[g].photoQuad = pageToPhoto.apply(word.glyphs[g].box.quad) }
                    page.blocks[b].lines[l].words[w] = word
                }
            }
        }
        return page
    }
}
