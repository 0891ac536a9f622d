import InventoryDomain
import PostgresNIO

extension InventoryPostgresRepository {
    /// Books a new document at most once per ``IdempotencyKey``, whichever instance a retry reaches: in the same
    /// transaction as the booking, a key seen before (within its lifetime) answers the document booked then — or is
    /// refused when it came with another request — and a new key is stored with the document it booked. The key's row
    /// is claimed first (`INSERT … ON CONFLICT DO NOTHING`), so a second request with the same key waits for the first
    /// to commit or roll back instead of booking again. A refused booking stores no key, so the client may retry it.
    func writeOnce<T: Sendable>(
        _ key: IdempotencyKey?, kind: MovementKind,
        book: @escaping @Sendable (PostgresConnection, ShopSettings, PostgresActivityLog) async throws -> (documentID: Int64, record: T),
        replay: @escaping @Sendable (PostgresConnection, Int64) async throws -> T,
        afterCommit: (@Sendable (PostgresConnection, Idempotent<T>) async -> Idempotent<T>)? = nil
    ) async throws -> Idempotent<T> {
        try await self.write({ connection, settings, log in
            guard let key else { return Idempotent(record: try await book(connection, settings, log).record, replayed: false) }
            let now = Self.now
            let oldest = Instant(milliseconds: now.milliseconds - IdempotencyKey.lifetimeMilliseconds)
            try await connection.run("DELETE FROM idempotencyKey WHERE userId = \(key.userID.rawValue) AND key = \(key.key) AND createdAt < \(oldest)",
                                       logger: self.logger)
            // Claim the key (documentId 0 until booked): a concurrent request with it blocks here until this one ends.
            let claimed = try await connection.prepared("""
                INSERT INTO idempotencyKey (userId, key, fingerprint, kind, documentId, createdAt)
                VALUES (\(key.userID.rawValue), \(key.key), \(key.fingerprint), \(kind.rawValue), 0, \(now))
                ON CONFLICT (userId, key) DO NOTHING RETURNING 1
                """, logger: self.logger).collect(Int.self)
            if claimed.isEmpty {
                for try await (fingerprint, storedKind, documentID) in try await connection.prepared("""
                    SELECT fingerprint, kind, documentId FROM idempotencyKey WHERE userId = \(key.userID.rawValue) AND key = \(key.key)
                    """, logger: self.logger).decode((String, String, Int64).self) {
                    guard fingerprint == key.fingerprint, storedKind == kind.rawValue else { throw IdempotencyKey.mismatch(storedKind) }
                    guard try await self.exists("SELECT 1 FROM document WHERE id = \(documentID) AND kind = '\(kind.rawValue)'", connection) else {
                        throw InventoryError(.conflict, field: "Idempotency-Key",
                                             "the \(kind.label) \(documentID) booked with this key has since been deleted; send a new key to book it again")
                    }
                    return Idempotent(record: try await replay(connection, documentID), replayed: true)
                }
            }
            let (documentID, record) = try await book(connection, settings, log)
            try await connection.run("UPDATE idempotencyKey SET documentId = \(documentID) WHERE userId = \(key.userID.rawValue) AND key = \(key.key)",
                                       logger: self.logger)
            // Expired keys, but none another write is deleting: waiting for its commit would serialize the writes.
            try await connection.run("""
                DELETE FROM idempotencyKey WHERE ctid IN (SELECT ctid FROM idempotencyKey WHERE createdAt < \(oldest) FOR UPDATE SKIP LOCKED)
                """, logger: self.logger)
            return Idempotent(record: record, replayed: false)
        }, afterCommit: afterCommit)
    }

    /// Runs `body` exactly as a write would and answers what it returned, then rolls everything back: a dry run (its
    /// row locks are held only while it runs; nothing is committed).
    func dryRun<T: Sendable>(_ body: @escaping @Sendable (PostgresConnection, ShopSettings) async throws -> T) async throws -> T {
        let result = ResultBox<T>()
        do {
            _ = try await self.write { connection, settings, _ -> Int in
                result.value = try await body(connection, settings)
                throw RolledBack()
            }
        } catch let error as InventoryError where error.cause is RolledBack {
            guard let value = result.value else { throw error }
            return value
        }
        guard let value = result.value else { throw InventoryError(.storage, "the dry run did not run its block") }
        return value
    }
}

/// Thrown by a dry run's body to roll its transaction back.
struct RolledBack: Error {}

/// Carries a dry run's answer out of the transaction it rolls back.
final class ResultBox<T: Sendable>: @unchecked Sendable {
    // Set once by the dry run's own task before it throws; read after the write has returned.
    var value: T?
}
