import Hummingbird
import InventoryDomain

/// A product's recipe (``Recipe``): `GET|PUT /api/v1/products/{id}/recipe`.
struct RecipeController<Store: CatalogueRepository & SettingsRepository> {
    let store: Store

    func addRoutes(to products: Routes) {
        products.get(":id/recipe", .permission(.viewCatalogue), use: self.get)
        products.put(":id/recipe", .permission(.editCatalogue), use: self.set)
    }

    @Sendable func get(_ request: Request, context: AppRequestContext) async throws -> JSON<RecipeResponse> {
        let id = ProductID(try request.id(context))
        return JSON(try await self.answer(id, try await self.store.recipe(of: id)))
    }

    @Sendable func set(_ request: Request, context: AppRequestContext) async throws -> JSON<RecipeResponse> {
        let id = ProductID(try request.id(context))
        let body = try await request.decodeJSON(as: RecipeRequest.self, context: context)
        let formats = try await self.store.formats().0
        guard body.components.count <= Recipe.maximumComponents else {
            throw InventoryError(.invalidValue, field: "components", "a recipe may have at most \(Recipe.maximumComponents) ingredients")
        }
        let components = try body.components.enumerated().map { index, component in
            RecipeComponent(ingredientID: ProductID(component.productId),
                            quantity: try formats.quantity(component.quantity, field: "components[\(index)].quantity"))
        }
        return JSON(try await self.answer(id, try await self.store.setRecipe(components, of: id)))
    }

    func answer(_ id: ProductID, _ components: [RecipeComponent]) async throws -> RecipeResponse {
        var lines: [RecipeResponse.Component] = []
        for component in components {
            let ingredient = try await self.store.product(component.ingredientID)
            lines.append(.init(productId: component.ingredientID.rawValue, name: ingredient.name, unit: ingredient.details.unit,
                               quantity: component.quantity.decimalString))
        }
        return RecipeResponse(productId: id.rawValue, components: lines)
    }
}

/// `PUT /api/v1/products/{id}/recipe`: what one unit consumes of each ingredient; no components removes the recipe.
struct RecipeRequest: Decodable, Sendable, KnownFields {
    var components: [Component]

    struct Component: Decodable, Sendable, KnownFields {
        var productId: Int64
        var quantity: String

        enum CodingKeys: String, CodingKey, CaseIterable { case productId, quantity }
        static var fields: [String] { CodingKeys.allCases.map(\.stringValue) }
    }

    enum CodingKeys: String, CodingKey, CaseIterable { case components }
    static var fields: [String] { CodingKeys.allCases.map(\.stringValue) }
    static var nested: [String: any KnownFields.Type] { ["components": Component.self] }
}

/// A product's recipe with its ingredients' names and units.
struct RecipeResponse: Encodable, Sendable {
    var productId: Int64
    var components: [Component]

    struct Component: Encodable, Sendable {
        var productId: Int64
        var name: String
        var unit: String
        /// Per unit of the recipe product, in the ingredient's unit.
        var quantity: String
    }
}
