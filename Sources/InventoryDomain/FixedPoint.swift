/// Exact decimal parsing, formatting and the one rounding rule of the books.
///
/// Every amount in Stockroom is an integer count of a fixed decimal unit: money in the currency's minor
/// unit, quantities in thousandths, percentages in hundredths of a percent. Floating point is never used.
public enum FixedPoint {
    /// Divides and rounds half away from zero — the single rounding rule used everywhere in the books.
    /// - Precondition: `denominator != 0`.
    public static func divideRounded(_ numerator: Int128, _ denominator: Int128) -> Int128 {
        precondition(denominator != 0, "division by zero in the books")
        let (quotient, remainder) = numerator.quotientAndRemainder(dividingBy: denominator)
        guard remainder != 0 else { return quotient }
        let twiceRemainder = remainder.magnitude * 2
        guard twiceRemainder >= denominator.magnitude else { return quotient }
        return (numerator < 0) != (denominator < 0) ? quotient - 1 : quotient + 1
    }

    /// Clamps a wide intermediate result into `Int64`.
    public static func clamp(_ value: Int128) -> Int64 {
        if value > Int128(Int64.max) { return Int64.max }
        if value < Int128(Int64.min) { return Int64.min }
        return Int64(value)
    }

    /// Parses a plain decimal string (`12`, `-0.5`, `3.250`) into an integer count of `10^-scale` units.
    ///
    /// Accepts an optional sign, digits and one `.` (a `,` is read as the decimal separator too).
    /// - Returns: nil when the text is not a number, has more than `scale` decimals (other than trailing
    ///   zeros), or does not fit.
    public static func parse(_ text: String, scale: Int) -> Int64? {
        self.parse(text, scale: scale, roundingExcessDecimals: false)
    }

    /// Parses like ``parse(_:scale:)`` but rounds a number with more than `scale` decimals half away from zero
    /// (`2.345` → `2.35`, `-2.345` → `-2.35`, `2.3449` → `2.34` at scale 2), exactly on the digits as written.
    /// - Returns: nil when the text is not a number or the rounded value does not fit.
    public static func parseRounded(_ text: String, scale: Int) -> Int64? {
        self.parse(text, scale: scale, roundingExcessDecimals: true)
    }

    static func parse(_ text: String, scale: Int, roundingExcessDecimals: Bool) -> Int64? {
        var string = Substring(text.trimmingCharacters(in: .whitespaces))
        var negative = false
        if let first = string.first, first == "-" || first == "+" {
            negative = first == "-"
            string = string.dropFirst()
        }
        let parts = string.replacingOccurrences(of: ",", with: ".").split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 1 || parts.count == 2 else { return nil }
        let whole = parts[0]
        var fraction = parts.count == 2 ? parts[1] : ""
        guard !(whole.isEmpty && fraction.isEmpty) else { return nil }
        guard whole.allSatisfy(\.isASCIIDigit), fraction.allSatisfy(\.isASCIIDigit) else { return nil }
        while fraction.count > scale, fraction.last == "0" { fraction = fraction.dropLast() }
        // Half away from zero on the magnitude: the first dropped digit decides (5 or more rounds up), whatever follows.
        var roundsUp = false
        if fraction.count > scale {
            guard roundingExcessDecimals else { return nil }
            roundsUp = fraction[fraction.index(fraction.startIndex, offsetBy: scale)] >= "5"
            fraction = fraction.prefix(scale)
        }
        let digits = (whole.isEmpty ? "0" : String(whole)) + String(fraction) + String(repeating: "0", count: scale - fraction.count)
        guard digits.count <= 19, var magnitude = Int64(digits) else { return nil }
        if roundsUp {
            guard magnitude < Int64.max else { return nil }
            magnitude += 1
        }
        return negative ? -magnitude : magnitude
    }

    /// Formats an integer count of `10^-scale` units as a decimal string with exactly `scale` decimals.
    public static func format(_ units: Int64, scale: Int) -> String {
        self.format(units, scale: scale, trimmed: false)
    }

    /// Formats like ``format(_:scale:)`` but drops trailing zeros in the fraction (`1.500` → `1.5`, `2.000` → `2`).
    public static func formatTrimmed(_ units: Int64, scale: Int) -> String {
        self.format(units, scale: scale, trimmed: true)
    }

    /// The digits written right to left into one buffer on the stack, without intermediate strings or arrays: every
    /// amount in every answer goes through here.
    private static func format(_ units: Int64, scale: Int, trimmed: Bool) -> String {
        // A sign, 20 digits, a point and the fraction's zeros beyond the digits at most.
        let capacity = 22 + max(0, scale)
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) { buffer in
            var magnitude = units.magnitude
            var at = capacity
            func put(_ byte: UInt8) {
                at -= 1
                buffer[at] = byte
            }
            if scale > 0 {
                var keep = !trimmed
                for _ in 0..<scale {
                    let digit = UInt8(magnitude % 10)
                    magnitude /= 10
                    if digit != 0 { keep = true }
                    if keep { put(UInt8(ascii: "0") + digit) }
                }
                if keep { put(UInt8(ascii: ".")) }
            }
            repeat {
                put(UInt8(ascii: "0") + UInt8(magnitude % 10))
                magnitude /= 10
            } while magnitude > 0
            if units < 0 { put(UInt8(ascii: "-")) }
            return String(decoding: UnsafeBufferPointer(rebasing: buffer[at..<capacity]), as: UTF8.self)
        }
    }

    /// `10^exponent` as an integer.
    public static func powerOfTen(_ exponent: Int) -> Int64 {
        var result: Int64 = 1
        for _ in 0..<exponent { result *= 10 }
        return result
    }
}

extension Character {
    var isASCIIDigit: Bool { self >= "0" && self <= "9" }
}

import Foundation
