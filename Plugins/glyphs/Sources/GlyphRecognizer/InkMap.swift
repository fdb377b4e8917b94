import DocScanRecognition

/// A page's ink: dark pixels by Otsu's threshold, their connected components (8-connected), and the components
/// gathered into text lines and glyphs.
struct InkMap {
    /// A glyph: one component, or several stacked ones (a colon's dots, the bars of `#` drawn apart).
    struct Component {
        var labels: [Int32]
        var minX: Int, minY: Int, maxX: Int, maxY: Int
        var pixels: Int

        var width: Int { maxX - minX + 1 }
        var height: Int { maxY - minY + 1 }

        mutating func absorb(_ other: Component) {
            labels += other.labels
            minX = min(minX, other.minX)
            minY = min(minY, other.minY)
            maxX = max(maxX, other.maxX)
            maxY = max(maxY, other.maxY)
            pixels += other.pixels
        }
    }

    let width: Int
    let height: Int
    /// Per pixel, its component's label (0 for paper).
    private var labels: [Int32]
    private var components: [Component] = []

    init(_ page: PageImage) {
        width = page.width
        height = page.height
        var gray = [UInt8](repeating: 0, count: width * height)
        if page.pixelFormat == .gray {
            gray = page.pixels
        } else {
            for i in 0..<(width * height) {
                let r = Int(page.pixels[3 * i]), g = Int(page.pixels[3 * i + 1]), b = Int(page.pixels[3 * i + 2])
                gray[i] = UInt8((299 * r + 587 * g + 114 * b) / 1000)
            }
        }
        let threshold = Self.otsu(gray)
        labels = [Int32](repeating: 0, count: width * height)
        label(gray, threshold: threshold)
    }

    /// The components that look like glyphs, gathered into lines (top to bottom), each sorted left to right, with
    /// components stacked over each other joined.
    func lines() -> [[Component]] {
        // Too small to be print (a hyphen may be short but is wide), or too large (rules, frames, pictures; a short
        // label's print may fill a good part of its height).
        // Ink touching the page's edge is the edge of the sheet or what lies beyond it, not print.
        let candidates = components.filter {
            $0.pixels >= 6 && ($0.height >= 4 || $0.width >= 6) && 5 * $0.height < 3 * height && 2 * $0.width < width
                && $0.minX > 0 && $0.minY > 0 && $0.maxX < width - 1 && $0.maxY < height - 1
        }.sorted { ($0.minY + $0.maxY) < ($1.minY + $1.maxY) }
        var lines: [(top: Int, bottom: Int, members: [Component])] = []
        for component in candidates {
            // The line whose band this component overlaps most, by at least half of the smaller height.
            var best: Int?
            var bestOverlap = 0
            for (index, line) in lines.enumerated() {
                let overlap = min(line.bottom, component.maxY) - max(line.top, component.minY) + 1
                let needed = max(1, min(line.bottom - line.top + 1, component.height) / 2)
                if overlap >= needed && overlap > bestOverlap {
                    best = index
                    bestOverlap = overlap
                }
            }
            if let best {
                lines[best].members.append(component)
                lines[best].top = min(lines[best].top, component.minY)
                lines[best].bottom = max(lines[best].bottom, component.maxY)
            } else {
                lines.append((component.minY, component.maxY, [component]))
            }
        }
        return lines.sorted { $0.top < $1.top }.map { line in
            var glyphs: [Component] = []
            for component in line.members.sorted(by: { $0.minX < $1.minX }) {
                // Stacked over the previous glyph (mostly the same columns): part of it.
                if var last = glyphs.last {
                    let shared = min(last.maxX, component.maxX) - max(last.minX, component.minX) + 1
                    if Double(shared) >= 0.6 * Double(min(last.width, component.width)) {
                        last.absorb(component)
                        glyphs[glyphs.count - 1] = last
                        continue
                    }
                }
                glyphs.append(component)
            }
            return glyphs
        }
    }

    /// The glyph's ink, row by row over its box.
    func mask(of glyph: Component) -> [Bool] {
        let members = Set(glyph.labels)
        var mask = [Bool](repeating: false, count: glyph.width * glyph.height)
        for y in glyph.minY...glyph.maxY {
            for x in glyph.minX...glyph.maxX {
                let label = labels[y * width + x]
                if label != 0 && members.contains(label) { mask[(y - glyph.minY) * glyph.width + x - glyph.minX] = true }
            }
        }
        return mask
    }

    // MARK: - Building

    /// Otsu's threshold: the gray level that best splits the histogram into two classes.
    private static func otsu(_ gray: [UInt8]) -> UInt8 {
        var histogram = [Double](repeating: 0, count: 256)
        for value in gray { histogram[Int(value)] += 1 }
        let total = Double(gray.count)
        let sum = histogram.enumerated().reduce(0.0) { $0 + Double($1.offset) * $1.element }
        var backgroundWeight = 0.0, backgroundSum = 0.0, best = 0.0
        var threshold: UInt8 = 128
        for level in 0..<256 {
            backgroundWeight += histogram[level]
            guard backgroundWeight > 0 else { continue }
            let foregroundWeight = total - backgroundWeight
            guard foregroundWeight > 0 else { break }
            backgroundSum += Double(level) * histogram[level]
            let meanBackground = backgroundSum / backgroundWeight
            let meanForeground = (sum - backgroundSum) / foregroundWeight
            let between = backgroundWeight * foregroundWeight * (meanBackground - meanForeground) * (meanBackground - meanForeground)
            if between > best {
                best = between
                threshold = UInt8(level)
            }
        }
        return threshold
    }

    /// Two-pass labelling with union-find; fills `labels` and `components`.
    private mutating func label(_ gray: [UInt8], threshold: UInt8) {
        var parent: [Int32] = [0]
        func find(_ x: Int32) -> Int32 {
            var x = x
            while parent[Int(x)] != x {
                parent[Int(x)] = parent[Int(parent[Int(x)])]
                x = parent[Int(x)]
            }
            return x
        }
        for y in 0..<height {
            for x in 0..<width where gray[y * width + x] <= threshold {
                var neighbours: [Int32] = []
                if x > 0, labels[y * width + x - 1] != 0 { neighbours.append(labels[y * width + x - 1]) }
                if y > 0 {
                    for dx in -1...1 where x + dx >= 0 && x + dx < width {
                        let above = labels[(y - 1) * width + x + dx]
                        if above != 0 { neighbours.append(above) }
                    }
                }
                if neighbours.isEmpty {
                    let new = Int32(parent.count)
                    parent.append(new)
                    labels[y * width + x] = new
                } else {
                    let roots = neighbours.map(find)
                    let root = roots.min()!
                    for other in roots where other != root { parent[Int(other)] = root }
                    labels[y * width + x] = root
                }
            }
        }
        var index: [Int32: Int] = [:]
        for y in 0..<height {
            for x in 0..<width where labels[y * width + x] != 0 {
                let root = find(labels[y * width + x])
                labels[y * width + x] = root
                if let k = index[root] {
                    components[k].minX = min(components[k].minX, x)
                    components[k].maxX = max(components[k].maxX, x)
                    components[k].maxY = y
                    components[k].pixels += 1
                } else {
                    index[root] = components.count
                    components.append(Component(labels: [root], minX: x, minY: y, maxX: x, maxY: y, pixels: 1))
                }
            }
        }
    }
}
