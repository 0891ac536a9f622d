import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import InventoryDomain
@testable import InventoryServer
import InventoryStore
import Testing

/// Issue 10, defect 7: live events and audit entries come from what the store commits — every route (the v1 API, an
/// import) publishes without the server matching URLs, and the audit screen reads as sentences.
@Suite struct ActivityAPITests {
    /// The events published until now (a marker is published last and ends the read; low-stock lists, which are
    /// computed off the writer's path, are left out, and so are the activity feed's `activity` events unless asked for:
    /// `ActivityFeedAPITests` follows those).
    static func drain(_ hub: EventHub, _ stream: AsyncStream<LiveEvent>, feed: Bool = false) async -> [LiveEvent] {
        hub.publish(LiveEvent(type: "marker", data: "{}"))
        var events: [LiveEvent] = []
        for await event in stream where event.type != "low-stock" && (feed || event.type != "activity") {
            if event.type == "marker" { break }
            events.append(event)
        }
        return events
    }

    @Test func aStoreThatMayHaveMissedActivitiesTellsEveryScreenToReadAgain() async throws {
        var configured: EventHub?
        let (_, store) = try makeApp { configured = $0.events }
        let hub = try #require(configured)
        let screen = hub.subscribe()
        let alerted = hub.subscribe(alerts: true)
        store.activityFeed.publishMissed()
        for stream in [screen, alerted] {
            let events = await Self.drain(hub, stream)
            #expect(events == [EventHub.resync])
        }
        #expect(EventHub.resync.frame == "event: resync\ndata: {}\n\n")
    }

    @Test func aV1SaleAndAnImportPublishTheirEventsAndReadAsSentences() async throws {
        var configured: EventHub?
        let (app, store) = try makeApp { configured = $0.events }
        let hub = try #require(configured)
        let clerk = try await newAccount(store, role: .manager, username: "ada")
        let ada = Secrets.newToken()
        _ = try await store.createSession(userID: clerk.id, kind: .api, name: "till", tokenHash: Secrets.hashToken(ada), csrfToken: "", expiresAt: nil)
        let admin = try await token(store, role: .admin, username: "root")
        let bun = try await store.createProduct(ProductDetails(name: "Bun", salePrice: Money(minorUnits: 120)))
        _ = try await store.postPurchase(PurchaseDraft(effectiveAt: .now, lines: [.init(productID: bun.id, quantity: Quantity(10), unitCost: Money(minorUnits: 50))]))
        let stream = hub.subscribe()
        try await app.test(.router) { client in
            let sale = try await client.call(.post, "/api/v1/sales", #"{"lines":[{"productId":\#(bun.id),"quantity":"3"}]}"#, token: ada)
            #expect(sale.status == 201, "\(sale.text)")
            let saleID = try #require((sale.object["id"] as? NSNumber)?.int64Value)
            let payload = #"{"kind":"saleRecorded","productIds":[\#(bun.id)],"record":{"id":\#(saleID),"kind":"sale"}}"#
            let events = await Self.drain(hub, stream)
            #expect(events.map(\.type) == ["sale", "product"])
            #expect(events.map(\.data) == [payload, payload])

            // A refused sale publishes nothing and is not audited.
            let refused = try await client.call(.post, "/api/v1/sales", #"{"lines":[{"productId":\#(bun.id),"quantity":"300"}]}"#, token: ada)
            #expect(refused.status == 422)
            #expect(await Self.drain(hub, stream).isEmpty)

            // An import is no sale, but its products reach the screens.
            let imported = try await client.call(.post, "/api/v1/import/products", nil, raw: Array("name,sku,sale_price\nTea,T1,2.50\n".utf8), token: admin)
            #expect(imported.status == 200, "\(imported.text)")
            let importEvents = await Self.drain(hub, stream)
            #expect(importEvents.map(\.type) == ["product"])
            #expect(importEvents.first?.data == #"{"kind":"productsImported","productIds":[]}"#)

            // The price change is spelled out.
            let patched = try await client.call(.patch, "/api/v1/products/\(bun.id)", #"{"salePrice":"1.35"}"#, token: ada)
            #expect(patched.status == 200, "\(patched.text)")

            let audit = try await client.call(.get, "/api/v1/audit?limit=3", token: admin)
            #expect(audit.status == 200)
            let entries = audit.array
            #expect(entries.map { $0["sentence"] as? String } == [
                "ada changed the sale price of Bun from €1.20 to €1.35",
                "root imported products: 1 added, 0 updated",
                "ada sold 3 × Bun for €3.60 (sale #\(saleID))",
            ])
            let sold = try #require(entries.last)
            #expect(sold["kind"] as? String == "saleRecorded" && sold["action"] as? String == "saleRecorded")
            #expect(sold["username"] as? String == "ada" && (sold["userId"] as? NSNumber)?.int64Value == clerk.id.rawValue)
            #expect(NSDictionary(dictionary: sold["record"] as? [String: Any] ?? [:]) == ["kind": "sale", "id": saleID])
            #expect((sold["productIds"] as? [NSNumber])?.map(\.int64Value) == [bun.id.rawValue])
            #expect(NSDictionary(dictionary: sold["figures"] as? [String: Any] ?? [:])
                    == ["lines": 1, "items": "3", "total": "3.60", "costOfGoodsSold": "1.50", "tax": "0.00"])
            #expect(entries.first?["changes"] as? [[String: String]] == [["field": "salePrice", "from": "1.20", "to": "1.35"]])
        }
    }

    @Test func accountAndTokenChangesThroughTheAPIAreAuditedAsTheAdmin() async throws {
        let (app, store) = try makeApp()
        let admin = try await token(store, role: .admin, username: "root")
        try await app.test(.router) { client in
            let made = try await client.call(.post, "/api/v1/users", #"{"username":"clerk","password":"correct horse battery","role":"staff"}"#, token: admin)
            #expect(made.status == 201, "\(made.text)")
            let clerk = try #require((made.object["id"] as? NSNumber)?.int64Value)
            #expect(try await client.call(.put, "/api/v1/users/\(clerk)", #"{"role":"manager"}"#, token: admin).status == 200)
            let minted = try await client.call(.post, "/api/v1/tokens", #"{"name":"till","userId":\#(clerk)}"#, token: admin)
            let tokenID = try #require((minted.object["id"] as? NSNumber)?.int64Value)
            #expect(try await client.call(.delete, "/api/v1/tokens/\(tokenID)", token: admin).status == 204)
            let sentences = try await client.call(.get, "/api/v1/audit?limit=4", token: admin).array.compactMap { $0["sentence"] as? String }
            #expect(sentences == [
                "root revoked API token #\(tokenID) 'till' of clerk",
                "root created API token #\(tokenID) 'till' for clerk",
                "root changed the role of clerk from staff to manager",
                "root added the account clerk as staff",
            ])
        }
    }
}
