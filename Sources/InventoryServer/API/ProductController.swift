import Foundation
import Hummingbird
import InventoryDomain

/// `/api/v1/products`: the catalogue with stock from the books.
struct ProductController<Repository: InventoryRepository> {
    let repository: Repository
    /// The pictures' files, so deleting a product deletes those no other product shows (nil: left in place).
    var images: ImageStore? = nil

    /// A product as the API shows it: amounts as decimal strings, stock from the ledger.
    struct ProductResponse: Codable, Sendable, Equatable {
        var id: Int64
        var name: String
        var sku: String?
        var barcode: String?
        var categoryId: Int64?
        var unit: String
        /// The main picture's name (the first of `pictures`), kept for existing clients.
        var imageRef: String?
        /// Every picture, the main one first.
        var pictures: [PictureResponse]
        var iconEmoji: String
        var salePrice: String
        var minimumSalePrice: String?
        var taxRate: String
        var lowStockThreshold: String?
        /// The threshold that decides `status`: the product's, else its category's, else the shop's default.
        var effectiveLowStockThreshold: String
        var tracksStock: Bool
        var allowsNegativeStock: Bool
        var archived: Bool
        /// The average cost: stock value ÷ quantity rounded once to the minor unit (what one unit issued now books).
        var averageCost: String
        /// The average cost at full precision (four decimals beyond the currency's), as the ledger keeps it.
        var averageCostExact: String
        /// `averageCost` under its former name, for existing clients.
        var costPrice: String
        var quantity: String
        var stockValue: String
        var status: String
        var createdAt: String
        var updatedAt: String

        init(_ product: Product, formats: Formats, thresholds: StockThresholds) {
            let d = product.details
            self.id = product.id.rawValue
            self.name = d.name
            self.sku = d.sku
            self.barcode = d.barcode
            self.categoryId = d.categoryID?.rawValue
            self.unit = d.unit
            self.imageRef = product.imageRef
            self.pictures = product.pictures.map(PictureResponse.init)
            self.iconEmoji = d.iconEmoji
            self.salePrice = formats.string(d.salePrice)
            self.minimumSalePrice = d.minimumSalePrice.map(formats.string)
            self.taxRate = d.taxRate.decimalString
            self.lowStockThreshold = d.lowStockThreshold?.decimalString
            self.effectiveLowStockThreshold = thresholds.threshold(for: d).decimalString
            self.tracksStock = d.tracksStock
            self.allowsNegativeStock = d.allowsNegativeStock
            self.archived = d.isArchived
            self.averageCost = formats.string(product.stock.roundedAverageCost)
            self.averageCostExact = formats.exactString(product.stock.averageCost)
            self.costPrice = self.averageCost
            self.quantity = product.stock.quantity.decimalString
            self.stockValue = formats.string(product.stock.value)
            self.status = thresholds.status(of: product).rawValue
            self.createdAt = formats.string(Instant(milliseconds: product.createdAt))
            self.updatedAt = formats.string(Instant(milliseconds: product.updatedAt))
        }
    }

    /// The fields of a product to create or replace. Amounts are decimal strings.
    struct ProductRequest: Decodable, Sendable {
        var name: String
        var sku: String?
        var barcode: String?
        var categoryId: Int64?
        var unit: String?
        var iconEmoji: String?
        var salePrice: String?
        var minimumSalePrice: String?
        var taxRate: String?
        var lowStockThreshold: String?
        var tracksStock: Bool?
        var allowsNegativeStock: Bool?
        var archived: Bool?

        enum CodingKeys: String, CodingKey, CaseIterable {
            case name, sku, barcode, categoryId, unit, iconEmoji, salePrice, minimumSalePrice, taxRate, lowStockThreshold,
                tracksStock, allowsNegativeStock, archived
        }

