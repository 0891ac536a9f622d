import Foundation
import InventoryDomain
import PostgresNIO

/// The activities of product writes (as SQLite's `ActivityLog` records them).
extension PostgresActivityLog {
    /// Records a new product.
    func recordProductCreated(_ id: ProductID, _ details: ProductDetails) async throws {
        try await self.record(.productCreated, record: .init(.product, id.rawValue), productIDs: [id], subject: details.name,
                              figures: .init(price: details.salePrice))
    }

    /// Records an edit of a product's fields (categories named as they are now, in this transaction).
    func recordProductChanged(old: Product, new: Product) async throws {
        let ids = Array(Set([old.details.categoryID, new.details.categoryID].compactMap { $0?.rawValue }))
        var names: [CategoryID: String] = [:]
        if !ids.isEmpty {
            for try await (id, name) in try await self.connection.query("SELECT id, name FROM category WHERE id = ANY(\(ids))", logger: self.logger)
                .decode((Int64, String).self) { names[CategoryID(id)] = name }
        }
        let changes = ShopActivity.Change.between(old.details, new.details) { names[$0] }
        try await self.record(.productChanged, record: .init(.product, new.id.rawValue), productIDs: [new.id], subject: new.name, changes: changes)
    }
}
