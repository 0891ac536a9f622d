import Foundation
import GRDB
import InventoryDomain
@testable import InventoryStore
import Synchronization
import Testing

extension SQLiteSpecificTests {
    /// Group commit: concurrent writes share transactions, yet each keeps its own all-or-nothing outcome. (80 tills
    /// selling at once through the repository is ``LedgerConformance/concurrentSalesOfOneProductEndWithExactStock(backend:)``.)
    @Suite struct GroupCommit {
        @Test func writesArrivingDuringACommitShareTheNextTransactionAndKeepTheirOwnOutcome() async throws {
            let queue = try DatabaseQueue()
            try await queue.write { db in try db.execute(sql: "CREATE TABLE item (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE)") }
            let commits = CommitCounter()
            queue.add(transactionObserver: commits)
            let coalescer = WriteCoalescer(queue)

            // The first write holds its transaction until 60 more are waiting (however slowly they arrive on a loaded
            // machine); those must share the next transaction.
            let started = Mutex(false)
            let first = Task {
                try await coalescer.write { db in
                    started.withLock { $0 = true }
                    while coalescer.waiting < 60 { Thread.sleep(forTimeInterval: 0.005) }
                    try db.execute(sql: "INSERT INTO item (name) VALUES ('first')")
                }
            }
            while !started.withLock({ $0 }) { try await Task.sleep(for: .milliseconds(5)) }
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
