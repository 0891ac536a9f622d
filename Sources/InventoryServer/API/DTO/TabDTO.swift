import InventoryDomain

/// `POST /api/v1/tabs`: a sale to park under a name or a table; its lines are a sale's lines as asked.
struct TabRequest: Decodable, Sendable, KnownFields {
    var label: String
    var note: String?
    var customerId: Int64?
    var lines: [SaleRequest.Line]

    enum CodingKeys: String, CodingKey, CaseIterable { case label, note, customerId, lines }
    static var fields: [String] { CodingKeys.allCases.map(\.stringValue) }
    static var nested: [String: any KnownFields.Type] { ["lines": SaleRequest.Line.self] }

    func parked(_ formats: Formats, parkedBy: String) throws -> ParkedSale {
        try requireLineLimit(self.lines.count)
        return ParkedSale(label: self.label, lines: try self.lines.enumerated().map { index, line in try line.draft(formats, field: "lines[\(index)]") },
                          customerID: self.customerId.map(CustomerID.init(rawValue:)), note: self.note ?? "", parkedBy: parkedBy)
    }
}

/// A parked sale as `/api/v1/tabs` answers it: the lines as they were rung up (priced when charged).
struct TabResponse: Encodable, Sendable {
    var id: Int64
    var label: String
    var note: String
    var customerId: Int64?
    var parkedBy: String
    var parkedAt: String
    var lines: [Line]

    struct Line: Encodable, Sendable {
        var productId: Int64
        var quantity: String
        var unitPrice: String?
        var discount: String?
        var discountPercent: String?
        var taxRate: String?
        /// The options chosen (ids of the product's options).
        var options: [Int64]
    }

    init(_ tab: ParkedSale, _ f: Formats) {
        self.id = tab.id.rawValue
        self.label = tab.label
        self.note = tab.note
        self.customerId = tab.customerID?.rawValue
        self.parkedBy = tab.parkedBy
        self.parkedAt = f.string(tab.parkedAt)
        self.lines = tab.lines.map { line in
            var answer = Line(productId: line.productID.rawValue, quantity: line.quantity.decimalString, unitPrice: line.unitPrice.map(f.string),
                              taxRate: line.taxRate?.decimalString, options: line.options.map(\.rawValue))
            switch line.discount {
            case .amount(let amount): answer.discount = f.string(amount)
            case .percent(let percent): answer.discountPercent = percent.decimalString
            }
            return answer
        }
    }
}
