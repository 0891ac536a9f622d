import ArgumentParser
import Foundation
import InventoryDomain
import InventoryStore

/// `stockroom demo`: a demo café, then its dashboard.
struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo", abstract: "Create a demo café (60 products, 90 days of trade) and print its dashboard.",
        discussion: "The same --seed and --today give the same shop. The data folder must not hold products yet.")
    @OptionGroup var database: DatabaseOptions
    @Option(help: "Seed of every random choice.") var seed: UInt64 = 42
    @Option(help: "Last day of the history, YYYY-MM-DD (default: today, UTC).") var today: String?
    @Option(help: "Days of history.") var days: Int = 90

    func validate() throws {
        guard (1...3650).contains(self.days) else { throw ValidationError("--days must be between 1 and 3650") }
    }

    func run() async throws {
        let utc = ShopCalendar(timeZone: TimeZone(identifier: "UTC") ?? .current)
        let endDay = try self.today.map {
            guard let day = ShopCalendar.dayNumber(isoDate: $0) else {
                throw InventoryError(.invalidValue, field: "today", "'\($0)' is not a date (write YYYY-MM-DD)")
            }
            return day
        } ?? utc.dayNumber(.now)
        try await self.run(on: try await self.database.open(), endDay: endDay)
    }

    func run(on store: some ShopStore, endDay: Int) async throws {
        let started = Date()
        let summary = try await DemoShop(seed: self.seed, endDay: endDay, days: self.days).fill(store)
        print("Demo café created in \(try self.database.describe()): \(summary.products) products, \(summary.purchases) purchases (\(summary.backDated) entered late, back-dated), \(summary.sales) sales in \(String(format: "%.1f", Date().timeIntervalSince(started))) s.")
        print("")
        print(try await Dashboard.render(store, day: endDay))
    }
}

/// The home dashboard as text: stock today, the day's figures, top 10, alerts.
enum Dashboard {
    static func render(_ store: some InventoryRepository, day: Int) async throws -> String {
        let settings = try await store.settings()
        let calendar = settings.calendar
        let c = settings.currency
        let end = calendar.endOfDay(day)
        let snapshot = try await store.snapshot(at: end)
        let figures = try await store.daily(from: day, to: day).first ?? DailyPerformance(day: day)
        let from = calendar.startOfDay(calendar.addingDays(-29, to: day))
        let top = try await store.topProducts(from: from, to: end, by: .quantity, limit: 10)
        let low = try await store.lowStock()
        let expiring = try await store.expiringLots(through: ShopCalendar.isoDate(calendar.addingDays(2, to: day)))
        var text = "\(settings.shopName) — \(ShopCalendar.isoDate(day))\n"
        text += "Stock: \(snapshot.totalQuantity.decimalString) items worth \(snapshot.totalValue.decimalString(c)) \(c.code)\n"
        text += "Today: revenue \(figures.revenue.decimalString(c)), cost of goods \(figures.costOfGoodsSold.decimalString(c)), profit \(figures.profit.decimalString(c)), \(figures.salesCount) sales, average basket \(figures.averageBasket.decimalString(c))\n\n"
        text += "Top 10, last 30 days (by quantity):\n"
        text += Table(columns: ["#", "product", "quantity", "revenue"],
                      rows: top.enumerated().map { [String($0 + 1), $1.name, $1.quantity.decimalString, $1.revenue.decimalString(c)] },
                      numeric: [0, 2, 3]).render(.table)
        text += "\nLow stock: \(low.count) product(s)" + (low.isEmpty ? "" : " — " + low.prefix(5).map { "\($0.name) (\($0.quantity.decimalString))" }.joined(separator: ", "))
        text += "\nExpiring within 2 days: \(expiring.count) lot(s)\n"
        return text
    }
}
