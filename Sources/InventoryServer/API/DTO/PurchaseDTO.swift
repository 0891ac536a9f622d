import InventoryDomain

/// `POST` and `PUT /api/v1/purchases`: a receipt from a supplier, each line an existing product or a new one.
struct PurchaseRequest: Decodable, Sendable, KnownFields {
    var effectiveAt: String?
    var supplierId: Int64?
    var note: String?
    var lines: [Line]

    struct Line: Decodable, Sendable, KnownFields {
        var productId: Int64?
        var newProduct: ProductRequest?
        var quantity: String
        var unitCost: String
        var lotCode: String?
        var expiryDate: String?

        enum CodingKeys: String, CodingKey, CaseIterable { case productId, newProduct, quantity, unitCost, lotCode, expiryDate }
        static var fields: [String] { CodingKeys.allCases.map(\.stringValue) }
        static var nested: [String: any KnownFields.Type] { ["newProduct": ProductRequest.self] }
    }

    enum CodingKeys: String, CodingKey, CaseIterable { case effectiveAt, supplierId, note, lines }
    static var fields: [String] { CodingKeys.allCases.map(\.stringValue) }
    static var nested: [String: any KnownFields.Type] { ["lines": Line.self] }

    func draft(_ formats: Formats, defaultTax: Percent) throws -> PurchaseDraft {
        try requireLineLimit(self.lines.count)
        let lines = try self.lines.enumerated().map { index, line -> PurchaseDraft.Line in
            let field = "lines[\(index)]"
            let product: ProductReference
            switch (line.productId, line.newProduct) {
            case (let id?, nil): product = .existing(ProductID(id))
            case (nil, let new?):
                do {
                    product = .new(try new.details(formats: formats, defaultTax: defaultTax))
                } catch let error as InventoryError {
                    throw error.nested(under: "\(field).newProduct")
                }
            default:
                throw InventoryError(.missingValue, field: "\(field).productId", "give either productId or newProduct")
            }
            return PurchaseDraft.Line(
                product: product, quantity: try formats.quantity(line.quantity, field: "\(field).quantity"),
                unitCost: try formats.money(line.unitCost, field: "\(field).unitCost"), lotCode: line.lotCode, expiryDate: line.expiryDate)
        }
        return PurchaseDraft(effectiveAt: try formats.date(self.effectiveAt, field: "effectiveAt"),
                             supplierID: self.supplierId.map(SupplierID.init(rawValue:)), note: self.note ?? "", lines: lines)
            .dating(whenBooked: self.effectiveAt == nil)
    }
}

/// A purchase as `/api/v1/purchases` answers it, each line with the average cost after it. Its amounts are what the
/// stock cost, so they are ``Cost`` members (purchases are a manager's, who may see costs).
struct PurchaseResponse: Encodable, Sendable {
    var id: Int64
    var effectiveAt: String
    var recordedAt: String
    var supplierId: Int64?
    var supplierName: String?
    var note: String
    @Cost var total: String
    var lines: [Line]

    struct Line: Encodable, Sendable {
        var id: Int64
        var productId: Int64
        var productName: String
        var quantity: String
        @Cost var unitCost: String
        @Cost var amount: String
        var lotCode: String?
        var expiryDate: String?
        /// The product's average cost after the line, rounded once (``LedgerBalance/roundedAverageCost``).
        @Cost var averageCostAfter: String
        /// The same at full precision.
        @Cost var averageCostAfterExact: String
    }

    init(_ p: PurchaseRecord, _ f: Formats) {
        self.id = p.id.rawValue
        self.effectiveAt = f.string(p.effectiveAt)
        self.recordedAt = f.string(p.recordedAt)
        self.supplierId = p.supplierID?.rawValue
        self.supplierName = p.supplierName
        self.note = p.note
        self.total = f.string(p.total)
        self.lines = p.lines.map {
            Line(id: $0.movementID.rawValue, productId: $0.productID.rawValue, productName: $0.productName, quantity: $0.quantity.decimalString,
                 unitCost: f.string($0.unitCost), amount: f.string($0.amount), lotCode: $0.lotCode, expiryDate: $0.expiryDate,
                 averageCostAfter: f.string($0.balanceAfter.roundedAverageCost), averageCostAfterExact: f.exactString($0.averageCostAfter))
        }
    }
}
