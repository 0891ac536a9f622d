import Foundation
import Hummingbird
import InventoryDomain

/// `/api/v1/products`: the catalogue with stock from the books.
struct ProductController<Repository: CatalogueRepository & LedgerRepository & SettingsRepository> {
    let repository: Repository
    /// The pictures' files, so deleting a product deletes those no other product shows (nil: left in place).
    var images: ImageStore? = nil

    func addRoutes(to group: Routes) {
        group.get(.permission(.viewCatalogue), use: self.list)
        group.post(.permission(.editCatalogue), use: self.create)
        group.get("barcode/:code", .permission(.viewCatalogue), use: self.byBarcode)
        group.get("price-preview", .permission(.editCatalogue), use: self.pricePreview)
        group.get("shelves", .permission(.viewCatalogue), use: self.shelves)
        group.get(":id", .permission(.viewCatalogue), use: self.get)
        group.put(":id", .permission(.editCatalogue), use: self.update)
        group.patch(":id", .permission(.editCatalogue), use: self.patch)
        group.delete(":id", .permission(.editCatalogue), use: self.delete)
        group.post(":id/archive", .permission(.editCatalogue), use: self.archive)
        group.post(":id/restore", .permission(.editCatalogue), use: self.restore)
        group.get(":id/movements", .permission(.viewCatalogue), use: self.movements)
        group.get(":id/price-suggestion", .permission(.viewCatalogue), use: self.priceSuggestion)
    }

    func formats() async throws -> Formats { try await self.repository.formats().0 }

    func respond(_ product: Product, status: HTTPResponse.Status = .ok) async throws -> JSON<ProductResponse> {
        let (formats, settings) = try await self.repository.formats()
        return JSON(ProductResponse(product, formats: formats, thresholds: try await self.repository.stockThresholds(settings: settings)), status: status)
    }

