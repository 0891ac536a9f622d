import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import InventoryDomain
import Testing

/// `/api/v1/tabs` (issue 12, point 9): staff park a sale under a name, another till lists and picks it up once, and
/// bad tabs are refused naming the field with nothing stored.
@Suite struct TabAPITests {
    @Test func parkListPickUpOnceAndCharge() async throws {
        let (app, store) = try makeApp()
        let staff = try await token(store, role: .staff)
        let tea = try await store.createProduct(ProductDetails(name: "Tea", salePrice: Money(minorUnits: 200), tracksStock: false))
        try await app.test(.router) { raw in
            let till = Caller(client: raw, token: staff)
            let parked = try await till.call(.post, "/api/v1/tabs", #"{"label":"Table 4","note":"window","lines":[{"productId":\#(tea.id),"quantity":"2","discountPercent":"10"}]}"#)
            #expect(parked.status == 201, "\(parked.text)")
            #expect(parked.object["label"] as? String == "Table 4" && parked.object["parkedBy"] as? String != "")
            let id = try #require(parked.object["id"] as? Int)
            #expect(try await till.call(.get, "/api/v1/tabs").array.map { $0["id"] as? Int } == [id])
            #expect(try await till.call(.get, "/api/v1/sales").array.isEmpty, "a tab books nothing")
            let picked = try await till.call(.post, "/api/v1/tabs/\(id)/pickup")
            #expect(picked.status == 200, "\(picked.text)")
            let lines = picked.object["lines"] as? [[String: Any]] ?? []
            #expect(lines.first?["discountPercent"] as? String == "10" && lines.first?["quantity"] as? String == "2")
            let again = try await till.call(.post, "/api/v1/tabs/\(id)/pickup")
            #expect(again.status == 404 && again.object["field"] as? String == "id", "\(again.text)")
            #expect(try await till.call(.get, "/api/v1/tabs").array.isEmpty)

            // Refusals name the field; nothing is parked.
            let unnamed = try await till.call(.post, "/api/v1/tabs", #"{"label":" ","lines":[{"productId":\#(tea.id),"quantity":"1"}]}"#)
            #expect(unnamed.status == 422 && unnamed.object["field"] as? String == "label", "\(unnamed.text)")
            let unknownProduct = try await till.call(.post, "/api/v1/tabs", #"{"label":"T","lines":[{"productId":999,"quantity":"1"}]}"#)
            #expect(unknownProduct.status == 404 && unknownProduct.object["field"] as? String == "lines[0].productId", "\(unknownProduct.text)")
            let badQuantity = try await till.call(.post, "/api/v1/tabs", #"{"label":"T","lines":[{"productId":\#(tea.id),"quantity":"-1"}]}"#)
            #expect(badQuantity.status == 422 && badQuantity.object["field"] as? String == "lines[0].quantity", "\(badQuantity.text)")
            let unknownField = try await till.call(.post, "/api/v1/tabs", #"{"label":"T","table":4,"lines":[{"productId":\#(tea.id),"quantity":"1"}]}"#)
            #expect(unknownField.status == 400, "\(unknownField.text)")
            #expect(try await store.parkedSales().isEmpty)
        }
    }
}
