import Foundation
import InventoryDomain
import Testing

@Suite struct ShopCalendarTests {
    let paris = try! ShopCalendar(identifier: "Europe/Paris")

    @Test func parsesTheFormsUsersType() throws {
        let utc = try #require(Instant.parse(iso8601: "2026-11-22T09:30:00Z"))
        #expect(try self.paris.parseDateTime("2026-11-22T09:30:00Z", field: "at") == utc)
        #expect(try self.paris.parseDateTime("2026-11-22T10:30:00+01:00", field: "at") == utc)
        #expect(try self.paris.parseDateTime("2026-11-22T10:30:00.000+01:00", field: "at") == utc)
        // Local times are in the shop's zone (Paris is UTC+1 in November).
        #expect(try self.paris.parseDateTime("2026-11-22T10:30", field: "at") == utc)
        #expect(try self.paris.parseDateTime("2026-11-22 10:30:00", field: "at") == utc)
        // A day means its first instant, or its last with endOfDay.
        let start = try self.paris.parseDateTime("2026-11-22", field: "at")
        let end = try self.paris.parseDateTime("2026-11-22", field: "at", endOfDay: true)
        #expect(end.milliseconds - start.milliseconds == 86_400_000 - 1)
    }

    @Test func aZonePlusSentUnencodedInAURLStillParses() throws {
        // `?at=2026-11-22T10:30:00+01:00` typed into a URL arrives with a space for the "+".
        let utc = try #require(Instant.parse(iso8601: "2026-11-22T09:30:00Z"))
        #expect(try self.paris.parseDateTime("2026-11-22T10:30:00 01:00", field: "at") == utc)
    }

    @Test func refusesWhatIsNotADateNamingTheField() {
        for text in ["yesterday", "2026-13-01", "2026-11-22T25:00", "2026-11-22T10:61", ""] {
            let error = #expect(throws: InventoryError.self) { try self.paris.parseDateTime(text, field: "at") }
            #expect(error?.field == "at", "\(text)")
        }
    }
}
