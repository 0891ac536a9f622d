import Foundation
import GRDB
import InventoryDomain
import Metrics
import Synchronization

/// The shop's books in one SQLite file (GRDB): WAL, foreign keys on; every write acknowledged only once it is on the
/// disk (the writer commits with `synchronous=NORMAL` and a ``WALFlusher`` flushes the log before the callers are
/// answered; the readers keep `synchronous=FULL`, which they never use).
public struct InventorySQLiteRepository: InventoryRepository, BackupRepository {
    let dbWriter: any DatabaseWriter
    /// Every write goes through one group-commit queue (see ``WriteCoalescer``).
    let coalescer: WriteCoalescer
    /// The shop's settings as last read (see ``settings()``).
    let settingsCache = RecentReads<Int, ShopSettings>(name: "settings", capacity: 1)
    /// Signed-in callers as last read, by token hash (see ``session(tokenHash:)``).
    let sessionCache = RecentReads<String, CachedSession>(name: "sessions")
    /// The categories as last read (see ``categories()``): every product's stock status needs its category's threshold.
    let categoryCache = RecentReads<Int, [Category]>(name: "categories", capacity: 1)
    /// What searches listed by name need of every product (see ``ProductSearchIndex``).
    let searchIndex = ProductSearchIndexCache()
    /// Drops the kept reads when a committed transaction changes their tables (kept alive here: GRDB holds it weakly).
    let cacheInvalidator: CacheInvalidator
    /// Every committed write's activities, for the server's live events (``ActivitySource``).
    public let activityFeed = ActivityFeed()
    /// Time in the database, group commits and kept reads, for `/metrics`.
    let metrics = StoreMetrics()
    /// Connections of their own for ``readHere(_:)`` on a database file (nil in memory, where GRDB's queue reads).
    let pointReaders: PointReaders?

    /// Opens (creating when needed) the database file `stockroom.sqlite` in a data folder, and migrates it.
    /// - Throws: ``InventoryError`` when the folder cannot be created or the file cannot be opened.
    public static func open(dataFolder: String) throws -> InventorySQLiteRepository {
        do {
            try PrivateFolder.create(atPath: dataFolder)
        } catch {
            throw InventoryError(.storage, field: "data", "cannot create the data folder \(dataFolder): \(error.localizedDescription)")
        }
        let path = (dataFolder as NSString).appendingPathComponent("stockroom.sqlite")
        // The shop's data is readable by the server's user only: the file is made 0600 before SQLite opens it, and
        // SQLite gives its -wal and -shm files the same mode.
        if !FileManager.default.fileExists(atPath: path) {
            PrivateFile.create(path)
        }
        do {
            let repository = try InventorySQLiteRepository(DatabasePool(path: path, configuration: Self.configuration()))
            try repository.requireValidSettings(path: path)
            return repository
        } catch let error as InventoryError {
            throw error
        } catch {
            throw InventoryError(.storage, field: "data", "cannot open the database \(path): \(error)", cause: error)
        }
    }

    /// An empty database in memory, for tests.
    public static func inMemory() throws -> InventorySQLiteRepository {
        try InventorySQLiteRepository(DatabaseQueue(configuration: Self.configuration()))
    }

    /// Wraps an open database and migrates it.
    public init(_ dbWriter: any DatabaseWriter) throws {
        self.dbWriter = dbWriter
        self.pointReaders = (dbWriter as? DatabasePool).map { PointReaders(path: $0.path) }
        // On a file, the writer's commits leave the flush to the flusher, which makes each batch durable on a thread of
        // its own before its callers are answered (``WALFlusher``): the writer runs the next batch meanwhile.
        // Checkpoints run on a connection of their own too (``WALCheckpointer``), never inside the writer's commits.
        var flusher: WALFlusher?
        var checkpointer: WALCheckpointer?
        if let pool = dbWriter as? DatabasePool {
            flusher = WALFlusher(databasePath: pool.path, metrics: self.metrics)
            checkpointer = WALCheckpointer(databasePath: pool.path, metrics: self.metrics)
            try pool.writeWithoutTransaction { db in
                try db.execute(sql: "PRAGMA synchronous = NORMAL")
                try db.execute(sql: "PRAGMA wal_autocheckpoint = 0")
            }
        }
        self.coalescer = WriteCoalescer(dbWriter, flusher: flusher, checkpointer: checkpointer, metrics: self.metrics)
        try SQLiteMigrations.migrator.migrate(dbWriter)
        try flusher?.flushNow()
        self.cacheInvalidator = CacheInvalidator([
            "setting": [self.settingsCache],
            "session": [self.sessionCache],
            "user": [self.sessionCache],
            "category": [self.categoryCache, self.searchIndex],
            "product": [self.searchIndex],
        ], updatedColumns: ["product": ["name", "searchKey", "sku", "barcode", "isArchived", "categoryId"]])
        dbWriter.add(transactionObserver: self.cacheInvalidator, extent: .observerLifetime)
    }

