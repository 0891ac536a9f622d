import InventoryDomain

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
    /// What the product is, in the shop's words; empty when none.
    var description: String
    /// Where it sits in the shop (aisle, shelf, bin); absent when none.
    var shelf: String?
    var salePrice: String
    var minimumSalePrice: String?
    var taxRate: String
    var lowStockThreshold: String?
    /// The threshold that decides `status`: the product's, else its category's, else the shop's default.
    var effectiveLowStockThreshold: String
    var tracksStock: Bool
    var allowsNegativeStock: Bool
    var archived: Bool
    /// The supplier it is usually bought from (reorders group by it); nil when none.
    var preferredSupplierId: Int64?
    /// The supplier's own code for it.
    var supplierCode: String?
    /// The pack it is bought in: reorders are rounded up to whole packs.
    var packSize: String
    /// The average cost: stock value ÷ quantity rounded once to the minor unit (what one unit issued now books).
    /// Like every ``Cost`` member, only in answers to callers who may see costs (``Permission/viewCosts``).
    @Cost var averageCost: String
    /// The average cost at full precision (four decimals beyond the currency's), as the ledger keeps it.
    @Cost var averageCostExact: String
    /// `averageCost` under its former name, for existing clients.
    @Cost var costPrice: String
    var quantity: String
    @Cost var stockValue: String
    var status: String
    /// Whether nothing of it can be sold now (``Product/isSoldOut``): the till greys its tile.
    var soldOut: Bool
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
        self.description = d.description
        self.shelf = d.shelf
        self.salePrice = formats.string(d.salePrice)
        self.minimumSalePrice = d.minimumSalePrice.map(formats.string)
        self.taxRate = d.taxRate.decimalString
        self.lowStockThreshold = d.lowStockThreshold?.decimalString
        self.effectiveLowStockThreshold = thresholds.threshold(for: d).decimalString
        self.tracksStock = d.tracksStock
        self.allowsNegativeStock = d.allowsNegativeStock
        self.archived = d.isArchived
        self.preferredSupplierId = d.preferredSupplierID?.rawValue
        self.supplierCode = d.supplierCode
        self.packSize = d.packSize.decimalString
        let averageCost = formats.string(product.stock.roundedAverageCost)
        self.averageCost = averageCost
        self.averageCostExact = formats.exactString(product.stock.averageCost)
        self.costPrice = averageCost
        self.quantity = product.stock.quantity.decimalString
        self.stockValue = formats.string(product.stock.value)
        self.status = thresholds.status(of: product).rawValue
        self.soldOut = product.isSoldOut
        self.createdAt = formats.string(Instant(milliseconds: product.createdAt))
        self.updatedAt = formats.string(Instant(milliseconds: product.updatedAt))
    }
}

extension ProductResponse: SortedJSONWritable {
    func writeSortedJSON(to object: inout SortedJSONObject) {
        let costs = CostDisclosure.visible
        object.bool("allowsNegativeStock", self.allowsNegativeStock)
        object.bool("archived", self.archived)
        if costs {
            object.string("averageCost", self.averageCost)
            object.string("averageCostExact", self.averageCostExact)
        }
        object.string("barcode", self.barcode)
        object.integer("categoryId", self.categoryId)
        if costs { object.string("costPrice", self.costPrice) }
        object.string("createdAt", self.createdAt)
        object.string("description", self.description)
        object.string("effectiveLowStockThreshold", self.effectiveLowStockThreshold)
        object.string("iconEmoji", self.iconEmoji)
        object.integer("id", self.id)
        object.string("imageRef", self.imageRef)
        object.string("lowStockThreshold", self.lowStockThreshold)
        object.string("minimumSalePrice", self.minimumSalePrice)
        object.string("name", self.name)
        object.string("packSize", self.packSize)
        object.objects("pictures", self.pictures)
        object.integer("preferredSupplierId", self.preferredSupplierId)
        object.string("quantity", self.quantity)
        object.string("salePrice", self.salePrice)
        object.string("shelf", self.shelf)
        object.string("sku", self.sku)
        object.bool("soldOut", self.soldOut)
        object.string("status", self.status)
        if costs { object.string("stockValue", self.stockValue) }
        object.string("supplierCode", self.supplierCode)
        object.string("taxRate", self.taxRate)
        object.bool("tracksStock", self.tracksStock)
        object.string("unit", self.unit)
        object.string("updatedAt", self.updatedAt)
    }
}

