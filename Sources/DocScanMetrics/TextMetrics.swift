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

    /// Creates a count of edits against a reference length.
    public init(edits: Int, reference: Int) {
        self.edits = edits
        self.reference = reference
    }

    /// Edits per reference unit; 0 for two empty texts, 1 per inserted unit against an empty truth.
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

/// Word overlap between a reading and the true text as bags of words (order ignored): how many of the words read are
/// true (precision), how many of the true words were read (recall), and their harmonic mean (F1). Each word counts as
/// often as it occurs. Texts are normalised as for ``TextErrorRate``.
public struct WordOverlap: Sendable, Equatable {
    /// Words found in both, counting repeats up to the smaller count.
    public var matched: Int
    /// Words in the reading.
    public var read: Int
    /// Words in the truth.
    public var truth: Int

    /// Creates an overlap from its counts.
    public init(matched: Int, read: Int, truth: Int) {
        self.matched = matched
        self.read = read
        self.truth = truth
    }

    /// The overlap of `reading` with `truth`.
    public init(_ reading: String, truth: String, _ options: TextErrorRate.Normalization = .init()) {
        let readWords = TextErrorRate.normalize(reading, options).split(separator: " ")
        let trueWords = TextErrorRate.normalize(truth, options).split(separator: " ")
        var remaining: [Substring: Int] = [:]
        for word in trueWords { remaining[word, default: 0] += 1 }
        var matched = 0
        for word in readWords where remaining[word, default: 0] > 0 {
            remaining[word]! -= 1
            matched += 1
        }
        self.init(matched: matched, read: readWords.count, truth: trueWords.count)
    }

    /// Share of the words read that are true; 1 when nothing was read and nothing was there.
    public var precision: Double { read > 0 ? Double(matched) / Double(read) : (truth == 0 ? 1 : 0) }
    /// Share of the true words that were read; 1 when there were none.
    public var recall: Double { truth > 0 ? Double(matched) / Double(truth) : 1 }
    /// Harmonic mean of precision and recall; 0 when both are 0.
    public var f1: Double { precision + recall > 0 ? 2 * precision * recall / (precision + recall) : 0 }

    /// The counts of two overlaps together (for a score over many pages).
    public static func + (a: WordOverlap, b: WordOverlap) -> WordOverlap {
        WordOverlap(matched: a.matched + b.matched, read: a.read + b.read, truth: a.truth + b.truth)
    }

    /// No words.
    public static let zero = WordOverlap(matched: 0, read: 0, truth: 0)
}
