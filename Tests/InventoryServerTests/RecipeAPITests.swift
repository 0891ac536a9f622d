import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import InventoryDomain
import Testing

/// Recipes over HTTP (issue 12, point 6): a manager sets one, a sale of the recipe product issues the ingredients, bad
/// recipes are refused naming the field with nothing changed.
@Suite struct RecipeAPITests {
    @Test func aRecipeIsSetSoldAndRefusedByField() async throws {
        let (app, store) = try makeApp()
        let staff = try await token(store, role: .staff)
        let manager = try await token(store, role: .manager)
        let beans = try await store.createProduct(ProductDetails(name: "Beans", unit: "kg", salePrice: Money(minorUnits: 3000)))
        let latte = try await store.createProduct(ProductDetails(name: "Latte", salePrice: Money(minorUnits: 350), tracksStock: false))
        _ = try await store.postPurchase(PurchaseDraft(effectiveAt: Instant(milliseconds: 1_767_225_600_000),
                                                       lines: [.init(productID: beans.id, quantity: Quantity(1), unitCost: Money(minorUnits: 2000))]))
        try await app.test(.router) { raw in
            let office = Caller(client: raw, token: manager), till = Caller(client: raw, token: staff)
            let body = #"{"components":[{"productId":\#(beans.id),"quantity":"0.018"}]}"#
            #expect(try await till.call(.put, "/api/v1/products/\(latte.id)/recipe", body).status == 403)
            let set = try await office.call(.put, "/api/v1/products/\(latte.id)/recipe", body)
            #expect(set.status == 200 && (set.object["components"] as? [[String: Any]])?.first?["unit"] as? String == "kg", "\(set.text)")
            #expect((try await till.call(.get, "/api/v1/products/\(latte.id)/recipe").object["components"] as? [Any])?.count == 1)

            let sold = try await till.call(.post, "/api/v1/sales", #"{"paymentMethod":"card","lines":[{"productId":\#(latte.id),"quantity":"5"}]}"#)
            #expect(sold.status == 201 && sold.object["costOfGoodsSold"] == nil, "\(sold.text)")   // staff are not told costs
            let booked = try await office.call(.get, "/api/v1/sales/\(sold.object["id"] as? Int ?? 0)")
            #expect(booked.object["costOfGoodsSold"] as? String == "1.80", "\(booked.text)")   // 0.09 kg × 20.00
            let history = try await till.call(.get, "/api/v1/products/\(beans.id)/movements")
            #expect(history.array.map { $0["kind"] as? String } == ["purchase", "consumption"], "\(history.text)")

            let before = try await store.testOnly_dump()
            let itself = try await office.call(.put, "/api/v1/products/\(latte.id)/recipe", #"{"components":[{"productId":\#(latte.id),"quantity":"1"}]}"#)
            #expect(itself.status == 422 && itself.object["field"] as? String == "components[0].productId", "\(itself.text)")
            let zero = try await office.call(.put, "/api/v1/products/\(latte.id)/recipe", #"{"components":[{"productId":\#(beans.id),"quantity":"0"}]}"#)
            #expect(zero.status == 422 && zero.object["field"] as? String == "components[0].quantity", "\(zero.text)")
            let tracked = try await office.call(.put, "/api/v1/products/\(beans.id)/recipe", #"{"components":[{"productId":\#(latte.id),"quantity":"1"}]}"#)
            #expect(tracked.status == 422 && tracked.object["field"] as? String == "components", "\(tracked.text)")
            #expect(try await store.testOnly_dump() == before, "refusals change nothing")
        }
    }
}
