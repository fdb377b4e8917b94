import CTesseract
import DocScanGeometry
import DocScanRecognition
import Foundation

/// Tesseract (LSTM engine, through its C API) as a ``TextRecognizer``.
///
/// The levels are a contract, reported in every result's provenance:
/// - `fast`: the system's fast LSTM model, the page scaled so its typical characters are about 20 pixels tall (or to
///   the minimum text height), no dictionary, an orientation check when the first reading is poor, a page with a till
///   receipt's shape or whose first reading missed much of its print read again as one block with faint print
///   darkened (the more confident reading kept, filled word by word with the other's sure words), no second look.
/// - `accurate`: the best model found (the user's models folder first), full resolution (very large text is scaled
///   down to about 48 pixels), dictionary and custom words, line candidates, a check of the page's orientation when the
///   first reading is poor, other readings of the page (as one block, enlarged, its ink evened out) with the most
///   confident kept, a second look at low-confidence lines at twice the size, keeping the better reading, and last the
///   kept reading filled word by word from the other readings' sure words where it read nothing or noise.
///
/// Initialised engines are pooled per configuration (languages, dictionary, custom words): one per concurrent
/// recognition, reused across pages, never shared between threads.
public struct TesseractRecognizer: TextRecognizer {
    /// The recognizer's id and default level, and where its models are.
    public struct Configuration: Sendable {
        public var id: String
        public var defaultLevel: RecognitionLevel
        public var models: TesseractModelLocator

        /// Creates a configuration.
        public init(id: String, defaultLevel: RecognitionLevel, models: TesseractModelLocator = TesseractModelLocator()) {
            self.id = id
            self.defaultLevel = defaultLevel
            self.models = models
        }
    }

    public let configuration: Configuration
    public let descriptor: RecognizerDescriptor
    let pool: HandlePool

    /// A Tesseract recognizer; recognizers made with the same pool share initialised engines.
    public init(_ configuration: Configuration) {
        self.init(configuration, pool: HandlePool())
    }

    init(_ configuration: Configuration, pool: HandlePool) {
        self.configuration = configuration
        self.pool = pool
        let folders = configuration.models.folders(for: configuration.defaultLevel)
        let languages = Array(Set(folders.flatMap(TesseractModelLocator.languages(in:)))).sorted()
        var capabilities = RecognizerDescriptor.Capabilities()
        capabilities.wordBoxes = true
        capabilities.glyphBoxes = true
        capabilities.candidates = true
        capabilities.customWords = true
        capabilities.languageCorrection = true
        capabilities.allowedCharacters = true
        capabilities.minimumTextHeight = true
        capabilities.regionOfInterest = true
        capabilities.progress = true
        capabilities.cancellation = true
        capabilities.deadline = true
        let modelFolder = folders.first { !TesseractModelLocator.languages(in: $0).isEmpty }
        descriptor = RecognizerDescriptor(
            id: configuration.id, name: "Tesseract \(configuration.defaultLevel.rawValue)",
            version: Self.version, model: modelFolder.map { "\($0.path) (LSTM)" } ?? "no models found",
            languages: languages, levels: RecognitionLevel.allCases, defaultLevel: configuration.defaultLevel,
            capabilities: capabilities)
    }

    /// The `fast` and `accurate` recognizers, sharing one pool of engines.
    public static func standard(models: TesseractModelLocator = TesseractModelLocator()) -> [TesseractRecognizer] {
        let pool = HandlePool()
        return [
            TesseractRecognizer(Configuration(id: "fast", defaultLevel: .fast, models: models), pool: pool),
            TesseractRecognizer(Configuration(id: "accurate", defaultLevel: .accurate, models: models), pool: pool),
        ]
    }

    /// The library's version, such as `5.3.0`.
    public static var version: String { String(cString: TessVersion()) }

    public func prepare(for request: RecognitionRequest) async throws(RecognitionError) -> any RecognitionSession {
        let level = request.level ?? configuration.defaultLevel
        let folder = try configuration.models.folder(for: request.languages, level: level)
        let usesDictionary = level == .accurate && request.usesLanguageCorrection
        let key = HandleKey(
            folder: folder.path, languages: request.languages, usesDictionary: usesDictionary,
            customWords: usesDictionary ? request.customWords : [])
        // Load the models now, so the session's first page is as quick as the others.
        if let handle = await pool.take(key) {
            await pool.give(handle)
        } else {
            let loaded: Result<TesseractHandle, RecognitionError> = await onEngineThread {
                do throws(RecognitionError) { return .success(try TesseractHandle(key: key)) } catch {
                    return .failure(error)
                }
            }
            await pool.give(try loaded.get())
        }
        return TesseractSession(level: level, key: key, pool: pool)
    }

    /// Frees the pooled engines (call before the process exits: Tesseract reports engines alive at exit as leaks).
    public func shutdown() async {
        await pool.drain()
    }
}

