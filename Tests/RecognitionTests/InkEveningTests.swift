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

    @Test("The paper's grain turns white, from three deviations under its median; print keeps its shades")
    func paperGrainWhitened() {
        // Paper at 250 with a grain: a quarter of its pixels at 246 and a quarter at 240. A bold stroke (40) and a
        // faint one (190) on it.
        let width = 100, height = 120
        var bytes = [UInt8](repeating: 250, count: width * height)
        for y in 0..<height {
            for x in 0..<width where x % 4 == 1 { bytes[y * width + x] = 246 }
            for x in 0..<width where x % 4 == 3 { bytes[y * width + x] = 240 }
        }
        for x in 20..<80 {
            for y in 20..<24 { bytes[y * width + x] = 40 }
            for y in 90..<94 { bytes[y * width + x] = 190 }
        }
        let page = GrayPixels(width: width, height: height, bytes: bytes)
        // Median 246, lower quartile 240: a deviation of 6 / 0.674 = 8.9, so the floor is 246 - 26.7.
        #expect(page.paperGrainFloor == 219)
        let whitened = page.withPaperGrainWhitened()
        func value(_ x: Int, _ y: Int) -> Int { Int(whitened.bytes[y * width + x]) }
        for x in 0..<4 { #expect(value(x, 50) == 255) }  // every grain of bare paper
        #expect(value(50, 21) == 47)  // 40 × 255 / 219
        #expect(value(50, 91) == 221)  // 190 × 255 / 219: still 34 under the paper
        // A page without grain keeps its levels.
        let plain = GrayPixels(width: 10, height: 10, bytes: [UInt8](repeating: 255, count: 100))
        #expect(plain.paperGrainFloor == 255)
        #expect(plain.withPaperGrainWhitened().bytes == plain.bytes)
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
