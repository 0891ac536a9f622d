import Foundation
import InventoryDomain
import Testing

/// Times are exact: every instant written as text reads back as the same millisecond (issue 10, defect 2).
@Suite struct InstantTests {
    /// Zones with odd offsets (+05:45, +13:45, −03:30), southern and northern summer time and none at all.
    static let zones = ["UTC", "Europe/Berlin", "America/Sao_Paulo", "Asia/Kathmandu", "Pacific/Chatham", "America/St_Johns",
                        "Australia/Lord_Howe", "Asia/Tokyo"]

    /// Random instants over the whole range (before 1970 and far in the future included) with every millisecond value.
    static func randomInstants(count: Int, seed: UInt64) -> [Instant] { Instant.samples(count: count, seed: seed) }

    @Test func writesUTCWithMilliseconds() {
        #expect(Instant(milliseconds: 0).iso8601 == "1970-01-01T00:00:00.000Z")
        #expect(Instant(milliseconds: -1).iso8601 == "1969-12-31T23:59:59.999Z")
        #expect(Instant(milliseconds: 1_768_903_200_100).iso8601 == "2026-01-20T10:00:00.100Z")
        #expect(Instant.range.lowerBound.iso8601 == "0001-01-02T00:00:00.000Z")
        #expect(Instant.range.upperBound.iso8601 == "9999-12-30T23:59:59.999Z")
        #expect(Instant(milliseconds: 951_782_400_000).iso8601 == "2000-02-29T00:00:00.000Z")
    }

    @Test func everyMillisecondOfASecondRoundTrips() throws {
        // Through a Double, about half of these came back one millisecond early (.100 → .099).
        for millisecond in Int64(0)...999 {
            let instant = Instant(milliseconds: 1_768_903_200_000 + millisecond)
            #expect(Instant.parse(iso8601: instant.iso8601) == instant, "\(instant)")
        }
    }

    @Test func randomInstantsRoundTripThroughEveryFormat() throws {
        let calendars = try Self.zones.map { try ShopCalendar(identifier: $0) }
        for instant in Self.randomInstants(count: 20_000, seed: 10_2) {
            // The API's form (UTC) and the user's forms (a zone, a local time in the shop's zone with its offset).
            #expect(Instant.parse(iso8601: instant.iso8601) == instant, "\(instant.milliseconds)")
            for calendar in calendars {
                #expect(try calendar.parseDateTime(instant.iso8601, field: "at") == instant)
                let local = calendar.localISO8601(instant)
                #expect(Instant.parse(iso8601: local) == instant, "\(local)")
                #expect(try calendar.parseDateTime(local, field: "at") == instant, "\(local)")
            }
        }
    }

    @Test func civilArithmeticAgreesWithFoundationOnWholeSeconds() throws {
        // Foundation as an independent reference where it is exact: whole seconds after the Gregorian reform.
        var random = SeededRandom(seed: 7)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        for _ in 0..<5_000 {
            let seconds = Int64.random(in: -12_000_000_000...250_000_000_000, using: &random)
            let date = Date(timeIntervalSince1970: TimeInterval(seconds))
            let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
            let expected = String(format: "%04d-%02d-%02dT%02d:%02d:%02d.000Z", parts.year!, parts.month!, parts.day!, parts.hour!, parts.minute!, parts.second!)
            #expect(Instant(milliseconds: seconds * 1000).iso8601 == expected)
        }
    }

    @Test func readsOffsetsFractionsAndRefusesWhatIsNotExact() throws {
        let instant = Instant(milliseconds: 1_768_903_200_100)  // 2026-01-20T10:00:00.100Z
        for text in ["2026-01-20T10:00:00.1Z", "2026-01-20T10:00:00.100Z", "2026-01-20T10:00:00.100000Z", "2026-01-20T11:00:00.100+01:00",
                     "2026-01-20T11:00:00.100+0100", "2026-01-20T05:00:00.100-05", "2026-01-20t10:00:00.100z", "2026-01-20T10:00:00,100Z"] {
            #expect(Instant.parse(iso8601: text) == instant, "\(text)")
        }
        #expect(Instant.parse(iso8601: "2026-01-20T10:00Z") == Instant(milliseconds: 1_768_903_200_000))
        for text in ["2026-01-20T10:00:00.1004Z", "2026-01-20T10:00:60Z", "2026-02-29T10:00:00Z", "2026-01-20T10:00:00", "2026-01-20T10:00:00.Z",
                     "0001-01-01T23:59:59.999Z", "9999-12-31T00:00:00Z", "10000-01-01T00:00:00Z", "2026-01-20T24:00:00Z", "2026-01-20T10:00:00+24:00", " 2026-01-20T10:00:00Z", ""] {
            #expect(Instant.parse(iso8601: text) == nil, "\(text)")
        }
        #expect(Instant.parse(iso8601: "1890-01-01T00:53:28.000+00:53:28") == Instant.parse(iso8601: "1890-01-01T00:00:00Z"))
        let error = #expect(throws: InventoryError.self) { try ShopCalendar(identifier: "UTC").parseDateTime("2026-01-20T10:00:00.0001Z", field: "effectiveAt") }
        #expect(error?.field == "effectiveAt")
    }

