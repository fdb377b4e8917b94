import DocScan
import Foundation

/// Writes page images into the output folder without ever touching an input file, and without two photos of the same
/// name overwriting each other's pages in one run. One photo's pages may be written while another's are written again:
/// the names handed out are guarded by a lock.
final class PageWriter: @unchecked Sendable {
    let folder: URL
    private let inputs: Set<String>
    private let lock = NSLock()
    private var usedStems: [String: Int] = [:]

    init(folder: URL, inputs: [URL]) {
        self.folder = folder
        self.inputs = Set(inputs.map { $0.standardizedFileURL.resolvingSymlinksInPath().path })
    }

    /// Writes each page as `STEM-pN.png`; returns the written paths by page index.
    func write(_ pages: [ScannedPage], of photo: URL) throws(DocScanError) -> [Int: String] {
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw DocScanError(
                .outputFailed, "cannot create the output folder \(folder.path): \(error.localizedDescription)")
        }
        let stem = uniqueStem(for: photo)
        var paths: [Int: String] = [:]
        for page in pages {
            let target = folder.appendingPathComponent("\(stem)-p\(page.index).png")
            guard !inputs.contains(target.standardizedFileURL.resolvingSymlinksInPath().path) else {
                throw DocScanError(
                    .outputFailed,
                    "\(target.path) is one of the inputs; refusing to overwrite it (choose another --out)")
            }
            let data = try page.image.encoded(as: .png)
            do {
                try data.write(to: target, options: .atomic)
            } catch {
                throw DocScanError(.outputFailed, "cannot write \(target.path): \(error.localizedDescription)")
            }
            paths[page.index] = target.relativePath
        }
        return paths
    }

    /// Writes a page again over its own image written earlier in this run (at `path`, as ``write(_:of:)`` returned).
    func rewrite(_ page: ScannedPage, at path: String) throws(DocScanError) {
        let data = try page.image.encoded(as: .png)
        do {
            try data.write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw DocScanError(.outputFailed, "cannot write \(path): \(error.localizedDescription)")
        }
    }

    private func uniqueStem(for photo: URL) -> String {
        let stem = photo.deletingPathExtension().lastPathComponent
        let seen = lock.withLock {
            let seen = usedStems[stem, default: 0]
            usedStems[stem] = seen + 1
            return seen
        }
        return seen == 0 ? stem : "\(stem)-\(seen + 1)"
    }
}
