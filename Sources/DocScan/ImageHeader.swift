import Foundation

/// What an image file's header says, read without decoding any pixels: its format, stored size and EXIF orientation.
///
/// Reading the header first lets DocScan refuse damaged files and images over the pixel limit before spending memory on
/// them, and apply the EXIF orientation the same way for every format.
public struct ImageHeader: Sendable, Equatable {
    /// Container formats DocScan reads.
    public enum Format: String, Sendable, CaseIterable {
        case jpeg, png, tiff, webp, bmp
    }

    /// The container format.
    public var format: Format
    /// Width of the stored pixels (before EXIF orientation).
    public var storedWidth: Int
    /// Height of the stored pixels (before EXIF orientation).
    public var storedHeight: Int
    /// EXIF orientation, 1...8 (1 when the file has none).
    public var orientation: Int
    /// False when the file ends before its image data does (a truncated download or copy).
    public var isComplete: Bool
    /// The lens focal length in 35 mm-film equivalent millimetres, when the EXIF data records it.
    public var focalLength35mm: Double?

    /// Width as displayed, after the EXIF orientation.
    public var uprightWidth: Int { orientation >= 5 ? storedHeight : storedWidth }
    /// Height as displayed, after the EXIF orientation.
    public var uprightHeight: Int { orientation >= 5 ? storedWidth : storedHeight }

