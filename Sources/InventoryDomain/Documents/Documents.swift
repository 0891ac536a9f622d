import Foundation

/// Marker for purchase ids.
public enum Purchase: Sendable {}
/// Marker for sale ids.
public enum Sale: Sendable {}
/// Marker for adjustment ids.
public enum StockAdjustment: Sendable {}
/// Marker for customer-return ids.
public enum CustomerReturn: Sendable {}
/// Marker for supplier-return ids.
public enum SupplierReturn: Sendable {}

/// How a sale was paid.
public enum PaymentMethod: String, Sendable, Codable, CaseIterable {
    case cash, card, other
}

/// Most lines a document may have.
public let maximumDocumentLines = 1000

/// Throws naming `lines` when a document has more than ``maximumDocumentLines`` lines.
public func requireLineLimit(_ count: Int) throws {
    guard count <= maximumDocumentLines else {
        throw InventoryError(.invalidValue, field: "lines", "a document may have at most \(maximumDocumentLines) lines")
    }
}

/// A document for the stock ledger, dated either by whoever wrote it or, when they gave no date, by the moment the
/// ledger books it.
///
/// A till that sends no date means "now", and "now" must be the order in which the ledger books documents: were each
/// dated when its request arrived, two sales arriving together could reach the ledger in the opposite order to their
/// dates, and the second one booked would land *before* the first, re-costing a sale whose answer (its cost of goods
/// sold) had already been given. So such a draft carries ``datedWhenBooked`` and the time it was asked for, and the
/// store dates it inside the write that books it (``dated(bookedAt:)``).
public protocol LedgerDraft {
    /// When the document takes effect on the ledger; for a draft ``datedWhenBooked``, the earliest it may be dated (the
    /// moment it was asked for).
    var effectiveAt: Instant { get set }
    /// Whether the draft is dated by the moment the ledger books it rather than by ``effectiveAt``.
    var datedWhenBooked: Bool { get set }
}

extension LedgerDraft {
    /// The draft, dated by the moment the ledger books it when `whenBooked` (its author gave no date).
    public func dating(whenBooked: Bool) -> Self {
        var copy = self
        copy.datedWhenBooked = whenBooked
        return copy
    }

    /// The draft as the ledger books it at `now` (the clock read inside the write that books it): a draft dated when
    /// booked takes `now`, or the moment it was asked for should the clock have stepped back; any other keeps its date.
    public func dated(bookedAt now: Instant) -> Self {
        guard self.datedWhenBooked else { return self }
        var copy = self
        copy.effectiveAt = max(self.effectiveAt, now)
        copy.datedWhenBooked = false
        return copy
    }
}

/// The product of a purchase line: an existing one, or a new one created with the purchase.
public enum ProductReference: Sendable, Hashable {
    case existing(ProductID)
    case new(ProductDetails)
}

/// A purchase to record: goods received from a supplier.
public struct PurchaseDraft: LedgerDraft, Sendable, Hashable {
    public var effectiveAt: Instant
    public var datedWhenBooked = false
    public var supplierID: SupplierID?
    public var note: String
    public var lines: [Line]

    /// One line of a purchase.
    public struct Line: Sendable, Hashable {
        public var product: ProductReference
        public var quantity: Quantity
        public var unitCost: Money
        public var lotCode: String?
        /// Best-before or use-by day, `YYYY-MM-DD`.
        public var expiryDate: String?

        /// Creates a line.
        public init(product: ProductReference, quantity: Quantity, unitCost: Money, lotCode: String? = nil, expiryDate: String? = nil) {
            self.product = product
            self.quantity = quantity
            self.unitCost = unitCost
            self.lotCode = lotCode
            self.expiryDate = expiryDate
        }

        /// Creates a line for an existing product.
        public init(productID: ProductID, quantity: Quantity, unitCost: Money, lotCode: String? = nil, expiryDate: String? = nil) {
            self.init(product: .existing(productID), quantity: quantity, unitCost: unitCost, lotCode: lotCode, expiryDate: expiryDate)
        }
    }

