import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import InventoryDomain
import InventoryServer
import InventoryStore
import Testing

/// The low-stock rule and the shortfall refusals as the API shows them.
@Suite struct StockRuleAPITests {
    /// A product without its own threshold, in no category, is judged by the shop's default everywhere: its
    /// `status`, the `?status=` filter, the low-stock report and the web screens.
    @Test func theShopDefaultDecidesLowStockEverywhere() async throws {
        let (app, store) = try makeApp()
        let admin = try await token(store, role: .admin)
        try await app.test(.router) { raw in
            let client = Caller(client: raw, token: admin)
            let settings = try await client.call(.put, "/api/v1/settings", #"{"shopName":"S","currency":"EUR","timeZone":"UTC","defaultTaxRate":"0","lowStockDefault":"5","lockMinutes":5}"#)
            #expect(settings.status == 200, "\(settings.text)")
            let created = try await client.call(.post, "/api/v1/products", #"{"name":"Oat milk","salePrice":"2.00"}"#)
            let id = try #require(created.object["id"] as? Int)
            #expect(created.object["status"] as? String == "out")
            let purchase = try await client.call(.post, "/api/v1/purchases", #"{"lines":[{"productId":\#(id),"quantity":"3","unitCost":"1.00"}]}"#)
            #expect(purchase.status == 201, "\(purchase.text)")

            let product = try await client.call(.get, "/api/v1/products/\(id)")
            #expect(product.object["status"] as? String == "low", "\(product.text)")
            #expect(product.object["effectiveLowStockThreshold"] as? String == "5", "\(product.text)")
            #expect(product.object["lowStockThreshold"] == nil)
            let low = try await client.call(.get, "/api/v1/products?status=low")
            #expect((low.object["items"] as? [[String: Any]])?.compactMap { $0["id"] as? Int } == [id], "\(low.text)")
            #expect(((try await client.call(.get, "/api/v1/products?status=in_stock")).object["items"] as? [Any])?.isEmpty == true)
            let report = try await client.call(.get, "/api/v1/reports/low-stock")
            #expect(report.array.map { $0["productId"] as? Int } == [id])
            #expect(report.array.first?["status"] as? String == "low")
            #expect(report.array.first?["threshold"] as? String == "5")

            // A threshold of 0 on the product: warn only when it runs out.
            let zero = try await client.call(.put, "/api/v1/products/\(id)", #"{"name":"Oat milk","salePrice":"2.00","lowStockThreshold":"0"}"#)
            #expect(zero.object["status"] as? String == "in_stock", "\(zero.text)")
            #expect(try await client.call(.get, "/api/v1/reports/low-stock").array.isEmpty)
        }
    }

    /// A new sale that would leave a later sale short names that sale, its line and its day — not the request's line.
    @Test func aRefusalNamesTheDocumentLeftShort() async throws {
        let (app, store) = try makeApp()
        let admin = try await token(store, role: .admin)
        try await app.test(.router) { raw in
            let client = Caller(client: raw, token: admin)
            _ = try await client.call(.put, "/api/v1/settings", #"{"shopName":"S","currency":"EUR","timeZone":"Europe/Berlin","defaultTaxRate":"0","lowStockDefault":"5","lockMinutes":5}"#)
            let milk = try #require(try await client.call(.post, "/api/v1/products", #"{"name":"Milk","salePrice":"1.50"}"#).object["id"] as? Int)
            let beans = try #require(try await client.call(.post, "/api/v1/products", #"{"name":"Espresso beans","salePrice":"9.00"}"#).object["id"] as? Int)
            let purchase = try await client.call(.post, "/api/v1/purchases", #"{"effectiveAt":"2026-01-02T09:00:00Z","lines":[{"productId":\#(milk),"quantity":"10","unitCost":"0.80"},{"productId":\#(beans),"quantity":"5","unitCost":"4.00"}]}"#)
            let purchaseID = try #require(purchase.object["id"] as? Int)
            let later = try await client.call(.post, "/api/v1/sales", #"{"effectiveAt":"2026-01-20T23:30:00Z","lines":[{"productId":\#(milk),"quantity":"1"},{"productId":\#(beans),"quantity":"4"}]}"#)
            let laterID = try #require(later.object["id"] as? Int, "\(later.text)")
            let before = try await store.testOnly_dump()

            let refused = try await client.call(.post, "/api/v1/sales", #"{"effectiveAt":"2026-01-10T09:00:00Z","lines":[{"productId":\#(beans),"quantity":"2"}]}"#)
            #expect(refused.status == 422)
            #expect(refused.object["code"] as? String == "insufficientStock")
            #expect(refused.object["field"] == nil, "\(refused.text)")
            #expect(refused.object["detail"] as? String == "this would leave sale \(laterID) (line 2, Espresso beans, 2026-01-21) 1 short")
            let document = refused.object["document"] as? [String: Any]
            #expect(document?["kind"] as? String == "sale")
            #expect(document?["id"] as? Int == laterID)
            #expect(document?["line"] as? Int == 2)
            #expect(document?["date"] as? String == "2026-01-21")
            #expect(document?["productId"] as? Int == beans)
            #expect(document?["productName"] as? String == "Espresso beans")
            #expect(document?["missing"] as? String == "1")

            let deleted = try await client.call(.delete, "/api/v1/purchases/\(purchaseID)")
            #expect(deleted.status == 422)
            #expect((deleted.object["document"] as? [String: Any])?["id"] as? Int == laterID, "\(deleted.text)")

            // The request's own line going short is named by its field, with no document.
            let own = try await client.call(.post, "/api/v1/sales", #"{"lines":[{"productId":\#(beans),"quantity":"2"}]}"#)
            #expect(own.object["field"] as? String == "lines[0].quantity", "\(own.text)")
            #expect(own.object["document"] == nil)
            #expect(try await store.testOnly_dump() == before)
        }
    }
}
