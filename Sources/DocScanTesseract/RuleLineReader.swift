import DocScanGeometry
import DocScanRecognition

/// Reads the rows of dashes and equals signs printed across receipts and forms (`-----`, `=====`). Tesseract's layout
/// analysis takes such a row for a ruled line and removes it before reading, so its characters never reach the text.
/// This reader looks between the lines Tesseract read for a thin band of ink that repeats at a steady pitch, lays a
/// grid of character cells over it at that pitch, counts the cells that hold a mark (a faded mark between marked
/// cells still counts: it was printed), and tells a dash (one bar) from an equals sign (two bars one above the other,
/// or a band as thick as two bars and the gap between them where blur has joined them). A continuous rule, or marks
/// too uneven or too joined to be a printed row of characters, is left alone.
struct RuleLineReader {
    /// The page in upright reading orientation, dark print on light paper.
    let pixels: GrayPixels
    /// The typical height of the page's characters, in pixels.
    let glyphHeight: Double
    /// The thickest band of ink that may be a rule, as a share of ``glyphHeight``: a rule is thin next to the
    /// characters (``thinBand``), unless Tesseract has shown where one lies (``misreadBand``).
    var thickestBand = Self.thinBand

    /// How thick a rule's band may be found between the lines that Tesseract read.
    static let thinBand = 0.7
    /// How thick a rule's band may be where Tesseract read a line of no confidence (see
    /// ``replacingMisreadRules(_:reader:region:allowed:)``): rows of equals signs on small receipts, blur joining
    /// each sign's two bars, measured 0.61-0.67 of the characters' height in the corpus's receipt-04 and multi-06.
    static let misreadBand = 0.75

    /// A row of repeated marks found on the page.
    struct Rule: Equatable {
        var character: Character
        /// One box per mark, left to right.
        var marks: [Rect]
        var box: Rect { marks.dropFirst().reduce(marks[0]) { $0.union($1) } }
        var text: String { String(repeating: character, count: marks.count) }
    }

    /// Pixels darker than this are ink on any page (the reading rendering leaves paper near white); on a page whose
    /// paper and print are both known, ink starts a third of the way from the paper to the print, so that the faded
    /// marks of a thermal receipt count too.
    static let inkBelow: UInt8 = 150
    /// Fewest marks that make a row of characters rather than a few stray specks.
    static let minimumMarks = 6
    /// How periodic a band must be to be a row of characters: the autocorrelation of its ink across the row at the
    /// pitch of its marks, as a share of its variance. On the pages of seeds 121000 and 123000, rows of dashes and
    /// equals signs measured 0.45-0.95 (the low ones faint and small), and bands of print that Tesseract did not read
    /// 0.25-0.99: this is a first sieve only (see ``mostJoined``).
    static let leastPeriodicity = 0.45
    /// How clearly the marks stand apart: the darkness between two marks, as a share of theirs, at most (the median
    /// over the rule). On the same pages, printed dashes measured 0-0.17 even where blur and resampling thinned their
    /// gaps, and bands of print 0.2-0.5 but for a few short ones.
    static let mostJoined = 0.2
    /// How joined the marks may be when the runs of ink at the fixed level part into a steady stretch of them:
    /// the blurred equals signs of seed 121000 receipt-01 measured 0.25 and 0.27.
    static let mostJoinedWhenSteady = 0.35
    /// The thickest band (a share of the characters' height) that is a single bar: a dash's.
    static let dashBar = 0.3
    /// Marks enough for a row across a receipt: the faint dashes of seed 155000 receipt-01 (2.8 MP, 36 of them in a
    /// band 3 pixels thick, characters 10.5 tall) blur joined at 0.30 and 0.31, and part into no steady runs: each
    /// dash prints as two short pieces.
    static let longRow = 20
    /// How joined the marks of a long row of alike marks may be: the rules of seed 163000 receipt-05 (2 MP, 37 equals
    /// signs as two bars and 37 dashes) measured 0.37 and 0.41, the corpus's receipt-04's second 0.41. Bands of print
    /// with as many marks measured 0.45-0.47 (the corpus's form-02 and form-05), and are neither one bar nor two.
    static let mostJoinedInLongRow = 0.42
    /// How alike the marks of a long row are: the spread of their darkness (its interquartile range) as a share of
    /// its median, at most. Those rules measured 0.09-0.2.
    static let mostMarkSpread = 0.35

