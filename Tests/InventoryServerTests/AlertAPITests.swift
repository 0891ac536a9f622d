import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import InventoryDomain
@testable import InventoryServer
import InventoryStore
import Testing

/// Alerts that reach people (issue 14, point 3): managers opt in (`PUT /api/v1/auth/me/alerts`); a product gone low,
/// a cash difference at close, a refused restore and the daily expiry check become `alert` events on the opted-in
/// streams only, and entries in the activity feed.
@Suite struct AlertAPITests {
    /// The `alert` events published until now (a marker published to every stream ends the read).
    static func alerts(_ hub: EventHub, _ stream: AsyncStream<LiveEvent>) async -> [[String: String]] {
        hub.publish(LiveEvent(type: "marker", data: "{}"))
        var found: [[String: String]] = []
        for await event in stream {
            if event.type == "marker" { break }
            guard event.type == "alert" else { continue }
            found.append((try? JSONSerialization.jsonObject(with: Data(event.data.utf8)) as? [String: String]) ?? [:])
        }
        return found
    }

    @Test func aManagerOptsInAndBadInputChangesNothing() async throws {
        let (app, store) = try makeApp()
        let ada = try await newAccount(store, role: .manager, username: "ada")
        let manager = Secrets.newToken()
        _ = try await store.createSession(userID: ada.id, kind: .api, name: "office", tokenHash: Secrets.hashToken(manager), csrfToken: "", expiresAt: nil)
        let clerk = try await token(store, role: .staff, username: "bo")
        try await app.test(.router) { client in
            #expect(try await client.call(.get, "/api/v1/auth/me/alerts", token: manager).object["enabled"] as? Bool == false)
            for (body, status, field) in [("{}", 422, "enabled"), (#"{"enabled":"yes"}"#, 400, "enabled"), (#"{"enabled":null}"#, 422, "enabled"),
                                          (#"{"enabled":true,"loud":true}"#, 400, "loud")] {
                let reply = try await client.call(.put, "/api/v1/auth/me/alerts", body, token: manager)
                #expect(reply.status == status, "\(body): \(reply.text)")
                #expect(reply.object["field"] as? String == field, "\(body): \(reply.text)")
            }
            #expect(try await store.receivesAlerts(ada.id) == false)
            // Staff may neither read nor set it.
            #expect(try await client.call(.get, "/api/v1/auth/me/alerts", token: clerk).status == 403)
            #expect(try await client.call(.put, "/api/v1/auth/me/alerts", #"{"enabled":true}"#, token: clerk).status == 403)

            let on = try await client.call(.put, "/api/v1/auth/me/alerts", #"{"enabled":true}"#, token: manager)
            #expect(on.status == 200 && on.object["enabled"] as? Bool == true, "\(on.text)")
            #expect(try await client.call(.get, "/api/v1/auth/me/alerts", token: manager).object["enabled"] as? Bool == true)
            #expect(try await store.receivesAlerts(ada.id))
        }
    }

    @Test func alertsReachOnlyTheOptedInStreamsAndTheFeed() async throws {
        var configured: EventHub?
        let (app, store) = try makeApp { configured = $0.events }
        let hub = try #require(configured)
        let manager = try await token(store, role: .manager, username: "ada")
        let admin = try await token(store, role: .admin, username: "root")
        let bun = try await store.createProduct(ProductDetails(name: "Bun", salePrice: Money(minorUnits: 120), lowStockThreshold: Quantity(5)))
        _ = try await store.postPurchase(PurchaseDraft(effectiveAt: .now, lines: [.init(productID: bun.id, quantity: Quantity(10), unitCost: Money(minorUnits: 50))]))
        let alerted = hub.subscribe(alerts: true)
        let plain = hub.subscribe()
        try await app.test(.router) { client in
            #expect(try await client.call(.post, "/api/v1/sales", #"{"lines":[{"productId":\#(bun.id),"quantity":"6"}]}"#, token: manager).status == 201)
            #expect(try await client.call(.post, "/api/v1/drawer/open", #"{"openingFloat":"100.00"}"#, token: manager).status < 300)
            let closed = try await client.call(.post, "/api/v1/drawer/close", #"{"countedCash":"95.00"}"#, token: manager)
            #expect(closed.status == 200, "\(closed.text)")
            let refused = try await client.call(.post, "/api/v1/restore", nil, raw: Array("junk".utf8), token: admin)
            #expect(refused.status == 422)

            let heard = await Self.alerts(hub, alerted)
            #expect(heard.map { $0["kind"] } == ["lowStock", "cashDifference", "restoreRefused"])
            #expect(heard.first?["title"] == "Low stock: Bun" && heard.first?["body"] == "4 left, threshold 5")
            #expect(heard.first?["url"] == "/app/products/\(bun.id)")
            #expect(heard.dropFirst().first?["body"]?.hasSuffix("counted €95.00, expected €100.00, €5.00 short") == true)
            #expect(heard.last?["url"] == "/app/backup" && heard.last?["body"]?.hasPrefix("root's restore was refused: ") == true)
            #expect(await Self.alerts(hub, plain).isEmpty, "a stream that did not opt in hears no alert")

            let feed = try await client.call(.get, "/api/v1/activity?kind=alerts,lowStock", token: manager)
            #expect((feed.object["entries"] as? [[String: Any]])?.compactMap { $0["kind"] as? String } == ["restoreRefused", "drawerClosed", "stockWentLow"])
        }
    }

    @Test func theDailyCheckRecordsExpiringLotsOncePerDay() async throws {
        let (_, store) = try makeApp()
        let calendar = try await store.settings().calendar
        let now = Instant.now
        let soon = ShopCalendar.isoDate(calendar.addingDays(3, to: calendar.dayNumber(now)))
        let later = ShopCalendar.isoDate(calendar.addingDays(30, to: calendar.dayNumber(now)))
        let service = ExpiryAlertService(store: store)
        #expect(try await service.checkIfDue(now: now) == false, "nothing expires: nothing recorded")
        let milk = try await store.createProduct(ProductDetails(name: "Milk", salePrice: Money(minorUnits: 150)))
        let jam = try await store.createProduct(ProductDetails(name: "Jam", salePrice: Money(minorUnits: 400)))
        _ = try await store.postPurchase(PurchaseDraft(effectiveAt: now, lines: [
            .init(productID: milk.id, quantity: Quantity(6), unitCost: Money(minorUnits: 80), lotCode: "A1", expiryDate: soon),
            .init(productID: jam.id, quantity: Quantity(6), unitCost: Money(minorUnits: 200), lotCode: "J1", expiryDate: later),
        ]))
        #expect(try await service.checkIfDue(now: now))
        #expect(try await service.checkIfDue(now: now) == false, "once a day")
        let entries = try await store.activityFeed(ActivityFeedQuery(groups: [.alerts]))
        #expect(entries.map(\.sentence) == ["1 lot expires within 7 days: Milk"])
        #expect(entries.first?.username == "system")
    }
}
