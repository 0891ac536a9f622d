import Hummingbird
import InventoryDomain

/// `/api/v1/suppliers` and `/api/v1/customers`: one contact shape, two lists.
struct ContactController<Store: CatalogueRepository, Kind: Sendable> {
    let store: Store
    /// Who may list them (customers: anyone who sells; suppliers: who purchases); changes need ``Permission/editCatalogue``.
    let viewPermission: Permission
    /// The list's own store methods.
    let fetch: @Sendable (Store, String?) async throws -> [Contact<Kind>]
    let insert: @Sendable (Store, Contact<Kind>) async throws -> Contact<Kind>
    let replace: @Sendable (Store, Contact<Kind>) async throws -> Contact<Kind>
    let remove: @Sendable (Store, ID<Kind>) async throws -> Void

    func addRoutes(to group: Routes) {
        group.get(.permission(self.viewPermission), use: self.list)
        group.post(.permission(.editCatalogue), use: self.create)
        group.put(":id", .permission(.editCatalogue), use: self.update)
        group.delete(":id", .permission(.editCatalogue), use: self.delete)
    }

    @Sendable func list(_ request: Request, context: some RequestContext) async throws -> JSON<[ContactResponse]> {
        JSON(try await self.fetch(self.store, request.query("search")).map(ContactResponse.init))
    }

    @Sendable func create(_ request: Request, context: some RequestContext) async throws -> JSON<ContactResponse> {
        let body = try await request.decodeJSON(as: ContactRequest.self, context: context)
        return JSON(ContactResponse(try await self.insert(self.store, body.contact(id: ID(0)))), status: .created)
    }

    @Sendable func update(_ request: Request, context: some RequestContext) async throws -> JSON<ContactResponse> {
        let id = ID<Kind>(try request.id(context))
        let body = try await request.decodeJSON(as: ContactRequest.self, context: context)
        return JSON(ContactResponse(try await self.replace(self.store, body.contact(id: id))))
    }

    @Sendable func delete(_ request: Request, context: some RequestContext) async throws -> Response {
        try await self.remove(self.store, ID<Kind>(try request.id(context)))
        return Response(status: .noContent)
    }
}

extension ContactController where Kind == Supplier {
    init(suppliers store: Store) {
        self.init(store: store, viewPermission: .purchase, fetch: { try await $0.suppliers(search: $1) }, insert: { try await $0.createSupplier($1) },
                  replace: { try await $0.updateSupplier($1) }, remove: { try await $0.deleteSupplier($1) })
    }
}

extension ContactController where Kind == Customer {
    init(customers store: Store) {
        self.init(store: store, viewPermission: .sell, fetch: { try await $0.customers(search: $1) }, insert: { try await $0.createCustomer($1) },
                  replace: { try await $0.updateCustomer($1) }, remove: { try await $0.deleteCustomer($1) })
    }
}
