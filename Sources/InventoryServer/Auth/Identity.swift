import Crypto
import Foundation
import HummingbirdBcrypt
import InventoryDomain
import NIOPosix
import Synchronization

/// Who is making a request: the account and the session it came through.
public struct Identity: Sendable {
    public var account: StaffAccount
    public var session: StaffSession

    /// Whether the account's role allows `permission`.
    public func allows(_ permission: Permission) -> Bool { self.account.role.allows(permission) }
}

/// Secrets: random tokens, their SHA-256 for storage, and bcrypt for passwords and PINs (off the event loop).
public struct Secrets: Sendable {
    /// bcrypt cost (work factor); 12 in production, lower only in tests.
    public var bcryptCost: UInt8

    /// Creates the helper.
    public init(bcryptCost: UInt8 = 12) { self.bcryptCost = bcryptCost }

    /// A new random token: 32 bytes from the system's secure generator, URL-safe text.
    public static func newToken() -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        return Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// The stored form of a token.
    public static func hashToken(_ token: String) -> String {
        var token = token
        return token.withUTF8 { SHA256.hash(data: UnsafeRawBufferPointer($0)) }.lowercaseHex
    }

    /// bcrypt hash of a password or PIN.
    public func hash(_ secret: String) async throws -> String {
        let cost = self.bcryptCost
        return try await NIOThreadPool.singleton.runIfActive { Bcrypt.hash(secret, cost: cost) }
    }

    /// A bcrypt hash of a random secret at this cost, made once: unknown usernames are checked against it so that their
    /// answer takes as long as a known user's.
    public func dummyHash() async throws -> String {
        if let hash = Self.dummyHashes.withLock({ $0[self.bcryptCost] }) { return hash }
        let hash = try await self.hash(Self.newToken())
        return Self.dummyHashes.withLock { hashes in
            if let existing = hashes[self.bcryptCost] { return existing }
            hashes[self.bcryptCost] = hash
            return hash
        }
    }
    private static let dummyHashes = Mutex<[UInt8: String]>([:])

    /// Whether `secret` matches a bcrypt hash.
    public func verify(_ secret: String, hash: String) async throws -> Bool {
        try await NIOThreadPool.singleton.runIfActive { Bcrypt.verify(secret, hash: hash) }
    }
}
