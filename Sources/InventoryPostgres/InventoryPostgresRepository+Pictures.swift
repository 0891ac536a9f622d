import Foundation
import InventoryDomain
import PostgresNIO

/// A product's pictures: rows of `productPicture (productId, position, name)`, position 0 the main one. The rules are
/// the domain's (``ProductPictures``, ``PictureCommand``); each change locks the product, reads the list, applies the
/// command and writes the result in one transaction, so changes made at the same time on any instance all count.
extension InventoryPostgresRepository {
    public func createProduct(_ details: ProductDetails, pictures: [String]) async throws -> Product {
        let details = try details.validated()
        let pictures = try ProductPictures.validated(pictures)
        return try await self.write { connection, _, log in
            let id = try await self.insertProduct(connection, details)
            try await self.storePictures(connection, id, pictures)
            try await log.recordProductCreated(id, details)
            return try await self.fetchProduct(connection, id)
        }
    }

    public func changePictures(of id: ProductID, _ command: PictureCommand) async throws -> PictureOutcome {
        try await self.write { connection, _, log in
            let old = try await self.lockProduct(connection, id)
            let pictures = try command.applied(to: old.pictures)
            guard pictures != old.pictures else { return PictureOutcome(product: old, changed: false, released: []) }
            try await self.storePictures(connection, id, pictures)
            try await connection.execute("UPDATE product SET updatedAt = \(Self.now) WHERE id = \(id.rawValue)", logger: self.logger)
            try await log.record(.productChanged, record: .init(.product, id.rawValue), productIDs: [id], subject: old.name,
                                 changes: ShopActivity.Change.between(pictures: old.pictures, pictures))
            let removed = old.pictures.filter { !pictures.contains($0) }
            return PictureOutcome(product: try await self.fetchProduct(connection, id), changed: true,
                                  released: try await self.unusedPictures(connection, among: removed))
        }
    }

    public func unusedPictures(among names: [String]) async throws -> [String] {
        try await self.read { connection in try await self.unusedPictures(connection, among: names) }
    }

    /// Replaces a product's stored pictures with `names` (already checked), in order.
    func storePictures(_ connection: PostgresConnection, _ id: ProductID, _ names: [String]) async throws {
        try await connection.execute("DELETE FROM productPicture WHERE productId = \(id.rawValue)", logger: self.logger)
        guard !names.isEmpty else { return }
        try await connection.execute("""
            INSERT INTO productPicture (productId, position, name)
            SELECT \(id.rawValue), picture.position - 1, picture.name FROM unnest(\(names.map { StoredText.bound($0) })::text[]) WITH ORDINALITY AS picture(name, position)
            """, logger: self.logger)
    }

    /// Of `names`, those no product shows, each once, in order.
    func unusedPictures(_ connection: PostgresConnection, among names: [String]) async throws -> [String] {
        let distinct = Set(names).sorted()
        guard !distinct.isEmpty else { return [] }
        // Each name as SQLite receives it (``StoredText``): up to a NUL.
        let used = Set(try await connection.query("""
            SELECT DISTINCT name FROM productPicture WHERE name = ANY(\(distinct.map { StoredText.bound($0) }))
            """, logger: self.logger).collect(String.self))
        return distinct.filter { !used.contains(StoredText.bound($0)) }
    }
}
