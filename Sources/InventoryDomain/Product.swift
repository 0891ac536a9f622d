import Foundation

/// A product the shop stocks or sells. Cost, quantity and stock value are never typed: they come from the ledger.
public struct Product: Sendable, Hashable, Identifiable {
    public var id: ProductID
    /// The editable fields.
    public var details: ProductDetails
    /// Balances after the product's last movement.
    public var stock: LedgerBalance
    /// When the product was created (ms since 1970).
    public var createdAt: Int64
    /// When the product was last edited (ms since 1970).
    public var updatedAt: Int64
    /// The stored pictures' names in order, the main one first (see ``ProductPictures``). They change only through
    /// ``PictureCommand``s, never with the editable fields, so an edit cannot undo a picture added meanwhile.
    public var pictures: [String]

    /// Creates a product.
    public init(id: ProductID, details: ProductDetails, stock: LedgerBalance, createdAt: Int64, updatedAt: Int64, pictures: [String] = []) {
        self.id = id
        self.details = details
        self.stock = stock
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.pictures = pictures
    }

    /// The product's name.
    public var name: String { self.details.name }
    /// Whether nothing of it can be sold now: it tracks stock, has none, and may not go below zero (the ledger refuses
    /// to take out more than is in stock unless ``ProductDetails/allowsNegativeStock``). The till greys such a tile.
    public var isSoldOut: Bool {
        self.details.tracksStock && !self.details.allowsNegativeStock && self.stock.quantity <= .zero
    }
    /// The main picture's name (the first of ``pictures``), nil when the product has none: the API's `imageRef`.
    public var imageRef: String? { self.pictures.first }
    /// The average cost of one unit, value ÷ quantity rounded once (``LedgerBalance/roundedAverageCost``); the API
    /// writes it as `averageCost` (and, for existing clients, `costPrice`).
    public var costPrice: Money { self.stock.roundedAverageCost }

}

/// The fields of a product a user edits, validated and normalised by ``validated()``. Pictures are not among them:
/// they are the product's (``Product/pictures``) and change through ``PictureCommand``s.
public struct ProductDetails: Sendable, Hashable {
    public var name: String
    public var sku: String?
    /// The barcode, normalised: EAN/UPC as GTIN-13, other symbologies as given.
    public var barcode: String?
    public var categoryID: CategoryID?
    /// Unit of sale (pcs, kg, l, box …).
    public var unit: String
    /// Sale price per unit, before tax.
    public var salePrice: Money
    /// Lowest price staff may sell at without a manager.
    public var minimumSalePrice: Money?
    /// Tax rate in force for sales.
    public var taxRate: Percent
    /// Low-stock threshold; nil takes the category's, else the shop's default (see ``StockStatus``).
    public var lowStockThreshold: Quantity?
    public var tracksStock: Bool
    public var allowsNegativeStock: Bool
    /// Emoji shown when there is no picture; derived from the name when empty.
    public var iconEmoji: String
    public var isArchived: Bool
    /// The supplier it is usually bought from (``ReorderRule`` groups its suggestions by it); nil when none.
    public var preferredSupplierID: SupplierID?
    /// The supplier's own code for it (their catalogue number), printed on a reorder.
    public var supplierCode: String?
    /// How many units the supplier sells it in (a case of 12): reorders are rounded up to whole packs. Positive.
    public var packSize: Quantity
    /// What the product is, in the shop's words (as the iOS app's description); empty when none.
    public var description: String
    /// Where it sits in the shop (an aisle, a shelf, a bin: `A3`, `Back room`); a stocktake can count one shelf. Nil when
    /// none. Stored as ``shelfName(_:)`` makes it; a shelf is matched ignoring the case of the letters A–Z.
    public var shelf: String?

    /// Creates product details; call ``validated()`` before storing.
    public init(
        name: String, sku: String? = nil, barcode: String? = nil, categoryID: CategoryID? = nil, unit: String = "pcs",
        salePrice: Money = .zero, minimumSalePrice: Money? = nil, taxRate: Percent = .zero,
        lowStockThreshold: Quantity? = nil, tracksStock: Bool = true, allowsNegativeStock: Bool = false,
        iconEmoji: String = "", isArchived: Bool = false,
        preferredSupplierID: SupplierID? = nil, supplierCode: String? = nil, packSize: Quantity = Quantity(1), description: String = "",
        shelf: String? = nil
    ) {
        self.name = name
        self.sku = sku
        self.barcode = barcode
        self.categoryID = categoryID
        self.unit = unit
        self.salePrice = salePrice
        self.minimumSalePrice = minimumSalePrice
        self.taxRate = taxRate
        self.lowStockThreshold = lowStockThreshold
        self.tracksStock = tracksStock
        self.allowsNegativeStock = allowsNegativeStock
        self.iconEmoji = iconEmoji
        self.isArchived = isArchived
        self.preferredSupplierID = preferredSupplierID
        self.supplierCode = supplierCode
        self.packSize = packSize
        self.description = description
        self.shelf = shelf
    }