    /// Drops every kept read and closes the idle point readers: after a restore, which replaces the file's pages without
    /// the changes GRDB observes (and may change the schema their statements were prepared for).
    func dropRecentReads() {
        for cache in self.cacheInvalidator.allCaches { cache.invalidate() }
        self.pointReaders?.drain()
    }

    static func configuration() -> Configuration {
        var configuration = Configuration()
        configuration.foreignKeysEnabled = true
        configuration.busyMode = .timeout(10)
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = FULL")
        }
        return configuration
    }

    /// The names of the migration steps applied, in order.
    public func appliedMigrations() async throws -> [String] {
        try await self.read { db in try SQLiteMigrations.migrator.appliedMigrations(db) }
    }

    /// Writes a consistent copy of the live database to `path` (online backup); a new file is 0600 from its creation.
    public func backup(to path: String) throws {
        if !FileManager.default.fileExists(atPath: path) { PrivateFile.create(path) }
        let destination = try DatabaseQueue(path: path)
        try self.dbWriter.backup(to: destination)
        try destination.close()
    }

    // MARK: - Transactions

    /// Runs `body` as one all-or-nothing write: any thrown error rolls back everything it did. Concurrent writes
    /// share a transaction (group commit, each in its own savepoint) and each returns only after that transaction
    /// has committed. Database errors become ``InventoryError/Code/storage``.
    func write<T: Sendable>(_ body: @escaping @Sendable (Database, ShopSettings) throws -> T) async throws -> T {
        try await self.write { db, settings, _ in try body(db, settings) }
    }

    /// ``write(_:)`` for a command whose outcome is audited: `body` records its ``ShopActivity`` in the
    /// ``ActivityLog`` it is given, which writes it to the audit log inside the same savepoint (so a refused write
    /// leaves none), attributed to ``Agent/current`` as it was when the write was submitted. Once the transaction has
    /// committed, the activities go to ``activityFeed``.
    func write<T: Sendable>(_ body: @escaping @Sendable (Database, ShopSettings, ActivityLog) throws -> T) async throws -> T {
        let agent = Agent.current
        do {
            let (value, activities) = try await self.coalescer.write { db in
                let settings = try Self.loadSettings(db)
                let log = ActivityLog(db, agent: agent, currency: settings.currency)
                let value = try body(db, settings, log)
                try log.noteLowStock(settings)
                return (value, log.activities)
            }
            self.activityFeed.publish(activities)
            return value
        } catch let error as InventoryError {
            throw error
        } catch let error as DatabaseError {
            throw Self.translate(error)
        }
    }

    /// Runs `body` exactly as ``write(_:)`` would and answers what it returned, then rolls everything back: a dry run.
    /// It runs in a transaction of its own, outside the group commit, so no other caller's write shares (or waits on)
    /// its fate; it holds the write lock only while `body` runs and never commits, so it costs no disk flush.
    func dryRun<T: Sendable>(_ body: @escaping @Sendable (Database, ShopSettings) throws -> T) async throws -> T {
        do {
            return try await self.dbWriter.writeWithoutTransaction { db in
                var result: T?
                try db.inTransaction(.immediate) {
                    result = try body(db, try Self.loadSettings(db))
                    return .rollback
                }
                guard let result else { throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "the dry run did not run its block") }
                return result
            }
        } catch let error as InventoryError {
            throw error
        } catch let error as DatabaseError {
            throw Self.translate(error)
        }
    }

    /// Runs `body` on one of GRDB's reader queues and resumes the caller with its answer. The reader is taken and given
    /// back on GRDB's own queues (`asyncRead`), never held while a task waits for a thread of the Swift concurrency
    /// pool: GRDB's `async` read holds its reader from before the body to after it, across two waits for the calling
    /// task to run again, so a task holding one could wait behind the very pool threads that ``readHere(_:)`` blocks
    /// waiting for a reader, and both would wait for ever. It also takes one hop less. Every read of this repository
    /// goes through here or ``readHere(_:)``; none uses GRDB's `async` read.
    func read<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        let start = StoreMetrics.now
        defer { self.metrics.readTime.recordNanoseconds(StoreMetrics.elapsed(since: start)) }
        try Task.checkCancellation()
        return try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
            self.dbWriter.asyncRead { database in
                continuation.resume(with: Result { try body(try database.get()) }.mapError(Self.translateStorage))
            }
        }
    }

    /// ``readHere(_:)`` on a thread of Dispatch's global pool, resuming the caller with its answer: for a read longer
    /// than a lookup's that needs no schema check and opens its own transaction where it needs one snapshot (a search
    /// answered from the index in memory, whose page ``fetchProducts(_:_:)`` reads by id), kept off the calling thread
    /// (an event loop, whose other connections would wait). One hop out and one back, where ``read(_:)`` takes two out
    /// (GRDB's pool queue, then the reader's own) and wraps the body in `BEGIN`, a schema check and `COMMIT`.
    func readElsewhere<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try Task.checkCancellation()
        return try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
            DispatchQueue.global(qos: .userInitiated).async {
                continuation.resume(with: Result { try self.readHere(body) })
            }
        }
    }

    /// A short read run on the calling thread, for what nearly every request asks (the caller's session, a product by
    /// barcode, the settings): one or two indexed statements, each reading one snapshot of its own, without the
    /// `BEGIN`/`COMMIT` that ``read(_:)`` wraps around its body (prepared anew each time, they were a tenth of a barcode
    /// lookup's instructions). On a database file it reads on a connection of its own (``PointReaders``), not one of
    /// GRDB's readers, so it never waits for a reader, nor for another lookup at the pool's locks. It blocks the thread
    /// only for those statements (readers never wait for the writer in WAL), and saves the hops to GRDB's queues and
    /// back that ``read(_:)`` takes (BENCHMARKS.md). Reports and searches, which take milliseconds, use ``read(_:)`` or
    /// ``readElsewhere(_:)``: on the calling thread (an event loop) a search made lookups wait behind it.
    func readHere<T>(_ body: (Database) throws -> T) throws -> T {
        let start = StoreMetrics.now
        defer { self.metrics.readTime.recordNanoseconds(StoreMetrics.elapsed(since: start)) }
        do {
            if let pointReaders = self.pointReaders { return try pointReaders.read(body) }
            return try self.dbWriter.unsafeRead(body)
        } catch {
            throw Self.translateStorage(error)
        }
    }

    /// A read's or a write's error as the store reports it: GRDB's errors become ``InventoryError``s (``translate(_:)``).
    static func translateStorage(_ error: any Error) -> any Error {
        (error as? DatabaseError).map(Self.translate) ?? error
    }

    static func translate(_ error: DatabaseError) -> InventoryError {
        switch error.extendedResultCode {
        case .SQLITE_CONSTRAINT_UNIQUE:
            return InventoryError(.duplicate, "a record with the same unique value already exists", cause: error)
        case .SQLITE_CONSTRAINT_FOREIGNKEY, .SQLITE_CONSTRAINT_TRIGGER:
            return InventoryError(.inUse, "the record is still referenced by other records", cause: error)
        default:
            if ProcessInfo.processInfo.environment["STOCKROOM_DEBUG_SQL"] != nil { print("SQL error: \(error)") }
            return InventoryError(.storage, "the database failed; see the server log", cause: error)
        }
    }

    static var now: Int64 { Instant.now.milliseconds }

    // MARK: - Settings

    /// The shop's settings. Nearly every request needs them (currency, time zone), so they are kept for up to a second
    /// after a read; a change committed through this repository (``CacheInvalidator``) or a restore is seen at once,
    /// one made by another process on the same file within a second.
    public func settings() async throws -> ShopSettings {
        try await self.settingsCache.value(for: 0) { try self.readHere { db in try Self.loadSettings(db) } }!
    }

    /// The stored settings, parsed strictly and checked by the domain's rules: a value that is not a number, or out
    /// of range, throws an ``InventoryError`` naming the setting (it never becomes a default or an overflow).
    static func loadSettings(_ db: Database) throws -> ShopSettings {
        var values: [String: String] = [:]
        for row in try Row.fetchAll(db.cachedStatement(sql: "SELECT key, value FROM setting")) { values[row[0]] = row[1] }
        // Every write reads the settings in its transaction; parsing them is a pure function of the stored values, so
        // the last parse is reused while the values are the same.
        if let last = Self.lastSettings.withLock({ $0 }), last.values == values { return last.settings }
        let settings = try ShopSettings(storedValues: values)
        Self.lastSettings.withLock { $0 = (values, settings) }
        return settings
    }

    private static let lastSettings = Mutex<(values: [String: String], settings: ShopSettings)?>(nil)

    /// Reads and checks the stored settings once, so a damaged value stops the server at start with a clear message
    /// naming it instead of failing requests later.
    /// - Throws: ``InventoryError`` naming the setting.
    func requireValidSettings(path: String) throws {
        do {
            _ = try self.dbWriter.read { db in try Self.loadSettings(db) }
        } catch let error as InventoryError {
            let key = error.field ?? "?"
            throw InventoryError(.invalidValue, field: error.field, """
                the stored setting \(key) in \(path) is invalid: \(error.userMessage). Restore a backup, or go back to the default \
                with: sqlite3 '\(path)' "DELETE FROM setting WHERE key = '\(key)'"
                """)
        }
    }

    public func saveSettings(_ settings: ShopSettings) async throws {
        let settings = try settings.validated()
        try await self.write { db, old, log in
            try old.checkCurrencyChange(to: settings, amountsBooked: try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM movement)") ?? false)
            try old.checkPriceMeaningChange(to: settings, salesBooked: try Self.salesBooked(db))
            for (key, value) in settings.storedValues {
                try db.execute(sql: "INSERT INTO setting (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                               arguments: [key, value])
            }
            if old.timeZoneIdentifier != settings.timeZoneIdentifier {
                try Self.rebucketDays(db, calendar: settings.calendar)
            }
            try log.record(.settingsChanged, changes: ShopActivity.Change.between(old, settings))
        }
    }

    static func salesBooked(_ db: Database) throws -> Bool {
        try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM document WHERE kind = 'sale')") ?? false
    }

    public func reprice(pricesIncludeTax: Bool) async throws -> Int {
        let repriced = try await self.write { db, old, log -> Int in
            guard old.pricesIncludeTax != pricesIncludeTax else { return 0 }
            let rows = try Row.fetchAll(db, sql: "SELECT id FROM product ORDER BY id")
            for row in rows {
                let before = try Self.fetchProduct(db, ProductID(row[0]))
                var after = before
                after.details = before.details.repriced(toIncludeTax: pricesIncludeTax)
                guard after != before else { continue }
                try db.execute(sql: "UPDATE product SET salePrice = ?, minimumSalePrice = ?, updatedAt = ? WHERE id = ?",
                               arguments: [after.details.salePrice.minorUnits, after.details.minimumSalePrice?.minorUnits, Self.now, before.id.rawValue])
                try log.recordProductChanged(old: before, new: after)
            }
            try db.execute(sql: "INSERT INTO setting (key, value) VALUES ('pricesIncludeTax', ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                           arguments: [pricesIncludeTax ? "1" : "0"])
            var new = old
            new.pricesIncludeTax = pricesIncludeTax
            try log.record(.settingsChanged, changes: ShopActivity.Change.between(old, new))
            return rows.count
        }
        return repriced
    }

    /// Recomputes every stored report day after a time-zone change.
    static func rebucketDays(_ db: Database, calendar: ShopCalendar) throws {
        for table in ["document", "movement"] {
            let rows = try Row.fetchAll(db, sql: "SELECT id, effectiveAt FROM \(table)")
            let update = try db.makeStatement(sql: "UPDATE \(table) SET day = ? WHERE id = ?")
            for row in rows {
                try update.execute(arguments: [calendar.dayNumber(milliseconds: row[1]), row[0] as Int64])
            }
        }
        try SalesSummary.rebuild(db)
    }

    // MARK: - Search keys

    /// Lower-case, accent-free text for case- and accent-insensitive search.
    static func searchKey(_ parts: String?...) -> String {
        SearchText.key(parts)
    }

    /// A LIKE pattern matching the folded search text anywhere (``SearchText/likePattern(_:)``).
    static func likePattern(_ text: String) -> String {
        SearchText.likePattern(text)
    }

    /// The folded search text with LIKE's `%`, `_` and the escape character `\\` escaped (``SearchText/likeEscaped(_:)``).
    static func likeEscaped(_ text: String) -> String {
        SearchText.likeEscaped(text)
    }
}