    /// Reads the header of an encoded image.
    /// - Returns: nil when the bytes are not a JPEG, PNG, TIFF, WebP or BMP file whose size can be read.
    public init?(_ bytes: some Collection<UInt8>) {
        // Headers sit at the start; only the completeness of a JPEG or a large PNG needs the rest, which is checked
        // in place.
        let data = Array(bytes.prefix(Self.headerBytes))
        var reader = ByteReader(data)
        if data.starts(with: [0xFF, 0xD8, 0xFF]) {
            guard var header = Self.jpeg(&reader) else { return nil }
            if let scanStart = reader.scanStart {
                header.isComplete = Self.containsEndOfImage(bytes, after: scanStart)
            }
            self = header
        } else if data.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            guard var header = Self.png(&reader) else { return nil }
            if !header.isComplete && data.count < bytes.count { header.isComplete = Self.pngChunksReachEnd(bytes) }
            self = header
        } else if data.starts(with: [0x49, 0x49, 0x2A, 0x00]) || data.starts(with: [0x4D, 0x4D, 0x00, 0x2A]) {
            guard let tags = TIFFTags(data, at: 0), let width = tags.width, let height = tags.height else { return nil }
            self.init(
                format: .tiff, storedWidth: width, storedHeight: height, orientation: tags.orientation ?? 1,
                isComplete: true)
        } else if data.count >= 12, data.starts(with: Array("RIFF".utf8)), Array(data[8..<12]) == Array("WEBP".utf8) {
            guard let header = Self.webp(data) else { return nil }
            self = header
        } else if data.starts(with: Array("BM".utf8)) {
            reader.offset = 18
            guard let width = reader.int32(littleEndian: true), let height = reader.int32(littleEndian: true),
                width > 0, height != 0, height != Int32.min
            else { return nil }
            self.init(
                format: .bmp, storedWidth: Int(width), storedHeight: Int(abs(height)), orientation: 1, isComplete: true)
        } else {
            return nil
        }
        guard storedWidth > 0, storedHeight > 0 else { return nil }
    }

    /// Whether a PNG's chunks (each a 4-byte big-endian length, a 4-byte type, the data and a 4-byte CRC) run on
    /// to its end chunk within `bytes`.
    private static func pngChunksReachEnd(_ bytes: some Collection<UInt8>) -> Bool {
        let data = bytes as? Data ?? Data(bytes)
        return data.withUnsafeBytes { raw in
            var position = 8
            while position + 8 <= raw.count {
                let length = Int(UInt32(bigEndian: raw.loadUnaligned(fromByteOffset: position, as: UInt32.self)))
                let isEnd = raw[position + 4] == 0x49 && raw[position + 5] == 0x45 && raw[position + 6] == 0x4E
                    && raw[position + 7] == 0x44  // "IEND"
                position += 12 + length
                if position > raw.count { return false }
                if isEnd { return true }
            }
            return false
        }
    }

    /// Whether the bytes 0xFF 0xD9 (a JPEG end-of-image marker) occur after `offset`.
    private static func containsEndOfImage(_ bytes: some Collection<UInt8>, after offset: Int) -> Bool {
        let marker: [UInt8] = [0xFF, 0xD9]
        if let data = bytes as? Data {
            let start = data.index(data.startIndex, offsetBy: min(offset, data.count))
            return data.range(of: Data(marker), options: .backwards, in: start..<data.endIndex) != nil
        }
        var previous: UInt8 = 0
        for byte in bytes.dropFirst(offset) {
            if previous == 0xFF && byte == 0xD9 { return true }
            previous = byte
        }
        return false
    }

    /// How much of the file the header parsers look at.
    static let headerBytes = 4 << 20

    init(format: Format, storedWidth: Int, storedHeight: Int, orientation: Int, isComplete: Bool) {
        self.format = format
        self.storedWidth = storedWidth
        self.storedHeight = storedHeight
        self.orientation = (1...8).contains(orientation) ? orientation : 1
        self.isComplete = isComplete
    }

    private static func jpeg(_ reader: inout ByteReader) -> ImageHeader? {
        reader.offset = 2
        var orientation = 1
        var focalLength: Int?
        var size: (Int, Int)?
        while let marker = reader.nextMarker() {
            if marker == 0xD9 { break }
            if marker == 0x01 || (0xD0...0xD7).contains(marker) { continue }  // markers without a length
            guard let length = reader.uint16(littleEndian: false), length >= 2 else { return nil }
            let segmentStart = reader.offset
            let segmentEnd = segmentStart + Int(length) - 2
            guard segmentEnd <= reader.bytes.count else { return nil }
            switch marker {
            case 0xE1:
                let exifSignature: [UInt8] = Array("Exif".utf8) + [0, 0]
                if reader.bytes[segmentStart..<segmentEnd].starts(with: exifSignature),
                    let tags = TIFFTags(reader.bytes, at: segmentStart + 6)
                {
                    orientation = tags.orientation ?? orientation
                    focalLength = tags.focalLength35mm
                }
            case 0xC0...0xCF where marker != 0xC4 && marker != 0xC8 && marker != 0xCC:
                var frame = reader
                frame.offset = segmentStart + 1
                guard let height = frame.uint16(littleEndian: false), let width = frame.uint16(littleEndian: false)
                else { return nil }
                size = (Int(width), Int(height))
            case 0xDA:
                // Entropy-coded data follows; a complete file has its end-of-image marker after it (the coded data
                // escapes every 0xFF, so 0xFFD9 cannot occur inside it).
                guard let (width, height) = size else { return nil }
                reader.scanStart = segmentEnd
                var header = ImageHeader(
                    format: .jpeg, storedWidth: width, storedHeight: height, orientation: orientation, isComplete: false
                )
                header.focalLength35mm = focalLength.map(Double.init)
                return header
            default: break
            }
            reader.offset = segmentEnd
        }
        guard let (width, height) = size else { return nil }
        return ImageHeader(
            format: .jpeg, storedWidth: width, storedHeight: height, orientation: orientation, isComplete: false)
    }

    private static func png(_ reader: inout ByteReader) -> ImageHeader? {
        reader.offset = 8
        var size: (Int, Int)?
        var orientation = 1
        var sawEnd = false
        while let length = reader.uint32(littleEndian: false), let type = reader.take(4) {
            let start = reader.offset
            let end = start + Int(length)
            guard end + 4 <= reader.bytes.count else { break }
            switch String(decoding: type, as: UTF8.self) {
            case "IHDR":
                guard let width = reader.uint32(littleEndian: false), let height = reader.uint32(littleEndian: false)
                else { return nil }
                size = (Int(width), Int(height))
            case "eXIf":
                if let tags = TIFFTags(reader.bytes, at: start), let value = tags.orientation { orientation = value }
            case "IEND":
                sawEnd = true
            default: break
            }
            reader.offset = end + 4  // skip the CRC
            if sawEnd { break }
        }
        guard let (width, height) = size else { return nil }
        return ImageHeader(
            format: .png, storedWidth: width, storedHeight: height, orientation: orientation, isComplete: sawEnd)
    }

    private static func webp(_ data: [UInt8]) -> ImageHeader? {
        var reader = ByteReader(data)
        reader.offset = 12
        var size: (Int, Int)?
        var orientation = 1
        while let type = reader.take(4), let length = reader.uint32(littleEndian: true) {
            let start = reader.offset
            let end = start + Int(length)
            guard end <= data.count else {
                return size.map {
                    ImageHeader(
                        format: .webp, storedWidth: $0.0, storedHeight: $0.1, orientation: orientation,
                        isComplete: false)
                }
            }
            let chunk = Array(data[start..<end])
            switch String(decoding: type, as: UTF8.self) {
            case "VP8X" where chunk.count >= 10:
                size = (
                    1 + Int(chunk[4]) | Int(chunk[5]) << 8 | Int(chunk[6]) << 16,
                    1 + Int(chunk[7]) | Int(chunk[8]) << 8 | Int(chunk[9]) << 16
                )
            case "VP8 " where chunk.count >= 10 && size == nil:
                size = (Int(chunk[6]) | Int(chunk[7] & 0x3F) << 8, Int(chunk[8]) | Int(chunk[9] & 0x3F) << 8)
            case "VP8L" where chunk.count >= 5 && size == nil:
                let bits = UInt32(chunk[1]) | UInt32(chunk[2]) << 8 | UInt32(chunk[3]) << 16 | UInt32(chunk[4]) << 24
                size = (Int(bits & 0x3FFF) + 1, Int((bits >> 14) & 0x3FFF) + 1)
            case "EXIF":
                let offset = chunk.starts(with: Array("Exif".utf8) + [0, 0]) ? 6 : 0
                if let tags = TIFFTags(chunk, at: offset), let value = tags.orientation { orientation = value }
            default: break
            }
            reader.offset = end + (Int(length) & 1)  // chunks are padded to even sizes
        }
        guard let (width, height) = size else { return nil }
        return ImageHeader(
            format: .webp, storedWidth: width, storedHeight: height, orientation: orientation, isComplete: true)
    }
}

