import Foundation
import InventoryDomain

/// What the API's routes answer, for a client in the same process: the command line's `--format json` prints these.
///
/// Each method answers with the JSON bytes of the route it names, built by the route's own code from the same response
/// types and written by the same encoder (``APIJSON``), so the command line's JSON is the API's JSON.
public struct APIResponses<Repository: InventoryRepository>: Sendable {
    let repository: Repository

    /// Answers from `repository`.
    public init(_ repository: Repository) { self.repository = repository }

    /// `value` as the route writes it for a caller who may see costs: the command line is run by whoever holds the
    /// database itself.
    static func encode(_ value: some Encodable) throws -> Data {
        try CostDisclosure.$visible.withValue(true) { try APIJSON.encode(value) }
    }

    var products: ProductController<Repository> { ProductController(repository: self.repository) }
    var reports: ReportController<Repository> { ReportController(store: self.repository) }

    // MARK: Catalogue

    /// `GET /api/v1/products/{id}` (also the answer of `POST /products`, `PUT /products/{id}` and archiving).
    public func product(_ product: Product) async throws -> Data {
        try Self.encode(try await self.products.respond(product).value)
    }

    /// `GET /api/v1/products?…`: one page of the list for `query`.
    public func products(_ query: ProductQuery) async throws -> Data {
        let result = try await self.repository.products(query)
        var items: [ProductResponse] = []
        for product in result.products { items.append(try await self.products.respond(product).value) }
        return try Self.encode(ProductPage(items: items, total: result.total, limit: query.limit, offset: query.offset))
    }

    /// `GET /api/v1/products/{id}/movements`: the product's ledger.
    public func movements(_ id: ProductID) async throws -> Data {
        try Self.encode(try await self.products.movements(id))
    }

    /// `GET /api/v1/reorder?window=&cover=&supplierId=`: what to buy per supplier.
    public func reorder(window: String?, cover: String?, supplier: SupplierID?) async throws -> Data {
        try Self.encode(try await ReorderController(store: self.repository).suggestions(window: window, cover: cover, supplier: supplier))
    }

    /// `GET /api/v1/suppliers?search=`.
    public func suppliers(_ list: [Contact<Supplier>]) throws -> Data {
        try Self.encode(list.map(ContactResponse.init))
    }

    /// One supplier as `POST /api/v1/suppliers` and `PUT /api/v1/suppliers/{id}` answer it (and as the list shows it).
    public func supplier(_ contact: Contact<Supplier>) throws -> Data {
        try Self.encode(ContactResponse(contact))
    }

    /// `GET /api/v1/customers?search=`.
    public func customers(_ list: [Contact<Customer>]) throws -> Data {
        try Self.encode(list.map(ContactResponse.init))
    }

    /// One customer as `POST /api/v1/customers` and `PUT /api/v1/customers/{id}` answer it (and as the list shows it).
    public func customer(_ contact: Contact<Customer>) throws -> Data {
        try Self.encode(ContactResponse(contact))
    }

    // MARK: Documents

    /// `GET /api/v1/purchases/{id}` (also the answer of `POST /purchases`).
    public func purchase(_ id: PurchaseID) async throws -> Data {
        let formats = try await self.repository.formats().0
        return try Self.encode(PurchaseResponse(try await self.repository.purchase(id), formats))
    }

    /// `GET /api/v1/sales/{id}` (also the answer of `POST /sales`).
    public func sale(_ id: SaleID) async throws -> Data {
        let formats = try await self.repository.formats().0
        return try Self.encode(SaleResponse(try await self.repository.sale(id), formats))
    }

    /// `GET /api/v1/sales?search=&customerId=&productId=&from=&to=`: the sales `query` finds, newest first.
    public func sales(_ query: SaleQuery) async throws -> Data {
        let formats = try await self.repository.formats().0
        return try Self.encode(try await self.repository.sales(query).map { SummaryResponse($0, formats: formats) })
    }

    /// The answer of `POST /api/v1/adjustments` (and of the returns): the new document's id.
    public func created(_ id: Int64) throws -> Data {
        try Self.encode(CreatedResponse(id: id))
    }

    /// The answer of `POST /api/v1/import/products` for a checked `plan`: `imported` is what the import wrote, nil for
    /// a dry run (`?dryRun=true`).
    public func importAnswer(_ plan: ProductImport, imported: (created: Int, updated: Int)?) throws -> Data {
        try Self.encode(ImportResponse(plan, imported: imported))
    }

    // MARK: Reports

    /// `GET /api/v1/reports/snapshot?at=`.
    public func snapshot(at: String?) async throws -> Data {
        try Self.encode(try await self.reports.snapshot(at: at))
    }

    /// `GET /api/v1/reports/daily?date=&from=&to=`.
    public func daily(date: String?, from: String?, to: String?) async throws -> Data {
        try Self.encode(try await self.reports.daily(date: date, from: from, to: to))
    }

    /// `GET /api/v1/reports/top?from=&to=&limit=&by=`.
    public func top(from: String?, to: String?, limit: Int, by: String?) async throws -> Data {
        try Self.encode(try await self.reports.top(from: from, to: to, limit: limit, by: by))
    }

    /// `GET /api/v1/reports/low-stock`.
    public func lowStock() async throws -> Data {
        try Self.encode(try await self.reports.lowStock())
    }

    /// `GET /api/v1/reports/valuation`.
    public func valuation() async throws -> Data {
        try Self.encode(try await self.reports.valuation())
    }

    // MARK: Report sheets (`GET /api/v1/reports/….csv`; the command line prints them as tables or CSV)

    /// `value` worked out as for a caller who may see costs.
    static func withCosts<Value>(_ body: () async throws -> Value) async rethrows -> Value {
        try await CostDisclosure.$visible.withValue(true) { try await body() }
    }

    /// `GET /api/v1/reports/snapshot.csv?at=`.
    public func snapshotSheet(at: String?) async throws -> ReportSheet {
        try await Self.withCosts { try await self.reports.snapshotSheet(at: at) }
    }

    /// `GET /api/v1/reports/daily.csv?date=&from=&to=`.
    public func dailySheet(date: String?, from: String?, to: String?) async throws -> ReportSheet {
        try await Self.withCosts { try await self.reports.dailySheet(date: date, from: from, to: to).sheet }
    }

    /// `GET /api/v1/reports/top.csv?from=&to=&limit=&by=`.
    public func topSheet(from: String?, to: String?, limit: Int, by: String?) async throws -> ReportSheet {
        try await self.reports.topSheet(from: from, to: to, limit: limit, by: by)
    }

    /// `GET /api/v1/reports/low-stock.csv`.
    public func lowStockSheet() async throws -> ReportSheet { try await self.reports.lowStockSheet() }

    /// `GET /api/v1/reports/valuation.csv`.
    public func valuationSheet() async throws -> ReportSheet {
        try await Self.withCosts { try await self.reports.valuationSheet() }
    }

    // MARK: Stocktakes

    /// `GET /api/v1/stocktakes?limit=&offset=`.
    public func stocktakes(limit: Int, offset: Int) async throws -> Data {
        let formats = try await self.repository.formats().0
        return try Self.encode(try await self.repository.stocktakes(limit: limit, offset: offset).map { StocktakeSummaryResponse($0, formats) })
    }

    /// `GET /api/v1/stocktakes/{id}`.
    public func stocktake(_ id: StocktakeID) async throws -> Data {
        let formats = try await self.repository.formats().0
        return try Self.encode(StocktakeResponse(try await self.repository.stocktake(id), formats))
    }
}
