/// The weighted-average costing of one product's stock: a pure state machine over movements in ledger order.
///
/// The rules (also in README, "The books"):
/// - **Receipt** of `q` at unit cost `h` into stock `Q` with value `V`: `V' = V + q·h` (rounded to the minor
///   unit), `Q' = Q + q`, average cost `= V' / Q'`. So a first receipt costs `(q·h)/q = h`, a second
///   `(q1·h1 + q2·h2)/(q1 + q2)`.
/// - **Issue** of `q` (sale, write-off, return to supplier): cost `= q × V/Q` rounded to the minor unit,
///   `V' = V − cost`. When the quantity reaches exactly zero the remaining value goes with it, so no stray
///   cents stay in stock.
/// - **Negative stock** is refused unless the product allows it, or a manager approved the movement going beyond the
///   stock on record (`beyondStock`, a sale at the till when the count was wrong). If allowed, the part issued below
///   zero is costed at the last average cost. A receipt into negative stock resets the average to the receipt's unit
///   price: the new balance is valued at `Q' × h`, and the difference from `V + q·h` is booked as a
///   **cost adjustment** (an expense when positive), so that
///   `Σ inflow cost = Σ issued cost + Σ cost adjustments + stock value` still holds to the minor unit.
/// - A **customer return** restocks at the unit cost its sale was booked at; a return to a supplier is an
///   issue at the current average cost.
/// - A product that does not track stock keeps no balance: inflows are expensed at once as cost adjustments
///   and issues cost nothing.
public struct StockLedger: Sendable, Hashable {
    /// The balances after the last applied movement.
    public private(set) var balance: LedgerBalance
    /// Whether stock may go below zero.
    public let allowsNegativeStock: Bool
    /// Whether the product keeps stock at all.
    public let tracksStock: Bool

    /// Starts from `balance` (the balances after the last movement before the ones to apply).
    public init(balance: LedgerBalance = .empty, allowsNegativeStock: Bool = false, tracksStock: Bool = true) {
        self.balance = balance
        self.allowsNegativeStock = allowsNegativeStock
        self.tracksStock = tracksStock
    }

    /// Applies one movement and returns its costed outcome.
    /// - Parameter beyondStock: whether this movement may take stock below zero although the product does not allow
    ///   it (a manager approved it); it is costed as for a product that allows negative stock.
    /// - Throws: ``InventoryError/Code/insufficientStock`` when an issue would take stock below zero and neither the
    ///   product nor the movement allows it; ``InventoryError/Code/invalidValue`` for a zero or negative quantity.
    public mutating func apply(_ effect: MovementEffect, beyondStock: Bool = false) throws -> MovementOutcome {
        let change = effect.quantityChange
        guard effect.quantity.thousandths > 0 else {
            throw InventoryError(.invalidValue, field: "quantity", "must be greater than zero")
        }
        guard self.tracksStock else { return self.applyUntracked(effect) }

        let before = self.balance
        // Refuse, rather than trap on, sums that would leave 64 bits (the document limits make this unreachable in practice).
        guard let quantityAfter = Self.add(before.quantity.thousandths, change.thousandths).map(Quantity.init(thousandths:)),
              Self.fits(before.value.minorUnits, effect) else {
            throw InventoryError(.invalidValue, field: "quantity", "the product's stock or its value would grow beyond what the books can hold")
        }
        switch effect {
        case .issue(let quantity), .writeOffReturned(let quantity, _, _):
            if quantityAfter.thousandths < 0 && !self.allowsNegativeStock && !beyondStock {
                throw InventoryError(
                    .insufficientStock, field: "quantity",
                    "only \(before.quantity.decimalString) in stock, cannot take out \(quantity.decimalString)")
            }
            let issued = self.valueOut(effect, from: before)
            self.balance = LedgerBalance(
                quantity: quantityAfter, value: before.value - issued,
                averageCost: UnitCost.average(value: before.value - issued, quantity: quantityAfter).flatMap {
                    quantityAfter.thousandths > 0 ? $0 : nil
                } ?? before.averageCost)
            return MovementOutcome(valueChange: -issued, costAdjustment: .zero, balance: self.balance)

        case .receipt, .receiptAtAverage, .returnToStock:
            let (inflow, unitCost) = self.inflowValue(effect, from: before)
            var valueAfter = before.value + inflow
            var costAdjustment = Money.zero
            var average: UnitCost
            if before.quantity.thousandths < 0 {
                // Receipt into negative stock: revalue the whole new balance at this receipt's unit cost.
                valueAfter = unitCost.value(of: quantityAfter)
                costAdjustment = before.value + inflow - valueAfter
                average = unitCost
            } else {
                average = UnitCost.average(value: valueAfter, quantity: quantityAfter) ?? before.averageCost
            }
            if quantityAfter == .zero {
                costAdjustment = costAdjustment + valueAfter
                valueAfter = .zero
                average = unitCost
            }
            self.balance = LedgerBalance(quantity: quantityAfter, value: valueAfter, averageCost: average)
            return MovementOutcome(valueChange: valueAfter - before.value, costAdjustment: costAdjustment, balance: self.balance)
        }
    }

