import ArgumentParser
import BarcodeImage
import BarcodeReader
import Foundation

/// `stockroom scan`: decodes barcodes in PNG/JPEG files, or answers image paths from stdin (batch protocol).
public struct ScanCommand: AsyncParsableCommand {
    /// Command name and help.
    public static let configuration = CommandConfiguration(
        commandName: "scan",
        abstract: "Decode barcodes in image files.",
        discussion: """
            Prints one line per barcode: FORMAT<TAB>TEXT, where TEXT escapes \\\\, \\n, \\r, \\t and other \
            control bytes as \\xHH. With --stdin, reads one `path` or `path<TAB>rotation` line per image and \
            answers with the result lines followed by END<TAB>milliseconds.
            """
    )

    /// Read image paths from standard input (batch protocol) instead of arguments.
    @Flag(name: .long, help: "Read image paths (optionally <TAB>rotation) from stdin, answer each with END<TAB>ms.")
    public var stdin = false

    /// Image files to decode.
    @Argument(help: "PNG or JPEG image files.")
    public var images: [String] = []

    /// Creates the command with default values.
    public init() {}

    /// Checks that there is something to read.
    /// - Throws: `ValidationError` when neither images nor `--stdin` were given.
    public func validate() throws {
        if !self.stdin && self.images.isEmpty {
            throw ValidationError("Give at least one IMAGE file, or --stdin to read paths from standard input.")
        }
    }

    /// Runs the scan.
    /// - Throws: `ExitCode.failure` when an image could not be read.
    public func run() async throws {
        let reader = BarcodeReader()
        if self.stdin {
            Self.runBatch(reader: reader)
            return
        }
        var failed = false
        for path in self.images {
            do {
                let image = try ImageLoader.load(path: path)
                var out = ""
                for barcode in reader.decode(image) { out += Self.line(for: barcode) }
                Self.write(out)
            } catch {
                Self.writeError("stockroom scan: \(error.message)\n")
                failed = true
            }
        }
        if failed { throw ExitCode.failure }
    }

    /// The batch protocol of ../shared/barcode/README.md.
    static func runBatch(reader: BarcodeReader) {
        while let raw = readLine(strippingNewline: true) {
            let request = raw.trimmingCharacters(in: CharacterSet(charactersIn: "\r"))
            if request.isEmpty { continue }
            let parts = request.split(separator: "\t", maxSplits: 1, omittingEmptySubsequences: false)
            let path = String(parts[0])
            let rotation = parts.count > 1 ? Int(parts[1].trimmingCharacters(in: .whitespaces)) ?? 0 : 0
            var out = ""
            var elapsed = Duration.zero
            do {
                var image = try ImageLoader.load(path: path)
                if rotation % 360 != 0 { image = image.rotated(clockwiseBy: rotation) }
                let clock = ContinuousClock()
                let start = clock.now
                let found = reader.decode(image)
                elapsed = clock.now - start
                for barcode in found { out += Self.line(for: barcode) }
            } catch {
                Self.writeError("stockroom scan: \(error.message)\n")
            }
            let ms = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
            out += "END\t" + String(format: "%.3f", ms) + "\n"
            Self.write(out)
        }
    }

    /// One output line: `FORMAT<TAB>escaped text`.
    static func line(for barcode: DecodedBarcode) -> String {
        barcode.format.rawValue + "\t" + Self.escape(barcode) + "\n"
    }

    /// Escapes the text (or, when the text is not the payload's UTF-8, the raw bytes) for one output line.
    static func escape(_ barcode: DecodedBarcode) -> String {
        var bytes = Array(barcode.text.utf8)
        if let raw = barcode.rawBytes, String(validating: raw, as: UTF8.self) == nil, barcode.text.isEmpty {
            bytes = raw
        }
        var out = ""
        for b in bytes {
            switch b {
            case UInt8(ascii: "\\"): out += "\\\\"
            case UInt8(ascii: "\n"): out += "\\n"
            case UInt8(ascii: "\r"): out += "\\r"
            case UInt8(ascii: "\t"): out += "\\t"
            case 0..<0x20, 0x7F: out += String(format: "\\x%02x", b)
            default: out.unicodeScalars.append(Unicode.Scalar(b))
            }
        }
        // Re-assemble UTF-8: the loop above appended bytes as scalars, so re-decode non-ASCII runs.
        let latin = out.unicodeScalars.map { UInt8(truncatingIfNeeded: $0.value) }
        return String(decoding: latin, as: UTF8.self)
    }

    private static func write(_ text: String) {
        FileHandle.standardOutput.write(Data(text.utf8))
    }

    private static func writeError(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }
}