/// The few TIFF tags DocScan needs, from the first image file directory of a TIFF structure (a TIFF file, or the EXIF
/// block of a JPEG, PNG or WebP).
private struct TIFFTags {
    var width: Int?
    var height: Int?
    var orientation: Int?
    /// EXIF FocalLengthIn35mmFilm, from the EXIF sub-directory.
    var focalLength35mm: Int?

    init?(_ bytes: [UInt8], at base: Int) {
        var reader = ByteReader(bytes)
        reader.offset = base
        guard let order = reader.take(2) else { return nil }
        let little: Bool
        switch (order[order.startIndex], order[order.startIndex + 1]) {
        case (0x49, 0x49): little = true
        case (0x4D, 0x4D): little = false
        default: return nil
        }
        guard reader.uint16(littleEndian: little) == 42, let directory = reader.uint32(littleEndian: little) else {
            return nil
        }
        var exifDirectory: Int?
        Self.readDirectory(&reader, at: base + Int(directory), littleEndian: little) { tag, value in
            switch tag {
            case 256: width = value
            case 257: height = value
            case 274: orientation = value
            case 0x8769: exifDirectory = value
            default: break
            }
        }
        if let exifDirectory {
            Self.readDirectory(&reader, at: base + exifDirectory, littleEndian: little) { tag, value in
                if tag == 0xA405, let value, value > 0 { focalLength35mm = value }
            }
        }
    }

    /// Calls `visit` with each tag of the directory at `offset` and its SHORT or LONG value (nil for other types).
    private static func readDirectory(
        _ reader: inout ByteReader, at offset: Int, littleEndian little: Bool, visit: (UInt16, Int?) -> Void
    ) {
        reader.offset = offset
        guard let count = reader.uint16(littleEndian: little) else { return }
        for _ in 0..<count {
            let entry = reader.offset
            guard let tag = reader.uint16(littleEndian: little), let type = reader.uint16(littleEndian: little),
                reader.uint32(littleEndian: little) != nil
            else { return }
            // SHORT values sit in the first two bytes of the value field, LONG values fill it.
            let value: Int? =
                switch type {
                case 3: reader.uint16(littleEndian: little).map(Int.init)
                case 4: reader.uint32(littleEndian: little).map(Int.init)
                default: nil
                }
            visit(tag, value)
            reader.offset = entry + 12
        }
    }
}

/// A bounds-checked cursor over bytes.
private struct ByteReader {
    let bytes: [UInt8]
    var offset = 0
    /// Where a JPEG's entropy-coded data begins, once the parser has reached it.
    var scanStart: Int?

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    mutating func take(_ count: Int) -> ArraySlice<UInt8>? {
        guard count >= 0, offset + count <= bytes.count else { return nil }
        defer { offset += count }
        return bytes[offset..<offset + count]
    }

    mutating func uint16(littleEndian: Bool) -> UInt16? {
        guard let b = take(2) else { return nil }
        let (first, second) = (UInt16(b[b.startIndex]), UInt16(b[b.startIndex + 1]))
        return littleEndian ? first | second << 8 : first << 8 | second
    }

    mutating func uint32(littleEndian: Bool) -> UInt32? {
        guard let high = uint16(littleEndian: littleEndian), let low = uint16(littleEndian: littleEndian) else {
            return nil
        }
        return littleEndian ? UInt32(high) | UInt32(low) << 16 : UInt32(high) << 16 | UInt32(low)
    }

    mutating func int32(littleEndian: Bool) -> Int32? {
        uint32(littleEndian: littleEndian).map { Int32(bitPattern: $0) }
    }

    /// Skips to the next JPEG marker and returns its code (the byte after 0xFF and any fill bytes).
    mutating func nextMarker() -> UInt8? {
        while offset < bytes.count, bytes[offset] != 0xFF { offset += 1 }
        while offset < bytes.count, bytes[offset] == 0xFF { offset += 1 }
        guard offset < bytes.count else { return nil }
        defer { offset += 1 }
        return bytes[offset]
    }
}
