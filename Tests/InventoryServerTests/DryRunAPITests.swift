import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import InventoryDomain
@testable import InventoryServer
import InventoryStore
import Testing

/// `?dryRun=true` on purchases and sales: the answer is what posting books, computed by the store's own posting code
/// and rolled back — nothing stored, nothing audited, no live event. (Issue 10, defect 5: the purchase form's
/// JavaScript previewed 0.12 where the books said 0.13.)
@Suite struct DryRunAPITests {
    /// The answer without the moment it was written.
    static func figures(_ reply: Reply) -> [String: Any] {
        var object = reply.object
        object["recordedAt"] = nil
        return object
    }

    @Test func aPurchaseDryRunAnswersWhatIsBookedAndStoresNothing() async throws {
        let (app, store) = try makeApp()
        let admin = try await token(store, role: .admin)
        let product = try await store.createProduct(ProductDetails(name: "Sticker", salePrice: Money(minorUnits: 50)))
        try await app.test(.router) { raw in
            let client = Caller(client: raw, token: admin)
            // 7 units worth 1.00 in all.
            _ = try await client.call(.post, "/api/v1/purchases", #"{"effectiveAt":"2026-03-01T09:00:00Z","lines":[{"productId":\#(product.id),"quantity":"1","unitCost":"1.00"}]}"#)
            _ = try await client.call(.post, "/api/v1/purchases", #"{"effectiveAt":"2026-03-01T09:01:00Z","lines":[{"productId":\#(product.id),"quantity":"6","unitCost":"0.00"}]}"#)
            let audit = try await client.call(.get, "/api/v1/audit").array.count
            let before = try await store.testOnly_dump()
            let body = #"{"effectiveAt":"2026-03-02T09:00:00Z","lines":[{"productId":\#(product.id),"quantity":"1","unitCost":"0.00"},{"newProduct":{"name":"Badge","barcode":"4006381333931"},"quantity":"2","unitCost":"0.35"}]}"#
            let preview = try await client.call(.post, "/api/v1/purchases?dryRun=true", body)
            #expect(preview.status == 200, "\(preview.text)")
            let lines = preview.object["lines"] as? [[String: Any]] ?? []
            #expect(lines.first?["averageCostAfter"] as? String == "0.13")   // 1.00 / 8 = 0.125, rounded as the books round it
            #expect(preview.object["total"] as? String == "0.70")
            #expect(try await store.testOnly_dump() == before, "a dry run stored something")
            #expect(try await client.call(.get, "/api/v1/audit").array.count == audit, "a dry run was audited")
            let posted = try await client.call(.post, "/api/v1/purchases", body)
            #expect(posted.status == 201)
            #expect(NSDictionary(dictionary: Self.figures(preview)) == NSDictionary(dictionary: Self.figures(posted)))

            // An edit previews too, and a value other than true or false is refused before anything is booked.
            let id = try #require(posted.object["id"] as? Int)
            let edit = #"{"effectiveAt":"2026-03-02T09:00:00Z","lines":[{"productId":\#(product.id),"quantity":"3","unitCost":"0.00"}]}"#
            let before2 = try await store.testOnly_dump()
            let editPreview = try await client.call(.put, "/api/v1/purchases/\(id)?dryRun=true", edit)
            #expect(editPreview.status == 200)
            #expect((editPreview.object["lines"] as? [[String: Any]])?.first?["averageCostAfter"] as? String == "0.10")   // 1.00 / 10
            #expect(try await store.testOnly_dump() == before2)
            let misspelt = try await client.call(.post, "/api/v1/purchases?dryRun=yes", body)
            #expect(misspelt.status == 400 && misspelt.object["field"] as? String == "dryRun")
            #expect(try await store.testOnly_dump() == before2)
        }
    }

    @Test func aSaleDryRunAnswersWhatIsBookedAndIsRefusedAsTheSaleWouldBe() async throws {
        let (app, store) = try makeApp()
        let staff = try await token(store, role: .staff)
        let product = try await store.createProduct(ProductDetails(name: "Pen", salePrice: Money(minorUnits: 199), taxRate: Percent(hundredths: 700)))
        try await app.test(.router) { raw in
            let client = Caller(client: raw, token: staff)
            let bought = try await Caller(client: raw, token: try await token(store, role: .manager)).call(
                .post, "/api/v1/purchases", #"{"effectiveAt":"2026-03-01T09:00:00Z","lines":[{"productId":\#(product.id),"quantity":"3","unitCost":"0.33"}]}"#)
            #expect(bought.status == 201)
            let before = try await store.testOnly_dump()
            let body = #"{"effectiveAt":"2026-03-02T10:00:00Z","tip":"0.25","paymentMethod":"card","lines":[{"productId":\#(product.id),"quantity":"1.5","discount":"0.01"}]}"#
            let preview = try await client.call(.post, "/api/v1/sales?dryRun=true", body)
            #expect(preview.status == 200, "\(preview.text)")
            #expect(try await store.testOnly_dump() == before)
            let line = (preview.object["lines"] as? [[String: Any]])?.first ?? [:]
            #expect(line["revenue"] as? String == "2.98" && line["tax"] as? String == "0.21")   // 1.5 × 1.99 = 2.985 → 2.99 − 0.01; 7 %
            #expect(preview.object["total"] as? String == "3.44")
            // The till's quick amounts for cash come with a dry run (the domain's ``Money/cashOffers(in:)``), not a sale.
            #expect(preview.object["quickCash"] as? [String] == ["3.44", "4.00", "5.00", "10.00"])
            let refused = try await client.call(.post, "/api/v1/sales?dryRun=true", #"{"lines":[{"productId":\#(product.id),"quantity":"4"}]}"#)
            #expect(refused.status == 422 && refused.object["field"] as? String == "lines[0].quantity", "\(refused.text)")
            let posted = try await client.call(.post, "/api/v1/sales", body)
            #expect(posted.status == 201)
            var booked = Self.figures(posted), previewed = Self.figures(preview)
            #expect(booked["quickCash"] == nil)
            (booked["soldBy"], previewed["soldBy"], previewed["quickCash"]) = (nil, nil, nil)
            #expect(NSDictionary(dictionary: previewed) == NSDictionary(dictionary: booked))
        }
    }

    /// A dry run commits nothing, so the store hands the live events nothing; the real write publishes.
    @Test func aDryRunPublishesNoLiveEvent() async throws {
        var hub: EventHub?
        let (app, store) = try makeApp { hub = $0.events }
        let staff = try await token(store, role: .staff)
        let product = try await store.createProduct(ProductDetails(name: "Bun", salePrice: Money(minorUnits: 100), allowsNegativeStock: true))
        let live = try #require(hub)
        let events = live.subscribe()
        try await app.test(.router) { client in
            let body = #"{"lines":[{"productId":\#(product.id),"quantity":"1"}]}"#
            let preview = try await client.call(.post, "/api/v1/sales?dryRun=true", body, token: staff)
            #expect(preview.status == 200)
            live.publish(LiveEvent(type: "marker", data: "after the dry run"))
            let sale = try await client.call(.post, "/api/v1/sales", body, token: staff)
            #expect(sale.status == 201)
        }
        var seen: [String] = []
        // (The activity feed's `activity` hints are left out: only the sale and its product matter here.)
        for await event in events where event.type != "activity" {
            seen.append(event.type)
            if seen.count == 3 { break }
        }
        #expect(seen == ["marker", "sale", "product"])
    }
}
