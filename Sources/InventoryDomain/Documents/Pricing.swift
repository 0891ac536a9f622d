import Foundation

/// What a document needs to know about a product, read by the store inside the document's own transaction.
public struct ProductFacts: Sendable, Hashable {
    public var id: ProductID
    public var isArchived: Bool
    public var salePrice: Money
    public var minimumSalePrice: Money?
    public var taxRate: Percent
    /// The product's name, for messages.
    public var name: String = ""
    /// The product's option groups (``ModifierGroup``).
    public var optionGroups: [ModifierGroup] = []
    /// The product's recipe: what one unit consumes of its ingredients (``Recipe``); empty for an ordinary product.
    public var recipe: [RecipeComponent] = []

    /// Creates the facts of one product.
    public init(id: ProductID, isArchived: Bool = false, salePrice: Money = .zero, minimumSalePrice: Money? = nil, taxRate: Percent = .zero,
                name: String = "", optionGroups: [ModifierGroup] = [], recipe: [RecipeComponent] = []) {
        self.recipe = recipe
        self.name = name
        self.optionGroups = optionGroups
        self.id = id
        self.isArchived = isArchived
        self.salePrice = salePrice
        self.minimumSalePrice = minimumSalePrice
        self.taxRate = taxRate
    }

    /// The archived-product rule: a new document may not use an archived product (restore it first); an edit of a
    /// document that already holds it may keep it, so old documents stay editable.
    /// - Throws: ``InventoryError`` (`conflict`) on `field`.
    public func requireUsable(field: String, editing: Bool) throws {
        if self.isArchived && !editing {
            throw InventoryError(.conflict, field: field, "product \(self.id) is archived; restore it before using it")
        }
    }

    /// Looks up `id` in `facts`.
    /// - Throws: ``InventoryError`` (`notFound`) on `field` when the product does not exist.
    public static func of(_ id: ProductID, in facts: [ProductID: ProductFacts], field: String) throws -> ProductFacts {
        guard let found = facts[id] else { throw InventoryError(.notFound, field: field, "product \(id) does not exist") }
        return found
    }
}

/// A sale as it will be booked: every line with its price, discount in money, tax rate, revenue and tax — the figures
/// a till shows and the ledger stores, computed once, here.
public struct PricedSale: Sendable, Hashable {
    /// The sale's header as asked for (note trimmed); its lines are in ``lines``.
    public var draft: SaleDraft
    public var lines: [Line]

    /// Whether the prices include tax (``TaxInclusion``): set from the shop's setting when the sale is first booked,
    /// kept by edits.
    public var pricesIncludeTax: Bool
    /// Whether a line is below its product's minimum sale price (so it was sold with a manager's approval).
    public var belowMinimum = false
    /// The payments, checked against the total (``checkedPayments(currency:)``).
    public var payments: [PaymentDraft] = []

    /// One booked line.
    public struct Line: Sendable, Hashable {
        public var productID: ProductID
        public var quantity: Quantity
        /// The price per unit as the shop means it: including tax when ``taxIncluded``, else before tax.
        public var unitPrice: Money
        /// Discount on the whole line, in money, with the same meaning as the price.
        public var discount: Money
        public var taxRate: Percent
        /// Whether the price and discount include tax.
        public var taxIncluded: Bool = false
        /// The options chosen (``ModifierGroup/choose(_:in:productName:field:)``); their price changes are in ``unitPrice``.
        public var options: [ChosenModifier] = []

        /// Price × quantity, before discount.
        public var grossAmount: Money { Money.extended(self.unitPrice, by: self.quantity) }
        /// What the line charges: price × quantity − discount (tax included when the price includes it).
        public var charged: Money { self.grossAmount - self.discount }
        /// Tax of the line, rounded half away from zero to the minor unit: taken out of ``charged`` when the price
        /// includes tax, else added to it.
        public var tax: Money { self.taxIncluded ? self.charged.includedTax(at: self.taxRate) : self.charged.applying(self.taxRate) }
        /// Revenue of the line, before tax: what it charges, without the tax it contains when the price includes tax.
        public var revenue: Money { self.taxIncluded ? self.charged - self.tax : self.charged }
        /// The discount as the books keep it, before tax, so that gross sales − discounts = revenue: the discount itself
        /// when prices are before tax; with tax included, (price × quantity without its tax) − revenue.
        public var bookedDiscount: Money {
            self.taxIncluded ? self.grossAmount.excludingIncludedTax(at: self.taxRate) - self.revenue : self.discount
        }
    }

