internal import CDocScanShim
import DocScanGeometry
import Foundation

/// A straight camera shake measured in a photo.
public struct MotionBlur: Sendable, Equatable, Codable {
    /// Length of the smear, in photo pixels.
    public var length: Double
    /// Direction of the smear, degrees from the x axis towards the y axis (0...180), in upright photo pixels.
    public var angleDegrees: Double
    /// How dark the photo's spectrum is at the notches such a shake leaves (at 1/length, 2/length... cycles per pixel
    /// along it) against their surroundings, in natural log of power.
    public var notchDepth: Double
    /// How much more fine detail the photo holds across the smear than along it, in natural log of power.
    public var anisotropy: Double
    /// How many of the four quarters of the measured region show the same smear on their own (nil when they were
    /// not measured).
    public var agreeingQuarters: Int?

    /// Creates a measurement.
    public init(
        length: Double, angleDegrees: Double, notchDepth: Double, anisotropy: Double, agreeingQuarters: Int? = nil
    ) {
        self.length = length
        self.angleDegrees = angleDegrees
        self.notchDepth = notchDepth
        self.anisotropy = anisotropy
        self.agreeingQuarters = agreeingQuarters
    }
}

/// The stage between detection and warp: finds a straight camera shake in the part of a photo that holds the
/// documents and divides it out, so that smeared print is sharp again before the pages are cut out.
///
/// A shake of length L multiplies the photo's spectrum by a sinc along its direction, which goes dark at 1/L, 2/L...
/// cycles per pixel whatever the scene; the measurement looks for that comb of notches in the averaged spectrum of the
/// photo's tiles, in the direction where it is darkest once the fine detail missing along each direction is counted
/// too (print has combs of its own along its lines, but only a shake takes the detail away along it), and the
/// correction is a Wiener deconvolution in linear light. A wrong kernel does more harm than
/// none (it rings), so only a clear shake is corrected: deep notches with fine detail missing along the smear, or
/// shallower notches with much more of it missing. Print has structure of its own along its lines and across them
/// (ruled forms most of all), so a smear in line with a document's sides or lines must show a still larger loss.
///
/// A long smear (5 pixels or more) often leaves shallower notches and keeps more of its fine detail, because the
/// JPEG and the sensor's noise fill the spectrum in; print on its own shows combs of 2-4 pixels (its strokes), and
/// longer ones only by chance in part of the page. So a long smear with a little loss of detail is a shake when it
/// is the same smear, within a few degrees and a fifth of its length, in at least three of the four quarters of the
/// region on their own: a camera shake moves the whole frame alike. That agreement is trusted even for a smear in
/// line with a document's sides, since print's own structure does not repeat a long comb across a page.
///
/// The thresholds were set on 440 generated photos (the corpus and seeds 5000-21000): none of the 330 without a
/// shake passes them (among those with a long comb, at most two quarters agree).
public struct MotionBlurCorrector: Sendable {
    /// Notches at least this deep are a shake when fine detail along the smear is down by ``minimumAnisotropy``.
    public var deepNotches = 0.28
    /// The least loss of fine detail along the smear (natural log of power) that goes with deep notches.
    public var minimumAnisotropy = 0.5
    /// Notches at least this deep are a shake when fine detail along the smear is down by ``strongAnisotropy``.
    public var shallowNotches = 0.16
    /// The loss of fine detail that makes shallower notches a shake.
    public var strongAnisotropy = 1.5
    /// The loss of fine detail a smear in line with a document's sides or lines must show.
    public var alignedAnisotropy = 2.2
    /// How far outside the directions of a document's sides, in degrees, a smear still counts as in line with them.
    public var alignedWithinDegrees = 3.0

    /// The shortest smear, in pixels, that counts as long: its quarters are asked when its notches and loss of
    /// detail alone do not make it a shake.
    public var longSmear = 5.0
    /// Notches at least this deep make a long smear worth asking its quarters about.
    public var longSmearNotches = 0.09
    /// The least loss of fine detail along a long smear worth asking its quarters about.
    public var longSmearAnisotropy = 0.2
    /// How many quarters must show the same long smear for it to be a shake.
    public var agreeingQuartersNeeded = 3
    /// How far, in degrees, a quarter's smear may turn from the whole region's and still agree.
    public var quarterAngleTolerance = 6.0
    /// How far, as a fraction of the length, a quarter's smear may differ from the whole region's and still agree.
    public var quarterLengthTolerance = 0.2

