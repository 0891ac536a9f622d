import Foundation
import InventoryDomain
import Testing

/// The retention rule and the daily schedule of the kept backups, against examples worked by hand.
@Suite struct BackupPolicyTests {
    let berlin = try! ShopCalendar(identifier: "Europe/Berlin")

    /// A good backup at a Berlin wall-clock time.
    func taken(_ day: Int, hour: Int = 0, minute: Int = 30, good: Bool = true, name: String? = nil) -> BackupPolicy.Taken {
        let at = self.berlin.instant(day: day, hour: hour).adding(seconds: Int64(minute * 60))
        return BackupPolicy.Taken(name: name ?? "\(day)-\(hour)\(minute)\(good ? "" : "-failed")", at: at, good: good)
    }

    /// One backup a day at 00:30 from 1 October to Thursday 26 November 2026, 7 daily and 4 weekly kept, worked by
    /// hand: the days 20–26 November; the newest of the weeks of 23, 16, 9 and 2 November (Mondays) are the 26th,
    /// 22nd (a Sunday), 15th and 8th. Nine backups in all.
    @Test func sevenDailyAndFourWeeklyByHand() throws {
        let days = self.berlin.days(from: 20261001, through: 20261126)
        let kept = BackupPolicy.standard.kept(days.map { self.taken($0) }, calendar: self.berlin)
        let expected: [String: Set<BackupPolicy.Reason>] = [
            "20261126-030": [.daily, .weekly], "20261125-030": [.daily], "20261124-030": [.daily], "20261123-030": [.daily],
            "20261122-030": [.daily, .weekly], "20261121-030": [.daily], "20261120-030": [.daily],
            "20261115-030": [.weekly], "20261108-030": [.weekly],
        ]
        #expect(kept == expected)
    }

    /// Only the newest backup of a day counts for it; days without a backup are skipped, not counted.
    @Test func newestOfADayAndGapsSkipped() throws {
        let policy = try BackupPolicy(keepDaily: 3, keepWeekly: 0)
        let backups = [
            self.taken(20261126, hour: 9), self.taken(20261126, hour: 18), self.taken(20261120), self.taken(20261110), self.taken(20261101),
        ]
        let kept = policy.kept(backups, calendar: self.berlin)
        #expect(kept == ["20261126-1830": [.daily], "20261120-030": [.daily], "20261110-030": [.daily]])
    }

