import Hummingbird
import InventoryDomain

/// `/api/v1/settings`: the shop's name, currency, time zone and defaults.
struct SettingsController<Store: SettingsRepository> {
    let store: Store

    func addRoutes(to settings: Routes) {
        settings.get(.signedIn, use: self.get)
        settings.put("", .permission(.manageSettings), use: self.update)
        settings.post("reprice", .permission(.manageSettings), use: self.reprice)
    }

    @Sendable func get(_ request: Request, context: some RequestContext) async throws -> JSON<SettingsBody> {
        JSON(SettingsBody(try await self.store.settings()))
    }

    @Sendable func update(_ request: Request, context: some RequestContext) async throws -> JSON<SettingsBody> {
        let body = try await request.decodeJSON(as: SettingsBody.self, context: context)
        try await self.store.saveSettings(try body.settings(keeping: try await self.store.settings()))
        return JSON(SettingsBody(try await self.store.settings()))
    }

    /// `POST /settings/reprice`: switches whether prices include tax and converts every product's prices so customers
    /// pay the same (the only way to switch once sales are booked).
    @Sendable func reprice(_ request: Request, context: some RequestContext) async throws -> JSON<RepriceResponse> {
        let body = try await request.decodeJSON(as: RepriceRequest.self, context: context)
        let count = try await self.store.reprice(pricesIncludeTax: body.pricesIncludeTax)
        return JSON(RepriceResponse(settings: SettingsBody(try await self.store.settings()), productsRepriced: count))
    }
}
