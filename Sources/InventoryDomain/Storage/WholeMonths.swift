import Foundation

/// The calendar months (`yyyymm`, shop time zone) lying wholly inside a range of instants: a report over the range
/// reads those from the monthly sales summary and only the partial months at either end from the sale lines. One
/// rule for every backend.
public struct WholeMonths: Sendable, Hashable {
    /// The first and last whole month (`yyyymm`).
    public var first: Int
    public var last: Int
    /// The first instant of `first`, and the first instant after `last`.
    public var start: Instant
    public var end: Instant

    /// The whole months inside `from…to` (both inclusive), or nil when the range holds none.
    public init?(from: Instant, to: Instant, calendar: ShopCalendar) {
        var first = calendar.dayNumber(from) / 100
        if calendar.startOfDay(first * 100 + 1) != from { first = Self.month(after: first) }
        var last = calendar.dayNumber(to) / 100
        if calendar.startOfDay(Self.month(after: last) * 100 + 1).milliseconds - 1 > to.milliseconds { last = Self.month(before: last) }
        guard first <= last else { return nil }
        self.first = first
        self.last = last
        self.start = calendar.startOfDay(first * 100 + 1)
        self.end = calendar.startOfDay(Self.month(after: last) * 100 + 1)
    }

    /// The month after `yyyymm`.
    public static func month(after month: Int) -> Int { month % 100 == 12 ? (month / 100 + 1) * 100 + 1 : month + 1 }
    /// The month before `yyyymm`.
    public static func month(before month: Int) -> Int { month % 100 == 1 ? (month / 100 - 1) * 100 + 12 : month - 1 }
}
