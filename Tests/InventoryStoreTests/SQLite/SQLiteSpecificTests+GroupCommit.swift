import Foundation
import GRDB
import InventoryDomain
@testable import InventoryStore
import Testing

/// Group commit: concurrent writes share transactions, yet each keeps its own all-or-nothing outcome.
@Suite struct GroupCommitTests {
    @Test(arguments: Backend.allCases)
    func concurrentSalesOfOneProductEndWithExactStock(backend: Backend) async throws {
        let store = try backend.make()
        let product = try await store.createProduct(ProductDetails(name: "Croissant", salePrice: eur("2.40")))
        _ = try await store.postPurchase(PurchaseDraft(effectiveAt: at(20260301), lines: [
            .init(productID: product.id, quantity: qty(30), unitCost: eur("0.70")),
        ]))
        _ = try await store.postPurchase(PurchaseDraft(effectiveAt: at(20260301, minutes: 1), lines: [
            .init(productID: product.id, quantity: qty(20), unitCost: eur("0.95")),
        ]))
        // 80 tills sell one croissant each at once: 50 are in stock, so exactly 30 sales must be refused.
        let outcomes = await withTaskGroup(of: Result<SaleRecord, InventoryError>.self) { group in
            for index in 0..<80 {
                group.addTask {
                    do {
                        return .success(try await store.postSale(SaleDraft(
                            effectiveAt: at(20260302, minutes: index % 60), note: "till \(index)",
                            lines: [.init(productID: product.id, quantity: qty(1), unitPrice: eur("2.40"))])))
                    } catch let error as InventoryError {
                        return .failure(error)
                    } catch {
                        return .failure(InventoryError(.storage, "\(error)"))
                    }
                }
            }
            var all: [Result<SaleRecord, InventoryError>] = []
            for await outcome in group { all.append(outcome) }
            return all
        }
        let sold = outcomes.compactMap { try? $0.get() }
        let refused = outcomes.compactMap { if case .failure(let error) = $0 { error } else { nil } }
        #expect(sold.count == 50)
        #expect(refused.count == 30)
        #expect(refused.allSatisfy { $0.code == .insufficientStock }, "\(refused.map(\.code))")

        let after = try await store.product(product.id)
        #expect(after.stock.quantity == .zero)
        #expect(after.stock.value == .zero)
        // Σ purchase cost = Σ COGS + stock value: 30 × 0.70 + 20 × 0.95 = 40.00, all of it now sold.
        let cogs = sold.reduce(Money.zero) { $0 + $1.costOfGoodsSold }
        #expect(cogs == eur("40.00"))
        // Every acknowledged sale is on disk, each once.
        let stored = try await store.sales(limit: 500, offset: 0)
        #expect(Set(stored.map(\.id)) == Set(sold.map(\.id.rawValue)))
    }

    @Test func writesArrivingDuringACommitShareTheNextTransactionAndKeepTheirOwnOutcome() async throws {
        let queue = try DatabaseQueue()
        try await queue.write { db in try db.execute(sql: "CREATE TABLE item (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE)") }
        let commits = CommitCounter()
        queue.add(transactionObserver: commits)
        let coalescer = WriteCoalescer(queue)

        // The first write holds its transaction while 60 more arrive; those must share the next transaction.
        let first = Task {
            try await coalescer.write { db in
                Thread.sleep(forTimeInterval: 0.3)
                try db.execute(sql: "INSERT INTO item (name) VALUES ('first')")
            }
        }
        try await Task.sleep(for: .milliseconds(50))
        let results = await withTaskGroup(of: (Int, Bool).self) { group in
            for index in 0..<60 {
                group.addTask {
                    do {
                        try await coalescer.write { db in
                            try db.execute(sql: "INSERT INTO item (name) VALUES (?)", arguments: ["item \(index)"])
                            // Every third write fails after writing: its row must not survive.
                            if index % 3 == 0 { try db.execute(sql: "INSERT INTO item (name) VALUES ('first')") }
                        }
                        return (index, true)
                    } catch {
                        return (index, false)
                    }
                }
            }
            var all: [(Int, Bool)] = []
            for await result in group { all.append(result) }
            return all
        }
        try await first.value
        for (index, succeeded) in results { #expect(succeeded == (index % 3 != 0), "write \(index)") }
        let names = try await queue.read { db in try String.fetchSet(db, sql: "SELECT name FROM item") }
        #expect(names == Set(["first"] + (0..<60).filter { $0 % 3 != 0 }.map { "item \($0)" }))
        // One commit for the first write, then the 60 waiting ones in one group (the cap is 256).
        #expect(commits.count == 2, "commits: \(commits.count)")
    }

    @Test func aFailedCommitAnswersEveryWriteOfTheBatchWithTheError() async throws {
        let queue = try DatabaseQueue()
        try await queue.write { db in
            try db.execute(sql: "CREATE TABLE item (id INTEGER PRIMARY KEY, name TEXT NOT NULL)")
        }
        queue.add(transactionObserver: CommitVeto(), extent: .databaseLifetime)
        let coalescer = WriteCoalescer(queue)
        await #expect(throws: (any Error).self) {
            try await coalescer.write { db in try db.execute(sql: "INSERT INTO item (name) VALUES ('vetoed')") }
        }
        #expect(try await queue.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM item") } == 0)
    }
}

/// Counts committed transactions.
final class CommitCounter: TransactionObserver, @unchecked Sendable {
    private let lock = NSLock()
    private var commits = 0
    var count: Int { self.lock.withLock { self.commits } }
    func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool { false }
    func databaseDidChange(with event: DatabaseEvent) {}
    func databaseDidCommit(_ db: Database) { self.lock.withLock { self.commits += 1 } }
    func databaseDidRollback(_ db: Database) {}
}

/// Refuses every commit that inserted into `item`.
final class CommitVeto: TransactionObserver, @unchecked Sendable {
    struct Vetoed: Error {}
    func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool { eventKind.tableName == "item" }
    func databaseDidChange(with event: DatabaseEvent) {}
    func databaseWillCommit() throws { throw Vetoed() }
    func databaseDidCommit(_ db: Database) {}
    func databaseDidRollback(_ db: Database) {}
}
