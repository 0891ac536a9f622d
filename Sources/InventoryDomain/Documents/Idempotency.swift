/// A client's promise that a request is the one it may already have sent: a retried sale after a lost answer
/// carries the same key, and is answered with the sale booked the first time instead of being booked again.
///
/// Keys belong to the user who sent them; the same key with a different request (another body, another kind of
/// document) is refused. A key is kept ``lifetimeMilliseconds`` (at least the 24 hours clients may retry within).
public struct IdempotencyKey: Sendable, Hashable {
    /// How long a key is remembered.
    public static let lifetimeMilliseconds: Int64 = 48 * 3_600_000
    /// The longest key accepted.
    public static let maximumLength = 255

    /// Who sent it.
    public let userID: UserID
    /// The client's key (visible ASCII).
    public let key: String
    /// A digest of the request the key was first used with (method, path and body).
    public let fingerprint: String

    /// Checks the key.
    /// - Throws: ``InventoryError`` naming `Idempotency-Key` when it is empty, longer than ``maximumLength`` or not
    ///   visible ASCII.
    public init(userID: UserID, key: String, fingerprint: String) throws {
        guard !key.isEmpty, key.utf8.count <= Self.maximumLength, key.utf8.allSatisfy({ (0x21...0x7E).contains($0) }) else {
            throw InventoryError(.invalidValue, field: "Idempotency-Key",
                                 "must be 1 to \(Self.maximumLength) visible ASCII characters (a UUID is a good key)")
        }
        self.userID = userID
        self.key = key
        self.fingerprint = fingerprint
    }

    /// The refusal for a key first used with another request.
    public static func mismatch(_ kind: String) -> InventoryError {
        InventoryError(.conflict, field: "Idempotency-Key",
                       "this key was first used with a different request (\(kind)); send a new key for a new document")
    }
}

/// What a write that may have been done before answers: the record, and whether it was booked by an earlier request
/// with the same ``IdempotencyKey`` (then nothing was booked now).
public struct Idempotent<Record: Sendable>: Sendable {
    public var record: Record
    public var replayed: Bool

    public init(record: Record, replayed: Bool) {
        self.record = record
        self.replayed = replayed
    }
}
