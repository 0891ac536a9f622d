import Foundation

/// Shop-wide settings.
public struct ShopSettings: Sendable, Hashable {
    public var shopName: String
    public var currency: Currency
    /// IANA time-zone identifier; a report "day" is a calendar day there.
    public var timeZoneIdentifier: String
    public var defaultTaxRate: Percent
    /// Low-stock threshold for products and categories that set none.
    public var lowStockDefault: Quantity
    /// Minutes of inactivity before the till locks.
    public var lockMinutes: Int

    /// Creates settings.
    public init(shopName: String = "My shop", currency: Currency = .eur, timeZoneIdentifier: String = "UTC",
                defaultTaxRate: Percent = .zero, lowStockDefault: Quantity = Quantity(5), lockMinutes: Int = 5) {
        self.shopName = shopName
        self.currency = currency
        self.timeZoneIdentifier = timeZoneIdentifier
        self.defaultTaxRate = defaultTaxRate
        self.lowStockDefault = lowStockDefault
        self.lockMinutes = lockMinutes
    }

    /// The shop calendar for the time zone (UTC when the identifier is unknown).
    public var calendar: ShopCalendar {
        (try? ShopCalendar(identifier: self.timeZoneIdentifier)) ?? ShopCalendar(timeZone: TimeZone(identifier: "UTC") ?? .current)
    }

    /// Checks the fields.
    /// - Throws: ``InventoryError`` naming the field.
    public func validated() throws -> ShopSettings {
        var copy = self
        copy.shopName = self.shopName.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !copy.shopName.isEmpty else { throw InventoryError(.missingValue, field: "shopName", "is required") }
        _ = try ShopCalendar(identifier: self.timeZoneIdentifier)
        guard self.currency.code.count == 3, self.currency.code.allSatisfy({ $0.isASCII && $0.isLetter }) else {
            throw InventoryError(.invalidValue, field: "currency", "must be a three-letter ISO 4217 code such as EUR, USD or JPY")
        }
        guard (0...4).contains(self.currency.minorUnits) else {
            throw InventoryError(.invalidValue, field: "currencyMinorUnits", "must be between 0 and 4 decimals")
        }
        try TextLimit.shortName.check(copy.shopName, field: "shopName")
        guard self.defaultTaxRate.hundredths >= 0, self.defaultTaxRate.hundredths <= 100_00 else {
            throw InventoryError(.invalidValue, field: "defaultTaxRate", "must be between 0 and 100 %")
        }
        guard self.lowStockDefault >= .zero else {
            throw InventoryError(.invalidValue, field: "lowStockDefault", "must not be negative")
        }
        guard (1...1440).contains(self.lockMinutes) else {
            throw InventoryError(.invalidValue, field: "lockMinutes", "must be between 1 and 1440")
        }
        return copy
    }
}

/// What a CSV export contains.
public enum ExportKind: String, Sendable, CaseIterable {
    case products, suppliers, customers, purchases, sales, movements
}

/// The rule for every search box: at most ``maximumWords`` words and ``maximumCharacters`` characters, so no search
/// can make the database check an unbounded number of conditions.
public enum SearchText {
    /// The most words a search may have (each is one more condition for the database to check).
    public static let maximumWords = 8
    /// The longest search text, in Unicode scalars.
    public static let maximumCharacters = 200

    /// The search split into words (an empty list when there is no search).
    /// - Throws: ``InventoryError`` naming `search` when it has more than ``maximumWords`` words or
    ///   ``maximumCharacters`` characters.
    public static func words(_ text: String?) throws -> [String] {
        guard let search = text?.trimmingCharacters(in: .whitespacesAndNewlines), !search.isEmpty else { return [] }
        guard search.unicodeScalars.count <= self.maximumCharacters else {
            throw InventoryError(.invalidValue, field: "search", "must be at most \(self.maximumCharacters) characters")
        }
        let words = search.split(whereSeparator: \.isWhitespace).map(String.init)
        guard words.count <= self.maximumWords else {
            throw InventoryError(.invalidValue, field: "search", "may have at most \(self.maximumWords) words (it has \(words.count))")
        }
        return words
    }
}

/// How to list products.
public struct ProductQuery: Sendable, Hashable {
    /// Words matched against name, SKU and barcode (case- and accent-insensitive, substring).
    public var search: String?
    public var categoryID: CategoryID?
    public var status: StockStatus?
    public var includeArchived: Bool
    public var sort: Sort
    public var limit: Int
    public var offset: Int

    /// Sort orders.
    public enum Sort: String, Sendable, CaseIterable {
        case name, quantity, value, salePrice, updated
    }

    /// The search split into words (see ``SearchText/words(_:)``).
    public func searchWords() throws -> [String] { try SearchText.words(self.search) }

