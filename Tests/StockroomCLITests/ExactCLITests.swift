import Foundation
import InventoryDomain
import InventoryStore
import Testing

@testable import StockroomCLI

/// The command line reads and prints times exactly and shows the average cost rounded once (issue 10, defects 2 and 3).
@Suite struct ExactCLITests {
    /// Runs the built `stockroom` binary and answers what it printed.
    static func run(_ arguments: [String]) throws -> String {
        let binary = try #require(ServeProcessTests.executable, "build the stockroom executable first (swift build --build-tests)")
        let (status, printed) = try runProcess(binary, arguments)
        #expect(status == 0, "\(arguments): \(printed)")
        return printed
    }

    @Test func randomInstantsRoundTripThroughEveryCommandLineForm() async throws {
        let data = temporaryFolder()
        try await stockroom(["init", "--data", data, "--shop-name", "Times", "--currency", "EUR", "--time-zone", "Asia/Kathmandu"])
        try await stockroom(["product", "add", "--data", data, "--name", "Nut", "--sku", "NUT", "--price", "1.00"])
        let store = try InventorySQLiteRepository.open(dataFolder: data)
        let calendar = try await store.settings().calendar
        let instants = Instant.samples(count: 36, seed: 42) + [Instant(milliseconds: 1_768_903_200_100)]
        for (index, instant) in instants.enumerated() {
            // What a user types: UTC, the shop's local time with its offset, or what the CLI itself printed.
            let forms = [instant.iso8601, calendar.localISO8601(instant), calendar.display(instant)]
            let text = forms[index % forms.count]
            #expect(try parseDate(text, calendar: calendar, field: "date") == instant, "\(text)")
            try await stockroom(["purchase", "add", "--data", data, "--date", text, "--line", "NUT:1@1.00"])
        }
        let stored = try await store.movements(productID: try #require(try await store.product(sku: "NUT")).id).map(\.position.effectiveAt)
        #expect(stored.sorted() == instants.map(\.milliseconds).sorted())
        // The ledger `product show` prints names every instant exactly; each printed time reads back as itself.
        let printed = try Self.run(["product", "show", "--data", data, "NUT"])
        let times = printed.split(whereSeparator: \.isWhitespace).map(String.init).filter { Instant.parse(iso8601: $0) != nil }
        #expect(times.sorted() == instants.map { calendar.display($0) }.sorted())
        for time in times {
            let instant = try calendar.parseDateTime(time, field: "date")
            #expect(calendar.display(instant) == time)
        }
    }

    @Test func theAverageCostIsPrintedRoundedOnce() async throws {
        let data = temporaryFolder()
        try await stockroom(["init", "--data", data, "--shop-name", "Screws", "--currency", "EUR", "--time-zone", "UTC"])
        try await stockroom(["product", "add", "--data", data, "--name", "Screw", "--sku", "SCREW", "--price", "1.00"])
        try await stockroom(["purchase", "add", "--data", data, "--date", "2026-01-20T09:00", "--line", "SCREW:20000@0.25"])
        let purchase = try Self.run(["purchase", "add", "--data", data, "--date", "2026-01-20T10:00", "--line", "SCREW:1@100.25"])
        #expect(purchase.contains("average cost 0.25 (exact 0.255000)"), "\(purchase)")
        let show = try Self.run(["product", "show", "--data", data, "SCREW"])
        #expect(show.contains("average cost 0.25 (exact 0.255000)"), "\(show)")
        #expect(!show.contains("0.26"), "\(show)")
        let list = try Self.run(["product", "list", "--data", data, "--format", "csv"])
        #expect(list.contains("avg cost") && list.contains(",0.25,"), "\(list)")
        let snapshot = try Self.run(["report", "snapshot", "--data", data, "--at", "2026-01-20", "--format", "csv"])
        #expect(snapshot.contains("Screw,20001,0.25,5100.25"), "\(snapshot)")
        try await stockroom(["sale", "add", "--data", data, "--date", "2026-01-20T11:00", "--line", "SCREW:1", "--payment", "cash"])
        let store = try InventorySQLiteRepository.open(dataFolder: data)
        #expect(try await store.daily(from: 20260120, to: 20260120).first?.costOfGoodsSold == Money(minorUnits: 25))
    }
}
