import DocScanRecognition

/// Decimal points that Tesseract's LSTM read as commas in amounts ("1,29" for "1.29"), put back by English number
/// writing (a language correction, applied under `accurate` when language correction is on and English is among the
/// languages).
///
/// On a receipt's small print the models read the point of a price as a comma about one time in eight: 49 of the 413
/// amounts read on the receipts and photos of several documents of seed 129000. English writes a decimal point, and
/// groups thousands with a comma followed by three digits, so a comma between a digit and exactly two final digits
/// ("1,29", "$17,64") is a misread point. "1,234" and "1,234.56" keep their commas; a reading in German or French,
/// which writes a decimal comma, is not corrected unless English is among its languages.
///
/// It runs with the other English corrections, when ``SentencePunctuation/applies(to:)``.
enum DecimalPoints {
    /// The offset in `word` of a comma that stands for a decimal point: between a digit and exactly two digits that
    /// end the word (or come before a closing bracket or a percent sign), with no other comma or point in the number.
    static func misreadPoint(in word: String) -> Int? {
        let characters = Array(word)
        var end = characters.count
        while end > 0, characters[end - 1] == ")" || characters[end - 1] == "%" { end -= 1 }
        guard end >= 4, characters[end - 3] == ",",
            characters[end - 2].isASCII, characters[end - 2].isNumber,
            characters[end - 1].isASCII, characters[end - 1].isNumber
        else { return nil }
        let comma = end - 3
        var start = comma
        while start > 0, characters[start - 1].isASCII, characters[start - 1].isNumber { start -= 1 }
        guard start < comma else { return nil }  // a digit before the comma
        if start > 0, characters[start - 1] == "," || characters[start - 1] == "." { return nil }  // "1,234,56"
        return comma
    }

    /// `blocks` with each decimal point read as a comma (see ``misreadPoint(in:)``) put back, in the word's text, its
    /// glyph and its line's text; and how many.
    static func corrected(_ blocks: [RecognizedBlock]) -> (blocks: [RecognizedBlock], count: Int) {
        var corrected = blocks
        var count = 0
        for b in blocks.indices {
            for l in blocks[b].lines.indices {
                var changed = false
                for w in blocks[b].lines[l].words.indices {
                    let word = blocks[b].lines[l].words[w]
                    guard let comma = misreadPoint(in: word.text) else { continue }
                    var characters = Array(word.text)
                    characters[comma] = "."
                    corrected[b].lines[l].words[w].text = String(characters)
                    // The glyph read as that comma: the one at its offset when each character has its glyph.
                    if word.glyphs.count == characters.count, word.glyphs[comma].text == "," {
                        corrected[b].lines[l].words[w].glyphs[comma].text = "."
                    } else if word.glyphs.filter({ $0.text == "," }).count == 1,
                        let g = word.glyphs.firstIndex(where: { $0.text == "," })
                    {
                        corrected[b].lines[l].words[w].glyphs[g].text = "."
                    }
                    changed = true
                    count += 1
                }
                if changed { corrected[b].lines[l].text = corrected[b].lines[l].wordsText }
            }
        }
        return (corrected, count)
    }
}
