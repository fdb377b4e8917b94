import DocScanRecognition

/// Full stops that Tesseract's LSTM read as commas, put back by English punctuation (a language correction, applied
/// under `accurate` when language correction is on and English is among the languages).
///
/// On small or slightly blurred print (x-heights of 7 to 10 pixels: a page that fills part of a 2-3 MP photo) the
/// models read a sentence's full stop as a comma far more often than the reverse: "the end of the year, There is". On
/// two generated sets that made 104 and 72 of the errors of the pages read under a fifth wrong, the most common
/// confusion by far. English hardly ever puts a comma before a capitalised article, determiner or pronoun but "I",
/// so a comma there is a full stop (a paragraph's last one too, before the next paragraph's first word); the same goes
/// for a section number that opens a line ("1, Personal details").
/// Commas before names ("Portland, OR", "Smith, John") are left alone: names are not on the list.
enum SentencePunctuation {
    /// Capitalised words that open English sentences and hardly ever follow a comma: articles, determiners, pronouns
    /// (not "I", which may), and a few conjunctions and adverbs that start sentences.
    static let sentenceStarters: Set<String> = [
        "The", "A", "An", "This", "That", "These", "Those", "There", "It", "He", "She", "We", "They", "You", "Our",
        "Her", "His", "Their", "My", "Its", "Your", "Most", "Many", "Some", "Several", "Every", "Each", "Nobody",
        "Everyone", "Everybody", "Nothing", "Everything", "Someone", "However", "Meanwhile", "Although", "Because",
        "After", "Before", "During", "Since", "While", "When", "Both", "All", "Few", "Neither", "Either",
    ]

    /// Whether the languages of a request call for the English corrections: this one, ``PronounI`` and
    /// ``DecimalPoints``.
    static func applies(to languages: [String]) -> Bool {
        languages.contains("eng")
    }

    /// `blocks` (in reading order) with each comma that ends a word and comes before a sentence starter (the next
    /// word read: on the same line, opening the next line, or opening the next block, where a paragraph's last
    /// sentence ends), or that follows a one- or two-digit section number opening a line before a capitalised word,
    /// turned into a full stop, in the word's text, its glyph and its line's text; and how many.
    static func corrected(_ blocks: [RecognizedBlock]) -> (blocks: [RecognizedBlock], count: Int) {
        // Every word's position, in reading order, so that each word's successor is the next in the list.
        var positions: [(block: Int, line: Int, word: Int)] = []
        for (b, block) in blocks.enumerated() {
            for (l, line) in block.lines.enumerated() {
                for w in line.words.indices { positions.append((b, l, w)) }
            }
        }
        var corrected = blocks
        var count = 0
        for (index, at) in positions.enumerated() where index + 1 < positions.count {
            let after = positions[index + 1]
            let word = blocks[at.block].lines[at.line].words[at.word]
            let next = blocks[after.block].lines[after.line].words[after.word]
            guard endsInFullStop(word.text, openingLine: at.word == 0, before: next.text) else { continue }
            corrected[at.block].lines[at.line].words[at.word] = withFinalCommaAsFullStop(word)
            corrected[at.block].lines[at.line].text = corrected[at.block].lines[at.line].wordsText
            count += 1
        }
        return (corrected, count)
    }

    /// Whether `word`, read with a final comma, ends in a full stop instead, given the word after it.
    static func endsInFullStop(_ word: String, openingLine: Bool, before next: String) -> Bool {
        guard word.count >= 2, word.last == ",", let previous = word.dropLast().last,
            previous.isLetter || previous.isNumber
        else { return false }
        if sentenceStarters.contains(next) { return true }
        let number = word.dropLast()
        return openingLine && number.count <= 2 && number.allSatisfy(\.isASCII) && number.allSatisfy(\.isNumber)
            && next.first?.isUppercase == true
    }

    /// `word` with its final comma a full stop, in its text and in the last glyph read as a comma.
    static func withFinalCommaAsFullStop(_ word: RecognizedWord) -> RecognizedWord {
        var word = word
        word.text = String(word.text.dropLast()) + "."
        if let g = word.glyphs.lastIndex(where: { $0.text == "," }) { word.glyphs[g].text = "." }
        return word
    }
}
