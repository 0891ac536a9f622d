import Foundation

/// A currency and the number of decimals (minor units) its amounts carry.
public struct Currency: Sendable, Hashable, Codable {
    /// The ISO 4217 code, e.g. `EUR`.
    public let code: String
    /// Decimals of the minor unit: 2 for EUR and USD, 0 for JPY, 3 for KWD.
    public let minorUnits: Int

    /// Creates a currency with an explicit number of decimals.
    public init(code: String, minorUnits: Int) {
        self.code = code.uppercased()
        self.minorUnits = minorUnits
    }

    /// Creates a currency from its ISO code, with ISO 4217's minor units (2 when the code is not in the table).
    /// - Throws: ``InventoryError`` when the code is not three letters.
    public init(isoCode: String) throws {
        let code = isoCode.trimmingCharacters(in: .whitespaces).uppercased()
        guard code.count == 3, code.allSatisfy({ $0.isASCII && $0.isLetter }) else {
            throw InventoryError(.invalidValue, field: "currency", "must be a three-letter ISO 4217 code such as EUR, USD or JPY")
        }
        self.init(code: code, minorUnits: Self.minorUnitTable[code] ?? 2)
    }

    private static let minorUnitTable: [String: Int] = [
        "BHD": 3, "IQD": 3, "JOD": 3, "KWD": 3, "LYD": 3, "OMR": 3, "TND": 3,
        "BIF": 0, "CLP": 0, "DJF": 0, "GNF": 0, "ISK": 0, "JPY": 0, "KMF": 0, "KRW": 0, "PYG": 0,
        "RWF": 0, "UGX": 0, "VND": 0, "VUV": 0, "XAF": 0, "XOF": 0, "XPF": 0,
    ]

    /// The euro.
    public static let eur = Currency(code: "EUR", minorUnits: 2)
    /// The US dollar.
    public static let usd = Currency(code: "USD", minorUnits: 2)
    /// The Japanese yen (no minor unit).
    public static let jpy = Currency(code: "JPY", minorUnits: 0)
    /// The Kuwaiti dinar (three decimals).
    public static let kwd = Currency(code: "KWD", minorUnits: 3)
}

/// An exact amount of money in the shop's currency, counted in minor units (cents for EUR).
public struct Money: Sendable, Hashable, Comparable, Codable, AdditiveArithmetic {
    /// The amount in minor units.
    public var minorUnits: Int64

    /// Creates an amount from minor units.
    public init(minorUnits: Int64) { self.minorUnits = minorUnits }

    /// Zero.
    public static let zero = Money(minorUnits: 0)

    /// The largest price or cost a document or product may carry: 10⁹ minor units (10 million EUR). With at most
    /// ``Quantity/maximum`` per line and 1,000 lines a document, every sum of the books stays inside 64 bits.
    public static let maximum = Money(minorUnits: 1_000_000_000)

    /// Throws when the amount's size exceeds ``maximum`` (written in `currency` when given, else in minor units).
    public func requireWithinLimit(field: String, currency: Currency? = nil) throws {
        guard self.minorUnits.magnitude <= Self.maximum.minorUnits.magnitude else {
            let limit = currency.map { Self.maximum.decimalString($0) } ?? "\(Self.maximum.minorUnits) minor units"
            throw InventoryError(.invalidValue, field: field, "is too large (at most \(limit))")
        }
    }

    public static func + (lhs: Money, rhs: Money) -> Money { Money(minorUnits: lhs.minorUnits + rhs.minorUnits) }
    public static func - (lhs: Money, rhs: Money) -> Money { Money(minorUnits: lhs.minorUnits - rhs.minorUnits) }
    public static prefix func - (value: Money) -> Money { Money(minorUnits: -value.minorUnits) }
    public static func < (lhs: Money, rhs: Money) -> Bool { lhs.minorUnits < rhs.minorUnits }

    /// What ``parse(_:currency:field:rounding:)`` does with more decimals than the currency's minor unit.
    public enum Rounding: Sendable, Hashable {
        /// Refuse the amount (the rule everywhere an amount is typed or sent as a decimal string).
        case refuse
        /// Round half away from zero to the minor unit, exactly on the decimal digits as written (`1694.91525424` →
        /// `1694.92`): only for clients that send a binary floating-point number's description (the existing iOS client).
        case halfAwayFromZero
    }

