/// One step of the word-by-word alignment of a reading with the true text, for showing what a recognizer got wrong.
public enum WordDifference: Sendable, Equatable {
    /// A word read as it is in the truth.
    case same(String)
    /// A true word the reading lacks (deleted, or the true side of a substitution).
    case missing(String)
    /// A word the reading has that the truth does not (inserted, or the read side of a substitution).
    case extra(String)

    /// The alignment of `reading` with `truth` that takes the fewest word edits (the one ``TextErrorRate/words(_:truth:_:)``
    /// counts), in reading order. Both texts are normalised as for ``TextErrorRate`` first. A substitution is written
    /// as the missing true word followed by the extra read one.
    public static func between(
        _ reading: String, truth: String, _ options: TextErrorRate.Normalization = .init()
    ) -> [WordDifference] {
        let read = TextErrorRate.normalize(reading, options).split(separator: " ").map(String.init)
        let trueWords = TextErrorRate.normalize(truth, options).split(separator: " ").map(String.init)
        let (m, n) = (read.count, trueWords.count)
        let columns = n + 1
        // rest[i * columns + j]: edits between the words read from i on and the true words from j on. Walking
        // forward through it and taking matches first keeps the alignment in reading order, with matches as early
        // as the fewest edits allow.
        var rest = [Int](repeating: 0, count: (m + 1) * columns)
        for j in 0...n { rest[m * columns + j] = n - j }
        for i in stride(from: m - 1, through: 0, by: -1) {
            rest[i * columns + n] = m - i
            for j in stride(from: n - 1, through: 0, by: -1) {
                let diagonal = rest[(i + 1) * columns + j + 1] + (read[i] == trueWords[j] ? 0 : 1)
                rest[i * columns + j] = min(diagonal, rest[(i + 1) * columns + j] + 1, rest[i * columns + j + 1] + 1)
            }
        }
        var steps: [WordDifference] = []
        var i = 0, j = 0
        while i < m || j < n {
            let here = rest[i * columns + j]
            if i < m, j < n, read[i] == trueWords[j], here == rest[(i + 1) * columns + j + 1] {
                steps.append(.same(read[i]))
                i += 1
                j += 1
            } else if i < m, j < n, here == rest[(i + 1) * columns + j + 1] + 1 {
                steps.append(.missing(trueWords[j]))
                steps.append(.extra(read[i]))
                i += 1
                j += 1
            } else if j < n, here == rest[i * columns + j + 1] + 1 {
                steps.append(.missing(trueWords[j]))
                j += 1
            } else {
                steps.append(.extra(read[i]))
                i += 1
            }
        }
        return steps
    }
}
