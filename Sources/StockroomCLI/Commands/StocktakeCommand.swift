import ArgumentParser
import Foundation
import InventoryDomain
import InventoryServer
import InventoryStore

/// `stockroom stocktake`: count sheets for a script — open one, enter counts (from a handheld's export, say), read or
/// export the sheet with its variances, post it as one count adjustment.
struct StocktakeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stocktake", abstract: "Count sheets: open, count, show, post.",
        subcommands: [Open.self, List.self, Show.self, Count.self, Post.self])

    struct Open: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Open a count sheet for all products, one category or one shelf.")
        @OptionGroup var database: DatabaseOptions
        @Option(help: "Count only this category (its name); default every product.") var category: String?
        @Option(help: "Count only the products on this shelf (as on the products; letter case ignored).") var shelf: String?
        @Option(help: "A note.") var note: String = ""
        @Option(help: "table, or json (what POST /api/v1/stocktakes answers).") var format: RecordFormat = .table

        func run() async throws { try await self.run(on: try await self.database.open()) }


        func run(on store: some ShopStore) async throws {
            var scope = try StocktakeScope.parse(self.shelf == nil ? "all" : "shelf", categoryID: nil, shelf: self.shelf)
            if let name = self.category {
                guard self.shelf == nil else { throw InventoryError(.invalidValue, field: "shelf", "count a category or a shelf, not both") }
                guard let category = try await store.categories().first(where: { $0.name.caseInsensitiveCompare(name) == .orderedSame }) else {
                    throw InventoryError(.notFound, field: "category", "no category is named \(name)")
                }
                scope = .category(category.id)
            }
            let sheet = try await store.openStocktake(scope: scope, note: self.note)
            if self.format == .json { return printJSON(try await store.api.stocktake(sheet.id)) }
            print("Opened stocktake \(sheet.id): \(sheet.scopeName), products to count: \(sheet.lines.count)")
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Count sheets, newest first.")
        @OptionGroup var database: DatabaseOptions
        @Option(help: "table, csv, or json (what GET /api/v1/stocktakes answers).") var format: OutputFormat = .table

        func run() async throws { try await self.run(on: try await self.database.open()) }


        func run(on store: some ShopStore) async throws {
            if self.format == .json { return printJSON(try await store.api.stocktakes(limit: 500, offset: 0)) }
            let currency = try await store.settings().currency
            let rows = try await store.stocktakes(limit: 500, offset: 0).map {
                [$0.id.description, $0.scopeName, $0.status.rawValue, String($0.totals.counted), String($0.totals.uncounted),
                 $0.totals.varianceValue.decimalString(currency)]
            }
            print(Table(columns: ["id", "scope", "status", "counted", "uncounted", "variance value"], rows: rows, numeric: [0, 3, 4, 5])
                .render(self.format), terminator: "")
        }
    }

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "A count sheet: every product in scope, its count and variance.")
        @OptionGroup var database: DatabaseOptions
        @Argument(help: "The stocktake's id.") var id: Int64
        @Option(help: "table, csv, or json (what GET /api/v1/stocktakes/{id} answers).") var format: OutputFormat = .table

        func run() async throws { try await self.run(on: try await self.database.open()) }


        func run(on store: some ShopStore) async throws {
            let id = StocktakeID(self.id)
            if self.format == .json { return printJSON(try await store.api.stocktake(id)) }
            let settings = try await store.settings()
            let sheet = try await store.stocktake(id)
            var rows = sheet.lines.map { line in
                [line.productID.description, line.productName, line.counted?.decimalString ?? "", line.countedAt.map(settings.calendar.display) ?? "",
                 line.stockAtCount?.decimalString ?? "", line.variance?.decimalString ?? "", line.varianceValue?.decimalString(settings.currency) ?? ""]
            }
            if self.format == .table {
                print("Stocktake \(sheet.id): \(sheet.scopeName), \(sheet.status.rawValue)")
                rows.append(["", "TOTAL", String(sheet.totals.counted), "", "", "", sheet.totals.varianceValue.decimalString(settings.currency)])
            }
            print(Table(columns: ["id", "product", "counted", "counted at", "on record", "variance", "value"], rows: rows, numeric: [0, 2, 4, 5, 6])
                .render(self.format), terminator: "")
        }
    }

    struct Count: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Count a product: the quantity found, or one more (a scan) without --quantity.")
        @OptionGroup var database: DatabaseOptions
        @Argument(help: "The stocktake's id.") var id: Int64
        @Argument(help: "Product id, SKU, barcode or name.") var product: String
        @Option(parsing: .unconditional, help: "The quantity found (replaces the count).") var quantity: String?

        func run() async throws { try await self.run(on: try await self.database.open()) }


        func run(on store: some ShopStore) async throws {
            let product = try await Lookup(store: store).product(self.product, field: "product")
            let entry: StocktakeEntry = try self.quantity.map { .typed(try Quantity.parse($0, field: "quantity")) } ?? .scanned
            let sheet = try await store.countStocktake(StocktakeID(self.id), productID: product.id, entry: entry)
            guard let line = sheet.lines.first(where: { $0.productID == product.id }) else { return }
            print("\(line.productName): counted \(line.counted?.decimalString ?? "0"), on record \(line.stockAtCount?.decimalString ?? "0"), "
                  + "variance \(line.variance?.decimalString ?? "0")")
        }
    }

    struct Post: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Post the count as one adjustment (reason count), each line at its counted instant.")
        @OptionGroup var database: DatabaseOptions
        @Argument(help: "The stocktake's id.") var id: Int64
        @Option(help: "table, or json (what POST /api/v1/stocktakes/{id}/post answers).") var format: RecordFormat = .table

        func run() async throws { try await self.run(on: try await self.database.open()) }


        func run(on store: some ShopStore) async throws {
            let sheet = try await store.postStocktake(StocktakeID(self.id), by: Agent.current.username)
            if self.format == .json { return printJSON(try await store.api.stocktake(sheet.id)) }
            let currency = try await store.settings().currency
            print("Posted stocktake \(sheet.id): \(sheet.totals.differing) of \(sheet.totals.counted) counted products adjusted, "
                  + "variance \(sheet.totals.varianceValue.decimalString(currency))"
                  + (sheet.adjustmentID.map { " (adjustment \($0))" } ?? ""))
        }
    }
}
