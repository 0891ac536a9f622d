import Hummingbird
import InventoryDomain

/// Products' option groups (size, milk, extras): `GET|PUT /api/v1/products/{id}/options` and, for the till, every
/// product's at once (`GET /api/v1/product-options`).
struct ModifierController<Store: CatalogueRepository & SettingsRepository> {
    let store: Store

    func addRoutes(products: Routes, api: Routes) {
        products.get(":id/options", .permission(.viewCatalogue), use: self.get)
        products.put(":id/options", .permission(.editCatalogue), use: self.set)
        api.get("product-options", .permission(.viewCatalogue), use: self.all)
    }

    @Sendable func get(_ request: Request, context: AppRequestContext) async throws -> JSON<OptionGroupsResponse> {
        let id = ProductID(try request.id(context))
        return JSON(OptionGroupsResponse(productId: id.rawValue, groups: try await self.store.optionGroups(of: id), try await self.store.formats().0))
    }

    @Sendable func set(_ request: Request, context: AppRequestContext) async throws -> JSON<OptionGroupsResponse> {
        let id = ProductID(try request.id(context))
        let body = try await request.decodeJSON(as: OptionGroupsRequest.self, context: context)
        let formats = try await self.store.formats().0
        let groups = try await self.store.setOptionGroups(try body.groups(formats), of: id)
        return JSON(OptionGroupsResponse(productId: id.rawValue, groups: groups, formats))
    }

    @Sendable func all(_ request: Request, context: AppRequestContext) async throws -> JSON<[OptionGroupsResponse]> {
        let formats = try await self.store.formats().0
        return JSON(try await self.store.allOptionGroups().sorted { $0.key < $1.key }.map {
            OptionGroupsResponse(productId: $0.key.rawValue, groups: $0.value, formats)
        })
    }
}

/// `PUT /api/v1/products/{id}/options`: the product's groups, in order; an id keeps a group or an option (a parked tab
/// names options by id), none makes a new one.
struct OptionGroupsRequest: Decodable, Sendable, KnownFields {
    var groups: [Group]

    struct Group: Decodable, Sendable, KnownFields {
        var id: Int64?
        var name: String
        var multiple: Bool?
        var required: Bool?
        var options: [Option]

        enum CodingKeys: String, CodingKey, CaseIterable { case id, name, multiple, required, options }
        static var fields: [String] { CodingKeys.allCases.map(\.stringValue) }
        static var nested: [String: any KnownFields.Type] { ["options": Option.self] }
    }

    struct Option: Decodable, Sendable, KnownFields {
        var id: Int64?
        var name: String
        var priceChange: String?
        var isDefault: Bool?

        enum CodingKeys: String, CodingKey, CaseIterable { case id, name, priceChange, isDefault }
        static var fields: [String] { CodingKeys.allCases.map(\.stringValue) }
    }

    enum CodingKeys: String, CodingKey, CaseIterable { case groups }
    static var fields: [String] { CodingKeys.allCases.map(\.stringValue) }
    static var nested: [String: any KnownFields.Type] { ["groups": Group.self] }

    func groups(_ formats: Formats) throws -> [ModifierGroup] {
        guard self.groups.count <= ModifierGroup.maximumGroups else {
            throw InventoryError(.invalidValue, field: "groups", "a product may have at most \(ModifierGroup.maximumGroups) option groups")
        }
        return try self.groups.enumerated().map { index, group in
            guard group.options.count <= ModifierGroup.maximumOptions else {
                throw InventoryError(.invalidValue, field: "groups[\(index)].options", "a group needs 1 to \(ModifierGroup.maximumOptions) options")
            }
            return ModifierGroup(id: group.id, name: group.name, multiple: group.multiple ?? false, required: group.required ?? false,
                                 options: try group.options.enumerated().map { optionIndex, option in
                                     Modifier(id: ModifierID(option.id ?? 0), name: option.name,
                                              priceChange: try formats.money(option.priceChange, field: "groups[\(index)].options[\(optionIndex)].priceChange") ?? .zero,
                                              isDefault: option.isDefault ?? false)
                                 })
        }
    }
}

/// A product's option groups.
struct OptionGroupsResponse: Encodable, Sendable {
    var productId: Int64
    var groups: [Group]

    struct Group: Encodable, Sendable {
        var id: Int64
        var name: String
        var multiple: Bool
        var required: Bool
        var options: [Option]
    }

    struct Option: Encodable, Sendable {
        var id: Int64
        var name: String
        /// What choosing it adds to the unit price (negative: cheaper), with the prices' meaning.
        var priceChange: String
        /// Whether a required group takes it when a sale line names none.
        var isDefault: Bool
    }

    init(productId: Int64, groups: [ModifierGroup], _ f: Formats) {
        self.productId = productId
        self.groups = groups.map { group in
            Group(id: group.id ?? 0, name: group.name, multiple: group.multiple, required: group.required, options: group.options.map {
                Option(id: $0.id.rawValue, name: $0.name, priceChange: f.string($0.priceChange), isDefault: $0.isDefault || $0 == group.defaultOption)
            })
        }
    }
}