    /// What the customer pays: Σ (revenue + tax) + tip.
    public var total: Money { self.lines.reduce(self.draft.tip) { $0 + $1.revenue + $1.tax } }
}

extension SaleDraft {
    /// Prices and checks the sale against the facts of its products: the product's sale price where a line gives
    /// none, a percentage discount turned into money (half away from zero, as tax), the product's tax rate where a
    /// line gives none, the minimum sale price — of the price and of the line after its discount — (unless a manager
    /// approved ``allowBelowMinimum``), the archived-product
    /// rule (an edit may keep an archived product), the amount limits and the cash handed over.
    /// - Parameters:
    ///   - products: the facts of (at least) every product on the lines; a missing one does not exist.
    ///   - editing: whether the sale replaces an existing one.
    ///   - currency: the shop's currency (its minor unit bounds the amounts; messages show amounts in it).
    ///   - pricesIncludeTax: whether the prices (given or the products') include tax (``TaxInclusion``).
    /// - Throws: ``InventoryError`` naming the field, e.g. `lines[0].unitPrice`.
    public func priced(products: [ProductID: ProductFacts], editing: Bool, currency: Currency, pricesIncludeTax: Bool = false) throws -> PricedSale {
        guard !self.lines.isEmpty else { throw InventoryError(.missingValue, field: "lines", "a sale needs at least one line") }
        try requireLineLimit(self.lines.count)
        guard self.tip >= .zero else { throw InventoryError(.invalidValue, field: "tip", "must not be negative") }
        try self.tip.requireWithinLimit(field: "tip", currency: currency)
        var lines: [PricedSale.Line] = []
        var belowMinimum = false
        lines.reserveCapacity(self.lines.count)
        for (index, line) in self.lines.enumerated() {
            let field = "lines[\(index)]"
            let product = try ProductFacts.of(line.productID, in: products, field: "\(field).productId")
            try product.requireUsable(field: "\(field).productId", editing: editing)
            try line.checkAsAsked(field: field, currency: currency)
            let options = try ModifierGroup.choose(line.options, in: product.optionGroups,
                                                 productName: product.name.isEmpty ? "product \(product.id)" : product.name, field: "\(field).options")
            let price = line.unitPrice ?? product.salePrice + ChosenModifier.priceChange(of: options)
            if line.unitPrice == nil && !options.isEmpty {
                guard price >= .zero else { throw InventoryError(.invalidValue, field: "\(field).options", "take the price below zero") }
                try price.requireWithinLimit(field: "\(field).options", currency: currency)
            }
            if let minimum = product.minimumSalePrice, price < minimum {
                guard self.allowBelowMinimum else {
                    var refusal = InventoryError(.invalidValue, field: "\(field).unitPrice", "is below the product's minimum sale price; a manager must approve it")
                    refusal.managerMayApprove = true
                    throw refusal
                }
                belowMinimum = true
            }
            var priced = PricedSale.Line(productID: line.productID, quantity: line.quantity, unitPrice: price, discount: .zero,
                                         taxRate: line.taxRate ?? product.taxRate, taxIncluded: pricesIncludeTax)
            priced.options = options
            let discountField: String
            switch line.discount {
            case .amount(let amount):
                discountField = "\(field).discount"
                guard amount >= .zero, amount <= priced.grossAmount else {
                    throw InventoryError(.invalidValue, field: discountField, "must be between 0 and the line amount")
                }
                priced.discount = amount
            case .percent(let percent):
                discountField = "\(field).discountPercent"
                priced.discount = priced.grossAmount.applying(percent)
            }
            // A discount may not take the line below the minimum either: what the line charges must be at least the
            // minimum price × quantity (both with the prices' meaning).
            if priced.discount > .zero, let minimum = product.minimumSalePrice, priced.charged < Money.extended(minimum, by: line.quantity) {
                guard self.allowBelowMinimum else {
                    var refusal = InventoryError(.invalidValue, field: discountField,
                                                 "takes the line below the product's minimum sale price; a manager must approve it")
                    refusal.managerMayApprove = true
                    throw refusal
                }
                belowMinimum = true
            }
            lines.append(priced)
        }
        var header = self
        header.note = self.note.trimmingCharacters(in: .whitespacesAndNewlines)
        try TextLimit.note.check(header.note, field: "note")
        if !belowMinimum { header.approvedBy = "" }
        var sale = PricedSale(draft: header, lines: lines, pricesIncludeTax: pricesIncludeTax, belowMinimum: belowMinimum)
        sale.payments = try sale.checkedPayments(currency: currency)
        return sale
    }
}

