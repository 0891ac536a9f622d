import Foundation
import InventoryDomain
import InventoryStore
import Logging
import NIOCore
import PostgresNIO

/// The shop's books in a PostgreSQL database (PostgresNIO's connection pool, no ORM), for shops that run several
/// `stockroom serve` instances against one database (issue 13).
///
/// Every storage protocol is ported and runs the same conformance suites as SQLite (`Tests/InventoryStoreTests`,
/// ``Backend/postgres``): settings, catalogue, the books, reports, CSV, tabs, the drawer, customer cards, stocktakes,
/// staff and the whole-shop backup (the portable SQLite file, see `InventoryPostgresRepository+Backup.swift`); pictures'
/// bytes are in the database (``PictureFileRepository``), and a database out of reach is refused as `unavailable`
/// within seconds (`PostgresAvailability.swift`). Live events reach every instance over `LISTEN/NOTIFY`
/// (`PostgresLiveEvents.swift`).
///
/// Each write is one transaction at `READ COMMITTED` that locks what it changes; a serialization failure or a
/// deadlock (SQLSTATE 40001, 40P01) is retried inside (``write(_:)``), never surfaced.
///
/// **Live events across instances.** ``activityFeed`` publishes every committed write of every instance on the same
/// database and schema, once, in commit order: this instance's when its write commits, the others' as they arrive over
/// `LISTEN/NOTIFY` (``PostgresLiveEvents``: a write notifies the audit rows it added, inside its transaction; the
/// listener reads them back). Listening starts when someone first observes the feed, on a connection of its own that
/// is made again when it drops, and stops when the repository is released; ``liveEventsConnected`` says whether it
/// listens now. Activities committed elsewhere while it was not listening are not replayed.
public final class InventoryPostgresRepository: Sendable {
    let client: PostgresClient
    let location: PostgresLocation
    let logger: Logger
    /// Where backups and restores work on files (``scratchFolder``); nil: the system's temporary folder.
    let scratch: String?
    private let running: Task<Void, Never>
    /// Every committed write's activities, this instance's and — once observed — every other instance's on the same
    /// database, for the server's live events (``ActivitySource``, ``PostgresLiveEvents``).
    public let activityFeed: ActivityFeed
    let liveEvents: PostgresLiveEvents
    /// The settings, which nearly every request reads (the lock's minutes, the currency), kept for up to a second
    /// after a read. A change committed on this instance drops them at once, one on another instance as soon as its
    /// notification arrives (``PostgresLiveEvents``), and otherwise the second runs out.
    let settingsCache = RecentReads<Int, ShopSettings>(name: "settings", capacity: 1)

    /// Connects to the database (creating the URL's schema when it names one) and migrates it.
    /// - Throws: ``InventoryError`` (`storage`, field `database`) when the server cannot be reached or the schema is
    ///   not one this build can use; the message never holds the password.
    /// - Parameter scratchFolder: where backups and restores work on files (the server's data folder); nil: the system's
    ///   temporary folder.
    public static func open(_ location: PostgresLocation, maximumConnections: Int = 20, scratchFolder: String? = nil) async throws -> InventoryPostgresRepository {
        let repository = InventoryPostgresRepository(location, maximumConnections: maximumConnections, scratchFolder: scratchFolder)
        do {
            // Through `lease`: a server that does not answer is reported within seconds, not after the pool's minute.
            _ = try await repository.lease { connection in
                _ = try await PostgresSchema.migrate(connection, schema: location.schema, logger: repository.logger)
                // Sales an instance committed but did not live to number.
                _ = await repository.numberReceipts(on: connection, waitingFor: nil)
            }
            // Settings out of range (written behind the server's back) stop it at start, naming the setting, as on SQLite.
            _ = try await repository.settings()
        } catch let error as InventoryError where error.code == .unavailable {
            throw InventoryError(.unavailable, field: "database", "cannot reach the database \(location): is PostgreSQL running and accepting connections there?",
                                 cause: Self.sendable(error))
        } catch let error as InventoryError {
            throw error
        } catch {
            throw InventoryError(.storage, field: "database", "cannot use the database \(location): \(Self.describe(error))", cause: Self.sendable(error))
        }
        return repository
    }

    /// A repository on `location` that has neither connected nor migrated (what a server whose database is out of
    /// reach holds; tests).
    static func unopened(_ location: PostgresLocation, maximumConnections: Int) -> InventoryPostgresRepository {
        InventoryPostgresRepository(location, maximumConnections: maximumConnections, scratchFolder: nil)
    }

