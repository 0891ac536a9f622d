import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import InventoryDomain
import Testing

/// `/api/v1/stocktakes` (issue 14, point 1): a manager opens a count sheet, staff scan or type counts, the manager
/// posts it as one adjustment; `/api/v1/adjustments/expired-lot` writes off an expired lot. Bad input names the field
/// and stores nothing.
@Suite struct StocktakeAPITests {
    @Test func openScanTypePostAndReadTheReport() async throws {
        let (app, store) = try makeApp()
        let staff = try await token(store, role: .staff)
        let manager = try await token(store, role: .manager)
        let beans = try await store.createProduct(ProductDetails(name: "Beans", barcode: "4006381333931", salePrice: Money(minorUnits: 900)))
        let milk = try await store.createProduct(ProductDetails(name: "Milk", salePrice: Money(minorUnits: 150)))
        _ = try await store.postPurchase(PurchaseDraft(effectiveAt: Instant(milliseconds: 1_767_268_800_000), lines: [
            .init(productID: beans.id, quantity: Quantity(5), unitCost: Money(minorUnits: 400))]))
        try await app.test(.router) { raw in
            let office = Caller(client: raw, token: manager)
            let counter = Caller(client: raw, token: staff)
            #expect(try await counter.call(.post, "/api/v1/stocktakes", #"{"scope":"all"}"#).status == 403)
            let opened = try await office.call(.post, "/api/v1/stocktakes", #"{"scope":"all","note":"back room"}"#)
            #expect(opened.status == 201 && opened.object["status"] as? String == "open", "\(opened.text)")
            let id = try #require(opened.object["id"] as? Int)
            let lines = try #require(opened.object["lines"] as? [[String: Any]])
            #expect(lines.map { $0["name"] as? String } == ["Beans", "Milk"] && lines.allSatisfy { $0["counted"] == nil })
            // Staff scan twice (by barcode), then type the figure.
            for _ in 0..<2 {
                #expect(try await counter.call(.post, "/api/v1/stocktakes/\(id)/counts", #"{"barcode":"4006381333931"}"#).status == 200)
            }
            let scanned = try await counter.call(.get, "/api/v1/stocktakes/\(id)")
            #expect((scanned.object["lines"] as? [[String: Any]])?.first?["counted"] as? String == "2", "\(scanned.text)")
            let typed = try await counter.call(.post, "/api/v1/stocktakes/\(id)/counts", #"{"productId":\#(beans.id),"quantity":"3"}"#)
            let line = try #require((typed.object["lines"] as? [[String: Any]])?.first)
            #expect(line["counted"] as? String == "3" && line["stockAtCount"] as? String == "5" && line["variance"] as? String == "-2")
            #expect(line["varianceValue"] == nil, "staff do not see costs: \(typed.text)")
            let seen = try await office.call(.get, "/api/v1/stocktakes/\(id)")
            #expect((seen.object["lines"] as? [[String: Any]])?.first?["varianceValue"] as? String == "-8.00", "\(seen.text)")
            #expect((seen.object["totals"] as? [String: Any])?["varianceValue"] as? String == "-8.00")
            #expect(try await counter.call(.post, "/api/v1/stocktakes/\(id)/post").status == 403)
            let posted = try await office.call(.post, "/api/v1/stocktakes/\(id)/post")
            #expect(posted.status == 200 && posted.object["status"] as? String == "posted", "\(posted.text)")
            #expect(posted.object["adjustmentId"] is Int)
            let totals = try #require(posted.object["totals"] as? [String: Any])
            #expect(totals["counted"] as? Int == 1 && totals["uncounted"] as? Int == 1 && totals["differing"] as? Int == 1)
            #expect(try await store.product(beans.id).stock.quantity == Quantity(3))
            #expect(try await store.product(milk.id).stock.quantity == .zero)
            let list = try await counter.call(.get, "/api/v1/stocktakes")
            #expect(list.array.map { $0["status"] as? String } == ["posted"], "\(list.text)")
            #expect(try await office.call(.get, "/api/v1/stocktakes/\(id)").text == posted.text, "a posted sheet reads back as it was posted")
        }
    }

    @Test func badInputNamesTheFieldAndWritesNothing() async throws {
        let (app, store) = try makeApp()
        let manager = try await token(store, role: .manager)
        let beans = try await store.createProduct(ProductDetails(name: "Beans", salePrice: Money(minorUnits: 900)))
        let sheet = try await store.openStocktake(scope: .all, note: "")
        try await app.test(.router) { raw in
            let office = Caller(client: raw, token: manager)
            let refusals: [(String, String, Int, String)] = [
                ("/api/v1/stocktakes", #"{"scope":"aisle"}"#, 422, "scope"),
                ("/api/v1/stocktakes", #"{"scope":"shelf"}"#, 422, "shelf"),
                ("/api/v1/stocktakes", #"{"scope":"shelf","shelf":"  "}"#, 422, "shelf"),
                ("/api/v1/stocktakes", #"{"scope":"shelf","shelf":"Z9"}"#, 404, "shelf"),
                ("/api/v1/stocktakes", #"{"scope":"category"}"#, 422, "categoryId"),
                ("/api/v1/stocktakes", #"{"scope":"category","categoryId":999}"#, 404, "categoryId"),
                ("/api/v1/stocktakes", #"{"scope":"all","shelf":"A"}"#, 422, "shelf"),
                ("/api/v1/stocktakes", #"{"scope":"all","aisle":"A"}"#, 400, "aisle"),
                ("/api/v1/stocktakes/\(sheet.id)/counts", #"{"productId":999}"#, 404, "productId"),
                ("/api/v1/stocktakes/\(sheet.id)/counts", #"{"productId":\#(beans.id),"quantity":"-1"}"#, 422, "quantity"),
                ("/api/v1/stocktakes/\(sheet.id)/counts", #"{"productId":\#(beans.id),"quantity":"many"}"#, 422, "quantity"),
                ("/api/v1/stocktakes/\(sheet.id)/counts", #"{"barcode":"0000000000000"}"#, 404, "barcode"),
                ("/api/v1/stocktakes/\(sheet.id)/counts", #"{}"#, 422, "productId"),
                ("/api/v1/stocktakes/\(sheet.id)/counts", #"{"productId":\#(beans.id),"barcode":"1"}"#, 422, "barcode"),
                ("/api/v1/stocktakes/999/counts", #"{"productId":\#(beans.id)}"#, 404, "id"),
                ("/api/v1/stocktakes/\(sheet.id)/post", "", 422, "lines"),
                ("/api/v1/adjustments/expired-lot", #"{"productId":\#(beans.id),"lotCode":"L1"}"#, 404, "lotCode"),
                ("/api/v1/adjustments/expired-lot", #"{"productId":\#(beans.id),"lotCode":"L1","expiryDate":"2026-02-30"}"#, 422, "expiryDate"),
                ("/api/v1/adjustments/expired-lot", #"{"productId":999,"lotCode":"L1"}"#, 404, "productId"),
            ]
            for (uri, body, status, field) in refusals {
                let before = try await store.testOnly_dump()
                let reply = try await office.call(.post, uri, body.isEmpty ? nil : body)
                #expect(reply.status == status && reply.object["field"] as? String == field, "\(uri) \(body): \(reply.status) \(reply.text)")
                #expect(try await store.testOnly_dump() == before, "\(uri) \(body) wrote something")
            }
            #expect(try await office.call(.get, "/api/v1/stocktakes/999").status == 404)
            let cancelled = try await office.call(.post, "/api/v1/stocktakes/\(sheet.id)/cancel")
            #expect(cancelled.status == 200 && cancelled.object["status"] as? String == "cancelled", "\(cancelled.text)")
            let again = try await office.call(.post, "/api/v1/stocktakes/\(sheet.id)/counts", #"{"productId":\#(beans.id)}"#)
            #expect(again.status == 409 && again.object["field"] as? String == "status", "\(again.text)")
        }
    }

    @Test func anExpiredLotIsWrittenOffInOneTapAndOnlyOnce() async throws {
        let (app, store) = try makeApp()
        let manager = try await token(store, role: .manager)
        let yoghurt = try await store.createProduct(ProductDetails(name: "Yoghurt", salePrice: Money(minorUnits: 120)))
        _ = try await store.postPurchase(PurchaseDraft(effectiveAt: Instant(milliseconds: 1_767_268_800_000), lines: [
            .init(productID: yoghurt.id, quantity: Quantity(6), unitCost: Money(minorUnits: 40), lotCode: "L7", expiryDate: "2026-01-10")]))
        try await app.test(.router) { raw in
            let office = Caller(client: raw, token: manager)
            let body = #"{"productId":\#(yoghurt.id),"lotCode":"L7","expiryDate":"2026-01-10"}"#
            let done = try await office.call(.post, "/api/v1/adjustments/expired-lot", body)
            #expect(done.status == 201 && done.object["id"] is Int, "\(done.text)")
            #expect(try await store.product(yoghurt.id).stock.quantity == .zero)
            let before = try await store.testOnly_dump()
            let again = try await office.call(.post, "/api/v1/adjustments/expired-lot", body)
            #expect(again.status == 422 && again.object["field"] as? String == "lotCode", "\(again.text)")
            #expect(try await store.testOnly_dump() == before)
        }
    }

    @Test func aShelfIsAProductFieldAndAStocktakeScope() async throws {
        let (app, store) = try makeApp()
        let staff = try await token(store, role: .staff)
        let manager = try await token(store, role: .manager)
        try await app.test(.router) { raw in
            let office = Caller(client: raw, token: manager)
            let counter = Caller(client: raw, token: staff)
            let cola = try await office.call(.post, "/api/v1/products", #"{"name":"Cola","salePrice":"1.50","shelf":"  A3 "}"#)
            #expect(cola.status == 201 && cola.object["shelf"] as? String == "A3", "\(cola.text)")
            let colaID = try #require(cola.object["id"] as? Int)
            let water = try await office.call(.post, "/api/v1/products", #"{"name":"Water","salePrice":"1.00"}"#)
            #expect(water.status == 201 && water.object["shelf"] == nil, "absent when none: \(water.text)")
            let waterID = try #require(water.object["id"] as? Int)
            let patched = try await office.call(.patch, "/api/v1/products/\(waterID)", #"{"shelf":"a3"}"#)
            #expect(patched.object["shelf"] as? String == "a3", "\(patched.text)")
            // A replacement without the member keeps the shelf (an older client knows nothing of it); empty clears it.
            let kept = try await office.call(.put, "/api/v1/products/\(colaID)", #"{"name":"Cola","salePrice":"1.60"}"#)
            #expect(kept.object["shelf"] as? String == "A3", "\(kept.text)")
            let shelves = try await counter.call(.get, "/api/v1/products/shelves")
            #expect(shelves.status == 200 && shelves.array.count == 1 && shelves.array.first?["products"] as? Int == 2, "\(shelves.text)")
            // Too long: refused naming the field, nothing changed.
            let before = try await store.testOnly_dump()
            let long = try await office.call(.patch, "/api/v1/products/\(colaID)", #"{"shelf":"\#(String(repeating: "x", count: 41))"}"#)
            #expect(long.status == 422 && long.object["field"] as? String == "shelf", "\(long.text)")
            #expect(try await store.testOnly_dump() == before)

            let opened = try await office.call(.post, "/api/v1/stocktakes", #"{"scope":"shelf","shelf":"A3","note":"top shelf"}"#)
            #expect(opened.status == 201 && opened.object["scope"] as? String == "shelf" && opened.object["shelf"] as? String == "A3",
                    "\(opened.text)")
            #expect(opened.object["scopeName"] as? String == "Shelf A3")
            #expect((opened.object["lines"] as? [[String: Any]])?.map { $0["name"] as? String } == ["Cola", "Water"])
            let list = try await counter.call(.get, "/api/v1/stocktakes")
            #expect(list.array.first?["shelf"] as? String == "A3" && list.array.first?["categoryId"] == nil, "\(list.text)")

            let cleared = try await office.call(.put, "/api/v1/products/\(waterID)", #"{"name":"Water","salePrice":"1.00","shelf":""}"#)
            #expect(cleared.status == 200 && cleared.object["shelf"] == nil, "\(cleared.text)")
        }
    }
}
