import InventoryDomain

/// `POST` and `PUT /api/v1/sales`: a sale; a line without a price sells at the product's.
struct SaleRequest: Decodable, Sendable, KnownFields {
    var effectiveAt: String?
    var customerId: Int64?
    var note: String?
    var tip: String?
    var paymentMethod: String?
    var cashTendered: String?
    var lines: [Line]
    /// A manager's username and PIN approving prices below the products' minimum (staff at the till).
    var approval: Approval?
    /// Split payment: the payments (instead of paymentMethod and cashTendered).
    var payments: [Payment]?
    /// Sell beyond the stock on record (the count was wrong, the delivery is not booked yet): needs a manager, signed in
    /// or approving with `approval`.
    var sellBeyondStock: Bool?

    struct Payment: Decodable, Sendable, KnownFields {
        var method: String
        /// Left out: this payment takes what the total leaves after the others (the till's "Rest"; the domain's sum).
        var amount: String?
        var tendered: String?
        var status: String?
        var reference: String?

        enum CodingKeys: String, CodingKey, CaseIterable { case method, amount, tendered, status, reference }
        static var fields: [String] { CodingKeys.allCases.map(\.stringValue) }

        func draft(_ formats: Formats, field: String) throws -> PaymentDraft {
            guard let method = PaymentMethod(rawValue: self.method) else {
                throw InventoryError(.invalidValue, field: "\(field).method", "must be cash, card or other")
            }
            let amount: Money? = try formats.money(self.amount, field: "\(field).amount")
            let status = try self.status.map { text in
                guard let status = PaymentStatus(rawValue: text), PaymentStatus.takenStatuses.contains(status) else {
                    throw InventoryError(.invalidValue, field: "\(field).status", "must be pending, completed or failed")
                }
                return status
            } ?? .completed
            let tendered = try formats.money(self.tendered, field: "\(field).tendered")
            guard let amount else { return .rest(method: method, tendered: tendered, status: status, reference: self.reference ?? "") }
            return PaymentDraft(method: method, amount: amount, tendered: tendered, status: status, reference: self.reference ?? "")
        }
    }

    struct Approval: Decodable, Sendable, KnownFields {
        var username: String
        var pin: String

        enum CodingKeys: String, CodingKey, CaseIterable { case username, pin }
        static var fields: [String] { CodingKeys.allCases.map(\.stringValue) }
    }

    struct Line: Decodable, Sendable, KnownFields {
        var productId: Int64
        var quantity: String
        var unitPrice: String?
        var discount: String?
        /// A discount as a percentage of the line's amount; the domain turns it into money.
        var discountPercent: String?
        var taxRate: String?
        /// The options chosen: ids of the product's options (size, milk, extras).
        var options: [Int64]?

        enum CodingKeys: String, CodingKey, CaseIterable { case productId, quantity, unitPrice, discount, discountPercent, taxRate, options }
        static var fields: [String] { CodingKeys.allCases.map(\.stringValue) }

        /// The line as asked for (`field` names it in errors, e.g. `lines[0]`).
        func draft(_ formats: Formats, field: String) throws -> SaleDraft.Line {
            let productID = ProductID(self.productId)
            let price = try self.unitPrice.map { try formats.money($0, field: "\(field).unitPrice") }
            let quantity = try formats.quantity(self.quantity, field: "\(field).quantity")
            let discount = try formats.money(self.discount, field: "\(field).discount")
            let percent = try self.discountPercent.map { try Percent.parse($0, field: "\(field).discountPercent", maximum: 100) }
            let taxRate = try self.taxRate.map { try Percent.parse($0, field: "\(field).taxRate") }
            var line: SaleDraft.Line
            switch (discount, percent) {
            case (_, nil):
                line = SaleDraft.Line(productID: productID, quantity: quantity, unitPrice: price, discount: discount ?? .zero, taxRate: taxRate)
            case (nil, let percent?):
                line = SaleDraft.Line(productID: productID, quantity: quantity, unitPrice: price, discountPercent: percent, taxRate: taxRate)
            case (.some, .some):
                throw InventoryError(.invalidValue, field: "\(field).discountPercent", "give either discount or discountPercent, not both")
            }
            line.options = (self.options ?? []).map(ModifierID.init(rawValue:))
            return line
        }
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case effectiveAt, customerId, note, tip, paymentMethod, cashTendered, lines, approval, payments, sellBeyondStock
    }
    static var fields: [String] { CodingKeys.allCases.map(\.stringValue) }
    static var nested: [String: any KnownFields.Type] { ["lines": Line.self, "approval": Approval.self, "payments": Payment.self] }

