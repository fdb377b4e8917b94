import DocScanGeometry
import DocScanRecognition

/// A form's checkboxes: the small hollow squares drawn for ticking, which Tesseract reads as text ("[_]", "oO", "DX]",
/// "{]", "(" and the like: an empty box is no character, and a ticked one none either). Both levels find them in the
/// page's pixels and leave out the words read inside them.
///
/// A checkbox is a dark connected component about square (sides within a third of each other), between 1.5 and 5
/// times the page's typical character height and at least 12 pixels tall (a receipt's blurred "x", 9 pixels at the
/// palest level, passed for a smaller one), whose four sides are straight lines: each side has ink along at least
/// 85% of its length in one lane two pixels wide at the component's edge. Letters fail that: round ones ("o", "O",
/// "e") touch their box only in the middle of each side, and those with straight sides ("D", "E", "H") lack one. A
/// bold letter blurred can pass, so a box's ink must also cover at most 75% of it (a bold letter's often covers more,
/// a ticked box's outline and cross 22-67%), and only words that lie inside a box as tall as the print beside them
/// are left out (``wordsOutside(_:on:)``), never part of one: a letter taken for a box has the rest of its word beside
/// it. The outline of a box is often drawn thin and pale (on a 2 MP photo's form, a tenth of the way from the paper
/// to the darkest ink), so the ink is taken at three levels: half, a quarter and a tenth of the way.
///
/// On the 12 forms of seeds 119000 and 121000 (36 boxes, 12 of them ticked) this found every box; on the other 111
/// pages of those sets it took letters for boxes on about 20, but no word read lay inside one as tall as its print.
/// On seed 123000, never looked at before, it left out what was read in the boxes of its 6 forms (2.91% -> 1.16% CER
/// with the other changes of that day) and nothing else.
enum CheckBoxes {
    /// The checkboxes on `pixels`, a page whose characters are typically `glyphHeight` pixels tall, in its pixels.
    static func find(in pixels: GrayPixels, glyphHeight: Double) -> [Rect] {
        let factor = min(1, 1600 / Double(max(pixels.width, pixels.height)))
        let small = pixels.scaled(by: factor)
        let (paper, dark) = small.percentiles(0.9, 0.01)
        guard paper - dark > 40, glyphHeight > 0 else { return [] }
        let least = max(12, 1.5 * glyphHeight * factor), most = 5 * glyphHeight * factor
        var found: [Rect] = []
        for depth in [0.5, 0.25, 0.1] {
            let level = UInt8(Double(paper) - depth * Double(paper - dark))
            let components = InkComponents(small, darkerThan: level, throughCorners: true)
            for (c, box) in components.boxes.enumerated() {
                let w = Double(box.width), h = Double(box.height)
                guard h >= least, h <= most, w >= 0.75 * h, w <= h / 0.75, Double(box.area) <= 0.75 * w * h,
                    hasStraightSides(c, box, in: components)
                else { continue }
                let square = Rect(
                    x: Double(box.left) / factor, y: Double(box.top) / factor, width: w / factor, height: h / factor)
                if !found.contains(where: { $0.intersectionArea(square) > 0.5 * square.area }) { found.append(square) }
            }
        }
        return found
    }

    /// Whether each side of component `c` (bounding box `box`) is a straight line: within the outer 15% of the box
    /// (at least two pixels), some lane two pixels wide has the component's ink along 85% of the side.
    private static func hasStraightSides(_ c: Int, _ box: InkComponents.Box, in components: InkComponents) -> Bool {
        let depth = max(2, Int((0.15 * Double(min(box.width, box.height))).rounded()))
        // Side k: 0 top, 1 bottom, 2 left, 3 right. `offset` counts inwards from the side; `along` runs along it.
        func isInk(side: Int, offset: Int, along: Int) -> Bool {
            switch side {
            case 0: components.contains(c, x: box.left + along, y: box.top + offset)
            case 1: components.contains(c, x: box.left + along, y: box.bottom - offset)
            case 2: components.contains(c, x: box.left + offset, y: box.top + along)
            default: components.contains(c, x: box.right - offset, y: box.top + along)
            }
        }
        return (0..<4).allSatisfy { side in
            let length = side < 2 ? box.width : box.height
            return (0..<depth).contains { offset in
                let covered = (0..<length).filter { along in
                    isInk(side: side, offset: offset, along: along)
                        || isInk(side: side, offset: offset + 1, along: along)
                }.count
                return Double(covered) >= 0.85 * Double(length)
            }
        }
    }

    /// The words of `line` not read in one of `boxes`. A word is read in a box when four fifths of its box lie within
    /// the box grown by a quarter of its side each way, and the box is at least seven tenths as tall as the tallest
    /// word of the line outside every box. A checkbox is about as tall as the print beside it (0.73-1.38 times the
    /// tallest word on the generated forms of seeds 119000 and 121000); a letter taken for one is the size of the
    /// line's small letters: an "a" in running text, alone a word, is about half as tall as the words with capitals,
    /// ascenders or descenders beside it. A line with no other word keeps its words: there is nothing to measure the
    /// box against (a page number read alone, "160", passed for one).
    static func wordsOutside(_ boxes: [Rect], on line: RecognizedLine) -> [RecognizedWord] {
        func grown(_ box: Rect) -> Rect {
            let margin = 0.25 * max(box.width, box.height)
            return Rect(
                x: box.x - margin, y: box.y - margin, width: box.width + 2 * margin, height: box.height + 2 * margin)
        }
        let holding = line.words.map { word in
            boxes.filter { word.box.intersectionArea(grown($0)) >= 0.8 * word.box.area }
        }
        guard let tallestOutside = zip(line.words, holding).filter({ $1.isEmpty }).map(\.0.box.height).max() else {
            return line.words
        }
        return zip(line.words, holding).filter { _, boxes in
            !boxes.contains { $0.height >= 0.7 * tallestOutside }
        }.map(\.0)
    }
}