        init(from decoder: any Decoder) throws {
            try decoder.rejectUnknownKeys(CodingKeys.self)
            let c = try decoder.container(keyedBy: CodingKeys.self)
            self.name = try c.decode(String.self, forKey: .name)
            self.sku = try c.decodeIfPresent(String.self, forKey: .sku)
            self.barcode = try c.decodeIfPresent(String.self, forKey: .barcode)
            self.categoryId = try c.decodeIfPresent(Int64.self, forKey: .categoryId)
            self.unit = try c.decodeIfPresent(String.self, forKey: .unit)
            self.iconEmoji = try c.decodeIfPresent(String.self, forKey: .iconEmoji)
            self.salePrice = try c.decodeIfPresent(String.self, forKey: .salePrice)
            self.minimumSalePrice = try c.decodeIfPresent(String.self, forKey: .minimumSalePrice)
            self.taxRate = try c.decodeIfPresent(String.self, forKey: .taxRate)
            self.lowStockThreshold = try c.decodeIfPresent(String.self, forKey: .lowStockThreshold)
            self.tracksStock = try c.decodeIfPresent(Bool.self, forKey: .tracksStock)
            self.allowsNegativeStock = try c.decodeIfPresent(Bool.self, forKey: .allowsNegativeStock)
            self.archived = try c.decodeIfPresent(Bool.self, forKey: .archived)
        }

        /// The domain fields, keeping `base`'s image and anything not given.
        func details(formats: Formats, defaultTax: Percent, base: ProductDetails? = nil) throws -> ProductDetails {
            var details = base ?? ProductDetails(name: "", taxRate: defaultTax)
            details.name = self.name
            details.sku = self.sku
            details.barcode = self.barcode
            details.categoryID = self.categoryId.map(CategoryID.init(rawValue:))
            if let unit { details.unit = unit }
            if let iconEmoji { details.iconEmoji = iconEmoji }
            if let salePrice { details.salePrice = try formats.money(salePrice, field: "salePrice") }
            details.minimumSalePrice = try formats.money(self.minimumSalePrice, field: "minimumSalePrice")
            if let taxRate { details.taxRate = try Percent.parse(taxRate, field: "taxRate") }
            details.lowStockThreshold = try self.lowStockThreshold.map { try Quantity.parse($0, field: "lowStockThreshold") }
            if let tracksStock { details.tracksStock = tracksStock }
            if let allowsNegativeStock { details.allowsNegativeStock = allowsNegativeStock }
            if let archived { details.isArchived = archived }
            return details
        }
    }

    /// A JSON merge patch (RFC 7396) of a product: a member left out keeps its value, `null` clears an optional one
    /// (sku, barcode, categoryId, minimumSalePrice, lowStockThreshold; iconEmoji goes back to the name's icon).
    struct ProductPatchRequest: Decodable, Sendable {
        var patch: [CodingKeys: Value] = [:]

        /// A member as sent: `null`, or a value.
        enum Value: Sendable {
            case null, string(String), integer(Int64), boolean(Bool)
        }

        typealias CodingKeys = ProductRequest.CodingKeys

        init(from decoder: any Decoder) throws {
            try decoder.rejectUnknownKeys(CodingKeys.self)
            let c = try decoder.container(keyedBy: CodingKeys.self)
            for key in CodingKeys.allCases where c.contains(key) {
                if try c.decodeNil(forKey: key) {
                    self.patch[key] = .null
                } else {
                    switch key {
                    case .categoryId: self.patch[key] = .integer(try c.decode(Int64.self, forKey: key))
                    case .tracksStock, .allowsNegativeStock, .archived: self.patch[key] = .boolean(try c.decode(Bool.self, forKey: key))
                    default: self.patch[key] = .string(try c.decode(String.self, forKey: key))
                    }
                }
            }
        }

