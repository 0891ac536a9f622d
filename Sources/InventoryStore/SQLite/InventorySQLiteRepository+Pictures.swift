import Foundation
import GRDB
import InventoryDomain

// MARK: - CatalogueRepository: pictures

/// A product's pictures are rows of `productPicture (productId, position, name)`, position 0 the main one. The rules
/// are the domain's (``ProductPictures``, ``PictureCommand``); each change reads the list, applies the command and
/// writes the result inside one transaction.
extension InventorySQLiteRepository {
    /// The product-list column holding a product's pictures as `position:name` words (read by ``pictureList(_:)``).
    /// The positions travel with the names because `group_concat` promises no order.
    static let pictureListColumn = """
        (SELECT group_concat(pp.position || ':' || pp.name, ' ') FROM productPicture pp WHERE pp.productId = p.id) AS pictures
        """

    /// The names in ``pictureListColumn``'s text, main first.
    static func pictureList(_ text: String?) -> [String] {
        guard let text, !text.isEmpty else { return [] }
        return text.split(separator: " ").compactMap { word -> (Int, String)? in
            guard let colon = word.firstIndex(of: ":"), let position = Int(word[..<colon]) else { return nil }
            return (position, String(word[word.index(after: colon)...]))
        }
        .sorted { $0.0 < $1.0 }
        .map(\.1)
    }

    /// Replaces a product's stored pictures with `names` (already checked), in order.
    static func storePictures(_ db: Database, _ id: ProductID, _ names: [String]) throws {
        try db.execute(sql: "DELETE FROM productPicture WHERE productId = ?", arguments: [id.rawValue])
        let insert = try db.cachedStatement(sql: "INSERT INTO productPicture (productId, position, name) VALUES (?, ?, ?)")
        for (position, name) in names.enumerated() {
            try insert.execute(arguments: [id.rawValue, position, name])
        }
    }

    /// Of `names`, those no product shows.
    static func unusedPictures(_ db: Database, among names: [String]) throws -> [String] {
        let used = try db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM productPicture WHERE name = ?)")
        return try Set(names).sorted().filter { try Bool.fetchOne(used, arguments: [$0]) != true }
    }

    public func createProduct(_ details: ProductDetails, pictures: [String]) async throws -> Product {
        let details = try details.validated()
        let pictures = try ProductPictures.validated(pictures)
        return try await self.write { db, _, log in
            let id = try Self.insertProduct(db, details)
            try Self.storePictures(db, id, pictures)
            try log.recordProductCreated(id, details)
            return try Self.fetchProduct(db, id)
        }
    }

    public func changePictures(of id: ProductID, _ command: PictureCommand) async throws -> PictureOutcome {
        try await self.write { db, _, log in
            let old = try Self.fetchProduct(db, id)
            let pictures = try command.applied(to: old.pictures)
            guard pictures != old.pictures else { return PictureOutcome(product: old, changed: false, released: []) }
            try Self.storePictures(db, id, pictures)
            try db.execute(sql: "UPDATE product SET updatedAt = ? WHERE id = ?", arguments: [Self.now, id.rawValue])
            try log.record(.productChanged, record: .init(.product, id.rawValue), productIDs: [id], subject: old.name,
                           changes: ShopActivity.Change.between(pictures: old.pictures, pictures))
            let removed = old.pictures.filter { !pictures.contains($0) }
            return PictureOutcome(product: try Self.fetchProduct(db, id), changed: true, released: try Self.unusedPictures(db, among: removed))
        }
    }

    public func unusedPictures(among names: [String]) async throws -> [String] {
        try await self.read { db in try Self.unusedPictures(db, among: names) }
    }

    /// Restore's check of every stored picture (the table is small, so all of it, not a sample): names the store
    /// gives, so no name can point outside the pictures folder, and no product over the limit.
    static func validatePictureRows(_ db: Database) throws {
        let names = try Row.fetchCursor(db, sql: "SELECT productId, name FROM productPicture")
        while let row = try names.next() {
            let name: String = row[1]
            guard ProductPictures.isValidName(name) else {
                throw InventoryError(.invalidValue, field: "file",
                                     "the backup's product \(row[0] as Int64) names a picture '\(name.prefix(80))' that is not a stored picture's name")
            }
        }
        if let crowded = try Int64.fetchOne(db, sql: """
            SELECT productId FROM productPicture GROUP BY productId HAVING COUNT(*) > \(ProductPictures.maximumCount) LIMIT 1
            """)
        {
            throw InventoryError(.invalidValue, field: "file",
                                 "the backup's product \(crowded) has more than \(ProductPictures.maximumCount) pictures")
        }
    }
}
