import DocScanGeometry
import DocScanRecognition
import Foundation

/// The plugin protocol: JSON objects, one per line, over the plugin's stdin (from the host) and stdout (from the
/// plugin). `Plugins/README.md` describes it for authors in any language.
public enum PluginProtocol {
    /// The version this host speaks; a plugin states the one it speaks in its manifest and its `hello`.
    public static let version = 1
}

/// Why a plugin could not be used or could not read a page.
public enum PluginError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The manifest is missing, not JSON, or lacks what the host needs.
    case invalidManifest(String, reason: String)

    public var description: String {
        switch self {
        case .invalidManifest(let file, let reason): return "invalid plugin manifest \(file): \(reason)"
        }
    }
}

/// What the host sends a plugin with each page: the request's options, with the names of `Plugins/README.md`.
public struct PluginRequestOptions: Codable, Sendable, Equatable {
    public var level: RecognitionLevel
    public var languages: [String]
    public var languageCorrection: Bool
    public var customWords: [String]
    public var allowedCharacters: String?
    public var minimumTextHeight: Double
    public var regionOfInterest: Rect?
    public var maximumCandidates: Int
    public var timeLimitSeconds: Double?
    /// Whether the host wants `progress` messages for this page (a plugin may send them anyway; they are ignored).
    public var progress: Bool
    /// Whether the plugin may read the page turned when it finds it sideways or upside down.
    public var detectsOrientation: Bool

    enum CodingKeys: String, CodingKey {
        case level, languages, languageCorrection = "language_correction", customWords = "custom_words"
        case allowedCharacters = "allowed_characters", minimumTextHeight = "minimum_text_height"
        case regionOfInterest = "region_of_interest", maximumCandidates = "maximum_candidates"
        case timeLimitSeconds = "time_limit_seconds", progress, detectsOrientation = "detects_orientation"
    }

    /// The options of `request`, at `level`.
    public init(_ request: RecognitionRequest, level: RecognitionLevel) {
        self.level = level
        languages = request.languages
        languageCorrection = request.usesLanguageCorrection
        customWords = request.customWords
        allowedCharacters = request.allowedCharacters
        minimumTextHeight = request.minimumTextHeight
        regionOfInterest = request.regionOfInterest
        maximumCandidates = request.maximumCandidates
        timeLimitSeconds = request.timeLimit.map { Double($0.components.seconds) + Double($0.components.attoseconds) * 1e-18 }
        progress = request.progressHandler != nil
        detectsOrientation = request.detectsOrientation
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        level = try c.decode(RecognitionLevel.self, forKey: .level)
        languages = try c.decode([String].self, forKey: .languages)
        languageCorrection = try c.decodeIfPresent(Bool.self, forKey: .languageCorrection) ?? true
        customWords = try c.decodeIfPresent([String].self, forKey: .customWords) ?? []
        allowedCharacters = try c.decodeIfPresent(String.self, forKey: .allowedCharacters)
        minimumTextHeight = try c.decodeIfPresent(Double.self, forKey: .minimumTextHeight) ?? 0
        regionOfInterest = try c.decodeIfPresent(Rect.self, forKey: .regionOfInterest)
        maximumCandidates = try c.decodeIfPresent(Int.self, forKey: .maximumCandidates) ?? 1
        timeLimitSeconds = try c.decodeIfPresent(Double.self, forKey: .timeLimitSeconds)
        progress = try c.decodeIfPresent(Bool.self, forKey: .progress) ?? false
        detectsOrientation = try c.decodeIfPresent(Bool.self, forKey: .detectsOrientation) ?? true
    }

    /// The same options as a request a ``TextRecognizer`` reads.
    public var request: RecognitionRequest {
        var request = RecognitionRequest()
        request.level = level
        request.languages = languages
        request.usesLanguageCorrection = languageCorrection
        request.customWords = customWords
        request.allowedCharacters = allowedCharacters
        request.minimumTextHeight = minimumTextHeight
        request.regionOfInterest = regionOfInterest
        request.maximumCandidates = maximumCandidates
        request.timeLimit = timeLimitSeconds.map { .milliseconds(Int64($0 * 1000)) }
        request.detectsOrientation = detectsOrientation
        return request
    }
}

/// The page image a plugin is given: a PNG file in a folder of its own.
public struct PluginImage: Codable, Sendable, Equatable {
    public var path: String
    public var width: Int
    public var height: Int
    /// Pixels per inch, when known.
    public var resolution: Double?
}

/// A line the host writes to a plugin.
struct HostMessage: Encodable {
    var type: String
    var protocolVersion: Int?
    var id: Int?
    var image: PluginImage?
    var options: PluginRequestOptions?

