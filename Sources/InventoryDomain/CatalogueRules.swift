import Foundation

// The catalogue's rules that every storage backend applies after reading what they need from its tables: which
// product owns a code, whether a product may be deleted, what a recipe or an option list may hold. Each store does the
// reading (and the locking); the decision and its refusal, with its code, field and words, are made here once, so
// SQLite and PostgreSQL refuse alike.

/// A product that holds a barcode or a SKU, named in the refusal of another product asking for it.
public struct ProductCodeOwner: Sendable, Hashable {
    public var id: ProductID
    public var name: String

    public init(id: ProductID, name: String) {
        self.id = id
        self.name = name
    }
}

extension ProductDetails {
    /// Refuses validated details whose barcode or SKU another product holds (naming it), or whose category or preferred
    /// supplier does not exist; checked in that order.
    /// - Parameters:
    ///   - id: the product being edited (nil for a new one): its own codes are no clash.
    ///   - barcodeOwner: the product holding ``barcode``, if any; `skuOwner` likewise for ``sku``.
    ///   - categoryExists: whether ``categoryID`` names a category (ignored without one); `supplierExists` likewise.
    /// - Throws: `duplicate` on `barcode` or `sku`, `notFound` on `categoryId` or `preferredSupplierId`.
    public func checkReferences(of id: ProductID?, barcodeOwner: ProductCodeOwner?, skuOwner: ProductCodeOwner?,
                                categoryExists: Bool, supplierExists: Bool) throws {
        if let barcode = self.barcode, let owner = barcodeOwner, owner.id != id {
            throw InventoryError(.duplicate, field: "barcode", "barcode \(barcode) already belongs to '\(owner.name)' (product \(owner.id.rawValue))")
        }
        if let sku = self.sku, let owner = skuOwner, owner.id != id {
            throw InventoryError(.duplicate, field: "sku", "SKU \(sku) already belongs to '\(owner.name)' (product \(owner.id.rawValue))")
        }
        if let category = self.categoryID, !categoryExists {
            throw InventoryError(.notFound, field: "categoryId", "category \(category) does not exist")
        }
        if let supplier = self.preferredSupplierID, !supplierExists {
            throw InventoryError(.notFound, field: "preferredSupplierId", "supplier \(supplier) does not exist")
        }
    }

    /// These details with the sale and minimum prices converted to the other meaning (``TaxInclusion/convert(_:rate:toIncludeTax:)``
    /// at the product's own rate), so customers pay the same: what re-pricing the shop stores for each product.
    public func repriced(toIncludeTax: Bool) -> ProductDetails {
        var copy = self
        copy.salePrice = TaxInclusion.convert(self.salePrice, rate: self.taxRate, toIncludeTax: toIncludeTax)
        copy.minimumSalePrice = self.minimumSalePrice.map { TaxInclusion.convert($0, rate: self.taxRate, toIncludeTax: toIncludeTax) }
        return copy
    }

    /// Refuses turning stock keeping on for a product that is a recipe: selling a recipe issues its ingredients, so it
    /// keeps no stock of its own (``Recipe``).
    /// - Throws: `invalidValue` on `tracksStock`.
    public func checkStockKeeping(from old: ProductDetails, isRecipe: Bool) throws {
        if self.tracksStock && !old.tracksStock && isRecipe {
            throw InventoryError(.invalidValue, field: "tracksStock", "\(old.name) is a recipe: selling it issues its ingredients, so it keeps no stock of its own")
        }
    }

    /// Whether an edit from `old` changes the rules a product's ledger is costed by (stock kept, stock allowed below
    /// zero): its ledger, if it has one, is then costed again from its first movement.
    public func changesCosting(from old: ProductDetails) -> Bool {
        old.tracksStock != self.tracksStock || old.allowsNegativeStock != self.allowsNegativeStock
    }
}

extension Product {
    /// Refuses deleting a product the books name: one with movements is archived instead.
    /// - Parameter movements: how many movements its ledger holds.
    /// - Throws: `inUse` on `id`.
    public func checkDeletable(movements: Int) throws {
        guard movements == 0 else {
            throw InventoryError(.inUse, field: "id", "'\(self.name)' has \(movements) stock movement(s); archive it instead")
        }
    }
}

extension ProductQuery {
    /// The search as the store reads it: trimmed of spaces and tabs, nil when nothing is left.
    public var searchText: String? { self.search?.trimmingCharacters(in: .whitespaces).nilIfEmpty }

    /// The most products one page lists.
    public static let maximumLimit = 1000

    /// The page's size as the store applies it: 0 to ``maximumLimit``.
    public var pageLimit: Int { max(0, min(self.limit, Self.maximumLimit)) }

    /// The page's offset as the store applies it: not below 0.
    public var pageOffset: Int { max(0, self.offset) }

