import Foundation
import HummingbirdTesting
import InventoryDomain
import InventoryServer
import InventoryStore
import Testing

/// `GET /api/v1/reports/{snapshot,daily,top,low-stock,valuation}.csv` (issue 14 point 7): each report as the CSV file
/// the command line's `--format csv` prints, its figures those of the JSON route; a bad range is 422 naming its field.
@Suite struct ReportCSVAPITests {
    @Test func reportsDownloadAsCSVWithTheJSONFigures() async throws {
        let (app, store) = try makeApp()
        let manager = try await token(store, role: .manager)
        let staff = try await token(store, role: .staff)
        let drinks = try await store.createCategory(Category(id: CategoryID(0), name: "Drinks"))
        var details = ProductDetails(name: "Tea, \"green\"", salePrice: Money(minorUnits: 300))
        details.categoryID = drinks.id
        details.lowStockThreshold = Quantity(9)
        let tea = try await store.createProduct(details)
        _ = try await store.postPurchase(PurchaseDraft(effectiveAt: try #require(Instant.parse(iso8601: "2026-03-01T08:00:00Z")), lines: [
            .init(productID: tea.id, quantity: Quantity(10), unitCost: Money(minorUnits: 125)),
        ]))
        for (day, count) in [("2026-03-01", Int64(1)), ("2026-03-02", Int64(2))] {
            _ = try await store.postSale(SaleDraft(effectiveAt: try #require(Instant.parse(iso8601: day + "T10:00:00Z")),
                                                   lines: [.init(productID: tea.id, quantity: Quantity(count))]))
        }
        try await app.test(.router) { client in
            func rows(_ text: String) -> [[String]] {
                text.split(whereSeparator: \.isNewline).map { line in (try? CSV.parse(String(line)).first?.cells) ?? [] }
            }
            let daily = try await client.call(.get, "/api/v1/reports/daily.csv?from=2026-03-01&to=2026-03-02", token: manager)
            #expect(daily.status == 200, "\(daily.text)")
            #expect(daily.contentType?.hasPrefix("text/csv") == true)
            #expect(daily.contentDisposition == "attachment; filename=\"stockroom-daily-2026-03-01-to-2026-03-02.csv\"")
            let dailyJSON = try await client.call(.get, "/api/v1/reports/daily?from=2026-03-01&to=2026-03-02", token: manager).array
            let dailyRows = rows(daily.text)
            #expect(dailyRows.first == ["day", "sales", "revenue", "discounts", "returns", "tax", "tips", "cost_of_goods_sold", "profit", "average_basket"])
            #expect(dailyRows.dropFirst().map { [$0[0], $0[2], $0[7], $0[8]] }
                    == dailyJSON.map { [$0["date"] as? String ?? "", $0["revenue"] as? String ?? "", $0["costOfGoodsSold"] as? String ?? "", $0["profit"] as? String ?? ""] })
            #expect(dailyRows.dropFirst().map { [$0[0], $0[1], $0[2], $0[7]] } == [["2026-03-01", "1", "3.00", "1.25"], ["2026-03-02", "1", "6.00", "2.50"]])

            let top = try await client.call(.get, "/api/v1/reports/top.csv?from=2026-03-01&to=2026-03-02", token: manager)
            #expect(rows(top.text) == [["rank", "product_id", "product", "quantity", "revenue"], ["1", tea.id.description, "Tea, \"green\"", "3", "9.00"]],
                    "\(top.text)")
            let valuation = try await client.call(.get, "/api/v1/reports/valuation.csv", token: manager)
            #expect(rows(valuation.text) == [["category", "products", "quantity", "value"], ["Drinks", "1", "7", "8.75"]], "\(valuation.text)")
            // The table's totals row on screen is the server's sum (GET /reports/valuation/total), not the browser's.
            let total = try await client.call(.get, "/api/v1/reports/valuation/total", token: manager)
            #expect(total.status == 200 && total.object["categoryId"] == nil && total.object["name"] as? String == "Total", "\(total.text)")
            #expect(total.object["productCount"] as? Int == 1 && total.object["quantity"] as? String == "7" && total.object["value"] as? String == "8.75")
            #expect(try await client.call(.get, "/api/v1/reports/valuation/total", token: staff).status == 403)
            let snapshot = try await client.call(.get, "/api/v1/reports/snapshot.csv?at=2026-03-01", token: manager)
            #expect(rows(snapshot.text) == [["product_id", "product", "quantity", "average_cost", "value"], [tea.id.description, "Tea, \"green\"", "9", "1.25", "11.25"]],
                    "\(snapshot.text)")
            #expect(snapshot.contentDisposition == "attachment; filename=\"stockroom-snapshot-2026-03-01.csv\"")
            let low = try await client.call(.get, "/api/v1/reports/low-stock.csv", token: staff)
            #expect(rows(low.text).dropFirst().map { [$0[1], $0[2], $0[3]] } == [["Tea, \"green\"", "7", "9"]], "\(low.text)")

            // Who may read them is who may read the JSON reports.
            #expect(try await client.call(.get, "/api/v1/reports/daily.csv", token: staff).status == 403)
            #expect(try await client.call(.get, "/api/v1/reports/valuation.csv").status == 401)
            for (uri, field) in [("/api/v1/reports/daily.csv?from=2026-03-02&to=2026-03-01", "to"), ("/api/v1/reports/daily?from=2026-03-02&to=2026-03-01", "to"),
                                 ("/api/v1/reports/top.csv?from=2026-03-02&to=2026-03-01", "to"), ("/api/v1/reports/top.csv?by=profit", "by"),
                                 ("/api/v1/reports/snapshot.csv?at=soon", "at"), ("/api/v1/reports/daily.csv?date=2026-02-30", "date"),
                                 ("/api/v1/reports/top.csv?limit=0", "limit")] {
                let refused = try await client.call(.get, uri, token: manager)
                #expect(refused.status == 422 || refused.status == 400, "\(uri): \(refused.text)")
                #expect(refused.object["field"] as? String == field, "\(uri): \(refused.text)")
            }
        }
    }
}
