import Foundation

/// Categories, suppliers, customers and products: the catalogue. Product writes never touch the books; a product's
/// stock and value come from its ledger (``LedgerRepository``).
public protocol CatalogueRepository: Sendable {
    /// Creates a category. - Throws: `duplicate` when the name is taken.
    func createCategory(_ category: Category) async throws -> Category
    /// Updates a category.
    func updateCategory(_ category: Category) async throws -> Category
    /// Deletes a category; its products keep existing without one.
    func deleteCategory(_ id: CategoryID) async throws
    /// All categories by name.
    func categories() async throws -> [Category]

    /// Creates a supplier.
    func createSupplier(_ supplier: Contact<Supplier>) async throws -> Contact<Supplier>
    /// Updates a supplier.
    func updateSupplier(_ supplier: Contact<Supplier>) async throws -> Contact<Supplier>
    /// Deletes a supplier not referenced by any purchase.
    func deleteSupplier(_ id: SupplierID) async throws
    /// Suppliers by name, optionally filtered by a search text.
    func suppliers(search: String?) async throws -> [Contact<Supplier>]

    /// Creates a customer.
    func createCustomer(_ customer: Contact<Customer>) async throws -> Contact<Customer>
    /// Updates a customer.
    func updateCustomer(_ customer: Contact<Customer>) async throws -> Contact<Customer>
    /// Deletes a customer not referenced by any sale.
    func deleteCustomer(_ id: CustomerID) async throws
    /// Customers by name, optionally filtered by a search text.
    func customers(search: String?) async throws -> [Contact<Customer>]

    /// Creates a product. - Throws: `duplicate` naming the product that owns the barcode or SKU.
    func createProduct(_ details: ProductDetails) async throws -> Product
    /// Updates a product's editable fields.
    func updateProduct(_ id: ProductID, _ details: ProductDetails) async throws -> Product
    /// Changes only the fields a patch names, reading and writing the product in one transaction; the result is
    /// validated as ``updateProduct(_:_:)`` validates a replacement, and a refused patch changes nothing.
    func updateProduct(_ id: ProductID, applying patch: ProductPatch) async throws -> Product
    /// Deletes a product that has no movements.
    func deleteProduct(_ id: ProductID) async throws
    /// One product. - Throws: `notFound`.
    func product(_ id: ProductID) async throws -> Product
    /// The product with this barcode (UPC-A, UPC-E and EAN-13 forms find the same product), if any.
    func product(barcode: String) async throws -> Product?
    /// The product with this SKU, if any.
    func product(sku: String) async throws -> Product?
    /// Products matching a query, with the total count before paging.
    func products(_ query: ProductQuery) async throws -> (products: [Product], total: Int)
    /// The shelves products not archived sit on (``ProductDetails/shelf``), by name, each with its number of such products.
    func shelves() async throws -> [Shelf]
    /// A product's ledger in ledger order.
    func movements(productID: ProductID) async throws -> [StockMovement]
    /// A product's option groups (size, milk, extras), in order.
    func optionGroups(of productID: ProductID) async throws -> [ModifierGroup]
    /// Every product's option groups (products without any are absent): what the till loads.
    func allOptionGroups() async throws -> [ProductID: [ModifierGroup]]
    /// Replaces a product's option groups (``ModifierGroup/validated(_:field:currency:)``). Groups and options sent with
    /// their id keep it; the others are new; those not sent are removed (booked sales keep their copy).
    func setOptionGroups(_ groups: [ModifierGroup], of productID: ProductID) async throws -> [ModifierGroup]
    /// A product's recipe (``Recipe``): empty for an ordinary product.
    func recipe(of productID: ProductID) async throws -> [RecipeComponent]
    /// Replaces a product's recipe (empty: none). The product must keep no stock of its own and not be an ingredient;
    /// each ingredient must exist and not be a recipe.
    func setRecipe(_ components: [RecipeComponent], of productID: ProductID) async throws -> [RecipeComponent]

    // MARK: Pictures (see ``ProductPictures``)

    /// Creates a product with its pictures (the first is the main one) in one transaction.
    /// - Throws: as ``createProduct(_:)``, and as ``ProductPictures/validated(_:field:)`` for the pictures.
    func createProduct(_ details: ProductDetails, pictures: [String]) async throws -> Product
    /// Changes a product's pictures by `command`, reading and writing them in one transaction (so two changes at the
    /// same time both count); a refused command changes nothing.
    /// - Returns: the product as stored, and the pictures no product shows any more (the caller deletes their files
    ///   once this has returned, that is after the commit).
    func changePictures(of id: ProductID, _ command: PictureCommand) async throws -> PictureOutcome
    /// Of `names`, those no product shows (for the files of a deleted product).
    func unusedPictures(among names: [String]) async throws -> [String]
}

extension CatalogueRepository {
    /// Adds a picture last, or as the main one (``PictureCommand/add(_:makeMain:)``).
    public func addPicture(_ id: ProductID, name: String, makeMain: Bool = false) async throws -> PictureOutcome {
        try await self.changePictures(of: id, .add(name, makeMain: makeMain))
    }

    /// Removes one of the product's pictures (``PictureCommand/remove(_:)``).
    public func removePicture(_ id: ProductID, name: String) async throws -> PictureOutcome {
        try await self.changePictures(of: id, .remove(name))
    }

    /// Makes one of the product's pictures the main one (``PictureCommand/makeMain(_:)``).
    public func setMainPicture(_ id: ProductID, name: String) async throws -> PictureOutcome {
        try await self.changePictures(of: id, .makeMain(name))
    }
}
