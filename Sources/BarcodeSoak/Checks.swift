import BarcodeImage
import BarcodeReader
import Foundation

enum Checks {
    static func digits(_ text: String) -> [Int]? {
        let d = text.unicodeScalars.map { Int($0.value) - 48 }
        return d.allSatisfy({ (0...9).contains($0) }) ? d : nil
    }

    /// The GTIN (EAN/UPC) modulo-10 check over all digits, the last being the check digit.
    static func gtinValid(_ d: [Int]) -> Bool {
        var sum = 0
        for (i, v) in d.dropLast().reversed().enumerated() { sum += i % 2 == 0 ? 3 * v : v }
        return (10 - sum % 10) % 10 == d.last
    }

    static func upceToUPCA(_ d: [Int]) -> [Int] {
        let x = Array(d[1...6])
        var a = [d[0]]
        switch x[5] {
        case 0, 1, 2: a += [x[0], x[1], x[5], 0, 0, 0, 0, x[2], x[3], x[4]]
        case 3: a += [x[0], x[1], x[2], 0, 0, 0, 0, 0, x[3], x[4]]
        case 4: a += [x[0], x[1], x[2], x[3], 0, 0, 0, 0, 0, x[4]]
        default: a += [x[0], x[1], x[2], x[3], x[4], 0, 0, 0, 0, x[5]]
        }
        return a + [d[7]]
    }

    /// Why a reported barcode breaks its own symbology's rules, or nil when it keeps them.
    static func problem(_ r: DecodedBarcode) -> String? {
        if r.text.isEmpty && r.rawBytes?.isEmpty != false && r.format != .qrCode && r.format != .dataMatrix { return "empty text" }
        if r.corners.contains(where: { !$0.x.isFinite || !$0.y.isFinite }) { return "non-finite corner" }
        let upcFamily: Set<BarcodeFormat> = [.ean13, .ean8, .upcA, .upcE]
        if let addOn = r.addOn {
            guard upcFamily.contains(r.format), r.format != .ean8, addOn.count == 2 || addOn.count == 5, self.digits(addOn) != nil else {
                return "bad add-on \(addOn) on \(r.format.rawValue)"
            }
        }
        switch r.format {
        case .ean13, .ean8, .upcA:
            let n = r.format == .ean13 ? 13 : r.format == .ean8 ? 8 : 12
            guard let d = self.digits(r.text), d.count == n else { return "not \(n) digits" }
            return self.gtinValid(d) ? nil : "check digit wrong"
        case .upcE:
            guard let d = self.digits(r.text), d.count == 8 else { return "UPC-E not 8 digits" }
            guard d[0] <= 1 else { return "UPC-E number system \(d[0])" }
            return self.gtinValid(self.upceToUPCA(d)) ? nil : "UPC-E check digit wrong"
        case .itf:
            guard let d = self.digits(r.text), d.count >= 2, d.count % 2 == 0 else { return "ITF not an even count of digits" }
            return nil
        case .code39:
            return r.text.unicodeScalars.allSatisfy({ $0.value < 128 }) ? nil : "Code 39 outside ASCII"
        case .code128:
            return r.text.unicodeScalars.allSatisfy({ $0.value < 256 }) ? nil : "Code 128 outside Latin-1"
        case .qrCode, .dataMatrix:
            if r.eci.contains(where: { $0 < 0 || $0 > 999_999 }) { return "ECI designator out of range" }
            if let sa = r.structuredAppend, sa.position < 0 || sa.total < 0 || (sa.total > 0 && sa.position >= sa.total) {
                return "structured append \(sa.position)/\(sa.total)"
            }
            if r.addOn != nil { return "add-on on a 2-D symbol" }
            return nil
        }
    }
}

/// Writes `image` as a binary PGM (P5), which `--replay` reads back.
func pgm(_ image: GrayscaleImage) -> [UInt8] { Array("P5\n\(image.width) \(image.height)\n255\n".utf8) + image.pixels }

func readPGM(_ bytes: [UInt8]) -> GrayscaleImage? {
    var fields: [Int] = []
    var i = 2, current = -1
    guard bytes.starts(with: Array("P5".utf8)) else { return nil }
    while i < bytes.count, fields.count < 3 {
        let b = bytes[i]
        if (48...57).contains(b) { current = max(0, current) * 10 + Int(b) - 48 } else if current >= 0 { fields.append(current); current = -1 }
        i += 1
    }
    guard fields.count == 3, i + fields[0] * fields[1] <= bytes.count else { return nil }
    return GrayscaleImage(width: fields[0], height: fields[1], pixels: Array(bytes[i..<(i + fields[0] * fields[1])]))
}

/// Runs one input through what it targets and answers the failures found (empty when all is well), whether the
/// loader accepted the file (always true for a picture) and how many barcodes the reader reported.
func exercise(_ input: SoakInput, reader: BarcodeReader) -> (failures: [String], accepted: Bool, reads: [DecodedBarcode]) {
    var failures: [String] = []
    var accepted = true, reads: [DecodedBarcode] = []
    switch input {
    case .file(let bytes):
        let decoded = try? ImageLoader.decode(bytes)
        accepted = decoded != nil
        if let decoded {
            if decoded.pixels.count != decoded.width * decoded.height { failures.append("loader: pixel count differs from size") }
            if decoded.width > ImageLimits.barcode.maxSide || decoded.height > ImageLimits.barcode.maxSide { failures.append("loader: above the size limit") }
        }
        if let clean = try? ImageSanitizer.clean(bytes) {
            // The sanitizer keeps the picture: what decoded before decodes to the same pixels after.
            if let decoded {
                let again = try? ImageLoader.decode(clean)
                if again != decoded { failures.append("sanitizer: the cleaned file decodes differently") }
            }
            if (try? ImageSanitizer.clean(clean)) != clean { failures.append("sanitizer: cleaning twice changes the file") }
        }
        // Decode what the loader accepted, as the server does with an upload.
        if let decoded, decoded.width * decoded.height <= 4_000_000 {
            let found = reader.decode(decoded)
            reads = found
            for r in found { if let p = Checks.problem(r) { failures.append("reader: \(r.format.rawValue) \(r.text.debugDescription): \(p)") } }
        }
    case .gray(let image):
        let found = reader.decode(image)
        reads = found
        for r in found { if let p = Checks.problem(r) { failures.append("reader: \(r.format.rawValue) \(r.text.debugDescription): \(p)") } }
    }
    return (failures, accepted, reads)
}
