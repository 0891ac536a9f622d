#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A point in time: whole milliseconds since 1970-01-01T00:00:00Z, as every time is stored, compared and written.
///
/// Times are exact like money: an `Instant` never passes through floating point (`Date` holds a `Double` of seconds,
/// and formatting one truncated `.100` to `.099`). ``iso8601`` and ``parse(iso8601:)`` convert to and from text with
/// integer civil-date arithmetic, so every instant in ``range`` reads back as the instant written, to the millisecond.
public struct Instant: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Milliseconds since 1970-01-01T00:00:00Z (negative before).
    public var milliseconds: Int64

    /// The instant `milliseconds` after 1970-01-01T00:00:00Z.
    public init(milliseconds: Int64) { self.milliseconds = milliseconds }

    /// The instants Stockroom reads and writes: 0001-01-02T00:00:00.000Z through 9999-12-30T23:59:59.999Z, so that
    /// every instant can be written with a four-digit year in UTC and in any zone's local time.
    public static let range: ClosedRange<Instant> =
        Instant(milliseconds: -62_135_510_400_000)...Instant(milliseconds: 253_402_214_399_999)

    /// The current time, read from the system's real-time clock in whole seconds and nanoseconds.
    public static var now: Instant {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return Instant(milliseconds: Int64(spec.tv_sec) * 1000 + Int64(spec.tv_nsec) / 1_000_000)
    }

    public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.milliseconds < rhs.milliseconds }

    /// This instant moved by a number of milliseconds.
    public func adding(milliseconds: Int64) -> Instant { Instant(milliseconds: self.milliseconds + milliseconds) }

    /// This instant moved by a number of seconds.
    public func adding(seconds: Int64) -> Instant { self.adding(milliseconds: seconds * 1000) }

    /// Whole seconds since 1970, rounded down (so `-0.5 s` is second `-1`).
    public var seconds: Int64 { Self.floorDivide(self.milliseconds, 1000) }

    /// The instant in UTC as ISO 8601 with milliseconds: `2026-01-20T10:00:00.100Z`.
    public var iso8601: String {
        let seconds = self.seconds
        let millisecond = Int(self.milliseconds - seconds * 1000)
        let days = Self.floorDivide(seconds, 86_400)
        let secondOfDay = Int(seconds - days * 86_400)
        let (year, month, day) = Self.civil(fromDays: days)
        // Four digits for every instant in ``range`` (zero-padded decimal text otherwise, after which the rest follows).
        guard (0...9999).contains(year) else {
            let digits = String(year)
            return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
                + Self.iso8601Tail(month, day, secondOfDay, millisecond)
        }
        // Written in place, on the stack: every answer with a date goes through here.
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 24) { text in
            Self.writeDigits(year, width: 4, into: text, at: 0)
            Self.writeTail(into: text, from: 4, month, day, secondOfDay, millisecond)
            return String(decoding: UnsafeBufferPointer(text), as: UTF8.self)
        }
    }

    /// `value`'s last `width` decimal digits, zero-padded, into `text` at `offset`.
    private static func writeDigits(_ value: Int, width: Int, into text: UnsafeMutableBufferPointer<UInt8>, at offset: Int) {
        var value = value
        for index in stride(from: offset + width - 1, through: offset, by: -1) {
            text[index] = UInt8(ascii: "0") + UInt8(value % 10)
            value /= 10
        }
    }

    /// `-MM-DDTHH:MM:SS.mmmZ` (20 bytes) into `text` from `offset`.
    private static func writeTail(into text: UnsafeMutableBufferPointer<UInt8>, from offset: Int,
                                  _ month: Int, _ day: Int, _ secondOfDay: Int, _ millisecond: Int) {
        func put(_ value: Int, width: Int, at position: Int) {
            Self.writeDigits(value, width: width, into: text, at: offset + position)
        }
        text[offset] = UInt8(ascii: "-")
        text[offset + 3] = UInt8(ascii: "-")
        text[offset + 6] = UInt8(ascii: "T")
        text[offset + 9] = UInt8(ascii: ":")
        text[offset + 12] = UInt8(ascii: ":")
        text[offset + 15] = UInt8(ascii: ".")
        text[offset + 19] = UInt8(ascii: "Z")
        put(month, width: 2, at: 1)
        put(day, width: 2, at: 4)
        put(secondOfDay / 3600, width: 2, at: 7)
        put(secondOfDay / 60 % 60, width: 2, at: 10)
        put(secondOfDay % 60, width: 2, at: 13)
        put(millisecond, width: 3, at: 16)
    }

    /// The 20 bytes after the year, as a string (for years of other widths than four).
    private static func iso8601Tail(_ month: Int, _ day: Int, _ secondOfDay: Int, _ millisecond: Int) -> String {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { text in
            Self.writeTail(into: text, from: 0, month, day, secondOfDay, millisecond)
            return String(decoding: UnsafeBufferPointer(text), as: UTF8.self)
        }
    }

    public var description: String { self.iso8601 }

    /// Parses ISO 8601 with a zone: `2026-01-20T10:00:00Z`, `…:00.1Z`, `…:00.100+01:00`, `…+0100`, `…-05`.
    ///
    /// Seconds may be left out (`2026-01-20T10:00Z`); fractions of a second have at most millisecond precision
    /// (further digits must be zeros). Nil for anything else, including instants outside ``range``.
    public static func parse(iso8601 text: String) -> Instant? {
        var scanner = Scanner(text)
        guard let local = scanner.localDateTime(), let zone = scanner.zoneOffset(), scanner.atEnd else { return nil }
        let instant = Instant(milliseconds: local - zone * 1000)
        return Self.range.contains(instant) ? instant : nil
    }

    /// Parses a date-time without a zone (`2026-01-20T10:00`, `2026-01-20 10:00:00.250`) into its civil
    /// milliseconds: the milliseconds since 1970 the wall-clock reading would be if it were UTC.
    static func parse(localDateTime text: String) -> Int64? {
        var scanner = Scanner(text)
        guard let local = scanner.localDateTime(allowSpace: true), scanner.atEnd else { return nil }
        return local
    }

    // MARK: civil-date arithmetic (proleptic Gregorian calendar; Howard Hinnant's algorithms)

    /// The days since 1970-01-01 of a civil date.
    static func days(fromCivil year: Int, _ month: Int, _ day: Int) -> Int64 {
        let y = Int64(month <= 2 ? year - 1 : year)
        let era = Self.floorDivide(y, 400)
        let yearOfEra = y - era * 400
        let shiftedMonth = Int64(month > 2 ? month - 3 : month + 9)
        let dayOfYear = (153 * shiftedMonth + 2) / 5 + Int64(day) - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The civil date of a day number counted from 1970-01-01.
    static func civil(fromDays days: Int64) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = Self.floorDivide(z, 146_097)
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return (Int(year), Int(month), Int(day))
    }

    /// The number of days in a month.
    static func length(ofMonth month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Division rounding towards negative infinity.
    static func floorDivide(_ a: Int64, _ b: Int64) -> Int64 {
        let (quotient, remainder) = a.quotientAndRemainder(dividingBy: b)
        return remainder != 0 && (remainder < 0) != (b < 0) ? quotient - 1 : quotient
    }

}

