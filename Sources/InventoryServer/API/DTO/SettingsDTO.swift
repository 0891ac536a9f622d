import InventoryDomain

/// `GET` and `PUT /api/v1/settings`: the shop's name, currency, time zone and defaults.
struct SettingsBody: Codable, Sendable {
    var shopName: String
    var currency: String
    var timeZone: String
    var defaultTaxRate: String
    var lowStockDefault: String
    var lockMinutes: Int
    /// For the receipts; a request that leaves one out keeps what the shop has (clients that predate them lose nothing).
    var address: String?
    var taxId: String?
    var receiptFooter: String?

    init(_ s: ShopSettings) {
        self.shopName = s.shopName
        self.currency = s.currency.code
        self.timeZone = s.timeZoneIdentifier
        self.defaultTaxRate = s.defaultTaxRate.decimalString
        self.lowStockDefault = s.lowStockDefault.decimalString
        self.lockMinutes = s.lockMinutes
        self.address = s.address
        self.taxId = s.taxID
        self.receiptFooter = s.receiptFooter
    }

    /// The domain's settings; a malformed value is refused naming its field.
    func settings(keeping current: ShopSettings) throws -> ShopSettings {
        var settings = ShopSettings(
            shopName: self.shopName, currency: try Currency(isoCode: self.currency), timeZoneIdentifier: self.timeZone,
            defaultTaxRate: try Percent.parse(self.defaultTaxRate, field: "defaultTaxRate"),
            lowStockDefault: try Quantity.parse(self.lowStockDefault, field: "lowStockDefault"), lockMinutes: self.lockMinutes)
        settings.address = self.address ?? current.address
        settings.taxID = self.taxId ?? current.taxID
        settings.receiptFooter = self.receiptFooter ?? current.receiptFooter
        return settings
    }
}

extension SettingsBody: KnownFields {
    static var fields: [String] { ["shopName", "currency", "timeZone", "defaultTaxRate", "lowStockDefault", "lockMinutes", "address", "taxId", "receiptFooter"] }
}
