import GRDB
import InventoryDomain

extension InventorySQLiteRepository {
    /// Books a new document at most once per ``IdempotencyKey``: in the same transaction as the booking, a key seen
    /// before (within its lifetime) answers the document booked then — or is refused when it came with another
    /// request — and a new key is stored with the document it booked. A refused booking stores no key, so the
    /// client may retry it. `book` records the document's activity in the log it is given; a replay records none.
    func writeOnce<T: Sendable>(
        _ key: IdempotencyKey?, kind: MovementKind,
        book: @escaping @Sendable (Database, ShopSettings, ActivityLog) throws -> (documentID: Int64, record: T),
        replay: @escaping @Sendable (Database, Int64) throws -> T
    ) async throws -> Idempotent<T> {
        try await self.write { db, settings, log in
            let now = Self.now
            let oldest = now - IdempotencyKey.lifetimeMilliseconds
            if let key, let row = try Row.fetchOne(db.cachedStatement(sql: """
                SELECT fingerprint, kind, documentId FROM idempotencyKey WHERE userId = ? AND key = ? AND createdAt >= ?
                """), arguments: [key.userID.rawValue, key.key, oldest])
            {
                guard row["fingerprint"] as String == key.fingerprint, row["kind"] as String == kind.rawValue else {
                    throw IdempotencyKey.mismatch(row["kind"] as String)
                }
                let documentID: Int64 = row["documentId"]
                guard try Bool.fetchOne(db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM document WHERE id = ? AND kind = ?)"),
                                        arguments: [documentID, kind.rawValue]) == true
                else {
                    throw InventoryError(.conflict, field: "Idempotency-Key",
                                         "the \(kind.label) \(documentID) booked with this key has since been deleted; send a new key to book it again")
                }
                return Idempotent(record: try replay(db, documentID), replayed: true)
            }
            let (documentID, record) = try book(db, settings, log)
            if let key {
                try db.cachedStatement(sql: "DELETE FROM idempotencyKey WHERE createdAt < ?").execute(arguments: [oldest])
                try db.cachedStatement(sql: """
                    INSERT OR REPLACE INTO idempotencyKey (userId, key, fingerprint, kind, documentId, createdAt) VALUES (?, ?, ?, ?, ?, ?)
                    """).execute(arguments: [key.userID.rawValue, key.key, key.fingerprint, kind.rawValue, documentID, now])
            }
            return Idempotent(record: record, replayed: false)
        }
    }
}
