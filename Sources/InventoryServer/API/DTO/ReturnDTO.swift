import InventoryDomain

/// `POST /api/v1/returns/customer`: goods a customer brings back, by the sale lines they were sold on.
struct CustomerReturnRequest: Decodable, Sendable, KnownFields {
    var effectiveAt: String?
    var saleId: Int64
    var note: String?
    var lines: [Line]
    /// Where the money goes back (left out: the books choose, last payment first).
    var refunds: [Refund]?
    static var fields: [String] { ["effectiveAt", "saleId", "note", "lines", "refunds"] }
    static var nested: [String: any KnownFields.Type] { ["lines": Line.self, "refunds": Refund.self] }

    struct Line: Decodable, Sendable, KnownFields {
        var saleLineId: Int64
        var quantity: String
        /// false: damaged, written off at the sale's booked cost instead of going back into stock (default true).
        var restock: Bool?
        static var fields: [String] { ["saleLineId", "quantity", "restock"] }
    }

    struct Refund: Decodable, Sendable, KnownFields {
        var paymentId: Int64
        var amount: String
        static var fields: [String] { ["paymentId", "amount"] }
    }

    /// The return as asked for.
    func draft(_ formats: Formats) throws -> CustomerReturnDraft {
        try requireLineLimit(self.lines.count)
        let lines = try self.lines.enumerated().map { index, line in
            CustomerReturnDraft.Line(saleLineID: MovementID(line.saleLineId), quantity: try formats.quantity(line.quantity, field: "lines[\(index)].quantity"),
                                     restock: line.restock ?? true)
        }
        if let refunds = self.refunds, refunds.count > maximumSalePayments {
            throw InventoryError(.invalidValue, field: "refunds", "a return may have at most \(maximumSalePayments) refunds")
        }
        let refunds = try self.refunds?.enumerated().map { index, refund in
            RefundDraft(paymentID: PaymentID(refund.paymentId), amount: try formats.money(refund.amount, field: "refunds[\(index)].amount"))
        }
        return CustomerReturnDraft(effectiveAt: try formats.date(self.effectiveAt, field: "effectiveAt"), saleID: SaleID(self.saleId),
                                   note: self.note ?? "", lines: lines, refunds: refunds)
            .dating(whenBooked: self.effectiveAt == nil)
    }
}

/// A customer return as `?dryRun=true` answers it: what each line gives back and where the money goes.
struct CustomerReturnPreviewResponse: Encodable, Sendable {
    /// What the customer gets back in all.
    var refund: String
    var lines: [Line]
    var refunds: [Refund]

    struct Line: Encodable, Sendable {
        var saleLineId: Int64
        var productName: String
        var quantity: String
        var revenue: String
        var tax: String
        /// revenue + tax: what this line gives back.
        var refund: String
    }

    struct Refund: Encodable, Sendable {
        var paymentId: Int64
        var method: String
        var amount: String
    }

    init(_ r: PricedCustomerReturn, _ f: Formats) {
        self.refund = f.string(r.refund)
        self.lines = r.lines.map {
            Line(saleLineId: $0.saleLine.movementID.rawValue, productName: $0.saleLine.productName, quantity: $0.quantity.decimalString,
                 revenue: f.string($0.revenue), tax: f.string($0.tax), refund: f.string($0.revenue + $0.tax))
        }
        self.refunds = r.refunds.map { Refund(paymentId: $0.payment.id.rawValue, method: $0.payment.method.rawValue, amount: f.string($0.amount)) }
    }
}

/// `POST /api/v1/returns/supplier`: goods sent back to a supplier.
struct SupplierReturnRequest: Decodable, Sendable, KnownFields {
    var effectiveAt: String?
    var supplierId: Int64?
    var note: String?
    var lines: [Line]
    static var fields: [String] { ["effectiveAt", "supplierId", "note", "lines"] }
    static var nested: [String: any KnownFields.Type] { ["lines": Line.self] }

    struct Line: Decodable, Sendable, KnownFields {
        var productId: Int64
        var quantity: String
        static var fields: [String] { ["productId", "quantity"] }
    }
}
