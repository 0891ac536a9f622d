import Foundation
import Hummingbird
import InventoryDomain

/// `/api/v1/categories`.
struct CategoryController<Repository: InventoryRepository> {
    let repository: Repository

    struct CategoryResponse: Encodable, Sendable {
        var id: Int64
        var name: String
        var color: String
        var lowStockThreshold: String?
        var markup: String

        init(_ category: Category) {
            self.id = category.id.rawValue
            self.name = category.name
            self.color = category.color
            self.lowStockThreshold = category.lowStockThreshold?.decimalString
            self.markup = category.markup.decimalString
        }
    }

    struct CategoryRequest: Decodable, Sendable {
        var name: String
        var color: String?
        var lowStockThreshold: String?
        var markup: String?

        enum CodingKeys: String, CodingKey, CaseIterable { case name, color, lowStockThreshold, markup }

        init(from decoder: any Decoder) throws {
            try decoder.rejectUnknownKeys(CodingKeys.self)
            let c = try decoder.container(keyedBy: CodingKeys.self)
            self.name = try c.decode(String.self, forKey: .name)
            self.color = try c.decodeIfPresent(String.self, forKey: .color)
            self.lowStockThreshold = try c.decodeIfPresent(String.self, forKey: .lowStockThreshold)
            self.markup = try c.decodeIfPresent(String.self, forKey: .markup)
        }

        func category(id: CategoryID) throws -> Category {
            Category(id: id, name: self.name, color: self.color ?? "#64748b",
                     lowStockThreshold: try self.lowStockThreshold.map { try Quantity.parse($0, field: "lowStockThreshold") },
                     markup: try self.markup.map { try Percent.parse($0, field: "markup") } ?? .zero)
        }
    }

    func addRoutes(to group: Routes) {
        group.get(.permission(.viewCatalogue)) { _, _ in JSON(try await self.repository.categories().map(CategoryResponse.init)) }
        group.post(.permission(.editCatalogue)) { request, context in
            let body = try await request.decodeJSON(as: CategoryRequest.self, context: context)
            return JSON(CategoryResponse(try await self.repository.createCategory(try body.category(id: CategoryID(0)))), status: .created)
        }
        group.put(":id", .permission(.editCatalogue)) { request, context in
            let id = CategoryID(try request.id(context))
            let body = try await request.decodeJSON(as: CategoryRequest.self, context: context)
            return JSON(CategoryResponse(try await self.repository.updateCategory(try body.category(id: id))))
        }
        group.delete(":id", .permission(.editCatalogue)) { request, context in
            try await self.repository.deleteCategory(CategoryID(try request.id(context)))
            return Response(status: .noContent)
        }
    }
}

/// `/api/v1/suppliers` and `/api/v1/customers`: one contact shape, two lists.
struct ContactController<Repository: InventoryRepository, Kind: Sendable> {
    let repository: Repository
    /// Who may list them (customers: anyone who sells; suppliers: who purchases); changes need ``Permission/editCatalogue``.
    let viewPermission: Permission
    let list: @Sendable (Repository, String?) async throws -> [Contact<Kind>]
    let create: @Sendable (Repository, Contact<Kind>) async throws -> Contact<Kind>
    let update: @Sendable (Repository, Contact<Kind>) async throws -> Contact<Kind>
    let delete: @Sendable (Repository, ID<Kind>) async throws -> Void

    struct ContactResponse: Encodable, Sendable {
        var id: Int64
        var name: String
        var location: String
        var phone: String
        var email: String
        var note: String

        init(_ contact: Contact<Kind>) {
            self.id = contact.id.rawValue
            self.name = contact.name
            self.location = contact.location
            self.phone = contact.phone
            self.email = contact.email
            self.note = contact.note
        }
    }

    struct ContactRequest: Decodable, Sendable {
        var name: String
        var location: String?
        var phone: String?
        var email: String?
        var note: String?

        enum CodingKeys: String, CodingKey, CaseIterable { case name, location, phone, email, note }

        init(from decoder: any Decoder) throws {
            try decoder.rejectUnknownKeys(CodingKeys.self)
            let c = try decoder.container(keyedBy: CodingKeys.self)
            self.name = try c.decode(String.self, forKey: .name)
            self.location = try c.decodeIfPresent(String.self, forKey: .location)
            self.phone = try c.decodeIfPresent(String.self, forKey: .phone)
            self.email = try c.decodeIfPresent(String.self, forKey: .email)
            self.note = try c.decodeIfPresent(String.self, forKey: .note)
        }

        func contact(id: ID<Kind>) -> Contact<Kind> {
            Contact(id: id, name: self.name, location: self.location ?? "", phone: self.phone ?? "", email: self.email ?? "", note: self.note ?? "")
        }
    }

    func addRoutes(to group: Routes) {
        group.get(.permission(self.viewPermission)) { request, _ in
            JSON(try await self.list(self.repository, request.query("search")).map(ContactResponse.init))
        }
        group.post(.permission(.editCatalogue)) { request, context in
            let body = try await request.decodeJSON(as: ContactRequest.self, context: context)
            return JSON(ContactResponse(try await self.create(self.repository, body.contact(id: ID(0)))), status: .created)
        }
        group.put(":id", .permission(.editCatalogue)) { request, context in
            let id = ID<Kind>(try request.id(context))
            let body = try await request.decodeJSON(as: ContactRequest.self, context: context)
            return JSON(ContactResponse(try await self.update(self.repository, body.contact(id: id))))
        }
        group.delete(":id", .permission(.editCatalogue)) { request, context in
            try await self.delete(self.repository, ID<Kind>(try request.id(context)))
            return Response(status: .noContent)
        }
    }
}

extension ContactController where Kind == Supplier {
    init(suppliers repository: Repository) {
        self.init(repository: repository, viewPermission: .purchase, list: { try await $0.suppliers(search: $1) }, create: { try await $0.createSupplier($1) },
                  update: { try await $0.updateSupplier($1) }, delete: { try await $0.deleteSupplier($1) })
    }
}

extension ContactController where Kind == Customer {
    init(customers repository: Repository) {
        self.init(repository: repository, viewPermission: .sell, list: { try await $0.customers(search: $1) }, create: { try await $0.createCustomer($1) },
                  update: { try await $0.updateCustomer($1) }, delete: { try await $0.deleteCustomer($1) })
    }
}