    private init(_ location: PostgresLocation, maximumConnections: Int, scratchFolder: String?) {
        self.scratch = scratchFolder
        var configuration = PostgresClient.Configuration(
            host: location.host, port: location.port, username: location.username, password: location.password, database: location.database,
            tls: Self.tls(location.tls))
        configuration.options.maximumConnections = maximumConnections
        configuration.options.minimumConnections = 0
        configuration.options.connectionIdleTimeout = .seconds(30)
        if let schema = location.schema {
            configuration.options.additionalStartupParameters = [("search_path", "\(schema), public")]
        }
        configuration.options.additionalStartupParameters.append(("application_name", "stockroom"))
        self.location = location
        self.logger = Logger(label: "stockroom.postgres")
        let client = PostgresClient(configuration: configuration)
        self.client = client
        self.running = Task { await client.run() }
        // Listening starts with the first observer, so a one-shot command (which observes nothing) never opens the
        // listening connection. The feed holds the listener weakly; the listener's task ends in deinit.
        let liveEvents = PostgresLiveEvents(location, logger: self.logger, settingsCache: self.settingsCache)
        self.liveEvents = liveEvents
        self.activityFeed = ActivityFeed(whenObserved: { [weak liveEvents] feed in liveEvents?.start(publishingTo: feed) })
    }

    deinit {
        self.liveEvents.stop()
        self.running.cancel()
    }

    /// Whether this instance hears the other instances' activities now: its listening connection is open and listening.
    /// False until someone observes ``activityFeed``, and while the connection is being made again after it dropped
    /// (activities committed meanwhile on other instances are not replayed). Cheap: one lock, no I/O.
    public var liveEventsConnected: Bool { self.liveEvents.isConnected }

    static func tls(_ mode: PostgresLocation.TLSMode) -> PostgresClient.Configuration.TLS {
        switch mode {
        case .disable: return .disable
        case .prefer: return .prefer(.makeClientConfiguration())
        case .require: return .require(.makeClientConfiguration())
        }
    }

    /// The names of the migrations applied, in order.
    public func appliedMigrations() async throws -> [String] {
        try await self.read { connection in
            try await connection.query("SELECT name FROM stockroom_migration ORDER BY position", logger: self.logger).collect(String.self)
        }
    }

    static var now: Instant { Instant.now }

    // MARK: - Transactions

    /// How many times a write is tried when PostgreSQL aborts it for a serialization failure or a deadlock.
    static let attempts = 8

    /// Runs `body` as one all-or-nothing write with the shop's settings and an ``ActivityLog`` (its activities go to the
    /// audit log in the same transaction, attributed to ``Agent/current``, and to ``activityFeed`` once committed; a
    /// notification naming their audit rows, sent just after the commit, carries them to the other instances).
    /// Retried from the start on a serialization failure or deadlock; any other error rolls back and is thrown as an
    /// ``InventoryError``. `afterCommit`, if given, runs on the same connection once the transaction has committed (see
    /// ``transaction(_:afterCommit:)``).
    func write<T: Sendable>(
        _ body: @escaping @Sendable (PostgresConnection, ShopSettings, PostgresActivityLog) async throws -> T,
        afterCommit: (@Sendable (PostgresConnection, T) async -> T)? = nil
    ) async throws -> T {
        let agent = Agent.current
        return try await self.transaction({ connection in
            let settings = try await Self.loadSettings(connection, logger: self.logger)
            let log = PostgresActivityLog(connection, agent: agent, currency: settings.currency, logger: self.logger)
            let value = try await body(connection, settings, log)
            try await log.noteLowStock(settings)
            return Committing(value: value, activities: log.activities, auditIDs: log.auditIDs)
        }, afterCommit: afterCommit)
    }

    /// What a transaction's body answers: its value, the activities for ``activityFeed`` and the audit rows to announce
    /// to the other instances once it has committed.
    struct Committing<T: Sendable>: Sendable {
        var value: T
        var activities: [ShopActivity] = []
        var auditIDs: [Int64] = []
    }

    /// Runs `body` in one `READ COMMITTED` transaction, tried again from the start on a serialization failure or
    /// deadlock; any other error rolls back and is thrown as an ``InventoryError``. Once it has committed, on the same
    /// connection: the audit rows it names are announced (``PostgresLiveEvents``) and `afterCommit` runs; then its
    /// activities go to ``activityFeed``. (``write(_:afterCommit:)`` is this with the settings read first and stock
    /// alerts noted.)
    ///
    /// Nothing after the commit is held to it: the commit is what makes the write durable, and a statement there that
    /// fails (the connection lost just after the commit) is logged, not thrown, since the write did happen. Keeping
    /// them out of the transaction keeps its locks short: `pg_notify` takes a database-wide lock from the commit until
    /// the commit is on disk, so inside the transaction it made every write wait for every other write's disk flush.
    func transaction<T: Sendable>(
        _ body: @escaping @Sendable (PostgresConnection) async throws -> Committing<T>,
        afterCommit: (@Sendable (PostgresConnection, T) async -> T)? = nil
    ) async throws -> T {
        var attempt = 1
        while true {
            do {
                let outcome = try await self.lease(operation: .write) { connection in
                    var outcome = try await self.inTransaction(connection) { try await body(connection) }
                    await self.liveEvents.announce(outcome.auditIDs, on: connection, logger: self.logger)
                    if let afterCommit { outcome.value = await afterCommit(connection, outcome.value) }
                    return outcome
                }
                if Self.changeSettings(outcome.activities) { self.settingsCache.invalidate() }
                self.activityFeed.publish(outcome.activities)
                return outcome.value
            } catch {
                if attempt < Self.attempts, Self.isTransient(error) {
                    attempt += 1
                    try await Task.sleep(for: .milliseconds(Int.random(in: 1...(5 * attempt))))
                    continue
                }
                throw Self.translate(error)
            }
        }
    }

