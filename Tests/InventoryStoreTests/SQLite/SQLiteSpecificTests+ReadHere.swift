import Foundation
import GRDB
import GRDBSQLite
import InventoryDomain
@testable import InventoryStore
import Synchronization
import Testing

/// The reads that run on the calling thread (``InventorySQLiteRepository/readHere(_:)``: a product by barcode, the
/// caller's session, the settings) beside the ones that run on GRDB's queues (searches, reports).
extension SQLiteSpecificTests {
    /// A read gives its reader back on GRDB's queue, before its caller runs again: with one reader, and the caller's
    /// executor held still once the read's body has ended, a read of GRDB's pool on another thread still gets the
    /// reader. GRDB's own `async` read gives the reader back only once its caller runs again; behind
    /// reads that block every thread of the Swift concurrency pool waiting for a reader, that caller would never run.
    /// (Replacing ``InventorySQLiteRepository/read(_:)``'s body by GRDB's `read` makes this test fail.)
    ///
    /// The wait for the second read is bounded so that a regression fails instead of hanging, and it ends as soon as
    /// the reader is free: with the read as it should be, that is at once, however busy the machine.
    @Test func aReadGivesBackItsReaderBeforeItsCallerRunsAgain() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("stockroom-onereader-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var configuration = InventorySQLiteRepository.configuration()
        configuration.maximumReaderCount = 1
        let store = try InventorySQLiteRepository(DatabasePool(path: folder + "/stockroom.sqlite", configuration: configuration))
        let executor = HoldableExecutor()
        defer { executor.stop() }
        let bodyStarted = DispatchSemaphore(value: 0), bodyMayEnd = DispatchSemaphore(value: 0)
        let reading = Task(executorPreference: executor) {
            try await store.read { db in
                bodyStarted.signal()
                bodyMayEnd.wait()
                return try Int.fetchOne(db, sql: "SELECT 1")
            }
        }
        _ = await bodyStarted.waitOffThePool(seconds: 600)
        executor.hold(true)
        bodyMayEnd.signal()
        let answered = DispatchSemaphore(value: 0)
        let secondRead = Mutex<Int?>(nil)
        Thread.detachNewThread {
            let value = try? store.dbWriter.unsafeRead { db in try Int.fetchOne(db, sql: "SELECT 2") }
            secondRead.withLock { $0 = value ?? nil }
            answered.signal()
        }
        let readWhileHeld = await answered.waitOffThePool(seconds: 60)
        executor.hold(false)
        #expect(readWhileHeld, "the second read got the only reader while the first read's caller was held")
        #expect(try await reading.value == 1)
        if !readWhileHeld { _ = await answered.waitOffThePool(seconds: 600) }
        #expect(secondRead.withLock { $0 } == 2)
    }

    /// Many barcode lookups and session reads, which block a thread of the Swift concurrency pool while they wait for a
    /// reader, at the same time as many searches, which hold a reader while they read: every one answers what the
    /// database holds. (That none waits for ever on another is what ``aReadGivesBackItsReaderBeforeItsCallerRunsAgain()``
    /// holds; this test has no time limit of its own, because in a full run it shares the pool's threads with every
    /// other test and may wait minutes for them without anything being wrong.)
    @Test func lookupsOnTheCallingThreadAndSearchesOnGRDBsQueuesAllAnswer() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("stockroom-readhere-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let store = try InventorySQLiteRepository.open(dataFolder: folder)
        let codes = ["4006381333931", "5012345678900", "9780201379624", "4000417025005", "0012345678905"]
        for (index, code) in codes.enumerated() {
            _ = try await store.createProduct(ProductDetails(name: "Oat milk \(index)", barcode: code))
        }
        for index in 0..<300 { _ = try await store.createProduct(ProductDetails(name: "Rice milk \(index)")) }
        _ = try await store.createFirstAdmin(StaffAccount(id: UserID(0), username: "owner", displayName: "", role: .admin, passwordHash: "x", pinHash: nil))
        let owner = try #require(try await store.users().first)
        _ = try await store.createSession(userID: owner.id, kind: .api, name: "till", tokenHash: "till", csrfToken: "c", expiresAt: nil)

        for round in 0..<3 {
            let answered = try await withThrowingTaskGroup(of: Int.self) { group in
                for index in 0..<120 {
                    switch index % 3 {
                    case 0:
                        group.addTask { try await store.products(ProductQuery(search: "milk \(index % 50)", limit: 20)).products.isEmpty ? 0 : 1 }
                    case 1:
                        group.addTask { try await store.product(barcode: codes[index % codes.count]) == nil ? 0 : 1 }
                    default:
                        group.addTask {
                            store.sessionCache.invalidate()  // so each asks the database
                            return try await store.session(tokenHash: "till") == nil ? 0 : 1
                        }
                    }
                }
                return try await group.reduce(0, +)
            }
            #expect(answered == 120, "round \(round): every search, lookup and session read found what it looked for")
        }
        // The reads on the calling thread answer what the database holds, and nothing when it holds nothing.
        #expect(try await store.product(barcode: "4006381333931")?.name == "Oat milk 0")
        #expect(try await store.product(barcode: "4012345678901") == nil)
        #expect(try await store.session(tokenHash: "nobody") == nil)
    }