extension InventorySQLiteRepository {
    /// Every row of every table as text, for tests that prove a refused command changed nothing.
    public func testOnly_dump() async throws -> String {
        try await self.read { db in
            var lines: [String] = []
            for table in ["setting", "category", "supplier", "customer", "product", "productPicture", "document", "movement", "productSalesYear", "user", "parkedSale", "parkedSaleLine", "salePayment", "paymentRefund", "drawerSession", "cashMovement", "customerCard", "optionGroup", "productOption", "saleLineOption", "recipeComponent", "shopLogo", "stocktake", "stocktakeLine"] {
                for row in try Row.fetchAll(db, sql: "SELECT * FROM \(table) ORDER BY 1") {
                    lines.append("\(table): \(row.description)")
                }
            }
            return lines.joined(separator: "\n")
        }
    }
}

extension InventorySQLiteRepository {
    /// The value of a PRAGMA on a reading connection (e.g. `journal_mode`, `synchronous`), or on the writer's.
    public func pragma(_ name: String, onTheWriter: Bool = false) async throws -> String {
        guard name.allSatisfy({ $0.isLetter || $0 == "_" }) else {
            throw InventoryError(.invalidValue, field: "pragma", "not a pragma name")
        }
        if onTheWriter {
            return try await self.dbWriter.writeWithoutTransaction { db in try String.fetchOne(db, sql: "PRAGMA \(name)") ?? "" }
        }
        return try await self.read { db in try String.fetchOne(db, sql: "PRAGMA \(name)") ?? "" }
    }
}

