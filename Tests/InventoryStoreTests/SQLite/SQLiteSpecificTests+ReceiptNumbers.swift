import Foundation
import GRDB
import InventoryDomain
@testable import InventoryStore
import Testing

extension SQLiteSpecificTests {
    /// `v6-receipt-numbers` numbers the sales of an older database in the order they were booked, skipping the other
    /// documents, and new sales carry on from there.
    @Suite struct ReceiptNumberMigration {
        @Test func olderSalesAreNumberedInBookingOrder() throws {
            let queue = try DatabaseQueue()
            let index = try #require(SQLiteMigrations.names.firstIndex(of: "v6-receipt-numbers"))
            try SQLiteMigrations.migrator.migrate(queue, upTo: SQLiteMigrations.names[index - 1])
            try queue.write { db in
                for kind in ["sale", "purchase", "sale", "adjustment", "purchase", "sale"] {
                    try db.execute(sql: "INSERT INTO document (kind, effectiveAt, day, recordedAt) VALUES (?, 0, 19700101, 0)", arguments: [kind])
                }
            }
            try SQLiteMigrations.migrator.migrate(queue)
            let numbers = try queue.read { db in
                try Row.fetchAll(db, sql: "SELECT kind, receiptNumber FROM document ORDER BY id").map { [$0[0] as String, ($0[1] as Int64?).map(String.init) ?? "-"] }
            }
            #expect(numbers == [["sale", "1"], ["purchase", "-"], ["sale", "2"], ["adjustment", "-"], ["purchase", "-"], ["sale", "3"]])
            // Two sales cannot share a number.
            #expect(throws: (any Error).self) {
                try queue.write { db in
                    try db.execute(sql: "INSERT INTO document (kind, effectiveAt, day, recordedAt, receiptNumber) VALUES ('sale', 0, 19700101, 0, 3)")
                }
            }
        }
    }
}