    /// Trims text, normalises the barcode, derives the icon, and checks every rule.
    /// - Throws: ``InventoryError`` naming the first field at fault.
    public func validated() throws -> ProductDetails {
        var copy = self
        copy.name = self.name.trimmingWhitespace()
        guard !copy.name.isEmpty else { throw InventoryError(.missingValue, field: "name", "is required") }
        try TextLimit.name.check(copy.name, field: "name")
        copy.sku = self.sku?.trimmingWhitespace().nilIfEmpty
        if let sku = copy.sku { try TextLimit.sku.check(sku, field: "sku") }
        copy.barcode = try self.barcode?.trimmingWhitespace().nilIfEmpty.map {
            try Barcode.normalize($0)
        }
        copy.unit = self.unit.trimmingWhitespace()
        if copy.unit.isEmpty { copy.unit = "pcs" }
        try TextLimit.unit.check(copy.unit, field: "unit")
        guard copy.salePrice >= .zero else { throw InventoryError(.invalidValue, field: "salePrice", "must not be negative") }
        try copy.salePrice.requireWithinLimit(field: "salePrice")
        if let minimum = copy.minimumSalePrice {
            guard minimum >= .zero else {
                throw InventoryError(.invalidValue, field: "minimumSalePrice", "must not be negative")
            }
            guard minimum <= copy.salePrice else {
                throw InventoryError(.invalidValue, field: "minimumSalePrice", "must not be above the sale price")
            }
        }
        guard copy.taxRate >= .zero, copy.taxRate.hundredths <= 100_00 else {
            throw InventoryError(.invalidValue, field: "taxRate", "must be between 0 and 100 %")
        }
        if let threshold = copy.lowStockThreshold, threshold < .zero {
            throw InventoryError(.invalidValue, field: "lowStockThreshold", "must not be negative")
        }
        try copy.lowStockThreshold?.requireWithinLimit(field: "lowStockThreshold")
        if !copy.tracksStock { copy.allowsNegativeStock = false }
        copy.iconEmoji = self.iconEmoji.trimmingWhitespace()
        if copy.iconEmoji.isEmpty { copy.iconEmoji = ProductIcon.emoji(for: copy.name) }
        try ProductIcon.validate(copy.iconEmoji, field: "iconEmoji")
        try copy.validateSupply()
        copy.description = self.description.trimmingWhitespace()
        try TextLimit.note.check(copy.description, field: "description")
        copy.shelf = Self.shelfName(self.shelf)
        if let shelf = copy.shelf { try TextLimit.shelf.check(shelf, field: "shelf") }
        return copy
    }

    /// A shelf as it is stored and matched: trimmed, inner runs of white space made one space, nil when empty.
    public static func shelfName(_ text: String?) -> String? {
        text?.split(whereSeparator: \.isWhitespace).joined(separator: " ").nilIfEmpty
    }

    /// Trims the supplier's code and checks the pack size (the reorder fields; the supplier's existence is the
    /// store's to check).
    mutating func validateSupply() throws {
        self.supplierCode = self.supplierCode?.trimmingWhitespace().nilIfEmpty
        if let code = self.supplierCode { try TextLimit.sku.check(code, field: "supplierCode") }
        try self.packSize.requirePositive(field: "packSize")
    }
}

/// A shelf products sit on, as the stocktake's scope and the product form offer it.
public struct Shelf: Sendable, Hashable {
    /// The shelf as stored on its products (one spelling when products differ only in letter case).
    public var name: String
    /// How many products not archived sit on it (at least one).
    public var products: Int

    public init(name: String, products: Int) {
        self.name = name
        self.products = products
    }
}

/// A user-defined product category.
public struct Category: Sendable, Hashable, Identifiable {
    public var id: CategoryID
    public var name: String
    /// A CSS hex colour such as `#3b82f6`.
    public var color: String
    /// Threshold for products that set none; nil leaves them to the shop's default (see ``StockStatus``).
    public var lowStockThreshold: Quantity?
    /// Suggested markup: a new product's sale price is `cost × (1 + markup)`.
    public var markup: Percent

