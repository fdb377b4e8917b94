/// The dark connected components of a gray image: which component each pixel belongs to, and each component's
/// bounding box. Letters, a form's checkboxes and specks of noise are each one component (or a few, where blur breaks
/// a stroke or joins letters).
struct InkComponents {
    /// A component's bounding box in pixels, its edges inclusive.
    struct Box {
        var left: Int
        var top: Int
        var right: Int
        var bottom: Int
        /// How many pixels of the component there are.
        var area = 0

        var width: Int { right - left + 1 }
        var height: Int { bottom - top + 1 }
    }

    /// Width of the labelled image.
    let width: Int
    /// Each pixel's component (an index into ``boxes``), row by row, or -1 where the pixel is not ink.
    let labels: [Int32]
    /// Each component's bounding box.
    let boxes: [Box]

    /// The components of the pixels of `pixels` darker than `level`, joined through their sides, and through their
    /// corners too when `throughCorners` (so that a thin drawn line that steps diagonally stays one component).
    init(_ pixels: GrayPixels, darkerThan level: UInt8, throughCorners: Bool) {
        let w = pixels.width, h = pixels.height
        var labels = [Int32](repeating: -1, count: w * h)
        var parent: [Int32] = []
        func find(_ a: Int32) -> Int32 {
            var a = a
            while parent[Int(a)] != a {
                parent[Int(a)] = parent[Int(parent[Int(a)])]
                a = parent[Int(a)]
            }
            return a
        }
        func union(_ a: Int32, _ b: Int32) -> Int32 {
            let ra = find(a), rb = find(b)
            if ra == rb { return ra }
            parent[Int(max(ra, rb))] = min(ra, rb)
            return min(ra, rb)
        }
        // Union-find over the pixels in one pass, with the neighbours already labelled (left, and the row above).
        for y in 0..<h {
            for x in 0..<w where pixels.bytes[y * w + x] < level {
                var label: Int32 = -1
                func join(_ neighbour: Int32) {
                    guard neighbour >= 0 else { return }
                    label = label < 0 ? find(neighbour) : union(label, neighbour)
                }
                if x > 0 { join(labels[y * w + x - 1]) }
                if y > 0 {
                    join(labels[(y - 1) * w + x])
                    if throughCorners {
                        if x > 0 { join(labels[(y - 1) * w + x - 1]) }
                        if x + 1 < w { join(labels[(y - 1) * w + x + 1]) }
                    }
                }
                if label < 0 {
                    label = Int32(parent.count)
                    parent.append(label)
                }
                labels[y * w + x] = label
            }
        }
        // Each root becomes a component, numbered in the order roots were made.
        var index = [Int32](repeating: -1, count: parent.count)
        var boxes: [Box] = []
        for r in parent.indices where parent[r] == Int32(r) {
            index[r] = Int32(boxes.count)
            boxes.append(Box(left: Int.max, top: Int.max, right: -1, bottom: -1))
        }
        for y in 0..<h {
            for x in 0..<w where labels[y * w + x] >= 0 {
                let c = index[Int(find(labels[y * w + x]))]
                labels[y * w + x] = c
                boxes[Int(c)].left = min(boxes[Int(c)].left, x)
                boxes[Int(c)].top = min(boxes[Int(c)].top, y)
                boxes[Int(c)].right = max(boxes[Int(c)].right, x)
                boxes[Int(c)].bottom = max(boxes[Int(c)].bottom, y)
                boxes[Int(c)].area += 1
            }
        }
        self.width = w
        self.labels = labels
        self.boxes = boxes
    }

    /// Whether the pixel at (`x`, `y`) belongs to component `component`.
    func contains(_ component: Int, x: Int, y: Int) -> Bool {
        labels[y * width + x] == Int32(component)
    }
}
