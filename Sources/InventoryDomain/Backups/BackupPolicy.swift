import Foundation

/// When the server takes its automatic backup, and which of the backups it took it keeps.
///
/// - **When.** One backup per shop day (in the shop's time zone): the first check at or after `hour` o'clock takes it
///   unless a good backup was taken since that hour. A machine that was off at that hour takes the day's backup as soon as it runs.
///   After a failed backup the next try waits ``retryAfterFailure`` (an hour), so a backup that keeps failing does not
///   write the whole shop out once a minute.
/// - **What is kept** (the rule backup tools call grandfather-father-son): the newest good backup of each of the last
///   `keepDaily` days that have one, and the newest good backup of each of the last `keepWeekly` weeks (Monday to
///   Sunday) that have one; a backup kept for either reason stays. A backup whose check failed is never counted; the
///   newest failure stays, so it can be looked at, until a newer good backup exists; older failures go (at most one
///   failed backup takes room, however long backups keep failing).
public struct BackupPolicy: Sendable, Hashable, Codable {
    /// Days whose newest good backup is kept (7 by default).
    public var keepDaily: Int
    /// Weeks whose newest good backup is kept (4 by default).
    public var keepWeekly: Int
    /// The shop-local hour (0–23) from which a day's backup is due.
    public var hour: Int

    /// The defaults: 7 daily, 4 weekly, due from midnight.
    public static let standard = BackupPolicy(checkedKeepDaily: 7, keepWeekly: 4, hour: 0)

    private init(checkedKeepDaily keepDaily: Int, keepWeekly: Int, hour: Int) {
        self.keepDaily = keepDaily
        self.keepWeekly = keepWeekly
        self.hour = hour
    }

    /// A policy with checked values.
    /// - Throws: ``InventoryError`` naming `keepDaily` (1–366), `keepWeekly` (0–520) or `hour` (0–23).
    public init(keepDaily: Int = 7, keepWeekly: Int = 4, hour: Int = 0) throws {
        guard (1...366).contains(keepDaily) else {
            throw InventoryError(.invalidValue, field: "keepDaily", "must be from 1 to 366 days (the newest backup is always kept)")
        }
        guard (0...520).contains(keepWeekly) else { throw InventoryError(.invalidValue, field: "keepWeekly", "must be from 0 to 520 weeks") }
        guard (0...23).contains(hour) else { throw InventoryError(.invalidValue, field: "hour", "must be an hour from 0 to 23") }
        self.init(checkedKeepDaily: keepDaily, keepWeekly: keepWeekly, hour: hour)
    }

    /// Why a backup is kept.
    public enum Reason: String, Sendable, Hashable, Codable, CaseIterable, Comparable {
        /// The newest good backup of one of the last `keepDaily` days.
        case daily
        /// The newest good backup of one of the last `keepWeekly` weeks.
        case weekly
        /// The newest failed backup, newer than every good one, kept to be looked at.
        case newestFailure

        public static func < (lhs: Reason, rhs: Reason) -> Bool {
            Self.allCases.firstIndex(of: lhs) ?? 0 < Self.allCases.firstIndex(of: rhs) ?? 0
        }
    }

    /// A backup as the policy sees it.
    public struct Taken: Sendable, Hashable {
        /// Its name (unique in the folder).
        public var name: String
        /// When it was taken.
        public var at: Instant
        /// Whether its check after writing passed.
        public var good: Bool

        /// Creates a value.
        public init(name: String, at: Instant, good: Bool) {
            self.name = name
            self.at = at
            self.good = good
        }
    }

    /// How long the automatic backup waits after a failed backup before it tries again: an hour (in milliseconds).
    public static let retryAfterFailure: Int64 = 3_600_000

    /// Whether a backup is due at `now`, given when the newest good backup was taken (nil: never) and when the newest
    /// failed one was (nil: none since): it is past today's `hour`, no good backup has been taken since, and the last
    /// failure is at least ``retryAfterFailure`` ago.
    public func isDue(at now: Instant, newestGood: Instant?, lastFailure: Instant? = nil, calendar: ShopCalendar) -> Bool {
        self.nextDue(at: now, newestGood: newestGood, lastFailure: lastFailure, calendar: calendar) == now
    }

    /// When the next backup is due: `now` when one is due already; an hour after the last failure when the day's
    /// backup is missing but a failure is that recent; else the next `hour` o'clock (today's or tomorrow's).
    public func nextDue(at now: Instant, newestGood: Instant?, lastFailure: Instant? = nil, calendar: ShopCalendar) -> Instant {
        let today = calendar.dayNumber(now)
        let todayAt = calendar.instant(day: today, hour: self.hour)
        guard now >= todayAt else { return todayAt }
        guard newestGood.map({ $0 < todayAt }) ?? true else { return calendar.instant(day: calendar.nextDay(today), hour: self.hour) }
        guard let lastFailure else { return now }
        return max(now, lastFailure.adding(milliseconds: Self.retryAfterFailure))
    }

    /// The backups to keep and why; every backup not in the answer is to be removed.
    public func kept(_ backups: [Taken], calendar: ShopCalendar) -> [String: Set<Reason>] {
        let newestFirst = backups.sorted { ($0.at, $0.name) > ($1.at, $1.name) }
        var reasons: [String: Set<Reason>] = [:]
        let good = newestFirst.filter(\.good)
        func keepNewest(of bucket: (Taken) -> Int, count: Int, as reason: Reason) {
            var seen = Set<Int>()
            for backup in good where seen.count < count {
                guard seen.insert(bucket(backup)).inserted else { continue }
                reasons[backup.name, default: []].insert(reason)
            }
        }
        keepNewest(of: { calendar.dayNumber($0.at) }, count: self.keepDaily, as: .daily)
        keepNewest(of: { Self.weekStart(of: calendar.dayNumber($0.at), calendar: calendar) }, count: self.keepWeekly, as: .weekly)
        let newestGood = good.first?.at
        if let failed = newestFirst.first(where: { !$0.good }), newestGood.map({ failed.at > $0 }) ?? true {
            reasons[failed.name, default: []].insert(.newestFailure)
        }
        return reasons
    }

    /// The Monday starting the week of a `yyyymmdd` day.
    public static func weekStart(of day: Int, calendar: ShopCalendar) -> Int {
        let sinceMonday = (ShopCalendar.weekday(day) + 6) % 7
        return calendar.addingDays(-sinceMonday, to: day)
    }
}
