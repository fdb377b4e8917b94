import DocScan
import Foundation

/// Paths of the repository's test data.
enum TestData {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static func fixture(_ name: String) -> URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/\(name)")
    }

    static let corpus = packageRoot.appendingPathComponent("Calibration/corpus")

    /// Every photo of the calibration corpus, by file name.
    static let corpusPhotos: [String] = {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: corpus.path)) ?? []
        return names.filter { $0.hasSuffix(".jpg") }.sorted()
    }()

    static let sample = packageRoot.appendingPathComponent("Calibration/sample/sample.jpg")
}

/// A JPEG of `image` carrying an EXIF orientation tag, built byte by byte (big-endian TIFF with a single IFD entry).
func jpegWithOrientation(_ image: Image, orientation: UInt16) throws -> Data {
    let jpeg = try image.encoded(as: .jpeg(quality: 100))
    var tiff: [UInt8] = Array("MM".utf8) + [0, 42, 0, 0, 0, 8]  // byte order, magic, offset of IFD0
    tiff += [0, 1]  // one entry
    tiff += [0x01, 0x12, 0, 3, 0, 0, 0, 1, UInt8(orientation >> 8), UInt8(orientation & 0xFF), 0, 0]
    tiff += [0, 0, 0, 0]  // no next IFD
    let payload = Array("Exif".utf8) + [0, 0] + tiff
    let length = payload.count + 2
    let segment: [UInt8] = [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
    return Data(jpeg.prefix(2)) + Data(segment) + Data(jpeg.dropFirst(2))
}

/// An image whose pixels come from a function of the coordinates.
func makeImage(width: Int, height: Int, format: Image.PixelFormat = .bgr, _ color: (Int, Int) -> [UInt8]) throws
    -> Image
{
    var pixels: [UInt8] = []
    pixels.reserveCapacity(width * height * format.rawValue)
    for y in 0..<height {
        for x in 0..<width { pixels += color(x, y) }
    }
    return try Image(width: width, height: height, pixelFormat: format, pixels: pixels)
}