    /// A day is the shop's: 23:30 UTC on 21 November is already the 22nd in Berlin (and a Sunday, the end of a week).
    @Test func daysAndWeeksAreTheShopsTimeZone() throws {
        let utc = ShopCalendar(timeZone: TimeZone(identifier: "UTC")!)
        let late = BackupPolicy.Taken(name: "late", at: try #require(Instant.parse(iso8601: "2026-11-21T23:30:00Z")), good: true)
        let early = BackupPolicy.Taken(name: "early", at: try #require(Instant.parse(iso8601: "2026-11-21T08:00:00Z")), good: true)
        let policy = try BackupPolicy(keepDaily: 1, keepWeekly: 0)
        #expect(policy.kept([late, early], calendar: self.berlin) == ["late": [.daily]])
        #expect(policy.kept([late, early], calendar: utc) == ["late": [.daily]])
        let twoDays = try BackupPolicy(keepDaily: 2, keepWeekly: 0)
        #expect(twoDays.kept([late, early], calendar: utc) == ["late": [.daily]], "one UTC day")
        #expect(twoDays.kept([late, early], calendar: self.berlin) == ["late": [.daily], "early": [.daily]], "two Berlin days")
        #expect(BackupPolicy.weekStart(of: 20261122, calendar: self.berlin) == 20261116)
        #expect(BackupPolicy.weekStart(of: 20261123, calendar: self.berlin) == 20261123)
        #expect(BackupPolicy.weekStart(of: 20270103, calendar: self.berlin) == 20261228, "a week across the new year")
    }

    /// A failed backup never counts as a day's or a week's backup; the newest failure stays (to be looked at) until a
    /// newer good backup exists, older failures go.
    @Test func failedBackupsNeverCount() throws {
        let policy = try BackupPolicy(keepDaily: 2, keepWeekly: 0)
        let backups = [
            self.taken(20261126, hour: 2, good: false), self.taken(20261125), self.taken(20261124, hour: 5, good: false),
            self.taken(20261124), self.taken(20261123),
        ]
        #expect(policy.kept(backups, calendar: self.berlin) == [
            "20261126-230-failed": [.newestFailure], "20261125-030": [.daily], "20261124-030": [.daily],
        ])
        let fixed = backups + [self.taken(20261126, hour: 4)]
        #expect(policy.kept(fixed, calendar: self.berlin) == ["20261126-430": [.daily], "20261125-030": [.daily]])
        #expect(policy.kept([self.taken(20261126, good: false), self.taken(20261125, good: false)], calendar: self.berlin) == [
            "20261126-030-failed": [.newestFailure],
        ], "with no good backup at all, the newest failure stays: backups that keep failing take the room of one")
        #expect(policy.kept([], calendar: self.berlin).isEmpty)
    }

    /// Due from the hour, once a day: not before it, not again after a good backup since it.
    @Test func dueOncePerDayFromTheHour() throws {
        let policy = try BackupPolicy(keepDaily: 7, keepWeekly: 4, hour: 3)
        let at = { (hour: Int, minute: Int) in self.berlin.instant(day: 20261126, hour: hour).adding(seconds: Int64(minute * 60)) }
        let yesterday = self.berlin.instant(day: 20261125, hour: 3)
        #expect(!policy.isDue(at: at(2, 59), newestGood: yesterday, calendar: self.berlin))
        #expect(policy.isDue(at: at(3, 0), newestGood: yesterday, calendar: self.berlin))
        #expect(policy.isDue(at: at(23, 0), newestGood: yesterday, calendar: self.berlin), "a machine that was off at 3 takes it later")
        #expect(!policy.isDue(at: at(3, 10), newestGood: at(3, 5), calendar: self.berlin))
        #expect(policy.isDue(at: at(3, 10), newestGood: at(1, 0), calendar: self.berlin), "a backup before the hour is yesterday's")
        #expect(policy.isDue(at: at(12, 0), newestGood: nil, calendar: self.berlin))
        #expect(!policy.isDue(at: at(1, 0), newestGood: nil, calendar: self.berlin))
        // The spring-forward day: 02:00 does not exist in Berlin on 29 March 2026; hour 2 is read as 03:00.
        let spring = try BackupPolicy(keepDaily: 7, keepWeekly: 4, hour: 2)
        let three = try #require(Instant.parse(iso8601: "2026-03-29T01:00:00Z"))
        #expect(spring.isDue(at: three, newestGood: nil, calendar: self.berlin))
        #expect(!spring.isDue(at: three.adding(seconds: -1), newestGood: nil, calendar: self.berlin))
    }

    @Test func nextDueIsNowOrTheNextHour() throws {
        let policy = try BackupPolicy(keepDaily: 7, keepWeekly: 4, hour: 3)
        let today3 = self.berlin.instant(day: 20261126, hour: 3), tomorrow3 = self.berlin.instant(day: 20261127, hour: 3)
        let yesterday = self.berlin.instant(day: 20261125, hour: 3)
        #expect(policy.nextDue(at: self.berlin.instant(day: 20261126, hour: 1), newestGood: yesterday, calendar: self.berlin) == today3)
        let noon = self.berlin.instant(day: 20261126, hour: 12)
        #expect(policy.nextDue(at: noon, newestGood: yesterday, calendar: self.berlin) == noon, "due now")
        #expect(policy.nextDue(at: noon, newestGood: today3.adding(seconds: 60), calendar: self.berlin) == tomorrow3)
    }

    /// After a failure the day's backup is tried again an hour later, not at the next check a minute on.
    @Test func aFailedBackupIsRetriedAnHourLater() throws {
        let policy = try BackupPolicy(keepDaily: 7, keepWeekly: 4, hour: 3)
        let yesterday = self.berlin.instant(day: 20261125, hour: 3)
        let failed = self.berlin.instant(day: 20261126, hour: 3).adding(seconds: 30)
        let minuteLater = failed.adding(seconds: 60), hourLater = failed.adding(seconds: 3_600)
        #expect(!policy.isDue(at: minuteLater, newestGood: yesterday, lastFailure: failed, calendar: self.berlin))
        #expect(policy.nextDue(at: minuteLater, newestGood: yesterday, lastFailure: failed, calendar: self.berlin) == hourLater)
        #expect(policy.isDue(at: hourLater, newestGood: yesterday, lastFailure: failed, calendar: self.berlin))
        #expect(policy.isDue(at: hourLater.adding(seconds: 600), newestGood: nil, lastFailure: failed, calendar: self.berlin))
        // A failure does not make a day's backup due that a good backup already made: tomorrow's hour.
        let good = failed.adding(seconds: 600)
        #expect(policy.nextDue(at: hourLater, newestGood: good, lastFailure: failed, calendar: self.berlin)
                == self.berlin.instant(day: 20261127, hour: 3))
        // Yesterday's late failure delays today's first try by at most the hour after it.
        let lateFailure = self.berlin.instant(day: 20261126, hour: 2).adding(seconds: 45 * 60)
        #expect(policy.nextDue(at: self.berlin.instant(day: 20261126, hour: 3), newestGood: yesterday, lastFailure: lateFailure,
                               calendar: self.berlin) == lateFailure.adding(seconds: 3_600))
    }

    @Test func outOfRangeValuesNameTheirField() {
        for (daily, weekly, hour, field) in [(0, 4, 0, "keepDaily"), (367, 4, 0, "keepDaily"), (7, -1, 0, "keepWeekly"), (7, 521, 0, "keepWeekly"),
                                             (7, 4, 24, "hour"), (7, 4, -1, "hour")] {
            #expect(throws: InventoryError.self) { try BackupPolicy(keepDaily: daily, keepWeekly: weekly, hour: hour) }
            do {
                _ = try BackupPolicy(keepDaily: daily, keepWeekly: weekly, hour: hour)
            } catch let error as InventoryError {
                #expect(error.field == field)
            } catch {
                Issue.record("\(error)")
            }
        }
        #expect(BackupPolicy.standard == (try? BackupPolicy()))
    }
}
