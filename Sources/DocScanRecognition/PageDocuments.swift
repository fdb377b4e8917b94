import DocScanGeometry
import Foundation

extension RecognizedPage {
    /// The page as an hOCR document (HTML with `ocr_page`, `ocr_carea`, `ocr_line` and `ocrx_word` elements, boxes
    /// in page pixels and word confidences as `x_wconf`), readable by hOCR tools.
    public func hOCR(imageName: String, pageNumber: Int = 1) -> String {
        func escape(_ s: String) -> String {
            s.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
                .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
        }
        func bbox(_ r: Rect) -> String {
            "bbox \(Int(r.minX.rounded())) \(Int(r.minY.rounded())) \(Int(r.maxX.rounded())) \(Int(r.maxY.rounded()))"
        }
        var html = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-transitional.dtd">
            <html xmlns="http://www.w3.org/1999/xhtml" xml:lang="en" lang="en">
            <head>
            <title>\(escape(imageName))</title>
            <meta http-equiv="Content-Type" content="text/html;charset=utf-8"/>
            <meta name="ocr-system" content="DocScan (\(escape(provenance.backend)) \(escape(provenance.version)))"/>
            <meta name="ocr-capabilities" content="ocr_page ocr_carea ocr_line ocrx_word"/>
            </head>
            <body>
            <div class="ocr_page" id="page_\(pageNumber)" title="image &quot;\(escape(imageName))&quot;; \(bbox(Rect(x: 0, y: 0, width: Double(width), height: Double(height)))); ppageno \(pageNumber - 1)">

            """
        var lineNumber = 0, wordNumber = 0
        for (b, block) in blocks.enumerated() {
            html += "<div class=\"ocr_carea\" id=\"block_\(pageNumber)_\(b + 1)\" title=\"\(bbox(block.box))\">\n"
            for line in block.lines {
                lineNumber += 1
                html += "<span class=\"ocr_line\" id=\"line_\(pageNumber)_\(lineNumber)\" title=\"\(bbox(line.box))\">"
                for word in line.words {
                    wordNumber += 1
                    let confidence = word.confidence.map { "; x_wconf \(Int(($0.value * 100).rounded()))" } ?? ""
                    html += "<span class=\"ocrx_word\" id=\"word_\(pageNumber)_\(wordNumber)\" title=\"\(bbox(word.box))\(confidence)\">\(escape(word.text))</span> "
                }
                html += "</span>\n"
            }
            html += "</div>\n"
        }
        html += "</div>\n</body>\n</html>\n"
        return html
    }
}

/// A searchable PDF: each page is its image with the recognized words laid over it as invisible text, so the text can
/// be searched, selected and copied in any PDF viewer.
///
/// Text uses the standard Helvetica font with WinAnsi encoding; characters outside it are written as `?` in the hidden
/// layer (the image shows them as they are).
public struct SearchablePDF {
    private var pages: [(jpeg: Data, width: Int, height: Int, isGray: Bool, resolution: Double, text: RecognizedPage?)] = []

    /// An empty document.
    public init() {}

    /// Adds a page: its JPEG bytes (gray or RGB), its pixel size, its resolution (pixels per inch, which sets the paper
    /// size) and the words read on it (boxes in the same pixels).
    public mutating func addPage(
        jpeg: Data, width: Int, height: Int, isGray: Bool, resolution: Double = 300, text: RecognizedPage?
    ) {
        pages.append((jpeg, width, height, isGray, resolution > 0 ? resolution : 300, text))
    }

    /// The PDF file's bytes.
    public func data() -> Data {
        var objects: [Data] = []  // object n is objects[n - 1]
        func add(_ body: Data) -> Int {
            objects.append(body)
            return objects.count
        }
        func text(_ s: String) -> Data { Data(s.utf8) }
        let catalog = add(Data()), pageTree = add(Data())
        let font = add(text("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>"))
        var pageIds: [Int] = []
        for page in pages {
            let points = 72 / page.resolution
            let pageWidth = Double(page.width) * points, pageHeight = Double(page.height) * points
            var imageObject = text(
                "<< /Type /XObject /Subtype /Image /Width \(page.width) /Height \(page.height) /ColorSpace /\(page.isGray ? "DeviceGray" : "DeviceRGB") "
                    + "/BitsPerComponent 8 /Filter /DCTDecode /Length \(page.jpeg.count) >>\nstream\n")
            imageObject += page.jpeg + text("\nendstream")
            let image = add(imageObject)
            var content = String(format: "q %.3f 0 0 %.3f 0 0 cm /Im0 Do Q\n", pageWidth, pageHeight)
            content += "BT 3 Tr\n"  // render mode 3: invisible text
            for word in page.text?.words ?? [] where word.box.width > 0 && word.box.height > 0 {
                let encoded = Self.winAnsi(word.text)
                guard !encoded.isEmpty else { continue }
                let size = word.box.height * points
                // Stretch the word horizontally to its box (Helvetica averages about half an em per character).
                let natural = Double(encoded.count) * 0.5 * size
                let stretch = natural > 0 ? word.box.width * points / natural * 100 : 100
                let x = word.box.minX * points, y = pageHeight - word.box.maxY * points + size * 0.2
                content += String(format: "/F1 %.2f Tf %.1f Tz 1 0 0 1 %.2f %.2f Tm (", size, stretch, x, y)
                content += encoded + ") Tj\n"
            }
            content += "ET\n"
            let contentData = Data(content.utf8)
            var stream = text("<< /Length \(contentData.count) >>\nstream\n")
            stream += contentData + text("\nendstream")
            let contents = add(stream)
            pageIds.append(
                add(
                    text(
                        String(format: "<< /Type /Page /Parent %d 0 R /MediaBox [0 0 %.2f %.2f] ", pageTree, pageWidth, pageHeight)
                            + "/Resources << /XObject << /Im0 \(image) 0 R >> /Font << /F1 \(font) 0 R >> >> "
                            + "/Contents \(contents) 0 R >>")))
        }
        objects[catalog - 1] = text("<< /Type /Catalog /Pages \(pageTree) 0 R >>")
        objects[pageTree - 1] = text(
            "<< /Type /Pages /Kids [\(pageIds.map { "\($0) 0 R" }.joined(separator: " "))] /Count \(pageIds.count) >>")
        var file = text("%PDF-1.4\n%\u{E2}\u{E3}\u{CF}\u{D3}\n")
        var offsets: [Int] = []
        for (index, body) in objects.enumerated() {
            offsets.append(file.count)
            file += text("\(index + 1) 0 obj\n") + body + text("\nendobj\n")
        }
        let xref = file.count
        file += text("xref\n0 \(objects.count + 1)\n0000000000 65535 f \n")
        for offset in offsets { file += text(String(format: "%010d 00000 n \n", offset)) }
        file += text("trailer\n<< /Size \(objects.count + 1) /Root \(catalog) 0 R >>\nstartxref\n\(xref)\n%%EOF\n")
        return file
    }

    /// The text as a PDF string body in WinAnsi (Latin-1 range), with `\`, `(` and `)` escaped.
    public static func winAnsi(_ s: String) -> String {
        var out = ""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\\", "(", ")": out += "\\" + String(scalar)
            case " "..."~": out.unicodeScalars.append(scalar)
            case "\u{A0}"..."\u{FF}": out += String(format: "\\%03o", scalar.value)
            default: out += "?"
            }
        }
        return out
    }
}