    /// Creates a category.
    public init(id: CategoryID, name: String, color: String = "#64748b", lowStockThreshold: Quantity? = nil, markup: Percent = .zero) {
        self.id = id
        self.name = name
        self.color = color
        self.lowStockThreshold = lowStockThreshold
        self.markup = markup
    }

    /// Suggested sale price for a product costing `cost`: cost + markup, before tax; where the shop's prices include
    /// tax, with the product's tax added (what the customer would pay).
    public func suggestedSalePrice(cost: Money, taxRate: Percent = .zero, pricesIncludeTax: Bool = false) -> Money {
        let net = cost + cost.applying(self.markup)
        return pricesIncludeTax ? TaxInclusion.convert(net, rate: taxRate, toIncludeTax: true) : net
    }

    /// Trims and checks the fields.
    /// - Throws: ``InventoryError`` naming the field at fault.
    public func validated() throws -> Category {
        var copy = self
        copy.name = self.name.trimmingWhitespace()
        guard !copy.name.isEmpty else { throw InventoryError(.missingValue, field: "name", "is required") }
        try TextLimit.shortName.check(copy.name, field: "name")
        let hex = copy.color.trimmingCharacters(in: .whitespaces).lowercased()
        guard hex.count == 7, hex.first == "#", hex.dropFirst().allSatisfy(\.isHexDigit) else {
            throw InventoryError(.invalidValue, field: "color", "must be a hex colour like #3b82f6")
        }
        copy.color = hex
        if let threshold = copy.lowStockThreshold, threshold < .zero {
            throw InventoryError(.invalidValue, field: "lowStockThreshold", "must not be negative")
        }
        return copy
    }
}

/// Marker for supplier ids.
public enum Supplier: Sendable {}
/// Marker for customer ids.
public enum Customer: Sendable {}

/// Which contact list a contact belongs to.
public enum ContactKind: String, Sendable, Codable {
    case supplier, customer
}

/// A supplier or a customer: one reusable contact shape.
public struct Contact<Kind>: Sendable, Hashable, Identifiable {
    public var id: ID<Kind>
    public var name: String
    public var location: String
    public var phone: String
    public var email: String
    public var note: String
    /// Days from ordering to delivery (suppliers only; customers keep 0): ``ReorderRule`` buys stock to last through it.
    public var leadTimeDays: Int

    /// The lead times a supplier may have, in days.
    public static var leadTimeRange: ClosedRange<Int> { 0...365 }

    /// Creates a contact.
    public init(id: ID<Kind>, name: String, location: String = "", phone: String = "", email: String = "", note: String = "",
                leadTimeDays: Int = 0) {
        self.id = id
        self.name = name
        self.location = location
        self.phone = phone
        self.email = email
        self.note = note
        self.leadTimeDays = leadTimeDays
    }

    /// Trims and checks the fields.
    /// - Throws: ``InventoryError`` naming the field at fault.
    public func validated() throws -> Contact {
        var copy = self
        copy.name = self.name.trimmingWhitespace()
        copy.location = self.location.trimmingWhitespace()
        copy.phone = self.phone.trimmingWhitespace()
        copy.email = self.email.trimmingWhitespace()
        guard !copy.name.isEmpty else { throw InventoryError(.missingValue, field: "name", "is required") }
        try TextLimit.name.check(copy.name, field: "name")
        try TextLimit.line.check(copy.location, field: "location")
        try TextLimit.phone.check(copy.phone, field: "phone")
        try TextLimit.email.check(copy.email, field: "email")
        try TextLimit.note.check(copy.note, field: "note")
        guard Self.leadTimeRange.contains(copy.leadTimeDays) else {
            throw InventoryError(.invalidValue, field: "leadTimeDays", "must be a whole number of days from 0 to 365")
        }
        if !copy.phone.isEmpty, !copy.phone.allSatisfy({ $0.isNumber || " +-()./".contains($0) }) {
            throw InventoryError(.invalidValue, field: "phone", "may contain only digits, spaces and + - ( ) . /")
        }
        if !copy.email.isEmpty {
            let parts = copy.email.split(separator: "@")
            guard parts.count == 2, parts[1].contains("."), !copy.email.contains(" ") else {
                throw InventoryError(.invalidValue, field: "email", "'\(copy.email)' is not an e-mail address")
            }
        }
        return copy
    }
}

extension String {
    /// nil when empty.
    public var nilIfEmpty: String? { self.isEmpty ? nil : self }
}