    /// The barcode lookup reads the product from the statement's current row (``StatementColumns``); every other read
    /// of a product reads a GRDB `Row`: both give the same product, with every optional column set and with none, with
    /// stock and pictures, and a UPC-A found by its EAN-13 spelling.
    @Test func aProductReadFromTheStatementIsTheProductReadFromARow() async throws {
        let store = try InventorySQLiteRepository.inMemory()
        let tea = try await store.createCategory(Category(id: CategoryID(0), name: "Tea", lowStockThreshold: qty(3)))
        let supplier = try await store.createSupplier(Contact(id: SupplierID(0), name: "Teahouse"))
        let full = try await store.createProduct(
            ProductDetails(name: "Crème de thé", sku: "TEA-1", barcode: "4006381333931", categoryID: tea.id, unit: "g", salePrice: eur("4.50"),
                           minimumSalePrice: eur("4.00"), taxRate: Percent(hundredths: 700), lowStockThreshold: qty(5), allowsNegativeStock: true,
                           iconEmoji: "🍵", preferredSupplierID: supplier.id, supplierCode: "T-77", packSize: qty(12), description: "Loose leaf",
                           shelf: "B2"),
            openingStock: OpeningStock(quantity: qty(7), unitCost: eur("1.25")))
        let bare = try await store.createProduct(ProductDetails(name: "Plain", barcode: "012345678905", tracksStock: false))
        _ = try await store.addPicture(full.id, name: "0123456789abcdef01234567.jpg")
        _ = try await store.addPicture(full.id, name: "89abcdef0123456789abcdef.png")
        for (product, codes) in [(full, ["4006381333931"]), (bare, ["012345678905", "0012345678905"])] {
            let expected = try await store.product(product.id)
            for code in codes {
                #expect(try await store.product(barcode: code) == expected, "\(code)")
            }
        }
        let read = try await store.product(full.id)
        #expect(read.pictures.count == 2 && read.details.supplierCode == "T-77" && read.stock.quantity == qty(7))
    }

    /// ``Statement/firstRow(text:_:)`` and ``Statement/firstRow(id:_:)`` step SQLite's statement themselves: they bind
    /// the text byte for byte (non-ASCII, an empty text, which is not NULL), answer nil when there is no row, report a
    /// failing step as GRDB's error (naming the statement), leave no binding behind, and GRDB runs the same cached
    /// statement with its own arguments afterwards as if they had never run.
    @Test func aFirstRowReadOnTheStatementBindsStepsAndResetsIt() throws {
        let queue = try DatabaseQueue()
        try queue.write { db in
            try db.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY, code TEXT NOT NULL)")
            try db.execute(sql: "INSERT INTO t (id, code) VALUES (1, 'Crème'), (2, ''), (3, 'a''b')")
        }
        try queue.read { db in
            let byCode = try db.cachedStatement(sql: "SELECT id, code FROM t WHERE code = ?")
            let id: (StatementColumns) -> Int64 = { $0[0] }
            #expect(try byCode.firstRow(text: "Crème", id) == 1)
            #expect(try byCode.firstRow(text: "", id) == 2, "an empty text is bound as text, not NULL")
            #expect(try byCode.firstRow(text: "a'b", id) == 3)
            #expect(try byCode.firstRow(text: "Creme", id) == nil)
            // No binding is left on the statement: SQLite reads a cleared parameter as NULL.
            let expanded = sqlite3_expanded_sql(byCode.sqliteStatement)
            defer { sqlite3_free(expanded) }
            #expect(expanded.map { String(cString: $0) } == "SELECT id, code FROM t WHERE code = NULL")
            #expect(sqlite3_stmt_busy(byCode.sqliteStatement) == 0, "the statement was reset")
            // GRDB runs the same statement with its own arguments afterwards.
            #expect(try Int64.fetchOne(byCode, arguments: ["a'b"]) == 3)
            #expect(try byCode.firstRow(text: "Crème", { $0[1] as String }) == "Crème")
            let byID = try db.cachedStatement(sql: "SELECT code FROM t WHERE id = ?")
            #expect(try byID.firstRow(id: 3, { $0[0] as String }) == "a'b")
            #expect(try byID.firstRow(id: 9, { $0[0] as String }) == nil)
            // A step that fails (abs() of the smallest integer overflows) throws GRDB's error for the statement.
            let failing = try db.makeStatement(sql: "SELECT abs(?)")
            #expect {
                try failing.firstRow(id: Int64.min, { $0[0] as Int64 })
            } throws: { error in
                let error = error as? DatabaseError
                return error?.sql == "SELECT abs(?)" && error?.message?.contains("overflow") == true
            }
            #expect(try failing.firstRow(id: -4, { $0[0] as Int64 }) == 4, "the statement runs again after the failure")
        }
    }
}


/// A task executor running its jobs one after another on a thread of its own, that can be held still (its jobs wait
/// until it is let go).
final class HoldableExecutor: TaskExecutor, @unchecked Sendable {
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []
    private var held = false
    private var stopped = false

    init() {
        Thread.detachNewThread { [self] in self.run() }
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        self.condition.lock()
        self.jobs.append(job)
        self.condition.broadcast()
        self.condition.unlock()
    }

    func hold(_ held: Bool) {
        self.condition.lock()
        self.held = held
        self.condition.broadcast()
        self.condition.unlock()
    }

    /// Ends the thread once the jobs enqueued so far have run.
    func stop() {
        self.condition.lock()
        self.stopped = true
        self.condition.broadcast()
        self.condition.unlock()
    }

    private func run() {
        while true {
            self.condition.lock()
            while self.held || (self.jobs.isEmpty && !self.stopped) { self.condition.wait() }
            if self.jobs.isEmpty {
                self.condition.unlock()
                return
            }
            let job = self.jobs.removeFirst()
            self.condition.unlock()
            job.runSynchronously(on: self.asUnownedTaskExecutor())
        }
    }
}

extension DispatchSemaphore {
    /// Waits for a signal on a Dispatch thread, not a thread of the Swift concurrency pool; false when none came in time.
    func waitOffThePool(seconds: Int) async -> Bool {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(returning: self.wait(timeout: .now() + .seconds(seconds)) == .success) }
        }
    }
}
