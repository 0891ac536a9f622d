import Foundation
import InventoryDomain
import Testing

/// The byte-level formatting and barcode code written for speed (issue 15) gives what the string-based code it replaced
/// gave, on edge values and on seeded random inputs. The replaced code is kept here as the reference.
@Suite struct FastPathTests {
    // MARK: - The replaced implementations

    static func referenceFormat(_ units: Int64, scale: Int) -> String {
        let negative = units < 0
        let digits = String(units.magnitude)
        guard scale > 0 else { return (negative ? "-" : "") + digits }
        let padded = String(repeating: "0", count: max(0, scale + 1 - digits.count)) + digits
        let split = padded.index(padded.endIndex, offsetBy: -scale)
        return (negative ? "-" : "") + padded[..<split] + "." + padded[split...]
    }

    static func referenceFormatTrimmed(_ units: Int64, scale: Int) -> String {
        var text = self.referenceFormat(units, scale: scale)
        guard text.contains(".") else { return text }
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text
    }

    static func referenceISO8601(_ instant: Instant) -> String {
        func pad(_ value: Int, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let seconds = instant.milliseconds >= 0 ? instant.milliseconds / 1000 : (instant.milliseconds - 999) / 1000
        let millisecond = Int(instant.milliseconds - seconds * 1000)
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: Date(timeIntervalSince1970: TimeInterval(seconds)))
        return pad(parts.year!, 4) + "-" + pad(parts.month!, 2) + "-" + pad(parts.day!, 2) + "T" + pad(parts.hour!, 2) + ":"
            + pad(parts.minute!, 2) + ":" + pad(parts.second!, 2) + "." + pad(millisecond, 3) + "Z"
    }

