import DocScanRecognition
import Foundation

/// The best readings of a line built from the engine's own per-glyph alternatives (never invented): a beam search over
/// the glyphs, each reading scored by the product of its glyphs' probabilities.
enum LineCandidates {
    static func best(_ line: RecognizedLine, count: Int) -> [TextCandidate] {
        // Each position: the glyph as read, then its alternatives; words separated by a space position.
        typealias Option = (text: String, logProbability: Double)
        var positions: [[Option]] = []
        for (index, word) in line.words.enumerated() {
            if index > 0 { positions.append([(" ", 0)]) }
            guard !word.glyphs.isEmpty, word.glyphs.map(\.text).joined() == word.text else {
                positions.append([(word.text, log(max(1e-4, word.confidence?.value ?? 1)))])
                continue
            }
            for glyph in word.glyphs {
                var options: [Option] = [(glyph.text, log(max(1e-4, glyph.confidence?.value ?? 1)))]
                options += glyph.alternatives.map { ($0.text, log(max(1e-4, $0.confidence?.value ?? 0))) }
                positions.append(options)
            }
        }
        var beam: [Option] = [("", 0)]
        for options in positions {
            var next: [Option] = []
            for partial in beam {
                for option in options { next.append((partial.text + option.text, partial.logProbability + option.logProbability)) }
            }
            next.sort { $0.logProbability > $1.logProbability }
            beam = Array(next.prefix(count * 4))
        }
        var seen = Set<String>()
        var candidates: [TextCandidate] = []
        // The reading itself comes first, whatever its score under this model.
        for option in [(line.text, beam.first { $0.text == line.text }?.logProbability)] + beam.map({ ($0.text, Optional($0.logProbability)) }) {
            guard candidates.count < count, seen.insert(option.0).inserted else { continue }
            let probability = option.1.map { exp($0) }
            candidates.append(TextCandidate(text: option.0, confidence: probability.map { Confidence(value: $0, native: $0) }))
        }
        return candidates
    }
}

/// The caller's custom words applied to a reading: a word the engine was unsure of becomes a custom word when the
/// engine's own glyph alternatives spell it, or when it is one edit away from it (longer words only).
struct CustomWords {
    let words: [String]
    private let byLength: [Int: [String]]

    init(_ words: [String]) {
        self.words = words
        byLength = Dictionary(grouping: words.filter { !$0.isEmpty }, by: \.count)
    }

    func correct(_ blocks: [RecognizedBlock]) -> [RecognizedBlock] {
        blocks.map { block in
            var block = block
            for l in block.lines.indices {
                var changed = false
                for w in block.lines[l].words.indices {
                    if let replacement = match(block.lines[l].words[w]) {
                        block.lines[l].words[w].text = replacement
                        block.lines[l].words[w].isFromDictionary = true
                        changed = true
                    }
                }
                if changed { block.lines[l].text = block.lines[l].wordsText }
            }
            return block
        }
    }

    func match(_ word: RecognizedWord) -> String? {
        let (core, prefix, suffix) = Self.strip(word.text)
        guard !core.isEmpty, !words.contains(core) else { return nil }
        if let confidence = word.confidence?.value, confidence >= 0.95 { return nil }
        // Spelled by the glyph alternatives: same number of glyphs, each custom letter among that glyph's guesses.
        let glyphs = word.glyphs.dropFirst(prefix.count).dropLast(suffix.count)
        if glyphs.count == core.count {
            for candidate in byLength[core.count] ?? [] {
                let fits = zip(candidate, glyphs).allSatisfy { letter, glyph in
                    glyph.text == String(letter) || glyph.alternatives.contains { $0.text == String(letter) }
                }
                if fits { return prefix + candidate + suffix }
            }
        }
        // One edit away, for words long enough that one edit leaves them unmistakable.
        guard core.count >= 5 else { return nil }
        let close = words.filter { abs($0.count - core.count) <= 1 && Self.editDistance($0, core, limit: 1) <= 1 }
        return close.count == 1 ? prefix + close[0] + suffix : nil
    }

    /// The word without leading and trailing punctuation, and that punctuation.
    static func strip(_ text: String) -> (String, String, String) {
        let isPunctuation: (Character) -> Bool = { $0.isPunctuation || $0.isSymbol }
        let prefix = String(text.prefix(while: isPunctuation))
        let rest = text.dropFirst(prefix.count)
        let suffix = String(String(rest.reversed()).prefix(while: isPunctuation).reversed())
        return (String(rest.dropLast(suffix.count)), prefix, suffix)
    }

    /// Levenshtein distance, stopping early once it exceeds `limit`.
    static func editDistance(_ a: String, _ b: String, limit: Int) -> Int {
        let a = Array(a), b = Array(b)
        var previous = Array(0...b.count)
        for i in 1...max(1, a.count) where !a.isEmpty {
            var current = [i] + [Int](repeating: 0, count: b.count)
            for j in 1...max(1, b.count) where !b.isEmpty {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            if current.min()! > limit { return limit + 1 }
            previous = current
        }
        return previous[b.count]
    }
}
