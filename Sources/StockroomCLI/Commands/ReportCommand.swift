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

        func run() async throws { try await self.run(on: try await self.common.database.open()) }


        func run(on store: some ShopStore) async throws {
            if self.common.format == .json { return printJSON(try await store.api.snapshot(at: self.at)) }
            print(Table.render(try await store.api.snapshotSheet(at: self.at), self.common.format), terminator: "")
        }
    }

    struct Daily: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Revenue, cost of goods and profit per day.")
        @OptionGroup var common: Common
        @Option(help: "One day (default today).") var date: String?
        @Option(help: "First day of a range.") var from: String?
        @Option(help: "Last day of a range.") var to: String?

        func run() async throws { try await self.run(on: try await self.common.database.open()) }


        func run(on store: some ShopStore) async throws {
            if self.common.format == .json { return printJSON(try await store.api.daily(date: self.date, from: self.from, to: self.to)) }
            print(Table.render(try await store.api.dailySheet(date: self.date, from: self.from, to: self.to), self.common.format), terminator: "")
        }
    }

    struct Top: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Best sellers over a date range (default: the last 30 days).")
        @OptionGroup var common: Common
        @Option(help: "First day.") var from: String?
        @Option(help: "Last day.") var to: String?
        @Option(help: "How many.") var limit: Int = 10
        @Option(help: "quantity or revenue.") var by: String = "quantity"

        func run() async throws { try await self.run(on: try await self.common.database.open()) }


        func run(on store: some ShopStore) async throws {
            if self.common.format == .json { return printJSON(try await store.api.top(from: self.from, to: self.to, limit: self.limit, by: self.by)) }
            print(Table.render(try await store.api.topSheet(from: self.from, to: self.to, limit: self.limit, by: self.by), self.common.format),
                  terminator: "")
        }
    }

    struct LowStock: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "low-stock", abstract: "Products at or below their low-stock threshold.")
        @OptionGroup var common: Common

        func run() async throws { try await self.run(on: try await self.common.database.open()) }


        func run(on store: some ShopStore) async throws {
            if self.common.format == .json { return printJSON(try await store.api.lowStock()) }
            print(Table.render(try await store.api.lowStockSheet(), self.common.format), terminator: "")
        }
    }

    struct Valuation: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Stock value by category.")
        @OptionGroup var common: Common

        func run() async throws { try await self.run(on: try await self.common.database.open()) }


        func run(on store: some ShopStore) async throws {
            if self.common.format == .json { return printJSON(try await store.api.valuation()) }
            print(Table.render(try await store.api.valuationSheet(), self.common.format), terminator: "")
        }
    }
}
