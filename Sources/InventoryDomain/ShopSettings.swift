import Foundation

/// Shop-wide settings.
public struct ShopSettings: Sendable, Hashable {
    public var shopName: String
    public var currency: Currency
    /// IANA time-zone identifier; a report "day" is a calendar day there.
    public var timeZoneIdentifier: String
    public var defaultTaxRate: Percent
    /// Low-stock threshold for products and categories that set none.
    public var lowStockDefault: Quantity
    /// Minutes of inactivity before the till locks.
    public var lockMinutes: Int
    /// The shop's address as its receipts print it (several lines allowed); empty when not given.
    public var address: String = ""
    /// The shop's tax or VAT registration number for its receipts; empty when not given.
    public var taxID: String = ""
    /// A line or two printed at the foot of every receipt (opening hours, returns policy); empty prints "Thank you!".
    public var receiptFooter: String = ""
    /// Whether the products' sale and minimum prices include tax (what the customer pays) rather than being before tax;
    /// see ``TaxInclusion``. Changeable freely until the first sale, then only by re-pricing.
    public var pricesIncludeTax: Bool = false

    /// Creates settings.
    public init(shopName: String = "My shop", currency: Currency = .eur, timeZoneIdentifier: String = "UTC",
                defaultTaxRate: Percent = .zero, lowStockDefault: Quantity = Quantity(5), lockMinutes: Int = 5) {
        self.shopName = shopName
        self.currency = currency
        self.timeZoneIdentifier = timeZoneIdentifier
        self.defaultTaxRate = defaultTaxRate
        self.lowStockDefault = lowStockDefault
        self.lockMinutes = lockMinutes
    }

    /// The shop calendar for the time zone (UTC when the identifier is unknown).
    public var calendar: ShopCalendar {
        (try? ShopCalendar(identifier: self.timeZoneIdentifier)) ?? ShopCalendar(timeZone: TimeZone(identifier: "UTC") ?? .current)
    }

    /// Checks the fields.
    /// - Throws: ``InventoryError`` naming the field.
    public func validated() throws -> ShopSettings {
        var copy = self
        copy.shopName = self.shopName.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !copy.shopName.isEmpty else { throw InventoryError(.missingValue, field: "shopName", "is required") }
        _ = try ShopCalendar(identifier: self.timeZoneIdentifier)
        guard self.currency.code.count == 3, self.currency.code.allSatisfy({ $0.isASCII && $0.isLetter }) else {
            throw InventoryError(.invalidValue, field: "currency", "must be a three-letter ISO 4217 code such as EUR, USD or JPY")
        }
        guard (0...4).contains(self.currency.minorUnits) else {
            throw InventoryError(.invalidValue, field: "currencyMinorUnits", "must be between 0 and 4 decimals")
        }
        try TextLimit.shortName.check(copy.shopName, field: "shopName")
        guard self.defaultTaxRate.hundredths >= 0, self.defaultTaxRate.hundredths <= 100_00 else {
            throw InventoryError(.invalidValue, field: "defaultTaxRate", "must be between 0 and 100 %")
        }
        guard self.lowStockDefault >= .zero else {
            throw InventoryError(.invalidValue, field: "lowStockDefault", "must not be negative")
        }
        guard (1...1440).contains(self.lockMinutes) else {
            throw InventoryError(.invalidValue, field: "lockMinutes", "must be a whole number of minutes from 1 to 1440")
        }
        copy.address = self.address.trimmingCharacters(in: .whitespacesAndNewlines)
        copy.taxID = self.taxID.trimmingCharacters(in: .whitespacesAndNewlines)
        copy.receiptFooter = self.receiptFooter.trimmingCharacters(in: .whitespacesAndNewlines)
        try TextLimit.line.check(copy.address, field: "address")
        try TextLimit.unit.check(copy.taxID, field: "taxId")
        try TextLimit.line.check(copy.receiptFooter, field: "receiptFooter")
        return copy
    }
}

/// The shop's logo, printed at the top of every receipt: a JPEG or PNG the server checked and cleaned (as product
/// pictures are), kept in the database so a backup carries it.
public struct ShopLogo: Sendable, Hashable {
    /// The cleaned picture.
    public var bytes: [UInt8]
    /// `image/png` or `image/jpeg`.
    public var contentType: String
    /// When it was set (milliseconds since 1970): changes with every new logo, so a page can ask for the new one.
    public var version: Int64

    /// Creates a value.
    public init(bytes: [UInt8], contentType: String, version: Int64) {
        self.bytes = bytes
        self.contentType = contentType
        self.version = version
    }

    /// The largest logo accepted: a receipt logo is small.
    public static let maxBytes = 512 * 1024
}
