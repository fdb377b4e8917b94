import DocScanRecognition
import Foundation

/// The PNG files the host hands to plugins: 8-bit gray or RGB, not interlaced, deflate in stored (uncompressed)
/// blocks. Writing one costs a copy of the pixels and no compression time; every PNG reader opens it.
enum UncompressedPNG {
    /// The page as PNG bytes, written in one pass over the pixels.
    static func encode(_ page: PageImage) -> Data {
        let channels = page.pixelFormat.rawValue
        let rowBytes = page.width * channels
        let rawCount = (rowBytes + 1) * page.height  // every row starts with filter type 0 (none)
        let blocks = max(1, (rawCount + 65534) / 65535)
        let idatCount = 2 + blocks * 5 + rawCount + 4
        var png = [UInt8](repeating: 0, count: 8 + 25 + 12 + idatCount + 12)
        png.withUnsafeMutableBufferPointer { out in
            var at = 0
            func put(_ bytes: [UInt8]) {
                for byte in bytes {
                    out[at] = byte
                    at += 1
                }
            }
            put([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
            // IHDR
            let headerStart = at + 4
            put(bigEndian(13) + Array("IHDR".utf8) + bigEndian(UInt32(page.width)) + bigEndian(UInt32(page.height)))
            put([8, page.pixelFormat == .gray ? 0 : 2, 0, 0, 0])
            put(bigEndian(crc32(UnsafeBufferPointer(rebasing: out[headerStart..<at]))))
            // IDAT: a zlib stream of stored deflate blocks holding the rows.
            put(bigEndian(UInt32(idatCount)) + Array("IDAT".utf8))
            let dataStart = at - 4
            put([0x78, 0x01])
            var adler = Adler32()
            page.pixels.withUnsafeBufferPointer { pixels in
                var row = 0, column = -1  // column -1: the row's filter byte
                var left = rawCount
                while left > 0 {
                    let length = min(65535, left)
                    left -= length
                    put([left == 0 ? 1 : 0, UInt8(length & 0xFF), UInt8(length >> 8), UInt8(~length & 0xFF), UInt8((~length >> 8) & 0xFF)])
                    var remaining = length
                    while remaining > 0 {
                        if column < 0 {
                            out[at] = 0
                            at += 1
                            remaining -= 1
                            column = 0
                            continue
                        }
                        let count = min(remaining, rowBytes - column)
                        let source = UnsafeBufferPointer(rebasing: pixels[(row * rowBytes + column)..<(row * rowBytes + column + count)])
                        _ = UnsafeMutableBufferPointer(rebasing: out[at..<(at + count)]).update(fromContentsOf: source)
                        at += count
                        remaining -= count
                        column += count
                        if column == rowBytes {
                            row += 1
                            column = -1
                        }
                    }
                }
            }
            adler.add(UnsafeBufferPointer(rebasing: out[(dataStart + 4 + 2)..<at]), skippingStoredBlockHeaders: true)
            put(bigEndian(adler.value))
            put(bigEndian(crc32(UnsafeBufferPointer(rebasing: out[dataStart..<at]))))
            put(bigEndian(0) + Array("IEND".utf8) + [0xAE, 0x42, 0x60, 0x82])
        }
        return Data(png)
    }

    /// Reads a PNG written by ``encode(_:)`` (or any 8-bit gray or RGB PNG whose deflate blocks are stored and whose
    /// rows are unfiltered).
    /// - Throws: ``RecognitionError/invalidImage(_:)`` for anything else, saying what it found.
    static func decode(_ data: Data) throws(RecognitionError) -> PageImage {
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        guard data.count > 8, data.prefix(8).elementsEqual(signature) else { throw .invalidImage("not a PNG file") }
        // The chunks: the header's fields, and the zlib stream gathered from the IDAT chunks.
        var width = 0, height = 0, channels = 0
        var zlib: [UInt8] = []
        let problem: String? = data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) -> String? in
            func word(_ at: Int) -> Int {
                Int(bytes[at]) << 24 | Int(bytes[at + 1]) << 16 | Int(bytes[at + 2]) << 8 | Int(bytes[at + 3])
            }
            var offset = 8
            while offset + 8 <= bytes.count {
                let length = word(offset)
                guard offset + 12 + length <= bytes.count else { return "the PNG file is truncated" }
                let type = (bytes[offset + 4], bytes[offset + 5], bytes[offset + 6], bytes[offset + 7])
                let body = offset + 8
                if type == (0x49, 0x48, 0x44, 0x52) {  // IHDR
                    width = word(body)
                    height = word(body + 4)
                    let depth = bytes[body + 8], colorType = bytes[body + 9], interlace = bytes[body + 12]
                    guard depth == 8, colorType == 0 || colorType == 2, interlace == 0 else {
                        return "only 8-bit gray or RGB PNGs without interlacing are read here"
                    }
                    channels = colorType == 0 ? 1 : 3
                    zlib.reserveCapacity((width * channels + 1) * height + (height * width * channels) / 65535 * 5 + 64)
                } else if type == (0x49, 0x44, 0x41, 0x54) {  // IDAT
                    zlib.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[body..<(body + length)]))
                }
                offset = body + length + 4
            }
            return nil
        }
        if let problem { throw .invalidImage(problem) }
        guard width > 0, height > 0, zlib.count > 2 else { throw .invalidImage("the PNG file has no image data") }
        let rowBytes = width * channels
        var pixels = [UInt8](repeating: 0, count: rowBytes * height)
        // The stored blocks' payloads, one after the other, are the rows, each after its filter byte.
        let failure: String? = pixels.withUnsafeMutableBufferPointer { out in
            zlib.withUnsafeBufferPointer { stream in
                var position = 2, row = 0, column = -1
                while true {
                    guard position + 5 <= stream.count else { return "the PNG image data is truncated" }
                    let flags = stream[position]
                    guard flags & 0b110 == 0 else {
                        return "the PNG is compressed; only stored (uncompressed) deflate blocks are read here"
                    }
                    var left = Int(stream[position + 1]) | Int(stream[position + 2]) << 8
                    position += 5
                    guard position + left <= stream.count else { return "the PNG image data is truncated" }
                    while left > 0 {
                        guard row < height else { return "the PNG image data is longer than its rows" }
                        if column < 0 {
                            guard stream[position] == 0 else {
                                return "the PNG uses row filters; only unfiltered rows are read here"
                            }
                            position += 1
                            left -= 1
                            column = 0
                            continue
                        }
                        let count = min(left, rowBytes - column)
                        let target = row * rowBytes + column
                        _ = UnsafeMutableBufferPointer(rebasing: out[target..<(target + count)])
                            .update(fromContentsOf: UnsafeBufferPointer(rebasing: stream[position..<(position + count)]))
                        position += count
                        left -= count
                        column += count
                        if column == rowBytes {
                            row += 1
                            column = -1
                        }
                    }
                    if flags & 1 == 1 { return row == height ? nil : "the PNG image data is shorter than its rows" }
                }
            }
        }
        if let failure { throw .invalidImage(failure) }
        return try PageImage(width: width, height: height, pixelFormat: channels == 1 ? .gray : .rgb, pixels: pixels)
    }

    private static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
    }

    /// The Adler-32 checksum of the uncompressed data, summed over the stored blocks' contents.
    private struct Adler32 {
        var a: UInt32 = 1, b: UInt32 = 0
        var value: UInt32 { b << 16 | a }

        /// Adds the payload of a run of stored blocks (each a 5-byte header, then its bytes).
        mutating func add(_ blocks: UnsafeBufferPointer<UInt8>, skippingStoredBlockHeaders: Bool) {
            var index = 0
            while index + 5 <= blocks.count {
                let length = Int(blocks[index + 1]) | Int(blocks[index + 2]) << 8
                index += 5
                var start = index
                let end = index + length
                // 5552 bytes is the most that can be summed before the 32-bit sums must be reduced.
                while start < end {
                    let stop = min(end, start + 5552)
                    for i in start..<stop {
                        a &+= UInt32(blocks[i])
                        b &+= a
                    }
                    a %= 65521
                    b %= 65521
                    start = stop
                }
                index = end
            }
        }
    }

    private static let crcTable: [UInt32] = (0..<256).map { n in
        var c = UInt32(n)
        for _ in 0..<8 { c = c & 1 == 1 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }

    private static func crc32(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt32 {
        crcTable.withUnsafeBufferPointer { table in
            var crc: UInt32 = 0xFFFF_FFFF
            for byte in bytes { crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
            return crc ^ 0xFFFF_FFFF
        }
    }
}
