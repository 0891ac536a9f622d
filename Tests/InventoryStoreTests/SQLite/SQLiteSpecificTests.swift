import Foundation
import InventoryDomain
import InventoryStore
import Testing

/// What only the SQLite implementation has: its file settings and named migrations, its group-commit queue
/// (``GroupCommit``) and the checks its restore makes on an SQLite file (``Restore``). Everything the storage
/// protocols promise is in the conformance suites (`Conformance/`), which run on every backend.
@Suite struct SQLiteSpecificTests {
    @Test func fileDatabaseUsesWalFullSyncAndNamedMigrations() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("stockroom-wal-\(UUID().uuidString)").path
        let store = try InventorySQLiteRepository.open(dataFolder: folder)
        #expect(try await store.appliedMigrations() == ["v1-catalogue", "v1-books", "v1-reports", "v1-staff", "v2-sale-till", "v2-session-expiry", "v3-idempotency", "v4-product-pictures", "v5-activity-audit", "v6-receipt-numbers", "v7-tax-inclusive-prices", "v8-parked-sales", "v9-sale-approval", "v10-sale-payments", "v11-cash-drawer", "v12-customer-cards", "v13-beyond-stock", "v14-product-options", "v15-recipes", "v16-shop-logo", "v17-product-search", "v18-staff-job-titles", "v19-stocktakes", "v20-reorder", "v21-activity-feed", "v22-product-description", "v23-product-shelf", "v24-throttle-previous-failure"])
        #expect(try await store.pragma("journal_mode") == "wal")
        #expect(try await store.pragma("synchronous") == "2")
        #expect(try await store.pragma("foreign_keys") == "1")
        let kept = try await store.createProduct(ProductDetails(name: "Kept"))
        // An open tab is in the file, so it survives a restart.
        let tab = try await store.parkSale(ParkedSale(label: "Table 2", lines: [.init(productID: kept.id, quantity: Quantity(1))]))
        let copy = folder + "/backup.sqlite"
        try store.backup(to: copy)
        let reopened = try InventorySQLiteRepository.open(dataFolder: folder)
        #expect(try await reopened.products(ProductQuery()).products.map(\.name) == ["Kept"])
        #expect(try await reopened.parkedSales() == [tab])
        #expect(FileManager.default.fileExists(atPath: copy))
    }
}