    /// How much of the page's width a row of marks across the page covers, at least: the share of the grid's cells
    /// across the page (or the region read) that the row holds. The separator rows of the receipts of seeds
    /// 155000-169000 (2-3 MP) that blur had joined past ``mostJoinedInLongRow`` held 0.81-0.91 of their cells;
    /// periodic bands that were no rule (a form's fields and lines, a card number's asterisks) 0.55 at most.
    static let leastRowCover = 0.75
    /// How joined the marks of a row across the page may be: those rows measured 0.21-0.48, the no-rule bands
    /// covering half the page or less up to 0.56.
    static let mostJoinedAcrossPage = 0.5
    /// The thinnest band, as a share of the characters' height, that may be a row across the page: the edge of the
    /// paper, a pixel thick, can pass for a row of alike marks (seed 169000 receipt-01, 0.09).
    static let thinnestRowAcrossPage = 0.2

    /// Whether marks of the darkness `marks` in a band of `bars` bars and `thickness` pixels make a long row of alike
    /// marks: ``longRow`` of them or more, two bars (equals signs) or one as thin as a dash's (``dashBar``), their
    /// darkness alike (``mostMarkSpread``).
    func isLongRowOfAlikeMarks(_ marks: [Double], bars: Int, thickness: Double) -> Bool {
        guard marks.count >= Self.longRow, bars == 2 || thickness <= Self.dashBar * glyphHeight else { return false }
        return Self.areAlike(marks)
    }

    /// Whether marks of the darkness `marks`, `cells` cells of the grid across the band, make a row across the
    /// page: ``longRow`` of them or more, alike (``mostMarkSpread``), filling ``leastRowCover`` of the cells, in a
    /// band at least ``thinnestRowAcrossPage`` of the characters' height thick. A receipt prints its separators
    /// across its whole width; blur joins a small receipt's equals signs (their two bars into one band too) past
    /// what tells marks apart elsewhere, but a band of print or a form's line does not repeat that steadily across
    /// the page.
    func isRowAcrossPage(_ marks: [Double], cells: Int, thickness: Double) -> Bool {
        marks.count >= Self.longRow && Double(marks.count) >= Self.leastRowCover * Double(cells)
            && thickness >= Self.thinnestRowAcrossPage * glyphHeight && Self.areAlike(marks)
    }

    /// Whether marks are alike in darkness: their interquartile range at most ``mostMarkSpread`` of their median.
    static func areAlike(_ marks: [Double]) -> Bool {
        guard !marks.isEmpty else { return false }
        let sorted = marks.sorted()
        let median = sorted[sorted.count / 2]
        return median > 0 && sorted[3 * sorted.count / 4] - sorted[sorted.count / 4] <= mostMarkSpread * median
    }

    /// The rules in `region` (or the whole page) that do not overlap any of `lines`.
    func rules(avoiding lines: [RecognizedLine], in region: Rect? = nil) -> [Rule] {
        // The characters' height is read from the lines too: on faint or thin print the letter-like marks of the page
        // break into pieces, and their typical height falls to half a letter's (5 pixels on a receipt whose lines are
        // 13 tall), which would put the marks' pitch out of reach and every dash's bar near an equals sign's height.
        // A page read sideways (most of its lines taller than wide: Tesseract reads vertical text as it stands) has
        // no rows of characters across it to find: the ends of its lines, one under another, repeat at their pitch.
        let worded = lines.filter { $0.text.count >= 3 }
        let across = worded.filter { $0.box.width > $0.box.height }
        if 2 * across.count < worded.count { return [] }
        let lineHeights = across.map(\.box.height).sorted()
        let height = lineHeights.isEmpty ? glyphHeight : max(glyphHeight, 0.7 * lineHeights[lineHeights.count / 2])
        return RuleLineReader(pixels: pixels, glyphHeight: height, thickestBand: thickestBand)
            .rules(between: lines, in: region)
    }