/// Values read from the database, each kept for up to ``lifetime`` after its read, so that what nearly every request
/// needs (the settings, the caller's session) costs no database read. ``invalidate()`` drops them all; a read that
/// began before an invalidation does not store what it read (its generation is older), so a change made through this
/// repository is seen by the next request, and one made by another process on the same file within ``lifetime``.
package final class RecentReads<Key: Hashable & Sendable, Value: Sendable>: Invalidatable {
    private struct Entry {
        var value: Value
        var readAt: ContinuousClock.Instant
    }
    private struct State {
        var entries: [Key: Entry] = [:]
        var generation = 0
    }
    let lifetime: Duration
    /// At most this many values are kept; a full cache drops the expired ones, or all of them when none has expired.
    let capacity: Int
    private let state = Mutex(State())
    /// Lookups answered from the cache and lookups that read (``StoreMetrics``).
    private let hits: Counter, misses: Counter

    package init(name: String, lifetime: Duration = .seconds(1), capacity: Int = 4096) {
        self.lifetime = lifetime
        self.capacity = capacity
        self.hits = Counter(label: "stockroom_cache_lookups_total", dimensions: [("cache", name), ("result", "hit")])
        self.misses = Counter(label: "stockroom_cache_lookups_total", dimensions: [("cache", name), ("result", "miss")])
    }

    /// The value kept for `key` if it is fresh, and the generation a read made now must hand to ``store(_:for:generation:)``.
    func current(_ key: Key) -> (Value?, Int) {
        self.state.withLock { state in
            guard let entry = state.entries[key], ContinuousClock.now - entry.readAt < self.lifetime else { return (nil, state.generation) }
            return (entry.value, state.generation)
        }
    }

    /// Keeps `value` for `key`, unless the cache was invalidated since the read began (`generation` is older).
    func store(_ value: Value, for key: Key, generation: Int) {
        self.state.withLock { state in
            guard state.generation == generation else { return }
            let now = ContinuousClock.now
            if state.entries.count >= self.capacity && state.entries[key] == nil {
                state.entries = state.entries.filter { now - $0.value.readAt < self.lifetime }
                if state.entries.count >= self.capacity { state.entries.removeAll(keepingCapacity: true) }
            }
            state.entries[key] = Entry(value: value, readAt: now)
        }
    }

    /// The value kept for `key` when fresh; otherwise what `read` answers, kept unless an invalidation overtook it
    /// (nil answers are not kept).
    package func value(for key: Key, read: () async throws -> Value?) async rethrows -> Value? {
        let (cached, generation) = self.current(key)
        if let cached {
            self.hits.increment()
            return cached
        }
        self.misses.increment()
        let value = try await read()
        if let value { self.store(value, for: key, generation: generation) }
        return value
    }

    /// Drops every value; reads already under way will not store theirs.
    package func invalidate() {
        self.state.withLock { state in
            state.entries.removeAll(keepingCapacity: true)
            state.generation += 1
        }
    }

    /// How many values are kept (fresh or not), for tests.
    var count: Int { self.state.withLock { $0.entries.count } }
}