    /// The sale as asked for; the domain prices it (a line without a price sells at the product's) inside the
    /// transaction that books it.
    /// - Parameter approvedBy: who may approve prices below the minimum, and selling beyond stock, on this request (nil:
    ///   nobody).
    /// - Throws: 403 on `approval` when `sellBeyondStock` is asked without a manager to approve it.
    func draft(_ formats: Formats, approvedBy: String?, soldBy: String) throws -> SaleDraft {
        try requireLineLimit(self.lines.count)
        let lines = try self.lines.enumerated().map { index, line in try line.draft(formats, field: "lines[\(index)]") }
        let payment = try self.paymentMethod.map { text in
            guard let method = PaymentMethod(rawValue: text) else {
                throw InventoryError(.invalidValue, field: "paymentMethod", "must be cash, card or other")
            }
            return method
        } ?? .cash
        var draft = SaleDraft(effectiveAt: try formats.date(self.effectiveAt, field: "effectiveAt"), customerID: self.customerId.map(CustomerID.init(rawValue:)),
                              note: self.note ?? "", lines: lines, tip: try formats.money(self.tip, field: "tip") ?? .zero,
                              paymentMethod: payment, allowBelowMinimum: approvedBy != nil, soldBy: soldBy,
                              cashTendered: try formats.money(self.cashTendered, field: "cashTendered"))
        draft.approvedBy = approvedBy ?? ""
        draft.datedWhenBooked = self.effectiveAt == nil
        if self.sellBeyondStock == true {
            guard let approvedBy else {
                throw Problem(.forbidden, code: .forbidden, title: "Not allowed",
                              detail: "selling beyond the stock on record needs a manager: sign in as one, or send a manager's username and PIN",
                              field: "approval")
            }
            draft.stockApprovedBy = approvedBy
        }
        if let payments = self.payments {
            guard self.paymentMethod == nil else {
                throw InventoryError(.invalidValue, field: "paymentMethod", "give either paymentMethod or payments, not both")
            }
            guard !payments.isEmpty else { throw InventoryError(.missingValue, field: "payments", "give at least one payment, or leave payments out") }
            guard payments.count <= maximumSalePayments else {
                throw InventoryError(.invalidValue, field: "payments", "a sale may have at most \(maximumSalePayments) payments")
            }
            draft.payments = try payments.enumerated().map { index, payment in try payment.draft(formats, field: "payments[\(index)]") }
        }
        return draft
    }
}

/// A sale as `/api/v1/sales` answers it: lines, tax shares, totals and the cost of goods sold.
struct SaleResponse: Encodable, Sendable {
    var id: Int64
    /// The gapless receipt number (``SaleRecord/receiptNumber``).
    var receiptNumber: Int64
    /// Whether the prices and discounts include tax: then a line's `lineTotal` is what the customer paid for it and the
    /// tax was taken out of it; else the tax was added to it.
    var pricesIncludeTax: Bool
    var effectiveAt: String
    var recordedAt: String
    var customerId: Int64?
    var customerName: String?
    var note: String
    var paymentMethod: String
    var revenue: String
    var tax: String
    var tip: String
    var total: String
    @Cost var costOfGoodsSold: String
    @Cost var profit: String
    var soldBy: String
    /// The manager who approved a price below a product's minimum (empty when no line is below it).
    var approvedBy: String
    /// The manager who approved selling beyond the stock on record (empty when no line went beyond it).
    var stockApprovedBy: String
    var cashTendered: String?
    var change: String?
    var discount: String
    var taxes: [TaxShare]
    var lines: [Line]
    /// The payments in the order they were taken, with their statuses and what returns refunded to each.
    var payments: [PaymentResponse]
    /// What is still to pay (a pending payment that failed).
    var amountDue: String
    /// What returns refunded in all.
    var refunded: String
    /// The customer returns booked against the sale, oldest first.
    var returns: [ReturnResponse]
    /// Which of the customer's visits this sale is, and the visit milestone it reached (with a customer only).
    var customerVisit: Int?
    var customerMilestone: Int?
    /// In a dry run only: the amounts a till offers for paying the total in cash (``Money/cashOffers(in:)``).
    var quickCash: [String]?

    /// A customer return booked against the sale.
    struct ReturnResponse: Encodable, Sendable {
        var id: Int64
        var effectiveAt: String
        var note: String
        var refunded: String
        var lines: [Line]

        struct Line: Encodable, Sendable {
            var saleLineId: Int64
            var productId: Int64
            var productName: String
            var quantity: String
            /// false: written off (damaged), not back in stock.
            var restocked: Bool
        }
    }

    struct TaxShare: Encodable, Sendable {
        var taxRate: String
        /// Net: revenue before tax at this rate.
        var revenue: String
        var tax: String
        /// Gross: net + tax.
        var gross: String
    }