    enum CodingKeys: String, CodingKey { case type, protocolVersion = "protocol", id, image, options }

    static func hello() -> HostMessage { HostMessage(type: "hello", protocolVersion: PluginProtocol.version) }
    static func recognize(id: Int, image: PluginImage, options: PluginRequestOptions) -> HostMessage {
        HostMessage(type: "recognize", id: id, image: image, options: options)
    }
}

/// A line a plugin writes to the host; which fields are set depends on `type`.
struct PluginMessage: Decodable {
    var type: String
    var protocolVersion: Int?
    var id: Int?
    var fraction: Double?
    var message: String?
    /// A result's page, or what is wrong with it (so that a malformed page fails only its page, while the line is
    /// parsed once).
    var page: Result<PluginPage, PluginPageError>?

    enum CodingKeys: String, CodingKey { case type, protocolVersion = "protocol", id, fraction, message, page }

    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        type = try c.decode(String.self, forKey: .type)
        protocolVersion = try c.decodeIfPresent(Int.self, forKey: .protocolVersion)
        id = try c.decodeIfPresent(Int.self, forKey: .id)
        fraction = try c.decodeIfPresent(Double.self, forKey: .fraction)
        message = try c.decodeIfPresent(String.self, forKey: .message)
        if c.contains(.page) {
            do {
                page = .success(try c.decode(PluginPage.self, forKey: .page))
            } catch {
                page = .failure(PluginPageError(PluginManifest.describe(error)))
            }
        }
    }
}

/// A box written with names.
struct NamedRect: Decodable {
    var x, y, width, height: Double
}

/// A page as a plugin returns it: the result model's JSON (blocks → lines → words → glyphs), where everything but the
/// text may be left out. A confidence is a number from 0 to 1, or the model's `{"value": …, "native": …}`.
struct PluginPage: Decodable {
    struct Element: Decodable {
        var text: String?
        var confidence: Confidence?
        var box: Rect?
        var lines: [Element]?
        var words: [Element]?
        var glyphs: [Element]?
        var candidates: [Element]?

        enum CodingKeys: String, CodingKey { case text, confidence, box, lines, words, glyphs, candidates }

