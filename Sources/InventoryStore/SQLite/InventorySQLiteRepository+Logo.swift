import Foundation
import GRDB
import InventoryDomain

/// The receipt logo (``ShopLogo``).
extension InventorySQLiteRepository {
    public func shopLogo() async throws -> ShopLogo? {
        try await self.read { db in
            try Row.fetchOne(db, sql: "SELECT data, contentType, version FROM shopLogo WHERE id = 1").map {
                ShopLogo(bytes: [UInt8]($0[0] as Data), contentType: $0[1], version: $0[2])
            }
        }
    }

    public func shopLogoVersion() async throws -> Int64? {
        try await self.read { db in try Int64.fetchOne(db.cachedStatement(sql: "SELECT version FROM shopLogo WHERE id = 1")) }
    }

    public func setShopLogo(_ bytes: [UInt8]?, contentType: String) async throws -> ShopLogo? {
        if let bytes, bytes.count > ShopLogo.maxBytes {
            throw InventoryError(.invalidValue, field: "body", "a logo is at most \(ShopLogo.maxBytes / 1024) KB")
        }
        return try await self.write { db, _, log in
            let old = try Int64.fetchOne(db, sql: "SELECT version FROM shopLogo WHERE id = 1")
            guard let bytes else {
                guard old != nil else { return nil }
                try db.execute(sql: "DELETE FROM shopLogo WHERE id = 1")
                try log.record(.settingsChanged, changes: [ShopActivity.Change(.logo, from: .hidden("logo"), to: .none)])
                return nil
            }
            // Strictly newer than the last, so a page asking for the new version never gets the old one from a cache.
            let version = max(Self.now, (old ?? 0) + 1)
            try db.execute(sql: """
                INSERT INTO shopLogo (id, contentType, data, version) VALUES (1, ?, ?, ?)
                ON CONFLICT(id) DO UPDATE SET contentType = excluded.contentType, data = excluded.data, version = excluded.version
                """, arguments: [contentType, Data(bytes), version])
            try log.record(.settingsChanged, changes: [ShopActivity.Change(.logo, from: old == nil ? .none : .hidden("logo"), to: .hidden("logo"))])
            return ShopLogo(bytes: bytes, contentType: contentType, version: version)
        }
    }
}
