import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import InventoryDomain
import Testing

/// Options at the till over HTTP (issue 12, point 6): a manager sets a product's groups, the till loads them all at
/// once, a sale line's options add to its price and come back on the sale, and a bad choice is refused naming it.
@Suite struct ModifierAPITests {
    @Test func optionsAreSetLoadedSoldAndRefusedByField() async throws {
        let (app, store) = try makeApp()
        let staff = try await token(store, role: .staff)
        let manager = try await token(store, role: .manager)
        let latte = try await store.createProduct(ProductDetails(name: "Latte", salePrice: Money(minorUnits: 310), taxRate: Percent(hundredths: 700),
                                                                 tracksStock: false))
        try await app.test(.router) { raw in
            let office = Caller(client: raw, token: manager), till = Caller(client: raw, token: staff)
            let groups = #"{"groups":[{"name":"Size","required":true,"options":[{"name":"Small","priceChange":"-0.30"},{"name":"Regular","isDefault":true},{"name":"Large","priceChange":"0.50"}]},"#
                + #"{"name":"Extras","multiple":true,"options":[{"name":"Extra shot","priceChange":"0.60"},{"name":"Syrup","priceChange":"0.40"}]}]}"#
            #expect(try await till.call(.put, "/api/v1/products/\(latte.id)/options", groups).status == 403)
            let set = try await office.call(.put, "/api/v1/products/\(latte.id)/options", groups)
            #expect(set.status == 200, "\(set.text)")
            let stored = set.object["groups"] as? [[String: Any]] ?? []
            let size = stored.first?["options"] as? [[String: Any]] ?? [], extras = stored.last?["options"] as? [[String: Any]] ?? []
            #expect(size.map { $0["priceChange"] as? String } == ["-0.30", "0.00", "0.50"] && size.map { $0["isDefault"] as? Bool } == [false, true, false])
            let large = try #require(size.last?["id"] as? Int), shot = try #require(extras.first?["id"] as? Int)

            let all = try await till.call(.get, "/api/v1/product-options")
            #expect(all.status == 200 && all.array.count == 1 && all.array.first?["productId"] as? Int == Int(latte.id.rawValue), "\(all.text)")
            #expect(try await till.call(.get, "/api/v1/products/\(latte.id)/options").object["groups"] as? [Any] != nil)

            let sold = try await till.call(.post, "/api/v1/sales", #"{"paymentMethod":"card","lines":[{"productId":\#(latte.id),"quantity":"1","options":[\#(shot),\#(large)]}]}"#)
            #expect(sold.status == 201, "\(sold.text)")
            let line = (sold.object["lines"] as? [[String: Any]])?.first
            #expect(line?["unitPrice"] as? String == "4.20", "\(sold.text)")   // 3.10 + 0.50 + 0.60
            #expect((line?["options"] as? [[String: Any]])?.map { $0["name"] as? String } == ["Large", "Extra shot"], "\(sold.text)")
            #expect(sold.object["total"] as? String == "4.49", "\(sold.text)")   // + 7 %

            let before = try await store.testOnly_dump()
            let twice = try await till.call(.post, "/api/v1/sales", #"{"paymentMethod":"card","lines":[{"productId":\#(latte.id),"quantity":"1","options":[\#(large),\#(large)]}]}"#)
            #expect(twice.status == 422 && twice.object["field"] as? String == "lines[0].options[1]", "\(twice.text)")
            let foreign = try await till.call(.post, "/api/v1/sales", #"{"paymentMethod":"card","lines":[{"productId":\#(latte.id),"quantity":"1","options":[999999]}]}"#)
            #expect(foreign.status == 422 && foreign.object["field"] as? String == "lines[0].options[0]", "\(foreign.text)")
            let badGroup = try await office.call(.put, "/api/v1/products/\(latte.id)/options", #"{"groups":[{"name":"Size","options":[]}]}"#)
            #expect(badGroup.status == 422 && badGroup.object["field"] as? String == "groups[0].options", "\(badGroup.text)")
            let badPrice = try await office.call(.put, "/api/v1/products/\(latte.id)/options", #"{"groups":[{"name":"Size","options":[{"name":"A","priceChange":"x"}]}]}"#)
            #expect(badPrice.status == 422 && badPrice.object["field"] as? String == "groups[0].options[0].priceChange", "\(badPrice.text)")
            #expect(try await store.testOnly_dump() == before, "refusals change nothing")
        }
    }
}
