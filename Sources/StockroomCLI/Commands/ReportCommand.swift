import ArgumentParser
import Foundation
import InventoryDomain
import InventoryStore

/// `stockroom report …`: the dashboard's figures.
struct ReportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report", abstract: "Stock, sales and profit reports.",
        subcommands: [Snapshot.self, Daily.self, Top.self, LowStock.self, Valuation.self])

    struct Common: ParsableArguments {
        @OptionGroup var database: DatabaseOptions
        @Option(help: "table, csv, or json (exactly what the matching /api/v1/reports route answers).") var format: OutputFormat = .table
    }

    struct Snapshot: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Stock quantity and value at a moment (default now).")
        @OptionGroup var common: Common
        @Option(help: "A day (its end) or a date-time.") var at: String?

        func run() async throws {
            let store = try self.common.database.open()
            if self.common.format == .json { return printJSON(try await store.api.snapshot(at: self.at)) }
            let settings = try await store.settings()
            let moment = try self.at.map { try settings.calendar.parseDateTime($0, field: "at", endOfDay: true) } ?? Instant.now
            let snapshot = try await store.snapshot(at: moment)
            let currency = settings.currency
            var rows = snapshot.lines.filter { $0.quantity != .zero || $0.value != .zero }.map {
                [$0.productID.description, $0.name, $0.quantity.decimalString, $0.balance.roundedAverageCost.decimalString(currency), $0.value.decimalString(currency)]
            }
            if self.common.format == .table {
                rows.append(["", "TOTAL", snapshot.totalQuantity.decimalString, "", snapshot.totalValue.decimalString(currency)])
                print("Stock at \(settings.calendar.display(moment)) (\(settings.timeZoneIdentifier))")
            }
            print(Table(columns: ["id", "product", "quantity", "avg cost", "value"], rows: rows, numeric: [0, 2, 3, 4]).render(self.common.format), terminator: "")
        }
    }

    struct Daily: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Revenue, cost of goods and profit per day.")
        @OptionGroup var common: Common
        @Option(help: "One day (default today).") var date: String?
        @Option(help: "First day of a range.") var from: String?
        @Option(help: "Last day of a range.") var to: String?

        func run() async throws {
            let store = try self.common.database.open()
            if self.common.format == .json { return printJSON(try await store.api.daily(date: self.date, from: self.from, to: self.to)) }
            let settings = try await store.settings()
            let today = settings.calendar.dayNumber(.now)
            func day(_ text: String?, _ field: String) throws -> Int? {
                try text.map {
                    guard let day = ShopCalendar.dayNumber(isoDate: $0) else {
                        throw InventoryError(.invalidValue, field: field, "'\($0)' is not a date (write YYYY-MM-DD)")
                    }
                    return day
                }
            }
            let single = try day(self.date, "date")
            let first = try single ?? day(self.from, "from") ?? today
            let last = try single ?? day(self.to, "to") ?? (self.from == nil ? today : today)
            let figures = try await store.daily(from: first, to: last)
            let c = settings.currency
            let table = Table(
                columns: ["day", "sales", "revenue", "discounts", "returns", "tax", "tips", "cogs", "profit", "avg basket"],
                rows: figures.map {
                    [ShopCalendar.isoDate($0.day), String($0.salesCount), $0.revenue.decimalString(c), $0.discounts.decimalString(c),
                     $0.returns.decimalString(c), $0.tax.decimalString(c), $0.tips.decimalString(c), $0.costOfGoodsSold.decimalString(c),
                     $0.profit.decimalString(c), $0.averageBasket.decimalString(c)]
                },
                numeric: Set(1...9))
            print(table.render(self.common.format), terminator: "")
        }
    }

    struct Top: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Best sellers over a date range (default: the last 30 days).")
        @OptionGroup var common: Common
        @Option(help: "First day.") var from: String?
        @Option(help: "Last day.") var to: String?
        @Option(help: "How many.") var limit: Int = 10
        @Option(help: "quantity or revenue.") var by: String = "quantity"

        func run() async throws {
            let store = try self.common.database.open()
            if self.common.format == .json { return printJSON(try await store.api.top(from: self.from, to: self.to, limit: self.limit, by: self.by)) }
            let settings = try await store.settings()
            let calendar = settings.calendar
            guard let metric = TopProductMetric(rawValue: self.by) else {
                throw InventoryError(.invalidValue, field: "by", "must be quantity or revenue")
            }
            let to = try self.to.map { try calendar.parseDateTime($0, field: "to", endOfDay: true) } ?? Instant.now
            let from = try self.from.map { try calendar.parseDateTime($0, field: "from") }
                ?? calendar.startOfDay(calendar.addingDays(-29, to: calendar.dayNumber(to)))
            let rows = try await store.topProducts(from: from, to: to, by: metric, limit: self.limit)
            let table = Table(
                columns: ["rank", "id", "product", "quantity", "revenue"],
                rows: rows.enumerated().map { [String($0 + 1), $1.productID.description, $1.name, $1.quantity.decimalString, $1.revenue.decimalString(settings.currency)] },
                numeric: [0, 1, 3, 4])
            print(table.render(self.common.format), terminator: "")
        }
    }

    struct LowStock: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "low-stock", abstract: "Products at or below their low-stock threshold.")
        @OptionGroup var common: Common

        func run() async throws {
            let store = try self.common.database.open()
            if self.common.format == .json { return printJSON(try await store.api.lowStock()) }
            let rows = try await store.lowStock()
            let table = Table(
                columns: ["id", "product", "quantity", "threshold", "unit", "status"],
                rows: rows.map { [$0.productID.description, $0.name, $0.quantity.decimalString, $0.threshold.decimalString, $0.unit, $0.status.rawValue] },
                numeric: [0, 2, 3])
            print(table.render(self.common.format), terminator: "")
        }
    }

    struct Valuation: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Stock value by category.")
        @OptionGroup var common: Common

        func run() async throws {
            let store = try self.common.database.open()
            if self.common.format == .json { return printJSON(try await store.api.valuation()) }
            let currency = try await store.settings().currency
            let rows = try await store.valuation()
            var cells = rows.map { [$0.name, String($0.productCount), $0.quantity.decimalString, $0.value.decimalString(currency)] }
            if self.common.format == .table {
                cells.append(["TOTAL", String(rows.reduce(0) { $0 + $1.productCount }), rows.reduce(Quantity.zero) { $0 + $1.quantity }.decimalString,
                              rows.reduce(Money.zero) { $0 + $1.value }.decimalString(currency)])
            }
            print(Table(columns: ["category", "products", "quantity", "value"], rows: cells, numeric: [1, 2, 3]).render(self.common.format), terminator: "")
        }
    }
}
