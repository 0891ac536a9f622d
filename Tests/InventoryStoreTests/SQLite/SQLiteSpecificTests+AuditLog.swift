import Foundation
import GRDB
import InventoryDomain
@testable import InventoryStore
import Testing

extension SQLiteSpecificTests {
    /// The SQLite store's audit entries live and die with the change they describe (issue 10, defect 7): the same
    /// transaction (and savepoint of a group commit), restored with the books, readable from older backups.
    @Suite struct AuditLog {
        final class Heard: @unchecked Sendable {
            private let lock = NSLock()
            private var activities: [ShopActivity] = []
            func add(_ new: [ShopActivity]) { self.lock.withLock { self.activities += new } }
            var all: [ShopActivity] { self.lock.withLock { self.activities } }
        }

        static func bun(_ store: InventorySQLiteRepository, stock: Int64) async throws -> Product {
            let bun = try await store.createProduct(ProductDetails(name: "Bun", salePrice: Money(minorUnits: 100)))
            _ = try await store.postPurchase(PurchaseDraft(effectiveAt: Instant(milliseconds: 1_767_225_600_000),
                                                           lines: [.init(productID: bun.id, quantity: Quantity(stock), unitCost: Money(minorUnits: 40))]))
            return bun
        }

        static func sale(_ bun: Product, _ units: Int64) -> SaleDraft {
            SaleDraft(effectiveAt: Instant(milliseconds: 1_767_312_000_000), lines: [.init(productID: bun.id, quantity: Quantity(units), unitPrice: Money(minorUnits: 100))])
        }

        @Test func aSaleWhoseAuditEntryCannotBeWrittenIsNotBooked() async throws {
            let queue = try DatabaseQueue()
            let store = try InventorySQLiteRepository(queue)
            let bun = try await Self.bun(store, stock: 5)
            let heard = Heard()
            let observation = store.activityFeed.observe { heard.add($0) }
            try await queue.write { db in
                try db.execute(sql: "CREATE TRIGGER refuse BEFORE INSERT ON auditLog BEGIN SELECT RAISE(ABORT, 'audit refused'); END")
            }
            let before = try await store.testOnly_dump()
            await #expect(throws: InventoryError.self) { _ = try await store.postSale(Self.sale(bun, 1)) }
            #expect(try await store.testOnly_dump() == before, "the sale was booked without its audit entry")
            #expect(heard.all.isEmpty)
            try await queue.write { db in try db.execute(sql: "DROP TRIGGER refuse") }
            _ = try await store.postSale(Self.sale(bun, 1))
            #expect(heard.all.map(\.kind) == [.saleRecorded])
            observation.cancel()
        }

        @Test func concurrentSalesInSharedTransactionsKeepEntriesForTheBookedOnesOnly() async throws {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("stockroom-activity-\(UUID().uuidString)").path
            let store = try InventorySQLiteRepository.open(dataFolder: folder)
            let bun = try await Self.bun(store, stock: 10)
            let heard = Heard()
            let observation = store.activityFeed.observe { heard.add($0) }
            let audited = try await store.auditLog(limit: 1000, offset: 0).count
            // 30 tills ask for 1 bun each from 10: exactly 10 are booked, in whatever batches the group commit forms.
            let booked = await withTaskGroup(of: Int64?.self) { group in
                for index in 0..<30 {
                    group.addTask {
                        try? await Agent.$current.withValue(Agent(userID: nil, username: "till\(index)")) {
                            try await store.postSale(Self.sale(bun, 1)).id.rawValue
                        }
                    }
                }
                var ids: [Int64] = []
                for await id in group { if let id { ids.append(id) } }
                return ids
            }
            #expect(booked.count == 10)
            // The bun selling out is recorded once, with the sale that took it under its threshold (LowStockCrossing).
            let all = Array(try await store.auditLog(limit: 1000, offset: 0).dropLast(audited))
            #expect(all.filter { $0.kind == .stockWentLow }.count == 1)
            let entries = all.filter { $0.kind != .stockWentLow }
            #expect(Set(entries.compactMap(\.record?.id)) == Set(booked))
            #expect(entries.allSatisfy { $0.kind == .saleRecorded && $0.sentence.hasPrefix($0.username + " sold 1 × Bun for €1.00") })
            let sales = heard.all.filter { $0.kind != .stockWentLow }
            #expect(Set(sales.compactMap(\.record?.id)) == Set(booked) && sales.count == 10)
            observation.cancel()
        }

        @Test func aRestoreIsAuditedInTheRestoredBooksAndOlderEntriesStillRead() async throws {
            // A backup from before activities were audited: the schema of the migration before them, and an old entry.
            let path = FileManager.default.temporaryDirectory.appendingPathComponent("old-\(UUID().uuidString).sqlite").path
            let old = try DatabaseQueue(path: path)
            let index = try #require(SQLiteMigrations.names.firstIndex(of: "v5-activity-audit"))
            try SQLiteMigrations.migrator.migrate(old, upTo: SQLiteMigrations.names[index - 1])
            try await old.write { db in
                try db.execute(sql: """
                    INSERT INTO user (username, displayName, role, passwordHash, isActive, createdAt)
                        VALUES ('owner', 'Owner', 'admin', '$2b$12$abcdefghijklmnopqrstuuOQ3oZJr9Yc0i7e5C4m1n2b3v4x5y6z7', 1, 0);
                    INSERT INTO auditLog (at, userId, username, action, detail) VALUES (1000, 1, 'owner', 'POST /api/v1/sales', 'status 201');
                    """)
            }
            try old.close()

            let store = try InventorySQLiteRepository.inMemory()
            let heard = Heard()
            let observation = store.activityFeed.observe { heard.add($0) }
            try Agent.$current.withValue(Agent(userID: nil, username: "ada")) { try store.restore(from: path) }
            let entries = try await store.auditLog(limit: 10, offset: 0)
            #expect(entries.map(\.sentence) == ["ada restored a backup", "owner: POST /api/v1/sales (status 201)"])
            #expect(entries.map(\.kind) == [.backupRestored, nil])
            #expect(entries.last?.figures == ShopActivity.Figures() && entries.last?.record == nil)
            #expect(heard.all.map(\.kind) == [.backupRestored])

            // And a backup made now, entries and all, restores too (its schema is the current one).
            let current = FileManager.default.temporaryDirectory.appendingPathComponent("new-\(UUID().uuidString).sqlite").path
            try store.backup(to: current)
            let other = try InventorySQLiteRepository.inMemory()
            try other.restore(from: current)
            #expect(try await other.auditLog(limit: 10, offset: 0).map(\.sentence)
                    == ["system restored a backup", "ada restored a backup", "owner: POST /api/v1/sales (status 201)"])
            observation.cancel()
        }
    }
}
