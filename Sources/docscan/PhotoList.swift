import Foundation

/// Expands command-line paths into photo files: files as given, folders into the images they hold (sorted by name).
enum PhotoList {
    static let extensions: Set<String> = ["jpg", "jpeg", "png", "tif", "tiff", "webp", "bmp"]

    static func expand(_ paths: [String]) -> [String] {
        paths.flatMap { path -> [String] in
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else {
                return [path]
            }
            let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
            return names.filter { extensions.contains(($0 as NSString).pathExtension.lowercased()) }.sorted()
                .map { (path as NSString).appendingPathComponent($0) }
        }
    }
}