    /// Creates a purchase draft.
    public init(effectiveAt: Instant, supplierID: SupplierID? = nil, note: String = "", lines: [Line]) {
        self.effectiveAt = effectiveAt
        self.supplierID = supplierID
        self.note = note
        self.lines = lines
    }

    /// Checks every line.
    /// - Throws: ``InventoryError`` naming the field, e.g. `lines[1].quantity`.
    public func validated() throws -> PurchaseDraft {
        guard !self.lines.isEmpty else { throw InventoryError(.missingValue, field: "lines", "a purchase needs at least one line") }
        try requireLineLimit(self.lines.count)
        var copy = self
        copy.note = self.note.trimmingCharacters(in: .whitespacesAndNewlines)
        try TextLimit.note.check(copy.note, field: "note")
        for (index, line) in self.lines.enumerated() {
            let field = "lines[\(index)]"
            try line.quantity.requirePositive(field: "\(field).quantity")
            guard line.unitCost >= .zero else {
                throw InventoryError(.invalidValue, field: "\(field).unitCost", "must not be negative")
            }
            try line.unitCost.requireWithinLimit(field: "\(field).unitCost")
            if case .new(let details) = line.product {
                do {
                    copy.lines[index].product = .new(try details.validated())
                } catch let error as InventoryError {
                    throw error.nested(under: "\(field).product")
                }
            }
            copy.lines[index].lotCode = line.lotCode?.trimmingCharacters(in: .whitespaces).nilIfEmpty
            if let lot = copy.lines[index].lotCode { try TextLimit.line.check(lot, field: "\(field).lotCode") }
            if let expiry = line.expiryDate?.trimmingCharacters(in: .whitespaces).nilIfEmpty {
                guard ShopCalendar.dayNumber(isoDate: expiry) != nil else {
                    throw InventoryError(.invalidValue, field: "\(field).expiryDate", "'\(expiry)' is not a date (write YYYY-MM-DD)")
                }
                copy.lines[index].expiryDate = expiry
            } else {
                copy.lines[index].expiryDate = nil
            }
        }
        return copy
    }
}

/// A sale to record.
public struct SaleDraft: LedgerDraft, Sendable, Hashable {
    public var effectiveAt: Instant
    public var datedWhenBooked = false
    public var customerID: CustomerID?
    public var note: String
    public var lines: [Line]
    public var tip: Money
    public var paymentMethod: PaymentMethod
    /// Whether a manager approved prices below the products' minimum sale price.
    public var allowBelowMinimum: Bool
    /// Who approved it (a manager's username; empty when nobody did). Kept on the sale only when a line is below its
    /// minimum (``PricedSale/belowMinimum``).
    public var approvedBy: String = ""
    /// Who approved selling beyond the stock on record (a manager's username; empty when nobody did): the sale's lines
    /// may then take a product that does not allow negative stock below zero, costed as negative stock is, and each
    /// such line is listed for review (``SoldBeyondStock``).
    public var stockApprovedBy: String = ""
    /// Who rang the sale up (a username; empty when not known, e.g. imported or from the command line). An edit keeps
    /// the sale's original seller.
    public var soldBy: String
    /// Cash the customer handed over (cash sales only); the change is what exceeds the total.
    public var cashTendered: Money?
    /// The payments, when the sale is paid in several (part cash, part card) or a payment's status or reference is
    /// kept; empty means one payment of the whole total by ``paymentMethod`` with ``cashTendered``
    /// (``PricedSale/checkedPayments(currency:)``).
    public var payments: [PaymentDraft] = []

    /// How a line is discounted: an amount of money, or a percentage of the line's amount (price × quantity).
    public enum Discount: Sendable, Hashable {
        case amount(Money)
        case percent(Percent)
    }

    /// One line of a sale as the till or a script asks for it; ``priced(products:editing:currency:)`` turns it into
    /// the line that is booked.
    public struct Line: Sendable, Hashable {
        public var productID: ProductID
        public var quantity: Quantity
        /// Price per unit, with the shop's meaning (including tax or before it, ``TaxInclusion``); nil sells at the
        /// product's sale price.
        public var unitPrice: Money?
        public var discount: Discount
        /// Tax rate in force; nil takes the product's.
        public var taxRate: Percent?
        /// The options chosen (a size, a milk, extras: ``ModifierGroup``); a required group the line names nothing of takes
        /// its default, and without a ``unitPrice`` their price changes are added to the product's price.
        public var options: [ModifierID] = []

