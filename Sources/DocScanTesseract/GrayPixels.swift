import DocScanGeometry
import DocScanRecognition

/// An 8-bit gray copy of a page that the engine reads, with the scale from page pixels to its pixels.
struct GrayPixels: Sendable {
    var width: Int
    var height: Int
    var bytes: [UInt8]

    /// The page in gray (luma from RGB with the Rec. 601 weights).
    init(_ page: PageImage) {
        width = page.width
        height = page.height
        switch page.pixelFormat {
        case .gray:
            bytes = page.pixels
        case .rgb:
            bytes = [UInt8](unsafeUninitializedCapacity: page.width * page.height) { buffer, count in
                page.pixels.withUnsafeBufferPointer { rgb in
                    for i in 0..<(page.width * page.height) {
                        let r = UInt32(rgb[3 * i]), g = UInt32(rgb[3 * i + 1]), b = UInt32(rgb[3 * i + 2])
                        buffer[i] = UInt8((299 * r + 587 * g + 114 * b + 500) / 1000)
                    }
                }
                count = page.width * page.height
            }
        }
    }

    init(width: Int, height: Int, bytes: [UInt8]) {
        self.width = width
        self.height = height
        self.bytes = bytes
    }

    /// A copy with faint print darkened, as the levels' extra readings use it: ``stretched(black:white:)`` from half
    /// the paper level to 97% of it.
    func withFaintPrintDarkened() -> GrayPixels { stretched(black: 0.5, white: 0.97) }

    /// A copy in which the paper's grain is white: values from the ``paperGrainFloor`` up become white, darker ones
    /// are stretched linearly from black. Paper left speckled gray (JPEG noise, a texture, a form's shaded fields)
    /// can turn, under Tesseract's one global threshold, into dots that its layout analysis takes for a picture, and
    /// the print on it is dropped with it. Read this way, seed 127000 prose-01 went from 18.4% to 8.7% CER and its
    /// receipt-05 from 16.6% to 10.6%; the page as it is still reads better on most pages (a faded receipt's strokes
    /// are no darker than the grain), so this is one of `accurate`'s other readings, not its first.
    func withPaperGrainWhitened() -> GrayPixels {
        let white = max(1, paperGrainFloor)
        let table = (0..<256).map { v in UInt8(min(255, (Double(v) * 255 / Double(white)).rounded())) }
        return GrayPixels(width: width, height: height, bytes: bytes.map { table[Int($0)] })
    }

    /// The level under which the paper's own grain rarely falls: the median of the paper's values (those at least 0.8
    /// of the ``paperLevel``) less three of their deviations, estimated from the quartile below the median.
    var paperGrainFloor: Int {
        let histogram = histogram
        let paperFrom = Int((0.8 * Double(Self.paperLevel(in: histogram))).rounded(.up))
        let paperValues = histogram[paperFrom...].reduce(0, +)
        guard paperValues > 0 else { return 255 }
        // The value at which `share` of the paper's values are reached, counting up from the darkest.
        func value(reaching share: Int) -> Int {
            var seen = 0
            for v in paperFrom..<256 {
                seen += histogram[v]
                if seen >= share { return v }
            }
            return 255
        }
        let quartile = value(reaching: paperValues / 4), median = value(reaching: paperValues / 2)
        let deviation = Double(median - quartile) / 0.674
        return max(paperFrom, Int((Double(median) - 3 * deviation).rounded()))
    }

    /// A copy with its contrast stretched for faint print: values up to `black` of the ``paperLevel`` become black,
    /// values from `white` of it become white, linearly between.
    func stretched(black: Double, white: Double) -> GrayPixels {
        let paper = Double(paperLevel)
        let low = black * paper, high = max(low + 1, white * paper)
        let table = (0..<256).map { v in UInt8(max(0, min(255, ((Double(v) - low) / (high - low) * 255).rounded()))) }
        return GrayPixels(width: width, height: height, bytes: bytes.map { table[Int($0)] })
    }

