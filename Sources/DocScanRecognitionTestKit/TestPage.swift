import DocScanRecognition

extension RecognizerContract {
    /// A clean page to read: `DOCSCAN 2024` in a blocky 5×7 face, each dot 6 pixels wide, black on white, with wide
    /// margins (528×162 gray pixels, 200 pixels per inch). Drawn here, so the kit needs no image file or font.
    public static let testPage: PageImage = {
        let text = "DOCSCAN 2024"
        let dot = 6, margin = 60
        let columns = text.reduce(0) { $0 + ($1 == " " ? 3 : 6) } - 1
        let width = 2 * margin + columns * dot, height = 2 * margin + 7 * dot
        var pixels = [UInt8](repeating: 255, count: width * height)
        var x = margin
        for character in text {
            guard let rows = glyphs[character] else {
                x += 3 * dot
                continue
            }
            for (row, bits) in rows.enumerated() {
                for (column, bit) in bits.enumerated() where bit == "1" {
                    for dy in 0..<dot {
                        let start = (margin + row * dot + dy) * width + x + column * dot
                        for dx in 0..<dot { pixels[start + dx] = 0 }
                    }
                }
            }
            x += 6 * dot
        }
        return try! PageImage(width: width, height: height, pixelFormat: .gray, pixels: pixels, resolution: 200)
    }()

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