        /// Creates a line discounted by an amount of money on the whole line.
        public init(productID: ProductID, quantity: Quantity, unitPrice: Money? = nil, discount: Money = .zero, taxRate: Percent? = nil) {
            self.productID = productID
            self.quantity = quantity
            self.unitPrice = unitPrice
            self.discount = .amount(discount)
            self.taxRate = taxRate
        }

        /// Creates a line whose discount is `percent` of its amount (price × quantity).
        public init(productID: ProductID, quantity: Quantity, unitPrice: Money? = nil, discountPercent percent: Percent, taxRate: Percent? = nil) {
            self.init(productID: productID, quantity: quantity, unitPrice: unitPrice, taxRate: taxRate)
            self.discount = .percent(percent)
        }
    }

    /// Creates a sale draft.
    public init(
        effectiveAt: Instant, customerID: CustomerID? = nil, note: String = "", lines: [Line], tip: Money = .zero,
        paymentMethod: PaymentMethod = .cash, allowBelowMinimum: Bool = false, soldBy: String = "", cashTendered: Money? = nil
    ) {
        self.effectiveAt = effectiveAt
        self.customerID = customerID
        self.note = note
        self.lines = lines
        self.tip = tip
        self.paymentMethod = paymentMethod
        self.allowBelowMinimum = allowBelowMinimum
        self.soldBy = soldBy
        self.cashTendered = cashTendered
    }
}

/// A stock adjustment to record: a count, write-off or correction of one product.
public struct AdjustmentDraft: LedgerDraft, Sendable, Hashable {
    public var effectiveAt: Instant
    public var datedWhenBooked = false
    public var productID: ProductID
    /// Signed change: positive adds stock, negative removes it.
    public var quantityChange: Quantity
    public var reason: AdjustmentReason
    public var note: String
    /// Cost of stock added; nil values it at the current average cost.
    public var unitCost: Money?
    /// A count: the quantity found on the shelf. The change is then the count less the stock on record at
    /// ``effectiveAt``, worked out where the adjustment is booked (``resolvingCount(stockOnRecord:)``), so a sale
    /// booked while the count was typed is not counted twice.
    public var countedQuantity: Quantity?

    /// Creates an adjustment draft that changes the stock by `quantityChange`.
    public init(effectiveAt: Instant, productID: ProductID, quantityChange: Quantity, reason: AdjustmentReason, note: String = "", unitCost: Money? = nil) {
        self.effectiveAt = effectiveAt
        self.productID = productID
        self.quantityChange = quantityChange
        self.reason = reason
        self.note = note
        self.unitCost = unitCost
    }

    /// Creates a count: the stock is set to `counted` (reason ``AdjustmentReason/count``).
    public init(effectiveAt: Instant, productID: ProductID, counted: Quantity, note: String = "", unitCost: Money? = nil) {
        self.init(effectiveAt: effectiveAt, productID: productID, quantityChange: .zero, reason: .count, note: note, unitCost: unitCost)
        self.countedQuantity = counted
    }

    /// The count turned into a change against the stock on record at its instant.
    /// - Throws: ``InventoryError`` on `countedQuantity` when the count is negative or matches the stock on record.
    public func resolvingCount(stockOnRecord: Quantity) throws -> AdjustmentDraft {
        guard let counted = try self.checkedCount() else { return self }
        guard counted != stockOnRecord else {
            throw InventoryError(.invalidValue, field: "countedQuantity", "matches the stock on record (\(stockOnRecord.decimalString)): nothing to adjust")
        }
        var copy = self
        copy.quantityChange = counted - stockOnRecord
        copy.countedQuantity = nil
        return copy
    }

    /// The count, checked (not negative, within the limits); nil when the adjustment is a change, not a count.
    private func checkedCount() throws -> Quantity? {
        guard let counted = self.countedQuantity else { return nil }
        guard counted >= .zero else { throw InventoryError(.invalidValue, field: "countedQuantity", "must not be negative") }
        try counted.requireWithinLimit(field: "countedQuantity")
        return counted
    }