/// `POST /api/v1/products`, `PUT /api/v1/products/{id}` (and a purchase line's `newProduct`): the fields of a product
/// to create or replace. Amounts are decimal strings.
struct ProductRequest: Decodable, Sendable, KnownFields {
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
    var description: String?
    var shelf: String?
    /// Left out (or null): no preferred supplier.
    var preferredSupplierId: Int64?
    var supplierCode: String?
    /// Left out: 1.
    var packSize: String?

    enum CodingKeys: String, CodingKey, CaseIterable {
        case name, sku, barcode, categoryId, unit, iconEmoji, salePrice, minimumSalePrice, taxRate, lowStockThreshold,
            tracksStock, allowsNegativeStock, archived, preferredSupplierId, supplierCode, packSize
        case description, shelf
    }
    static var fields: [String] { CodingKeys.allCases.map(\.stringValue) }

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
        details.preferredSupplierID = self.preferredSupplierId.map(SupplierID.init(rawValue:))
        details.supplierCode = self.supplierCode
        details.packSize = try self.packSize.map { try Quantity.parse($0, field: "packSize") } ?? Quantity(1)
        if let description { details.description = description }
        if let shelf { details.shelf = shelf }
        return details
    }
}

/// `POST /api/v1/products`: the fields of ``ProductRequest`` and, optionally, the stock the product starts with.
struct NewProductRequest: Decodable, Sendable, KnownFields {
    var product: ProductRequest
    var openingStock: OpeningStockRequest?

    private enum Keys: String, CodingKey { case openingStock }
    static var fields: [String] { ProductRequest.fields + [Keys.openingStock.stringValue] }
    static var nested: [String: any KnownFields.Type] { [Keys.openingStock.stringValue: OpeningStockRequest.self] }

    init(from decoder: any Decoder) throws {
        self.product = try ProductRequest(from: decoder)
        self.openingStock = try decoder.container(keyedBy: Keys.self).decodeIfPresent(OpeningStockRequest.self, forKey: .openingStock)
    }
}

/// A new product's `openingStock`: the quantity on hand and what one unit cost (decimal strings), booked as an opening
/// adjustment (reason `initial`) with the product (``OpeningStock``).
struct OpeningStockRequest: Decodable, Sendable, KnownFields {
    var quantity: String?
    var unitCost: String?

    enum CodingKeys: String, CodingKey, CaseIterable { case quantity, unitCost }
    static var fields: [String] { CodingKeys.allCases.map(\.stringValue) }

    /// The domain's opening stock, amounts read in the shop's currency (checked by ``OpeningStock/validated(for:)``).
    func openingStock(formats: Formats) throws -> OpeningStock {
        guard let quantity else { throw InventoryError(.missingValue, field: "openingStock.quantity", "is required with an opening stock") }
        return OpeningStock(quantity: try formats.quantity(quantity, field: "openingStock.quantity"),
                            unitCost: try formats.money(self.unitCost, field: "openingStock.unitCost"))
    }
}

/// `GET /api/v1/products/shelves`: one shelf products sit on.
struct ShelfResponse: Encodable, Sendable {
    var name: String
    /// Products not archived on it.
    var products: Int
}

/// `GET /api/v1/products/price-preview`: a product's price as its form shows it before it is saved
/// (``ProductPriceFigures``). The suggestion tells the cost (with the markup), so it is a cost.
struct PricePreviewResponse: Encodable, Sendable {
    /// Whether the shop's prices include tax (so `salePrice` is what the customer pays).
    var pricesIncludeTax: Bool
    /// The category's markup, when a category was named.
    var markup: String?
    @Cost var suggestedSalePrice: String?
    var netPrice: String?
    var tax: String?
    var finalPrice: String?
}

