import DocScan
import Foundation
import Testing

@Suite("Loading photos")
struct LoadingTests {
    let loader = ImageLoader()

    @Test(
        "Every supported container decodes to the same red|blue pattern",
        arguments: ["pattern.png", "pattern.jpg", "pattern.tif", "pattern.webp", "pattern.bmp", "deep.png", "cmyk.jpg"])
    func decodesFormats(_ name: String) throws {
        let loaded = try loader.load(contentsOf: TestData.fixture(name))
        #expect(loaded.image.width == 32 && loaded.image.height == 24)
        #expect(loaded.image.pixelFormat == .bgr)
        let left = loaded.image.pixel(x: 4, y: 12), right = loaded.image.pixel(x: 28, y: 12)
        #expect(left[2] > 200 && left[0] < 60, "left half should be red, got BGR \(left)")
        #expect(right[0] > 200 && right[2] < 60, "right half should be blue, got BGR \(right)")
    }

    @Test("Gray PNG stays one channel with its gradient")
    func grayInput() throws {
        let image = try loader.load(contentsOf: TestData.fixture("gray.png")).image
        #expect(image.pixelFormat == .gray)
        #expect(image.pixel(x: 1, y: 5)[0] > 220)  // white on the left
        #expect(image.pixel(x: 30, y: 5)[0] < 30)  // black on the right
    }

    @Test("Transparent pixels become white paper")
    func alphaComposite() throws {
        let image = try loader.load(contentsOf: TestData.fixture("rgba.png")).image
        #expect(image.pixel(x: 4, y: 4)[2] > 200 && image.pixel(x: 4, y: 4)[1] < 60)  // opaque red stays red
        #expect(image.pixel(x: 28, y: 4).allSatisfy { $0 > 245 })  // fully transparent blue becomes white
    }

    /// Upright coordinates → stored coordinates, for each EXIF orientation (the tag's definition).
    static func storedPoint(orientation: Int, x: Int, y: Int, width w: Int, height h: Int) -> (Int, Int) {
        switch orientation {
        case 2: (w - 1 - x, y)
        case 3: (w - 1 - x, h - 1 - y)
        case 4: (x, h - 1 - y)
        case 5: (y, x)
        case 6: (y, h - 1 - x)
        case 7: (w - 1 - y, h - 1 - x)
        case 8: (w - 1 - y, x)
        default: (x, y)
        }
    }