    /// Checks the fields (a count's change is checked once resolved).
    /// - Throws: ``InventoryError`` naming the field.
    public func validated() throws -> AdjustmentDraft {
        let isCount = try self.checkedCount() != nil
        if !isCount {
            guard self.quantityChange != .zero else {
                throw InventoryError(.invalidValue, field: "quantityChange", "must not be zero")
            }
            try self.quantityChange.requireWithinLimit(field: "quantityChange")
        }
        if let cost = self.unitCost {
            guard cost >= .zero else { throw InventoryError(.invalidValue, field: "unitCost", "must not be negative") }
            try cost.requireWithinLimit(field: "unitCost")
            guard isCount || self.quantityChange > .zero else {
                throw InventoryError(.invalidValue, field: "unitCost", "applies only when stock is added")
            }
        }
        var copy = self
        copy.note = self.note.trimmingCharacters(in: .whitespacesAndNewlines)
        try TextLimit.note.check(copy.note, field: "note")
        return copy
    }

    /// The ledger effect of the adjustment.
    public var effect: MovementEffect {
        if self.quantityChange < .zero { return .issue(quantity: self.quantityChange.magnitude) }
        if let cost = self.unitCost { return .receipt(quantity: self.quantityChange, unitCost: cost) }
        return .receiptAtAverage(quantity: self.quantityChange)
    }
}

/// Goods a customer brings back from an earlier sale.
public struct CustomerReturnDraft: LedgerDraft, Sendable, Hashable {
    public var effectiveAt: Instant
    public var datedWhenBooked = false
    public var saleID: SaleID
    public var note: String
    public var lines: [Line]

    /// One returned sale line.
    public struct Line: Sendable, Hashable {
        /// The sale line (its movement id) the goods came from.
        public var saleLineID: MovementID
        public var quantity: Quantity
        /// Whether the goods go back on the shelf (true) or are written off at the cost their sale was booked at,
        /// damaged (false): the refund is the same, the stock's quantity and value are what they were before.
        public var restock: Bool

        /// Creates a line.
        public init(saleLineID: MovementID, quantity: Quantity, restock: Bool = true) {
            self.saleLineID = saleLineID
            self.quantity = quantity
            self.restock = restock
        }
    }

    /// Where the money goes back: to which of the sale's payments, how much. Nil lets the books choose
    /// (``RefundAllocation/refunds(of:over:asked:currency:)``).
    public var refunds: [RefundDraft]?

    /// Creates a return draft.
    public init(effectiveAt: Instant, saleID: SaleID, note: String = "", lines: [Line], refunds: [RefundDraft]? = nil) {
        self.effectiveAt = effectiveAt
        self.saleID = saleID
        self.note = note
        self.lines = lines
        self.refunds = refunds
    }

    /// Checks the lines.
    /// - Throws: ``InventoryError`` naming the field.
    public func validated() throws -> CustomerReturnDraft {
        try checkReturn(quantities: self.lines.map(\.quantity), note: self.note)
        return self
    }
}

/// What every return (to or from the shop) must be: at least one line and at most ``maximumDocumentLines``, each
/// quantity positive, the note within its limit.
/// - Throws: ``InventoryError`` naming the field.
func checkReturn(quantities: [Quantity], note: String) throws {
    guard !quantities.isEmpty else { throw InventoryError(.missingValue, field: "lines", "a return needs at least one line") }
    try requireLineLimit(quantities.count)
    try TextLimit.note.check(note, field: "note")
    for (index, quantity) in quantities.enumerated() {
        try quantity.requirePositive(field: "lines[\(index)].quantity")
    }
}

/// Goods sent back to a supplier.
public struct SupplierReturnDraft: LedgerDraft, Sendable, Hashable {
    public var effectiveAt: Instant
    public var datedWhenBooked = false
    public var supplierID: SupplierID?
    public var note: String
    public var lines: [Line]

    /// One returned product.
    public struct Line: Sendable, Hashable {
        public var productID: ProductID
        public var quantity: Quantity

