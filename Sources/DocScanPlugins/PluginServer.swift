import DocScanRecognition
import Foundation

/// Turns any ``TextRecognizer`` into a plugin executable: the other end of ``PluginRecognizer``.
///
/// ```swift
/// // Sources/my-plugin/main.swift
/// import DocScanPlugins
/// await PluginServer.serve(MyRecognizer())
/// ```
///
/// Add a `plugin.json` whose `command` runs the executable, and the recognizer runs isolated in its own process:
/// a crash or a hang costs one page, never the host.
public enum PluginServer {
    /// Answers the host's messages on stdin until it closes stdin, then frees the recognizer. Results go to stdout,
    /// one JSON line each; nothing else may be printed there (log to stderr).
    public static func serve(_ recognizer: any TextRecognizer) async {
        let output = Output()
        while let line = readLine(strippingNewline: true) {
            guard !line.isEmpty else { continue }
            guard let message = try? JSONDecoder().decode(IncomingMessage.self, from: Data(line.utf8)) else {
                output.write(["type": "error", "message": "not a protocol message: \(line.prefix(200))"])
                continue
            }
            switch message.type {
            case "hello":
                output.write([
                    "type": "hello", "protocol": PluginProtocol.version, "name": recognizer.descriptor.name,
                    "version": recognizer.descriptor.version,
                ])
            case "recognize":
                await answer(message, with: recognizer, output: output)
            default:
                output.write(["type": "error", "id": message.id.map { $0 as Any } ?? NSNull(), "message": "unknown message type '\(message.type)'"])
            }
        }
        await recognizer.shutdown()
    }

    private static func answer(_ message: IncomingMessage, with recognizer: any TextRecognizer, output: Output) async {
        let id = message.id ?? 0
        guard let image = message.image, let options = message.options else {
            output.write(["type": "error", "id": id, "message": "a recognize message needs an image and options"])
            return
        }
        do throws(RecognitionError) {
            let data: Data
            do { data = try Data(contentsOf: URL(fileURLWithPath: image.path)) } catch {
                throw .invalidImage("cannot read \(image.path): \(error.localizedDescription)")
            }
            var page = try UncompressedPNG.decode(data)
            page.resolution = image.resolution
            var request = options.request
            if options.progress {
                // In steps of a hundredth at most: a line per engine callback would cost more than it tells.
                let last = Progress()
                request.progressHandler = { fraction in
                    if last.advance(to: fraction) { output.write(["type": "progress", "id": id, "fraction": fraction]) }
                }
            }
            let result = try await recognizer.recognize(page, request: request)
            output.writeResult(id: id, page: result)
        } catch {
            output.write(["type": "error", "id": id, "message": error.description])
        }
    }

    /// The last progress sent for a page.
    private final class Progress: @unchecked Sendable {
        private let lock = NSLock()
        private var sent = -1.0

        /// Whether `fraction` is far enough past the last one sent to be worth a line (and records it).
        func advance(to fraction: Double) -> Bool {
            lock.withLock {
                guard fraction >= sent + 0.01 || (fraction >= 1 && sent < 1) else { return false }
                sent = fraction
                return true
            }
        }
    }

    /// The host's message, as the server reads it.
    private struct IncomingMessage: Decodable {
        var type: String
        var id: Int?
        var image: PluginImage?
        var options: PluginRequestOptions?
    }

    /// Stdout, one whole line at a time (progress may be written from the recognizer's threads).
    private final class Output: @unchecked Sendable {
        private let lock = NSLock()

        func write(_ object: [String: Any]) {
            guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]) else { return }
            emit(data)
        }

        func writeResult(id: Int, page: RecognizedPage) {
            // {"type":"result","id":N,"page":<the result model's JSON>}
            guard let pageJSON = try? JSONEncoder().encode(page) else {
                write(["type": "error", "id": id, "message": "the result could not be encoded"])
                return
            }
            emit(Data("{\"type\":\"result\",\"id\":\(id),\"page\":".utf8) + pageJSON + Data("}".utf8))
        }

        private func emit(_ data: Data) {
            lock.withLock {
                FileHandle.standardOutput.write(data + Data([0x0A]))
            }
        }
    }
}
