import Foundation

/// Calendar days in the shop's time zone: a "day" in every report is a calendar day there.
public struct ShopCalendar: Sendable, Hashable {
    /// The shop's time zone.
    public let timeZone: TimeZone
    private let calendar: Calendar

    /// Creates a calendar for a time zone.
    public init(timeZone: TimeZone) {
        self.timeZone = timeZone
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        self.calendar = calendar
    }

    /// Creates a calendar for a time-zone identifier such as `Europe/Berlin`.
    /// - Throws: ``InventoryError`` naming `timeZone` when the identifier is unknown.
    public init(identifier: String) throws {
        guard let zone = TimeZone(identifier: identifier) else {
            throw InventoryError(.invalidValue, field: "timeZone", "'\(identifier)' is not a known time zone (e.g. Europe/Berlin)")
        }
        self.init(timeZone: zone)
    }

    /// The day containing an instant, as `yyyymmdd` (20261122).
    public func dayNumber(_ date: Date) -> Int {
        let parts = self.calendar.dateComponents([.year, .month, .day], from: date)
        return (parts.year ?? 0) * 10_000 + (parts.month ?? 0) * 100 + (parts.day ?? 0)
    }

    /// The day containing an instant given in ms since 1970.
    public func dayNumber(milliseconds: Int64) -> Int {
        self.dayNumber(Date(timeIntervalSince1970: TimeInterval(milliseconds) / 1000))
    }

    /// The first instant of a `yyyymmdd` day.
    public func startOfDay(_ day: Int) -> Date {
        let components = DateComponents(year: day / 10_000, month: day / 100 % 100, day: day % 100)
        return self.calendar.date(from: components) ?? Date(timeIntervalSince1970: 0)
    }

    /// The day after a `yyyymmdd` day.
    public func nextDay(_ day: Int) -> Int {
        let start = self.startOfDay(day)
        let next = self.calendar.date(byAdding: .day, value: 1, to: start) ?? start
        return self.dayNumber(next)
    }

    /// The day `offset` days from a `yyyymmdd` day.
    public func addingDays(_ offset: Int, to day: Int) -> Int {
        let start = self.startOfDay(day)
        return self.dayNumber(self.calendar.date(byAdding: .day, value: offset, to: start) ?? start)
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
    /// `…+01:00`), a local date-time in the shop's zone (`2026-11-22T10:30`, `2026-11-22 10:30`), or a day
    /// (`2026-11-22`, meaning `endOfDay` ? its last instant : its first).
    /// - Throws: ``InventoryError`` naming `field` when the text is none of these.
    public func parseDateTime(_ text: String, field: String, endOfDay: Bool = false) throws -> Date {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if let day = Self.dayNumber(isoDate: trimmed) {
            if endOfDay { return self.startOfDay(self.nextDay(day)).addingTimeInterval(-0.001) }
            return self.startOfDay(day)
        }
        let withZone = ISO8601DateFormatter()
        withZone.formatOptions = [.withInternetDateTime]
        if let date = withZone.date(from: trimmed) { return date }
        withZone.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let date = withZone.date(from: trimmed) { return date }
        // The "+" of a zone offset typed unencoded into a URL arrives as a space (form encoding).
        if trimmed.contains("T"), trimmed.contains(" ") {
            let plus = trimmed.replacingOccurrences(of: " ", with: "+")
            for options: ISO8601DateFormatter.Options in [[.withInternetDateTime], [.withInternetDateTime, .withFractionalSeconds]] {
                withZone.formatOptions = options
                if let date = withZone.date(from: plus) { return date }
            }
        }
        let normalized = trimmed.replacingOccurrences(of: " ", with: "T")
        let pieces = normalized.split(separator: "T")
        if pieces.count == 2, let day = Self.dayNumber(isoDate: String(pieces[0])) {
            let time = pieces[1].split(separator: ":")
            if (2...3).contains(time.count), let hour = Int(time[0]), let minute = Int(time[1]),
                (0..<24).contains(hour), (0..<60).contains(minute)
            {
                let second = time.count == 3 ? Int(time[2]) : 0
                if let second, (0..<60).contains(second) {
                    var components = DateComponents(year: day / 10_000, month: day / 100 % 100, day: day % 100)
                    components.hour = hour
                    components.minute = minute
                    components.second = second
                    if let date = self.calendar.date(from: components) { return date }
                }
            }
        }
        throw InventoryError(
            .invalidValue, field: field,
            "'\(text)' is not a date (write 2026-11-22, 2026-11-22T14:30 or 2026-11-22T14:30:00Z)")
    }
}

extension Date {
    /// Milliseconds since 1970, as stored.
    public var milliseconds: Int64 { Int64((self.timeIntervalSince1970 * 1000).rounded()) }

    /// The instant `milliseconds` after 1970.
    public init(milliseconds: Int64) { self.init(timeIntervalSince1970: TimeInterval(milliseconds) / 1000) }
}