    @Test("All eight EXIF orientations are applied", arguments: 1...8)
    func exifOrientation(_ orientation: Int) throws {
        // Six blocks of 16 px in three columns and two rows, each a different colour.
        let palette: [[UInt8]] = [
            [0, 0, 255], [0, 255, 0], [255, 0, 0], [0, 255, 255], [255, 0, 255], [255, 255, 0],
        ]
        let stored = try makeImage(width: 48, height: 32) { x, y in palette[(y / 16) * 3 + x / 16] }
        let data = try jpegWithOrientation(stored, orientation: UInt16(orientation))
        let loaded = try loader.load(data, name: "oriented.jpg")
        #expect(loaded.header.orientation == orientation)
        let upright = loaded.image
        #expect((upright.width, upright.height) == (orientation >= 5 ? (32, 48) : (48, 32)))
        for (x, y) in [(8, 8), (24, 8), (40, 8), (8, 24), (24, 24), (40, 24)] {
            let (ux, uy) = orientation >= 5 ? (y, x) : (x, y)  // sample every block once, whatever the shape
            let (sx, sy) = Self.storedPoint(orientation: orientation, x: ux, y: uy, width: 48, height: 32)
            let expected = palette[(sy / 16) * 3 + sx / 16]
            let actual = upright.pixel(x: ux, y: uy)
            #expect(
                zip(expected, actual).allSatisfy { abs(Int($0) - Int($1)) < 40 },
                "at \(ux),\(uy): \(actual) vs \(expected)")
        }
    }

    @Test("An empty file is refused")
    func emptyFile() {
        #expect { try loader.load(Data(), name: "empty.jpg") } throws: { ($0 as? DocScanError)?.code == .emptyFile }
    }

    @Test("A text file is refused as unsupported")
    func textFile() {
        #expect { try loader.load(contentsOf: TestData.fixture("not-an-image.txt")) } throws: {
            ($0 as? DocScanError)?.code == .unsupportedFormat
        }
    }

    @Test("A truncated JPEG is refused, not decoded into grey garbage")
    func truncatedJPEG() throws {
        let data = try Data(contentsOf: TestData.sample)
        let error = #expect(throws: DocScanError.self) {
            try loader.load(data.prefix(data.count / 2), name: "half.jpg")
        }
        #expect(error?.code == .damagedImage)
        #expect(error?.message.contains("truncated") == true)
    }

    @Test("Pages encoded as PNG read back pixel for pixel, gray and colour, and a white page packs small")
    func pngRoundTrip() throws {
        let colour = try makeImage(width: 301, height: 203) { x, y in
            [UInt8(x % 256), UInt8(y % 256), UInt8((x * y) % 251)]
        }
        let gray = try makeImage(width: 97, height: 55, format: .gray) { x, y in [UInt8((x * 7 + y * 13) % 256)] }
        for image in [colour, gray] {
            let loaded = try loader.load(try image.encoded(as: .png), name: "page.png").image
            #expect(loaded.width == image.width && loaded.height == image.height)
            #expect(loaded.pixelFormat == image.pixelFormat)
            for (x, y) in [(0, 0), (image.width - 1, 0), (13, 21), (image.width - 1, image.height - 1)] {
                #expect(loaded.pixel(x: x, y: y) == image.pixel(x: x, y: y), "(\(x), \(y))")
            }
        }
        // Paper is mostly one shade: a blank 1000 x 1400 page is a few kilobytes, not its 4.2 MB of pixels.
        let blank = try makeImage(width: 1000, height: 1400) { _, _ in [250, 251, 252] }
        #expect(try blank.encoded(as: .png).count < 40_000)
    }

    @Test("A PNG larger than the header window (4 MB) loads whole, and the same PNG cut short is refused")
    func largePNG() throws {
        // Noise does not compress: about 4.5 MB of PNG, so its end chunk lies past the bytes read for headers.
        // Three bytes from the top of a 64-bit linear congruential generator per pixel: a 32-bit one's top byte
        // repeats with a structure that PNG's row filters find.
        var state: UInt64 = 2026
        let noise = try makeImage(width: 1500, height: 1000) { _, _ in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return [56, 48, 40].map { UInt8(truncatingIfNeeded: state >> $0) }
        }
        let png = try noise.encoded(as: .png)
        #expect(png.count > 4 << 20)
        let loaded = try loader.load(png, name: "large.png").image
        #expect(loaded.width == 1500 && loaded.height == 1000)
        #expect(loaded.pixel(x: 1499, y: 999) == noise.pixel(x: 1499, y: 999))
        let error = #expect(throws: DocScanError.self) { try loader.load(png.prefix(png.count - 50_000), name: "cut.png") }
        #expect(error?.code == .damagedImage)
        #expect(error?.message.contains("truncated") == true)
    }

    @Test("Damaged JPEG data fails with a clear error")
    func damagedJPEG() throws {
        var data = try Data(contentsOf: TestData.fixture("pattern.jpg"))
        // Destroy the frame header's component count while keeping the markers intact.
        let index = try #require(data.firstRange(of: Data([0xFF, 0xC0]))).lowerBound
        data[index + 9] = 0
        #expect { try loader.load(data, name: "damaged.jpg") } throws: { ($0 as? DocScanError)?.code == .damagedImage }
    }

    @Test("Images over the pixel limit are refused from the header, before decoding")
    func hugeDimensions() throws {
        // A PNG header claiming 60000 x 60000 pixels followed by nothing: decoding it would need 10 GB.
        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + Array("IHDR".utf8)
        png += [0, 0, 0xEA, 0x60, 0, 0, 0xEA, 0x60, 8, 2, 0, 0, 0, 0, 0, 0, 0]
        let error = #expect(throws: DocScanError.self) { try loader.load(Data(png), name: "huge.png") }
        #expect(error?.code == .imageTooLarge)
        #expect(error?.message.contains("60000x60000") == true)
        // The limit is configurable.
        let small = ImageLoader(maximumPixels: 500)
        #expect { try small.load(contentsOf: TestData.fixture("pattern.png")) } throws: {
            ($0 as? DocScanError)?.code == .imageTooLarge
        }
    }

    @Test("Missing files and folders give unreadable-file errors")
    func unreadable() {
        #expect { try loader.load(contentsOf: URL(fileURLWithPath: "/nonexistent/photo.jpg")) } throws: {
            ($0 as? DocScanError)?.code == .unreadableFile
        }
        #expect { try loader.load(contentsOf: TestData.corpus) } throws: {
            ($0 as? DocScanError)?.code == .unreadableFile
        }
    }
}

@Suite("Header parsing of hostile bytes")
struct HeaderRobustnessTests {
    /// A small deterministic generator (SplitMix64), so failures reproduce.
    struct SplitMix: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    @Test(
        "Mutated and truncated headers never crash the parser",
        arguments: ["pattern.png", "pattern.jpg", "pattern.tif", "pattern.webp", "pattern.bmp", "cmyk.jpg"])
    func mutations(_ name: String) throws {
        let original = try [UInt8](Data(contentsOf: TestData.fixture(name)))
        var random = SplitMix(state: 42)
        for _ in 0..<3000 {
            var bytes = original
            for _ in 0..<Int.random(in: 1...6, using: &random) {
                let index = Int.random(in: 0..<bytes.count, using: &random)
                bytes[index] = UInt8.random(in: 0...255, using: &random)
            }
            let cut = Int.random(in: 0...bytes.count, using: &random)
            if let header = ImageHeader(bytes.prefix(cut)) {
                #expect(header.storedWidth > 0 && header.storedHeight > 0)
                #expect((1...8).contains(header.orientation))
            }
        }
    }
}