        /// The domain's patch; amounts are read in the shop's currency.
        func productPatch(formats: Formats) throws -> ProductPatch {
            var patch = ProductPatch()
            for key in CodingKeys.allCases {
                guard let value = self.patch[key] else { continue }
                let field = key.stringValue
                let text: String?
                switch value {
                case .null: text = nil
                case .string(let string): text = string
                case .integer, .boolean: text = nil
                }
                func required() throws -> String {
                    guard let text else {
                        throw InventoryError(key == .name ? .missingValue : .invalidValue, field: field,
                                             key == .name ? "is required" : "cannot be cleared; leave it out to keep it")
                    }
                    return text
                }
                func flag() throws -> Bool {
                    guard case .boolean(let flag) = value else {
                        throw InventoryError(.invalidValue, field: field, "cannot be cleared; leave it out to keep it")
                    }
                    return flag
                }
                switch key {
                case .name: patch.name = try required()
                case .sku: patch.sku = .some(text)
                case .barcode: patch.barcode = .some(text)
                case .categoryId:
                    if case .integer(let id) = value { patch.categoryID = CategoryID(rawValue: id) } else { patch.categoryID = .some(nil) }
                case .unit: patch.unit = try required()
                case .iconEmoji: patch.iconEmoji = .some(text)
                case .salePrice: patch.salePrice = .some(try formats.money(try required(), field: field) as Money)
                case .minimumSalePrice: patch.minimumSalePrice = .some(try text.map { try formats.money($0, field: field) as Money })
                case .taxRate: patch.taxRate = try Percent.parse(try required(), field: field)
                case .lowStockThreshold: patch.lowStockThreshold = .some(try text.map { try Quantity.parse($0, field: field) })
                case .tracksStock: patch.tracksStock = try flag()
                case .allowsNegativeStock: patch.allowsNegativeStock = try flag()
                case .archived: patch.isArchived = try flag()
                }
            }
            return patch
        }
    }

    struct Page: Encodable, Sendable {
        var items: [ProductResponse]
        var total: Int
        var limit: Int
        var offset: Int
    }

    struct MovementResponse: Encodable, Sendable {
        var id: Int64
        var kind: String
        var reason: String?
        var documentId: Int64
        var effectiveAt: String
        var recordedAt: String
        var quantity: String
        var valueChange: String
        var costAdjustment: String
        var quantityAfter: String
        var valueAfter: String
        /// The average cost after the movement, rounded once (``LedgerBalance/roundedAverageCost``).
        var averageCostAfter: String
        /// The same at full precision.
        var averageCostAfterExact: String
    }

    func addRoutes(to group: Routes) {
        group.get(.permission(.viewCatalogue), use: self.list)
        group.post(.permission(.editCatalogue), use: self.create)
        group.get("barcode/:code", .permission(.viewCatalogue), use: self.byBarcode)
        group.get(":id", .permission(.viewCatalogue), use: self.get)
        group.put(":id", .permission(.editCatalogue), use: self.update)
        group.patch(":id", .permission(.editCatalogue), use: self.patch)
        group.delete(":id", .permission(.editCatalogue), use: self.delete)
        group.post(":id/archive", .permission(.editCatalogue), use: self.archive)
        group.post(":id/restore", .permission(.editCatalogue), use: self.restore)
        group.get(":id/movements", .permission(.viewCatalogue), use: self.movements)
    }

    func formats() async throws -> Formats { try await self.repository.formats().0 }

    func respond(_ product: Product, status: HTTPResponse.Status = .ok) async throws -> JSON<ProductResponse> {
        JSON(ProductResponse(product, formats: try await self.formats(), thresholds: try await self.repository.stockThresholds()), status: status)
    }

    @Sendable func list(_ request: Request, context: some RequestContext) async throws -> JSON<Page> {
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
        return JSON(Page(items: result.products.map { ProductResponse($0, formats: formats, thresholds: thresholds) },
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
        let body = try await request.decodeJSON(as: ProductRequest.self, context: context)
        let settings = try await self.repository.settings()
        let details = try body.details(formats: try await self.formats(), defaultTax: settings.defaultTaxRate)
        return try await self.respond(try await self.repository.createProduct(details), status: .created)
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
            images.delete(try await repository.unusedPictures(among: pictures))
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
        return movements.map { m in
            MovementResponse(
                id: m.id.rawValue, kind: m.kind.rawValue, reason: m.reason?.rawValue, documentId: m.documentID,
                effectiveAt: formats.string(Instant(milliseconds: m.position.effectiveAt)), recordedAt: formats.string(Instant(milliseconds: m.recordedAt)),
                quantity: m.quantity.decimalString, valueChange: formats.string(m.valueChange), costAdjustment: formats.string(m.costAdjustment),
                quantityAfter: m.balance.quantity.decimalString, valueAfter: formats.string(m.balance.value),
                averageCostAfter: formats.string(m.balance.roundedAverageCost), averageCostAfterExact: formats.exactString(m.balance.averageCost))
        }
    }
}
