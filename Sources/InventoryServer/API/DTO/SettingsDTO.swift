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
    /// Whether products' prices include tax; a request that leaves it out keeps it. Once a sale is booked it changes
    /// only through `POST /settings/reprice`.
    var pricesIncludeTax: Bool?

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
        self.pricesIncludeTax = s.pricesIncludeTax
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
        settings.pricesIncludeTax = self.pricesIncludeTax ?? current.pricesIncludeTax
        return settings
    }
}

extension SettingsBody: KnownFields {
    static var fields: [String] { ["shopName", "currency", "timeZone", "defaultTaxRate", "lowStockDefault", "lockMinutes", "address", "taxId", "receiptFooter", "pricesIncludeTax"] }
}

/// `POST /api/v1/settings/reprice`: the meaning prices are switched to.
struct RepriceRequest: Decodable, Sendable, KnownFields {
    var pricesIncludeTax: Bool

    enum CodingKeys: String, CodingKey, CaseIterable { case pricesIncludeTax }
    static var fields: [String] { CodingKeys.allCases.map(\.stringValue) }
}

/// The answer to a re-pricing: the settings now, and how many products were converted (0 when the shop already priced
/// that way).
struct RepriceResponse: Encodable, Sendable {
    var settings: SettingsBody
    var productsRepriced: Int
}
