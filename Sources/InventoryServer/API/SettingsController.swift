import Hummingbird
import InventoryDomain

/// `/api/v1/settings`: the shop's name, currency, time zone and defaults.
struct SettingsController<Store: SettingsRepository> {
    let store: Store

    func addRoutes(to settings: Routes) {
        settings.get(.signedIn, use: self.get)
        settings.put("", .permission(.manageSettings), use: self.update)
    }

    @Sendable func get(_ request: Request, context: some RequestContext) async throws -> JSON<SettingsBody> {
        JSON(SettingsBody(try await self.store.settings()))
    }

    @Sendable func update(_ request: Request, context: some RequestContext) async throws -> JSON<SettingsBody> {
        let body = try await request.decodeJSON(as: SettingsBody.self, context: context)
        try await self.store.saveSettings(try body.settings(keeping: try await self.store.settings()))
        return JSON(SettingsBody(try await self.store.settings()))
    }
}
