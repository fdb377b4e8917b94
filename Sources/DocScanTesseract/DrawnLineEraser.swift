/// Erases the lines drawn on a page (the boxes of a form's fields, rules under headings) so that Tesseract reads the
/// text inside them. Tesseract's layout analysis often takes a field box with its text for a picture or a table and
/// drops the text; with the box gone, the text is plain text again.
///
/// A drawn line is a long, thin run of ink: along a row (or a column), ink with gaps shorter than a quarter of a
/// character (blur and resampling break a thin line into pieces) that runs for several character heights, and is
/// along most of its length ink no thicker across than a stroke of a small character. A row along a line of print
/// crosses the letters' stems, and the strokes of large, bold letters are thick, so text survives. Only a page with a
/// long drawn line (a form's) is erased at all.
struct DrawnLineEraser {
    /// The typical height of the page's characters, in pixels.
    let glyphHeight: Double

    /// Pixels darker than this are ink (paper is near white in the reading rendering; drawn lines are often faint).
    static let inkBelow: UInt8 = 215
    /// How long a run must be, in character heights, to be a drawn line: rows (a box's top and bottom, a rule) and
    /// columns (a box's sides, which are only a field's height, about three characters).
    static let rowLength = 5.0
    static let columnLength = 3.0
    /// The share of a drawn line's run that is thin ink (blur and resampling break some of it).
    static let thinShare = 0.7
    /// How long, in character heights, the longest drawn line along a row must be for the page to count as ruled:
    /// a form's boxes and rules run across most of the page.
    static let ruledPageLength = 15.0

    /// `pixels` with the drawn lines painted white, or nil when the page has no drawn line along a row at least
    /// ``ruledPageLength`` characters long (prose, a receipt): nothing there for Tesseract to lose.
    func erasing(in pixels: GrayPixels) -> GrayPixels? {
        let width = pixels.width, height = pixels.height
        guard width > 2, height > 2, glyphHeight >= 3 else { return nil }
        let gap = max(1, Int((0.25 * glyphHeight).rounded()))
        let thickest = max(3, Int((0.3 * glyphHeight).rounded()))
        var line = [Bool](repeating: false, count: width * height)
        let isRuled = pixels.bytes.withUnsafeBufferPointer { bytes in
            let ink = Ink(bytes: bytes, width: width, height: height)
            // A line's pixel is thin across the line: the ink through it up and down (for a line along a row), or
            // sideways (along a column), is no thicker than a small character's stroke.
            let longest = markLines(
                ink, alongRows: true, length: max(15, Int(Self.rowLength * glyphHeight)), gap: gap,
                isThin: { ink.runLength(through: $0, alongRows: false, cappedAt: thickest + 1) <= thickest },
                into: &line)
            guard Double(longest) >= Self.ruledPageLength * glyphHeight else { return false }
            _ = markLines(
                ink, alongRows: false, length: max(10, Int(Self.columnLength * glyphHeight)), gap: gap,
                isThin: { ink.runLength(through: $0, alongRows: true, cappedAt: thickest + 1) <= thickest },
                into: &line)
            return true
        }
        guard isRuled else { return nil }

        // Paint the lines and two pixels around them (their blurred edges) white.
        var bytes = pixels.bytes
        for y in 0..<height {
            for x in 0..<width where line[y * width + x] {
                for yy in max(0, y - 2)...min(height - 1, y + 2) {
                    for xx in max(0, x - 2)...min(width - 1, x + 2) { bytes[yy * width + xx] = 255 }
                }
            }
        }
        return GrayPixels(width: width, height: height, bytes: bytes)
    }

    /// The page's ink: its pixels darker than ``inkBelow``.
    private struct Ink {
        let bytes: UnsafeBufferPointer<UInt8>
        let width: Int, height: Int

        subscript(index: Int) -> Bool { bytes[index] < DrawnLineEraser.inkBelow }

        /// The length of the run of ink through the ink pixel at `index` along the row (`alongRows`) or the column,
        /// counted up to `cap` at most.
        func runLength(through index: Int, alongRows: Bool, cappedAt cap: Int) -> Int {
            let x = index % width, y = index / width
            let (position, count, stride) = alongRows ? (x, width, 1) : (y, height, width)
            var length = 1
            var before = position - 1, after = position + 1
            while length < cap, before >= 0, self[index - (position - before) * stride] {
                length += 1
                before -= 1
            }
            while length < cap, after < count, self[index + (after - position) * stride] {
                length += 1
                after += 1
            }
            return length
        }
    }

    /// Marks the thin ink of every run at least `length` long along the rows (or the columns), gaps up to `gap`
    /// bridged, that is thin ink for ``thinShare`` of its length; returns the length of the longest away from the
    /// page's edges.
    private func markLines(
        _ ink: Ink, alongRows: Bool, length: Int, gap: Int, isThin: (Int) -> Bool, into line: inout [Bool]
    ) -> Int {
        let width = ink.width, height = ink.height
        var longest = 0
        let (lanes, steps) = alongRows ? (height, width) : (width, height)
        func index(_ lane: Int, _ step: Int) -> Int { alongRows ? lane * width + step : step * width + lane }
        for lane in 0..<lanes {
            var step = 0
            while step < steps {
                guard ink[index(lane, step)] else { step += 1; continue }
                // Extend the run over ink and over gaps no longer than `gap`.
                var end = step, paper = 0, next = step + 1
                while next < steps {
                    if ink[index(lane, next)] {
                        end = next
                        paper = 0
                    } else {
                        paper += 1
                        if paper > gap { break }
                    }
                    next += 1
                }
                let runLength = end - step + 1
                if runLength >= length {
                    // A drawn line is thin ink nearly all along; a row through words is mostly the strokes across it.
                    let thin = (step...end).filter { ink[index(lane, $0)] && isThin(index(lane, $0)) }
                    if Double(thin.count) >= Self.thinShare * Double(runLength) {
                        for s in thin { line[index(lane, s)] = true }
                        // The page's own edge (a sliver of the desk left by the warp) does not make a page ruled.
                        let border = max(3, Int(glyphHeight.rounded()))
                        if lane >= border && lane < lanes - border { longest = max(longest, runLength) }
                    }
                }
                step = end + 1
            }
        }
        return longest
    }
}