        /// Creates a line.
        public init(productID: ProductID, quantity: Quantity) {
            self.productID = productID
            self.quantity = quantity
        }
    }

    /// Creates a supplier-return draft.
    public init(effectiveAt: Instant, supplierID: SupplierID? = nil, note: String = "", lines: [Line]) {
        self.effectiveAt = effectiveAt
        self.supplierID = supplierID
        self.note = note
        self.lines = lines
    }

    /// Checks the lines.
    /// - Throws: ``InventoryError`` naming the field.
    public func validated() throws -> SupplierReturnDraft {
        try checkReturn(quantities: self.lines.map(\.quantity), note: self.note)
        return self
    }
}

/// A recorded purchase.
public struct PurchaseRecord: Sendable, Hashable, Identifiable {
    public var id: PurchaseID
    public var sequence: Int64
    public var effectiveAt: Instant
    public var recordedAt: Instant
    public var supplierID: SupplierID?
    public var supplierName: String?
    public var note: String
    public var lines: [Line]

    /// Creates a value.
    public init(id: PurchaseID, sequence: Int64, effectiveAt: Instant, recordedAt: Instant, supplierID: SupplierID?, supplierName: String?, note: String, lines: [Line]) {
        self.id = id
        self.sequence = sequence
        self.effectiveAt = effectiveAt
        self.recordedAt = recordedAt
        self.supplierID = supplierID
        self.supplierName = supplierName
        self.note = note
        self.lines = lines
    }

    /// A recorded purchase line.
    public struct Line: Sendable, Hashable {
        public var movementID: MovementID
        public var productID: ProductID
        public var productName: String
        public var quantity: Quantity
        public var unitCost: Money
        public var lotCode: String?
        public var expiryDate: String?
        /// Cost of the line: quantity × unit cost.
        public var amount: Money
        /// The product's balances after this line (its average cost: ``LedgerBalance/roundedAverageCost``).
        public var balanceAfter: LedgerBalance
        /// The product's kept average cost after this line, at full precision.
        public var averageCostAfter: UnitCost { self.balanceAfter.averageCost }

        /// Creates a value.
        public init(movementID: MovementID, productID: ProductID, productName: String, quantity: Quantity, unitCost: Money, lotCode: String?, expiryDate: String?, amount: Money, balanceAfter: LedgerBalance) {
            self.movementID = movementID
            self.productID = productID
            self.productName = productName
            self.quantity = quantity
            self.unitCost = unitCost
            self.lotCode = lotCode
            self.expiryDate = expiryDate
            self.amount = amount
            self.balanceAfter = balanceAfter
        }
    }

    /// Total cost of the purchase.
    public var total: Money { self.lines.reduce(.zero) { $0 + $1.amount } }
}

/// A recorded sale.
public struct SaleRecord: Sendable, Hashable, Identifiable {
    public var id: SaleID
    public var sequence: Int64
    public var effectiveAt: Instant
    public var recordedAt: Instant
    public var customerID: CustomerID?
    public var customerName: String?
    public var note: String
    public var tip: Money
    public var paymentMethod: PaymentMethod
    public var lines: [Line]
    /// Who rang the sale up (empty when not known).
    public var soldBy: String
    /// Cash handed over, when it was recorded.
    public var cashTendered: Money?
    /// The receipt number: sales are numbered 1, 2, 3 … in the order they were booked, without gaps (a refused or
    /// previewed sale takes no number; an edit keeps it). 0 for a sale not read from the books.
    public var receiptNumber: Int64
    /// Whether the sale's prices and discounts include tax (``TaxInclusion``); every line says the same.
    public var pricesIncludeTax: Bool { self.lines.first?.taxIncluded ?? false }

    /// The manager who approved a price below a product's minimum on this sale (empty when no line is below it).
    public var approvedBy: String = ""
    /// The manager who approved selling beyond the stock on record on this sale (empty when nobody did).
    public var stockApprovedBy: String = ""
    /// The payments, in the order they were taken (a sale booked before payments were kept has one, of its total).
    public var payments: [PaymentRecord] = []
    /// The customer returns booked against this sale, oldest first (each line's ``Line/returnedQuantity`` sums them).
    public var returns: [Return] = []

