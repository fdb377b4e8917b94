import ArgumentParser
import DocScan
import DocScanMetrics
import DocScanRecognition
import Foundation

/// `docscan evaluate`: detection, orientation and split accuracy against ground truth.
struct Evaluate: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Measure page detection against ground truth (NAME.truth.json beside each photo).",
        discussion: """
            Prints, per photo, the page count found and expected, the IoU of each page outline, the corner error in \
            pixels (corners compared in reading order, so a wrong rotation shows) and whether the rotation is right; \
            then the mean and smallest IoU and the share of photos with the right page count. With --recognizers, \
            each true page is read from the found page that overlaps it most (a page not found reads as empty); CER \
            and WER are pooled over all characters and words of a kind (printed rules such as ----- included; \
            "no rules" is the CER with them left out of both texts), page CER is the mean of each page's own CER; \
            and each page's rotation is judged again once its reading has turned it (as `docscan scan` turns it).
            """
    )

    @Argument(help: "Photos, or folders of photos, with truth files beside them.", completion: .file())
    var paths: [String]

    @Option(help: "Also read the pages with these recognizers (comma-separated ids) and report CER and WER per kind.")
    var recognizers: String?

    @Flag(help: "Leave camera shake in: no motion blur removal.")
    var noDeblur = false

    @OptionGroup(title: "Recognition")
    var recognition: RecognitionOptions

    func run() async throws {
        var options = DocumentScanner.Options()
        let recognizerIDs = recognizers.map(RecognitionOptions.ids) ?? []
        // Lighting changes only what the recognizers read; shake removal changes what the orientation and the spread
        // split are decided on, so it runs as it does in `docscan scan`.
        options.correctsLighting = !recognizerIDs.isEmpty
        options.correctsMotionBlur = !noDeblur
        let registry = try recognition.registry()
        let readers = try recognizerIDs.map { try registry.recognizer($0) }
        let request = try recognition.request()
        options.rendersSuspectedShake = true  // pages read with a suspected shake removed or a defocus undone too
        let scanner = DocumentScanner(options: options)
        var text = TextTally()
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
            for recognizer in readers {
                await text.read(result, truth: truth, photo: photo, with: recognizer, request: request)
            }
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
        text.printSummary()
        for recognizer in readers { await recognizer.shutdown() }
    }
}

/// Text error rates per recognizer and document kind.
struct TextTally {
    struct Key: Hashable, Comparable {
        var recognizer: String
        var kind: String
        static func < (a: Key, b: Key) -> Bool { (a.recognizer, a.kind) < (b.recognizer, b.kind) }
    }
    var characters: [Key: TextErrorRate] = [:]
    /// The characters' errors with printed rules left out of both texts.
    var charactersWithoutRules: [Key: TextErrorRate] = [:]
    var words: [Key: TextErrorRate] = [:]
    /// Each page's own CER, for the mean over pages (the pooled rate weighs long pages more).
    var pageCharacterRates: [Key: [Double]] = [:]
    var milliseconds: [Key: [Double]] = [:]
    /// Per recognizer: pages whose rotation, once the reading turned them, matches the truth, and pages with a known
    /// rotation that were read.
    var rotationsAfterReading: [String: (right: Int, known: Int)] = [:]

    /// Reads each true page's best-overlapping found page and adds its error counts (a page not found counts as read
    /// empty).
    mutating func read(
        _ result: ScanResult, truth: GroundTruth, photo: String, with recognizer: any TextRecognizer,
        request: RecognitionRequest
    ) async {
        let id = recognizer.descriptor.id
        let kind = truth.kind ?? "other"
        var cers: [String] = []
        var rotations: [String] = []
        for truePage in truth.pages {
            guard let trueText = truePage.text else { continue }
            let match = result.pages.max { a, b in
                (truePage.quad.map { a.quad.intersectionOverUnion($0) } ?? 0)
                    < (truePage.quad.map { b.quad.intersectionOverUnion($0) } ?? 0)
            }
            var reading = ""
            if let match, let quad = truePage.quad, match.quad.intersectionOverUnion(quad) > 0.5 {
                let started = ContinuousClock.now
                do {
                    let page = try await match.read(with: recognizer, request: request).page
                    reading = page.text
                    if let trueRotation = truePage.rotation {
                        let turns = page.provenance.orientationQuarterTurns ?? 0
                        let isRight = match.quad.rotatedLabels(quarterTurns: turns).uprightRotation == trueRotation
                        rotationsAfterReading[id, default: (0, 0)].known += 1
                        if isRight { rotationsAfterReading[id, default: (0, 0)].right += 1 }
                        rotations.append(isRight ? "ok" : "WRONG")
                    }
                } catch {
                    print("\(photo): \(id) failed: \(error)")
                }
                let elapsed = ContinuousClock.now - started
                milliseconds[Key(recognizer: id, kind: kind), default: []].append(elapsed.milliseconds)
            }
            // Every character of the truth counts, the printed rules (-----, =====) too: they are text on the page,
            // and both levels read them. The CER with rules left out of both texts is kept beside it, the measure
            // of the figures before 2026-11-27 (evening).
            let c = TextErrorRate.characters(reading, truth: trueText)
            let w = TextErrorRate.words(reading, truth: trueText)
            let withoutRules = TextErrorRate.characters(
                reading, truth: trueText, TextErrorRate.Normalization(ignoresRules: true))
            for key in [Key(recognizer: id, kind: kind), Key(recognizer: id, kind: "all")] {
                characters[key, default: .zero] = characters[key, default: .zero] + c
                charactersWithoutRules[key, default: .zero] = charactersWithoutRules[key, default: .zero] + withoutRules
                words[key, default: .zero] = words[key, default: .zero] + w
                pageCharacterRates[key, default: []].append(c.rate)
            }
            cers.append(String(format: "%.2f%%", 100 * c.rate))
        }
        print("\(photo): \(id) CER \(cers.joined(separator: " ")) rotation \(rotations.joined(separator: ","))")
    }

    func printSummary() {
        guard !characters.isEmpty else { return }
        for (id, count) in rotationsAfterReading.sorted(by: { $0.key < $1.key }) {
            let share = 100 * Double(count.right) / Double(max(count.known, 1))
            print("\(id): rotation right after reading " + String(format: "%.1f%%", share))
        }
        print("recognizer  kind      pages   CER      WER      page CER  no rules  median ms/page  total s")
        for key in characters.keys.sorted() {
            let times =
                (key.kind == "all"
                ? milliseconds.filter { $0.key.recognizer == key.recognizer }.flatMap(\.value)
                : milliseconds[key] ?? []).sorted()
            let median = times.isEmpty ? 0 : times[times.count / 2]
            let rates = pageCharacterRates[key] ?? []
            let meanPageRate = rates.reduce(0, +) / Double(max(1, rates.count))
            print(
                key.recognizer.padding(toLength: 11, withPad: " ", startingAt: 0) + " "
                    + key.kind.padding(toLength: 9, withPad: " ", startingAt: 0)
                    + String(
                        format: " %5d  %6.2f%%  %6.2f%%  %7.2f%%  %7.2f%%  %8.0f  %13.1f", rates.count,
                        100 * characters[key]!.rate,
                        100 * (words[key]?.rate ?? 0), 100 * meanPageRate,
                        100 * (charactersWithoutRules[key]?.rate ?? 0),
                        median, times.reduce(0, +) / 1000))
        }
    }
}