    /// Creates a query.
    public init(search: String? = nil, categoryID: CategoryID? = nil, status: StockStatus? = nil, includeArchived: Bool = false,
                sort: Sort = .name, limit: Int = 100, offset: Int = 0) {
        self.search = search
        self.categoryID = categoryID
        self.status = status
        self.includeArchived = includeArchived
        self.sort = sort
        self.limit = limit
        self.offset = offset
    }
}

/// The shop's books: every read and write the domain needs, each write one transaction.
///
/// Implementations: `InventorySQLiteRepository` (embedded default). Every implementation runs the same
/// conformance suite.
public protocol InventoryRepository: Sendable {
    // MARK: Settings

    /// The shop's settings.
    func settings() async throws -> ShopSettings
    /// Saves the settings; a new time zone re-buckets report days.
    func saveSettings(_ settings: ShopSettings) async throws

    // MARK: Catalogue

    /// Creates a category. - Throws: `duplicate` when the name is taken.
    func createCategory(_ category: Category) async throws -> Category
    /// Updates a category.
    func updateCategory(_ category: Category) async throws -> Category
    /// Deletes a category; its products keep existing without one.
    func deleteCategory(_ id: CategoryID) async throws
    /// All categories by name.
    func categories() async throws -> [Category]

    /// Creates a supplier.
    func createSupplier(_ supplier: Contact<Supplier>) async throws -> Contact<Supplier>
    /// Updates a supplier.
    func updateSupplier(_ supplier: Contact<Supplier>) async throws -> Contact<Supplier>
    /// Deletes a supplier not referenced by any purchase.
    func deleteSupplier(_ id: SupplierID) async throws
    /// Suppliers by name, optionally filtered by a search text.
    func suppliers(search: String?) async throws -> [Contact<Supplier>]

    /// Creates a customer.
    func createCustomer(_ customer: Contact<Customer>) async throws -> Contact<Customer>
    /// Updates a customer.
    func updateCustomer(_ customer: Contact<Customer>) async throws -> Contact<Customer>
    /// Deletes a customer not referenced by any sale.
    func deleteCustomer(_ id: CustomerID) async throws
    /// Customers by name, optionally filtered by a search text.
    func customers(search: String?) async throws -> [Contact<Customer>]

    /// Creates a product. - Throws: `duplicate` naming the product that owns the barcode or SKU.
    func createProduct(_ details: ProductDetails) async throws -> Product
    /// Updates a product's editable fields.
    func updateProduct(_ id: ProductID, _ details: ProductDetails) async throws -> Product
    /// Changes only the fields a patch names, reading and writing the product in one transaction; the result is
    /// validated as ``updateProduct(_:_:)`` validates a replacement, and a refused patch changes nothing.
    func updateProduct(_ id: ProductID, applying patch: ProductPatch) async throws -> Product
    /// Deletes a product that has no movements.
    func deleteProduct(_ id: ProductID) async throws
    /// One product. - Throws: `notFound`.
    func product(_ id: ProductID) async throws -> Product
    /// The product with this barcode (UPC-A, UPC-E and EAN-13 forms find the same product), if any.
    func product(barcode: String) async throws -> Product?
    /// The product with this SKU, if any.
    func product(sku: String) async throws -> Product?
    /// Products matching a query, with the total count before paging.
    func products(_ query: ProductQuery) async throws -> (products: [Product], total: Int)
    /// A product's ledger in ledger order.
    func movements(productID: ProductID) async throws -> [StockMovement]

    // MARK: Documents

    /// Records a purchase (creating inline products) and re-costs each product from the purchase's date. With a key
    /// already used for the same request, books nothing and answers the purchase booked then (``IdempotencyKey``).
    func postPurchase(_ draft: PurchaseDraft, idempotency: IdempotencyKey?) async throws -> Idempotent<PurchaseRecord>
    /// Replaces a purchase's date, supplier, note and lines, re-costing every affected product.
    func updatePurchase(_ id: PurchaseID, _ draft: PurchaseDraft) async throws -> PurchaseRecord
    /// What ``postPurchase(_:)`` (or, given `replacing`, ``updatePurchase(_:_:)``) would book now: the same posting
    /// code runs in a transaction of its own that is then rolled back, so nothing is stored and no other write is
    /// touched. The record's ids are the ones the purchase (and its new products) would get.
    func previewPurchase(_ draft: PurchaseDraft, replacing id: PurchaseID?) async throws -> PurchaseRecord
    /// Deletes a purchase, re-costing every affected product.
    func deletePurchase(_ id: PurchaseID) async throws
    /// One purchase with its lines.
    func purchase(_ id: PurchaseID) async throws -> PurchaseRecord
    /// Purchases, newest first.
    func purchases(limit: Int, offset: Int) async throws -> [DocumentSummary]

