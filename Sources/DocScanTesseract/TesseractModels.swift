import DocScanRecognition
import Foundation

/// Where Tesseract's language models (`*.traineddata`) are looked for, in order of preference.
///
/// An explicit folder comes first, then `TESSDATA_PREFIX`, then the user's models folder
/// (`$XDG_DATA_HOME/docscan/tessdata`, default `~/.local/share/docscan/tessdata`), then the standard Debian/Ubuntu,
/// Fedora and Homebrew locations. The user's folder is where better models (tessdata_best) go: the `accurate` level
/// prefers it, while `fast` prefers the system's small models.
public struct TesseractModelLocator: Sendable {
    /// A folder given by the caller (a command-line option), searched first.
    public var explicitFolder: URL?
    /// The environment to read `TESSDATA_PREFIX`, `XDG_DATA_HOME` and `HOME` from.
    public var environment: [String: String]

    /// A locator reading the process environment.
    public init(explicitFolder: URL? = nil, environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.explicitFolder = explicitFolder
        self.environment = environment
    }

    /// The user's models folder, whether or not it exists.
    public var userFolder: URL {
        let dataHome = environment["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? ((environment["HOME"] ?? NSHomeDirectory()) + "/.local/share")
        return URL(fileURLWithPath: dataHome).appendingPathComponent("docscan/tessdata")
    }

    static let systemFolders = [
        "/usr/share/tesseract-ocr/5/tessdata", "/usr/share/tesseract-ocr/4.00/tessdata", "/usr/share/tessdata",
        "/usr/local/share/tessdata", "/opt/homebrew/share/tessdata",
    ]

    /// The existing model folders in the order they are searched for `level`.
    public func folders(for level: RecognitionLevel) -> [URL] {
        var candidates: [URL] = []
        if let explicitFolder { candidates.append(explicitFolder) }
        if let prefix = environment["TESSDATA_PREFIX"], !prefix.isEmpty {
            // Tesseract 5 reads the folder itself; older setups point at its parent.
            candidates.append(URL(fileURLWithPath: prefix))
            candidates.append(URL(fileURLWithPath: prefix).appendingPathComponent("tessdata"))
        }
        let system = Self.systemFolders.map { URL(fileURLWithPath: $0) }
        candidates += level == .accurate ? [userFolder] + system : system + [userFolder]
        var seen = Set<String>()
        return candidates.filter { url in
            var isFolder: ObjCBool = false
            let path = url.standardizedFileURL.path
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue else {
                return false
            }
            return seen.insert(path).inserted
        }
    }

    /// The languages with a model in `folder`.
    public static func languages(in folder: URL) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasSuffix(".traineddata") }.map { String($0.dropLast(".traineddata".count)) }
            .filter { $0 != "osd" && $0 != "equ" }.sorted()
    }

    /// The first folder holding models for every language of `languages` (Tesseract loads them from one folder).
    /// - Throws: ``RecognitionError/missingLanguage(_:searched:hint:)`` naming the first language that is missing
    ///   and the package that provides it.
    public func folder(for languages: [String], level: RecognitionLevel) throws(RecognitionError) -> URL {
        let searched = folders(for: level)
        for folder in searched {
            let available = Set(Self.languages(in: folder))
            if languages.allSatisfy(available.contains) { return folder }
        }
        let everywhere = Set(searched.flatMap(Self.languages(in:)))
        let missing = languages.first { !everywhere.contains($0) } ?? languages[0]
        let hint: String
        if everywhere.contains(missing) {
            hint = "the requested languages are in different folders; put all their .traineddata files in one folder"
        } else {
            hint = "install it with: sudo apt-get install \(Self.debianPackage(for: missing)) (Homebrew: brew install "
                + "tesseract-lang), or put \(missing).traineddata in \(userFolder.path)"
        }
        throw .missingLanguage(missing, searched: searched.map(\.path), hint: hint)
    }

    /// The Debian/Ubuntu package holding a language's model (`chi_sim` → `tesseract-ocr-chi-sim`).
    public static func debianPackage(for language: String) -> String {
        "tesseract-ocr-" + language.lowercased().replacingOccurrences(of: "_", with: "-")
    }
}
