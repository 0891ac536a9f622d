import InventoryDomain

/// A purchase as `/api/v1/purchases` answers it, each line with the average cost after it.
struct PurchaseResponse: Encodable, Sendable {
    var id: Int64
    var effectiveAt: String
    var recordedAt: String
    var supplierId: Int64?
    var supplierName: String?
    var note: String
    var total: String
    var lines: [Line]

    struct Line: Encodable, Sendable {
        var id: Int64
        var productId: Int64
        var productName: String
        var quantity: String
        var unitCost: String
        var amount: String
        var lotCode: String?
        var expiryDate: String?
        /// The product's average cost after the line, rounded once (``LedgerBalance/roundedAverageCost``).
        var averageCostAfter: String
        /// The same at full precision.
        var averageCostAfterExact: String
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
