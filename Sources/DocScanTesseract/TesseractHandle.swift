import CTesseract
import DocScanRecognition
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What fixes a Tesseract handle at initialisation; handles with equal keys are interchangeable.
struct HandleKey: Hashable, Sendable {
    var folder: String
    var languages: [String]
    var usesDictionary: Bool
    var customWords: [String]
}

/// The one owner of a `TessBaseAPI`: created initialised, ended and freed exactly once, used by one thread at a time
/// (the pool hands it to one recognition at a time).
final class TesseractHandle: @unchecked Sendable {
    let api: OpaquePointer
    let key: HandleKey
    /// The model files the handle loaded.
    let models: [String]

    /// Loads the models for `key`. Slow (tens to hundreds of milliseconds): done once per key and reused.
    init(key: HandleKey) throws(RecognitionError) {
        guard let api = TessBaseAPICreate() else { throw .modelLoadFailed("Tesseract could not allocate an engine") }
        // Tesseract's own notes ("Estimating resolution as ...") go nowhere instead of onto the tool's stderr.
        var variables: [(String, String)] = [("debug_file", "/dev/null")]
        if !key.usesDictionary {
            variables += [("load_system_dawg", "0"), ("load_freq_dawg", "0")]
        }
        var wordsFile: URL?
        if !key.customWords.isEmpty {
            let file = FileManager.default.temporaryDirectory
                .appendingPathComponent("docscan-words-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString).txt")
            do {
                try (key.customWords.joined(separator: "\n") + "\n").write(to: file, atomically: true, encoding: .utf8)
            } catch {
                TessBaseAPIDelete(api)
                throw .modelLoadFailed("could not write the custom words for Tesseract: \(error.localizedDescription)")
            }
            wordsFile = file
            variables.append(("user_words_file", file.path))
        }
        let status = withCStrings(variables.map(\.0)) { names in
            withCStrings(variables.map(\.1)) { values in
                let languages = key.languages.joined(separator: "+")
                return TessBaseAPIInit4(
                    api, key.folder, languages, OEM_LSTM_ONLY, nil, 0, names, values, variables.count, 0)
            }
        }
        if let wordsFile { try? FileManager.default.removeItem(at: wordsFile) }
        guard status == 0 else {
            TessBaseAPIEnd(api)
            TessBaseAPIDelete(api)
            throw .modelLoadFailed(
                "Tesseract could not load \(key.languages.joined(separator: "+")) from \(key.folder) (is a model file "
                    + "damaged, or made for the legacy engine only?)")
        }
        self.api = api
        self.key = key
        self.models = key.languages.map { key.folder + "/" + $0 + ".traineddata" }
    }

    deinit {
        TessBaseAPIEnd(api)
        TessBaseAPIDelete(api)
    }

    /// Sets a Tesseract variable that may change between pages.
    func set(_ name: String, _ value: String) {
        _ = TessBaseAPISetVariable(api, name, value)
    }
}

/// Runs `body` with the strings as a C array of C strings, valid only during the call.
func withCStrings<Result>(_ strings: [String], _ body: (UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Result)
    -> Result
{
    var pointers: [UnsafeMutablePointer<CChar>?] = strings.map { strdup($0) }
    defer { pointers.forEach { free($0) } }
    return pointers.withUnsafeMutableBufferPointer { body($0.baseAddress) }
}

/// Initialised handles by key, each lent to one recognition at a time and returned after it.
actor HandlePool {
    private var idle: [HandleKey: [TesseractHandle]] = [:]
    /// At most this many idle handles are kept per key (one per concurrent recognition is the steady state).
    private let limit: Int

    init(limit: Int = max(2, ProcessInfo.processInfo.activeProcessorCount)) {
        self.limit = limit
    }

    /// An idle handle for `key`, if one is waiting.
    func take(_ key: HandleKey) -> TesseractHandle? {
        idle[key]?.popLast()
    }

    /// Returns a handle after use.
    func give(_ handle: TesseractHandle) {
        var handles = idle[handle.key, default: []]
        guard handles.count < limit else { return }
        handles.append(handle)
        idle[handle.key] = handles
    }

    /// Frees every idle handle (Tesseract reports handles alive at exit as leaks).
    func drain() {
        idle.removeAll()
    }
}

/// Debian's Tesseract is built with OpenMP, whose busy-waiting threads make it 6-8 times slower on small machines.
/// DocScan runs one engine per core instead, so each engine thread allows OpenMP no active parallel level: every
/// region runs on that thread alone, with no team and no per-region system calls. (The dynamic mode also avoids the
/// slowdown, but asks the kernel for the load and the CPU set at every region: 15% of a page.) The setting belongs to
/// the calling thread's data environment; other threads of the process keep theirs.
/// Looked up at run time, so builds without OpenMP (Homebrew) are unaffected.
enum OpenMP {
    private typealias SetMaxActiveLevels = @convention(c) (Int32) -> Void
    private static let setMaxActiveLevels = loadedSymbol("omp_set_max_active_levels", as: SetMaxActiveLevels.self)

    /// Runs every OpenMP region that the calling thread reaches on that thread alone.
    static func serializeCurrentThread() {
        setMaxActiveLevels?(0)
    }
}

/// Leptonica prints its internal complaints (about boxes clipped at a crop's edge, for instance) on stderr, where they
/// would mix with the tool's own output; errors that matter reach us as Tesseract's return codes instead.
enum LeptonicaMessages {
    private typealias SetSeverity = @convention(c) (Int32) -> Int32
    static let silenced: Void = {
        _ = loadedSymbol("setMsgSeverity", as: SetSeverity.self)?(6)  // L_SEVERITY_NONE
    }()
}

/// A C function of a library already loaded into the process (Tesseract's dependencies), or nil where it is absent.
private func loadedSymbol<Function>(_ name: String, as type: Function.Type) -> Function? {
    #if canImport(Glibc)
        let handle = dlopen(nil, RTLD_NOW)
    #else
        let handle = UnsafeMutableRawPointer(bitPattern: -2)  // RTLD_DEFAULT
    #endif
    guard let symbol = dlsym(handle, name) else { return nil }
    return unsafeBitCast(symbol, to: type)
}

/// Runs blocking engine work on a thread of its own (with a large stack, which Tesseract needs), so Swift's
/// cooperative threads stay free.
func onEngineThread<Result: Sendable>(_ body: @escaping @Sendable () -> Result) async -> Result {
    await withCheckedContinuation { continuation in
        let thread = Thread {
            OpenMP.serializeCurrentThread()
            LeptonicaMessages.silenced
            continuation.resume(returning: body())
        }
        thread.stackSize = 16 << 20
        thread.name = "docscan-tesseract"
        thread.start()
    }
}
