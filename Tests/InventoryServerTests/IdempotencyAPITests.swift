import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import InventoryDomain
@testable import InventoryServer
import InventoryStore
import Testing

/// `Idempotency-Key` on the document POSTs: a till that lost the answer to its sale retries with the same key and the
/// sale is booked once.
@Suite struct IdempotencyAPITests {
    static func post(_ client: some TestClientProtocol, _ uri: String, _ body: String, token: String, key: String?) async throws
        -> (status: Int, object: [String: Any], replayed: String?)
    {
        var headers: HTTPFields = [.contentType: "application/json", .authorization: "Bearer \(token)"]
        if let key, let name = HTTPField.Name("Idempotency-Key") { headers[name] = key }
        return try await client.execute(uri: uri, method: .post, headers: headers, body: ByteBuffer(string: body)) { response in
            let object = (try? JSONSerialization.jsonObject(with: Data(response.body.readableBytesView))) as? [String: Any] ?? [:]
            return (Int(response.status.code), object, HTTPField.Name("Idempotent-Replayed").flatMap { response.headers[$0] })
        }
    }

    @Test func aRetriedSaleAnswersTheFirstAndBooksOnce() async throws {
        let (app, store) = try makeApp()
        let staff = try await token(store, role: .staff)
        let other = try await token(store, role: .staff)
        let admin = try await token(store, role: .admin)
        let beans = try await store.createProduct(ProductDetails(name: "Beans", salePrice: Money(minorUnits: 400)))
        _ = try await store.postPurchase(PurchaseDraft(effectiveAt: Instant(milliseconds: 1_767_268_800_000),
                                                       lines: [.init(productID: beans.id, quantity: Quantity(10), unitCost: Money(minorUnits: 200))]))
        let sale = #"{"effectiveAt":"2026-01-02T09:00:00Z","lines":[{"productId":\#(beans.id),"quantity":"3"}]}"#
        try await app.test(.router) { client in
            let first = try await Self.post(client, "/api/v1/sales", sale, token: staff, key: "0b6f-till-1")
            #expect(first.status == 201 && first.replayed == nil)
            let retry = try await Self.post(client, "/api/v1/sales", sale, token: staff, key: "0b6f-till-1")
            #expect(retry.status == 201 && retry.replayed == "true")
            #expect(retry.object["id"] as? Int == first.object["id"] as? Int)
            #expect(retry.object["total"] as? String == first.object["total"] as? String)
            #expect(try await store.product(beans.id).stock.quantity == Quantity(7), "the retry booked a second sale")

            // The same key with another body: refused, nothing booked.
            let before = try await store.testOnly_dump()
            let changed = try await Self.post(client, "/api/v1/sales", sale.replacingOccurrences(of: #""3""#, with: #""4""#), token: staff, key: "0b6f-till-1")
            #expect(changed.status == 409 && changed.object["field"] as? String == "Idempotency-Key", "\(changed.object)")
            // Keys belong to their user: the admin's identical key is the admin's own, and replays for the admin.
            let purchase = #"{"effectiveAt":"2026-01-03T09:00:00Z","lines":[{"productId":\#(beans.id),"quantity":"1","unitCost":"2.00"}]}"#
            #expect(try await Self.post(client, "/api/v1/purchases", purchase, token: admin, key: "0b6f-till-1").status == 201,
                    "keys belong to their user")
            #expect(try await store.testOnly_dump() != before)
            let afterPurchase = try await store.testOnly_dump()
            #expect(try await Self.post(client, "/api/v1/purchases", purchase, token: admin, key: "0b6f-till-1").replayed == "true")
            #expect(try await store.testOnly_dump() == afterPurchase)

            // Another user's identical request with the same key is their own sale.
            let theirs = try await Self.post(client, "/api/v1/sales", sale, token: other, key: "0b6f-till-1")
            #expect(theirs.status == 201 && theirs.replayed == nil && theirs.object["id"] as? Int != first.object["id"] as? Int)

            // A malformed key names the header; a dry run with a key books nothing and keeps no key.
            let bad = try await Self.post(client, "/api/v1/sales", sale, token: staff, key: "ключ")
            #expect(bad.status == 422 && bad.object["field"] as? String == "Idempotency-Key", "\(bad.object)")
            let dry = try await Self.post(client, "/api/v1/sales?dryRun=true", sale, token: staff, key: "dry-1")
            #expect(dry.status == 200)
            let real = try await Self.post(client, "/api/v1/sales", sale, token: staff, key: "dry-1")
            #expect(real.status == 201 && real.replayed == nil)

            // Adjustments and returns take keys too.
            let adjustment = #"{"effectiveAt":"2026-01-04T09:00:00Z","productId":\#(beans.id),"quantityChange":"-1","reason":"damage"}"#
            let a1 = try await Self.post(client, "/api/v1/adjustments", adjustment, token: admin, key: "adj-1")
            let a2 = try await Self.post(client, "/api/v1/adjustments", adjustment, token: admin, key: "adj-1")
            #expect(a1.status == 201 && a2.replayed == "true" && a1.object["id"] as? Int == a2.object["id"] as? Int)
        }
        // 10 + 1 bought; 3 + 3 + 3 sold (first, another user's, the real one after the dry run); 1 damaged.
        #expect(try await store.product(beans.id).stock.quantity == Quantity(1))
    }
}