/// Something that keeps reads and can drop them.
protocol Invalidatable: AnyObject, Sendable {
    func invalidate()
}

/// Watches the writer's transactions (GRDB's `TransactionObserver`) and, when one that changed a watched table commits,
/// drops that table's kept reads. Every write path (a route, an import, the ledger, a migration of another kind) is
/// covered without a call of its own; a rolled-back transaction drops nothing.
final class CacheInvalidator: TransactionObserver, Sendable {
    private let caches: [String: [any Invalidatable]]
    /// For a table listed here, an update matters only when it sets one of these columns (a sale updates a product's
    /// stock, which no kept read of the product table holds).
    private let updatedColumns: [String: Set<String>]
    /// Tables changed by the transaction under way (touched only on the writer's queue; a lock keeps it Sendable).
    private let changed = Mutex(Set<String>())

    init(_ caches: [String: [any Invalidatable]], updatedColumns: [String: Set<String>] = [:]) {
        self.caches = Dictionary(uniqueKeysWithValues: caches.map { ($0.key.lowercased(), $0.value) })
        self.updatedColumns = Dictionary(uniqueKeysWithValues: updatedColumns.map { ($0.key.lowercased(), Set($0.value.map { $0.lowercased() })) })
    }

    var allCaches: [any Invalidatable] { self.caches.values.flatMap { $0 } }

