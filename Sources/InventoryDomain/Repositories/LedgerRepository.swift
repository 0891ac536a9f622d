import Foundation

/// The books: purchases, sales, returns and adjustments, each write one transaction that re-costs every product it
/// touches from the document's date (weighted-average cost, ``StockLedger``).
public protocol LedgerRepository: Sendable {
    /// Records a purchase (creating inline products) and re-costs each product from the purchase's date. With a key
    /// already used for the same request, books nothing and answers the purchase booked then (``IdempotencyKey``).
    func postPurchase(_ draft: PurchaseDraft, idempotency: IdempotencyKey?) async throws -> Idempotent<PurchaseRecord>
    /// Replaces a purchase's date, supplier, note and lines, re-costing every affected product.
    func updatePurchase(_ id: PurchaseID, _ draft: PurchaseDraft) async throws -> PurchaseRecord
    /// What ``postPurchase(_:)`` (or, given `replacing`, ``updatePurchase(_:_:)``) would book now: the same posting
    /// code runs in a transaction of its own that is then rolled back, so nothing is stored and no other write is
    /// touched. Its ids are provisional: the ones the purchase (and its new products) would get on SQLite were nothing
    /// else booked first; PostgreSQL draws ids from sequences a rollback does not give back, so there a posting gets
    /// later ones. Everything else in the record is what posting books.
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
    /// The sales a query finds (``SaleQuery``), newest first.
    /// - Throws: ``InventoryError`` naming the query's field at fault (``SaleQuery/check()``).
    func sales(_ query: SaleQuery) async throws -> [DocumentSummary]

    /// Records a stock adjustment; returns its id (the earlier one for a key already used for the same request).
    func postAdjustment(_ draft: AdjustmentDraft, idempotency: IdempotencyKey?) async throws -> Idempotent<AdjustmentID>
    /// Creates a product and books its opening stock (``OpeningStock``: an adjustment with the reason `initial` at its
    /// unit cost) in one transaction; a refusal of either leaves neither.
    /// - Throws: as ``CatalogueRepository/createProduct(_:)``, and as ``OpeningStock/validated(for:)``.
    func createProduct(_ details: ProductDetails, openingStock: OpeningStock) async throws -> Product
    /// Deletes an adjustment, re-costing the product.
    func deleteAdjustment(_ id: AdjustmentID) async throws
    /// Records a customer return against a sale (the earlier one for a key already used for the same request).
    func postCustomerReturn(_ draft: CustomerReturnDraft, idempotency: IdempotencyKey?) async throws -> Idempotent<CustomerReturnID>
    /// What ``postCustomerReturn(_:idempotency:)`` would book now: each line's refund and the money back to each payment.
    func previewCustomerReturn(_ draft: CustomerReturnDraft) async throws -> PricedCustomerReturn
    /// Deletes a customer return.
    func deleteCustomerReturn(_ id: CustomerReturnID) async throws
    /// Settles a sale's pending payment to completed or failed (``PaymentRecord/settled(to:)``); returns the sale.
    func settlePayment(_ id: PaymentID, of saleID: SaleID, to status: PaymentStatus) async throws -> SaleRecord
    /// Sale lines sold beyond the stock on record with a manager's approval (``SoldBeyondStock``), newest first: those
    /// waiting for review, or with `includeReviewed` also the reviewed ones.
    func soldBeyondStock(includeReviewed: Bool) async throws -> [SoldBeyondStock]
    /// Marks a sale's lines sold beyond stock reviewed by `manager`; returns the sale's lines on the review list as
    /// they stand now.
    /// - Throws: ``InventoryError/Code/notFound`` for an unknown sale; ``InventoryError/Code/invalidValue`` on `id` for
    ///   a sale with no line sold beyond stock.
    func markBeyondStockReviewed(_ saleID: SaleID, by manager: String) async throws -> [SoldBeyondStock]
    /// Records goods sent back to a supplier (the earlier return for a key already used for the same request).
    func postSupplierReturn(_ draft: SupplierReturnDraft, idempotency: IdempotencyKey?) async throws -> Idempotent<SupplierReturnID>
    /// Deletes a supplier return.
    func deleteSupplierReturn(_ id: SupplierReturnID) async throws
}

extension LedgerRepository {
    /// Sales, newest first.
    public func sales(limit: Int, offset: Int) async throws -> [DocumentSummary] {
        try await self.sales(SaleQuery(limit: limit, offset: offset))
    }

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
