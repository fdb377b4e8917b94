import DocScanRecognition

/// The pronoun "I" opening a line ("I confirm that the information..."), which in sans-serif print is a plain bar:
/// Tesseract reads it as "|", or as "I" but unsure of it.
///
/// Both levels keep such a word when the word after it is in lower-case letters, instead of taking it for noise at the
/// line's end (``PageReader/withoutEdgeNoise(_:)``); under `accurate`, with language correction on and English
/// among the languages, a bar read there becomes "I". On the 12 forms of seeds 119000 and 121000, whose declarations
/// open with "I confirm", the "I" was read right three times, as "|" three times and left out as noise five times.
enum PronounI {
    /// Whether `word`, opening a line before `next`, is the pronoun: "I" or "|" before a word of lower-case letters
    /// (a full stop, comma or the like may end it).
    static func opensLine(_ word: String, before next: String?) -> Bool {
        guard word == "I" || word == "|", let next else { return false }
        let letters = next.last.map { $0.isPunctuation } == true ? next.dropLast() : next[...]
        return !letters.isEmpty && letters.allSatisfy { $0.isLetter && $0.isLowercase }
    }

    /// `blocks` with each bar read for the pronoun at the start of a line (see ``opensLine(_:before:)``) turned into
    /// "I", in the word's text, its glyph and its line's text; and how many.
    static func corrected(_ blocks: [RecognizedBlock]) -> (blocks: [RecognizedBlock], count: Int) {
        var corrected = blocks
        var count = 0
        for b in blocks.indices {
            for l in blocks[b].lines.indices {
                let words = blocks[b].lines[l].words
                guard let first = words.first, first.text == "|",
                    opensLine(first.text, before: words.dropFirst().first?.text)
                else { continue }
                corrected[b].lines[l].words[0].text = "I"
                if let g = first.glyphs.firstIndex(where: { $0.text == "|" }) {
                    corrected[b].lines[l].words[0].glyphs[g].text = "I"
                }
                corrected[b].lines[l].text = corrected[b].lines[l].wordsText
                count += 1
            }
        }
        return (corrected, count)
    }
}
