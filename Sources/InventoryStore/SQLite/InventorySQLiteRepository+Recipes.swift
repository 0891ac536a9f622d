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
            let usedBy = components.isEmpty || product.details.tracksStock ? nil : try String.fetchOne(db, sql: """
                SELECT p.name FROM recipeComponent r JOIN product p ON p.id = r.productId WHERE r.ingredientId = ? LIMIT 1
                """, arguments: [productID.rawValue])
            try Recipe.checkProduct(product, components: components, usedBy: usedBy)
            for (index, component) in components.enumerated() {
                let name = try String.fetchOne(db, sql: "SELECT name FROM product WHERE id = ?", arguments: [component.ingredientID.rawValue])
                let isRecipe = try name != nil && Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM recipeComponent WHERE productId = ?)",
                                                                arguments: [component.ingredientID.rawValue]) == true
                try Recipe.checkIngredient(component, at: index, name: name, isRecipe: isRecipe)
            }
            try db.execute(sql: "DELETE FROM recipeComponent WHERE productId = ?", arguments: [productID.rawValue])
            for (position, component) in components.enumerated() {
                try db.execute(sql: "INSERT INTO recipeComponent (productId, position, ingredientId, quantity) VALUES (?, ?, ?, ?)",
                               arguments: [productID.rawValue, position, component.ingredientID.rawValue, component.quantity.thousandths])
            }
            let changes = try ShopActivity.Change.between(recipe: old, components) { id in
                try String.fetchOne(db, sql: "SELECT name FROM product WHERE id = ?", arguments: [id.rawValue])
            }
            if !changes.isEmpty {
                try log.record(.productChanged, record: .init(.product, productID.rawValue), productIDs: [productID], subject: product.name,
                               changes: changes)
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
