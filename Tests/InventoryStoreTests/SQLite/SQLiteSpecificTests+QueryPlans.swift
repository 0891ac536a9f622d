import Foundation
import GRDB
import InventoryDomain
@testable import InventoryStore
import Testing

/// Statements whose plan SQLite could get wrong (it has no statistics: the store never runs ANALYZE) read by the index
/// that keeps them proportional to what they are about, not to the shop's size.
extension SQLiteSpecificTests {
    @Test func importTotalsReadTheImportedDocumentsNotEveryLine() async throws {
        let store = try InventorySQLiteRepository.inMemory()
        let plans = try await store.dbWriter.read { db in
            try [InventorySQLiteRepository.importedSalesTotalSQL, InventorySQLiteRepository.importedPurchaseLinesSQL].map { sql in
                try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + sql, arguments: [1, 2]).map { $0["detail"] as String }
            }
        }
        for plan in plans {
            #expect(!plan.contains { $0.contains("movement_sales") || $0.hasPrefix("SCAN") && !$0.contains("CONSTANT ROW") }, "\(plan)")
            #expect(plan.contains { $0.contains("movement_document") }, "\(plan)")
        }
        #expect(plans[0].contains { $0.contains("INTEGER PRIMARY KEY") }, "the tips by the documents' ids: \(plans[0])")
    }
}

extension SQLiteSpecificTests {
    /// The raw ceiling the benchmarks compare the books with runs on the store's schema and leaves nothing behind.
    @Test func theRawLedgerCeilingRunsOnTheStoresSchemaAndCleansUp() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("stockroom-ceiling-\(UUID().uuidString)").path
        let elapsed = try RawLedgerCeiling.time(folder: folder, sales: 25, perTransaction: 7, products: 3)
        #expect(elapsed > .zero)
        #expect(!FileManager.default.fileExists(atPath: folder))
    }
}