    /// ``rules(avoiding:in:)`` with ``glyphHeight`` as the characters' height.
    private func rules(between lines: [RecognizedLine], in region: Rect?) -> [Rule] {
        // The page's outermost rows and columns are left out: the edge of the paper, resampled, can look like a row
        // of marks, or like one more mark at the end of a row.
        let edge = 3
        let left = max(edge, Int((region?.minX ?? 0).rounded(.down)))
        let right = min(pixels.width - edge, Int((region?.maxX ?? Double(pixels.width)).rounded(.up)))
        let top = max(edge, Int((region?.minY ?? 0).rounded(.down)))
        let bottom = min(pixels.height - edge, Int((region?.maxY ?? Double(pixels.height)).rounded(.up)))
        guard right - left > 8, bottom - top > 2, glyphHeight >= 4 else { return [] }
        let (paper, printLevel) = pixels.percentiles(0.9, 0.01)
        let inkBelow =
            paper - printLevel > 40 ? max(Int(Self.inkBelow), paper - (paper - printLevel) / 3) : Int(Self.inkBelow)

        // Rows the read lines cover (with a little margin) are theirs; a line narrower than two characters (a bar
        // read at the page's edge) does not claim the rows.
        var taken = [Bool](repeating: false, count: pixels.height)
        for line in lines where line.box.width >= 2 * glyphHeight {
            let margin = 0.1 * line.box.height
            let from = max(0, Int((line.box.minY - margin).rounded(.down)))
            let to = min(pixels.height, Int((line.box.maxY + margin).rounded(.up)))
            if from < to { for y in from..<to { taken[y] = true } }
        }
        // Rows with enough ink to belong to a row of marks: a dash covers about half of its cell.
        let minimumInk = max(Self.minimumMarks * 2, Int(glyphHeight * 1.5))
        var inked = [Bool](repeating: false, count: pixels.height)
        for y in top..<bottom where !taken[y] {
            var count = 0
            let row = y * pixels.width
            for x in left..<right where Int(pixels.bytes[row + x]) < inkBelow { count += 1 }
            inked[y] = count >= minimumInk
        }

        // Bands of inked rows; the two bars of an equals sign, a stroke apart, make one band.
        let barGap = max(1, Int((0.3 * glyphHeight).rounded()))
        var bands: [(top: Int, bottom: Int, bars: Int)] = []
        var y = top
        while y < bottom {
            guard inked[y] else { y += 1; continue }
            var end = y
            while end + 1 < bottom && inked[end + 1] { end += 1 }
            if let last = bands.last, y - last.bottom - 1 <= barGap,
                !(last.bottom + 1..<y).contains(where: { taken[$0] })
            {
                bands[bands.count - 1] = (last.top, end, last.bars + 1)
            } else {
                bands.append((y, end, 1))
            }
            y = end + 1
        }

        let maximumHeight = thickestBand * glyphHeight
        return bands.compactMap { band -> Rule? in
            guard band.bars <= 2, Double(band.bottom - band.top + 1) <= maximumHeight else { return nil }
            // The runs at the fixed level, read once: a check of the grid's count, and the count itself where the
            // grid finds no row. Their stretch may be a piece of a row whose other marks blur joined (seed 123000's
            // small receipts: 6 and 10 marks of rows of 42): the piece costs no more characters than the row left
            // out, and it reads the marks it holds (corpus multi-08: 23 equals signs of 34).
            let steady = steadyStretch(
                top: band.top, bottom: band.bottom, bars: band.bars, left: left, right: right, inkBelow: inkBelow)
            return rule(
                top: band.top, bottom: band.bottom, bars: band.bars, left: left, right: right, paper: paper,
                inkBelow: inkBelow, steady: steady) ?? steady
        }
    }

