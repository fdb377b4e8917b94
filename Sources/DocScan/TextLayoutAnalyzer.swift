internal import CDocScanShim
import Foundation

/// Direction and skew of the text on a flat page.
public struct TextLayout: Sendable, Equatable {
    /// Clockwise quarter turns (0...3) that make the page upright.
    public var quarterTurns: Int
    /// Residual rotation of the text lines, degrees, counter-clockwise positive: turning the upright page clockwise by
    /// this much levels the lines.
    public var skewDegrees: Double
    /// 0...1: how clearly the ink forms lines in the chosen direction (0 for pages with almost no text).
    public var lineConfidence: Double
    /// 0...1: how clearly the text is upright rather than upside down.
    public var uprightConfidence: Double
    /// The analysed page's width divided by its height (1 when not known).
    public var aspectRatio: Double

    /// Creates a layout (``TextLayoutAnalyzer/analyze(_:)`` measures one).
    public init(
        quarterTurns: Int, skewDegrees: Double, lineConfidence: Double, uprightConfidence: Double, aspectRatio: Double = 1
    ) {
        self.quarterTurns = quarterTurns
        self.skewDegrees = skewDegrees
        self.lineConfidence = lineConfidence
        self.uprightConfidence = uprightConfidence
        self.aspectRatio = aspectRatio
    }
}

/// Stage 5 of the pipeline: finds residual skew (±12°) and the 0/90/180/270° orientation of a flat page from its ink.
///
/// Skew and line direction come from projection profiles of the ink at candidate angles. Upright against upside down
/// adds two cues that hold for Latin, Greek and Cyrillic text: more ink above the x-height band (capitals, digits,
/// ascenders) than below it (descenders), and bottom edges of letters lining up on the baseline more sharply than
/// their tops, judged on each quarter of the page at its own angle (the pages of a spread lean different ways), without
/// marks far taller than the print (a logo's letters); a till receipt adds where its largest line and its barcode sit.
/// This costs about 30 ms and needs no model; Tesseract's OSD model, tried on the same pages, took 0.25-0.75 s a page and
/// misjudged blurred receipts.
public struct TextLayoutAnalyzer: Sendable {
    /// Below this line confidence the page is left as it is (unless ``decisions(for:)`` turns it with the clearest
    /// page of its photo).
    public var minimumLineConfidence = 0.15
    /// A page at least this many times as wide as tall (a till receipt flattened lying across) whose lines run across
    /// its width, so that a quarter turn makes it stand, needs only ``minimumLineConfidenceToStand`` to be turned.
    public var longPageAspectRatio = 2.5
    /// The line confidence enough to turn a long page lying across so that it stands (see ``longPageAspectRatio``):
    /// the lines of a long narrow document run across its width far more often than along it, so weaker evidence
    /// that they do suffices. A receipt's lines show less clearly than a page's (narrow, with columns of prices and
    /// blank stretches): 0.10-0.15 on receipts of the generated sets left lying across, whose lines read as running
    /// across their width.
    public var minimumLineConfidenceToStand = 0.05
    /// Below this upright confidence an upside-down verdict is not trusted.
    public var minimumUprightConfidence = 0.03

    /// Creates an analyzer.
    public init() {}

    /// The longer side, in pixels, a page of `width` × `height` is analysed at: 1000, more for a page longer and
    /// narrower than A4 (up to 2500 for a till receipt), so that its print is no smaller than an A4 page's.
    public static func analysisSize(width: Int, height: Int) -> Int {
        Int(ds_analysis_size(Int32(clamping: width), Int32(clamping: height)))
    }

    /// Analyses a page (a larger one is downscaled to ``analysisSize(width:height:)`` internally).
    /// - Throws: ``DocScanError`` when OpenCV fails.
    public func analyze(_ page: Image) throws(DocScanError) -> TextLayout {
        var layout = ds_text_layout()
        try withExtendedLifetime(page.storage) { () throws(DocScanError) in
            try check(ds_analyze_text_layout(page.storage.handle, &layout), "text layout analysis")
        }
        return TextLayout(
            quarterTurns: Int(layout.quarter_turns), skewDegrees: layout.skew_degrees,
            lineConfidence: layout.line_confidence, uprightConfidence: layout.upright_confidence,
            aspectRatio: Double(page.width) / Double(max(1, page.height)))
    }

    /// Whether the analysed page is a long page lying across (see ``longPageAspectRatio``).
    func liesAcross(_ layout: TextLayout) -> Bool { layout.aspectRatio >= longPageAspectRatio }

    /// The layout to act on: quarter turns and skew only where the evidence is clear enough.
    public func decision(for layout: TextLayout) -> (quarterTurns: Int, skewDegrees: Double) {
        let standsLongPage = liesAcross(layout) && layout.quarterTurns % 2 == 1
        guard layout.lineConfidence >= (standsLongPage ? minimumLineConfidenceToStand : minimumLineConfidence) else {
            return (0, 0)
        }
        var turns = layout.quarterTurns
        if layout.uprightConfidence < minimumUprightConfidence {
            // Direction known, sense unknown: keep the reading that needs the smaller turn.
            turns = turns % 2 == 0 ? 0 : 1
        }
        return (turns, abs(layout.skewDegrees) <= 12 ? layout.skewDegrees : 0)
    }

    /// Below this line confidence a page's lines barely show their direction, and ``decisions(for:)`` lets the
    /// clearest page of its photo decide its way up.
    public var clearLineConfidence = 0.3
    /// Below this upright confidence a page's letter shapes barely tell up from down, and ``decisions(for:)`` lets the
    /// clearest page of its photo decide which way up its lines read.
    public var clearUprightConfidence = 0.5
    /// At or above this line confidence (and ``guidingUprightConfidence``) a page may show the others of its photo the
    /// way up.
    public var guidingLineConfidence = 0.4
    /// At or above this upright confidence (and ``guidingLineConfidence``) a page may show the others of its photo the
    /// way up.
    public var guidingUprightConfidence = 0.6

