import DocScanRecognition
import Foundation

/// The PNG files the host hands to plugins: 8-bit gray or RGB, not interlaced, deflate in stored (uncompressed)
/// blocks. Writing one costs a copy of the pixels and no compression time; every PNG reader opens it.
enum UncompressedPNG {
    /// The page as PNG bytes.
    static func encode(_ page: PageImage) -> Data {
        let channels = page.pixelFormat.rawValue
        let rowBytes = page.width * channels
        // Every row starts with filter type 0 (none).
        var raw = [UInt8]()
        raw.reserveCapacity((rowBytes + 1) * page.height)
        page.pixels.withUnsafeBufferPointer { pixels in
            for y in 0..<page.height {
                raw.append(0)
                raw.append(contentsOf: pixels[(y * rowBytes)..<((y + 1) * rowBytes)])
            }
        }
        var zlib: [UInt8] = [0x78, 0x01]
        zlib.reserveCapacity(raw.count + raw.count / 65535 * 5 + 16)
        var offset = 0
        repeat {
            let length = min(65535, raw.count - offset)
            let isLast = offset + length == raw.count
            zlib.append(isLast ? 1 : 0)
            zlib.append(contentsOf: [UInt8(length & 0xFF), UInt8(length >> 8), UInt8(~length & 0xFF), UInt8((~length >> 8) & 0xFF)])
            zlib.append(contentsOf: raw[offset..<(offset + length)])
            offset += length
        } while offset < raw.count
        zlib.append(contentsOf: bigEndian(adler32(raw)))

        var png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        var header = bigEndian(UInt32(page.width)) + bigEndian(UInt32(page.height))
        header += [8, page.pixelFormat == .gray ? 0 : 2, 0, 0, 0]
        appendChunk("IHDR", header, to: &png)
        appendChunk("IDAT", zlib, to: &png)
        appendChunk("IEND", [], to: &png)
        return png
    }

    /// Reads a PNG written by ``encode(_:)`` (or any 8-bit gray or RGB PNG whose deflate blocks are stored).
    /// - Throws: ``RecognitionError/invalidImage(_:)`` for anything else, saying what it found.
    static func decode(_ data: Data) throws(RecognitionError) -> PageImage {
        let bytes = [UInt8](data)
        guard bytes.count > 8, bytes[0..<8].elementsEqual([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) else {
            throw .invalidImage("not a PNG file")
        }
        var offset = 8
        var width = 0, height = 0, channels = 0
        var zlib: [UInt8] = []
        while offset + 8 <= bytes.count {
            let length = Int(readBigEndian(bytes, offset))
            let type = String(decoding: bytes[(offset + 4)..<(offset + 8)], as: UTF8.self)
            guard offset + 12 + length <= bytes.count else { throw .invalidImage("the PNG file is truncated") }
            let body = bytes[(offset + 8)..<(offset + 8 + length)]
            switch type {
            case "IHDR":
                width = Int(readBigEndian(bytes, offset + 8))
                height = Int(readBigEndian(bytes, offset + 12))
                let depth = body[body.startIndex + 8], colorType = body[body.startIndex + 9]
                let interlace = body[body.startIndex + 12]
                guard depth == 8, colorType == 0 || colorType == 2, interlace == 0 else {
                    throw .invalidImage("only 8-bit gray or RGB PNGs without interlacing are read here")
                }
                channels = colorType == 0 ? 1 : 3
            case "IDAT": zlib.append(contentsOf: body)
            default: break
            }
            offset += 12 + length
        }
        guard width > 0, height > 0, zlib.count > 2 else { throw .invalidImage("the PNG file has no image data") }
        var raw: [UInt8] = []
        var position = 2
        while true {
            guard position + 5 <= zlib.count else { throw .invalidImage("the PNG image data is truncated") }
            let flags = zlib[position]
            guard flags & 0b110 == 0 else {
                throw .invalidImage("the PNG is compressed; only stored (uncompressed) deflate blocks are read here")
            }
            let length = Int(zlib[position + 1]) | Int(zlib[position + 2]) << 8
            position += 5
            guard position + length <= zlib.count else { throw .invalidImage("the PNG image data is truncated") }
            raw.append(contentsOf: zlib[position..<(position + length)])
            position += length
            if flags & 1 == 1 { break }
        }
        let rowBytes = width * channels
        guard raw.count == (rowBytes + 1) * height else { throw .invalidImage("the PNG image data has the wrong size") }
        var pixels = [UInt8]()
        pixels.reserveCapacity(rowBytes * height)
        for y in 0..<height {
            let start = y * (rowBytes + 1)
            guard raw[start] == 0 else { throw .invalidImage("the PNG uses row filters; only unfiltered rows are read here") }
            pixels.append(contentsOf: raw[(start + 1)...(start + rowBytes)])
        }
        return try PageImage(width: width, height: height, pixelFormat: channels == 1 ? .gray : .rgb, pixels: pixels)
    }

    private static func appendChunk(_ type: String, _ body: [UInt8], to png: inout Data) {
        let typeBytes = Array(type.utf8)
        png.append(contentsOf: bigEndian(UInt32(body.count)))
        png.append(contentsOf: typeBytes)
        png.append(contentsOf: body)
        png.append(contentsOf: bigEndian(crc32(typeBytes + body)))
    }

    private static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
    }

    private static func readBigEndian(_ bytes: [UInt8], _ offset: Int) -> UInt32 {
        UInt32(bytes[offset]) << 24 | UInt32(bytes[offset + 1]) << 16 | UInt32(bytes[offset + 2]) << 8 | UInt32(bytes[offset + 3])
    }

    private static func adler32(_ bytes: [UInt8]) -> UInt32 {
        var a: UInt32 = 1, b: UInt32 = 0
        // 5552 bytes is the most that can be summed before the 32-bit sums must be reduced.
        var index = 0
        while index < bytes.count {
            let end = min(bytes.count, index + 5552)
            for i in index..<end {
                a &+= UInt32(bytes[i])
                b &+= a
            }
            a %= 65521
            b %= 65521
            index = end
        }
        return b << 16 | a
    }

    private static let crcTable: [UInt32] = (0..<256).map { n in
        var c = UInt32(n)
        for _ in 0..<8 { c = c & 1 == 1 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }

    private static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes { crc = crcTable[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        return crc ^ 0xFFFF_FFFF
    }
}