    /// The marks of one band, counted on a grid of character cells at the pitch the band's ink repeats at.
    private func rule(
        top: Int, bottom: Int, bars: Int, left: Int, right: Int, paper: Int, inkBelow: Int, steady: Rule?
    ) -> Rule? {
        // How dark each column of the band is at its darkest (a row above and below included: a slightly skewed
        // row of dashes drifts across rows), against the paper.
        let rows = max(0, top - 1)...min(pixels.height - 1, bottom + 1)
        let width = right - left
        var darkness = [Double](repeating: 0, count: width)
        for x in 0..<width {
            var darkest = 255
            for y in rows { darkest = min(darkest, Int(pixels.bytes[y * pixels.width + left + x])) }
            darkness[x] = Double(max(0, paper - darkest))
        }
        guard let pitch = Self.pitch(of: darkness, from: max(3, 0.3 * glyphHeight), to: 1.5 * glyphHeight) else {
            return nil
        }

        // The cells' centres: the phase at which the centres are darkest and the gaps between them lightest.
        func value(_ x: Double) -> Double {
            let i = Int(x.rounded(.down)), f = x - Double(i)
            guard i >= 0, i + 1 < width else { return 0 }
            return darkness[i] * (1 - f) + darkness[i + 1] * f
        }
        var phase = 0.0, bestContrast = -Double.infinity
        for step in 0..<Int((2 * pitch).rounded(.down)) {
            let candidate = Double(step) / 2
            var contrast = 0.0
            for centre in stride(from: candidate, to: Double(width - 1), by: pitch) {
                contrast += value(centre) - value(centre + pitch / 2)
            }
            if contrast > bestContrast { (phase, bestContrast) = (candidate, contrast) }
        }
        let centres = Array(stride(from: phase, to: Double(width), by: pitch))
        func extreme(around x: Double, reach: Double, darkest: Bool) -> Double {
            let from = max(0, Int((x - reach).rounded(.down))), to = min(width - 1, Int((x + reach).rounded(.up)))
            guard from <= to else { return 0 }
            let values = darkness[from...to]
            return (darkest ? values.max() : values.min()) ?? 0
        }
        let markDarkness = centres.map { extreme(around: $0, reach: 0.2 * pitch, darkest: true) }
        let gapDarkness = centres.map { extreme(around: $0 + pitch / 2, reach: 0.05 * pitch, darkest: false) }
        let darkest = markDarkness.max() ?? 0
        guard darkest > 0 else { return nil }
        let strong = markDarkness.filter { $0 > 0.5 * darkest }.sorted()
        let typical = strong[strong.count / 2]
        let marked = centres.indices.map {
            markDarkness[$0] >= 0.4 * typical && gapDarkness[$0] <= 0.6 * markDarkness[$0]
        }

        // The longest row of marked cells, a single faded mark between two marked cells counting as printed.
        var best = 0..<0, start: Int?, lastMarked = 0
        for k in marked.indices {
            if marked[k] {
                if start == nil { start = k }
                lastMarked = k
                if let start, k + 1 - start > best.count { best = start..<(k + 1) }
            } else if start != nil, k - lastMarked > 1 {
                start = nil
            }
        }
        guard best.count >= Self.minimumMarks else { return nil }
        let inRule = best.filter { marked[$0] }
        let joined = inRule.map { gapDarkness[$0] / markDarkness[$0] }.sorted()
        // Marks joined more than ``mostJoined`` (blur half filling the gaps between equals signs) still count when the
        // runs of ink at the fixed level part into a steady stretch of marks inside the row (`steady`): the
        // grid then counts the whole row, faded marks and all, where the stretch stops at the first one. So do the
        // marks of a long row of alike marks (``longRow``, ``isLongRowOfAlikeMarks``), up to ``mostJoinedInLongRow``,
        // and of a row across the page (``isRowAcrossPage(_:cells:thickness:)``), up to ``mostJoinedAcrossPage``.
        let joinedMedian = joined[joined.count / 2]
        if joinedMedian > Self.mostJoined {
            let steadyInside =
                steady.map {
                    $0.box.minX >= Double(left) + centres[best.lowerBound] - pitch
                        && $0.box.maxX <= Double(left) + centres[best.upperBound - 1] + pitch
                } ?? false
            // (Not where the steady stretch holds more marks than the grid's row: it is then the better count.)
            let thickness = Double(bottom - top + 1), rowMarks = best.map { markDarkness[$0] }
            let gridCountsMore = (steady?.marks.count ?? 0) <= best.count
            let longRow = isLongRowOfAlikeMarks(rowMarks, bars: bars, thickness: thickness) && gridCountsMore
            let acrossPage = isRowAcrossPage(rowMarks, cells: centres.count, thickness: thickness) && gridCountsMore
            guard (steadyInside && joinedMedian <= Self.mostJoinedWhenSteady)
                || (longRow && joinedMedian <= Self.mostJoinedInLongRow)
                || (acrossPage && joinedMedian <= Self.mostJoinedAcrossPage)
            else { return nil }
        }

        // Each mark's box: its inked columns within its cell (the cell's middle when the mark faded past the level).
        let height = Double(bottom - top + 1)
        let inkDarkness = Double(paper - inkBelow)
        let marks = best.map { k -> Rect in
            let from = max(0, Int((centres[k] - pitch / 2).rounded(.up))),
                to = min(width - 1, Int((centres[k] + pitch / 2).rounded(.down)))
            let inked = from <= to ? (from...to).filter { darkness[$0] >= inkDarkness } : []
            guard let first = inked.first, let last = inked.last else {
                return Rect(
                    x: Double(left) + centres[k] - 0.3 * pitch, y: Double(top), width: 0.6 * pitch, height: height)
            }
            return Rect(x: Double(left + first), y: Double(top), width: Double(last - first + 1), height: height)
        }
        // The side of a drawn box (a form's field), broken into marks by blur and resampling, turns into upright
        // sides at its ends, which may lie beyond the marks counted, past stretches of ink too uneven to count; a
        // printed row of characters stands free. The ink that runs on from either end (no gap of two cells) is the
        // row's too.
        func runsOn(from start: Int, by step: Int) -> Int {
            var end = start, x = start + step
            while x >= 0, x < width, abs(x - end) <= Int(2 * pitch) {
                if darkness[x] >= inkDarkness { end = x }
                x += step
            }
            return end
        }
        let first = Int(marks[0].minX) - left, last = Int(marks[marks.count - 1].maxX) - 1 - left
        let ends = [first, last, runsOn(from: first, by: -1), runsOn(from: last, by: 1)].map { left + $0 }
        if ends.contains(where: { hasUprightLine(near: $0, top: top, bottom: bottom, inkBelow: inkBelow) }) {
            return nil
        }
        // Two bars make an equals sign; so does one band as thick as both and their gap (0.35 of the characters'
        // height, where a dash's bar is under a quarter of it), which blur joined into one.
        let equals = bars == 2 || height >= 0.35 * glyphHeight
        return Rule(character: equals ? "=" : "-", marks: marks)
    }