    /// Parses a decimal string such as `2.75` in `currency`.
    /// - Parameter rounding: ``Rounding/refuse`` (the default) refuses more decimals than the currency has;
    ///   ``Rounding/halfAwayFromZero`` rounds them to the minor unit.
    /// - Throws: ``InventoryError`` naming `field` when the text is not a number or (unless rounded) has more decimals
    ///   than the currency allows.
    public static func parse(_ text: String, currency: Currency, field: String, rounding: Rounding = .refuse) throws -> Money {
        if rounding == .halfAwayFromZero {
            guard let units = FixedPoint.parseRounded(text, scale: currency.minorUnits) else {
                throw InventoryError(.invalidValue, field: field, "'\(text)' is not a decimal number (write it like 12.50)")
            }
            return Money(minorUnits: units)
        }
        guard let units = FixedPoint.parse(text, scale: currency.minorUnits) else {
            if FixedPoint.parse(text, scale: 18) != nil {
                throw InventoryError(
                    .invalidValue, field: field,
                    "'\(text)' has more than \(currency.minorUnits) decimals, the most \(currency.code) allows")
            }
            throw InventoryError(.invalidValue, field: field, "'\(text)' is not a decimal number (write it like 12.50)")
        }
        return Money(minorUnits: units)
    }

    /// The amount as a decimal string with the currency's decimals (`2.75`, `300`, `1.250`).
    public func decimalString(_ currency: Currency) -> String {
        FixedPoint.format(self.minorUnits, scale: currency.minorUnits)
    }

    /// The amounts a till offers for a customer paying this amount in cash, in order: the amount itself, then the next
    /// round amounts above it — the next multiple of 1, 5, 10, 20, 50 and 100 whole units of `currency` — each once,
    /// four at most. None for zero or less (nothing to pay).
    public func cashOffers(in currency: Currency) -> [Money] {
        guard self.minorUnits > 0 else { return [] }
        let unit = FixedPoint.powerOfTen(min(currency.minorUnits, 6))
        var offers = [self]
        for step: Int64 in [1, 5, 10, 20, 50, 100] where offers.count < 4 {
            let size = step * unit
            let (rounds, overflow) = self.minorUnits.addingReportingOverflow(size - 1)
            guard !overflow else { break }
            let up = Money(minorUnits: rounds / size * size)
            if up > self && !offers.contains(up) { offers.append(up) }
        }
        return offers
    }

    /// `quantity × unitPrice`, rounded to the minor unit.
    public static func extended(_ unitPrice: Money, by quantity: Quantity) -> Money {
        let product = Int128(unitPrice.minorUnits) * Int128(quantity.thousandths)
        return Money(minorUnits: FixedPoint.clamp(FixedPoint.divideRounded(product, Int128(Quantity.scaleFactor))))
    }

    /// This amount × `percent`, rounded to the minor unit.
    public func applying(_ percent: Percent) -> Money {
        let product = Int128(self.minorUnits) * Int128(percent.hundredths)
        return Money(minorUnits: FixedPoint.clamp(FixedPoint.divideRounded(product, 10_000)))
    }
}

/// A percentage with two decimals (`7.25 %`), counted in hundredths of a percent.
public struct Percent: Sendable, Hashable, Comparable, Codable {
    /// The percentage × 100.
    public var hundredths: Int64

    /// Creates a percentage from hundredths of a percent (`725` is 7.25 %).
    public init(hundredths: Int64) { self.hundredths = hundredths }

    /// Zero percent.
    public static let zero = Percent(hundredths: 0)

    public static func < (lhs: Percent, rhs: Percent) -> Bool { lhs.hundredths < rhs.hundredths }

    /// Parses `7.5` or `7.5%`.
    /// - Throws: ``InventoryError`` naming `field` when not a number with at most two decimals, or outside 0…`maximum`.
    public static func parse(_ text: String, field: String, maximum: Int64 = 100_000) throws -> Percent {
        var trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed.hasSuffix("%") { trimmed.removeLast() }
        guard let value = FixedPoint.parse(trimmed, scale: 2) else {
            throw InventoryError(.invalidValue, field: field, "'\(text)' is not a percentage with at most 2 decimals")
        }
        guard value >= 0, value <= maximum * 100 else {
            throw InventoryError(.invalidValue, field: field, "must be between 0 and \(maximum) %")
        }
        return Percent(hundredths: value)
    }

    /// The percentage as a decimal string (`7.5`).
    public var decimalString: String { FixedPoint.formatTrimmed(self.hundredths, scale: 2) }
}
