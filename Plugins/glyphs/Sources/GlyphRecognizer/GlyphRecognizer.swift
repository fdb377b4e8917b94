import DocScanGeometry
import DocScanRecognition
import Foundation

/// A recognizer for constrained text (codes, serial numbers, digits): it cuts each text line into glyphs (connected
/// components of the ink, with marks such as a colon's dots joined) and names every glyph after its nearest examples
/// among glyphs rendered from fonts (``GlyphModel``, k = 5). No language model, no dictionary: what is printed is what
/// is read, in the model's alphabet (capitals, digits and `-/.:#`).
public struct GlyphRecognizer: TextRecognizer {
    /// The examples it compares glyphs with.
    public let model: GlyphModel

    /// A recognizer with `model`.
    public init(model: GlyphModel) {
        self.model = model
    }

    public var descriptor: RecognizerDescriptor {
        var capabilities = RecognizerDescriptor.Capabilities()
        capabilities.wordBoxes = true
        capabilities.glyphBoxes = true
        capabilities.allowedCharacters = true
        return RecognizerDescriptor(
            id: "glyphs", name: "Glyph classifier (k-NN on rendered fonts)", version: "1.0",
            model: "\(model.labels.count) glyphs of \(model.alphabet)", languages: ["eng"], levels: [.fast],
            defaultLevel: .fast, capabilities: capabilities)
    }

    public func prepare(for request: RecognitionRequest) async throws(RecognitionError) -> any RecognitionSession {
        Session(model: model)
    }

    private struct Session: RecognitionSession {
        let model: GlyphModel

        func recognize(_ page: PageImage, request: RecognitionRequest) async throws(RecognitionError) -> RecognizedPage {
            let started = ContinuousClock.now
            let allowed = request.allowedCharacters.map { Set($0.uppercased()) }
            // Capitals and digits give a page's layout little to tell up from down or across from along by, so the
            // page is read in all four quarter turns and the reading with the most evidence (the sum of its glyphs'
            // vote shares) is kept; a turned reading must beat the page as given by a clear margin. A request that
            // knows the way up reads the page as given only.
            var best = (turns: 0, lines: try readLines(page, allowed: allowed))
            var bestEvidence = Self.evidence(best.lines)
            let asGiven = bestEvidence
            for turns in 1...3 where request.detectsOrientation {
                let lines = try readLines(Self.turned(page, quarterTurns: turns), allowed: allowed)
                let evidence = Self.evidence(lines)
                if evidence > 1.03 * asGiven && evidence > bestEvidence {
                    best = (turns, lines)
                    bestEvidence = evidence
                }
            }
            let turns = best.turns
            let lines = best.lines.map { Self.turnedBack($0, quarterTurns: turns, width: page.width, height: page.height) }
            let blocks = lines.isEmpty ? [] : [RecognizedBlock(box: lines.dropFirst().reduce(lines[0].box) { $0.union($1.box) }, lines: lines)]
            let elapsed = ContinuousClock.now - started
            return RecognizedPage(
                width: page.width, height: page.height, blocks: blocks,
                provenance: RecognitionProvenance(
                    recognizer: "glyphs", backend: "DocScan glyph classifier", version: "1.0",
                    models: ["\(model.labels.count) examples"], level: .fast,
                    levelMapping: "Otsu binarization, connected components joined into lines, 5 nearest examples per glyph, read in all four quarter turns",
                    orientationQuarterTurns: turns,
                    timingsMilliseconds: ["recognize": elapsed.milliseconds]))
        }

        private func readLines(_ page: PageImage, allowed: Set<Character>?) throws(RecognitionError) -> [RecognizedLine] {
            let ink = InkMap(page)
            var lines: [RecognizedLine] = []
            for line in ink.lines() {
                if Task.isCancelled { throw .cancelled }
                if let recognized = read(line, in: ink, allowed: allowed) { lines.append(recognized) }
            }
            return lines
        }

        /// How sure a reading is overall: the sum of its glyphs' vote shares.
        static func evidence(_ lines: [RecognizedLine]) -> Double {
            lines.flatMap(\.words).flatMap(\.glyphs).compactMap(\.confidence?.value).reduce(0, +)
        }

        /// The page turned clockwise by `quarterTurns`.
        static func turned(_ page: PageImage, quarterTurns: Int) -> PageImage {
            let (w, h, channels) = (page.width, page.height, page.pixelFormat.rawValue)
            let (newWidth, newHeight) = quarterTurns % 2 == 0 ? (w, h) : (h, w)
            var pixels = [UInt8](repeating: 0, count: page.pixels.count)
            for y in 0..<h {
                for x in 0..<w {
                    let (tx, ty): (Int, Int)
                    switch quarterTurns % 4 {
                    case 1: (tx, ty) = (h - 1 - y, x)
                    case 2: (tx, ty) = (w - 1 - x, h - 1 - y)
                    case 3: (tx, ty) = (y, w - 1 - x)
                    default: (tx, ty) = (x, y)
                    }
                    for c in 0..<channels { pixels[(ty * newWidth + tx) * channels + c] = page.pixels[(y * w + x) * channels + c] }
                }
            }
            return try! PageImage(width: newWidth, height: newHeight, pixelFormat: page.pixelFormat, pixels: pixels)
        }

