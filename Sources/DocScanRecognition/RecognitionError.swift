/// Why a recognition could not be done, each case with a message a user can act on.
public enum RecognitionError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No recognizer with this id is registered; `known` lists those that are.
    case unknownRecognizer(String, known: [String])
    /// The page's pixels are unusable.
    case invalidImage(String)
    /// A request option is out of range or contradicts another.
    case invalidRequest(String)
    /// A language has no model on this machine; `hint` says how to install it.
    case missingLanguage(String, searched: [String], hint: String)
    /// A model exists but could not be loaded.
    case modelLoadFailed(String)
    /// In strict mode: the recognizer cannot honour an option of the request.
    case unsupportedOption(recognizer: String, option: String)
    /// The task was cancelled while recognizing.
    case cancelled
    /// The request's deadline passed before the page was read.
    case deadlineExceeded
    /// The engine itself failed (or, for a plugin, its process did).
    case engineFailure(String)

    public var description: String {
        switch self {
        case .unknownRecognizer(let id, let known):
            return "unknown recognizer '\(id)'; known recognizers: \(known.sorted().joined(separator: ", "))"
        case .invalidImage(let message): return "invalid page image: \(message)"
        case .invalidRequest(let message): return "invalid recognition request: \(message)"
        case .missingLanguage(let language, let searched, let hint):
            let places = searched.isEmpty ? "no model folder was found" : "looked in \(searched.joined(separator: ", "))"
            return "no model for language '\(language)' (\(places)); \(hint)"
        case .modelLoadFailed(let message): return "could not load the recognition model: \(message)"
        case .unsupportedOption(let recognizer, let option):
            return "recognizer '\(recognizer)' cannot honour \(option) (strict mode)"
        case .cancelled: return "recognition was cancelled"
        case .deadlineExceeded: return "recognition did not finish before the deadline"
        case .engineFailure(let message): return "recognition failed: \(message)"
        }
    }
}
