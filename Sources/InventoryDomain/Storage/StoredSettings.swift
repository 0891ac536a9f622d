import Foundation

/// The settings as every storage backend keeps them: one text value per key (`setting(key, value)`), so a new setting
/// needs no schema change. Parsing and writing live here once, for SQLite and PostgreSQL alike.
extension ShopSettings {
    /// The stored values, parsed strictly and checked by the domain's rules: a value that is not a number, or out of
    /// range, throws an ``InventoryError`` naming the setting (it never becomes a default or an overflow). A key that
    /// is absent keeps its default.
    public init(storedValues values: [String: String]) throws {
        func number<T: FixedWidthInteger>(_ key: String, as _: T.Type) throws -> T? {
            guard let text = values[key] else { return nil }
            guard let value = T(text) else {
                throw InventoryError(.invalidValue, field: key, "the stored value '\(text.prefix(40))' is not a whole number in range")
            }
            return value
        }
        var settings = ShopSettings()
        if let name = values["shopName"] { settings.shopName = name }
        if let code = values["currency"] {
            let minor = try number("currencyMinorUnits", as: Int.self) ?? Currency.eur.minorUnits
            settings.currency = Currency(code: code, minorUnits: minor)
        }
        if let zone = values["timeZone"] { settings.timeZoneIdentifier = zone }
        if let tax = try number("defaultTaxRate", as: Int64.self) { settings.defaultTaxRate = Percent(hundredths: tax) }
        if let low = try number("lowStockDefault", as: Int64.self) { settings.lowStockDefault = Quantity(thousandths: low) }
        if let lock = try number("lockMinutes", as: Int.self) { settings.lockMinutes = lock }
        settings.address = values["address"] ?? ""
        settings.taxID = values["taxId"] ?? ""
        settings.receiptFooter = values["receiptFooter"] ?? ""
        if let flag = try number("pricesIncludeTax", as: Int.self) {
            guard flag == 0 || flag == 1 else { throw InventoryError(.invalidValue, field: "pricesIncludeTax", "the stored value must be 0 or 1") }
            settings.pricesIncludeTax = flag == 1
        }
        self = try settings.validated()
    }

    /// Every setting as its stored key and text, in a fixed order (what ``init(storedValues:)`` reads back).
    public var storedValues: [(key: String, value: String)] {
        [
            ("shopName", self.shopName), ("currency", self.currency.code),
            ("currencyMinorUnits", String(self.currency.minorUnits)), ("timeZone", self.timeZoneIdentifier),
            ("defaultTaxRate", String(self.defaultTaxRate.hundredths)),
            ("lowStockDefault", String(self.lowStockDefault.thousandths)), ("lockMinutes", String(self.lockMinutes)),
            ("address", self.address), ("taxId", self.taxID), ("receiptFooter", self.receiptFooter),
            ("pricesIncludeTax", self.pricesIncludeTax ? "1" : "0"),
        ]
    }

    /// Refuses a currency with a different number of decimals once the books hold amounts: every stored amount is in
    /// minor units of the old currency. A change of code with the same decimals (a shop relabelling) is allowed.
    /// - Throws: ``InventoryError`` (`conflict`) on `currency`.
    public func checkCurrencyChange(to new: ShopSettings, amountsBooked: Bool) throws {
        guard self.currency != new.currency, amountsBooked, self.currency.minorUnits != new.currency.minorUnits else { return }
        throw InventoryError(
            .conflict, field: "currency",
            "cannot change to a currency with \(new.currency.minorUnits) decimals once the books hold amounts in \(self.currency.code)")
    }
}
