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

/// `GET /api/v1/sales/{id}` lists the returns booked against the sale (issue 14 point 6), with what each line has left
/// to return.
@Suite struct SaleReturnsAPITests {
    @Test func aSaleAnswersItsReturns() async throws {
        let (app, store) = try makeApp()
        let manager = try await token(store, role: .manager)
        let tea = try await store.createProduct(ProductDetails(name: "Tea", salePrice: Money(minorUnits: 300)))
        _ = try await store.postPurchase(PurchaseDraft(effectiveAt: try #require(Instant.parse(iso8601: "2026-03-01T08:00:00Z")), lines: [
            .init(productID: tea.id, quantity: Quantity(10), unitCost: Money(minorUnits: 100)),
        ]))
        let sale = try await store.postSale(SaleDraft(effectiveAt: try #require(Instant.parse(iso8601: "2026-03-01T10:00:00Z")),
                                                      lines: [.init(productID: tea.id, quantity: Quantity(4))]))
        let line = sale.lines[0].movementID.rawValue
        try await app.test(.router) { client in
            let none = try await client.call(.get, "/api/v1/sales/\(sale.id.rawValue)", token: manager)
            #expect((none.object["returns"] as? [Any])?.isEmpty == true, "\(none.text)")
            let booked = try await client.call(.post, "/api/v1/returns/customer", #"""
                {"saleId": \#(sale.id.rawValue), "note": "chipped", "lines": [{"saleLineId": \#(line), "quantity": "1"}]}
                """#, token: manager)
            #expect(booked.status == 201, "\(booked.text)")
            // Asking for more than is left is refused naming the line, and the sale's returns are unchanged.
            let tooMuch = try await client.call(.post, "/api/v1/returns/customer", #"""
                {"saleId": \#(sale.id.rawValue), "lines": [{"saleLineId": \#(line), "quantity": "4"}]}
                """#, token: manager)
            #expect(tooMuch.status == 422 && (tooMuch.object["field"] as? String)?.hasPrefix("lines[0]") == true, "\(tooMuch.text)")
            let answer = try await client.call(.get, "/api/v1/sales/\(sale.id.rawValue)", token: manager)
            let returns = try #require(answer.object["returns"] as? [[String: Any]])
            #expect(returns.count == 1)
            #expect(returns[0]["note"] as? String == "chipped" && returns[0]["refunded"] as? String == "3.00")
            let lines = try #require(returns[0]["lines"] as? [[String: Any]])
            #expect(lines.count == 1 && lines[0]["saleLineId"] as? Int == Int(line) && lines[0]["quantity"] as? String == "1"
                    && lines[0]["productName"] as? String == "Tea")
            let saleLines = try #require(answer.object["lines"] as? [[String: Any]])
            #expect(saleLines[0]["returnedQuantity"] as? String == "1" && saleLines[0]["returnableQuantity"] as? String == "3")
            #expect(lines[0]["restocked"] as? Bool == true)
            #expect(try await store.product(tea.id).stock.quantity == Quantity(7))

            // Damaged: refunded, written off, the stock unchanged; a restock that is no boolean is refused, nothing booked.
            let notABool = try await client.call(.post, "/api/v1/returns/customer", #"""
                {"saleId": \#(sale.id.rawValue), "lines": [{"saleLineId": \#(line), "quantity": "1", "restock": "no"}]}
                """#, token: manager)
            #expect(notABool.status == 400, "\(notABool.text)")
            let damaged = try await client.call(.post, "/api/v1/returns/customer", #"""
                {"saleId": \#(sale.id.rawValue), "lines": [{"saleLineId": \#(line), "quantity": "1", "restock": false}]}
                """#, token: manager)
            #expect(damaged.status == 201, "\(damaged.text)")
            #expect(try await store.product(tea.id).stock.quantity == Quantity(7))
            let later = try await client.call(.get, "/api/v1/sales/\(sale.id.rawValue)", token: manager)
            let both = try #require(later.object["returns"] as? [[String: Any]])
            #expect(both.compactMap { ($0["lines"] as? [[String: Any]])?.first?["restocked"] as? Bool } == [true, false])
            #expect(both.last?["refunded"] as? String == "3.00")
        }
    }
}