    /// The marks of one band as runs of columns darker than ``inkBelow``, kept when they are evenly spaced and alike:
    /// the longest such stretch. Where blur has half filled the gaps between a row's marks past what the grid of
    /// ``rule(top:bottom:bars:left:right:paper:inkBelow:steady:)`` takes for separate marks (the two bars of blurred
    /// equals signs, a quarter as dark between the signs as on them), the runs still part at the fixed level.
    /// `inkBelow` is the page's own ink level, which a drawn box's faint upright sides are looked for at.
    private func steadyStretch(top: Int, bottom: Int, bars: Int, left: Int, right: Int, inkBelow: Int) -> Rule? {
        var runs: [(start: Int, end: Int)] = []
        var runStart: Int?
        for x in left...right {
            var ink = false
            if x < right {
                for y in top...bottom where pixels.bytes[y * pixels.width + x] < Self.inkBelow {
                    ink = true
                    break
                }
            }
            if ink, runStart == nil { runStart = x }
            if !ink, let start = runStart {
                runs.append((start, x))
                runStart = nil
            }
        }
        // Specks narrower than a stroke are noise.
        let minimumWidth = max(1, Int((0.12 * glyphHeight).rounded()))
        runs.removeAll { $0.end - $0.start < minimumWidth }
        guard runs.count >= Self.minimumMarks else { return nil }

        // The longest stretch of marks at a steady pitch, each about as wide as the others.
        let widths = runs.map { Double($0.end - $0.start) }
        let pitches = zip(runs.dropFirst(), runs).map { Double($0.start - $1.start) }
        let pitch = pitches.sorted()[pitches.count / 2], width = widths.sorted()[widths.count / 2]
        guard pitch >= 0.3 * glyphHeight, pitch <= 1.5 * glyphHeight, width <= 0.95 * pitch else { return nil }
        var best = 0..<0, start = 0
        for k in 0..<runs.count {
            let steady = k > 0 && abs(pitches[k - 1] - pitch) <= 0.25 * pitch
            let alike = abs(widths[k] - width) <= 0.4 * width
            if !alike { start = k + 1; continue }
            if k > start && !steady { start = k }
            if k + 1 - start > best.count { best = start..<(k + 1) }
        }
        guard best.count >= Self.minimumMarks else { return nil }
        // The side of a drawn box (a form's field), broken into marks by blur and resampling, turns into upright
        // sides at its ends, which may lie beyond the steady stretch; a printed row of characters stands free. The
        // upright sides are looked for at the page's own ink level, as in the grid's count: drawn in light grey, they
        // can be fainter than the fixed level along most of a character's height (seed 133000 form-01, 2 MP: the
        // sides of four fields at 131-205 where the fixed level is 150, read as four rows of 23-45 dashes).
        let ends = [
            runs[best.lowerBound].start, runs[best.upperBound - 1].end - 1, runs[0].start, runs[runs.count - 1].end - 1,
        ]
        if ends.contains(where: { hasUprightLine(near: $0, top: top, bottom: bottom, inkBelow: inkBelow) }) {
            return nil
        }
        let height = Double(bottom - top + 1)
        let marks = runs[best].map { run -> Rect in
            Rect(x: Double(run.start), y: Double(top), width: Double(run.end - run.start), height: height)
        }
        return Rule(character: bars == 2 ? "=" : "-", marks: marks)
    }

