import Dispatch
import Foundation
import InventoryDomain
import Metrics
import NIOCore
import PostgresNIO
import Synchronization

// When PostgreSQL cannot be reached (restarting, a network between), a request must not wait for the pool's own
// give-up (a minute): it is refused at once as `unavailable` (HTTP 503 with Retry-After), having done nothing, and the
// pool keeps trying to connect behind it, so the next request after the database is back succeeds.

extension InventoryPostgresRepository: DatabaseHealth {
    public var databaseKind: String { "postgresql" }

    /// Whether `SELECT 1` answers within ``probeTimeout``.
    public func databaseReachable() async -> Bool {
        let answer = try? await self.lease(timeout: Self.probeTimeout) { connection in
            try await connection.query("SELECT 1", logger: self.logger).collect(Int.self).first
        }
        return answer == 1
    }

    /// How long a readiness probe waits.
    static var probeTimeout: Duration { .seconds(2) }
    /// How long a request waits for a connection before it is refused as unavailable: long enough for a busy pool,
    /// short enough for a till to hear at once that the database is down.
    static var leaseTimeout: Duration { .seconds(5) }

    /// Runs `body` on a pooled connection, or throws ``InventoryError/Code/unavailable`` when none is had within
    /// `timeout`. Only the wait for a connection is bounded: once `body` has begun it runs to its end (a write cut off
    /// between its COMMIT and the answer could not say whether it was booked).
    /// Each body's time is measured as `stockroom_database_seconds{operation}` (`read`, `write`, `statement`), as the
    /// SQLite store measures its reads and transactions.
    func lease<T: Sendable>(timeout: Duration = InventoryPostgresRepository.leaseTimeout, operation: Operation = .statement,
                            _ body: @Sendable (PostgresConnection) async throws -> T) async throws -> T {
        // `began` and `gaveUp` are decided under one lock: either the body starts, or the wait gives up, never both.
        let state = LeaseState()
        return try await withoutActuallyEscaping(body) { body in
            try await withThrowingTaskGroup(of: T?.self) { group in
                group.addTask {
                    try await self.client.withConnection { connection in
                        let begin = state.decided.withLock { state -> Bool in
                            guard !state.gaveUp else { return false }
                            state.began = true
                            return true
                        }
                        guard begin else { throw Self.unavailable(nil) }
                        let started = DispatchTime.now().uptimeNanoseconds
                        defer { operation.timer.recordNanoseconds(Int64(clamping: DispatchTime.now().uptimeNanoseconds &- started)) }
                        return try await body(connection)
                    }
                }
                group.addTask {
                    try? await Task.sleep(for: timeout)
                    let giveUp = state.decided.withLock { state -> Bool in
                        guard !state.began else { return false }
                        state.gaveUp = true
                        return true
                    }
                    if giveUp { throw Self.unavailable(nil) }
                    return nil
                }
                while let next = try await group.next() {
                    if let value = next {
                        group.cancelAll()
                        return value
                    }
                }
                throw Self.unavailable(nil)
            }
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
    let decided = Mutex<(began: Bool, gaveUp: Bool)>((false, false))
}