    /// Whether activities changed the settings (or replaced them all, a restore).
    static func changeSettings(_ activities: [ShopActivity]) -> Bool {
        activities.contains { $0.kind == .settingsChanged || $0.kind == .backupRestored }
    }

    /// A read in one transaction (one snapshot: `REPEATABLE READ, READ ONLY`).
    func read<T: Sendable>(_ body: @escaping @Sendable (PostgresConnection) async throws -> T) async throws -> T {
        do {
            return try await self.lease(operation: .read) { connection in
                try await self.inTransaction(connection, begin: "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY") { try await body(connection) }
            }
        } catch {
            throw Self.translate(error)
        }
    }

    private func inTransaction<T: Sendable>(
        _ connection: PostgresConnection, begin: String = "BEGIN", _ body: () async throws -> T
    ) async throws -> T {
        try await connection.execute(PostgresQuery(unsafeSQL: begin), logger: self.logger)
        do {
            let value = try await body()
            try await connection.execute("COMMIT", logger: self.logger)
            return value
        } catch {
            try? await connection.execute("ROLLBACK", logger: self.logger)
            throw error
        }
    }

    /// Whether PostgreSQL aborted the transaction for a serialization failure or a deadlock (worth a retry).
    static func isTransient(_ error: any Error) -> Bool {
        guard let error = error as? PSQLError, let state = error.serverInfo?[.sqlState] else { return false }
        return state == "40001" || state == "40P01"
    }

    /// A database error as an ``InventoryError``: a unique violation is `duplicate`, a foreign-key violation `inUse`,
    /// anything else `storage` (details for the log only).
    static func translate(_ error: any Error) -> InventoryError {
        if let error = error as? InventoryError { return error }
        if Self.isUnreachable(error) { return Self.lost(error) }
        if let psql = error as? PSQLError, let state = psql.serverInfo?[.sqlState] {
            switch state {
            case "23505": return InventoryError(.duplicate, "a record with the same unique value already exists", cause: Self.sendable(error))
            case "23503": return InventoryError(.inUse, "the record is still referenced by other records", cause: Self.sendable(error))
            default: break
            }
        }
        if ProcessInfo.processInfo.environment["STOCKROOM_DEBUG_SQL"] != nil { print("SQL error: \(String(reflecting: error))") }
        return InventoryError(.storage, "the database failed; see the server log", cause: Self.sendable(error))
    }

    static func sendable(_ error: any Error) -> (any Error & Sendable)? { error }

    /// What went wrong, for a message: PostgreSQL's own words when it sent any.
    static func describe(_ error: any Error) -> String {
        if let psql = error as? PSQLError {
            if let message = psql.serverInfo?[.message] { return message }
            return "\(psql.code)"
        }
        return "\(error)"
    }
}

extension PostgresRowSequence {
    /// Every row's single column.
    func collect<T: PostgresDecodable & Sendable>(_: T.Type) async throws -> [T] {
        var values: [T] = []
        for try await value in self.decode(T.self) { values.append(value) }
        return values
    }
}

extension InventoryPostgresRepository {
    /// The tables of a shop, in the order ``testOnly_dump()`` writes them.
    static let tables = [
        "setting", "category", "supplier", "customer", "product", "document", "movement", "productSalesYear", "account", "session", "shift",
        "loginThrottle", "auditLog", "idempotencyKey", "productPicture", "pictureFile", "parkedSale", "parkedSaleLine", "salePayment",
        "paymentRefund", "drawerSession", "cashMovement", "customerCard", "optionGroup", "productOption", "saleLineOption", "recipeComponent",
        "shopLogo", "stocktake", "stocktakeLine",
    ]

    /// Every row of every table as text, in a fixed order: what the conformance suites compare to show that a refused
    /// write changed nothing.
    public func testOnly_dump() async throws -> String {
        try await self.read { connection in
            var text = ""
            for table in Self.tables {
                text += "== \(table)\n"
                for row in try await connection.query(PostgresQuery(unsafeSQL: "SELECT t::text FROM \(table) t ORDER BY 1"), logger: self.logger)
                    .collect(String.self) { text += row + "\n" }
            }
            return text
        }
    }
}

extension PostgresConnection {
    /// Runs a statement to its end, reading and dropping any rows: an error it meets (a deadlock while it waits for a
    /// lock, a violated constraint) is thrown here, not by whichever statement happens to come next.
    func execute(_ query: PostgresQuery, logger: Logger) async throws {
        for try await _ in try await self.query(query, logger: logger) {}
    }
}
