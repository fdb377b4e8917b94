import ArgumentParser
import DocScan
import DocScanMetrics
import Foundation

/// `docscan evaluate`: detection, orientation and split accuracy against ground truth.
struct Evaluate: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Measure page detection against ground truth (NAME.truth.json beside each photo).",
        discussion: """
            Prints, per photo, the page count found and expected, the IoU of each page outline, the corner error in \
            pixels (corners compared in reading order, so a wrong rotation shows) and whether the rotation is right; \
            then the mean and smallest IoU and the share of photos with the right page count.
            """
    )

    @Argument(help: "Photos, or folders of photos, with truth files beside them.", completion: .file())
    var paths: [String]

    func run() async throws {
        var options = DocumentScanner.Options()
        options.correctsLighting = false
        let scanner = DocumentScanner(options: options)
        var ious: [Double] = []
        var photos = 0, countsRight = 0, rotationsRight = 0, rotationsKnown = 0, orderRight = 0, failures = 0
        for photo in PhotoList.expand(paths) {
            let url = URL(fileURLWithPath: photo)
            guard let truthURL = GroundTruth.file(for: url) else { continue }
            let truth = try GroundTruth(contentsOf: truthURL)
            let result: ScanResult
            do {
                result = try scanner.scan(contentsOf: url)
            } catch {
                failures += 1
                print("\(photo): FAILED \(error)")
                continue
            }
            let score = DetectionScore(found: result.pages.map { ($0.quad, $0.rotation) }, truth: truth.pages)
            photos += 1
            ious += score.pageIoU
            if score.pageCountCorrect { countsRight += 1 }
            if score.orderCorrect { orderRight += 1 }
            for verdict in score.rotationCorrect.compactMap({ $0 }) {
                rotationsKnown += 1
                if verdict { rotationsRight += 1 }
            }
            let pages = zip(score.pageIoU, score.cornerError).map { iou, error in
                String(format: "%.3f", iou) + (error.map { String(format: "/%.0fpx", $0) } ?? "")
            }
            let rotation = score.rotationCorrect.map { $0.map { $0 ? "ok" : "WRONG" } ?? "-" }.joined(separator: ",")
            print(
                "\(photo): pages \(score.foundPages)/\(score.truePages) IoU \(pages.joined(separator: " ")) rotation \(rotation)\(score.orderCorrect ? "" : " ORDER")"
            )
        }
        guard photos > 0 else { throw ValidationError("no photo with a truth file was found") }
        let mean = ious.reduce(0, +) / Double(max(ious.count, 1))
        print(
            String(
                format:
                    "photos %d  mean IoU %.4f  min IoU %.4f  page count right %.1f%%  rotation right %.1f%%  order right %.1f%%  failed %d",
                photos, mean, ious.min() ?? 0, 100 * Double(countsRight) / Double(photos),
                100 * Double(rotationsRight) / Double(max(rotationsKnown, 1)),
                100 * Double(orderRight) / Double(photos), failures))
    }
}
