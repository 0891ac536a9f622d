import Foundation

/// The shop's settings (one row).
public protocol SettingsRepository: Sendable {
    /// The shop's settings.
    func settings() async throws -> ShopSettings
    /// Saves the settings; a new time zone re-buckets report days. Changing whether prices include tax is refused once
    /// a sale is booked (``ShopSettings/checkPriceMeaningChange(to:salesBooked:)``): that is ``reprice(pricesIncludeTax:)``.
    func saveSettings(_ settings: ShopSettings) async throws
    /// Switches whether prices include tax and, in the same transaction, converts every product's sale and minimum
    /// price so customers pay the same (``TaxInclusion/convert(_:rate:toIncludeTax:)``); each changed product is audited.
    /// Nothing changes when the shop already prices that way.
    /// - Returns: how many products were looked at (0 when nothing changed).
    func reprice(pricesIncludeTax: Bool) async throws -> Int
    /// The receipt logo, nil when the shop has none.
    func shopLogo() async throws -> ShopLogo?
    /// The logo's version (``ShopLogo/version``) without its bytes, nil when there is none: what pages link to.
    func shopLogoVersion() async throws -> Int64?
    /// Sets the receipt logo (bytes already checked and cleaned) or, with nil, removes it; audited as a settings change.
    func setShopLogo(_ bytes: [UInt8]?, contentType: String) async throws -> ShopLogo?
}
