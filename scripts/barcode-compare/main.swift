// The batch protocol of `stockroom scan --stdin` for scripts/barcode-compare.sh, on the barcode modules alone: one
// `path` or `path<TAB>rotation` line in, `FORMAT<TAB>text` lines and `END<TAB>milliseconds` out. The text is escaped
// as ScanCommand escapes it, so eval.py scores this scanner as it scores `stockroom scan`.
import BarcodeImage
import BarcodeReader
import Foundation

func escape(_ barcode: DecodedBarcode) -> String {
    var bytes = Array(barcode.text.utf8)
    if let raw = barcode.rawBytes, String(validating: raw, as: UTF8.self) == nil, barcode.text.isEmpty { bytes = raw }
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
    let latin = out.unicodeScalars.map { UInt8(truncatingIfNeeded: $0.value) }
    return String(decoding: latin, as: UTF8.self)
}

let reader = BarcodeReader()
while let line = readLine(strippingNewline: true) {
    if line.isEmpty { continue }
    let parts = line.split(separator: "\t", maxSplits: 1, omittingEmptySubsequences: false)
    let rotation = parts.count > 1 ? Int(parts[1].trimmingCharacters(in: .whitespaces)) ?? 0 : 0
    var out = ""
    var elapsed = Duration.zero
    if var image = try? ImageLoader.load(path: String(parts[0])) {
        if rotation % 360 != 0 { image = image.rotated(clockwiseBy: rotation) }
        let clock = ContinuousClock()
        let start = clock.now
        let found = reader.decode(image)
        elapsed = clock.now - start
        for barcode in found { out += barcode.format.rawValue + "\t" + escape(barcode) + "\n" }
    }
    let ms = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
    out += "END\t" + String(format: "%.3f", ms) + "\n"
    FileHandle.standardOutput.write(Data(out.utf8))
}