/// Reads the parts of an ISO 8601 date-time, one ASCII byte at a time.
private struct Scanner {
    private let bytes: [UInt8]
    private var index = 0

    init(_ text: String) { self.bytes = Array(text.utf8) }

    var atEnd: Bool { self.index == self.bytes.count }

    /// `YYYY-MM-DD(T| )HH:MM[:SS[.fff]]` as civil milliseconds since 1970.
    mutating func localDateTime(allowSpace: Bool = false) -> Int64? {
        guard let year = self.digits(4), self.take("-"), let month = self.digits(2), self.take("-"), let day = self.digits(2),
              (1...12).contains(month), (1...Instant.length(ofMonth: month, year: year)).contains(day),
              self.take("T") || self.take("t") || (allowSpace && self.take(" ")),
              let hour = self.digits(2), self.take(":"), let minute = self.digits(2), hour < 24, minute < 60
        else { return nil }
        var second = 0, millisecond = 0
        if self.take(":") {
            guard let value = self.digits(2), value < 60 else { return nil }
            second = value
            if self.take(".") || self.take(",") {
                var count = 0
                while let digit = self.digit() {
                    count += 1
                    if count <= 3 {
                        millisecond = millisecond * 10 + digit
                    } else if digit != 0 {
                        return nil  // finer than a millisecond: not a time the books can hold exactly
                    }
                }
                guard count > 0 else { return nil }
                for _ in 0..<max(0, 3 - count) { millisecond *= 10 }
            }
        }
        let days = Instant.days(fromCivil: year, month, day)
        return ((days * 24 + Int64(hour)) * 60 + Int64(minute)) * 60_000 + Int64(second) * 1000 + Int64(millisecond)
    }

    /// `Z`, `±HH:MM`, `±HHMM` or `±HH`, as seconds east of UTC; `±HH:MM:SS` too, for the local mean time some zones
    /// give the years before standard time.
    mutating func zoneOffset() -> Int64? {
        if self.take("Z") || self.take("z") { return 0 }
        let sign: Int64
        if self.take("+") { sign = 1 } else if self.take("-") { sign = -1 } else { return nil }
        guard let hours = self.digits(2), hours < 24 else { return nil }
        var minutes = 0
        var seconds = 0
        if self.take(":") {
            guard let value = self.digits(2) else { return nil }
            minutes = value
            if self.take(":") {
                guard let value = self.digits(2) else { return nil }
                seconds = value
            }
        } else if let value = self.digits(2) {
            minutes = value
        }
        guard minutes < 60, seconds < 60 else { return nil }
        return sign * Int64(hours * 3600 + minutes * 60 + seconds)
    }

    private mutating func take(_ character: Unicode.Scalar) -> Bool {
        guard self.index < self.bytes.count, self.bytes[self.index] == UInt8(ascii: character) else { return false }
        self.index += 1
        return true
    }

    private mutating func digit() -> Int? {
        guard self.index < self.bytes.count, (48...57).contains(self.bytes[self.index]) else { return nil }
        defer { self.index += 1 }
        return Int(self.bytes[self.index] - 48)
    }

    private mutating func digits(_ count: Int) -> Int? {
        var value = 0
        for _ in 0..<count {
            guard let digit = self.digit() else { return nil }
            value = value * 10 + digit
        }
        return value
    }
}