/// A JSON merge patch (RFC 7396) of a product: a member left out keeps its value, `null` clears an optional one
/// (sku, barcode, categoryId, minimumSalePrice, lowStockThreshold, shelf; iconEmoji goes back to the name's icon; description
/// becomes empty).
/// `PATCH /api/v1/products/{id}`; its members are those of ``ProductRequest``.
struct ProductPatchRequest: Decodable, Sendable, KnownFields {
    var patch: [CodingKeys: Value] = [:]

    /// A member as sent: `null`, or a value.
    enum Value: Sendable {
        case null, string(String), integer(Int64), boolean(Bool)
    }

    typealias CodingKeys = ProductRequest.CodingKeys
    static var fields: [String] { ProductRequest.fields }

    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        for key in CodingKeys.allCases where c.contains(key) {
            if try c.decodeNil(forKey: key) {
                self.patch[key] = .null
            } else {
                switch key {
                case .categoryId, .preferredSupplierId: self.patch[key] = .integer(try c.decode(Int64.self, forKey: key))
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
            case .preferredSupplierId:
                if case .integer(let id) = value { patch.preferredSupplierID = SupplierID(rawValue: id) } else { patch.preferredSupplierID = .some(nil) }
            case .supplierCode: patch.supplierCode = .some(text)
            case .packSize: patch.packSize = try Quantity.parse(try required(), field: field)
            case .description: patch.description = text ?? ""
            case .shelf: patch.shelf = .some(text)
            }
        }
        return patch
    }
}

/// `GET /api/v1/products`: one page of the list.
struct ProductPage: Encodable, Sendable {
    var items: [ProductResponse]
    var total: Int
    var limit: Int
    var offset: Int
}

extension ProductPage: SortedJSONWritable {
    func writeSortedJSON(to object: inout SortedJSONObject) {
        object.objects("items", self.items)
        object.integer("limit", Int64(self.limit))
        object.integer("offset", Int64(self.offset))
        object.integer("total", Int64(self.total))
    }
}

/// One line of `GET /api/v1/products/{id}/movements`: a product's ledger.
struct MovementResponse: Encodable, Sendable {
    var id: Int64
    var kind: String
    var reason: String?
    var documentId: Int64
    var effectiveAt: String
    var recordedAt: String
    var quantity: String
    @Cost var valueChange: String
    @Cost var costAdjustment: String
    var quantityAfter: String
    @Cost var valueAfter: String
    /// The average cost after the movement, rounded once (``LedgerBalance/roundedAverageCost``).
    @Cost var averageCostAfter: String
    /// The same at full precision.
    @Cost var averageCostAfterExact: String
    /// What one unit of the movement was worth in the books, rounded once (``StockMovement/unitCost``); nil when no
    /// quantity moved.
    @Cost var unitCost: String?

    init(_ m: StockMovement, formats: Formats) {
        self.id = m.id.rawValue
        self.kind = m.kind.rawValue
        self.reason = m.reason?.rawValue
        self.documentId = m.documentID
        self.effectiveAt = formats.string(Instant(milliseconds: m.position.effectiveAt))
        self.recordedAt = formats.string(Instant(milliseconds: m.recordedAt))
        self.quantity = m.quantity.decimalString
        self.valueChange = formats.string(m.valueChange)
        self.costAdjustment = formats.string(m.costAdjustment)
        self.quantityAfter = m.balance.quantity.decimalString
        self.valueAfter = formats.string(m.balance.value)
        self.averageCostAfter = formats.string(m.balance.roundedAverageCost)
        self.averageCostAfterExact = formats.exactString(m.balance.averageCost)
        self.unitCost = m.unitCost.map { formats.string($0.rounded) }
    }
}

/// `GET /api/v1/products/{id}/price-suggestion?categoryId=`: the sale price a category's markup suggests for the
/// product's cost price (nil when the product has no cost yet). The suggested price tells the cost (with the markup),
/// so both are costs.
struct PriceSuggestionResponse: Encodable, Sendable {
    var categoryId: Int64
    var markup: String
    @Cost var costPrice: String
    @Cost var salePrice: String?
}
