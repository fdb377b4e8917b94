import DocScanRecognition
import Foundation

/// A fitted confidence calibration and how it was made, as `docscan calibrate` writes it to `FOLDER/ID.json` and
/// the reading subcommands load it.
struct StoredCalibration: Codable {
    var recognizer: String
    var name: String
    var version: String
    var model: String
    var level: String
    var fittedWords: Int
    var heldOutWords: Int
    var heldOutECERaw: Double
    var heldOutECECalibrated: Double
    var map: ConfidenceCalibration

    enum CodingKeys: String, CodingKey {
        case recognizer, name, version, model, level, fittedWords = "fitted_words", heldOutWords = "held_out_words"
        case heldOutECERaw = "held_out_ece_raw", heldOutECECalibrated = "held_out_ece_calibrated", map
    }

    static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return encoder
    }

    /// The calibration file of recognizer `id` in `folder`, when there is one.
    /// - Throws: a message naming the file when it exists but cannot be read as a calibration.
    static func load(id: String, from folder: URL) throws -> (StoredCalibration, URL)? {
        let file = folder.appendingPathComponent("\(id).json")
        guard FileManager.default.fileExists(atPath: file.path) else { return nil }
        do {
            return (try JSONDecoder().decode(StoredCalibration.self, from: Data(contentsOf: file)), file)
        } catch {
            throw CalibrationFileError(file: file.path, reason: "\(error)")
        }
    }
}

/// A calibration file that exists but is not a calibration.
struct CalibrationFileError: Error, CustomStringConvertible {
    var file: String
    var reason: String
    var description: String { "cannot read the confidence calibration \(file): \(reason)" }
}