    struct Line: Encodable, Sendable {
        var id: Int64
        var productId: Int64
        var productName: String
        var quantity: String
        var unitPrice: String
        var amount: String
        var discount: String
        /// What the line charged: amount − discount (with tax when the sale's prices include tax).
        var lineTotal: String
        var taxRate: String
        var tax: String
        var revenue: String
        @Cost var costOfGoodsSold: String
        var returnedQuantity: String
        /// What customers may still bring back of the line.
        var returnableQuantity: String
        /// How much of the line was sold beyond the stock on record with a manager's approval ("0" for other lines).
        var soldBeyondStock: String
        /// The options chosen, as booked (their price changes are in unitPrice).
        var options: [ChosenOptionResponse]
    }

    struct ChosenOptionResponse: Encodable, Sendable {
        var optionId: Int64
        var group: String
        var name: String
        var priceChange: String
    }

    /// A dry run's answer: the sale as it would be booked, with the quick amounts for paying it in cash.
    init(preview s: SaleRecord, _ f: Formats) {
        self.init(s, f)
        self.quickCash = s.total.cashOffers(in: f.currency).map(f.string)
    }

    init(_ s: SaleRecord, _ f: Formats) {
        self.id = s.id.rawValue
        self.receiptNumber = s.receiptNumber
        self.pricesIncludeTax = s.pricesIncludeTax
        self.effectiveAt = f.string(s.effectiveAt)
        self.recordedAt = f.string(s.recordedAt)
        self.customerId = s.customerID?.rawValue
        self.customerName = s.customerName
        self.note = s.note
        self.paymentMethod = s.paymentMethod.rawValue
        self.revenue = f.string(s.revenue)
        self.tax = f.string(s.tax)
        self.tip = f.string(s.tip)
        self.total = f.string(s.total)
        self.costOfGoodsSold = f.string(s.costOfGoodsSold)
        self.profit = f.string(s.revenue - s.costOfGoodsSold)
        self.soldBy = s.soldBy
        self.approvedBy = s.approvedBy
        self.stockApprovedBy = s.stockApprovedBy
        self.cashTendered = s.cashTendered.map(f.string)
        self.change = s.change.map(f.string)
        self.discount = f.string(s.discount)
        self.payments = s.payments.map { PaymentResponse($0, f) }
        self.amountDue = f.string(s.amountDue)
        self.refunded = f.string(s.refunded)
        self.returns = s.returns.map { r in
            ReturnResponse(id: r.id.rawValue, effectiveAt: f.string(r.effectiveAt), note: r.note, refunded: f.string(r.refunded),
                           lines: r.lines.map { .init(saleLineId: $0.saleLineID.rawValue, productId: $0.productID.rawValue, productName: $0.productName,
                                                      quantity: $0.quantity.decimalString, restocked: $0.restocked) })
        }
        self.customerVisit = s.customerVisit
        self.customerMilestone = s.customerMilestone
        self.taxes = s.taxShares.map { TaxShare(taxRate: $0.rate.decimalString, revenue: f.string($0.revenue), tax: f.string($0.tax), gross: f.string($0.gross)) }
        self.lines = s.lines.map {
            Line(id: $0.movementID.rawValue, productId: $0.productID.rawValue, productName: $0.productName, quantity: $0.quantity.decimalString,
                 unitPrice: f.string($0.unitPrice), amount: f.string($0.amount), discount: f.string($0.discount), lineTotal: f.string($0.charged), taxRate: $0.taxRate.decimalString, tax: f.string($0.tax),
                 revenue: f.string($0.revenue), costOfGoodsSold: f.string($0.costOfGoodsSold), returnedQuantity: $0.returnedQuantity.decimalString,
                 returnableQuantity: $0.returnableQuantity.decimalString, soldBeyondStock: $0.soldBeyondStock.decimalString,
                 options: $0.options.map { ChosenOptionResponse(optionId: $0.optionID.rawValue, group: $0.group, name: $0.name, priceChange: f.string($0.priceChange)) })
        }
    }
}

/// One payment of a sale.
struct PaymentResponse: Encodable, Sendable {
    var id: Int64
    var method: String
    var amount: String
    var tendered: String?
    var change: String?
    /// pending, completed, failed, refunded or partlyRefunded.
    var status: String
    var reference: String
    var refunded: String
    /// What may still be refunded to it.
    var refundable: String

    init(_ p: PaymentRecord, _ f: Formats) {
        self.id = p.id.rawValue
        self.method = p.method.rawValue
        self.amount = f.string(p.amount)
        self.tendered = p.tendered.map(f.string)
        self.change = p.change.map(f.string)
        self.status = p.status.rawValue
        self.reference = p.reference
        self.refunded = f.string(p.refunded)
        self.refundable = f.string(p.refundable)
    }
}

