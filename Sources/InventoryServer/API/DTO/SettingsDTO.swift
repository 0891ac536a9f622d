import InventoryDomain

/// `GET` and `PUT /api/v1/settings`: the shop's name, currency, time zone and defaults.
struct SettingsBody: Codable, Sendable {
    var shopName: String
    var currency: String
    var timeZone: String
    var defaultTaxRate: String
    var lowStockDefault: String
    var lockMinutes: Int

    init(_ s: ShopSettings) {
        self.shopName = s.shopName
        self.currency = s.currency.code
        self.timeZone = s.timeZoneIdentifier
        self.defaultTaxRate = s.defaultTaxRate.decimalString
        self.lowStockDefault = s.lowStockDefault.decimalString
        self.lockMinutes = s.lockMinutes
    }

    /// The domain's settings; a malformed value is refused naming its field.
    func settings() throws -> ShopSettings {
        ShopSettings(
            shopName: self.shopName, currency: try Currency(isoCode: self.currency), timeZoneIdentifier: self.timeZone,
            defaultTaxRate: try Percent.parse(self.defaultTaxRate, field: "defaultTaxRate"),
            lowStockDefault: try Quantity.parse(self.lowStockDefault, field: "lowStockDefault"), lockMinutes: self.lockMinutes)
    }
}

extension SettingsBody: KnownFields {
    static var fields: [String] { ["shopName", "currency", "timeZone", "defaultTaxRate", "lowStockDefault", "lockMinutes"] }
}
