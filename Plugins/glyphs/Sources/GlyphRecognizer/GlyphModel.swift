import Foundation

/// The examples the glyph classifier compares with: each training glyph of `model.json` (written by
/// `Plugins/glyphs/train.py`) as its character and feature vector.
public struct GlyphModel: Sendable {
    /// The characters it knows.
    public let alphabet: String
    let labels: [Character]
    /// `labels.count` feature vectors of ``GlyphFeatures/count`` values each, one after the other.
    let features: [Float]

    /// Reads `model.json`.
    /// - Throws: a message naming the file when it is missing or not a glyph model.
    public init(contentsOf url: URL) throws {
        struct Stored: Decodable {
            /// `[char, width, height, size, rise, bits]`, as `sample_fields` names them.
            struct Sample: Decodable {
                var char: String
                var width: Int
                var height: Int
                var size: Double
                var rise: Double
                var bits: String

                init(from decoder: any Decoder) throws {
                    var fields = try decoder.unkeyedContainer()
                    char = try fields.decode(String.self)
                    width = try fields.decode(Int.self)
                    height = try fields.decode(Int.self)
                    size = try fields.decode(Double.self)
                    rise = try fields.decode(Double.self)
                    bits = try fields.decode(String.self)
                }
            }
            var alphabet: String
            var samples: [Sample]
        }
        let stored: Stored
        do {
            stored = try JSONDecoder().decode(Stored.self, from: Data(contentsOf: url))
        } catch {
            throw GlyphModelError("cannot read the glyph model \(url.path): \(error.localizedDescription)")
        }
        var labels: [Character] = [], features: [Float] = []
        for sample in stored.samples {
            guard let char = sample.char.first, let mask = Self.mask(base64: sample.bits, count: sample.width * sample.height)
            else { throw GlyphModelError("the glyph model \(url.path) holds a sample that is not a bitmap") }
            labels.append(char)
            features += GlyphFeatures.vector(
                mask: mask, width: sample.width, height: sample.height, size: sample.size, rise: sample.rise)
        }
        guard !labels.isEmpty else { throw GlyphModelError("the glyph model \(url.path) has no samples") }
        alphabet = stored.alphabet
        self.labels = labels
        self.features = features
    }

    /// The `k` nearest examples' votes for `vector`, among the characters `allowed` lets through (all when nil):
    /// the winner and the share of the votes it got.
    func classify(_ vector: [Float], k: Int = 5, allowed: Set<Character>? = nil) -> (Character, Double)? {
        let n = GlyphFeatures.count
        var nearest: [(distance: Float, label: Character)] = []
        features.withUnsafeBufferPointer { all in
            vector.withUnsafeBufferPointer { v in
                for index in labels.indices {
                    if let allowed, !allowed.contains(labels[index]) { continue }
                    let base = index * n
                    var distance: Float = 0
                    for j in 0..<n {
                        let d = all[base + j] - v[j]
                        distance += d * d
                    }
                    if nearest.count < k {
                        nearest.append((distance, labels[index]))
                        nearest.sort { $0.distance < $1.distance }
                    } else if distance < nearest[k - 1].distance {
                        nearest[k - 1] = (distance, labels[index])
                        nearest.sort { $0.distance < $1.distance }
                    }
                }
            }
        }
        guard !nearest.isEmpty else { return nil }
        // Votes weighted by rank break ties towards the closest example.
        var votes: [Character: Double] = [:]
        for (rank, neighbour) in nearest.enumerated() { votes[neighbour.label, default: 0] += 1 + 0.01 * Double(k - rank) }
        let winner = votes.max { $0.value < $1.value }!.key
        let share = Double(nearest.filter { $0.label == winner }.count) / Double(nearest.count)
        return (winner, share)
    }

    /// The glyph's pixels, row after row, from `bits`: base64 of their bits, the first pixel in the first byte's
    /// highest bit, padded with zeros to a whole byte.
    private static func mask(base64 bits: String, count: Int) -> [Bool]? {
        guard let bytes = Data(base64Encoded: bits), bytes.count * 8 >= count else { return nil }
        return (0..<count).map { bytes[bytes.startIndex + $0 / 8] >> (7 - $0 % 8) & 1 == 1 }
    }
}

/// A glyph model that cannot be used.
public struct GlyphModelError: Error, CustomStringConvertible {
    public var description: String
    init(_ description: String) { self.description = description }
}

/// What the classifier compares: the glyph's ink scaled into a 16×16 grid (aspect kept, centred), plus its aspect
/// ratio, its height and how far its bottom sits above the baseline (both in capital heights), weighted to count as
/// much as a few rows of the grid.
enum GlyphFeatures {
    static let grid = 16
    static let count = grid * grid + 3

    static func vector(mask: [Bool], width: Int, height: Int, size: Double, rise: Double) -> [Float] {
        var cells = [Float](repeating: 0, count: grid * grid)
        let scale = Double(grid) / Double(max(width, height))
        let offsetX = (Double(grid) - Double(width) * scale) / 2, offsetY = (Double(grid) - Double(height) * scale) / 2
        // Each cell is the share of ink among 4×4 points spread over it (the glyph is scaled up or down to fit).
        let steps = 4
        for cy in 0..<grid {
            for cx in 0..<grid {
                var ink = 0
                for sy in 0..<steps {
                    let y = Int(floor(((Double(cy) + (Double(sy) + 0.5) / Double(steps)) - offsetY) / scale))
                    guard y >= 0 && y < height else { continue }
                    for sx in 0..<steps {
                        let x = Int(floor(((Double(cx) + (Double(sx) + 0.5) / Double(steps)) - offsetX) / scale))
                        if x >= 0 && x < width && mask[y * width + x] { ink += 1 }
                    }
                }
                cells[cy * grid + cx] = Float(ink) / Float(steps * steps)
            }
        }
        let aspect = Float(log(Double(width) / Double(height)))
        return cells + [2 * aspect, 3 * Float(size), 3 * Float(rise)]
    }
}
