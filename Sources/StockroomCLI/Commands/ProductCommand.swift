import ArgumentParser
import Foundation
import InventoryDomain
import InventoryStore

/// `stockroom product …`: the catalogue.
struct ProductCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "product", abstract: "Add, list, show, edit and archive products.",
        subcommands: [Add.self, List.self, Show.self, Movements.self, Edit.self, Archive.self])

    /// Product fields shared by `add` and `edit`; each is optional so `edit` changes only what is given.
    struct Fields: ParsableArguments {
        @Option(help: "Name.") var name: String?
        @Option(help: "Stock-keeping unit, unique.") var sku: String?
        @Option(help: "EAN/UPC (check digit verified) or any other code, unique.") var barcode: String?
        @Option(help: "Category name or id.") var category: String?
        @Option(help: "Unit of sale: pcs, kg, l, box …") var unit: String?
        @Option(help: "Sale price before tax, e.g. 4.50.") var price: String?
        @Option(help: "Minimum sale price without a manager.") var minPrice: String?
        @Option(help: "Tax rate in percent, e.g. 7 or 19.") var tax: String?
        @Option(help: "Low-stock threshold (default: the category's, else the shop's; 0: warn only when out).") var lowStock: String?
        @Option(help: "Emoji used when there is no picture.") var icon: String?
        @Option(help: "Where it sits in the shop: aisle, shelf or bin (A3); empty: none.") var shelf: String?
        @Flag(inversion: .prefixedNo, help: "Keep stock for this product.") var trackStock: Bool?
        @Flag(inversion: .prefixedEnableDisable, help: "Allow selling below zero stock.") var negativeStock: Bool?

        func apply(to details: inout ProductDetails, currency: Currency, lookup: Lookup<some InventoryRepository>) async throws {
            if let name { details.name = name }
            if let sku { details.sku = sku.isEmpty ? nil : sku }
            if let barcode { details.barcode = barcode.isEmpty ? nil : barcode }
            if let category { details.categoryID = category.isEmpty ? nil : try await lookup.category(category) }
            if let unit { details.unit = unit }
            if let price { details.salePrice = try Money.parse(price, currency: currency, field: "price") }
            if let minPrice { details.minimumSalePrice = minPrice.isEmpty ? nil : try Money.parse(minPrice, currency: currency, field: "min-price") }
            if let tax { details.taxRate = try Percent.parse(tax, field: "tax") }
            if let lowStock { details.lowStockThreshold = lowStock.isEmpty ? nil : try Quantity.parse(lowStock, field: "low-stock") }
            if let icon { details.iconEmoji = icon }
            if let shelf { details.shelf = shelf }
            if let trackStock { details.tracksStock = trackStock }
            if let negativeStock { details.allowsNegativeStock = negativeStock }
        }
    }

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Add a product.")
        @OptionGroup var database: DatabaseOptions
        @OptionGroup var fields: Fields
        @Option(help: "table, or json (what POST /api/v1/products answers).") var format: RecordFormat = .table

        func validate() throws {
            guard self.fields.name?.trimmingCharacters(in: .whitespaces).isEmpty == false else {
                throw ValidationError("--name is required")
            }
        }

        func run() async throws { try await self.run(on: try await self.database.open()) }


        func run(on store: some ShopStore) async throws {
            let settings = try await store.settings()
            var details = ProductDetails(name: "", taxRate: settings.defaultTaxRate)
            try await self.fields.apply(to: &details, currency: settings.currency, lookup: Lookup(store: store))
            let product = try await store.createProduct(details)
            if self.format == .json { return printJSON(try await store.api.product(product)) }
            print("Added product \(product.id): \(product.details.iconEmoji) \(product.name)")
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List products with cost, price and stock.")
        @OptionGroup var database: DatabaseOptions
        @Option(help: "Search name, SKU or barcode.") var search: String?
        @Option(help: "Category name or id.") var category: String?
        @Option(help: "in_stock, low, out or not_tracked.") var status: String?
        @Option(help: "name, quantity, value, salePrice or updated.") var sort: String = "name"
        @Option(help: "At most this many.") var limit: Int = 100
        @Flag(help: "Include archived products.") var archived = false
        @Option(help: "table, csv, or json (what GET /api/v1/products answers).") var format: OutputFormat = .table

        func run() async throws { try await self.run(on: try await self.database.open()) }


        func run(on store: some ShopStore) async throws {
            let currency = try await store.settings().currency
            guard let sort = ProductQuery.Sort(rawValue: self.sort) else {
                throw InventoryError(.invalidValue, field: "sort", "must be one of \(ProductQuery.Sort.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            let status = try self.status.map { text in
                guard let status = StockStatus(rawValue: text) else {
                    throw InventoryError(.invalidValue, field: "status", "must be one of \(StockStatus.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                return status
            }
            let categoryID = try await self.category.asyncMap { try await Lookup(store: store).category($0) }
            let query = ProductQuery(search: self.search, categoryID: categoryID, status: status, includeArchived: self.archived, sort: sort, limit: self.limit)
            if self.format == .json { return printJSON(try await store.api.products(query)) }
            let result = try await store.products(query)
            let thresholds = try await store.stockThresholds()
            let table = Table(
                columns: ["id", "icon", "name", "sku", "barcode", "unit", "avg cost", "price", "quantity", "value", "status"],
                rows: result.products.map { p in
                    [p.id.description, p.details.iconEmoji, p.name, p.details.sku ?? "", p.details.barcode ?? "", p.details.unit,
                     p.stock.roundedAverageCost.decimalString(currency), p.details.salePrice.decimalString(currency), p.stock.quantity.decimalString,
                     p.stock.value.decimalString(currency), thresholds.status(of: p).rawValue]
                },
                numeric: [0, 6, 7, 8, 9])
            print(table.render(self.format), terminator: "")
            if self.format == .table { print("\(result.products.count) of \(result.total) products") }
        }
    }

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Show a product and its stock history.")
        @OptionGroup var database: DatabaseOptions
        @Argument(help: "Product id, SKU, barcode or name.") var product: String
        @Option(help: "table (with the ledger), or json (what GET /api/v1/products/{id} answers).") var format: RecordFormat = .table

        func run() async throws { try await self.run(on: try await self.database.open()) }


        func run(on store: some ShopStore) async throws {
            let settings = try await store.settings()
            let currency = settings.currency
            let product = try await Lookup(store: store).product(self.product, field: "product")
            if self.format == .json { return printJSON(try await store.api.product(product)) }
            let d = product.details
            print("\(d.iconEmoji) \(product.name)  (id \(product.id)\(d.isArchived ? ", archived" : ""))")
            print("SKU \(d.sku ?? "-")  barcode \(d.barcode ?? "-")  unit \(d.unit)")
            print("price \(d.salePrice.decimalString(currency))  min \(d.minimumSalePrice?.decimalString(currency) ?? "-")  tax \(d.taxRate.decimalString) %")
            print("average cost \(product.stock.roundedAverageCost.decimalString(currency)) (exact \(product.stock.averageCost.exactDecimalString(currency)))  stock \(product.stock.quantity.decimalString)  value \(product.stock.value.decimalString(currency))")
            print("")
            print(try await Movements.ledger(product.id, store: store, settings: settings).render(.table), terminator: "")
        }
    }

    struct Movements: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "A product's ledger: every movement with its balances.")
        @OptionGroup var database: DatabaseOptions
        @Argument(help: "Product id, SKU, barcode or name.") var product: String
        @Option(help: "table, csv, or json (what GET /api/v1/products/{id}/movements answers).") var format: OutputFormat = .table

        func run() async throws { try await self.run(on: try await self.database.open()) }


        func run(on store: some ShopStore) async throws {
            let product = try await Lookup(store: store).product(self.product, field: "product")
            if self.format == .json { return printJSON(try await store.api.movements(product.id)) }
            print(try await Self.ledger(product.id, store: store, settings: try await store.settings()).render(self.format), terminator: "")
        }

        static func ledger(_ id: ProductID, store: some InventoryRepository, settings: ShopSettings) async throws -> Table {
            let movements = try await store.movements(productID: id)
            let calendar = settings.calendar, currency = settings.currency
            return Table(
                columns: ["date", "kind", "reason", "doc", "quantity", "value", "cost adj.", "balance", "stock value", "avg cost"],
                rows: movements.map { m in
                    [calendar.display(Instant(milliseconds: m.position.effectiveAt)), m.kind.rawValue, m.reason?.rawValue ?? "", String(m.documentID),
                     m.quantity.decimalString, m.valueChange.decimalString(currency), m.costAdjustment == .zero ? "" : m.costAdjustment.decimalString(currency),
                     m.balance.quantity.decimalString, m.balance.value.decimalString(currency), m.balance.roundedAverageCost.decimalString(currency)]
                },
                numeric: [3, 4, 5, 6, 7, 8, 9])
        }
    }

    struct Edit: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Change a product's fields (only those given).")
        @OptionGroup var database: DatabaseOptions
        @Argument(help: "Product id, SKU, barcode or name.") var product: String
        @OptionGroup var fields: Fields
        @Option(help: "table, or json (what PUT /api/v1/products/{id} answers).") var format: RecordFormat = .table

        func run() async throws { try await self.run(on: try await self.database.open()) }


        func run(on store: some ShopStore) async throws {
            let currency = try await store.settings().currency
            let product = try await Lookup(store: store).product(self.product, field: "product")
            var details = product.details
            try await self.fields.apply(to: &details, currency: currency, lookup: Lookup(store: store))
            let saved = try await store.updateProduct(product.id, details)
            if self.format == .json { return printJSON(try await store.api.product(saved)) }
            print("Saved product \(saved.id): \(saved.name)")
        }
    }

    struct Archive: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Archive a product (hide it from lists and new documents).")
        @OptionGroup var database: DatabaseOptions
        @Argument(help: "Product id, SKU, barcode or name.") var product: String
        @Flag(help: "Restore an archived product instead.") var restore = false
        @Option(help: "table, or json (what POST /api/v1/products/{id}/archive answers).") var format: RecordFormat = .table

        func run() async throws { try await self.run(on: try await self.database.open()) }


        func run(on store: some ShopStore) async throws {
            let product = try await Lookup(store: store).product(self.product, field: "product")
            var details = product.details
            details.isArchived = !self.restore
            let saved = try await store.updateProduct(product.id, details)
            if self.format == .json { return printJSON(try await store.api.product(saved)) }
            print("\(self.restore ? "Restored" : "Archived") product \(product.id): \(product.name)")
        }
    }
}

extension Optional {
    func asyncMap<T>(_ transform: (Wrapped) async throws -> T) async rethrows -> T? {
        guard let value = self else { return nil }
        return try await transform(value)
    }
}
