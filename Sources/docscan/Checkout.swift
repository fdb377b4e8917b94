import Foundation

/// The DocScan checkout the running `docscan` was built in, found by walking up from the executable: where the
/// shipped confidence calibrations (`Calibration/confidence`) and plugins (`Plugins`) are.
enum Checkout {
    /// `path` inside the checkout, when the executable sits in one that has that folder.
    static func folder(_ path: String) -> URL? {
        guard let executable = Bundle.main.executableURL?.resolvingSymlinksInPath() else { return nil }
        var folder = executable.deletingLastPathComponent()
        while folder.path != "/" && !folder.path.isEmpty {
            let candidate = folder.appendingPathComponent(path)
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: candidate.path, isDirectory: &isDirectory), isDirectory.boolValue,
                FileManager.default.fileExists(atPath: folder.appendingPathComponent("Package.swift").path)
            {
                return candidate
            }
            folder.deleteLastPathComponent()
        }
        return nil
    }
}