extension SaleDraft.Line {
    /// The checks a line passes as asked, before its product's rules: a positive quantity; a price, when given, not
    /// negative and within the amount limits; a tax rate, when given, and a percentage discount between 0 and 100 %; an
    /// amount discount not negative. Pricing then applies the product's rules
    /// (``SaleDraft/priced(products:editing:currency:pricesIncludeTax:)``); a parked sale (``ParkedSale``) stops here.
    /// - Parameter field: the line's field, e.g. `lines[0]`.
    /// - Throws: ``InventoryError`` naming the field, e.g. `lines[0].quantity`.
    public func checkAsAsked(field: String, currency: Currency? = nil) throws {
        try self.quantity.requirePositive(field: "\(field).quantity")
        try self.quantity.requireWithinLimit(field: "\(field).quantity")
        guard self.options.count <= ModifierGroup.maximumGroups * ModifierGroup.maximumOptions else {
            throw InventoryError(.invalidValue, field: "\(field).options", "names more options than a product can have")
        }
        if let price = self.unitPrice {
            guard price >= .zero else { throw InventoryError(.invalidValue, field: "\(field).unitPrice", "must not be negative") }
            try price.requireWithinLimit(field: "\(field).unitPrice", currency: currency)
        }
        if let rate = self.taxRate, rate < .zero || rate.hundredths > 100_00 {
            throw InventoryError(.invalidValue, field: "\(field).taxRate", "must be between 0 and 100 %")
        }
        switch self.discount {
        case .amount(let amount):
            guard amount >= .zero else { throw InventoryError(.invalidValue, field: "\(field).discount", "must not be negative") }
            try amount.requireWithinLimit(field: "\(field).discount", currency: currency)
        case .percent(let percent):
            guard percent >= .zero, percent.hundredths <= 100_00 else {
                throw InventoryError(.invalidValue, field: "\(field).discountPercent", "must be between 0 and 100 %")
            }
        }
    }
}

/// One line of a customer return as it will be booked: the sale line it undoes and its share of that line's revenue
/// and tax (positive amounts; the ledger books them as negative revenue).
public struct PricedReturnLine: Sendable, Hashable {
    public var saleLine: SaleRecord.Line
    public var quantity: Quantity
    /// The returned quantity's share of the sale line's revenue, rounded half away from zero (where the price included
    /// tax: the share of what the line charged, rounded, minus ``tax``, so the refund is the customer's share exactly).
    public var revenue: Money
    /// The returned quantity's share of the sale line's tax, rounded half away from zero.
    public var tax: Money
}

extension CustomerReturnDraft {
    /// Prices the return against its sale: not dated before the sale, each line a line of that sale, no more than is
    /// left to return of it (what earlier returns and this return's own earlier lines took), and each line's revenue
    /// and tax the returned share of the sale line's.
    /// - Throws: ``InventoryError`` naming the field, e.g. `lines[0].quantity`.
    public func priced(against sale: SaleRecord) throws -> [PricedReturnLine] {
        let draft = try self.validated()
        guard draft.effectiveAt >= sale.effectiveAt else {
            throw InventoryError(.invalidValue, field: "effectiveAt", "a return cannot be dated before its sale")
        }
        var taken: [MovementID: Quantity] = [:]
        return try draft.lines.enumerated().map { index, line in
            guard let saleLine = sale.lines.first(where: { $0.movementID == line.saleLineID }) else {
                throw InventoryError(.notFound, field: "lines[\(index)].saleLineId", "line \(line.saleLineID) is not part of sale \(sale.id)")
            }
            let left = saleLine.returnableQuantity - (taken[line.saleLineID] ?? .zero)
            guard line.quantity <= left else {
                throw InventoryError(.invalidValue, field: "lines[\(index)].quantity",
                                     "only \(max(left, .zero).decimalString) of '\(saleLine.productName)' can still be returned")
            }
            taken[line.saleLineID, default: .zero] = (taken[line.saleLineID] ?? .zero) + line.quantity
            let share = { (amount: Money) -> Money in
                Money(minorUnits: FixedPoint.clamp(FixedPoint.divideRounded(
                    Int128(amount.minorUnits) * Int128(line.quantity.thousandths), Int128(saleLine.quantity.thousandths))))
            }
            // Where the price included tax, the customer gets back their share of what they paid, with its share of the
            // tax inside it; otherwise the shares of revenue and of tax.
            let tax = share(saleLine.tax)
            let revenue = saleLine.taxIncluded ? share(saleLine.charged) - tax : share(saleLine.revenue)
            return PricedReturnLine(saleLine: saleLine, quantity: line.quantity, revenue: revenue, tax: tax)
        }
    }
}