    /// The pitch (in `lags`) at which `profile` repeats: the shortest lag whose autocorrelation is a peak within a
    /// fifth of the highest, refined between its neighbours; nil when the profile repeats less than
    /// ``leastPeriodicity``.
    static func pitch(of profile: [Double], from shortest: Double, to longest: Double) -> Double? {
        let lowest = Int(shortest.rounded(.down)), highest = min(Int(longest.rounded(.up)), profile.count / 6)
        guard lowest >= 1, highest > lowest + 1 else { return nil }
        let mean = profile.reduce(0, +) / Double(profile.count)
        let centred = profile.map { $0 - mean }
        let variance = centred.reduce(0) { $0 + $1 * $1 } / Double(profile.count)
        guard variance > 0 else { return nil }
        let correlation = (lowest...highest).map { lag -> Double in
            var sum = 0.0
            for i in 0..<(centred.count - lag) { sum += centred[i] * centred[i + lag] }
            return sum / Double(centred.count - lag) / variance
        }
        guard let strongest = correlation.max(), strongest >= leastPeriodicity else { return nil }
        for k in 1..<(correlation.count - 1)
        where correlation[k] >= correlation[k - 1] && correlation[k] >= correlation[k + 1]
            && correlation[k] >= 0.8 * strongest
        {
            let (a, b, c) = (correlation[k - 1], correlation[k], correlation[k + 1])
            let curvature = a - 2 * b + c
            return Double(lowest + k) + (curvature < 0 ? 0.5 * (a - c) / curvature : 0)
        }
        return nil
    }

    /// Whether a column within a few pixels of `x` is inked along much of a character's height just above or just
    /// below the band `top...bottom`.
    private func hasUprightLine(near x: Int, top: Int, bottom: Int, inkBelow: Int) -> Bool {
        let reach = Int(glyphHeight.rounded())
        let columns = max(0, x - 6)...min(pixels.width - 1, x + 6)
        for span in [(top - reach)..<top, (bottom + 1)..<(bottom + 1 + reach)] {
            let rows = max(0, span.lowerBound)..<min(pixels.height, span.upperBound)
            guard rows.count >= reach / 2 else { continue }
            for column in columns {
                let inked = rows.filter { Int(pixels.bytes[$0 * pixels.width + column]) < inkBelow }.count
                if inked * 10 >= rows.count * 4 { return true }
            }
        }
        return false
    }

    /// The confidence (0...1) under which a line that Tesseract read may be a row of marks it misread.
    static let misreadConfidence = 0.1

