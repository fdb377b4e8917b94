// swift-tools-version:6.1
import Foundation
import PackageDescription

/// OpenCV's flags come from a narrow `.pc` file beside the system-library target: it links only core and imgproc, and
/// the image codec libraries the shim decodes with (what the shim uses), instead of the ~55 modules `pkg-config
/// opencv4` lists, which would make every process start load hundreds of shared objects. Where OpenCV is installed in
/// neither known layout, the full `opencv4` package is used, with the image codec libraries the shim calls directly
/// linked beside it (`codecLinkerSettings`).
///
/// SwiftPM caches what this manifest computes, so a build started before OpenCV is installed must already choose the
/// layout the install will bring (apt's on Linux, Homebrew's on macOS): choosing the full package then would outlast
/// the install.
let openCVPackageConfig: String = {
    let folder = Context.packageDirectory + "/Sources/COpenCV"
    let files = FileManager.default
    #if os(Linux)
        let native = ("/usr/include/opencv4/opencv2/core.hpp", "docscan-opencv-linux.pc")
    #else
        let native = ("/opt/homebrew/include/opencv4/opencv2/core.hpp", "docscan-opencv-homebrew.pc")
    #endif
    if files.fileExists(atPath: native.0) { return folder + "/" + native.1 }
    let elsewhere = [
        "/usr/local/include/opencv4", "/usr/include/opencv4", "/opt/homebrew/include/opencv4", "/usr/local/opt/opencv",
    ].contains { files.fileExists(atPath: $0) }
    return elsewhere ? "opencv4" : folder + "/" + native.1
}()

/// The image codec libraries the shim calls directly (Codecs.cpp), which the narrow `.pc` files list and the full
/// `opencv4` package does not.
let codecLinkerSettings: [LinkerSetting] =
    openCVPackageConfig == "opencv4" ? ["jpeg", "png16", "tiff", "webp"].map { .linkedLibrary($0) } : []

let package = Package(
    name: "DocScan",
    platforms: [.macOS(.v13)],
    products: [
        .library(name: "DocScan", targets: ["DocScan"]),
        .library(name: "DocScanRecognition", targets: ["DocScanRecognition"]),
        .library(name: "DocScanTesseract", targets: ["DocScanTesseract"]),
        .library(name: "DocScanMetrics", targets: ["DocScanMetrics"]),
        .library(name: "DocScanPlugins", targets: ["DocScanPlugins"]),
        .library(name: "DocScanRecognitionTestKit", targets: ["DocScanRecognitionTestKit"]),
        .executable(name: "docscan", targets: ["docscan"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0")
    ],
    targets: [
        .systemLibrary(
            name: "COpenCV",
            pkgConfig: openCVPackageConfig,
            providers: [
                .apt(["libopencv-dev", "libjpeg-dev", "libpng-dev", "libtiff-dev", "libwebp-dev"]),
                .brew(["opencv", "jpeg-turbo", "libpng", "libtiff", "webp"]),
            ]
        ),
        .systemLibrary(
            name: "CTesseract",
            pkgConfig: "tesseract",
            providers: [.apt(["libtesseract-dev"]), .brew(["tesseract"])]
        ),
        .target(name: "CDocScanShim", dependencies: ["COpenCV"], linkerSettings: codecLinkerSettings),
        .target(name: "DocScanGeometry"),
        .target(name: "DocScanRecognition", dependencies: ["DocScanGeometry"]),
        .target(name: "DocScan", dependencies: ["CDocScanShim", "DocScanGeometry", "DocScanRecognition"]),
        .target(name: "DocScanTesseract", dependencies: ["CTesseract", "DocScanRecognition"]),
        .target(name: "DocScanMetrics", dependencies: ["DocScan", "DocScanRecognition"]),
        .target(name: "DocScanPlugins", dependencies: ["DocScanRecognition"]),
        .target(name: "DocScanRecognitionTestKit", dependencies: ["DocScanRecognition"]),
        .executableTarget(
            name: "docscan",
            dependencies: [
                "DocScan",
                "DocScanMetrics",
                "DocScanPlugins",
                "DocScanRecognition",
                "DocScanTesseract",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .target(
            name: "GlyphRecognizer", dependencies: ["DocScanGeometry", "DocScanRecognition"],
            path: "Plugins/glyphs/Sources/GlyphRecognizer"),
        .executableTarget(
            name: "docscan-glyph-plugin", dependencies: ["DocScanPlugins", "GlyphRecognizer"],
            path: "Plugins/glyphs/Sources/docscan-glyph-plugin"),
        .executableTarget(
            name: "docscan-tesseract-plugin", dependencies: ["DocScanPlugins", "DocScanRecognition", "DocScanTesseract"]),
        .testTarget(name: "DocScanTests", dependencies: ["DocScan", "DocScanMetrics", "DocScanRecognition"], exclude: ["Fixtures"]),
        .testTarget(
            name: "RecognitionTests",
            dependencies: ["DocScan", "DocScanRecognition", "DocScanRecognitionTestKit", "DocScanTesseract", "DocScanMetrics"]),
        .testTarget(
            name: "PluginTests",
            dependencies: [
                "DocScan", "DocScanPlugins", "DocScanRecognition", "DocScanRecognitionTestKit", "DocScanTesseract", "GlyphRecognizer",
            ], exclude: ["Fixtures"]),
        .testTarget(name: "docscanTests", dependencies: ["docscan", "DocScan"]),
    ],
    swiftLanguageModes: [.v6],
    cxxLanguageStandard: .cxx17
)
