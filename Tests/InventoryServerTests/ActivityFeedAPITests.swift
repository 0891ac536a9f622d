import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import InventoryDomain
@testable import InventoryServer
import InventoryStore
import Testing

/// `GET /api/v1/activity`: the manager's activity feed — sales, refunds, shifts, price changes and products gone low —
/// with its filters; a bad filter is a 422 naming the parameter; staff may not read it; an `activity` live event tells
/// an open feed to fetch again.
@Suite struct ActivityFeedAPITests {
    @Test func aManagerReadsTheFeedWithItsFiltersAndPages() async throws {
        var configured: EventHub?
        let (app, store) = try makeApp { configured = $0.events }
        let hub = try #require(configured)
        let ada = try await newAccount(store, role: .manager, username: "ada")
        let manager = Secrets.newToken()
        _ = try await store.createSession(userID: ada.id, kind: .api, name: "office", tokenHash: Secrets.hashToken(manager), csrfToken: "", expiresAt: nil)
        let clerk = try await token(store, role: .staff, username: "bo")
        let bun = try await store.createProduct(ProductDetails(name: "Bun", salePrice: Money(minorUnits: 120), lowStockThreshold: Quantity(5)))
        _ = try await store.postPurchase(PurchaseDraft(effectiveAt: .now, lines: [.init(productID: bun.id, quantity: Quantity(10), unitCost: Money(minorUnits: 50))]))
        let stream = hub.subscribe()
        try await app.test(.router) { client in
            #expect(try await client.call(.post, "/api/v1/auth/clock-in", nil, token: clerk).status == 201)
            let sale = try await client.call(.post, "/api/v1/sales", #"{"lines":[{"productId":\#(bun.id),"quantity":"6"}]}"#, token: clerk)
            #expect(sale.status == 201, "\(sale.text)")
            let saleID = try #require((sale.object["id"] as? NSNumber)?.int64Value)
            #expect(try await client.call(.patch, "/api/v1/products/\(bun.id)", #"{"salePrice":"1.35"}"#, token: manager).status == 200)
            let events = await ActivityAPITests.drain(hub, stream, feed: true).filter { $0.type == "activity" }
            #expect(events.map(\.data) == [#"{"group":"shifts"}"#, #"{"group":"lowStock"}"#, #"{"group":"sales"}"#, #"{"group":"priceChanges"}"#])

            let feed = try await client.call(.get, "/api/v1/activity", token: manager)
            #expect(feed.status == 200, "\(feed.text)")
            let entries = feed.object["entries"] as? [[String: Any]] ?? []
            #expect(entries.map { $0["sentence"] as? String } == [
                "ada changed the sale price of Bun from €1.20 to €1.35",
                "Bun went low: 4 left, threshold 5",
                "bo sold 6 × Bun for €7.20 (sale #\(saleID))",
                "bo clocked in",
            ])
            #expect(entries.map { $0["group"] as? String } == ["priceChanges", "lowStock", "sales", "shifts"])
            #expect(NSDictionary(dictionary: entries[1]["figures"] as? [String: Any] ?? [:]) == ["stock": "4", "threshold": "5"])
            #expect(feed.object["nextBefore"] == nil)

            let sales = try await client.call(.get, "/api/v1/activity?kind=sales,shifts&userId=\(ada.id.rawValue)", token: manager)
            #expect(sales.status == 200 && (sales.object["entries"] as? [Any])?.isEmpty == true, "\(sales.text)")
            let today = ShopCalendar.isoDate(try await store.settings().calendar.dayNumber(.now))
            let paged = try await client.call(.get, "/api/v1/activity?kind=sales%2Cshifts&from=\(today)&to=\(today)&limit=1", token: manager)
            #expect((paged.object["entries"] as? [[String: Any]])?.map { $0["kind"] as? String } == ["saleRecorded"])
            let next = try #require((paged.object["nextBefore"] as? NSNumber)?.int64Value)
            let older = try await client.call(.get, "/api/v1/activity?kind=sales,shifts&limit=1&before=\(next)", token: manager)
            #expect((older.object["entries"] as? [[String: Any]])?.map { $0["kind"] as? String } == ["clockedIn"])

            // Staff may not read it.
            #expect(try await client.call(.get, "/api/v1/activity", token: clerk).status == 403)
        }
    }

    @Test(arguments: [
        ("kind=gossip", "kind"), ("kind=sales,refund", "kind"), ("userId=ada", "userId"), ("userId=-3", "userId"),
        ("from=yesterday", "from"), ("to=2026-13-01", "to"), ("from=2026-03-02&to=2026-03-01", "to"),
        ("limit=0", "limit"), ("limit=201", "limit"), ("limit=many", "limit"), ("before=0", "before"), ("before=last", "before"),
    ])
    func aBadFilterIsA422NamingIt(query: String, field: String) async throws {
        let (app, store) = try makeApp()
        let manager = try await token(store, role: .manager, username: "ada")
        try await app.test(.router) { client in
            let reply = try await client.call(.get, "/api/v1/activity?\(query)", token: manager)
            #expect(reply.status == 422, "\(query): \(reply.text)")
            #expect(reply.object["field"] as? String == field, "\(query): \(reply.text)")
        }
    }
}
