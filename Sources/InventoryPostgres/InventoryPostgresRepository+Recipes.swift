import Foundation
import InventoryDomain
import PostgresNIO

/// Recipes: what one unit of a product consumes of its ingredients. The rules are the domain's (``Recipe``).
extension InventoryPostgresRepository {
    public func recipe(of productID: ProductID) async throws -> [RecipeComponent] {
        try await self.read { connection in
            _ = try await self.fetchProduct(connection, productID)
            return try await self.recipe(connection, productID)
        }
    }

    public func setRecipe(_ components: [RecipeComponent], of productID: ProductID) async throws -> [RecipeComponent] {
        let components = try Recipe.validated(components, of: productID)
        return try await self.write { connection, _, log in
            // The product locked for update, its ingredients for share: a recipe being given to one of them, or this
            // product being made an ingredient elsewhere, waits for this one (and then sees it).
            let product = try await self.lockProduct(connection, productID)
            let ingredientIDs = components.map(\.ingredientID.rawValue)
            if !ingredientIDs.isEmpty {
                try await connection.execute("SELECT id FROM product WHERE id = ANY(\(ingredientIDs)) ORDER BY id FOR SHARE", logger: self.logger)
            }
            let old = try await self.recipe(connection, productID)
            let usedBy = components.isEmpty || product.details.tracksStock ? nil : try await connection.query("""
                SELECT p.name FROM recipeComponent r JOIN product p ON p.id = r.productId WHERE r.ingredientId = \(productID.rawValue) LIMIT 1
                """, logger: self.logger).collect(String.self).first
            try Recipe.checkProduct(product, components: components, usedBy: usedBy)
            var ingredients: [Int64: (name: String, isRecipe: Bool)] = [:]
            for try await (id, name, isRecipe) in try await connection.query("""
                SELECT p.id, p.name, EXISTS (SELECT 1 FROM recipeComponent r WHERE r.productId = p.id) FROM product p WHERE p.id = ANY(\(ingredientIDs))
                """, logger: self.logger).decode((Int64, String, Bool).self) { ingredients[id] = (name, isRecipe) }
            for (index, component) in components.enumerated() {
                let ingredient = ingredients[component.ingredientID.rawValue]
                try Recipe.checkIngredient(component, at: index, name: ingredient?.name, isRecipe: ingredient?.isRecipe ?? false)
            }
            try await connection.execute("DELETE FROM recipeComponent WHERE productId = \(productID.rawValue)", logger: self.logger)
            for (position, component) in components.enumerated() {
                try await connection.execute("""
                    INSERT INTO recipeComponent (productId, position, ingredientId, quantity)
                    VALUES (\(productID.rawValue), \(position), \(component.ingredientID.rawValue), \(component.quantity.thousandths))
                    """, logger: self.logger)
            }
            var names: [ProductID: String] = [:]
            for try await (id, name) in try await connection.query("""
                SELECT id, name FROM product WHERE id = ANY(\((old + components).map(\.ingredientID.rawValue)))
                """, logger: self.logger).decode((Int64, String).self) { names[ProductID(id)] = name }
            let changes = ShopActivity.Change.between(recipe: old, components) { names[$0] }
            if !changes.isEmpty {
                try await log.record(.productChanged, record: .init(.product, productID.rawValue), productIDs: [productID], subject: product.name,
                                     changes: changes)
            }
            return components
        }
    }

    /// A product's recipe, in order (empty for an ordinary product).
    func recipe(_ connection: PostgresConnection, _ productID: ProductID) async throws -> [RecipeComponent] {
        var components: [RecipeComponent] = []
        for try await (ingredientID, quantity) in try await connection.query(
            "SELECT ingredientId, quantity FROM recipeComponent WHERE productId = \(productID.rawValue) ORDER BY position", logger: self.logger
        ).decode((Int64, Int64).self) {
            components.append(RecipeComponent(ingredientID: ProductID(ingredientID), quantity: Quantity(thousandths: quantity)))
        }
        return components
    }
}