    /// The decisions for the documents of one photo, each given by its outline in the photo (corners in order,
    /// top-left first, as flattened) and its text layout: each page's own ``decision(for:)``, except that a page
    /// whose text is unclear about its way up (see ``clearLineConfidence`` and ``clearUprightConfidence``) is turned
    /// to face, in the photo, the way the clearest page faces (the one with the highest product of the two
    /// confidences at or above the guiding ones): documents photographed together mostly lie the same way up, and
    /// small cards and faded receipts are the ones whose few, small or blurred letters say least. A page whose lines
    /// show their direction keeps it (it may only be turned half round, and keeps its skew); one whose lines do not
    /// may take any quarter turn (a long page lying across, either that makes it stand), and loses its skew when
    /// turned a quarter. On the photos of several documents of 12 generated sets (232 pages) this took the scanner's
    /// orientation from 216 pages right to 226; on the committed corpus it turned one page right and one wrong (led by
    /// a page confidently wrong itself). A long page lying across whose lines show no direction at all stands with its
    /// top towards the photo's top, whether or not its photo holds other pages.
    public func decisions(for pages: [(quad: Quad, layout: TextLayout)]) -> [(quarterTurns: Int, skewDegrees: Double)]
    {
        // The direction, in the photo, that a page's top faces once it is turned by `turns` quarter turns clockwise.
        func facing(_ quad: Quad, turns: Int) -> Double {
            let up = (
                x: quad.topLeft.x + quad.topRight.x - quad.bottomLeft.x - quad.bottomRight.x,
                y: quad.topLeft.y + quad.topRight.y - quad.bottomLeft.y - quad.bottomRight.y
            )
            return atan2(up.y, up.x) * 180 / .pi - 90 * Double(turns)
        }
        // How far, in degrees, a page's top faces from the direction `way` (degrees, as ``facing`` gives it).
        func offAngle(_ quad: Quad, turns: Int, from way: Double) -> Double {
            let difference = (facing(quad, turns: turns) - way).truncatingRemainder(dividingBy: 360)
            return min(abs(difference), 360 - abs(difference))
        }
        // A long page lying across whose lines show no direction (under ``minimumLineConfidence``) stands anyway,
        // its top towards the photo's top, as a document mostly faces the camera that photographs it: a receipt's
        // lines run across its width.
        let own = pages.map { page in
            let decided = decision(for: page.layout)
            guard liesAcross(page.layout), decided.quarterTurns % 2 == 0,
                page.layout.lineConfidence < minimumLineConfidence
            else { return decided }
            let photoUp = -90.0
            return (offAngle(page.quad, turns: 1, from: photoUp) <= offAngle(page.quad, turns: 3, from: photoUp) ? 1 : 3, 0)
        }
        func isGuide(_ layout: TextLayout) -> Bool {
            layout.lineConfidence >= guidingLineConfidence && layout.uprightConfidence >= guidingUprightConfidence
        }
        guard pages.count > 1,
            let guide = pages.indices.filter({ isGuide(pages[$0].layout) }).max(by: {
                pages[$0].layout.lineConfidence * pages[$0].layout.uprightConfidence
                    < pages[$1].layout.lineConfidence * pages[$1].layout.uprightConfidence
            })
        else { return own }
        let way = facing(pages[guide].quad, turns: own[guide].quarterTurns)
        return pages.indices.map { index in
            let layout = pages[index].layout
            let linesClear = layout.lineConfidence >= clearLineConfidence
            guard index != guide, !linesClear || layout.uprightConfidence < clearUprightConfidence else {
                return own[index]
            }
            let turns = own[index].quarterTurns
            // (A long page lying across, a receipt, is made to stand: see ``longPageAspectRatio``.)
            let options =
                linesClear
                ? [turns, (turns + 2) % 4] : liesAcross(layout) ? [1, 3] : [0, 1, 2, 3]
            func off(_ turns: Int) -> Double { offAngle(pages[index].quad, turns: turns, from: way) }
            let best = options.min { off($0) < off($1) } ?? turns
            return (best, (best - turns) % 2 == 0 ? own[index].skewDegrees : 0)
        }
    }
}

/// A book gutter found on a flat, upright spread.
public struct Gutter: Sendable, Equatable {
    /// Horizontal position of the fold on the top row, in pixels.
    public var topX: Double
    /// Horizontal position of the fold on the bottom row, in pixels.
    public var bottomX: Double
    /// 0...1.
    public var confidence: Double
}

/// Stage 6 of the pipeline: tells an open book's two-page spread from a single page and finds the fold between the
/// pages: a vertical band near the middle that is darker than the paper beside it, crossed by no text, with text on
/// both sides. A single page, even with two columns, has no such shaded fold and is never split.
public struct SpreadSplitter: Sendable {
    /// Creates a splitter.
    public init() {}

    /// The gutter of an upright spread, or nil for a single page.
    /// - Throws: ``DocScanError`` when OpenCV fails.
    public func findGutter(in page: Image) throws(DocScanError) -> Gutter? {
        var gutter = ds_gutter()
        try withExtendedLifetime(page.storage) { () throws(DocScanError) in
            try check(ds_find_gutter(page.storage.handle, &gutter), "gutter detection")
        }
        guard gutter.found != 0 else { return nil }
        return Gutter(topX: gutter.top_x, bottomX: gutter.bottom_x, confidence: gutter.confidence)
    }
}
