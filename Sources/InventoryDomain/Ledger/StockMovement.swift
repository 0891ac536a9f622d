import Foundation

/// The kind of document a stock movement comes from.
public enum MovementKind: String, Sendable, Codable, CaseIterable {
    /// Goods received from a supplier.
    case purchase
    /// Goods sold to a customer.
    case sale
    /// A stock count, write-off or correction.
    case adjustment
    /// Goods a customer brought back.
    case customerReturn
    /// Goods sent back to a supplier.
    case supplierReturn
    /// Ingredients a recipe product's sale line consumed (``Recipe``): issues of the ingredients, in the sale's document,
    /// whose cost is the line's cost of goods sold.
    case consumption
}

/// Why stock was adjusted.
public enum AdjustmentReason: String, Sendable, Codable, CaseIterable {
    case initial, count, damage, expired, `return`, correction, transfer

    /// The reason named `text`.
    /// - Throws: ``InventoryError`` on `field`, listing the reasons, when there is none of that name.
    public static func parse(_ text: String, field: String) throws -> AdjustmentReason {
        guard let reason = AdjustmentReason(rawValue: text) else {
            throw InventoryError(.invalidValue, field: field, "must be one of \(Self.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return reason
    }
}

/// Where a movement sits in a product's ledger: effective time, then entry sequence, then line.
public struct LedgerPosition: Sendable, Hashable, Comparable, Codable {
    /// When the user says it happened (milliseconds since 1970, UTC).
    public var effectiveAt: Int64
    /// The entry sequence of the document, kept when the document is edited.
    public var sequence: Int64
    /// The line within the document.
    public var lineNo: Int

    /// Creates a position.
    public init(effectiveAt: Int64, sequence: Int64, lineNo: Int) {
        self.effectiveAt = effectiveAt
        self.sequence = sequence
        self.lineNo = lineNo
    }

    public static func < (lhs: LedgerPosition, rhs: LedgerPosition) -> Bool {
        (lhs.effectiveAt, lhs.sequence, lhs.lineNo) < (rhs.effectiveAt, rhs.sequence, rhs.lineNo)
    }
}

/// What a movement does to stock, before costing.
public enum MovementEffect: Sendable, Hashable {
    /// Stock in at a known unit cost (purchase, or a counted-in adjustment with a cost).
    case receipt(quantity: Quantity, unitCost: Money)
    /// Stock in at the current average cost (an adjustment without a cost).
    case receiptAtAverage(quantity: Quantity)
    /// Stock in at the cost its sale was booked at: `bookedCost` for `bookedQuantity` (a customer return).
    case returnToStock(quantity: Quantity, bookedCost: Money, bookedQuantity: Quantity)
    /// Stock out at the average cost (sale, write-off, return to supplier).
    case issue(quantity: Quantity)
    /// Stock out at the cost its sale was booked at: `bookedCost` for `bookedQuantity` (a customer return that goes back
    /// on no shelf — damaged — is written off as it came in, so the stock's quantity and value are what they were).
    case writeOffReturned(quantity: Quantity, bookedCost: Money, bookedQuantity: Quantity)

    /// The quantity moved, as given (always positive for a valid movement).
    public var quantity: Quantity {
        switch self {
        case .receipt(let quantity, _), .receiptAtAverage(let quantity), .returnToStock(let quantity, _, _),
            .issue(let quantity), .writeOffReturned(let quantity, _, _):
            quantity
        }
    }

    /// The signed quantity change.
    public var quantityChange: Quantity {
        switch self {
        case .issue, .writeOffReturned: -self.quantity
        case .receipt, .receiptAtAverage, .returnToStock: self.quantity
        }
    }
}

/// A product's balances after a movement.
public struct LedgerBalance: Sendable, Hashable, Codable {
    /// Stock on hand.
    public var quantity: Quantity
    /// Stock value at cost.
    public var value: Money
    /// Average cost per unit; after stock reaches zero, the last average is kept for costing.
    public var averageCost: UnitCost

    /// Creates a balance.
    public init(quantity: Quantity, value: Money, averageCost: UnitCost) {
        self.quantity = quantity
        self.value = value
        self.averageCost = averageCost
    }

    /// Nothing on hand, no history.
    public static let empty = LedgerBalance(quantity: .zero, value: .zero, averageCost: .zero)

    /// The average cost to show: value ÷ quantity rounded ONCE to the minor unit — what one unit issued now books
    /// (20 000 at 0.25 plus 1 at 100.25 is 0.25, not the 0.26 of rounding the kept ``averageCost`` of 0.255000 again).
    /// With nothing (or less than nothing) on hand there is no value to divide: the kept average, which is what units
    /// issued then cost, rounded.
    public var roundedAverageCost: Money {
        guard self.quantity.thousandths > 0 else { return self.averageCost.rounded }
        let numerator = Int128(self.value.minorUnits) * Int128(Quantity.scaleFactor)
        return Money(minorUnits: FixedPoint.clamp(FixedPoint.divideRounded(numerator, Int128(self.quantity.thousandths))))
    }
}

/// The costed result of one movement.
public struct MovementOutcome: Sendable, Hashable {
    /// Change of stock value: the inflow's cost, or minus the cost of goods issued.
    public var valueChange: Money
    /// Value booked outside stock to keep the books balanced (a positive amount is an expense); see ``StockLedger``.
    public var costAdjustment: Money
    /// Balances after the movement.
    public var balance: LedgerBalance

    /// Creates a value.
    public init(valueChange: Money, costAdjustment: Money, balance: LedgerBalance) {
        self.valueChange = valueChange
        self.costAdjustment = costAdjustment
        self.balance = balance
    }
}

/// A costed line of a product's ledger as stored: the document it came from and the balances after it.
public struct StockMovement: Sendable, Hashable, Identifiable {
    /// The movement's id.
    public var id: MovementID
    /// The product moved.
    public var productID: ProductID
    /// The kind of document.
    public var kind: MovementKind
    /// The document's id (a purchase, sale, adjustment or return id, by ``kind``).
    public var documentID: Int64
    /// Position in the ledger.
    public var position: LedgerPosition
    /// When it was entered (milliseconds since 1970, UTC).
    public var recordedAt: Int64
    /// Signed quantity change.
    public var quantity: Quantity
    /// Unit cost of a purchase line, or unit price of a sale line.
    public var unitAmount: Money
    /// Revenue net of discount for sale lines, minus the refund for customer returns, else zero.
    public var revenue: Money
    /// Tax of a sale line (minus for a return), else zero.
    public var tax: Money
    /// A sale line's discount as the books keep it, before tax (``PricedSale/Line/bookedDiscount``), else zero.
    public var discount: Money
    /// The tax rate of a sale line or customer return, else zero.
    public var taxRate: Percent
    /// Change of stock value.
    public var valueChange: Money
    /// Cost adjustment booked with this movement.
    public var costAdjustment: Money
    /// Balances after the movement.
    public var balance: LedgerBalance
    /// The adjustment's reason, for adjustments.
    public var reason: AdjustmentReason?
    /// Whether a manager approved this sale line beyond the stock on record, and it needed it (``SoldBeyondStock``).
    public var beyondStock: Bool

    /// Creates a movement.
    public init(
        id: MovementID, productID: ProductID, kind: MovementKind, documentID: Int64, position: LedgerPosition,
        recordedAt: Int64, quantity: Quantity, unitAmount: Money, revenue: Money, tax: Money,
        valueChange: Money, costAdjustment: Money, balance: LedgerBalance, reason: AdjustmentReason? = nil, discount: Money = .zero,
        taxRate: Percent = .zero, beyondStock: Bool = false
    ) {
        self.beyondStock = beyondStock
        self.discount = discount
        self.taxRate = taxRate
        self.id = id
        self.productID = productID
        self.kind = kind
        self.documentID = documentID
        self.position = position
        self.recordedAt = recordedAt
        self.quantity = quantity
        self.unitAmount = unitAmount
        self.revenue = revenue
        self.tax = tax
        self.valueChange = valueChange
        self.costAdjustment = costAdjustment
        self.balance = balance
        self.reason = reason
    }

    /// What one unit of this movement was worth in the books: |value change| ÷ |quantity| at the average cost's
    /// precision (a purchase's cost, the average a sale issued at, a return's booked cost); nil when no quantity moved.
    public var unitCost: UnitCost? {
        UnitCost.average(value: Money(minorUnits: abs(self.valueChange.minorUnits)), quantity: self.quantity.magnitude)
    }

    /// Cost of goods sold booked by this movement: the cost issued by a sale, minus the cost restocked by a return.
    public var costOfGoodsSold: Money {
        switch self.kind {
        case .sale, .customerReturn, .consumption: -self.valueChange
        default: .zero
        }
    }
}
