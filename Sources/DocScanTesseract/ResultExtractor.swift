import CTesseract
import DocScanGeometry
import DocScanRecognition

/// Walks Tesseract's result iterator glyph by glyph and builds blocks, lines, words and glyphs with their boxes and
/// confidences (Tesseract's 0–100, kept as the native value).
struct ResultExtractor {
    let api: OpaquePointer
    /// Whether to read each glyph's alternatives (present when `lstm_choice_mode` was set for the run).
    let choices: Bool

    func blocks() -> [RecognizedBlock] {
        guard let iterator = TessBaseAPIGetIterator(api) else { return [] }
        defer { TessResultIteratorDelete(iterator) }
        let pageIterator = TessResultIteratorGetPageIterator(iterator)
        var blocks: [RecognizedBlock] = []
        var line: RecognizedLine?
        var word: RecognizedWord?
        func finishWord() {
            guard let finished = word else { return }
            word = nil
            if !finished.text.trimmingCharacters(in: .whitespaces).isEmpty { line?.words.append(finished) }
        }
        func finishLine() {
            finishWord()
            guard var finished = line else { return }
            line = nil
            finished.text = finished.wordsText
            if !finished.words.isEmpty, !blocks.isEmpty { blocks[blocks.count - 1].lines.append(finished) }
        }
        repeat {
            // A block or a line begins with a word, so the costlier checks are made at a word's first glyph only.
            if TessPageIteratorIsAtBeginningOf(pageIterator, RIL_WORD) != 0 {
                if TessPageIteratorIsAtBeginningOf(pageIterator, RIL_BLOCK) != 0 {
                    finishLine()
                    let blockBox = box(pageIterator, RIL_BLOCK) ?? Rect(x: 0, y: 0, width: 0, height: 0)
                    blocks.append(RecognizedBlock(box: blockBox, lines: []))
                }
                if TessPageIteratorIsAtBeginningOf(pageIterator, RIL_TEXTLINE) != 0 {
                    finishLine()
                    line = RecognizedLine(
                        text: "", confidence: confidence(iterator, RIL_TEXTLINE),
                        box: box(pageIterator, RIL_TEXTLINE) ?? Rect(x: 0, y: 0, width: 0, height: 0))
                }
                finishWord()
                guard let text = text(iterator, RIL_WORD), let wordBox = box(pageIterator, RIL_WORD) else { continue }
                word = RecognizedWord(
                    text: text, confidence: confidence(iterator, RIL_WORD), box: wordBox,
                    isFromDictionary: TessResultIteratorWordIsFromDictionary(iterator) != 0)
            }
            if let symbol = text(iterator, RIL_SYMBOL), let symbolBox = box(pageIterator, RIL_SYMBOL) {
                word?.glyphs.append(
                    RecognizedGlyph(
                        text: symbol, confidence: confidence(iterator, RIL_SYMBOL), box: symbolBox,
                        alternatives: choices ? alternatives(iterator, besides: symbol) : []))
            }
        } while TessResultIteratorNext(iterator, RIL_SYMBOL) != 0
        finishLine()
        return blocks.filter { !$0.lines.isEmpty }
    }

    private func text(_ iterator: OpaquePointer, _ level: TessPageIteratorLevel) -> String? {
        guard let pointer = TessResultIteratorGetUTF8Text(iterator, level) else { return nil }
        defer { TessDeleteText(pointer) }
        return String(cString: pointer)
    }

    private func confidence(_ iterator: OpaquePointer, _ level: TessPageIteratorLevel) -> Confidence? {
        Self.confidence(percent: TessResultIteratorConfidence(iterator, level))
    }

    /// Tesseract's 0–100 confidence (a C float) as a ``Confidence``, kept to three decimals of a percent: more digits
    /// mean nothing, and would only double the size of every result's JSON. Nil for the engine's "none" (negative).
    static func confidence(percent: Float) -> Confidence? {
        guard percent >= 0 else { return nil }
        let native = (Double(percent) * 1000).rounded() / 1000
        return Confidence(value: (native * 1000).rounded() / 100_000, native: native)
    }

    private func box(_ iterator: OpaquePointer?, _ level: TessPageIteratorLevel) -> Rect? {
        var left: Int32 = 0, top: Int32 = 0, right: Int32 = 0, bottom: Int32 = 0
        guard TessPageIteratorBoundingBox(iterator, level, &left, &top, &right, &bottom) != 0 else { return nil }
        return Rect(x: Double(left), y: Double(top), width: Double(right - left), height: Double(bottom - top))
    }

    /// The glyph's other guesses with their confidences, best first.
    private func alternatives(_ iterator: OpaquePointer, besides symbol: String) -> [TextCandidate] {
        guard let choice = TessResultIteratorGetChoiceIterator(iterator) else { return [] }
        defer { TessChoiceIteratorDelete(choice) }
        var found: [TextCandidate] = []
        repeat {
            guard let pointer = TessChoiceIteratorGetUTF8Text(choice) else { continue }
            let text = String(cString: pointer)
            if text != symbol, !found.contains(where: { $0.text == text }) {
                found.append(TextCandidate(text: text, confidence: Self.confidence(percent: TessChoiceIteratorConfidence(choice))))
            }
        } while TessChoiceIteratorNext(choice) != 0
        return found.sorted { ($0.confidence?.native ?? 0) > ($1.confidence?.native ?? 0) }
    }
}