/// A customer return as it will be booked: its lines' shares of the sale and the money given back to each payment.
public struct PricedCustomerReturn: Sendable, Hashable {
    public var lines: [PricedReturnLine]
    public var refunds: [Refund]

    /// Money going back to one payment.
    public struct Refund: Sendable, Hashable {
        public var payment: PaymentRecord
        public var amount: Money
    }

    /// What the customer gets back: the returned shares of revenue and tax (a tip is not refunded).
    public var refund: Money { self.lines.reduce(.zero) { $0 + $1.revenue + $1.tax } }
}

extension CustomerReturnDraft {
    /// Prices the return against its sale (``priced(against:)``) and sends its refund back to the sale's payments
    /// (``RefundAllocation``).
    /// - Throws: ``InventoryError`` naming the field.
    public func refunded(against sale: SaleRecord, currency: Currency) throws -> PricedCustomerReturn {
        let lines = try self.priced(against: sale)
        let refund = lines.reduce(Money.zero) { $0 + $1.revenue + $1.tax }
        let refunds = try RefundAllocation.refunds(of: refund, over: sale.payments, asked: self.refunds, currency: currency)
        return PricedCustomerReturn(lines: lines, refunds: refunds.compactMap { refund in
            sale.payments.first { $0.id == refund.paymentID }.map { PricedCustomerReturn.Refund(payment: $0, amount: refund.amount) }
        })
    }
}

extension PricedSale {
    /// The payment method its header keeps: the first payment that counts (lists and the CSV show it), else the
    /// first payment's, else the one asked for.
    public var headerPaymentMethod: PaymentMethod {
        (self.payments.first(where: \.counts) ?? self.payments.first)?.method ?? self.draft.paymentMethod
    }

    /// The cash its header keeps as handed over: the sum of the payments' (nil when none recorded any).
    public var headerCashTendered: Money? {
        let tendered = self.payments.compactMap(\.tendered)
        return tendered.isEmpty ? nil : tendered.reduce(Money.zero, +)
    }

    /// What the ledger wrote for one line of a sale just booked.
    public struct BookedLine: Sendable, Hashable {
        /// The sale line's movement.
        public var movementID: MovementID
        /// The line's value change with its ingredients' (a recipe's): its cost of goods sold, negated.
        public var valueChange: Money

        public init(movementID: MovementID, valueChange: Money) {
            self.movementID = movementID
            self.valueChange = valueChange
        }
    }

    /// The sale as a store holds it right after booking it new, without reading it back: its header as written, each
    /// line with its movement and cost from the ledger (`booked`, by line), payments as written, nothing returned. Not
    /// for a sale sold beyond stock (whether a line kept the approval depends on where the ledger left its stock), nor
    /// for an edit (which keeps who rang it up and its number): a store reads those back.
    /// - Parameters:
    ///   - productNames: the lines' products' names, as read in the booking's transaction.
    ///   - customerName: the customer's name, when the sale has one.
    ///   - customerVisit: which of the customer's visits the sale is, when it has one.
    public func record(id: SaleID, recordedAt: Instant, receiptNumber: Int64, productNames: [ProductID: String], booked: [BookedLine],
                       payments: [PaymentRecord], customerName: String?, customerVisit: Int?) -> SaleRecord {
        let lines = zip(self.lines, booked).map { line, booked in
            var record = SaleRecord.Line(
                movementID: booked.movementID, productID: line.productID, productName: productNames[line.productID] ?? "",
                quantity: line.quantity.magnitude, unitPrice: line.unitPrice, discount: line.bookedDiscount, taxRate: line.taxRate,
                tax: line.tax, revenue: line.revenue, costOfGoodsSold: -booked.valueChange, taxIncluded: self.pricesIncludeTax)
            record.options = line.options
            return record
        }
        let header = self.draft
        var record = SaleRecord(
            id: id, sequence: id.rawValue, effectiveAt: header.effectiveAt, recordedAt: recordedAt, customerID: header.customerID,
            customerName: header.customerID == nil ? nil : customerName, note: header.note, tip: header.tip,
            paymentMethod: self.headerPaymentMethod, lines: lines, soldBy: header.soldBy, cashTendered: self.headerCashTendered,
            receiptNumber: receiptNumber)
        record.approvedBy = header.approvedBy
        record.payments = payments
        record.customerVisit = header.customerID == nil ? nil : customerVisit
        return record
    }
}