    /// `blocks` with the lines that are rows of marks Tesseract read as words replaced by the rules they are: Tesseract
    /// now and then reads a row of equals signs as "SSSBVSSsStSsSesSSaSS…" with no confidence, and the line then claims
    /// the rows that ``rules(avoiding:in:)`` would find the rule in. A line read with next to no confidence (under
    /// ``misreadConfidence``) gives way when, with it set aside, `reader` finds a rule of a character that `allowed`
    /// accepts across the line's middle, its band up to ``misreadBand`` of the characters' height and at least half
    /// the line's. (A line of print is no rule, however badly read: its marks are neither alike nor evenly spaced, nor
    /// apart.)
    static func replacingMisreadRules(
        _ blocks: [RecognizedBlock], reader: RuleLineReader, region: Rect?, allowed: (Character) -> Bool
    ) -> [RecognizedBlock] {
        var looser = reader
        looser.thickestBand = misreadBand
        let lines = blocks.flatMap(\.lines)
        var misread = Set<Int>()  // positions in `lines`
        var rules: [Rule] = []
        for (position, line) in lines.enumerated() where (line.confidence?.value ?? 1) < misreadConfidence {
            var others = lines
            others.remove(at: position)
            let margin = max(2, 0.5 * line.box.height)
            let rows = Rect(
                x: region?.minX ?? 0, y: line.box.minY - margin, width: region?.width ?? Double(reader.pixels.width),
                height: line.box.height + 2 * margin)
            // The rule must be what the line was read from: across its middle, and filling half its height at least.
            // (A line of print read as nothing is no rule, though the feet of its digits, monospaced, may make a
            // row of marks: 2 pixels of a line 11 tall on the corpus's multi-03.)
            let found = looser.rules(avoiding: others, in: rows).filter { rule in
                let box = rule.box
                let middle = box.minY + box.height / 2
                return allowed(rule.character) && line.box.minY <= middle && middle <= line.box.maxY
                    && box.height >= 0.5 * line.box.height && box.maxX > line.box.minX && box.minX < line.box.maxX
            }
            guard !found.isEmpty else { continue }
            misread.insert(position)
            // Where the two bars of small equals signs blur into a band as thin as a dash's, what Tesseract made of
            // the row tells them apart ("Sassssssssssssssessssssss===5=2=", seed 163000 receipt-01).
            let equals = line.text.count { $0 == "=" }, dashes = line.text.count { $0 == "-" }
            let said: Character? = equals == dashes ? nil : equals > dashes ? "=" : "-"
            rules += found.map { rule in
                var rule = rule
                if let said, allowed(said) { rule.character = said }
                return rule
            }
        }
        guard !misread.isEmpty else { return blocks }
        var position = 0
        let kept = blocks.compactMap { block -> RecognizedBlock? in
            var block = block
            block.lines = block.lines.filter { _ in
                defer { position += 1 }
                return !misread.contains(position)
            }
            return block.lines.isEmpty ? nil : block
        }
        return adding(rules, to: kept)
    }

    /// `blocks` with each rule found between their lines added as a line of its own (see
    /// ``RecognizedBlock/inserting(_:into:)``).
    /// The added lines have no confidence, since Tesseract did not read them.
    static func adding(_ rules: [Rule], to blocks: [RecognizedBlock]) -> [RecognizedBlock] {
        RecognizedBlock.inserting(
            rules.map { rule in
                let glyphs = rule.marks.map { RecognizedGlyph(text: String(rule.character), confidence: nil, box: $0) }
                let word = RecognizedWord(text: rule.text, confidence: nil, box: rule.box, glyphs: glyphs)
                return RecognizedLine(text: rule.text, confidence: nil, box: rule.box, words: [word])
            }, into: blocks)
    }
}

extension RecognizedBlock {
    /// `blocks` with `lines` inserted in reading order: each inside the block whose lines it lies between (before
    /// the first line lower than its middle), or as a block of its own between blocks.
    static func inserting(_ lines: [RecognizedLine], into blocks: [RecognizedBlock]) -> [RecognizedBlock] {
        var blocks = blocks
        for line in lines {
            let box = line.box
            let centre = box.y + box.height / 2
            if let b = blocks.firstIndex(where: { $0.box.minY <= centre && centre <= $0.box.maxY }) {
                let at =
                    blocks[b].lines.firstIndex { $0.box.y + $0.box.height / 2 > centre } ?? blocks[b].lines.endIndex
                blocks[b].lines.insert(line, at: at)
                blocks[b].box = blocks[b].box.union(box)
            } else {
                let at = blocks.firstIndex { $0.box.minY > centre } ?? blocks.endIndex
                blocks.insert(RecognizedBlock(box: box, lines: [line]), at: at)
            }
        }
        return blocks
    }
}
