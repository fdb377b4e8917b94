import Foundation

/// Character and word error rates between a reading and the true text.
///
/// Both texts are normalised first: Unicode NFC, every run of whitespace (line breaks included) folded to one space,
/// leading and trailing whitespace dropped. Case and punctuation count unless the options say otherwise.
public struct TextErrorRate: Sendable, Equatable {
    /// Edits (insertions, deletions, substitutions) needed to turn the reading into the truth.
    public var edits: Int
    /// Length of the normalised truth (characters or words).
    public var reference: Int

    /// Edits per reference unit; 0 for two empty texts, 1 per inserted unit against an empty truth.
    /// Creates a count of edits against a reference length.
    public init(edits: Int, reference: Int) {
        self.edits = edits
        self.reference = reference
    }

    public var rate: Double { reference > 0 ? Double(edits) / Double(reference) : (edits == 0 ? 0 : 1) }

    /// Options of the normalisation.
    public struct Normalization: Sendable, Equatable {
        public var ignoresCase = false
        public var ignoresPunctuation = false
        /// Drops printed rules: runs of four or more of the same punctuation character (`-----`, `=====`, `*****`),
        /// which engines rightly see as graphics, not text.
        public var ignoresRules = false
        public init(ignoresCase: Bool = false, ignoresPunctuation: Bool = false, ignoresRules: Bool = false) {
            self.ignoresCase = ignoresCase
            self.ignoresPunctuation = ignoresPunctuation
            self.ignoresRules = ignoresRules
        }
    }

    /// The text as compared: NFC, whitespace folded, then the options applied.
    public static func normalize(_ text: String, _ options: Normalization = Normalization()) -> String {
        var s = text.precomposedStringWithCanonicalMapping
        if options.ignoresCase { s = s.lowercased() }
        if options.ignoresPunctuation { s = String(s.filter { !$0.isPunctuation }) }
        if options.ignoresRules {
            var kept = "", run = ""
            for c in s + " " {
                if let last = run.last, c == last { run.append(c); continue }
                if !(run.count >= 4 && run.allSatisfy({ $0.isPunctuation || $0.isSymbol })) { kept += run }
                run = String(c)
            }
            s = kept
        }
        return s.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// Character error rate of `reading` against `truth`.
    public static func characters(_ reading: String, truth: String, _ options: Normalization = Normalization())
        -> TextErrorRate
    {
        let a = Array(normalize(reading, options)), b = Array(normalize(truth, options))
        return TextErrorRate(edits: levenshtein(a, b), reference: b.count)
    }

    /// Word error rate of `reading` against `truth`.
    public static func words(_ reading: String, truth: String, _ options: Normalization = Normalization())
        -> TextErrorRate
    {
        let a = normalize(reading, options).split(separator: " ").map(String.init)
        let b = normalize(truth, options).split(separator: " ").map(String.init)
        return TextErrorRate(edits: levenshtein(a, b), reference: b.count)
    }

    /// Levenshtein distance with unit costs, in O(min(m, n)) memory.
    public static func levenshtein<Element: Equatable>(_ a: [Element], _ b: [Element]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous = Array(0...b.count)
        var current = previous
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                current[j] = Swift.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }

    /// The sum of two counts (for totals over pages).
    public static func + (l: TextErrorRate, r: TextErrorRate) -> TextErrorRate {
        TextErrorRate(edits: l.edits + r.edits, reference: l.reference + r.reference)
    }

    public static let zero = TextErrorRate(edits: 0, reference: 0)
}