    /// A customer return booked against the sale, as the sale lists it.
    public struct Return: Sendable, Hashable {
        public var id: CustomerReturnID
        public var effectiveAt: Instant
        public var note: String
        /// What the return refunded to the sale's payments.
        public var refunded: Money
        public var lines: [Line]

        /// One returned line: which sale line, how much of it.
        public struct Line: Sendable, Hashable {
            public var saleLineID: MovementID
            public var productID: ProductID
            public var productName: String
            public var quantity: Quantity
            /// Whether it went back into stock (false: written off, damaged).
            public var restocked: Bool

            public init(saleLineID: MovementID, productID: ProductID, productName: String, quantity: Quantity, restocked: Bool = true) {
                self.saleLineID = saleLineID
                self.productID = productID
                self.productName = productName
                self.quantity = quantity
                self.restocked = restocked
            }
        }

        public init(id: CustomerReturnID, effectiveAt: Instant, note: String, refunded: Money, lines: [Line]) {
            self.id = id
            self.effectiveAt = effectiveAt
            self.note = note
            self.refunded = refunded
            self.lines = lines
        }
    }
    /// Which of its customer's visits this sale is (1 for the first, in booking order); nil without a customer.
    public var customerVisit: Int?
    /// The visit milestone this sale reached (``CustomerStanding/milestone(atVisit:)``), if any.
    public var customerMilestone: Int? { self.customerVisit.flatMap(CustomerStanding.milestone(atVisit:)) }

    /// What is still to pay: the total less the payments that count (pending and completed); more than zero only
    /// when a pending payment later failed.
    public var amountDue: Money {
        self.payments.isEmpty ? .zero : self.total - self.payments.filter(\.counts).reduce(.zero) { $0 + $1.amount }
    }
    /// What returns have refunded to the payments.
    public var refunded: Money { self.payments.reduce(.zero) { $0 + $1.refunded } }

    /// Creates a value.
    public init(id: SaleID, sequence: Int64, effectiveAt: Instant, recordedAt: Instant, customerID: CustomerID?, customerName: String?, note: String, tip: Money,
                paymentMethod: PaymentMethod, lines: [Line], soldBy: String = "", cashTendered: Money? = nil, receiptNumber: Int64 = 0) {
        self.receiptNumber = receiptNumber
        self.soldBy = soldBy
        self.cashTendered = cashTendered
        self.id = id
        self.sequence = sequence
        self.effectiveAt = effectiveAt
        self.recordedAt = recordedAt
        self.customerID = customerID
        self.customerName = customerName
        self.note = note
        self.tip = tip
        self.paymentMethod = paymentMethod
        self.lines = lines
    }

    /// A recorded sale line.
    public struct Line: Sendable, Hashable {
        public var movementID: MovementID
        public var productID: ProductID
        public var productName: String
        public var quantity: Quantity
        /// The price per unit as it was charged: including tax when ``taxIncluded``.
        public var unitPrice: Money
        /// The line's discount as the customer saw it, with the price's meaning.
        public var discount: Money
        public var taxRate: Percent
        public var tax: Money
        /// Revenue: what the line charged, before tax.
        public var revenue: Money
        /// Whether the price and the discount include tax.
        public var taxIncluded: Bool
        /// Cost of goods sold for the line.
        public var costOfGoodsSold: Money
        /// How much of the line customers have brought back so far.
        public var returnedQuantity: Quantity
        /// How much of the line customers may still bring back.
        public var returnableQuantity: Quantity { max(self.quantity - self.returnedQuantity, .zero) }
        /// The options chosen, as booked (their price changes are in ``unitPrice``).
        public var options: [ChosenModifier] = []
        /// How much of the line was sold beyond the stock on record with a manager's approval (``SaleDraft/stockApprovedBy``):
        /// how far below zero it took the product's stock, at most the line's quantity; zero for every other line.
        public var soldBeyondStock: Quantity = .zero