        /// A block made of bare lines.
        init(lines: [Element]) {
            self.lines = lines
        }

        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            text = try c.decodeIfPresent(String.self, forKey: .text)
            if let number = try? c.decodeIfPresent(Double.self, forKey: .confidence) {
                confidence = Confidence(value: number, native: number)
                guard (0...1).contains(number) else {
                    throw DecodingError.dataCorruptedError(
                        forKey: .confidence, in: c, debugDescription: "confidence \(number) is not within 0...1")
                }
            } else {
                confidence = try c.decodeIfPresent(Confidence.self, forKey: .confidence)
            }
            // The result model writes a box as [x, y, width, height]; {"x", "y", "width", "height"} is read too.
            if let rect = try? c.decodeIfPresent(Rect.self, forKey: .box) {
                box = rect
            } else if let named = try c.decodeIfPresent(NamedRect.self, forKey: .box) {
                box = Rect(x: named.x, y: named.y, width: named.width, height: named.height)
            }
            lines = try c.decodeIfPresent([Element].self, forKey: .lines)
            words = try c.decodeIfPresent([Element].self, forKey: .words)
            glyphs = try c.decodeIfPresent([Element].self, forKey: .glyphs)
            candidates = try c.decodeIfPresent([Element].self, forKey: .candidates)
        }
    }

    /// What the plugin says about how it read (all optional), as in the result model's provenance.
    struct Provenance: Decodable {
        var levelMapping: String?
        var orientationQuarterTurns: Int?
        var timingsMilliseconds: [String: Double]?

        enum CodingKeys: String, CodingKey {
            case levelMapping = "level_mapping", orientationQuarterTurns = "orientation_quarter_turns"
            case timingsMilliseconds = "timings_ms"
        }
    }

    var blocks: [Element]?
    /// A page of lines without blocks is one block.
    var lines: [Element]?
    var diagnostics: [String]?
    var provenance: Provenance?

    enum CodingKeys: String, CodingKey { case blocks, lines, diagnostics, provenance }

    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        blocks = try c.decodeIfPresent([Element].self, forKey: .blocks)
        lines = try c.decodeIfPresent([Element].self, forKey: .lines)
        // The result model writes diagnostics as objects with a message; a plugin may write plain strings.
        if let strings = try? c.decodeIfPresent([String].self, forKey: .diagnostics) {
            diagnostics = strings
        } else {
            diagnostics = try c.decodeIfPresent([RecognitionDiagnostic].self, forKey: .diagnostics)?.map(\.message)
        }
        provenance = try c.decodeIfPresent(Provenance.self, forKey: .provenance)
    }

    /// The page in the result model, every box checked against the page's size.
    /// - Throws: a message naming the first element that is not usable.
    func recognizedPage(width: Int, height: Int, provenance: RecognitionProvenance) throws(PluginPageError)
        -> RecognizedPage
    {
        // The host's account of what ran, with what the plugin adds: how it mapped the level, the orientation it
        // found, its own stages.
        var provenance = provenance
        if let mapping = self.provenance?.levelMapping { provenance.levelMapping = "\(mapping); \(provenance.levelMapping)" }
        if let turns = self.provenance?.orientationQuarterTurns {
            guard (0...3).contains(turns) else { throw PluginPageError("orientation_quarter_turns \(turns) is not 0...3") }
            provenance.orientationQuarterTurns = turns
        }
        for (stage, milliseconds) in self.provenance?.timingsMilliseconds ?? [:] where milliseconds.isFinite {
            provenance.timingsMilliseconds["plugin " + stage] = milliseconds
        }
        let bounds = Rect(x: -1, y: -1, width: Double(width) + 2, height: Double(height) + 2)
        func check(_ box: Rect?, _ what: String) throws(PluginPageError) -> Rect? {
            guard let box else { return nil }
            let values = [box.x, box.y, box.width, box.height]
            guard values.allSatisfy(\.isFinite), box.width >= 0, box.height >= 0 else {
                throw PluginPageError("\(what) has a box that is not a rectangle: \(box)")
            }
            guard box.minX >= bounds.minX, box.minY >= bounds.minY, box.maxX <= bounds.maxX, box.maxY <= bounds.maxY else {
                throw PluginPageError("\(what) has a box outside the \(width)×\(height) page: \(box)")
            }
            return box
        }
        let none = Rect(x: 0, y: 0, width: 0, height: 0)
        func text(_ element: Element, _ what: String) throws(PluginPageError) -> String {
            guard let text = element.text else { throw PluginPageError("\(what) has no \"text\"") }
            return text
        }

        let blockElements = blocks ?? [Element(lines: lines ?? [])]
        var result: [RecognizedBlock] = []
        for (b, block) in blockElements.enumerated() {
            var lines: [RecognizedLine] = []
            for (l, line) in (block.lines ?? []).enumerated() {
                let where_ = "block \(b + 1) line \(l + 1)"
                var words: [RecognizedWord] = []
                for (w, word) in (line.words ?? []).enumerated() {
                    let whereWord = "\(where_) word \(w + 1)"
                    var glyphs: [RecognizedGlyph] = []
                    for (g, glyph) in (word.glyphs ?? []).enumerated() {
                        let box = try check(glyph.box, "\(whereWord) glyph \(g + 1)")
                        guard let box else { continue }  // a glyph is its box
                        glyphs.append(RecognizedGlyph(text: try text(glyph, "\(whereWord) glyph \(g + 1)"), confidence: glyph.confidence, box: box))
                    }
                    let box = try check(word.box, whereWord) ?? Rect(enclosing: glyphs.map(\.box)) ?? none
                    words.append(RecognizedWord(text: try text(word, whereWord), confidence: word.confidence, box: box, glyphs: glyphs))
                }
                let lineText = line.text ?? words.map(\.text).joined(separator: " ")
                let box = try check(line.box, where_) ?? Rect(enclosing: words.map(\.box).filter { $0 != none }) ?? none
                var candidates: [TextCandidate] = []
                for (k, candidate) in (line.candidates ?? []).enumerated() {
                    candidates.append(TextCandidate(text: try text(candidate, "\(where_) candidate \(k + 1)"), confidence: candidate.confidence))
                }
                lines.append(RecognizedLine(text: lineText, confidence: line.confidence, box: box, candidates: candidates, words: words))
            }
            let box = try check(block.box, "block \(b + 1)") ?? Rect(enclosing: lines.map(\.box).filter { $0 != none }) ?? none
            result.append(RecognizedBlock(box: box, lines: lines))
        }
        return RecognizedPage(
            width: width, height: height, blocks: result, provenance: provenance,
            diagnostics: (diagnostics ?? []).map(RecognitionDiagnostic.init))
    }
}

/// What is wrong with a page a plugin returned.
struct PluginPageError: Error {
    var message: String
    init(_ message: String) { self.message = message }
}
