extension GrayPixels {
    /// The paper's level: the 95th percentile of the values, since paper covers most of a page.
    var paperLevel: Int { Self.paperLevel(in: histogram) }

    /// How many pixels hold each of the 256 values.
    var histogram: [Int] {
        var histogram = [Int](repeating: 0, count: 256)
        for v in bytes { histogram[Int(v)] += 1 }
        return histogram
    }

    /// The ``paperLevel`` of pixels whose values are counted in `histogram`.
    static func paperLevel(in histogram: [Int]) -> Int {
        let total = histogram.reduce(0, +)
        var seen = 0
        for (value, n) in histogram.enumerated() {
            seen += n
            if seen * 100 >= total * 95 { return value }
        }
        return 255
    }

    /// A copy in which faint print is as dark as the bold print of other lines: each pixel is stretched between the
    /// paper level (white) and the darkest value within `reach` pixels of it (smoothed), which becomes black. One
    /// global threshold (Tesseract's Otsu) then keeps a receipt's faint item lines as well as its bold heading, where
    /// on the page as it is the threshold falls between the two and the faint lines turn to paper. Where the darkest
    /// value nearby is within `leastContrast` of the paper level (bare paper, a speck), the stretch is no steeper than
    /// for ink that much darker than the paper, so that the paper's grain is not raised to print.
    func withInkEvenedOut(reach: Int, leastContrast: Double = 0.14) -> GrayPixels {
        let paper = Double(paperLevel)
        let darkest = boxMean(radius: 1).minimum(radius: reach).boxMean(radius: reach)
        let least = max(1, leastContrast * paper)
        let evened = [UInt8](unsafeUninitializedCapacity: bytes.count) { buffer, count in
            for i in bytes.indices {
                let range = max(paper - Double(darkest.bytes[i]), least)
                let value = (Double(bytes[i]) - (paper - range)) / range * 255
                buffer[i] = UInt8(max(0, min(255, value.rounded())))
            }
            count = bytes.count
        }
        return GrayPixels(width: width, height: height, bytes: evened)
    }

    /// A copy in which each pixel is the smallest value within `radius` pixels along either axis (a square window).
    func minimum(radius: Int) -> GrayPixels { alongRowsThenColumns(radius: radius, Self.slidingMinimum) }

    /// A copy in which each pixel is the mean of the values within `radius` pixels along either axis (a square window,
    /// cut at the edges of the image).
    func boxMean(radius: Int) -> GrayPixels { alongRowsThenColumns(radius: radius, Self.slidingMean) }

    /// A square window's filter made of a one-dimensional one: `pass` along every row, then along every column of the
    /// result.
    private func alongRowsThenColumns(
        radius: Int,
        _ pass: (_ source: [UInt8], _ start: Int, _ stride: Int, _ count: Int, _ radius: Int, _ target: inout [UInt8])
            -> Void
    ) -> GrayPixels {
        guard radius > 0 else { return self }
        var rows = bytes
        for y in 0..<height { pass(bytes, y * width, 1, width, radius, &rows) }
        var out = rows
        for x in 0..<width { pass(rows, x, width, height, radius, &out) }
        return GrayPixels(width: width, height: height, bytes: out)
    }

    /// The minimum over a window of `radius` either side of each of `count` values of `source`, `stride` apart from
    /// `start`, written to the same places of `target`: a monotonic queue, so the cost does not grow with the radius.
    private static func slidingMinimum(
        _ source: [UInt8], start: Int, stride: Int, count: Int, radius: Int, into target: inout [UInt8]
    ) {
        var queue = [Int](repeating: 0, count: count)  // indices whose values increase from head to tail
        var head = 0, tail = 0
        var next = 0  // the next index to enter the window
        for i in 0..<count {
            while next < count && next <= i + radius {
                let value = source[start + next * stride]
                while tail > head && source[start + queue[tail - 1] * stride] >= value { tail -= 1 }
                queue[tail] = next
                tail += 1
                next += 1
            }
            while queue[head] < i - radius { head += 1 }
            target[start + i * stride] = source[start + queue[head] * stride]
        }
    }

    /// The mean over a window of `radius` either side (cut at the ends) of each of `count` values of `source`,
    /// `stride` apart from `start`, written to the same places of `target`.
    private static func slidingMean(
        _ source: [UInt8], start: Int, stride: Int, count: Int, radius: Int, into target: inout [UInt8]
    ) {
        var sum = 0
        for i in 0..<min(count, radius) { sum += Int(source[start + i * stride]) }
        for i in 0..<count {
            if i + radius < count { sum += Int(source[start + (i + radius) * stride]) }
            if i - radius - 1 >= 0 { sum -= Int(source[start + (i - radius - 1) * stride]) }
            let n = min(count - 1, i + radius) - max(0, i - radius) + 1
            target[start + i * stride] = UInt8((sum + n / 2) / n)
        }
    }
}
