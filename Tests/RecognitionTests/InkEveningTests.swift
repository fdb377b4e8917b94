import Testing

@testable import DocScanTesseract

/// The pure image operations behind `accurate`'s reading with its ink evened out.
@Suite("Ink evening")
struct InkEveningTests {
    /// A page of `paper` with a bold stroke (`bold`) in its top half and a faint one (`faint`) in its bottom half,
    /// each 4 pixels tall and 60 wide, far apart, and a grain of ±6 on bare paper elsewhere.
    static func page(paper: UInt8 = 240, bold: UInt8 = 40, faint: UInt8 = 200) -> GrayPixels {
        let width = 100, height = 120
        var bytes = [UInt8](repeating: paper, count: width * height)
        for y in 0..<height {
            for x in 0..<width where (x + 3 * y) % 7 == 0 { bytes[y * width + x] = paper - 6 }
        }
        for x in 20..<80 {
            for y in 20..<24 { bytes[y * width + x] = bold }
            for y in 90..<94 { bytes[y * width + x] = faint }
        }
        return GrayPixels(width: width, height: height, bytes: bytes)
    }

    @Test("Faint print far from bold print becomes as dark as the bold; the paper white, its grain not raised to ink")
    func faintPrintEvenedOut() {
        let page = Self.page()
        #expect(page.paperLevel == 240)
        let evened = page.withInkEvenedOut(reach: 8)
        func value(_ x: Int, _ y: Int) -> Int { Int(evened.bytes[y * evened.width + x]) }
        #expect(value(50, 21) < 30)  // bold
        #expect(value(50, 91) < 60)  // faint: 200 on 240 paper, black once evened
        #expect(value(50, 55) > 200)  // bare paper between them
        // Bare paper, and its grain: 6 levels under the paper, stretched no more than ink 0.14 of the paper darker.
        #expect(value(5, 5) == 255)
        #expect(value(4, 113) > 180)
        // Stretched globally as the one-block renderings are, the faint stroke stays lighter than the paper's midtone.
        let darkened = page.withFaintPrintDarkened()
        #expect(Int(darkened.bytes[91 * page.width + 50]) > 128)
    }

    @Test("Sliding minimum and mean over a square window, cut at the image's edges")
    func slidingFilters() {
        let pixels = GrayPixels(width: 5, height: 3, bytes: [
            9, 9, 9, 9, 9,
            9, 9, 0, 9, 9,
            9, 9, 9, 9, 3,
        ])
        #expect(pixels.minimum(radius: 1).bytes == [
            9, 0, 0, 0, 9,
            9, 0, 0, 0, 3,
            9, 0, 0, 0, 3,
        ])
        #expect(pixels.minimum(radius: 0).bytes == pixels.bytes)
        let mean = pixels.boxMean(radius: 1)
        #expect(mean.bytes[0] == 9)  // a corner: the 2 × 2 pixels inside the image
        #expect(mean.bytes[7] == 8)  // (8 × 9 + 0) / 9, rounded
        #expect(mean.bytes[14] == 8)  // rows first: (9 + 3) / 2 = 6 beside (9 + 9) / 2 = 9, then (9 + 6) / 2, rounded
    }
}
