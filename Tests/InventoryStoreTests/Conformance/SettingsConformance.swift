import Foundation
import InventoryDomain
import Testing

/// The shop's settings (``SettingsRepository``): a fresh shop's defaults, every field read back as saved, a new time
/// zone re-bucketing the report days, and refused settings changing nothing.
@Suite struct SettingsConformance {
    @Test(arguments: Backend.ported)
    func aNewShopHasTheDefaultSettings(backend: Backend) async throws {
        let store = try await backend.make()
        #expect(try await store.settings() == ShopSettings())
    }

    @Test(arguments: Backend.ported)
    func everyFieldReadsBackAsSaved(backend: Backend) async throws {
        let store = try await backend.make()
        var saved = ShopSettings(shopName: "  Corner Café ", currency: .kwd, timeZoneIdentifier: "America/Los_Angeles",
                                 defaultTaxRate: Percent(hundredths: 1950), lowStockDefault: Quantity(thousandths: 2500), lockMinutes: 1440)
        saved.address = " Hauptstraße 1, 10115 Berlin "
        saved.taxID = "DE123456789"
        saved.receiptFooter = "Open daily 7–19 · returns within 14 days"
        try await store.saveSettings(saved)
        var expected = saved
        expected.shopName = "Corner Café"
        expected.address = "Hauptstraße 1, 10115 Berlin"
        #expect(try await store.settings() == expected)
        // Saved again over the first, every field is replaced (a currency of its own, with no books yet).
        let other = ShopSettings(shopName: "Kiosk", currency: Currency(code: "CHF", minorUnits: 2), timeZoneIdentifier: "Asia/Kolkata",
                                 defaultTaxRate: .zero, lowStockDefault: .zero, lockMinutes: 1)
        try await store.saveSettings(other)
        #expect(try await store.settings() == other)
    }

    @Test(arguments: Backend.ported)
    func aNewTimeZoneRebucketsTheReportDays(backend: Backend) async throws {
        let store = try await backend.make()
        let yoghurt = try await store.createProduct(ProductDetails(name: "Yoghurt"))
        _ = try await store.postPurchase(PurchaseDraft(effectiveAt: at(20260101), lines: [
            .init(productID: yoghurt.id, quantity: qty(6), unitCost: eur("0.40"), lotCode: "L7", expiryDate: "2026-01-10")
        ]))

        var settings = try await store.settings()
        #expect(settings.currency == .eur)
        settings.shopName = "Corner Café"
        settings.timeZoneIdentifier = "Pacific/Kiritimati"  // UTC+14: noon UTC is the next calendar day
        try await store.saveSettings(settings)
        #expect(try await store.settings().shopName == "Corner Café")
        _ = try await store.postSale(SaleDraft(effectiveAt: at(20260102), lines: [.init(productID: yoghurt.id, quantity: qty(1), unitPrice: eur("1.00"))]))
        #expect(try await store.daily(from: 20260103, to: 20260103).first?.salesCount == 1)
        settings.timeZoneIdentifier = "UTC"
        try await store.saveSettings(settings)
        #expect(try await store.daily(from: 20260102, to: 20260102).first?.salesCount == 1)
        // The monthly sales summary follows the new zone: a sale at 23:30 UTC on 31 January is February in Tokyo.
        _ = try await store.postSale(SaleDraft(effectiveAt: at(20260131, minutes: 11 * 60 + 30), lines: [.init(productID: yoghurt.id, quantity: qty(2), unitPrice: eur("1.00"))]))
        settings.timeZoneIdentifier = "Asia/Tokyo"
        try await store.saveSettings(settings)
        let calendar = try await store.settings().calendar
        let january = try await store.topProducts(from: calendar.startOfDay(20260101), to: calendar.startOfDay(20260201).adding(milliseconds: -1), by: .quantity, limit: 5)
        let february = try await store.topProducts(from: calendar.startOfDay(20260201), to: calendar.startOfDay(20260301).adding(milliseconds: -1), by: .quantity, limit: 5)
        #expect(january.first?.quantity == qty(1))
        #expect(february.first?.quantity == qty(2))
        settings.currency = .jpy
        try await expectRefusal(store, .conflict, field: "currency") { try await store.saveSettings(settings) }
        // A currency with the same number of decimals may replace it, books or not.
        settings.currency = .usd
        try await store.saveSettings(settings)
        #expect(try await store.settings().currency == .usd)
    }

    @Test(arguments: Backend.ported)
    func invalidSettingsAreRefusedByNameAndChangeNothing(backend: Backend) async throws {
        let shop = try await Fixtures.refusalShop(backend)
        try await expectRefusal(shop.store, .invalidValue, field: "timeZone") {
            try await shop.store.saveSettings(ShopSettings(timeZoneIdentifier: "Mars/Olympus"))
        }
        try await expectRefusal(shop.store, .missingValue, field: "shopName") { try await shop.store.saveSettings(ShopSettings(shopName: "  ")) }
        try await expectRefusal(shop.store, .invalidValue, field: "currency") {
            try await shop.store.saveSettings(ShopSettings(currency: Currency(code: "EURO", minorUnits: 2)))
        }
        try await expectRefusal(shop.store, .invalidValue, field: "currencyMinorUnits") {
            try await shop.store.saveSettings(ShopSettings(currency: Currency(code: "XYZ", minorUnits: 5)))
        }
        try await expectRefusal(shop.store, .invalidValue, field: "defaultTaxRate") {
            try await shop.store.saveSettings(ShopSettings(defaultTaxRate: Percent(hundredths: 100_01)))
        }
        try await expectRefusal(shop.store, .invalidValue, field: "lowStockDefault") {
            try await shop.store.saveSettings(ShopSettings(lowStockDefault: Quantity(thousandths: -1)))
        }
        var long = ShopSettings()
        long.taxID = String(repeating: "9", count: 21)
        try await expectRefusal(shop.store, .invalidValue, field: "taxId") { try await shop.store.saveSettings(long) }
        long = ShopSettings()
        long.receiptFooter = String(repeating: "x", count: 201)
        try await expectRefusal(shop.store, .invalidValue, field: "receiptFooter") { try await shop.store.saveSettings(long) }
        for minutes in [0, 1441] {
            try await expectRefusal(shop.store, .invalidValue, field: "lockMinutes") { try await shop.store.saveSettings(ShopSettings(lockMinutes: minutes)) }
        }
        #expect(try await shop.store.settings() == ShopSettings())
    }
}
