import Foundation
import InventoryDomain

// What is not ported to PostgreSQL yet (issue 13): every requirement below answers `notYetPorted`, naming itself. This
// file shrinks as aggregates are ported, and the command line offers no PostgreSQL database while it exists. Nothing
// here is reachable from `stockroom serve`.

extension InventoryPostgresRepository {
    /// The refusal of a requirement not yet ported: `storage`, naming the function.
    static func notYetPorted(_ function: String) -> InventoryError {
        InventoryError(.storage, field: "database", "\(function) is not available on PostgreSQL yet (issue 13)")
    }
}

extension InventoryPostgresRepository: CatalogueRepository {
    public func createProduct(_ details: ProductDetails) async throws -> Product { throw Self.notYetPorted(#function) }
    public func updateProduct(_ id: ProductID, _ details: ProductDetails) async throws -> Product { throw Self.notYetPorted(#function) }
    public func updateProduct(_ id: ProductID, applying patch: ProductPatch) async throws -> Product { throw Self.notYetPorted(#function) }
    public func deleteProduct(_ id: ProductID) async throws { throw Self.notYetPorted(#function) }
    public func product(_ id: ProductID) async throws -> Product { throw Self.notYetPorted(#function) }
    public func product(barcode: String) async throws -> Product? { throw Self.notYetPorted(#function) }
    public func product(sku: String) async throws -> Product? { throw Self.notYetPorted(#function) }
    public func products(_ query: ProductQuery) async throws -> (products: [Product], total: Int) { throw Self.notYetPorted(#function) }
    public func shelves() async throws -> [Shelf] { throw Self.notYetPorted(#function) }
    public func movements(productID: ProductID) async throws -> [StockMovement] { throw Self.notYetPorted(#function) }
    public func optionGroups(of productID: ProductID) async throws -> [ModifierGroup] { throw Self.notYetPorted(#function) }
    public func allOptionGroups() async throws -> [ProductID: [ModifierGroup]] { throw Self.notYetPorted(#function) }
    public func setOptionGroups(_ groups: [ModifierGroup], of productID: ProductID) async throws -> [ModifierGroup] { throw Self.notYetPorted(#function) }
    public func recipe(of productID: ProductID) async throws -> [RecipeComponent] { throw Self.notYetPorted(#function) }
    public func setRecipe(_ components: [RecipeComponent], of productID: ProductID) async throws -> [RecipeComponent] { throw Self.notYetPorted(#function) }
    public func createProduct(_ details: ProductDetails, pictures: [String]) async throws -> Product { throw Self.notYetPorted(#function) }
    public func changePictures(of id: ProductID, _ command: PictureCommand) async throws -> PictureOutcome { throw Self.notYetPorted(#function) }
    public func unusedPictures(among names: [String]) async throws -> [String] { throw Self.notYetPorted(#function) }
}

extension InventoryPostgresRepository: CustomerCardRepository {
    public func setCustomerCard(_ id: CustomerID, number: String) async throws -> CustomerStanding { throw Self.notYetPorted(#function) }
    public func removeCustomerCard(_ id: CustomerID) async throws { throw Self.notYetPorted(#function) }
    public func customer(cardNumber: String) async throws -> CustomerStanding { throw Self.notYetPorted(#function) }
    public func customerStanding(_ id: CustomerID) async throws -> CustomerStanding { throw Self.notYetPorted(#function) }
}

extension InventoryPostgresRepository: DataTransferRepository {
    public func importProducts(_ plan: ProductImport) async throws -> (created: Int, updated: Int) { throw Self.notYetPorted(#function) }
    public func exportCSV(_ kind: ExportKind, range: DateRange) async throws -> String { throw Self.notYetPorted(#function) }
}

extension InventoryPostgresRepository: DrawerRepository {
    public func openDrawer(float: Money, note: String, by: String, at: Int64) async throws -> DrawerSession { throw Self.notYetPorted(#function) }
    public func currentDrawer() async throws -> DrawerSession? { throw Self.notYetPorted(#function) }
    public func moveCash(amount: Money, reason: String, by: String, at: Int64) async throws -> DrawerSession { throw Self.notYetPorted(#function) }
    public func closeDrawer(counted: Money, by: String, at: Int64) async throws -> DrawerSession { throw Self.notYetPorted(#function) }
    public func drawerSessions(limit: Int, offset: Int) async throws -> [DrawerSession] { throw Self.notYetPorted(#function) }
    public func drawerSession(_ id: DrawerSessionID) async throws -> DrawerSession { throw Self.notYetPorted(#function) }
    public func drawerReport(_ id: DrawerSessionID, now: Int64) async throws -> DrawerReport { throw Self.notYetPorted(#function) }
    public func shiftSummaries(_ shifts: [Shift], now: Int64) async throws -> [DrawerReport.StaffLine] { throw Self.notYetPorted(#function) }
}

extension InventoryPostgresRepository: LedgerRepository {
    public func postPurchase(_ draft: PurchaseDraft, idempotency: IdempotencyKey?) async throws -> Idempotent<PurchaseRecord> { throw Self.notYetPorted(#function) }
    public func updatePurchase(_ id: PurchaseID, _ draft: PurchaseDraft) async throws -> PurchaseRecord { throw Self.notYetPorted(#function) }
    public func previewPurchase(_ draft: PurchaseDraft, replacing id: PurchaseID?) async throws -> PurchaseRecord { throw Self.notYetPorted(#function) }
    public func deletePurchase(_ id: PurchaseID) async throws { throw Self.notYetPorted(#function) }
    public func purchase(_ id: PurchaseID) async throws -> PurchaseRecord { throw Self.notYetPorted(#function) }
    public func purchases(limit: Int, offset: Int) async throws -> [DocumentSummary] { throw Self.notYetPorted(#function) }
    public func postSale(_ draft: SaleDraft, idempotency: IdempotencyKey?) async throws -> Idempotent<SaleRecord> { throw Self.notYetPorted(#function) }
    public func postSales(_ drafts: [SaleDraft]) async throws { throw Self.notYetPorted(#function) }
    public func postPurchases(_ drafts: [PurchaseDraft]) async throws { throw Self.notYetPorted(#function) }
    public func updateSale(_ id: SaleID, _ draft: SaleDraft) async throws -> SaleRecord { throw Self.notYetPorted(#function) }
    public func previewSale(_ draft: SaleDraft, replacing id: SaleID?) async throws -> SaleRecord { throw Self.notYetPorted(#function) }
    public func deleteSale(_ id: SaleID) async throws { throw Self.notYetPorted(#function) }
    public func sale(_ id: SaleID) async throws -> SaleRecord { throw Self.notYetPorted(#function) }
    public func sales(_ query: SaleQuery) async throws -> [DocumentSummary] { throw Self.notYetPorted(#function) }
    public func postAdjustment(_ draft: AdjustmentDraft, idempotency: IdempotencyKey?) async throws -> Idempotent<AdjustmentID> { throw Self.notYetPorted(#function) }
    public func createProduct(_ details: ProductDetails, openingStock: OpeningStock) async throws -> Product { throw Self.notYetPorted(#function) }
    public func deleteAdjustment(_ id: AdjustmentID) async throws { throw Self.notYetPorted(#function) }
    public func postCustomerReturn(_ draft: CustomerReturnDraft, idempotency: IdempotencyKey?) async throws -> Idempotent<CustomerReturnID> { throw Self.notYetPorted(#function) }
    public func previewCustomerReturn(_ draft: CustomerReturnDraft) async throws -> PricedCustomerReturn { throw Self.notYetPorted(#function) }
    public func deleteCustomerReturn(_ id: CustomerReturnID) async throws { throw Self.notYetPorted(#function) }
    public func settlePayment(_ id: PaymentID, of saleID: SaleID, to status: PaymentStatus) async throws -> SaleRecord { throw Self.notYetPorted(#function) }
    public func soldBeyondStock(includeReviewed: Bool) async throws -> [SoldBeyondStock] { throw Self.notYetPorted(#function) }
    public func markBeyondStockReviewed(_ saleID: SaleID, by manager: String) async throws -> [SoldBeyondStock] { throw Self.notYetPorted(#function) }
    public func postSupplierReturn(_ draft: SupplierReturnDraft, idempotency: IdempotencyKey?) async throws -> Idempotent<SupplierReturnID> { throw Self.notYetPorted(#function) }
    public func deleteSupplierReturn(_ id: SupplierReturnID) async throws { throw Self.notYetPorted(#function) }
}

extension InventoryPostgresRepository: ReportRepository {
    public func snapshot(at: Instant) async throws -> InventorySnapshot { throw Self.notYetPorted(#function) }
    public func daily(from: Int, to: Int) async throws -> [DailyPerformance] { throw Self.notYetPorted(#function) }
    public func taxes(from: Int, to: Int) async throws -> [SaleRecord.TaxShare] { throw Self.notYetPorted(#function) }
    public func topProducts(from: Instant, to: Instant, by metric: TopProductMetric, limit: Int) async throws -> [TopProduct] { throw Self.notYetPorted(#function) }
    public func lowStock() async throws -> [LowStockItem] { throw Self.notYetPorted(#function) }
    public func reorderFacts(soldWithin window: ClosedRange<Instant>) async throws -> ReorderFacts { throw Self.notYetPorted(#function) }
    public func valuation() async throws -> [CategoryValuation] { throw Self.notYetPorted(#function) }
    public func expiringLots(through day: String) async throws -> [ExpiringLot] { throw Self.notYetPorted(#function) }
    public func allMovements() async throws -> [StockMovement] { throw Self.notYetPorted(#function) }
    public func saleFacts() async throws -> [SaleFact] { throw Self.notYetPorted(#function) }
}

extension InventoryPostgresRepository: StocktakeRepository {
    public func openStocktake(scope: StocktakeScope, note: String) async throws -> Stocktake { throw Self.notYetPorted(#function) }
    public func stocktakes(limit: Int, offset: Int) async throws -> [StocktakeSummary] { throw Self.notYetPorted(#function) }
    public func stocktake(_ id: StocktakeID) async throws -> Stocktake { throw Self.notYetPorted(#function) }
    public func countStocktake(_ id: StocktakeID, productID: ProductID, entry: StocktakeEntry) async throws -> Stocktake { throw Self.notYetPorted(#function) }
    public func postStocktake(_ id: StocktakeID, by manager: String) async throws -> Stocktake { throw Self.notYetPorted(#function) }
    public func cancelStocktake(_ id: StocktakeID, by manager: String) async throws -> Stocktake { throw Self.notYetPorted(#function) }
    public func writeOffLot(productID: ProductID, lotCode: String, expiryDate: String?) async throws -> AdjustmentID { throw Self.notYetPorted(#function) }
}

extension InventoryPostgresRepository: TabRepository {
    public func parkSale(_ sale: ParkedSale) async throws -> ParkedSale { throw Self.notYetPorted(#function) }
    public func parkedSales() async throws -> [ParkedSale] { throw Self.notYetPorted(#function) }
    public func pickUpParkedSale(_ id: ParkedSaleID) async throws -> ParkedSale { throw Self.notYetPorted(#function) }
}

extension InventoryPostgresRepository {
    // SettingsRepository: re-pricing converts every product's prices (products are not ported yet).
    public func reprice(pricesIncludeTax: Bool) async throws -> Int { throw Self.notYetPorted(#function) }
}

extension InventoryPostgresRepository: ActivitySource, InventoryRepository {}

extension InventoryPostgresRepository: BackupRepository {
    // The portable backup file from one consistent snapshot (issue 13, point 5) is not built yet.
    public func backup(to path: String) throws { throw Self.notYetPorted(#function) }
    public func restore(from path: String) throws { throw Self.notYetPorted(#function) }
    /// Not measured yet (the restore cap relative to it is not reachable either).
    public func databaseBytes() -> Int64 { 0 }
    public var scratchFolder: String { FileManager.default.temporaryDirectory.path }
}
