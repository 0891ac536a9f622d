import InventoryDomain

/// A category as `/api/v1/categories` shows it.
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

/// A category to create or replace.
struct CategoryRequest: Decodable, Sendable, KnownFields {
    var name: String
    var color: String?
    var lowStockThreshold: String?
    var markup: String?

    enum CodingKeys: String, CodingKey, CaseIterable { case name, color, lowStockThreshold, markup }
    static var fields: [String] { CodingKeys.allCases.map(\.stringValue) }

    func category(id: CategoryID) throws -> Category {
        Category(id: id, name: self.name, color: self.color ?? "#64748b",
                 lowStockThreshold: try self.lowStockThreshold.map { try Quantity.parse($0, field: "lowStockThreshold") },
                 markup: try self.markup.map { try Percent.parse($0, field: "markup") } ?? .zero)
    }
}