        /// Creates a value.
        /// - Parameter discount: the discount as the books keep it (before tax). With `taxIncluded` the line's
        ///   ``discount`` is the one the customer saw: price × quantity − (revenue + tax).
        public init(movementID: MovementID, productID: ProductID, productName: String, quantity: Quantity, unitPrice: Money, discount: Money, taxRate: Percent, tax: Money, revenue: Money, costOfGoodsSold: Money,
                    returnedQuantity: Quantity = .zero, taxIncluded: Bool = false) {
            self.returnedQuantity = returnedQuantity
            self.taxIncluded = taxIncluded
            self.movementID = movementID
            self.productID = productID
            self.productName = productName
            self.quantity = quantity
            self.unitPrice = unitPrice
            self.discount = taxIncluded ? Money.extended(unitPrice, by: quantity.magnitude) - revenue - tax : discount
            self.taxRate = taxRate
            self.tax = tax
            self.revenue = revenue
            self.costOfGoodsSold = costOfGoodsSold
        }

        /// What the line charged: revenue, plus its tax when the price includes tax.
        public var charged: Money { self.taxIncluded ? self.revenue + self.tax : self.revenue }
        /// Price × quantity before the discount, as booked: what it charged + discount (so a receipt's figures add up).
        public var amount: Money { self.charged + self.discount }
    }

    /// The revenue and tax of the lines at one tax rate (a receipt's tax summary).
    public struct TaxShare: Sendable, Hashable {
        public var rate: Percent
        /// Net: revenue before tax.
        public var revenue: Money
        public var tax: Money
        /// Gross: revenue + tax, what the customer paid at this rate (tips aside).
        public var gross: Money { self.revenue + self.tax }

        /// The revenue and tax of `lines` summed per tax rate, lowest rate first.
        public static func byRate(_ lines: some Sequence<(rate: Percent, revenue: Money, tax: Money)>) -> [TaxShare] {
            var shares: [Percent: TaxShare] = [:]
            for line in lines {
                var share = shares[line.rate] ?? TaxShare(rate: line.rate, revenue: .zero, tax: .zero)
                share.revenue += line.revenue
                share.tax += line.tax
                shares[line.rate] = share
            }
            return shares.values.sorted { $0.rate < $1.rate }
        }

        /// Creates a value.
        public init(rate: Percent, revenue: Money, tax: Money) {
            self.rate = rate
            self.revenue = revenue
            self.tax = tax
        }
    }

    /// Revenue and tax per tax rate, lowest rate first; the shares' taxes add up to ``tax``.
    public var taxShares: [TaxShare] { TaxShare.byRate(self.lines.map { ($0.taxRate, $0.revenue, $0.tax) }) }

    /// Discounts on all lines.
    public var discount: Money { self.lines.reduce(.zero) { $0 + $1.discount } }
    /// Revenue before tax.
    public var revenue: Money { self.lines.reduce(.zero) { $0 + $1.revenue } }
    /// Tax.
    public var tax: Money { self.lines.reduce(.zero) { $0 + $1.tax } }
    /// What the customer pays: revenue + tax + tip.
    public var total: Money { self.revenue + self.tax + self.tip }
    /// Change given back: per cash payment, tendered − amount (nil when no cash amount was recorded).
    public var change: Money? {
        guard !self.payments.isEmpty else { return self.cashTendered.map { $0 - self.total } }
        let changes = self.payments.compactMap(\.change)
        return changes.isEmpty ? nil : changes.reduce(.zero, +)
    }
    /// Cost of goods sold.
    public var costOfGoodsSold: Money { self.lines.reduce(.zero) { $0 + $1.costOfGoodsSold } }
}

/// A document as listed: id, date, party, total.
public struct DocumentSummary: Sendable, Hashable {
    public var id: Int64
    public var effectiveAt: Instant
    public var partyName: String?
    public var lineCount: Int
    public var total: Money
    public var note: String
    /// A sale's receipt number (nil for other documents).
    public var receiptNumber: Int64?

    /// Creates a summary.
    public init(id: Int64, effectiveAt: Instant, partyName: String?, lineCount: Int, total: Money, note: String, receiptNumber: Int64? = nil) {
        self.receiptNumber = receiptNumber
        self.id = id
        self.effectiveAt = effectiveAt
        self.partyName = partyName
        self.lineCount = lineCount
        self.total = total
        self.note = note
    }
}