    /// Records a sale; with a key already used for the same request, books nothing and answers the sale booked then.
    func postSale(_ draft: SaleDraft, idempotency: IdempotencyKey?) async throws -> Idempotent<SaleRecord>
    /// Records many sales in one transaction (imports, benchmarks).
    func postSales(_ drafts: [SaleDraft]) async throws
    /// Records many purchases in one transaction (imports, benchmarks).
    func postPurchases(_ drafts: [PurchaseDraft]) async throws
    /// Replaces a sale, re-costing every affected product.
    func updateSale(_ id: SaleID, _ draft: SaleDraft) async throws -> SaleRecord
    /// What ``postSale(_:)`` (or, given `replacing`, ``updateSale(_:_:)``) would book now (prices, tax, cost of goods
    /// sold), computed like ``previewPurchase(_:replacing:)``: posted and rolled back, nothing stored.
    func previewSale(_ draft: SaleDraft, replacing id: SaleID?) async throws -> SaleRecord
    /// Deletes a sale without returns, re-costing every affected product.
    func deleteSale(_ id: SaleID) async throws
    /// One sale with its lines.
    func sale(_ id: SaleID) async throws -> SaleRecord
    /// Sales, newest first.
    func sales(limit: Int, offset: Int) async throws -> [DocumentSummary]

    /// Records a stock adjustment; returns its id (the earlier one for a key already used for the same request).
    func postAdjustment(_ draft: AdjustmentDraft, idempotency: IdempotencyKey?) async throws -> Idempotent<AdjustmentID>
    /// Deletes an adjustment, re-costing the product.
    func deleteAdjustment(_ id: AdjustmentID) async throws
    /// Records a customer return against a sale (the earlier one for a key already used for the same request).
    func postCustomerReturn(_ draft: CustomerReturnDraft, idempotency: IdempotencyKey?) async throws -> Idempotent<CustomerReturnID>
    /// Deletes a customer return.
    func deleteCustomerReturn(_ id: CustomerReturnID) async throws
    /// Records goods sent back to a supplier (the earlier return for a key already used for the same request).
    func postSupplierReturn(_ draft: SupplierReturnDraft, idempotency: IdempotencyKey?) async throws -> Idempotent<SupplierReturnID>
    /// Deletes a supplier return.
    func deleteSupplierReturn(_ id: SupplierReturnID) async throws

    // MARK: Import and export

    /// Applies a validated product import in one transaction; returns how many products were created and updated.
    func importProducts(_ plan: ProductImport) async throws -> (created: Int, updated: Int)
    /// A CSV export (RFC 4180, UTF-8, header row, formula cells neutralised).
    func exportCSV(_ kind: ExportKind) async throws -> String

    // MARK: Reports

    /// Stock of every product at a moment.
    func snapshot(at: Instant) async throws -> InventorySnapshot
    /// Sales figures per day from `from` through `to` (`yyyymmdd`, shop time zone).
    func daily(from: Int, to: Int) async throws -> [DailyPerformance]
    /// Best sellers between two moments.
    func topProducts(from: Instant, to: Instant, by metric: TopProductMetric, limit: Int) async throws -> [TopProduct]
    /// Products at or below their threshold (and out of stock).
    func lowStock() async throws -> [LowStockItem]
    /// Stock value by category.
    func valuation() async throws -> [CategoryValuation]
    /// Lots expiring on or before a day that, first in, first out, may still be in stock.
    func expiringLots(through day: String) async throws -> [ExpiringLot]
    /// Every movement in ledger order (exports, oracles).
    func allMovements() async throws -> [StockMovement]
    /// Every sale header's facts (oracles).
    func saleFacts() async throws -> [SaleFact]
}

extension InventoryRepository {
    /// Records a purchase (no idempotency key).
    public func postPurchase(_ draft: PurchaseDraft) async throws -> PurchaseRecord { try await self.postPurchase(draft, idempotency: nil).record }
    /// Records a sale (no idempotency key).
    public func postSale(_ draft: SaleDraft) async throws -> SaleRecord { try await self.postSale(draft, idempotency: nil).record }
    /// Records a stock adjustment (no idempotency key).
    public func postAdjustment(_ draft: AdjustmentDraft) async throws -> AdjustmentID { try await self.postAdjustment(draft, idempotency: nil).record }
    /// Records a customer return (no idempotency key).
    public func postCustomerReturn(_ draft: CustomerReturnDraft) async throws -> CustomerReturnID {
        try await self.postCustomerReturn(draft, idempotency: nil).record
    }
    /// Records a supplier return (no idempotency key).
    public func postSupplierReturn(_ draft: SupplierReturnDraft) async throws -> SupplierReturnID {
        try await self.postSupplierReturn(draft, idempotency: nil).record
    }
}