    func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool {
        let table = eventKind.tableName.lowercased()
        guard self.caches[table] != nil else { return false }
        if case .update(_, let columns) = eventKind, let watched = self.updatedColumns[table] {
            return columns.contains { watched.contains($0.lowercased()) }
        }
        return true
    }

    func databaseDidChange(with event: DatabaseEvent) {
        let table = event.tableName.lowercased()
        _ = self.changed.withLock { $0.insert(table) }
    }

    func databaseDidCommit(_ db: Database) {
        let tables = self.changed.withLock { changed in
            defer { changed.removeAll() }
            return changed
        }
        for table in tables {
            for cache in self.caches[table] ?? [] { cache.invalidate() }
        }
    }

    func databaseDidRollback(_ db: Database) {
        self.changed.withLock { $0.removeAll() }
    }
}

extension InventorySQLiteRepository: DatabaseHealth {
    public var databaseKind: String { "sqlite" }

    /// Whether the file answers a trivial read (it does unless the disk or the file has gone) and takes writes (it
    /// does not once a flush of its log has failed: ``WALFlusher``).
    public func databaseReachable() async -> Bool {
        guard self.coalescer.flusher?.failure == nil else { return false }
        return (try? await self.read { db in try Int.fetchOne(db, sql: "SELECT 1") }) == 1
    }
}
