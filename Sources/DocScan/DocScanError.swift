internal import CDocScanShim

/// The error every DocScan preprocessing API throws: a stable ``Code`` to match on, and a message for people.
public struct DocScanError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong, as an open set of codes (new ones may appear in later versions).
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        /// The file could not be opened or read.
        public static let unreadableFile = Code(rawValue: "unreadable-file")
        /// The file holds no bytes.
        public static let emptyFile = Code(rawValue: "empty-file")
        /// The bytes are not JPEG, PNG, TIFF, WebP or BMP.
        public static let unsupportedFormat = Code(rawValue: "unsupported-format")
        /// The image data ends early or is damaged.
        public static let damagedImage = Code(rawValue: "damaged-image")
        /// The image has more pixels than the configured limit.
        public static let imageTooLarge = Code(rawValue: "image-too-large")
        /// An output could not be encoded or written.
        public static let outputFailed = Code(rawValue: "output-failed")
        /// An argument was out of range.
        public static let invalidArgument = Code(rawValue: "invalid-argument")
        /// Memory ran out.
        public static let outOfMemory = Code(rawValue: "out-of-memory")
        /// The work was cancelled.
        public static let cancelled = Code(rawValue: "cancelled")
        /// An unexpected failure inside OpenCV.
        public static let internalFailure = Code(rawValue: "internal-failure")
    }

    /// The kind of failure.
    public let code: Code
    /// A sentence that tells a user what happened.
    public let message: String

    /// Creates an error.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message }
}

/// Turns a shim status into a ``DocScanError`` carrying the shim's thread-local message.
func check(_ status: ds_status, _ context: @autoclosure () -> String) throws(DocScanError) {
    guard status != DS_OK else { return }
    let detail = String(cString: ds_last_error_message())
    let code: DocScanError.Code =
        switch status {
        case DS_ERROR_INVALID_ARGUMENT: .invalidArgument
        case DS_ERROR_DECODE: .damagedImage
        case DS_ERROR_ENCODE: .outputFailed
        case DS_ERROR_OUT_OF_MEMORY: .outOfMemory
        default: .internalFailure
        }
    throw DocScanError(code, "\(context()): \(detail)")
}
