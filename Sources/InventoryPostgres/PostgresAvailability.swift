import Dispatch
import Foundation
import InventoryDomain
import Metrics
import NIOCore
import PostgresNIO
import Synchronization

// When PostgreSQL cannot be reached (restarting, a network between), a request must not wait for the pool's own
// give-up (a minute): it is refused within seconds as `unavailable` (HTTP 503 with Retry-After), having done nothing,
// and the pool keeps trying to connect behind it, so the next request after the database is back succeeds.

extension InventoryPostgresRepository: DatabaseHealth {
    public var databaseKind: String { "postgresql" }

    /// Whether the database answers `SELECT 1`: through the pool when a connection is free within ``probeTimeout``, else
    /// on a connection of its own (a pool busy with long writes is not a database out of reach).
    public func databaseReachable() async -> Bool {
        let answer = try? await self.lease(timeout: Self.probeTimeout, probing: false) { connection in
            try await connection.query("SELECT 1", logger: self.logger).collect(Int.self).first
        }
        if answer == 1 { return true }
        return await self.probeDirectly()
    }

    /// How long a readiness probe waits for the pool.
    static var probeTimeout: Duration { .seconds(2) }
    /// How long a probe on a connection of its own may take: generous, since a database that is down refuses the
    /// connection at once, while a loaded machine may take seconds to answer one that is up.
    static var directProbeTimeout: Duration { .seconds(10) }
    /// How long a request waits for a connection before the database is asked directly whether it answers.
    static var leaseTimeout: Duration { .seconds(3) }

    /// Runs `body` on a pooled connection. While it waits for one, every `timeout` the database is asked on a
    /// connection of its own whether it answers: when it does not, twice in a row, the wait gives up with
    /// ``InventoryError/Code/unavailable`` (nothing done), so a till hears within seconds that the database is down;
    /// when it does, the pool is only busy and the wait goes on. Once `body` has begun it runs to its end (a write cut
    /// off between its COMMIT and the answer could not say whether it was booked). Each body's time is measured as
    /// `stockroom_database_seconds{operation}` (`read`, `write`, `statement`), as the SQLite store measures its reads
    /// and transactions.
    /// - Parameter probing: false: give up after the first `timeout` without asking (the probe itself).
    func lease<T: Sendable>(timeout: Duration = InventoryPostgresRepository.leaseTimeout, operation: Operation = .statement, probing: Bool = true,
                            _ body: @escaping @Sendable (PostgresConnection) async throws -> T) async throws -> T {
        let state = LeaseState()
        return try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
            let answer = LeaseAnswer(continuation)
            // Not a child task: a wait given up must not wait for the pool to notice (it may take its own minute).
            Task {
                do {
                    answer.resume(with: .success(try await self.client.withConnection { connection in
                        guard state.begin(on: connection) else { throw Self.unavailable(nil) }
                        let started = DispatchTime.now().uptimeNanoseconds
                        defer { operation.timer.recordNanoseconds(Int64(clamping: DispatchTime.now().uptimeNanoseconds &- started)) }
                        return try await body(connection)
                    }))
                } catch let error as InventoryError {
                    answer.resume(with: .failure(error))
                } catch {
                    // Thrown before the body began, it is the pool's own give-up (its circuit breaker, after failing to
                    // connect for a while, or a pool shut down): no connection was had and nothing was done.
                    answer.resume(with: .failure(state.began ? error : Self.unavailable(error)))
                }
            }
            // The watchdog. Before the body begins: every `timeout`, is the database there at all? After: has the
            // connection closed under the body? (PostgresNIO 1.33.2 leaves a query waiting for a row lock unanswered
            // when PostgreSQL shuts down; the request is answered `unavailable` instead of never.)
            answer.watchdog = Task {
                var waited = Duration.zero
                var failedProbes = 0
                while !answer.isDone {
                    do { try await Task.sleep(for: .seconds(1)) } catch { return }
                    guard !answer.isDone else { return }
                    if let connection = state.connection {
                        if connection.isClosed {
                            answer.resume(with: .failure(Self.lost(ConnectionClosedUnderRequest())))
                            return
                        }
                        continue
                    }
                    waited += .seconds(1)
                    guard waited >= timeout else { continue }
                    waited = .zero
                    if probing {
                        // Two probes in a row must fail: one slow answer on a loaded machine is not an outage.
                        if await self.probeDirectly() {
                            failedProbes = 0
                            continue
                        }
                        failedProbes += 1
                        if failedProbes < 2 { continue }
                    }
                    if state.giveUp() { answer.resume(with: .failure(Self.unavailable(nil))) }
                    return
                }
            }
        }
    }

    /// Whether the database answers `SELECT 1` on a new connection of its own within ``directProbeTimeout``.
    func probeDirectly() async -> Bool {
        var configuration = PostgresConnection.Configuration(
            host: self.location.host, port: self.location.port, username: self.location.username, password: self.location.password,
            database: self.location.database, tls: .disable)
        if self.location.tls != .disable, let context = try? NIOSSLContext(configuration: .makeClientConfiguration()) {
            configuration.tls = self.location.tls == .require ? .require(context) : .prefer(context)
        }
        configuration.options.connectTimeout = .seconds(5)
        let logger = self.logger
        let probe = Task { () -> Bool in
            guard let connection = try? await PostgresConnection.connect(configuration: configuration, id: 0, logger: logger) else { return false }
            defer { Task { try? await connection.close() } }
            return (try? await connection.query("SELECT 1", logger: logger).collect(Int.self).first) == 1
        }
        let deadline = Task { () -> Bool in
            try? await Task.sleep(for: Self.directProbeTimeout)
            return false
        }
        return await withTaskGroup(of: Bool.self) { group in
            group.addTask { await probe.value }
            group.addTask { await deadline.value }
            let first = await group.next() ?? false
            probe.cancel()
            deadline.cancel()
            group.cancelAll()
            return first
        }
    }

    /// The refusal of a request that got no connection: nothing was done.
    static func unavailable(_ cause: (any Error)?) -> InventoryError {
        InventoryError(.unavailable, field: "database", "the database cannot be reached now; nothing was done, try again in a moment",
                       cause: cause.flatMap(Self.sendable))
    }

    /// The refusal of a request whose connection was lost on the way: a write may or may not have committed.
    static func lost(_ cause: any Error) -> InventoryError {
        InventoryError(.unavailable, field: "database",
                       "the connection to the database was lost; send the request again in a moment (a booking sent again with the same Idempotency-Key is booked once)",
                       cause: Self.sendable(cause))
    }

    /// Whether `error` says the database could not be reached or went away mid-request (rather than refusing it).
    static func isUnreachable(_ error: any Error) -> Bool {
        guard let psql = error as? PSQLError else { return false }
        switch psql.code {
        case .connectionError, .serverClosedConnection, .clientClosedConnection, .uncleanShutdown, .poolClosed: return true
        case .server:
            // Class 08: connection exceptions; 57P01–57P03: the server is shutting down or starting up.
            guard let state = psql.serverInfo?[.sqlState] else { return false }
            return state.hasPrefix("08") || ["57P01", "57P02", "57P03"].contains(state)
        default: return false
        }
    }
}