    /// A SKU as looked up (``CatalogueRepository/product(sku:)``): trimmed of spaces and tabs.
    public static func skuLookup(_ sku: String) -> String { sku.trimmingCharacters(in: .whitespaces) }
}

extension Recipe {
    /// Refuses giving a recipe (`components` not empty) to a product that keeps stock of its own or is itself an
    /// ingredient of another recipe (`usedBy`: that recipe product's name).
    /// - Throws: `invalidValue` on `components`.
    public static func checkProduct(_ product: Product, components: [RecipeComponent], usedBy: String?) throws {
        guard !components.isEmpty else { return }
        guard !product.details.tracksStock else {
            throw InventoryError(.invalidValue, field: "components",
                                 "\(product.name) keeps stock of its own; a recipe product issues its ingredients instead (turn off Track stock first)")
        }
        if let user = usedBy {
            throw InventoryError(.invalidValue, field: "components",
                                 "\(product.name) is an ingredient of \(user); an ingredient cannot have a recipe of its own")
        }
    }

    /// Refuses the ingredient at `index` when it does not exist (`name` nil) or is itself a recipe.
    /// - Throws: `notFound` or `invalidValue` on `components[index].productId`.
    public static func checkIngredient(_ component: RecipeComponent, at index: Int, name: String?, isRecipe: Bool) throws {
        let field = "components[\(index)].productId"
        guard let name else { throw InventoryError(.notFound, field: field, "product \(component.ingredientID) does not exist") }
        if isRecipe {
            throw InventoryError(.invalidValue, field: field, "\(name) is itself a recipe; list its ingredients instead")
        }
    }
}

extension ModifierGroup {
    /// The stored ids a product's new groups keep: each group sent with an id must be one of the product's groups as
    /// stored (`stored`), each option sent with an id one of their options; whatever is not kept goes.
    /// - Throws: `invalidValue` on `groups[i].id` or `groups[i].options[j].id` for an id of another product.
    public static func keptIDs(_ groups: [ModifierGroup], of stored: [ModifierGroup], productName: String) throws -> (groups: [Int64], options: [Int64]) {
        let ownGroups = Set(stored.compactMap(\.id)), ownOptions = Set(stored.flatMap { $0.options.map(\.id) })
        var keptGroups: [Int64] = [], keptOptions: [Int64] = []
        for (index, group) in groups.enumerated() {
            if let id = group.id, !ownGroups.contains(id) {
                throw InventoryError(.invalidValue, field: "groups[\(index)].id", "group \(id) is not a group of \(productName)")
            }
            for (optionIndex, option) in group.options.enumerated() where option.id.rawValue != 0 && !ownOptions.contains(option.id) {
                throw InventoryError(.invalidValue, field: "groups[\(index)].options[\(optionIndex)].id",
                                     "option \(option.id) is not an option of \(productName)")
            }
            keptGroups += group.id.map { [$0] } ?? []
            keptOptions += group.options.map(\.id.rawValue).filter { $0 != 0 }
        }
        return (keptGroups, keptOptions)
    }
}

extension ShopActivity.Change {
    /// What a change of a product's recipe changed: each side summed up as "0.018 Beans, 0.2 Milk" (`ingredientName`
    /// names an ingredient by id); nothing when the recipe is the same.
    public static func between(recipe old: [RecipeComponent], _ new: [RecipeComponent],
                               ingredientName: (ProductID) throws -> String?) rethrows -> [ShopActivity.Change] {
        guard old != new else { return [] }
        let oldWords = try old.map { "\($0.quantity.decimalString) \(try ingredientName($0.ingredientID) ?? "#\($0.ingredientID)")" }
        let newWords = try new.map { "\($0.quantity.decimalString) \(try ingredientName($0.ingredientID) ?? "#\($0.ingredientID)")" }
        func summary(_ words: [String]) -> Value { words.isEmpty ? .none : .text(words.joined(separator: ", ")) }
        return [ShopActivity.Change(.recipe, from: summary(oldWords), to: summary(newWords))]
    }
}

extension SearchText {
    /// A whole search as the ranking compares it with a record's search key: trimmed of spaces and tabs, then folded
    /// (``key(_:)-(String?...)``).
    public static func folded(_ text: String) -> String {
        self.key(text.trimmingCharacters(in: .whitespaces))
    }

    /// A search text as a `LIKE` pattern's literal part (``folded(_:)``, with
    /// `%`, `_` and the escape character `\` escaped): both SQL backends match with `ESCAPE '\'`, so a wildcard in a
    /// search is only text.
    public static func likeEscaped(_ text: String) -> String {
        self.folded(text)
            .replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "%", with: "\\%")
            .replacingOccurrences(of: "_", with: "\\_")
    }

    /// A `LIKE` pattern matching the folded search text anywhere (``likeEscaped(_:)`` between two `%`).
    public static func likePattern(_ text: String) -> String {
        "%" + self.likeEscaped(text) + "%"
    }
}
