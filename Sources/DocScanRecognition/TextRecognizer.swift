/// A text recognition engine that DocScan can drive: Tesseract, a plugin process, or your own type.
///
/// Loading models is expensive and reading a page is not, so the two are separate: ``prepare(for:)`` returns a
/// ``RecognitionSession`` with the models for a request's languages and word lists loaded, which reads any number of
/// pages. Recognizers may cache sessions, so calling `prepare` for every page is cheap after the first.
public protocol TextRecognizer: Sendable {
    /// What the recognizer is and what it can do.
    var descriptor: RecognizerDescriptor { get }

    /// Loads (or finds already loaded) what `request` needs: its languages, level and custom words.
    /// - Throws: ``RecognitionError`` when a model is missing or cannot be loaded.
    func prepare(for request: RecognitionRequest) async throws(RecognitionError) -> any RecognitionSession

    /// Frees loaded models and stops helper processes; call before the process exits. The default does nothing.
    func shutdown() async
}

/// A recognizer with its models loaded, ready to read pages.
public protocol RecognitionSession: Sendable {
    /// Reads one page. Honours task cancellation (throwing ``RecognitionError/cancelled``), the request's time limit
    /// and progress handler where the recognizer's capabilities say so.
    func recognize(_ page: PageImage, request: RecognitionRequest) async throws(RecognitionError) -> RecognizedPage
}

extension TextRecognizer {
    public func shutdown() async {}

    /// Reads one page: validates the request, applies strict mode, prepares a session and reads with it. Options the
    /// recognizer cannot honour become warnings in the result's diagnostics (errors in strict mode), and boxes are
    /// mapped into the photo when the page knows where it came from.
    public func recognize(_ page: PageImage, request: RecognitionRequest) async throws(RecognitionError)
        -> RecognizedPage
    {
        try request.validate()
        let unsupported = descriptor.unsupportedOptions(in: request)
        if request.isStrict, let first = unsupported.first {
            throw .unsupportedOption(recognizer: descriptor.id, option: first)
        }
        if Task.isCancelled { throw .cancelled }
        let session = try await prepare(for: request)
        var result = try await session.recognize(page, request: request)
        result.provenance.recognizer = descriptor.id
        let warnings = unsupported.map { RecognitionDiagnostic("\(descriptor.id) cannot honour \($0); it was ignored") }
        result.diagnostics.insert(contentsOf: warnings, at: 0)
        if let pageToPhoto = page.pageToPhoto { result = result.mappingBoxes(through: pageToPhoto) }
        return result
    }
}

/// Named recognizers the caller assembles and passes around: `fast`, `accurate` and any custom one are ids like any
/// other. There is no process-wide registry.
public struct RecognizerRegistry: Sendable {
    private var recognizers: [String: any TextRecognizer] = [:]
    private var order: [String] = []

    /// An empty registry.
    public init() {}

    /// A registry holding `recognizers`, under their descriptors' ids.
    public init(_ recognizers: [any TextRecognizer]) {
        for recognizer in recognizers { register(recognizer) }
    }

    /// Adds a recognizer under its descriptor's id, or `id` when given, replacing one with the same id.
    public mutating func register(_ recognizer: any TextRecognizer, as id: String? = nil) {
        let key = id ?? recognizer.descriptor.id
        if recognizers[key] == nil { order.append(key) }
        recognizers[key] = recognizer
    }

    /// The ids in the order they were registered.
    public var ids: [String] { order }

    /// All recognizers in registration order.
    public var all: [any TextRecognizer] { order.compactMap { recognizers[$0] } }

    /// The recognizer registered as `id`.
    /// - Throws: ``RecognitionError/unknownRecognizer(_:known:)``, listing the known ids.
    public func recognizer(_ id: String) throws(RecognitionError) -> any TextRecognizer {
        guard let recognizer = recognizers[id] else { throw .unknownRecognizer(id, known: order) }
        return recognizer
    }
}