    static func add(_ a: Int64, _ b: Int64) -> Int64? {
        let (sum, overflow) = a.addingReportingOverflow(b)
        return overflow ? nil : sum
    }

    /// Whether the value after the movement stays far inside 64 bits (a margin of 2⁶⁰ leaves room for rounding terms).
    /// The largest magnitude a product's stock or its value may reach (in thousandths or minor units): far beyond any
    /// shop, and far below what 64 bits hold. One line of a document is held to much less (``Money/maximum``,
    /// ``Quantity/maximum``); a balance sums many lines, so it is held to this.
    public static let balanceLimit = Int64(1) << 60

    static func fits(_ value: Int64, _ effect: MovementEffect) -> Bool {
        let limit = Int128(Self.balanceLimit)
        let bound: Int128
        switch effect {
        case .receipt(let quantity, let unitCost): bound = Int128(quantity.thousandths) * Int128(unitCost.minorUnits.magnitude) / 1000 + 1
        case .returnToStock(_, let bookedCost, _), .writeOffReturned(_, let bookedCost, _): bound = Int128(bookedCost.minorUnits.magnitude)
        case .receiptAtAverage, .issue: bound = Int128(value.magnitude)
        }
        return Int128(value.magnitude) + bound < limit
    }

    /// What an issue or a write-off takes out of `balance`: an issue at the average (``costOfIssue(_:from:)``); a returned
    /// item written off at its booked share (the value its return brought in), or the whole value when nothing is left.
    private func valueOut(_ effect: MovementEffect, from balance: LedgerBalance) -> Money {
        switch effect {
        case .issue(let quantity):
            return self.costOfIssue(quantity, from: balance)
        case .writeOffReturned(let quantity, let bookedCost, let bookedQuantity):
            if quantity == balance.quantity { return balance.value }
            return self.inflowValue(.returnToStock(quantity: quantity, bookedCost: bookedCost, bookedQuantity: bookedQuantity), from: balance).0
        case .receipt, .receiptAtAverage, .returnToStock:
            preconditionFailure("a receipt takes nothing out")
        }
    }

    /// The cost of issuing `quantity` from `balance`.
    private func costOfIssue(_ quantity: Quantity, from balance: LedgerBalance) -> Money {
        let onHand = balance.quantity
        if quantity == onHand { return balance.value }
        if onHand.thousandths > 0 && quantity < onHand {
            let numerator = Int128(quantity.thousandths) * Int128(balance.value.minorUnits)
            return Money(minorUnits: FixedPoint.clamp(FixedPoint.divideRounded(numerator, Int128(onHand.thousandths))))
        }
        // Going below zero (allowed): what is on hand takes its whole value, the rest is costed at the last average.
        if onHand.thousandths > 0 {
            let average = UnitCost.average(value: balance.value, quantity: onHand) ?? balance.averageCost
            return balance.value + average.value(of: quantity - onHand)
        }
        return balance.averageCost.value(of: quantity)
    }

    /// The value an inflow brings, and the unit cost it brings it at.
    private func inflowValue(_ effect: MovementEffect, from balance: LedgerBalance) -> (Money, UnitCost) {
        switch effect {
        case .receipt(let quantity, let unitCost):
            return (Money.extended(unitCost, by: quantity), UnitCost(unitCost))
        case .receiptAtAverage(let quantity):
            let average = balance.quantity.thousandths > 0
                ? (UnitCost.average(value: balance.value, quantity: balance.quantity) ?? balance.averageCost)
                : balance.averageCost
            return (average.value(of: quantity), average)
        case .returnToStock(let quantity, let bookedCost, let bookedQuantity):
            let unit = UnitCost.average(value: bookedCost, quantity: bookedQuantity) ?? .zero
            if quantity == bookedQuantity { return (bookedCost, unit) }
            let numerator = Int128(bookedCost.minorUnits) * Int128(quantity.thousandths)
            let value = FixedPoint.divideRounded(numerator, Int128(bookedQuantity.thousandths))
            return (Money(minorUnits: FixedPoint.clamp(value)), unit)
        case .issue, .writeOffReturned:
            preconditionFailure("an issue has no inflow value")
        }
    }

    private mutating func applyUntracked(_ effect: MovementEffect) -> MovementOutcome {
        switch effect {
        case .issue, .writeOffReturned:
            return MovementOutcome(valueChange: .zero, costAdjustment: .zero, balance: self.balance)
        default:
            let (inflow, _) = self.inflowValue(effect, from: self.balance)
            return MovementOutcome(valueChange: .zero, costAdjustment: inflow, balance: self.balance)
        }
    }
}
