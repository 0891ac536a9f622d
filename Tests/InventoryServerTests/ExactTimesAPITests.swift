import Foundation
import HummingbirdTesting
import InventoryDomain
import InventoryServer
import InventoryStore
import Testing

/// Times come back exactly as written, and writing a document back unchanged changes nothing (issue 10, defect 2).
@Suite struct ExactTimesAPITests {
    /// The issue's repro: a sale at .099 between two purchases at .000 and .100 keeps its COGS when the later purchase
    /// is read and written back unchanged (the read gave .099, so the write moved it before the sale: COGS 3.00 → 2.00).
    @Test func writingADocumentBackUnchangedKeepsAnotherSalesCOGS() async throws {
        let (app, store) = try makeApp()
        let admin = try await token(store, role: .admin)
        try await app.test(.router) { raw in
            let client = Caller(client: raw, token: admin)
            let product = try await client.call(.post, "/api/v1/products", #"{"name":"Bolt","salePrice":"5.00"}"#)
            let id = try #require(product.object["id"] as? Int)
            let first = try await client.call(.post, "/api/v1/purchases",
                #"{"effectiveAt":"2026-01-20T10:00:00.000Z","lines":[{"productId":\#(id),"quantity":"4","unitCost":"3.00"}]}"#)
            #expect(first.status == 201, "\(first.text)")
            let purchaseA = try await client.call(.post, "/api/v1/purchases",
                #"{"effectiveAt":"2026-01-20T10:00:00.100Z","lines":[{"productId":\#(id),"quantity":"4","unitCost":"1.00"}]}"#)
            #expect(purchaseA.object["effectiveAt"] as? String == "2026-01-20T10:00:00.100Z")
            let purchaseID = try #require(purchaseA.object["id"] as? Int)
            let sale = try await client.call(.post, "/api/v1/sales",
                #"{"effectiveAt":"2026-01-20T10:00:00.099Z","paymentMethod":"cash","lines":[{"productId":\#(id),"quantity":"1"}]}"#)
            #expect(sale.status == 201, "\(sale.text)")
            #expect(sale.object["costOfGoodsSold"] as? String == "3.00")
            let saleID = try #require(sale.object["id"] as? Int)

            // GET purchase A and PUT it back unchanged.
            let read = try await client.call(.get, "/api/v1/purchases/\(purchaseID)").object
            #expect(read["effectiveAt"] as? String == "2026-01-20T10:00:00.100Z")
            let put = try await client.call(.put, "/api/v1/purchases/\(purchaseID)", try Self.purchaseBody(read))
            #expect(put.status == 200, "\(put.text)")
            #expect(put.object["effectiveAt"] as? String == "2026-01-20T10:00:00.100Z")

            let after = try await client.call(.get, "/api/v1/sales/\(saleID)").object
            #expect(after["costOfGoodsSold"] as? String == "3.00")
            #expect(after["effectiveAt"] as? String == "2026-01-20T10:00:00.099Z")
            // The day's end is its last millisecond, not one before it.
            let snapshot = try await client.call(.get, "/api/v1/reports/snapshot?at=2026-01-20").object
            #expect(snapshot["at"] as? String == "2026-01-20T23:59:59.999Z")
        }
    }

    /// Random instants (before 1970, far future, every millisecond value) round-trip through every API form that carries
    /// a time: written as UTC or with the shop's offset, read back from the document, the lists, the ledger and `?at=`.
    @Test func randomInstantsRoundTripThroughTheAPI() async throws {
        let (app, store) = try makeApp()
        let admin = try await token(store, role: .admin)
        var settings = try await store.settings()
        settings.timeZoneIdentifier = "America/St_Johns"  // −03:30 / −02:30: an offset in half hours and summer time
        try await store.saveSettings(settings)
        let calendar = try await store.settings().calendar
        let instants = Instant.samples(count: 120, seed: 2026) + [Instant(milliseconds: 1_768_903_200_100)]
        let written = instants
        try await app.test(.router) { raw in
            let instants = written
            let client = Caller(client: raw, token: admin)
            let product = try await client.call(.post, "/api/v1/products", #"{"name":"Washer","salePrice":"1.00"}"#)
            let id = try #require(product.object["id"] as? Int)
            for (index, instant) in instants.enumerated() {
                let written = index % 2 == 0 ? instant.iso8601 : calendar.localISO8601(instant)
                let posted = try await client.call(.post, "/api/v1/purchases",
                    #"{"effectiveAt":"\#(written)","lines":[{"productId":\#(id),"quantity":"1","unitCost":"1.00"}]}"#)
                #expect(posted.status == 201, "\(written): \(posted.text)")
                #expect(posted.object["effectiveAt"] as? String == instant.iso8601, "\(written)")
                let purchaseID = try #require(posted.object["id"] as? Int)
                let read = try await client.call(.get, "/api/v1/purchases/\(purchaseID)").object
                #expect(read["effectiveAt"] as? String == instant.iso8601)
                let put = try await client.call(.put, "/api/v1/purchases/\(purchaseID)", try Self.purchaseBody(read))
                #expect(put.object["effectiveAt"] as? String == instant.iso8601)
                let snapshot = try await client.call(.get, "/api/v1/reports/snapshot?at=\(written.replacingOccurrences(of: "+", with: "%2B"))").object
                #expect(snapshot["at"] as? String == instant.iso8601)
            }
            let listed = try await client.call(.get, "/api/v1/purchases?limit=500").array.compactMap { $0["effectiveAt"] as? String }
            #expect(Set(listed) == Set(instants.map(\.iso8601)))
            let ledger = try await client.call(.get, "/api/v1/products/\(id)/movements").array.compactMap { $0["effectiveAt"] as? String }
            #expect(ledger.sorted() == instants.map(\.iso8601).sorted())
            let stored = try await store.movements(productID: ProductID(Int64(id))).map(\.position.effectiveAt)
            #expect(stored.sorted() == instants.map(\.milliseconds).sorted())
        }
    }

    /// A purchase as `GET` answered it, as the body `PUT` takes.
    static func purchaseBody(_ read: [String: Any]) throws -> String {
        var body: [String: Any] = ["effectiveAt": read["effectiveAt"] ?? "", "note": read["note"] ?? ""]
        if let supplier = read["supplierId"] { body["supplierId"] = supplier }
        body["lines"] = (read["lines"] as? [[String: Any]] ?? []).map { line in
            ["productId": line["productId"] ?? 0, "quantity": line["quantity"] ?? "", "unitCost": line["unitCost"] ?? ""]
        }
        return String(decoding: try JSONSerialization.data(withJSONObject: body), as: UTF8.self)
    }
}
