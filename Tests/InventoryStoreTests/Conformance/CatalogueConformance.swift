import Foundation
import InventoryDomain
import InventoryStore
import Testing

@Suite struct CatalogueTests {
    @Test(arguments: Backend.allCases)
    func searchIsCaseAndAccentInsensitiveBySubstring(backend: Backend) async throws {
        let store = try backend.make()
        let cafe = try await store.createProduct(ProductDetails(name: "Café Crème", sku: "CC-01", barcode: "036000291452"))
        _ = try await store.createProduct(ProductDetails(name: "Green tea"))
        for text in ["cafe", "CRÈME", "creme", "afé c", "cc-0", "0036000291452", "036000291452"] {
            let found = try await store.products(ProductQuery(search: text))
            #expect(found.products.map(\.id) == [cafe.id], "search '\(text)'")
        }
        #expect(try await store.products(ProductQuery(search: "100%")).total == 0)
        #expect(try await store.product(barcode: "0036000291452")?.id == cafe.id)
        #expect(try await store.product(barcode: "00036000291452")?.id == cafe.id)
        #expect(try await store.product(barcode: "999") == nil)
        #expect(try await store.product(sku: "CC-01")?.id == cafe.id)
    }

    @Test(arguments: Backend.allCases)
    func upcEScanFindsProductSavedWithUpcA(backend: Backend) async throws {
        let store = try backend.make()
        let product = try await store.createProduct(ProductDetails(name: "Gum", barcode: "012345000065"))
        #expect(try await store.product(barcode: "01234565")?.id == product.id)
        #expect(try await store.product(barcode: "0012345000065")?.id == product.id)
    }

    @Test(arguments: Backend.allCases)
    func filtersSortsPagesAndStatuses(backend: Backend) async throws {
        let store = try backend.make()
        let drinks = try await store.createCategory(Category(id: CategoryID(0), name: "Drinks", color: "#2563EB", lowStockThreshold: qty(10), markup: Percent(hundredths: 5000)))
        #expect(drinks.color == "#2563eb")
        #expect(drinks.suggestedSalePrice(cost: eur("2.00")) == eur("3.00"))
        var ids: [ProductID] = []
        for (index, name) in ["Cola", "Water", "Juice", "Lemonade"].enumerated() {
            let product = try await store.createProduct(ProductDetails(name: name, categoryID: index < 3 ? drinks.id : nil))
            ids.append(product.id)
        }
        _ = try await store.postPurchase(PurchaseDraft(effectiveAt: at(20260101), lines: [
            .init(productID: ids[0], quantity: qty(50), unitCost: eur("0.50")),
            .init(productID: ids[1], quantity: qty(5), unitCost: eur("0.20")),
            .init(productID: ids[3], quantity: qty(2), unitCost: eur("1.00")),
        ]))
        let low = try await store.lowStock()
        #expect(low.map(\.name) == ["Juice", "Lemonade", "Water"])
        #expect(low.first?.status == .out)
        #expect(low.last?.threshold == qty(10))
        #expect(try await store.products(ProductQuery(status: .low)).products.map(\.name) == ["Lemonade", "Water"])
        #expect(try await store.products(ProductQuery(status: .out)).products.map(\.name) == ["Juice"])
        #expect(try await store.products(ProductQuery(status: .inStock)).products.map(\.name) == ["Cola"])
        #expect(try await store.products(ProductQuery(categoryID: drinks.id)).total == 3)
        let page = try await store.products(ProductQuery(sort: .quantity, limit: 2, offset: 1))
        #expect(page.total == 4)
        #expect(page.products.map(\.name) == ["Water", "Lemonade"])
        let valuation = try await store.valuation()
        #expect(valuation.map(\.name) == ["Drinks", "Uncategorised"])
        #expect(valuation.first?.value == eur("26.00"))

        var archived = try await store.product(ids[2]).details
        archived.isArchived = true
        _ = try await store.updateProduct(ids[2], archived)
        #expect(try await store.products(ProductQuery()).total == 3)
        #expect(try await store.products(ProductQuery(includeArchived: true)).total == 4)
        try await expectRefusal(store, .conflict, field: "lines[0].productId") {
            _ = try await store.postPurchase(PurchaseDraft(effectiveAt: at(20260102), lines: [.init(productID: ids[2], quantity: qty(1), unitCost: eur("1"))]))
        }
        try await store.deleteCategory(drinks.id)
        #expect(try await store.product(ids[0]).details.categoryID == nil)
    }

    @Test(arguments: Backend.allCases)
    func contactsCrud(backend: Backend) async throws {
        let store = try backend.make()
        var supplier = try await store.createSupplier(Contact(id: SupplierID(0), name: " Bäckerei Schmidt ", location: "Köln", phone: "+49 221 123"))
        #expect(supplier.name == "Bäckerei Schmidt")
        supplier.email = "info@schmidt.de"
        supplier = try await store.updateSupplier(supplier)
        #expect(try await store.suppliers(search: "backerei").map(\.id) == [supplier.id])
        #expect(try await store.suppliers(search: "koln").count == 1)
        #expect(try await store.suppliers(search: nil).count == 1)
        try await store.deleteSupplier(supplier.id)
        #expect(try await store.suppliers(search: nil).isEmpty)
        let customer = try await store.createCustomer(Contact(id: CustomerID(0), name: "Ada", note: "regular"))
        #expect(try await store.customers(search: "ad").first?.note == "regular")
        try await store.deleteCustomer(customer.id)
        await #expect(throws: InventoryError(.notFound, field: "id", "")) { try await store.deleteCustomer(customer.id) }
    }

    @Test(arguments: Backend.allCases)
    func expiringLotsAndSettings(backend: Backend) async throws {
        let store = try backend.make()
        let yoghurt = try await store.createProduct(ProductDetails(name: "Yoghurt"))
        _ = try await store.postPurchase(PurchaseDraft(effectiveAt: at(20260101), lines: [
            .init(productID: yoghurt.id, quantity: qty(6), unitCost: eur("0.40"), lotCode: "L7", expiryDate: "2026-01-10")
        ]))
        #expect(try await store.expiringLots(through: "2026-01-09").isEmpty)
        #expect(try await store.expiringLots(through: "2026-01-10").map(\.lotCode) == ["L7"])
        await #expect(throws: InventoryError(.invalidValue, field: "through", "")) { try await store.expiringLots(through: "soon") }

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
    }

    @Test func fileDatabaseUsesWalFullSyncAndNamedMigrations() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("stockroom-wal-\(UUID().uuidString)").path
        let store = try InventorySQLiteRepository.open(dataFolder: folder)
        #expect(try await store.appliedMigrations() == ["v1-catalogue", "v1-books", "v1-reports", "v1-staff", "v2-sale-till", "v2-session-expiry", "v3-idempotency"])
        #expect(try await store.pragma("journal_mode") == "wal")
        #expect(try await store.pragma("synchronous") == "2")
        #expect(try await store.pragma("foreign_keys") == "1")
        _ = try await store.createProduct(ProductDetails(name: "Kept"))
        let copy = folder + "/backup.sqlite"
        try store.backup(to: copy)
        let reopened = try InventorySQLiteRepository.open(dataFolder: folder)
        #expect(try await reopened.products(ProductQuery()).products.map(\.name) == ["Kept"])
        #expect(FileManager.default.fileExists(atPath: copy))
    }
}
