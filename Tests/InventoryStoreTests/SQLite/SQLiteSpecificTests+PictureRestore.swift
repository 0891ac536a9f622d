import Foundation
import GRDB
import InventoryDomain
@testable import InventoryStore
import Testing

extension SQLiteSpecificTests {
    /// Issue 10, defect 9 in the SQLite store: `v4-product-pictures` turns a product's one picture (`product.imageRef`) into
    /// its main picture in `productPicture`; backups from before and after it restore, and a backup naming a picture
    /// outside the store's names is refused.
    @Suite struct PictureRestore {
        static let a = "0123456789abcdef01234567.jpg", b = "89abcdef0123456789abcdef.png"

        /// A database as the version before pictures made it (migrations up to `v3-idempotency`), with a product that has
        /// a picture (`imageRef`) and one that has none.
        static func oldBackup(imageRef: String) throws -> String {
            let path = FileManager.default.temporaryDirectory.appendingPathComponent("old-\(UUID().uuidString).sqlite").path
            let queue = try DatabaseQueue(path: path)
            try SQLiteMigrations.migrator.migrate(queue, upTo: "v3-idempotency")
            try queue.write { db in
                try db.execute(sql: """
                    INSERT INTO product (name, searchKey, unit, imageRef, salePrice, taxRate, tracksStock, allowsNegativeStock, iconEmoji, createdAt, updatedAt)
                    VALUES ('Mug', 'mug', 'pcs', ?, 450, 1900, 1, 0, '☕', 1, 1), ('Spoon', 'spoon', 'pcs', NULL, 100, 1900, 1, 0, '🥄', 1, 1);
                    INSERT INTO user (username, displayName, role, passwordHash, createdAt)
                    VALUES ('owner', 'Owner', 'admin', '$2b$12$abcdefghijklmnopqrstuuOQ3oZJr9Yc0i7e5C4m1n2b3v4x5y6z7', 1);
                    """, arguments: [imageRef])
            }
            try queue.close()
            return path
        }

        @Test func anOldBackupRestoresWithItsPictureAsTheMainOne() async throws {
            let (store, _) = try await Restore.liveShop()
            try store.restore(from: try Self.oldBackup(imageRef: Self.a))
            #expect(try await store.appliedMigrations() == SQLiteMigrations.names)
            let products = try await store.products(ProductQuery()).products
            #expect(products.map(\.name) == ["Mug", "Spoon"])
            #expect(products[0].pictures == [Self.a] && products[0].imageRef == Self.a)
            #expect(products[1].pictures.isEmpty)
            // The shop goes on: a second picture joins the first.
            #expect(try await store.addPicture(products[0].id, name: Self.b).product.pictures == [Self.a, Self.b])
        }

        @Test func anOldBackupWhosePictureNameIsNotTheStoresIsRefused() async throws {
            let (store, _) = try await Restore.liveShop()
            try await Restore.expectRefused(store, try Self.oldBackup(imageRef: "../stockroom.sqlite"), mentioning: "not a stored picture's name")
        }

        @Test func aNewBackupKeepsEveryPictureInOrder() async throws {
            let (store, _) = try await Restore.liveShop()
            let product = try await store.products(ProductQuery()).products[0]
            _ = try await store.addPicture(product.id, name: Self.a)
            _ = try await store.addPicture(product.id, name: Self.b, makeMain: true)
            let path = FileManager.default.temporaryDirectory.appendingPathComponent("pictures-\(UUID().uuidString).sqlite").path
            try store.backup(to: path)
            let snapshot = try await store.testOnly_dump()
            _ = try await store.removePicture(product.id, name: Self.a)
            #expect(try await store.testOnly_dump() != snapshot)
            try store.restore(from: path)
            #expect(try await store.testOnly_dump() == snapshot)
            #expect(try await store.product(product.id).pictures == [Self.b, Self.a])
        }

        @Test func aForgedPictureRowIsRefused() async throws {
            let (store, _) = try await Restore.liveShop()
            try await Restore.expectRefused(store, try Restore.forgedBackup(of: store, """
                INSERT INTO productPicture (productId, position, name) SELECT id, 0, '../../etc/passwd' FROM product LIMIT 1
                """), mentioning: "not a stored picture's name")
            let crowded = (0...ProductPictures.maximumCount).map { "SELECT id, \($0), '\(String(format: "%024x", $0)).png' FROM product" }
            try await Restore.expectRefused(store, try Restore.forgedBackup(of: store, """
                INSERT INTO productPicture (productId, position, name) \(crowded.joined(separator: " UNION ALL "))
                """), mentioning: "more than \(ProductPictures.maximumCount) pictures")
            try await Restore.expectRefused(store, try Restore.forgedBackup(of: store, """
                INSERT INTO productPicture (productId, position, name) SELECT id, 'first', '\(Self.a)' FROM product LIMIT 1
                """), mentioning: "wrong kind")
        }
    }
}