/// `PUT /api/v1/sales/{id}/payments/{paymentId}`: settles a pending payment.
struct PaymentSettleRequest: Decodable, Sendable, KnownFields {
    var status: String
    static var fields: [String] { ["status"] }
}

// A sale writes its own JSON (``SortedJSONWritable``): it is every till's answer, and the general encoder's tree of
// values cost about an eighth of a durable sale's instructions (BENCHMARKS.md, issue 15 point 3). Members in the
// order of their keys' bytes; debug builds compare every answer with `JSONEncoder`'s.

extension SaleResponse: SortedJSONWritable {
    func writeSortedJSON(to object: inout SortedJSONObject) {
        let costs = CostDisclosure.visible
        object.string("amountDue", self.amountDue)
        object.string("approvedBy", self.approvedBy)
        object.string("cashTendered", self.cashTendered)
        object.string("change", self.change)
        if costs { object.string("costOfGoodsSold", self.costOfGoodsSold) }
        object.integer("customerId", self.customerId)
        object.integer("customerMilestone", self.customerMilestone.map(Int64.init))
        object.string("customerName", self.customerName)
        object.integer("customerVisit", self.customerVisit.map(Int64.init))
        object.string("discount", self.discount)
        object.string("effectiveAt", self.effectiveAt)
        object.integer("id", self.id)
        object.objects("lines", self.lines)
        object.string("note", self.note)
        object.string("paymentMethod", self.paymentMethod)
        object.objects("payments", self.payments)
        object.bool("pricesIncludeTax", self.pricesIncludeTax)
        if costs { object.string("profit", self.profit) }
        object.strings("quickCash", self.quickCash)
        object.integer("receiptNumber", self.receiptNumber)
        object.string("recordedAt", self.recordedAt)
        object.string("refunded", self.refunded)
        object.objects("returns", self.returns)
        object.string("revenue", self.revenue)
        object.string("soldBy", self.soldBy)
        object.string("stockApprovedBy", self.stockApprovedBy)
        object.string("tax", self.tax)
        object.objects("taxes", self.taxes)
        object.string("tip", self.tip)
        object.string("total", self.total)
    }
}

extension SaleResponse.Line: SortedJSONWritable {
    func writeSortedJSON(to object: inout SortedJSONObject) {
        object.string("amount", self.amount)
        if CostDisclosure.visible { object.string("costOfGoodsSold", self.costOfGoodsSold) }
        object.string("discount", self.discount)
        object.integer("id", self.id)
        object.string("lineTotal", self.lineTotal)
        object.objects("options", self.options)
        object.integer("productId", self.productId)
        object.string("productName", self.productName)
        object.string("quantity", self.quantity)
        object.string("returnableQuantity", self.returnableQuantity)
        object.string("returnedQuantity", self.returnedQuantity)
        object.string("revenue", self.revenue)
        object.string("soldBeyondStock", self.soldBeyondStock)
        object.string("tax", self.tax)
        object.string("taxRate", self.taxRate)
        object.string("unitPrice", self.unitPrice)
    }
}

extension SaleResponse.ChosenOptionResponse: SortedJSONWritable {
    func writeSortedJSON(to object: inout SortedJSONObject) {
        object.string("group", self.group)
        object.string("name", self.name)
        object.integer("optionId", self.optionId)
        object.string("priceChange", self.priceChange)
    }
}

extension SaleResponse.TaxShare: SortedJSONWritable {
    func writeSortedJSON(to object: inout SortedJSONObject) {
        object.string("gross", self.gross)
        object.string("revenue", self.revenue)
        object.string("tax", self.tax)
        object.string("taxRate", self.taxRate)
    }
}

extension SaleResponse.ReturnResponse: SortedJSONWritable {
    func writeSortedJSON(to object: inout SortedJSONObject) {
        object.string("effectiveAt", self.effectiveAt)
        object.integer("id", self.id)
        object.objects("lines", self.lines)
        object.string("note", self.note)
        object.string("refunded", self.refunded)
    }
}

extension SaleResponse.ReturnResponse.Line: SortedJSONWritable {
    func writeSortedJSON(to object: inout SortedJSONObject) {
        object.integer("productId", self.productId)
        object.string("productName", self.productName)
        object.string("quantity", self.quantity)
        object.bool("restocked", self.restocked)
        object.integer("saleLineId", self.saleLineId)
    }
}

extension PaymentResponse: SortedJSONWritable {
    func writeSortedJSON(to object: inout SortedJSONObject) {
        object.string("amount", self.amount)
        object.string("change", self.change)
        object.integer("id", self.id)
        object.string("method", self.method)
        object.string("reference", self.reference)
        object.string("refundable", self.refundable)
        object.string("refunded", self.refunded)
        object.string("status", self.status)
        object.string("tendered", self.tendered)
    }
}
