import DocScanRecognition

/// The JSON document `docscan scan --json` prints for each photo (one object per line), as a Codable value so that
/// other tools and tests can read it back.
public struct ScanReport: Codable, Sendable, Equatable {
    /// One page of the photo.
    public struct Page: Codable, Sendable, Equatable {
        /// Position among the photo's pages, from 1, in reading order.
        public var index: Int
        /// Corners in the upright photo, in the page's reading order.
        public var quad: Quad
        /// False when the whole frame was used because no outline qualified.
        public var detected: Bool
        /// Detection confidence, 0...1.
        public var confidence: Double
        /// Path of the written page image.
        public var image: String?
        /// Page width in pixels.
        public var width: Int
        /// Page height in pixels.
        public var height: Int
        /// Clockwise rotation of the page's up direction in the photo (0, 90, 180, 270).
        public var rotation: Int
        /// Residual skew removed, degrees.
        public var skewDegrees: Double
        /// Photo-to-page homography, row-major.
        public var homography: [Double]?
        /// The page text in reading order, when it was recognized.
        public var text: String?
        /// The id of the recognizer that read the page.
        public var recognizer: String?
        /// The recognized lines, with their words, boxes on the page and quads in the photo.
        public var lines: [RecognizedLine]?
        /// What ran to read the page (engine, version, models, level mapping, orientation, timings).
        public var recognition: RecognitionProvenance?
        /// Warnings about the recognition request (options the recognizer could not honour).
        public var diagnostics: [String]?
        /// Set when recognition failed for this page (the page image is still written).
        public var recognitionError: String?

        enum CodingKeys: String, CodingKey {
            case index, quad, detected, confidence, image, width, height, rotation
            case skewDegrees = "skew_degrees"
            case homography, text, recognizer, lines, recognition, diagnostics
            case recognitionError = "recognition_error"
        }

        /// Adds the outcome of recognizing the page.
        public mutating func attach(_ outcome: Result<RecognizedPage, RecognitionError>, recognizer id: String) {
            recognizer = id
            switch outcome {
            case .success(let page):
                text = page.text
                lines = page.lines
                recognition = page.provenance
                diagnostics = page.diagnostics.isEmpty ? nil : page.diagnostics.map(\.message)
            case .failure(let error):
                recognitionError = error.description
            }
        }

        /// Creates a page entry.
        public init(
            index: Int, quad: Quad, detected: Bool, confidence: Double, image: String?, width: Int, height: Int,
            rotation: Int, skewDegrees: Double, homography: [Double]?
        ) {
            self.index = index
            self.quad = quad
            self.detected = detected
            self.confidence = confidence
            self.image = image
            self.width = width
            self.height = height
            self.rotation = rotation
            self.skewDegrees = skewDegrees
            self.homography = homography
        }
    }

    /// A camera shake removed from the photo.
    public struct ShakeReport: Codable, Sendable, Equatable {
        /// Length of the smear, in photo pixels.
        public var length: Double
        /// Its direction, degrees from the x axis towards the y axis (0...180).
        public var angleDegrees: Double

        enum CodingKeys: String, CodingKey {
            case length
            case angleDegrees = "angle_degrees"
        }
    }

    /// A failure to process the photo.
    public struct Failure: Codable, Sendable, Equatable {
        /// The ``DocScanError/Code`` raw value.
        public var code: String
        /// The message shown to people.
        public var message: String
    }

    /// The photo's path as given.
    public var source: String
    /// Upright width (EXIF applied); absent when the photo could not be read.
    public var width: Int?
    /// Upright height.
    public var height: Int?
    /// Pages in reading order.
    public var pages: [Page]
    /// The camera shake removed before the pages were cut out, if any.
    public var motionBlur: ShakeReport?
    /// Milliseconds per stage.
    public var timings: StageTimings?
    /// Set when the photo failed.
    public var error: Failure?

    enum CodingKeys: String, CodingKey {
        case source, width, height, pages
        case motionBlur = "motion_blur"
        case timings = "timings_ms"
        case error
    }

    /// A report for a scanned photo; `imagePaths` gives each page's written file, by page index.
    public init(source: String, result: ScanResult, imagePaths: [Int: String]) {
        self.source = source
        width = result.width
        height = result.height
        pages = result.pages.map { page in
            Page(
                index: page.index, quad: page.quad.rounded(), detected: page.detected,
                confidence: (page.confidence * 1000).rounded() / 1000, image: imagePaths[page.index],
                width: page.image.width, height: page.image.height, rotation: page.rotation,
                skewDegrees: (page.skewDegrees * 100).rounded() / 100, homography: page.homography.matrix)
        }
        motionBlur = result.motionBlur.map {
            ShakeReport(length: ($0.length * 100).rounded() / 100, angleDegrees: ($0.angleDegrees * 10).rounded() / 10)
        }
        timings = result.timings.rounded()
        error = nil
    }

    /// A report for a photo that failed.
    public init(source: String, error: DocScanError) {
        self.source = source
        pages = []
        self.error = Failure(code: error.code.rawValue, message: error.message)
    }
}

extension Quad {
    /// Corners rounded to a hundredth of a pixel, for reports.
    func rounded() -> Quad {
        Quad(corners.map { Point(x: ($0.x * 100).rounded() / 100, y: ($0.y * 100).rounded() / 100) })
    }
}

extension StageTimings {
    func rounded() -> StageTimings {
        var copy = self
        for path in [\StageTimings.load, \.detect, \.deblur, \.warp, \.light, \.deskew, \.split] {
            copy[keyPath: path] = (copy[keyPath: path] * 10).rounded() / 10
        }
        return copy
    }
}