    /// Notches at least this deep make a smear that is not a clear shake still worth trying to undo, when a
    /// recognizer is there to judge the result (``DocumentScanner/Options/rendersSuspectedShake``).
    public var suspectedNotches = 0.09
    /// The least loss of fine detail along the smear that makes it worth trying to undo.
    public var suspectedAnisotropy = 0.2
    /// The shortest smear, in pixels, worth trying to undo: shorter ones blur print less than its own strokes are wide.
    public var suspectedLength = 3.0
    /// The least loss of fine detail that makes a smear in line with a document's sides or lines worth trying to undo:
    /// print's own lines and strokes take detail away along them. On 880 generated photos (the corpus and seeds
    /// 27000-63000) this left 31 of the 220 defocused photos suspected of a shake instead of 82, so that the others
    /// are read refocused, and 121 of the 440 sharp ones instead of 251, while 145 of the 220 shaken ones kept a
    /// smear in the right direction (148 without it).
    public var suspectedAlignedAnisotropy = 1.0

    /// Pixels round the documents' outlines that are measured and corrected with them.
    public var documentMargin = 16.0

    /// Creates a corrector.
    public init() {}

    /// The shake that best explains the pixels inside `region` (the whole photo when nil), or nil when the region
    /// holds too little structure to tell. Every photo with structure gets a measurement: ``isShake(_:documents:)``
    /// says whether it is real. The direction is the one whose comb of notches is darkest, counting the fine detail
    /// missing along it too unless `weighingDetailLoss` is false.
    /// - Throws: ``DocScanError`` when the region lies outside the photo or OpenCV fails.
    public func measure(in photo: Image, region: PixelRegion? = nil, weighingDetailLoss: Bool = true)
        throws(DocScanError) -> MotionBlur?
    {
        let both = try measurements(in: photo, region: region, weighingDetailLoss: weighingDetailLoss)
        return weighingDetailLoss ? both.byDetail : both.byComb
    }

    /// The shake measured in `region` (the whole photo when nil) both ways from one spectrum: by the darkest comb
    /// alone, and counting the fine detail lost along each direction (only when `weighingDetailLoss`); nil where the
    /// region holds too little structure to tell.
    func measurements(in photo: Image, region: PixelRegion? = nil, weighingDetailLoss: Bool = true)
        throws(DocScanError) -> (byComb: MotionBlur?, byDetail: MotionBlur?)
    {
        let region = region ?? PixelRegion(x: 0, y: 0, width: photo.width, height: photo.height)
        var byComb = ds_motion_blur(), byDetail = ds_motion_blur()
        try withExtendedLifetime(photo.storage) { () throws(DocScanError) in
            let status =
                weighingDetailLoss
                ? ds_estimate_motion_blur(photo.storage.handle, region.shimValue, &byComb, &byDetail)
                : ds_estimate_motion_blur(photo.storage.handle, region.shimValue, &byComb, nil)
            try check(status, "motion blur measurement")
        }
        func measured(_ blur: ds_motion_blur) -> MotionBlur? {
            guard blur.length > 0 else { return nil }
            return MotionBlur(
                length: blur.length, angleDegrees: blur.angle_degrees, notchDepth: blur.notch_depth,
                anisotropy: blur.anisotropy)
        }
        return (measured(byComb), weighingDetailLoss ? measured(byDetail) : nil)
    }

    /// The camera shake in the part of `photo` that holds `documents`, when there is one clear enough to undo: the
    /// whole region is measured, and for a long smear that needs it, each of its quarters.
    /// - Throws: ``DocScanError`` when OpenCV fails.
    public func shake(in photo: Image, documents: [Quad]) throws(DocScanError) -> MotionBlur? {
        guard let measured = try assessedSmear(in: photo, documents: documents), measured.isShake else { return nil }
        return measured.blur
    }

