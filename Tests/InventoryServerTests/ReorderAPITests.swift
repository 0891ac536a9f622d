import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import InventoryDomain
@testable import InventoryServer
import InventoryStore
import Testing

/// `GET /api/v1/reorder` and the product and supplier fields it reads: the hand-worked suggestion, its costs only for
/// who may see them, and every refusal naming its field with nothing written.
@Suite struct ReorderAPITests {
    /// An instant `days` ago as the API reads it.
    static func daysAgo(_ days: Int) -> String {
        Instant(milliseconds: Instant.now.milliseconds - Int64(days) * 86_400_000).iso8601
    }

    /// A dairy (3 days' lead time) and oat milk bought from it in crates of 6: 61.5 l bought 60 days ago at 1.20,
    /// 5 l sold 40 days ago (outside a 28-day window), 47 l sold today. Stock 9.5 l, threshold 6.
    static func shop(_ client: Caller) async throws -> (supplier: Int, product: Int) {
        let settings = try await client.call(.put, "/api/v1/settings", #"{"shopName":"S","currency":"EUR","timeZone":"UTC","defaultTaxRate":"0","lowStockDefault":"0","lockMinutes":5}"#)
        #expect(settings.status == 200, "\(settings.text)")
        let dairy = try await client.call(.post, "/api/v1/suppliers", #"{"name":"Dairy","leadTimeDays":3}"#)
        #expect(dairy.status == 201 && dairy.object["leadTimeDays"] as? Int == 3, "\(dairy.text)")
        let supplier = try #require(dairy.object["id"] as? Int)
        let created = try await client.call(.post, "/api/v1/products", """
            {"name":"Oat milk","unit":"l","salePrice":"2.50","lowStockThreshold":"6","preferredSupplierId":\(supplier),"supplierCode":"OAT-6","packSize":"6"}
            """)
        #expect(created.status == 201, "\(created.text)")
        #expect(created.object["preferredSupplierId"] as? Int == supplier && created.object["supplierCode"] as? String == "OAT-6")
        #expect(created.object["packSize"] as? String == "6")
        let product = try #require(created.object["id"] as? Int)
        let bought = try await client.call(.post, "/api/v1/purchases", """
            {"supplierId":\(supplier),"effectiveAt":"\(Self.daysAgo(60))","lines":[{"productId":\(product),"quantity":"61.5","unitCost":"1.20"}]}
            """)
        #expect(bought.status == 201, "\(bought.text)")
        let old = try await client.call(.post, "/api/v1/sales", """
            {"effectiveAt":"\(Self.daysAgo(40))","lines":[{"productId":\(product),"quantity":"5"}]}
            """)
        #expect(old.status == 201, "\(old.text)")
        let today = try await client.call(.post, "/api/v1/sales", #"{"lines":[{"productId":\#(product),"quantity":"47"}]}"#)
        #expect(today.status == 201, "\(today.text)")
        return (supplier, product)
    }

    /// The same figures as ``ReorderRuleTests/aHandComputedSuggestion()``: 47 sold in 28 days, lead 3 + cover 14 →
    /// need 799 ÷ 28 = 28.536; less 9.5 in stock = 19.036 → 4 crates of 6 = 24 l, at 1.20 = 28.80.
    @Test func theHandWorkedSuggestion() async throws {
        let (app, store) = try makeApp()
        let admin = try await token(store, role: .admin)
        let manager = try await token(store, role: .manager)
        try await app.test(.router) { raw in
            let client = Caller(client: raw, token: manager)
            let (supplier, product) = try await Self.shop(Caller(client: raw, token: admin))
            let before = try await store.testOnly_dump()
            let answer = try await client.call(.get, "/api/v1/reorder?window=28&cover=14")
            #expect(answer.status == 200, "\(answer.text)")
            #expect(answer.object["window"] as? Int == 28 && answer.object["cover"] as? Int == 14)
            let groups = try #require(answer.object["groups"] as? [[String: Any]])
            #expect(groups.count == 1)
            #expect(groups.first?["supplierId"] as? Int == supplier && groups.first?["supplierName"] as? String == "Dairy")
            #expect(groups.first?["cost"] as? String == "28.80")
            let line = try #require((groups.first?["lines"] as? [[String: Any]])?.first)
            #expect(line["productId"] as? Int == product)
            #expect(line["supplierCode"] as? String == "OAT-6")
            #expect(line["sold"] as? String == "47")
            #expect(line["velocity"] as? String == "1.679")
            #expect(line["stock"] as? String == "9.5")
            #expect(line["leadTimeDays"] as? Int == 3)
            #expect(line["need"] as? String == "28.536")
            #expect(line["threshold"] as? String == "6")
            #expect(line["target"] as? String == "28.536")
            #expect(line["packs"] as? Int == 4)
            #expect(line["quantity"] as? String == "24")
            #expect(line["averageCost"] as? String == "1.20")
            #expect(line["cost"] as? String == "28.80")
            #expect(try await store.testOnly_dump() == before, "a suggestion wrote something")

            // The defaults are 28 and 14; one supplier's group; a longer window takes in the old sale.
            let defaults = try await client.call(.get, "/api/v1/reorder?supplierId=\(supplier)")
            #expect(defaults.object["window"] as? Int == 28 && defaults.object["cover"] as? Int == 14)
            #expect((defaults.object["groups"] as? [[String: Any]])?.count == 1)
            // 52 × (3 + 14) ÷ 60 = 14.7333… → 14.734; less 9.5 = 5.234 → one crate.
            let wide = try await client.call(.get, "/api/v1/reorder?window=60&cover=14")
            let wideLine = ((wide.object["groups"] as? [[String: Any]])?.first?["lines"] as? [[String: Any]])?.first
            #expect(wideLine?["sold"] as? String == "52", "\(wide.text)")
            #expect(wideLine?["need"] as? String == "14.734" && wideLine?["quantity"] as? String == "6", "\(wide.text)")
            // No cover: 52 × 3 ÷ 60 = 2.6, below the threshold 6, and 9.5 are in stock: nothing to buy.
            let none = try await client.call(.get, "/api/v1/reorder?window=60&cover=0")
            #expect((none.object["groups"] as? [[String: Any]])?.isEmpty == true, "\(none.text)")
        }
    }

    @Test func costsAreLeftOutForWhoMayNotSeeThem() throws {
        let terms = try ReorderTerms(windowDays: 28, coverDays: 14)
        let candidate = ReorderCandidate(productID: ProductID(1), name: "Oat milk", stock: Quantity(1), averageCost: UnitCost(scaled: 120_0000),
                                         sold: Quantity(28))
        let groups = ReorderRule.suggest([candidate], suppliers: [], terms: terms)
        let formats = Formats(currency: .eur, calendar: ShopCalendar(timeZone: .gmt))
        let response = ReorderResponse(groups, terms: terms, days: (2026_11_01, 2026_11_28), formats: formats)
        let hidden = try CostDisclosure.$visible.withValue(false) { String(decoding: try APIJSON.encode(response), as: UTF8.self) }
        let shown = try CostDisclosure.$visible.withValue(true) { String(decoding: try APIJSON.encode(response), as: UTF8.self) }
        #expect(!hidden.contains("averageCost") && !hidden.contains("\"cost\"") && !hidden.contains("1.20"), "\(hidden)")
        #expect(shown.contains("\"averageCost\":\"1.20\"") && shown.contains("\"cost\""), "\(shown)")
        #expect(hidden.contains("\"quantity\":\"13\""), "\(hidden)")   // 28 ÷ 28 × 14 = 14, less 1 in stock
    }

    @Test func badTermsAreRefusedNamingTheField() async throws {
        let (app, store) = try makeApp()
        let admin = try await token(store, role: .admin)
        let manager = try await token(store, role: .manager)
        try await app.test(.router) { raw in
            let client = Caller(client: raw, token: manager)
            _ = try await Self.shop(Caller(client: raw, token: admin))
            let before = try await store.testOnly_dump()
            let cases: [(String, Int, String)] = [
                ("window=0", 422, "window"), ("window=-7", 422, "window"), ("window=100000", 422, "window"),
                ("window=99999999999999999999999", 422, "window"), ("window=four", 422, "window"), ("window=", 422, "window"),
                ("cover=-1", 422, "cover"), ("cover=400", 422, "cover"), ("cover=1.5", 422, "cover"),
                ("supplierId=abc", 422, "supplierId"), ("supplierId=0", 422, "supplierId"), ("supplierId=999", 404, "supplierId"),
            ]
            for (query, status, field) in cases {
                let refused = try await client.call(.get, "/api/v1/reorder?\(query)")
                #expect(refused.status == status, "\(query): \(refused.text)")
                #expect(refused.object["field"] as? String == field, "\(query): \(refused.text)")
                #expect((refused.object["detail"] as? String)?.isEmpty == false, "\(query)")
            }
            #expect(try await store.testOnly_dump() == before)
        }
    }

    @Test func productAndSupplierFieldsAreCheckedAndKept() async throws {
        let (app, store) = try makeApp()
        let admin = try await token(store, role: .admin)
        try await app.test(.router) { raw in
            let client = Caller(client: raw, token: admin)
            let (supplier, product) = try await Self.shop(client)
            let before = try await store.testOnly_dump()
            let refusals: [(HTTPRequest.Method, String, String, Int, String)] = [
                (.post, "/api/v1/products", #"{"name":"Bread","preferredSupplierId":999}"#, 404, "preferredSupplierId"),
                (.post, "/api/v1/products", #"{"name":"Bread","packSize":"0"}"#, 422, "packSize"),
                (.post, "/api/v1/products", #"{"name":"Bread","packSize":"-2"}"#, 422, "packSize"),
                (.post, "/api/v1/products", #"{"name":"Bread","supplierCode":"\#(String(repeating: "x", count: 65))"}"#, 422, "supplierCode"),
                (.patch, "/api/v1/products/\(product)", #"{"packSize":null}"#, 422, "packSize"),
                (.patch, "/api/v1/products/\(product)", #"{"preferredSupplierId":12345}"#, 404, "preferredSupplierId"),
                (.post, "/api/v1/suppliers", #"{"name":"Slow","leadTimeDays":-1}"#, 422, "leadTimeDays"),
                (.put, "/api/v1/suppliers/\(supplier)", #"{"name":"Dairy","leadTimeDays":366}"#, 422, "leadTimeDays"),
            ]
            for (method, uri, body, status, field) in refusals {
                let refused = try await client.call(method, uri, body)
                #expect(refused.status == status, "\(uri) \(body): \(refused.text)")
                #expect(refused.object["field"] as? String == field, "\(uri) \(body): \(refused.text)")
            }
            #expect(try await store.testOnly_dump() == before)

            // A patch changes only what it names; null clears the supplier.
            let patched = try await client.call(.patch, "/api/v1/products/\(product)", #"{"packSize":"12","supplierCode":"OAT-12"}"#)
            #expect(patched.object["packSize"] as? String == "12" && patched.object["preferredSupplierId"] as? Int == supplier, "\(patched.text)")
            let cleared = try await client.call(.patch, "/api/v1/products/\(product)", #"{"preferredSupplierId":null}"#)
            #expect(cleared.status == 200 && cleared.object["preferredSupplierId"] == nil, "\(cleared.text)")
            // Customers have no lead time.
            let customer = try await client.call(.post, "/api/v1/customers", #"{"name":"Ann","leadTimeDays":4}"#)
            #expect(customer.status == 201 && customer.object["leadTimeDays"] == nil, "\(customer.text)")
            // Deleting a supplier no document names leaves its products without one.
            let spare = try #require(try await client.call(.post, "/api/v1/suppliers", #"{"name":"Spare"}"#).object["id"] as? Int)
            _ = try await client.call(.patch, "/api/v1/products/\(product)", #"{"preferredSupplierId":\#(spare)}"#)
            #expect(try await client.call(.delete, "/api/v1/suppliers/\(spare)").status == 204)
            #expect(try await client.call(.get, "/api/v1/products/\(product)").object["preferredSupplierId"] == nil)
        }
    }
}