    @Test func aDayEndsAtItsLastMillisecond() throws {
        let utc = try ShopCalendar(identifier: "UTC")
        // `?at=2026-01-20` answered 23:59:59.998Z.
        #expect(try utc.parseDateTime("2026-01-20", field: "at", endOfDay: true).iso8601 == "2026-01-20T23:59:59.999Z")
        let berlin = try ShopCalendar(identifier: "Europe/Berlin")
        #expect(try berlin.parseDateTime("2026-01-20", field: "at", endOfDay: true).iso8601 == "2026-01-20T22:59:59.999Z")
        #expect(berlin.localISO8601(Instant(milliseconds: 1_768_903_200_100)) == "2026-01-20T11:00:00.100+01:00")
        #expect(utc.localISO8601(Instant(milliseconds: 1_768_903_200_100)) == "2026-01-20T10:00:00.100Z")
    }

    @Test func localTimesAcrossClockChangesAreReadAsFoundationReadsThem() throws {
        for identifier in ["Europe/Paris", "America/Sao_Paulo", "America/New_York", "Australia/Lord_Howe"] {
            let shop = try ShopCalendar(identifier: identifier)
            var reference = Calendar(identifier: .gregorian)
            reference.timeZone = shop.timeZone
            // Every half hour of two years, the skipped and repeated hours included.
            for day in shop.days(from: 20250101, through: 20261231) {
                for halfHour in [0, 1, 3, 4, 5, 6, 47] {
                    let text = ShopCalendar.isoDate(day) + String(format: "T%02d:%02d", halfHour / 2, halfHour % 2 * 30)
                    let parts = DateComponents(year: day / 10_000, month: day / 100 % 100, day: day % 100, hour: halfHour / 2, minute: halfHour % 2 * 30)
                    let expected = try #require(reference.date(from: parts))
                    let instant = try shop.parseDateTime(text, field: "at")
                    #expect(instant.milliseconds == Int64(expected.timeIntervalSince1970) * 1000, "\(identifier) \(text)")
                }
                #expect(shop.dayNumber(shop.startOfDay(day)) == day)
                #expect(shop.dayNumber(shop.endOfDay(day)) == day)
                #expect(shop.startOfDay(shop.nextDay(day)) == shop.endOfDay(day).adding(milliseconds: 1))
            }
        }
    }

    @Test func weekdays() {
        #expect(ShopCalendar.weekday(19700101) == 4)  // a Thursday
        #expect(ShopCalendar.weekday(20260120) == 2)  // a Tuesday
        #expect(ShopCalendar.weekday(19691228) == 0)  // a Sunday
    }

    /// A draft without a date of its own takes the moment it is booked, never earlier than it was asked for; a dated
    /// draft keeps its date (``LedgerDraft``).
    @Test func draftsDatedWhenBookedTakeTheBookingMoment() {
        let asked = Instant(milliseconds: 1_000_000)
        let draft = SaleDraft(effectiveAt: asked, lines: []).dating(whenBooked: true)
        #expect(draft.dated(bookedAt: asked.adding(milliseconds: 250)).effectiveAt == asked.adding(milliseconds: 250))
        #expect(draft.dated(bookedAt: asked.adding(milliseconds: -250)).effectiveAt == asked, "a clock stepped back keeps the request's moment")
        #expect(draft.dated(bookedAt: asked).datedWhenBooked == false)
        let dated = PurchaseDraft(effectiveAt: asked, lines: [])
        #expect(dated.dated(bookedAt: asked.adding(seconds: 60)).effectiveAt == asked)
    }
}