    /// The smear measured in the part of `photo` that holds `documents` (its quarters asked when that decides it), and
    /// whether it is a shake clear enough to undo; nil when the region holds too little structure to tell.
    ///
    /// The region is measured twice: by the darkest comb alone, as the shake thresholds were set, and counting the fine
    /// detail lost along each direction too, which finds a shake hidden behind print's own comb along its lines. A
    /// clear shake by the comb alone is taken first, then one counting the detail; failing both, the smear counting
    /// the detail when it is worth trying to undo (``isSuspected(_:documents:)``), else the comb's.
    /// - Throws: ``DocScanError`` when OpenCV fails.
    public func assessedSmear(in photo: Image, documents: [Quad]) throws(DocScanError) -> (
        blur: MotionBlur, isShake: Bool
    )? {
        guard let region = region(around: documents, in: photo) else { return nil }
        let both = try measurements(in: photo, region: region)
        var smears: [MotionBlur] = []
        for case var blur? in [both.byComb, both.byDetail] {
            if let same = smears.first(where: { $0.length == blur.length && $0.angleDegrees == blur.angleDegrees }) {
                blur = same
            } else if !isShake(blur, documents: documents) && isLongSmearCandidate(blur) {
                blur.agreeingQuarters = try quartersAgreeing(with: blur, in: photo, region: region)
            }
            smears.append(blur)
        }
        if let shake = smears.first(where: { isShake($0, documents: documents) }) { return (shake, true) }
        guard let byComb = smears.first, let byDetail = smears.last else { return nil }
        return (isSuspected(byDetail, documents: documents) ? byDetail : byComb, false)
    }

    /// Whether a smear that is not a clear shake is still worth undoing for a recognizer to judge, in a photo of
    /// documents outlined by `documents`: its notches and its loss of fine detail along it are more than print alone
    /// usually shows (more still when it runs along a document's sides or lines), and it is longer than a stroke is
    /// wide.
    public func isSuspected(_ blur: MotionBlur, documents: [Quad]) -> Bool {
        guard blur.length >= suspectedLength && blur.notchDepth >= suspectedNotches else { return false }
        let inLine = runsInLine(blur, withAnyOf: documents)
        return blur.anisotropy >= (inLine ? max(suspectedAnisotropy, suspectedAlignedAnisotropy) : suspectedAnisotropy)
    }

    /// Whether a measurement is a shake clear enough to undo, in a photo of documents outlined by `documents`.
    public func isShake(_ blur: MotionBlur, documents: [Quad]) -> Bool {
        if isLongSmearCandidate(blur), let agreeing = blur.agreeingQuarters, agreeing >= agreeingQuartersNeeded {
            return true
        }
        if runsInLine(blur, withAnyOf: documents) && blur.anisotropy < alignedAnisotropy { return false }
        return (blur.notchDepth >= deepNotches && blur.anisotropy >= minimumAnisotropy)
            || (blur.notchDepth >= shallowNotches && blur.anisotropy >= strongAnisotropy)
    }

    /// Whether a smear runs along the sides or lines of any of `documents`, within ``alignedWithinDegrees``.
    func runsInLine(_ blur: MotionBlur, withAnyOf documents: [Quad]) -> Bool {
        documents.contains { Self.isInLine(blur.angleDegrees, withSidesOf: $0, margin: alignedWithinDegrees) }
    }

    /// Whether a measurement is a long smear with enough notches and loss of detail for its quarters to decide.
    func isLongSmearCandidate(_ blur: MotionBlur) -> Bool {
        blur.length >= longSmear && blur.notchDepth >= longSmearNotches && blur.anisotropy >= longSmearAnisotropy
    }

