import Hummingbird
import InventoryDomain

/// `/api/v1/categories`.
struct CategoryController<Store: CatalogueRepository> {
    let store: Store

    func addRoutes(to group: Routes) {
        group.get(.permission(.viewCatalogue), use: self.list)
        group.post(.permission(.editCatalogue), use: self.create)
        group.put(":id", .permission(.editCatalogue), use: self.update)
        group.delete(":id", .permission(.editCatalogue), use: self.delete)
    }

    @Sendable func list(_ request: Request, context: some RequestContext) async throws -> JSON<[CategoryResponse]> {
        JSON(try await self.store.categories().map(CategoryResponse.init))
    }

    @Sendable func create(_ request: Request, context: some RequestContext) async throws -> JSON<CategoryResponse> {
        let body = try await request.decodeJSON(as: CategoryRequest.self, context: context)
        return JSON(CategoryResponse(try await self.store.createCategory(try body.category(id: CategoryID(0)))), status: .created)
    }

    @Sendable func update(_ request: Request, context: some RequestContext) async throws -> JSON<CategoryResponse> {
        let id = CategoryID(try request.id(context))
        let body = try await request.decodeJSON(as: CategoryRequest.self, context: context)
        return JSON(CategoryResponse(try await self.store.updateCategory(try body.category(id: id))))
    }

    @Sendable func delete(_ request: Request, context: some RequestContext) async throws -> Response {
        try await self.store.deleteCategory(CategoryID(try request.id(context)))
        return Response(status: .noContent)
    }
}