    /// A copy scaled by `factor` (< 1 shrinks by area averaging, > 1 enlarges bilinearly).
    func scaled(by factor: Double) -> GrayPixels {
        let newWidth = max(1, Int((Double(width) * factor).rounded()))
        let newHeight = max(1, Int((Double(height) * factor).rounded()))
        if newWidth == width && newHeight == height { return self }
        var out = [UInt8](repeating: 0, count: newWidth * newHeight)
        let sx = Double(width) / Double(newWidth), sy = Double(height) / Double(newHeight)
        bytes.withUnsafeBufferPointer { source in
            if factor < 1 {
                // Box filter over each target pixel's footprint (whole source pixels, which is plenty for text): each
                // source row summed over the footprints' columns, then those sums added over the footprints' rows.
                let starts = (0..<newWidth).map { x in Int(Double(x) * sx) }
                let ends = (0..<newWidth).map { x in max(starts[x] + 1, min(width, Int(Double(x + 1) * sx))) }
                var sums = [Int](repeating: 0, count: newWidth)
                starts.withUnsafeBufferPointer { starts in
                    ends.withUnsafeBufferPointer { ends in
                        sums.withUnsafeMutableBufferPointer { sums in
                            out.withUnsafeMutableBufferPointer { out in
                                for y in 0..<newHeight {
                                    let y0 = Int(Double(y) * sy), y1 = max(y0 + 1, min(height, Int(Double(y + 1) * sy)))
                                    for x in 0..<newWidth { sums[x] = 0 }
                                    for yy in y0..<y1 {
                                        let row = source.baseAddress! + yy * width
                                        for x in 0..<newWidth {
                                            var sum = 0
                                            for xx in starts[x]..<ends[x] { sum += Int(row[xx]) }
                                            sums[x] += sum
                                        }
                                    }
                                    for x in 0..<newWidth {
                                        out[y * newWidth + x] = UInt8(sums[x] / ((y1 - y0) * (ends[x] - starts[x])))
                                    }
                                }
                            }
                        }
                    }
                }
            } else {
                for y in 0..<newHeight {
                    let fy = max(0, (Double(y) + 0.5) * sy - 0.5)
                    let y0 = min(height - 1, Int(fy)), y1 = min(height - 1, y0 + 1), wy = fy - Double(y0)
                    for x in 0..<newWidth {
                        let fx = max(0, (Double(x) + 0.5) * sx - 0.5)
                        let x0 = min(width - 1, Int(fx)), x1 = min(width - 1, x0 + 1), wx = fx - Double(x0)
                        let top = Double(source[y0 * width + x0]) * (1 - wx) + Double(source[y0 * width + x1]) * wx
                        let bottom = Double(source[y1 * width + x0]) * (1 - wx) + Double(source[y1 * width + x1]) * wx
                        out[y * newWidth + x] = UInt8((top * (1 - wy) + bottom * wy).rounded())
                    }
                }
            }
        }
        return GrayPixels(width: newWidth, height: newHeight, bytes: out)
    }

    /// The pixels turned by `quarterTurns` × 90° clockwise.
    func rotated(quarterTurns: Int) -> GrayPixels {
        let k = ((quarterTurns % 4) + 4) % 4
        if k == 0 { return self }
        let newWidth = k % 2 == 0 ? width : height, newHeight = k % 2 == 0 ? height : width
        var out = [UInt8](repeating: 0, count: bytes.count)
        for y in 0..<height {
            for x in 0..<width {
                let (nx, ny): (Int, Int)
                switch k {
                case 1: (nx, ny) = (height - 1 - y, x)
                case 2: (nx, ny) = (width - 1 - x, height - 1 - y)
                default: (nx, ny) = (y, width - 1 - x)
                }
                out[ny * newWidth + nx] = bytes[y * width + x]
            }
        }
        return GrayPixels(width: newWidth, height: newHeight, bytes: out)
    }

    /// A copy of a rectangle (clipped to the image).
    func cropped(x: Int, y: Int, width w: Int, height h: Int) -> GrayPixels {
        let x0 = max(0, x), y0 = max(0, y), x1 = min(width, x + w), y1 = min(height, y + h)
        guard x1 > x0, y1 > y0 else { return GrayPixels(width: 1, height: 1, bytes: [255]) }
        var out: [UInt8] = []
        out.reserveCapacity((x1 - x0) * (y1 - y0))
        for row in y0..<y1 { out += bytes[(row * width + x0)..<(row * width + x1)] }
        return GrayPixels(width: x1 - x0, height: y1 - y0, bytes: out)
    }

    /// The gray levels below which fractions `upper` and `lower` of the pixels lie (the paper and the darkest ink, for
    /// 0.9 and 0.01 on a page).
    func percentiles(_ upper: Double, _ lower: Double) -> (upper: Int, lower: Int) {
        var histogram = [Int](repeating: 0, count: 256)
        for v in bytes { histogram[Int(v)] += 1 }
        func percentile(_ p: Double) -> Int {
            let target = Int(Double(bytes.count) * p)
            var sum = 0
            for (value, n) in histogram.enumerated() {
                sum += n
                if sum > target { return value }
            }
            return 255
        }
        return (percentile(upper), percentile(lower))
    }

    /// The characters a page shows, as its dark connected components of letter-like size, measured on a copy at most
    /// 1200 pixels across: their median height in page pixels, how many there are (letters that blur or small print
    /// joins count as one), and their centres in page pixels. Nil when the page shows fewer than 20.
    func glyphs() -> (typicalHeight: Double, count: Int, centres: [Point])? {
        let factor = min(1, 1200 / Double(max(width, height)))
        let small = scaled(by: factor)
        let h = small.height
        // Ink: darker than a global level halfway between the paper (upper percentile) and the darkest tenth.
        let (paper, dark) = small.percentiles(0.9, 0.01)
        guard paper - dark > 40 else { return nil }
        let level = UInt8((paper + dark) / 2)
        let components = InkComponents(small, darkerThan: level, throughCorners: false)
        var heights: [Int] = []
        var centres: [Point] = []
        for box in components.boxes {
            let ch = box.height, cw = box.width
            // Letters: not specks, not rules or pictures, not much wider than tall unless joined by blur, and not
            // the bars of a barcode (tall and thin: they are darker than faint print and would set the size).
            if ch >= 3, ch <= h / 8, cw <= 4 * ch, cw >= 1, !(ch >= 12 && ch > 4 * cw) {
                heights.append(ch)
                let x = Double(box.left + box.right + 1) / 2, y = Double(box.top + box.bottom + 1) / 2
                centres.append(Point(x: x / factor, y: y / factor))
            }
        }
        guard heights.count >= 20 else { return nil }
        heights.sort()
        return (Double(heights[heights.count / 2]) / factor, heights.count, centres)
    }
}
