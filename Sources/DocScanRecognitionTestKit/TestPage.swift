import DocScanRecognition

extension RecognizerContract {
    /// A clean page to read: `DOCSCAN 2024` in a blocky 5×7 face, each dot 6 pixels wide, black on white, with wide
    /// margins (528×162 gray pixels, 200 pixels per inch). Drawn here, so the kit needs no image file or font.
    public static let testPage: PageImage = drawnPage(lines: [("DOCSCAN 2024", 0)])

    /// A page of `lines` in the same blocky face as ``testPage`` (the characters of `DOCSCAN 2024` only; others are
    /// left blank), each line in its own ink level on paper of level `paper`, lines 2 characters' height apart, with
    /// margins of 60 pixels (200 pixels per inch).
    public static func drawnPage(lines: [(text: String, ink: UInt8)], paper: UInt8 = 255) -> PageImage {
        let dot = 6, margin = 60, lineHeight = 14 * dot
        let columns = lines.map { $0.text.reduce(0) { $0 + ($1 == " " ? 3 : 6) } - 1 }.max() ?? 0
        let width = 2 * margin + columns * dot, height = 2 * margin + (lines.count - 1) * lineHeight + 7 * dot
        var pixels = [UInt8](repeating: paper, count: width * height)
        for (index, line) in lines.enumerated() {
            let top = margin + index * lineHeight
            var x = margin
            for character in line.text {
                guard let rows = glyphs[character] else {
                    x += 3 * dot
                    continue
                }
                for (row, bits) in rows.enumerated() {
                    for (column, bit) in bits.enumerated() where bit == "1" {
                        for dy in 0..<dot {
                            let start = (top + row * dot + dy) * width + x + column * dot
                            for dx in 0..<dot { pixels[start + dx] = line.ink }
                        }
                    }
                }
                x += 6 * dot
            }
        }
        return try! PageImage(width: width, height: height, pixelFormat: .gray, pixels: pixels, resolution: 200)
    }

    private static let glyphs: [Character: [String]] = [
        "D": ["11110", "10001", "10001", "10001", "10001", "10001", "11110"],
        "O": ["01110", "10001", "10001", "10001", "10001", "10001", "01110"],
        "C": ["01110", "10001", "10000", "10000", "10000", "10001", "01110"],
        "S": ["01111", "10000", "10000", "01110", "00001", "00001", "11110"],
        "A": ["01110", "10001", "10001", "11111", "10001", "10001", "10001"],
        "N": ["10001", "11001", "10101", "10011", "10001", "10001", "10001"],
        "2": ["01110", "10001", "00001", "00010", "00100", "01000", "11111"],
        "0": ["01110", "10001", "10011", "10101", "11001", "10001", "01110"],
        "4": ["00010", "00110", "01010", "10010", "11111", "00010", "00010"],
    ]
}