    static func referenceNormalize(_ text: String) throws -> String {
        let code = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !code.isEmpty else { throw InventoryError(.missingValue, field: "barcode", "is empty") }
        guard TextLimit.barcode.violation(code) == nil, code.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value != 0x7F }) else {
            throw InventoryError(.invalidValue, field: "barcode", "must be at most 128 printable characters")
        }
        guard code.unicodeScalars.allSatisfy({ ("0"..."9").contains($0) }) else { return code }
        let digits = code.unicodeScalars.map { Int($0.value) - 48 }
        func valid(_ digits: [Int]) -> Bool { Barcode.checkDigit(Array(digits.dropLast())) == digits.last }
        switch digits.count {
        case 8:
            if let upcA = Barcode.expandUPCE(code) { return "0" + upcA }
            if valid(digits) { return code }
            throw InventoryError(.invalidValue, field: "barcode", "")
        case 12:
            guard valid(digits) else { throw InventoryError(.invalidValue, field: "barcode", "") }
            return "0" + code
        case 13:
            guard valid(digits) else { throw InventoryError(.invalidValue, field: "barcode", "") }
            return code
        case 14 where digits[0] == 0:
            guard valid(digits) else { throw InventoryError(.invalidValue, field: "barcode", "") }
            return String(code.dropFirst())
        default:
            return code
        }
    }

    // MARK: - Amounts

    @Test func amountsAreFormattedAsBefore() {
        var random = SeededRandom(seed: 20_261_126)
        var values: [Int64] = [0, 1, -1, 9, 10, -10, 99, 100, 1_000, -1_000, 1_500, -1_500, 123_456_789, Int64.max, Int64.min, Int64.min + 1]
        for _ in 0..<3_000 {
            let digits = Int.random(in: 1...18, using: &random)
            let value = Int64.random(in: 0..<FixedPoint.powerOfTen(digits), using: &random)
            values.append(Bool.random(using: &random) ? value : -value)
            values.append(value / 1_000 * 1_000)  // trailing zeros
        }
        for value in values {
            for scale in 0...6 {
                #expect(FixedPoint.format(value, scale: scale) == Self.referenceFormat(value, scale: scale), "\(value) at scale \(scale)")
                #expect(FixedPoint.formatTrimmed(value, scale: scale) == Self.referenceFormatTrimmed(value, scale: scale), "\(value) at scale \(scale)")
            }
        }
        #expect(FixedPoint.format(-5, scale: 3) == "-0.005")
        #expect(FixedPoint.formatTrimmed(-1_500, scale: 3) == "-1.5")
        #expect(FixedPoint.formatTrimmed(2_000, scale: 3) == "2")
    }

    // MARK: - Instants

    @Test func instantsAreWrittenAsBeforeAndReadBack() {
        var random = SeededRandom(seed: 11_26)
        var instants: [Instant] = [Instant.range.lowerBound, Instant.range.upperBound, Instant(milliseconds: 0), Instant(milliseconds: -1),
                                   Instant(milliseconds: 951_782_400_000), Instant(milliseconds: 1_798_761_599_999)]
        for _ in 0..<2_000 {
            instants.append(Instant(milliseconds: Int64.random(in: Instant.range.lowerBound.milliseconds...Instant.range.upperBound.milliseconds, using: &random)))
        }
        // Foundation's Gregorian calendar switches to the Julian one before October 1582: compared from 1600 on.
        let gregorian = Instant(milliseconds: -11_676_096_000_000)
        for instant in instants {
            if instant >= gregorian { #expect(instant.iso8601 == Self.referenceISO8601(instant), "\(instant.milliseconds)") }
            #expect(Instant.parse(iso8601: instant.iso8601) == instant)
        }
        #expect(Instant.range.lowerBound.iso8601 == "0001-01-02T00:00:00.000Z")
        #expect(Instant.range.upperBound.iso8601 == "9999-12-30T23:59:59.999Z")
        #expect(Instant(milliseconds: 0).iso8601 == "1970-01-01T00:00:00.000Z")
        #expect(Instant(milliseconds: -1).iso8601 == "1969-12-31T23:59:59.999Z")
    }

    // MARK: - Barcodes and trimming

    @Test func barcodesNormaliseAsBefore() {
        var random = SeededRandom(seed: 4_006_381_333_931)
        var inputs = ["", " ", "\t\n", "0", "01234565", " 4006381333931\n", "\u{00A0}4006381333931", "4006381333931\u{2003}", "40063813339３1",
                      "٤٠٠٦٣٨١٣٣٣٩٣١", "ABC-123", "abc\u{7F}", "a\u{0}b", String(repeating: "7", count: 128), String(repeating: "7", count: 129),
                      String(repeating: "é", count: 129), "1\u{0301}234567", "00036000291452", "10036000291459"]
        let alphabet = Array("0123456789 \t\nAé\u{00A0}-")
        for _ in 0..<20_000 {
            let length = [6, 7, 8, 12, 13, 14, Int.random(in: 1...20, using: &random)].randomElement(using: &random)!
            var text = String((0..<length).map { _ in Character(UnicodeScalar(UInt8(48 + Int.random(in: 0...9, using: &random)))) })
            if Int.random(in: 0..<4, using: &random) == 0 {
                // A digit or two replaced or framed by something that is not a digit.
                let index = text.index(text.startIndex, offsetBy: Int.random(in: 0..<text.count, using: &random))
                text.replaceSubrange(index...index, with: String(alphabet.randomElement(using: &random)!))
            }
            if length >= 8, Int.random(in: 0..<3, using: &random) == 0 {
                // A valid check digit, so that the normal forms are reached and not only the refusals.
                let digits = text.unicodeScalars.compactMap { ("0"..."9").contains($0) ? Int($0.value) - 48 : nil }
                if digits.count == text.count { text = String(text.dropLast()) + String(Barcode.checkDigit(Array(digits.dropLast()))) }
            }
            inputs.append(text)
        }
        for input in inputs {
            let expected = Result { try Self.referenceNormalize(input) }
            let actual = Result { try Barcode.normalize(input) }
            switch (expected, actual) {
            case (.success(let a), .success(let b)): #expect(a == b, "\(input.debugDescription)")
            case (.failure(let a as InventoryError), .failure(let b as InventoryError)):
                #expect(a.code == b.code && a.field == b.field, "\(input.debugDescription)")
            default: Issue.record("\(input.debugDescription): \(expected) before, \(actual) now")
            }
            let candidates = Barcode.lookupCandidates(input)
            #expect(Set(candidates).count == candidates.count)
            if case .success(let normal) = actual { #expect(candidates.first == normal) }
        }
    }

    @Test func trimmingAsFoundationDoes() {
        let samples = ["", " ", "abc", " abc", "abc ", "\tabc\n", "\u{00A0}abc", "abc\u{2003}", "a b", "\n", "é", " é ", "x\r\n", "\u{7F}x"]
        for sample in samples {
            #expect(sample.trimmingWhitespace() == sample.trimmingCharacters(in: .whitespacesAndNewlines), "\(sample.debugDescription)")
            #expect(sample.trimmingWhitespace(andNewlines: false) == sample.trimmingCharacters(in: .whitespaces), "\(sample.debugDescription)")
        }
    }

    /// Printable ASCII is folded by lower-casing its capitals (``SearchText/key(_:)-(String?...)``'s fast path): the same
    /// text as Foundation's folding, on every printable byte and on random texts; anything else still goes to Foundation.
    @Test func searchKeysFoldAsFoundationDoes() {
        let printable = (0x20..<0x7F).map { Character(Unicode.Scalar(UInt8($0))) }
        #expect(SearchText.key(String(printable)) == SearchText.foldedByFoundation(String(printable)))
        var random = SeededRandom(seed: 30_112_026)
        for _ in 0..<2_000 {
            let text = String((0..<Int(random.next() % 24)).map { _ in printable[Int(random.next() % UInt64(printable.count))] })
            #expect(SearchText.key(text) == SearchText.foldedByFoundation(text), "\(text.debugDescription)")
            #expect(SearchText.key(text, "B 1") == SearchText.foldedByFoundation(text + " B 1"))
        }
        for text in ["Crème Brûlée", "ＡＢＣ", "Straße", "\u{7F}x", "tab\there", "ÉCOLE 1"] {
            #expect(SearchText.key(text) == SearchText.foldedByFoundation(text), "\(text.debugDescription)")
        }
        #expect(SearchText.key("Crème") == "creme")
    }
}
