/// An exact quantity of stock with three decimals (0.5 kg, 12 pcs), counted in thousandths.
public struct Quantity: Sendable, Hashable, Comparable, Codable, AdditiveArithmetic {
    /// Thousandths per unit.
    public static let scaleFactor: Int64 = 1000
    /// Decimals a quantity may carry.
    public static let decimals = 3

    /// The quantity × 1000.
    public var thousandths: Int64

    /// Creates a quantity from thousandths (`500` is 0.5).
    public init(thousandths: Int64) { self.thousandths = thousandths }

    /// Creates a whole quantity.
    public init(_ units: Int64) { self.thousandths = units * Self.scaleFactor }

    /// Zero.
    public static let zero = Quantity(thousandths: 0)

    public static func + (lhs: Quantity, rhs: Quantity) -> Quantity { Quantity(thousandths: lhs.thousandths + rhs.thousandths) }
    public static func - (lhs: Quantity, rhs: Quantity) -> Quantity { Quantity(thousandths: lhs.thousandths - rhs.thousandths) }
    public static prefix func - (value: Quantity) -> Quantity { Quantity(thousandths: -value.thousandths) }
    public static func < (lhs: Quantity, rhs: Quantity) -> Bool { lhs.thousandths < rhs.thousandths }

    /// The absolute value.
    public var magnitude: Quantity { Quantity(thousandths: abs(self.thousandths)) }

    /// Parses `0.5`, `12`, `-3.125`.
    /// - Throws: ``InventoryError`` naming `field` when not a number or with more than three decimals.
    public static func parse(_ text: String, field: String) throws -> Quantity {
        guard let value = FixedPoint.parse(text, scale: Self.decimals) else {
            throw InventoryError(.invalidValue, field: field, "'\(text)' is not a quantity with at most 3 decimals")
        }
        return Quantity(thousandths: value)
    }

    /// Parses a quantity that must be greater than zero.
    /// - Throws: ``InventoryError`` naming `field` when not a number, over-precise, zero or negative.
    public static func parsePositive(_ text: String, field: String) throws -> Quantity {
        let quantity = try self.parse(text, field: field)
        try quantity.requirePositive(field: field)
        return quantity
    }

    /// The largest quantity a document line may move: a million units. Far beyond any shop, and small enough that
    /// the books' sums stay inside 64 bits.
    public static let maximum = Quantity(thousandths: 1_000_000_000)

    /// Throws unless the quantity is greater than zero and at most ``maximum``.
    public func requirePositive(field: String) throws {
        guard self.thousandths > 0 else {
            throw InventoryError(.invalidValue, field: field, "must be greater than zero")
        }
        try self.requireWithinLimit(field: field)
    }

    /// Throws when the quantity's size exceeds ``maximum``.
    public func requireWithinLimit(field: String) throws {
        guard self.thousandths.magnitude <= Self.maximum.thousandths.magnitude else {
            throw InventoryError(.invalidValue, field: field, "is too large (at most \(Self.maximum.decimalString))")
        }
    }

    /// The quantity as a short decimal string (`0.5`, `12`).
    public var decimalString: String { FixedPoint.formatTrimmed(self.thousandths, scale: Self.decimals) }
}

/// A cost per unit at four decimals beyond the currency's minor unit, so averages keep their precision.
///
/// `UnitCost(scaled: 27_500)` in EUR is 2.7500 per unit; shown rounded to the minor unit as 2.75.
public struct UnitCost: Sendable, Hashable, Comparable, Codable {
    /// Extra precision of an average cost beyond the minor unit.
    public static let scale: Int64 = 10_000

    /// The cost per unit in minor units × ``scale``.
    public var scaled: Int64

    /// Creates a cost from minor units × ``scale``.
    public init(scaled: Int64) { self.scaled = scaled }

    /// The exact cost of one unit given as money.
    public init(_ money: Money) { self.scaled = money.minorUnits * Self.scale }

    /// Zero.
    public static let zero = UnitCost(scaled: 0)

    public static func < (lhs: UnitCost, rhs: UnitCost) -> Bool { lhs.scaled < rhs.scaled }

    /// `value / quantity`, rounded at the extra scale; nil when the quantity is zero.
    public static func average(value: Money, quantity: Quantity) -> UnitCost? {
        guard quantity.thousandths != 0 else { return nil }
        let numerator = Int128(value.minorUnits) * Int128(Self.scale) * Int128(Quantity.scaleFactor)
        return UnitCost(scaled: FixedPoint.clamp(FixedPoint.divideRounded(numerator, Int128(quantity.thousandths))))
    }

    /// The cost rounded to the currency's minor unit. To show a balance's average use
    /// ``LedgerBalance/roundedAverageCost``: rounding this kept average again would round value ÷ quantity twice.
    public var rounded: Money {
        Money(minorUnits: FixedPoint.clamp(FixedPoint.divideRounded(Int128(self.scaled), Int128(Self.scale))))
    }

    /// `quantity × self`, rounded to the minor unit.
    public func value(of quantity: Quantity) -> Money {
        let numerator = Int128(self.scaled) * Int128(quantity.thousandths)
        return Money(minorUnits: FixedPoint.clamp(FixedPoint.divideRounded(numerator, Int128(Self.scale) * Int128(Quantity.scaleFactor))))
    }

    /// The cost at full precision: the currency's decimals plus the four extra ones (`0.255000` in EUR).
    public func exactDecimalString(_ currency: Currency) -> String {
        FixedPoint.format(self.scaled, scale: currency.minorUnits + 4)
    }
}
