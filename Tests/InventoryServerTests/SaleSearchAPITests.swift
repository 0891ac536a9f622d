import Foundation
import HummingbirdTesting
import InventoryDomain
import InventoryServer
import InventoryStore
import Testing

/// `GET /api/v1/sales?search=&customerId=&productId=&from=&to=` (issue 14 point 6): found sales carry their receipt
/// number; a bad parameter is 422 naming it.
@Suite struct SaleSearchAPITests {
    @Test func findsSalesAndRefusesBadParameters() async throws {
        let (app, store) = try makeApp()
        let staff = try await token(store, role: .staff)
        var settings = try await store.settings()
        settings.timeZoneIdentifier = "Europe/Berlin"
        try await store.saveSettings(settings)
        let calendar = settings.calendar
        let ada = try await store.createCustomer(Contact(id: CustomerID(0), name: "Ada Lovelace"))
        let tea = try await store.createProduct(ProductDetails(name: "Thé vert", salePrice: Money(minorUnits: 300)))
        _ = try await store.postPurchase(PurchaseDraft(effectiveAt: calendar.instant(day: 20260301, hour: 8), lines: [
            .init(productID: tea.id, quantity: Quantity(10), unitCost: Money(minorUnits: 100)),
        ]))
        // 23:30 Berlin on 1 March is 22:30 UTC: a day in `from`/`to` is the shop's day.
        _ = try await store.postSale(SaleDraft(effectiveAt: calendar.instant(day: 20260301, hour: 23).adding(seconds: 1800), customerID: ada.id,
                                              lines: [.init(productID: tea.id, quantity: Quantity(1))]))
        _ = try await store.postSale(SaleDraft(effectiveAt: calendar.instant(day: 20260302, hour: 10), lines: [.init(productID: tea.id, quantity: Quantity(2))]))
        try await app.test(.router) { client in
            let all = try await client.call(.get, "/api/v1/sales", token: staff)
            #expect(all.array.map { $0["receiptNumber"] as? Int } == [2, 1])
            let byWord = try await client.call(.get, "/api/v1/sales?search=the%20ada", token: staff)
            #expect(byWord.array.map { $0["receiptNumber"] as? Int } == [1], "\(byWord.text)")
            let byReceipt = try await client.call(.get, "/api/v1/sales?search=%232", token: staff)
            #expect(byReceipt.array.map { $0["receiptNumber"] as? Int } == [2])
            let firstDay = try await client.call(.get, "/api/v1/sales?from=2026-03-01&to=2026-03-01", token: staff)
            #expect(firstDay.array.map { $0["receiptNumber"] as? Int } == [1], "\(firstDay.text)")
            let byIDs = try await client.call(.get, "/api/v1/sales?customerId=\(ada.id.rawValue)&productId=\(tea.id.rawValue)", token: staff)
            #expect(byIDs.array.count == 1)
            for (uri, field) in [("/api/v1/sales?from=2026-03-02&to=2026-03-01", "to"), ("/api/v1/sales?from=yesterday", "from"),
                                 ("/api/v1/sales?to=2026-02-30", "to"), ("/api/v1/sales?customerId=ada", "customerId"),
                                 ("/api/v1/sales?productId=0", "productId"), ("/api/v1/sales?search=a%20b%20c%20d%20e%20f%20g%20h%20i", "search")] {
                let refused = try await client.call(.get, uri, token: staff)
                #expect(refused.status == 422, "\(uri): \(refused.text)")
                #expect(refused.object["field"] as? String == field, "\(uri): \(refused.text)")
            }
        }
    }
}

/// `GET /api/v1/export/{kind}?from=&to=` (issue 14 point 7): the range chooses the rows of the dated exports; a bad
/// range is 422 naming its field.
@Suite struct ExportRangeAPITests {
    @Test func exportsTakeADateRange() async throws {
        let (app, store) = try makeApp()
        let manager = try await token(store, role: .manager)
        let tea = try await store.createProduct(ProductDetails(name: "Tea", salePrice: Money(minorUnits: 300)))
        _ = try await store.postPurchase(PurchaseDraft(effectiveAt: try #require(Instant.parse(iso8601: "2026-03-01T08:00:00Z")), lines: [
            .init(productID: tea.id, quantity: Quantity(10), unitCost: Money(minorUnits: 100)),
        ]))
        for day in ["2026-03-01", "2026-03-02", "2026-03-03"] {
            _ = try await store.postSale(SaleDraft(effectiveAt: try #require(Instant.parse(iso8601: day + "T10:00:00Z")),
                                                   lines: [.init(productID: tea.id, quantity: Quantity(1))]))
        }
        try await app.test(.router) { client in
            let some = try await client.call(.get, "/api/v1/export/sales?from=2026-03-02&to=2026-03-02", token: manager)
            #expect(some.status == 200)
            #expect(some.text.split(whereSeparator: \.isNewline).count == 2, "\(some.text)")
            let all = try await client.call(.get, "/api/v1/export/sales.csv", token: manager)
            #expect(all.text.split(whereSeparator: \.isNewline).count == 4)
            for (uri, field) in [("/api/v1/export/sales?from=2026-03-03&to=2026-03-01", "to"), ("/api/v1/export/movements?from=soon", "from"),
                                 ("/api/v1/export/products?from=2026-03-01", "from"), ("/api/v1/export/customers?to=2026-03-01", "from")] {
                let refused = try await client.call(.get, uri, token: manager)
                #expect(refused.status == 422, "\(uri): \(refused.text)")
                #expect(refused.object["field"] as? String == field, "\(uri): \(refused.text)")
            }
        }
    }
}