        /// A line read on the page turned clockwise by `quarterTurns`, with its boxes put back on the `width` × `height`
        /// page as given.
        static func turnedBack(_ line: RecognizedLine, quarterTurns: Int, width: Int, height: Int) -> RecognizedLine {
            guard quarterTurns % 4 != 0 else { return line }
            let (w, h) = (Double(width), Double(height))
            func back(_ b: Rect) -> Rect {
                switch quarterTurns % 4 {
                case 1: return Rect(x: b.y, y: h - b.x - b.width, width: b.height, height: b.width)
                case 2: return Rect(x: w - b.x - b.width, y: h - b.y - b.height, width: b.width, height: b.height)
                default: return Rect(x: w - b.y - b.height, y: b.x, width: b.height, height: b.width)
                }
            }
            var line = line
            line.box = back(line.box)
            for i in line.words.indices {
                line.words[i].box = back(line.words[i].box)
                for g in line.words[i].glyphs.indices { line.words[i].glyphs[g].box = back(line.words[i].glyphs[g].box) }
            }
            return line
        }

        private func read(_ line: [InkMap.Component], in ink: InkMap, allowed: Set<Character>?) -> RecognizedLine? {
            // Capital height and baseline: the medians over the glyphs as tall as most (not '.', '-' or ':').
            let tallest = line.map(\.height).max() ?? 0
            let tall = line.filter { Double($0.height) >= 0.6 * Double(tallest) }
            let capHeight = Double(median(tall.map(\.height)))
            let baseline = Double(median(tall.map(\.maxY))) + 1
            guard capHeight >= 6 else { return nil }
            // A space is a gap wider than a third of the capital height and twice the line's usual gap between glyphs.
            let gaps = zip(line, line.dropFirst()).map { $1.minX - $0.maxX - 1 }.filter { $0 >= 0 }
            let spaceGap = max(0.3 * capHeight, 2 * Double(median(gaps)))
            var words: [[RecognizedGlyph]] = [[]]
            var previousRight: Int?
            // Characters printed close touch, and one component then holds two or three: cut the ones much wider
            // than the line's usual glyph at the emptiest columns near where the cuts should fall.
            let usualWidth = Double(median(tall.map(\.width)))
            let pieces = line.flatMap { glyph in
                Self.pieces(of: glyph, mask: ink.mask(of: glyph), usualWidth: usualWidth)
            }
            for (glyph, mask) in pieces {
                let vector = GlyphFeatures.vector(
                    mask: mask, width: glyph.width, height: glyph.height, size: Double(glyph.height) / capHeight,
                    rise: (baseline - Double(glyph.maxY + 1)) / capHeight)
                guard let (character, share) = model.classify(vector, allowed: allowed) else { continue }
                if let previousRight, Double(glyph.minX - previousRight - 1) > spaceGap, !words[words.count - 1].isEmpty {
                    words.append([])
                }
                previousRight = glyph.maxX
                words[words.count - 1].append(
                    RecognizedGlyph(
                        text: String(character), confidence: Confidence(value: share, native: share),
                        box: Rect(x: Double(glyph.minX), y: Double(glyph.minY), width: Double(glyph.width), height: Double(glyph.height))))
            }
            let recognized = words.filter { !$0.isEmpty }.map { glyphs in
                RecognizedWord(
                    text: glyphs.map(\.text).joined(),
                    confidence: glyphs.compactMap(\.confidence).min { $0.value < $1.value },
                    box: glyphs.dropFirst().reduce(glyphs[0].box) { $0.union($1.box) }, glyphs: glyphs)
            }
            guard !recognized.isEmpty else { return nil }
            let values = recognized.compactMap(\.confidence?.value)
            let mean = values.reduce(0, +) / Double(max(1, values.count))
            return RecognizedLine(
                text: recognized.map(\.text).joined(separator: " "), confidence: Confidence(value: mean, native: mean),
                box: recognized.dropFirst().reduce(recognized[0].box) { $0.union($1.box) }, words: recognized)
        }

        /// A glyph, or the pieces of one that holds touching characters (wider than 1.6 usual glyphs), each with its
        /// mask cropped to its ink.
        static func pieces(of glyph: InkMap.Component, mask: [Bool], usualWidth: Double) -> [(InkMap.Component, [Bool])] {
            let count = Int((Double(glyph.width) / usualWidth).rounded())
            guard usualWidth >= 4, Double(glyph.width) > 1.6 * usualWidth, count >= 2 else { return [(glyph, mask)] }
            let w = glyph.width, h = glyph.height
            var columns = [Int](repeating: 0, count: w)
            for y in 0..<h { for x in 0..<w where mask[y * w + x] { columns[x] += 1 } }
            // Each cut at the emptiest column within a quarter glyph of its even share.
            var cuts = [0]
            for k in 1..<count {
                let expected = k * w / count, reach = max(1, Int(usualWidth / 4))
                let range = max(cuts.last! + 1, expected - reach)...min(w - 2, expected + reach)
                guard !range.isEmpty else { continue }
                cuts.append(range.min { columns[$0] < columns[$1] }!)
            }
            cuts.append(w)
            var result: [(InkMap.Component, [Bool])] = []
            for (from, to) in zip(cuts, cuts.dropFirst()) where to > from {
                var top = h, bottom = -1
                for y in 0..<h where (from..<to).contains(where: { mask[y * w + $0] }) {
                    top = min(top, y)
                    bottom = max(bottom, y)
                }
                guard bottom >= top else { continue }
                var piece = glyph
                piece.minX = glyph.minX + from
                piece.maxX = glyph.minX + to - 1
                piece.minY = glyph.minY + top
                piece.maxY = glyph.minY + bottom
                var pieceMask = [Bool](repeating: false, count: (to - from) * (bottom - top + 1))
                for y in top...bottom {
                    for x in from..<to { pieceMask[(y - top) * (to - from) + x - from] = mask[y * w + x] }
                }
                result.append((piece, pieceMask))
            }
            return result.isEmpty ? [(glyph, mask)] : result
        }

        private func median(_ values: [Int]) -> Int {
            guard !values.isEmpty else { return 0 }
            return values.sorted()[values.count / 2]
        }
    }
}
