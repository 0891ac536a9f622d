import Foundation
import GRDB
import InventoryDomain

/// Recipes: what one unit of a product consumes of its ingredients (``Recipe``).
extension InventorySQLiteRepository {
    public func recipe(of productID: ProductID) async throws -> [RecipeComponent] {
        try await self.read { db in
            _ = try Self.fetchProduct(db, productID)
            return try Self.recipe(db, productID)
        }
    }

    public func setRecipe(_ components: [RecipeComponent], of productID: ProductID) async throws -> [RecipeComponent] {
        let components = try Recipe.validated(components, of: productID)
        return try await self.write { db, settings, log in
            let product = try Self.fetchProduct(db, productID)
            let old = try Self.recipe(db, productID)
            if !components.isEmpty {
                guard !product.details.tracksStock else {
                    throw InventoryError(.invalidValue, field: "components",
                                         "\(product.name) keeps stock of its own; a recipe product issues its ingredients instead (turn off Track stock first)")
                }
                if let user = try String.fetchOne(db, sql: """
                    SELECT p.name FROM recipeComponent r JOIN product p ON p.id = r.productId WHERE r.ingredientId = ? LIMIT 1
                    """, arguments: [productID.rawValue]) {
                    throw InventoryError(.invalidValue, field: "components",
                                         "\(product.name) is an ingredient of \(user); an ingredient cannot have a recipe of its own")
                }
            }
            for (index, component) in components.enumerated() {
                let field = "components[\(index)].productId"
                guard let ingredient = try Row.fetchOne(db, sql: "SELECT name FROM product WHERE id = ?", arguments: [component.ingredientID.rawValue]) else {
                    throw InventoryError(.notFound, field: field, "product \(component.ingredientID) does not exist")
                }
                if try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM recipeComponent WHERE productId = ?)",
                                     arguments: [component.ingredientID.rawValue]) == true {
                    throw InventoryError(.invalidValue, field: field, "\(ingredient[0] as String) is itself a recipe; list its ingredients instead")
                }
            }
            try db.execute(sql: "DELETE FROM recipeComponent WHERE productId = ?", arguments: [productID.rawValue])
            for (position, component) in components.enumerated() {
                try db.execute(sql: "INSERT INTO recipeComponent (productId, position, ingredientId, quantity) VALUES (?, ?, ?, ?)",
                               arguments: [productID.rawValue, position, component.ingredientID.rawValue, component.quantity.thousandths])
            }
            if old != components {
                func summary(_ list: [RecipeComponent]) throws -> ShopActivity.Change.Value {
                    guard !list.isEmpty else { return .none }
                    return .text(try list.map { component in
                        let name = try String.fetchOne(db, sql: "SELECT name FROM product WHERE id = ?", arguments: [component.ingredientID.rawValue]) ?? "#\(component.ingredientID)"
                        return "\(component.quantity.decimalString) \(name)"
                    }.joined(separator: ", "))
                }
                try log.record(.productChanged, record: .init(.product, productID.rawValue), productIDs: [productID], subject: product.name,
                               changes: [ShopActivity.Change(.recipe, from: try summary(old), to: try summary(components))])
            }
            return components
        }
    }

    /// A product's recipe, in order (empty for an ordinary product).
    static func recipe(_ db: Database, _ productID: ProductID) throws -> [RecipeComponent] {
        try Row.fetchAll(db.cachedStatement(sql: "SELECT ingredientId, quantity FROM recipeComponent WHERE productId = ? ORDER BY position"),
                         arguments: [productID.rawValue]).map {
            RecipeComponent(ingredientID: ProductID($0[0]), quantity: Quantity(thousandths: $0[1]))
        }
    }
}
