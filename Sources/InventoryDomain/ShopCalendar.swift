import Foundation

/// Calendar days in the shop's time zone: a "day" in every report is a calendar day there.
///
/// Days and instants are computed with integer civil-date arithmetic (``Instant``); the time-zone database is only
/// asked for the offset from UTC at a whole second, so no time passes through floating point.
public struct ShopCalendar: Sendable, Hashable {
    /// The shop's time zone.
    public let timeZone: TimeZone

    /// Creates a calendar for a time zone.
    public init(timeZone: TimeZone) {
        self.timeZone = timeZone
    }

    /// Creates a calendar for a time-zone identifier such as `Europe/Berlin`.
    /// - Throws: ``InventoryError`` naming `timeZone` when the identifier is unknown.
    public init(identifier: String) throws {
        guard let zone = TimeZone(identifier: identifier) else {
            throw InventoryError(.invalidValue, field: "timeZone", "'\(identifier)' is not a known time zone (e.g. Europe/Berlin)")
        }
        self.init(timeZone: zone)
    }

    /// The zone's offset from UTC at an instant, in seconds east (an integer count of seconds is exact as a `Date`).
    public func offset(at instant: Instant) -> Int64 {
        Int64(self.timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(instant.seconds))))
    }

    /// The day containing an instant, as `yyyymmdd` (20261122).
    public func dayNumber(_ instant: Instant) -> Int {
        let localSeconds = instant.seconds + self.offset(at: instant)
        let (year, month, day) = Instant.civil(fromDays: Instant.floorDivide(localSeconds, 86_400))
        return year * 10_000 + month * 100 + day
    }

    /// The day containing an instant given in ms since 1970.
    public func dayNumber(milliseconds: Int64) -> Int {
        self.dayNumber(Instant(milliseconds: milliseconds))
    }

    /// The first instant of a `yyyymmdd` day.
    public func startOfDay(_ day: Int) -> Instant {
        self.instant(civilMilliseconds: Self.days(of: day) * 86_400_000)
    }

    /// The instant a `yyyymmdd` day's clocks show `hour` o'clock (0–23; a skipped hour is read as
    /// ``instant(civilMilliseconds:)`` reads it).
    public func instant(day: Int, hour: Int) -> Instant {
        self.instant(civilMilliseconds: Self.days(of: day) * 86_400_000 + Int64(hour) * 3_600_000)
    }

    /// The last instant (millisecond) of a `yyyymmdd` day.
    public func endOfDay(_ day: Int) -> Instant {
        self.startOfDay(self.nextDay(day)).adding(milliseconds: -1)
    }

    /// An instant as ISO 8601 with milliseconds in the shop's local time and offset: `2026-01-20T11:00:00.100+01:00`
    /// (`…Z` where the offset is zero; `±HH:MM:SS` for the local mean time of a zone's early years).
    /// ``parseDateTime(_:field:endOfDay:)`` reads it back to the same millisecond.
    public func localISO8601(_ instant: Instant) -> String {
        let offset = self.offset(at: instant)
        let local = Instant(milliseconds: instant.milliseconds + offset * 1000).iso8601.dropLast()
        guard offset != 0 else { return local + "Z" }
        func two(_ value: UInt64) -> String { value < 10 ? "0\(value)" : String(value) }
        let magnitude = offset.magnitude
        let seconds = magnitude % 60 == 0 ? "" : ":" + two(magnitude % 60)
        return local + (offset < 0 ? "-" : "+") + two(magnitude / 3600) + ":" + two(magnitude / 60 % 60) + seconds
    }

    /// The day after a `yyyymmdd` day.
    public func nextDay(_ day: Int) -> Int {
        self.addingDays(1, to: day)
    }

    /// The day `offset` days from a `yyyymmdd` day.
    public func addingDays(_ offset: Int, to day: Int) -> Int {
        let (year, month, dayOfMonth) = Instant.civil(fromDays: Self.days(of: day) + Int64(offset))
        return year * 10_000 + month * 100 + dayOfMonth
    }

    /// The instant a wall-clock reading in the shop's zone names, given as the milliseconds since 1970 it would be in
    /// UTC. A reading the clocks skip (spring forward) or pass twice (fall back) is read with the offset in force
    /// before the change, as Foundation's calendar does: a skipped 02:30 is 03:30, a repeated 02:30 the first one.
    public func instant(civilMilliseconds local: Int64) -> Instant {
        let localInstant = Instant(milliseconds: local)
        let before = self.offset(at: localInstant.adding(seconds: -86_400))
        let after = self.offset(at: localInstant.adding(seconds: 86_400))
        let early = localInstant.adding(seconds: -before)
        guard before != after else { return early }
        if self.offset(at: early) == before { return early }
        let late = localInstant.adding(seconds: -after)
        return self.offset(at: late) == after ? late : early
    }

    /// The weekday of a `yyyymmdd` day: 0 for Sunday through 6 for Saturday.
    public static func weekday(_ day: Int) -> Int {
        Int(Instant.floorDivide(Self.days(of: day) + 4, 7) * -7 + Self.days(of: day) + 4)
    }

    /// Days since 1970-01-01 of a `yyyymmdd` day.
    private static func days(of day: Int) -> Int64 {
        Instant.days(fromCivil: day / 10_000, day / 100 % 100, day % 100)
    }

    /// Every day from `from` through `to`, inclusive.
    public func days(from: Int, through to: Int) -> [Int] {
        var result: [Int] = []
        var day = from
        while day <= to, result.count < 40_000 {
            result.append(day)
            day = self.nextDay(day)
        }
        return result
    }

    /// Parses `YYYY-MM-DD` into `yyyymmdd`; nil when it is not a real date.
    public static func dayNumber(isoDate text: String) -> Int? {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]),
            (1...12).contains(month), day >= 1
        else { return nil }
        let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
        let lengths = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        guard day <= lengths[month - 1] else { return nil }
        return year * 10_000 + month * 100 + day
    }

    /// Formats `yyyymmdd` as `YYYY-MM-DD`.
    public static func isoDate(_ day: Int) -> String {
        let year = String(day / 10_000)
        let month = String(day / 100 % 100)
        let dayOfMonth = String(day % 100)
        return String(repeating: "0", count: max(0, 4 - year.count)) + year + "-"
            + (month.count < 2 ? "0" : "") + month + "-" + (dayOfMonth.count < 2 ? "0" : "") + dayOfMonth
    }

    /// Parses a date-time the way users type it: ISO 8601 with a zone (`2026-11-22T10:30:00Z`,
    /// `…:00.250+01:00`), a local date-time in the shop's zone (`2026-11-22T10:30`, `2026-11-22 10:30:00.250`), or a
    /// day (`2026-11-22`, meaning `endOfDay` ? its last millisecond : its first). Exact to the millisecond; a finer
    /// fraction is refused like a price with too many decimals.
    /// - Throws: ``InventoryError`` naming `field` when the text is none of these.
    public func parseDateTime(_ text: String, field: String, endOfDay: Bool = false) throws -> Instant {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if let day = Self.dayNumber(isoDate: trimmed) {
            return endOfDay ? self.endOfDay(day) : self.startOfDay(day)
        }
        if let instant = Instant.parse(iso8601: trimmed) { return instant }
        // The "+" of a zone offset typed unencoded into a URL arrives as a space (form encoding).
        if trimmed.contains("T"), trimmed.contains(" "),
           let instant = Instant.parse(iso8601: trimmed.replacingOccurrences(of: " ", with: "+")) {
            return instant
        }
        if let local = Instant.parse(localDateTime: trimmed) {
            let instant = self.instant(civilMilliseconds: local)
            if Instant.range.contains(instant) { return instant }
        }
        throw InventoryError(
            .invalidValue, field: field,
            "'\(text)' is not a date (write 2026-11-22, 2026-11-22T14:30 or 2026-11-22T14:30:00.000Z; at most milliseconds, years 0001–9999)")
    }
}