    @Sendable func list(_ request: Request, context: some RequestContext) async throws -> JSON<ProductPage> {
        var query = ProductQuery()
        query.search = request.query("search")
        if let category = request.query("categoryId") {
            guard let id = Int64(category) else { throw InventoryError(.invalidValue, field: "categoryId", "'\(category)' is not an id") }
            query.categoryID = CategoryID(id)
        }
        if let status = request.query("status") {
            guard let value = StockStatus(rawValue: status) else {
                throw InventoryError(.invalidValue, field: "status", "must be one of \(StockStatus.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            query.status = value
        }
        if let sort = request.query("sort") {
            guard let value = ProductQuery.Sort(rawValue: sort) else {
                throw InventoryError(.invalidValue, field: "sort", "must be one of \(ProductQuery.Sort.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            query.sort = value
        }
        query.includeArchived = request.query("archived") == "true"
        query.limit = try request.queryInt("limit", default: 50, range: 1...500)
        query.offset = try request.queryInt("offset", default: 0, range: 0...Int(Int32.max))
        let result = try await self.repository.products(query)
        let formats = try await self.formats()
        let thresholds = try await self.repository.stockThresholds()
        return JSON(ProductPage(items: result.products.map { ProductResponse($0, formats: formats, thresholds: thresholds) },
                         total: result.total, limit: query.limit, offset: query.offset))
    }

    @Sendable func get(_ request: Request, context: some RequestContext) async throws -> JSON<ProductResponse> {
        try await self.respond(try await self.repository.product(ProductID(try request.id(context))))
    }

    @Sendable func byBarcode(_ request: Request, context: some RequestContext) async throws -> JSON<ProductResponse> {
        let code = context.parameters.get("code") ?? ""
        // A code that cannot be a barcode (a GTIN with a wrong check digit, unprintable text) is refused with the
        // domain's reason, so every screen that looks a typed code up says the same as saving it would.
        do { _ = try Barcode.normalize(code) } catch let error as InventoryError { throw InventoryError(error.code, field: "code", error.userMessage) }
        guard let product = try await self.repository.product(barcode: code) else {
            throw InventoryError(.notFound, field: "code", "no product has the barcode \(code)")
        }
        return try await self.respond(product)
    }

    @Sendable func create(_ request: Request, context: some RequestContext) async throws -> JSON<ProductResponse> {
        let body = try await request.decodeJSON(as: NewProductRequest.self, context: context)
        let settings = try await self.repository.settings()
        let formats = try await self.formats()
        let details = try body.product.details(formats: formats, defaultTax: settings.defaultTaxRate)
        guard let opening = body.openingStock else {
            return try await self.respond(try await self.repository.createProduct(details), status: .created)
        }
        let stock = try opening.openingStock(formats: formats)
        return try await self.respond(try await self.repository.createProduct(details, openingStock: stock), status: .created)
    }

    @Sendable func update(_ request: Request, context: some RequestContext) async throws -> JSON<ProductResponse> {
        let id = ProductID(try request.id(context))
        let body = try await request.decodeJSON(as: ProductRequest.self, context: context)
        let current = try await self.repository.product(id)
        let details = try body.details(formats: try await self.formats(), defaultTax: .zero, base: current.details)
        return try await self.respond(try await self.repository.updateProduct(id, details))
    }

    /// `PATCH /api/v1/products/{id}`: changes only the members sent (`application/merge-patch+json` or JSON).
    @Sendable func patch(_ request: Request, context: some RequestContext) async throws -> JSON<ProductResponse> {
        let id = ProductID(try request.id(context))
        let body = try await request.decodeJSON(as: ProductPatchRequest.self, context: context)
        let patch = try body.productPatch(formats: try await self.formats())
        return try await self.respond(try await self.repository.updateProduct(id, applying: patch))
    }

    @Sendable func archive(_ request: Request, context: some RequestContext) async throws -> JSON<ProductResponse> {
        try await self.setArchived(true, request, context)
    }

    @Sendable func restore(_ request: Request, context: some RequestContext) async throws -> JSON<ProductResponse> {
        try await self.setArchived(false, request, context)
    }

    func setArchived(_ archived: Bool, _ request: Request, _ context: some RequestContext) async throws -> JSON<ProductResponse> {
        let id = ProductID(try request.id(context))
        var details = try await self.repository.product(id).details
        details.isArchived = archived
        return try await self.respond(try await self.repository.updateProduct(id, details))
    }

    @Sendable func delete(_ request: Request, context: some RequestContext) async throws -> Response {
        let id = ProductID(try request.id(context))
        guard let images = self.images else {
            try await self.repository.deleteProduct(id)
            return Response(status: .noContent)
        }
        let repository = self.repository
        try await images.exclusively {
            let pictures = try await repository.product(id).pictures
            try await repository.deleteProduct(id)
            await images.delete(try await repository.unusedPictures(among: pictures))
        }
        return Response(status: .noContent)
    }

    @Sendable func movements(_ request: Request, context: some RequestContext) async throws -> JSON<[MovementResponse]> {
        JSON(try await self.movements(ProductID(try request.id(context))))
    }

    /// A product's ledger as `GET /products/{id}/movements` answers it (and the command line's `product movements --format json`).
    func movements(_ id: ProductID) async throws -> [MovementResponse] {
        let formats = try await self.formats()
        let movements = try await self.repository.movements(productID: id)
        return movements.map { MovementResponse($0, formats: formats) }
    }

    /// `GET /products/shelves`: the shelves products (not archived) sit on, by name, with how many each holds — what a
    /// stocktake of one shelf and the product form's shelf field offer.
    @Sendable func shelves(_ request: Request, context: some RequestContext) async throws -> JSON<[ShelfResponse]> {
        JSON(try await self.repository.shelves().map { ShelfResponse(name: $0.name, products: $0.products) })
    }

    /// `GET /products/price-preview?salePrice=&taxRate=&cost=&categoryId=`: what the form of a product not yet saved shows
    /// as it is typed (``ProductPriceFigures``): the price the category's markup suggests for the cost, and one unit at
    /// the sale price before tax, its tax and what the customer pays. Every parameter is optional; `taxRate` defaults
    /// to the shop's default rate.
    @Sendable func pricePreview(_ request: Request, context: some RequestContext) async throws -> JSON<PricePreviewResponse> {
        let formats = try await self.formats()
        let settings = try await self.repository.settings()
        func text(_ name: String) -> String? { request.query(name)?.trimmingCharacters(in: .whitespaces).nilIfEmpty }
        let salePrice = try formats.money(text("salePrice"), field: "salePrice")
        let cost = try formats.money(text("cost"), field: "cost")
        let taxRate = try text("taxRate").map { try Percent.parse($0, field: "taxRate") } ?? settings.defaultTaxRate
        var category: Category?
        if let id = text("categoryId") {
            guard let value = Int64(id) else { throw InventoryError(.invalidValue, field: "categoryId", "'\(id)' is not an id") }
            guard let found = try await self.repository.categories().first(where: { $0.id.rawValue == value }) else {
                throw InventoryError(.notFound, field: "categoryId", "category \(value) does not exist")
            }
            category = found
        }
        let figures = try ProductPriceFigures.of(salePrice: salePrice, taxRate: taxRate, cost: cost, category: category,
                                                 pricesIncludeTax: settings.pricesIncludeTax)
        return JSON(PricePreviewResponse(
            pricesIncludeTax: settings.pricesIncludeTax, markup: category?.markup.decimalString,
            suggestedSalePrice: figures.suggestedSalePrice.map(formats.string), netPrice: figures.netPrice.map(formats.string),
            tax: figures.tax.map(formats.string), finalPrice: figures.finalPrice.map(formats.string)))
    }

    /// `GET /products/{id}/price-suggestion?categoryId=`: what the category's markup (the product's own category when
    /// none is given) makes of the product's cost price (``Category/suggestedSalePrice(cost:taxRate:pricesIncludeTax:)``).
    @Sendable func priceSuggestion(_ request: Request, context: some RequestContext) async throws -> JSON<PriceSuggestionResponse> {
        let product = try await self.repository.product(ProductID(try request.id(context)))
        let categoryID: CategoryID
        if let text = request.query("categoryId") {
            guard let id = Int64(text) else { throw InventoryError(.invalidValue, field: "categoryId", "'\(text)' is not an id") }
            categoryID = CategoryID(id)
        } else if let own = product.details.categoryID {
            categoryID = own
        } else {
            throw InventoryError(.missingValue, field: "categoryId", "the product has no category; name one")
        }
        guard let category = try await self.repository.categories().first(where: { $0.id == categoryID }) else {
            throw InventoryError(.notFound, field: "categoryId", "category \(categoryID) does not exist")
        }
        let formats = try await self.formats()
        let includeTax = try await self.repository.settings().pricesIncludeTax
        let cost = product.costPrice
        return JSON(PriceSuggestionResponse(categoryId: category.id.rawValue, markup: category.markup.decimalString, costPrice: formats.string(cost),
                                            salePrice: cost > .zero ? formats.string(category.suggestedSalePrice(
                                                cost: cost, taxRate: product.details.taxRate, pricesIncludeTax: includeTax)) : nil))
    }
}