    /// How many of the four quarters of `region` show `blur` on their own: the darkest comb of each, chosen by its
    /// depth alone, as the thresholds were set (with the loss of detail counted too, quarters of sharp print agree
    /// more often, and quarters of a long shake less: seed 7009's `page-with-long-shake.jpg` lost two of its three).
    func quartersAgreeing(with blur: MotionBlur, in photo: Image, region: PixelRegion) throws(DocScanError) -> Int {
        var agreeing = 0
        let halfWidth = region.width / 2, halfHeight = region.height / 2
        for (column, row) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
            let quarter = PixelRegion(
                x: region.x + column * halfWidth, y: region.y + row * halfHeight, width: halfWidth, height: halfHeight)
            if let own = try measure(in: photo, region: quarter, weighingDetailLoss: false), agrees(own, with: blur) {
                agreeing += 1
            }
        }
        return agreeing
    }

    /// Whether a quarter's smear is the region's: within ``quarterAngleTolerance`` degrees and
    /// ``quarterLengthTolerance`` of its length.
    func agrees(_ own: MotionBlur, with blur: MotionBlur) -> Bool {
        let turn = abs((own.angleDegrees - blur.angleDegrees).truncatingRemainder(dividingBy: 180))
        return min(turn, 180 - turn) <= quarterAngleTolerance
            && abs(own.length / blur.length - 1) <= quarterLengthTolerance
    }

    /// The part of `photo` a shake is measured and removed in: the documents' outlines with a margin of
    /// ``documentMargin`` pixels, clipped to the photo; nil when nothing is left.
    public func region(around documents: [Quad], in photo: Image) -> PixelRegion? {
        PixelRegion.covering(documents, margin: documentMargin, width: photo.width, height: photo.height)
    }

    /// Whether `degrees` lies among the directions of a document's sides and its lines of print, `margin` degrees
    /// either side. Directions are compared a quarter turn apart (across the lines is as structured as along them);
    /// under perspective the lines inside a page run at every angle between those of its opposite sides.
    public static func isInLine(_ degrees: Double, withSidesOf quad: Quad, margin: Double) -> Bool {
        let corners = quad.corners
        let sides = (0..<4).map { i -> Double in
            let a = corners[i], b = corners[(i + 1) % 4]
            return atan2(b.y - a.y, b.x - a.x) * 180 / .pi
        }
        // Offsets from the sides' mean direction, folded to a quarter turn (-45...45).
        func folded(_ angle: Double) -> Double {
            let r = (angle.truncatingRemainder(dividingBy: 90) + 90).truncatingRemainder(dividingBy: 90)
            return r >= 45 ? r - 90 : r
        }
        let x = sides.map { cos($0 * 4 * .pi / 180) }.reduce(0, +), y = sides.map { sin($0 * 4 * .pi / 180) }.reduce(0, +)
        let mean = atan2(y, x) * 180 / .pi / 4
        let offsets = sides.map { folded($0 - mean) }
        let offset = folded(degrees - mean)
        return offset >= offsets.min()! - margin && offset <= offsets.max()! + margin
    }

    /// The photo with `blur` divided out of the pixels inside `region` (the whole photo when nil); the rest is
    /// unchanged.
    /// - Throws: ``DocScanError`` when the region lies outside the photo, the length is not 1...64 pixels, or OpenCV
    ///   fails.
    public func removing(_ blur: MotionBlur, from photo: Image, region: PixelRegion? = nil) throws(DocScanError)
        -> Image
    {
        let region = region ?? PixelRegion(x: 0, y: 0, width: photo.width, height: photo.height)
        return try Image.make("motion blur removal") {
            ds_remove_motion_blur(photo.storage.handle, blur.length, blur.angleDegrees, region.shimValue, $0)
        }
    }
}

/// A rectangle of whole pixels.
public struct PixelRegion: Sendable, Equatable {
    /// Left column.
    public var x: Int
    /// Top row.
    public var y: Int
    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int

    /// Creates a region.
    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// The pixels covering `quads` with `margin` pixels round them, clipped to a `width` × `height` image; nil when
    /// nothing is left.
    public static func covering(_ quads: [Quad], margin: Double, width: Int, height: Int) -> PixelRegion? {
        let points = quads.flatMap(\.corners)
        guard let minX = points.map(\.x).min(), let maxX = points.map(\.x).max(), let minY = points.map(\.y).min(),
            let maxY = points.map(\.y).max()
        else { return nil }
        let left = max(0, Int((minX - margin).rounded(.down))), top = max(0, Int((minY - margin).rounded(.down)))
        let right = min(width, Int((maxX + margin).rounded(.up)) + 1)
        let bottom = min(height, Int((maxY + margin).rounded(.up)) + 1)
        guard right > left, bottom > top else { return nil }
        return PixelRegion(x: left, y: top, width: right - left, height: bottom - top)
    }

    var shimValue: [Int32] { [Int32(x), Int32(y), Int32(width), Int32(height)] }
}
