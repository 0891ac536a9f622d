/// Barcodes as data: EAN/UPC check digits and one normal form, so a code scanned as UPC-A, UPC-E or EAN-13 finds
/// the same product.
public enum Barcode {
    /// The normal form of a barcode as stored: all-digit codes of 8, 12, 13 (and 14 with a leading zero) digits
    /// must carry a valid check digit and become GTIN-13 (UPC-E is expanded to UPC-A first; EAN-8 stays 8
    /// digits, since EAN-8 numbers are a separate space); any other text is kept as given (Code 128, Code 39, QR …).
    /// - Throws: ``InventoryError`` with field `barcode` for a wrong check digit or unprintable text.
    public static func normalize(_ text: String) throws -> String {
        let code = text.trimmingWhitespace()
        guard !code.isEmpty else { throw InventoryError(.missingValue, field: "barcode", "is empty") }
        // All ASCII digits (what scanners send) are checked on their bytes; anything else is text, within the limits.
        guard let digits = self.asciiDigits(code), digits.count <= 128 else {
            guard TextLimit.barcode.violation(code) == nil, code.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value != 0x7F }) else {
                throw InventoryError(.invalidValue, field: "barcode", "must be at most 128 printable characters")
            }
            return code
        }
        switch digits.count {
        case 8:
            // UPC-E (number system 0 or 1) is expanded to its UPC-A, as GTIN-13; otherwise EAN-8.
            if let upcA = self.expandUPCE(digits: digits) { return "0" + upcA }
            if self.hasValidCheckDigit(digits) { return code }
            throw self.badCheckDigit(code, expected: self.checkDigit(Array(digits.dropLast())), kind: "EAN-8 or UPC-E")
        case 6, 7:
            // UPC-E without number system/check digit is ambiguous: treat it as text.
            return code
        case 12:
            guard self.hasValidCheckDigit(digits) else {
                throw self.badCheckDigit(code, expected: self.checkDigit(Array(digits.dropLast())), kind: "UPC-A")
            }
            return "0" + code
        case 13:
            guard self.hasValidCheckDigit(digits) else {
                throw self.badCheckDigit(code, expected: self.checkDigit(Array(digits.dropLast())), kind: "EAN-13")
            }
            return code
        case 14 where digits[0] == 0:
            guard self.hasValidCheckDigit(digits) else {
                throw self.badCheckDigit(code, expected: self.checkDigit(Array(digits.dropLast())), kind: "GTIN-14")
            }
            return String(code.dropFirst())
        default:
            return code
        }
    }

    /// The forms under which a scanned code may be stored: its normal form, plus the plain 8 digits when they
    /// also read as EAN-8. Look a scan up under every candidate.
    public static func lookupCandidates(_ text: String) -> [String] {
        let code = text.trimmingWhitespace()
        var result: [String] = []
        if let normal = try? self.normalize(code) { result.append(normal) }
        if code.utf8.count == 8, let digits = self.asciiDigits(code), self.hasValidCheckDigit(digits),
           !result.contains(code) {
            result.append(code)  // an EAN-8 that also reads as UPC-E
        }
        return result
    }

    /// The digits of `code` when it is made of ASCII digits only (and is not empty); nil otherwise.
    static func asciiDigits(_ code: String) -> [Int]? {
        var digits: [Int] = []
        digits.reserveCapacity(code.utf8.count)
        for byte in code.utf8 {
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
            digits.append(Int(byte - UInt8(ascii: "0")))
        }
        return digits.isEmpty ? nil : digits
    }

    /// Expands an 8-digit UPC-E (number system 0 or 1, with check digit) into its 12-digit UPC-A; nil when it is not one.
    public static func expandUPCE(_ code: String) -> String? {
        self.asciiDigits(code).flatMap { self.expandUPCE(digits: $0) }
    }

    /// ``expandUPCE(_:)`` on the code's digits.
    static func expandUPCE(digits d: [Int]) -> String? {
        guard d.count == 8, d[0] == 0 || d[0] == 1 else { return nil }
        let m = Array(d[1...6])
        let body: [Int]
        switch d[6] {
        case 0, 1, 2: body = [m[0], m[1], d[6], 0, 0, 0, 0, m[2], m[3], m[4]]
        case 3: body = [m[0], m[1], m[2], 0, 0, 0, 0, 0, m[3], m[4]]
        case 4: body = [m[0], m[1], m[2], m[3], 0, 0, 0, 0, 0, m[4]]
        default: body = [m[0], m[1], m[2], m[3], m[4], 0, 0, 0, 0, m[5]]
        }
        let upcA = [d[0]] + body + [d[7]]
        return self.hasValidCheckDigit(upcA) ? String(decoding: upcA.map { UInt8(ascii: "0") + UInt8($0) }, as: UTF8.self) : nil
    }

    /// The GS1 check digit for `body` (all digits but the last).
    public static func checkDigit(_ body: [Int]) -> Int {
        var sum = 0
        for (offset, digit) in body.reversed().enumerated() {
            sum += offset % 2 == 0 ? digit * 3 : digit
        }
        return (10 - sum % 10) % 10
    }

    /// Whether the last digit is the GS1 check digit of the others.
    public static func hasValidCheckDigit(_ digits: [Int]) -> Bool {
        guard let last = digits.last, digits.count >= 2 else { return false }
        return self.checkDigit(Array(digits.dropLast())) == last
    }

    private static func badCheckDigit(_ code: String, expected: Int, kind: String) -> InventoryError {
        InventoryError(
            .invalidValue, field: "barcode",
            "\(code) is not a valid \(kind): its check digit should be \(expected), not \(code.last.map(String.init) ?? "")")
    }
}
