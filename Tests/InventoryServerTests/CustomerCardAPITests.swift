import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import InventoryDomain
import Testing

/// `/api/v1/customers/card/{number}`, `…/{id}/card` and `…/{id}/standing` (issue 12, point 7), and a sale's visit number.
@Suite struct CustomerCardAPITests {
    @Test func aCardScannedAtTheTillFindsTheCustomer() async throws {
        let (app, store) = try makeApp()
        let staff = try await token(store, role: .staff)
        let ana = try await store.createCustomer(Contact(id: CustomerID(0), name: "Ana"))
        let tea = try await store.createProduct(ProductDetails(name: "Tea", salePrice: Money(minorUnits: 250), tracksStock: false))
        try await app.test(.router) { raw in
            let till = Caller(client: raw, token: staff)
            let bad = try await till.call(.put, "/api/v1/customers/\(ana.id)/card", #"{"cardNumber":"x y"}"#)
            #expect(bad.status == 422 && bad.object["field"] as? String == "cardNumber", "\(bad.text)")
            let given = try await till.call(.put, "/api/v1/customers/\(ana.id)/card", #"{"cardNumber":"LC-7001"}"#)
            #expect(given.status == 200 && given.object["cardNumber"] as? String == "LC-7001" && given.object["visits"] as? Int == 0, "\(given.text)")
            #expect(try await till.call(.get, "/api/v1/customers/card/NOPE-1").status == 404)
            #expect(try await till.call(.delete, "/api/v1/customers/\(ana.id)/card").status == 403, "taking a card away is a manager's")
            let sale = try await till.call(.post, "/api/v1/sales", #"{"customerId":\#(ana.id),"lines":[{"productId":\#(tea.id),"quantity":"2"}]}"#)
            #expect(sale.object["customerVisit"] as? Int == 1 && sale.object["customerMilestone"] == nil, "\(sale.text)")
            let found = try await till.call(.get, "/api/v1/customers/card/LC-7001")
            #expect(found.object["customerId"] as? Int == Int(ana.id.rawValue) && found.object["visits"] as? Int == 1 && found.object["spend"] as? String == "5.00")
            #expect(found.object["nextMilestone"] as? Int == 5)
            #expect(try await till.call(.get, "/api/v1/customers/\(ana.id)/standing").object["visits"] as? Int == 1)
        }
    }
}