extension InventoryPostgresRepository {
    /// What a lease is for, as the database-time measurement names it.
    enum Operation: Sendable {
        case read, write, statement

        var timer: Timer {
            switch self {
            case .read: Self.readTime
            case .write: Self.writeTime
            case .statement: Self.statementTime
            }
        }

        // Made at first use, after the server has bootstrapped its metrics backend (serve --metrics).
        private static let readTime = Timer(label: "stockroom_database_seconds", dimensions: [("operation", "read")], preferredDisplayUnit: .seconds)
        private static let writeTime = Timer(label: "stockroom_database_seconds", dimensions: [("operation", "write")], preferredDisplayUnit: .seconds)
        private static let statementTime = Timer(label: "stockroom_database_seconds", dimensions: [("operation", "statement")],
                                                 preferredDisplayUnit: .seconds)
    }
}

/// Whether a lease's body began or its wait gave up (one of the two, decided under the lock).
private final class LeaseState: Sendable {
    private let decided = Mutex<(began: Bool, gaveUp: Bool, connection: PostgresConnection?)>((false, false, nil))

    /// The body may begin on `connection` (false: the wait has given up).
    func begin(on connection: PostgresConnection) -> Bool {
        self.decided.withLock { state in
            guard !state.gaveUp else { return false }
            state.began = true
            state.connection = connection
            return true
        }
    }

    /// Whether the body has begun.
    var began: Bool { self.decided.withLock { $0.began } }

    /// The connection the body runs on, once it has begun.
    var connection: PostgresConnection? { self.decided.withLock { $0.connection } }

    /// The wait gives up (false: the body has begun).
    func giveUp() -> Bool {
        self.decided.withLock { state in
            guard !state.began else { return false }
            state.gaveUp = true
            return true
        }
    }

}

/// A lease's answer, given once: the body's outcome, or the refusal of a wait given up.
private final class LeaseAnswer<T: Sendable>: Sendable {
    private let continuation: Mutex<CheckedContinuation<T, any Error>?>

    init(_ continuation: CheckedContinuation<T, any Error>) { self.continuation = Mutex(continuation) }

    /// The watchdog, stopped once the answer is given.
    let watchdogTask = Mutex<Task<Void, Never>?>(nil)

    var watchdog: Task<Void, Never>? {
        get { self.watchdogTask.withLock { $0 } }
        set { self.watchdogTask.withLock { $0 = newValue } }
    }

    func resume(with result: Result<T, any Error>) {
        guard let continuation = self.continuation.withLock({ $0.take() }) else { return }
        continuation.resume(with: result)
        self.watchdogTask.withLock { $0 }?.cancel()
    }

    var isDone: Bool { self.continuation.withLock { $0 == nil } }
}

/// The connection a request's body ran on closed before the body ended.
struct ConnectionClosedUnderRequest: Error {}
