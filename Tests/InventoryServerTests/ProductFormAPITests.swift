import Foundation
import HTTPTypes
import HummingbirdTesting
import InventoryDomain
import InventoryServer
import InventoryStore
import Testing

/// Products as the iOS app knew them (issue 14, point 5): an opening stock booked with a new product, and the price
/// figures its form shows before it is saved.
@Suite struct ProductFormAPITests {
    @Test func aNewProductsOpeningStockIsBookedAsItsOpeningBalance() async throws {
        let (app, store) = try makeApp()
        let manager = try await token(store, role: .manager)
        try await app.test(.router) { raw in
            let client = Caller(client: raw, token: manager)
            let created = try await client.call(.post, "/api/v1/products",
                #"{"name":"Blue mug","salePrice":"9.00","openingStock":{"quantity":"12","unitCost":"3.50"}}"#)
            #expect(created.status == 201, "\(created.text)")
            #expect(created.object["quantity"] as? String == "12")
            #expect(created.object["averageCost"] as? String == "3.50")
            #expect(created.object["stockValue"] as? String == "42.00")
            let id = try #require(created.object["id"] as? Int)
            let movements = try await client.call(.get, "/api/v1/products/\(id)/movements").array
            #expect(movements.count == 1)
            #expect(movements.first?["kind"] as? String == "adjustment")
            #expect(movements.first?["reason"] as? String == "initial")
            #expect(movements.first?["unitCost"] as? String == "3.50")
            // Audited as two activities of one write: the product and its opening stock.
            let audit = try await store.auditLog(limit: 10, offset: 0).map(\.action)
            #expect(audit.contains("productCreated") && audit.contains("adjustmentRecorded"), "\(audit)")

            // Without openingStock a product starts with nothing, as before.
            let plain = try await client.call(.post, "/api/v1/products", #"{"name":"Green mug"}"#)
            #expect(plain.status == 201 && plain.object["quantity"] as? String == "0")
        }
    }

    @Test(arguments: [
        (#"{"name":"Mug","openingStock":{"quantity":"-2","unitCost":"1.00"}}"#, 422, "openingStock.quantity"),
        (#"{"name":"Mug","openingStock":{"quantity":"0","unitCost":"1.00"}}"#, 422, "openingStock.quantity"),
        (#"{"name":"Mug","openingStock":{"unitCost":"1.00"}}"#, 422, "openingStock.quantity"),
        (#"{"name":"Mug","openingStock":{"quantity":"2"}}"#, 422, "openingStock.unitCost"),
        (#"{"name":"Mug","openingStock":{"quantity":"2","unitCost":"-1.00"}}"#, 422, "openingStock.unitCost"),
        (#"{"name":"Mug","openingStock":{"quantity":"2","unitCost":"abc"}}"#, 422, "openingStock.unitCost"),
        (#"{"name":"Mug","openingStock":{"quantity":"2000000","unitCost":"1.00"}}"#, 422, "openingStock.quantity"),
        (#"{"name":"Mug","tracksStock":false,"openingStock":{"quantity":"2","unitCost":"1.00"}}"#, 422, "openingStock"),
        (#"{"name":"","openingStock":{"quantity":"2","unitCost":"1.00"}}"#, 422, "name"),
        (#"{"name":"Mug","openingStock":{"quantity":"2","unitCost":"1.00","lot":"A"}}"#, 400, "openingStock.lot"),
    ])
    func badOpeningStockIsRefusedNamingTheFieldAndCreatesNothing(body: String, status: Int, field: String) async throws {
        let (app, store) = try makeApp()
        let manager = try await token(store, role: .manager)
        try await app.test(.router) { raw in
            let client = Caller(client: raw, token: manager)
            let audited = try await store.auditLog(limit: 100, offset: 0).count
            let refused = try await client.call(.post, "/api/v1/products", body)
            #expect(refused.status == status, "\(body): \(refused.text)")
            #expect(refused.object["field"] as? String == field, "\(body): \(refused.text)")
            #expect(try await store.products(ProductQuery()).total == 0)
            #expect(try await store.auditLog(limit: 100, offset: 0).count == audited)
        }
    }

    @Test func replacingAProductRefusesAnOpeningStock() async throws {
        let (app, store) = try makeApp()
        let manager = try await token(store, role: .manager)
        let mug = try await store.createProduct(ProductDetails(name: "Mug"))
        try await app.test(.router) { raw in
            let client = Caller(client: raw, token: manager)
            let refused = try await client.call(.put, "/api/v1/products/\(mug.id)", #"{"name":"Mug","openingStock":{"quantity":"2","unitCost":"1.00"}}"#)
            #expect(refused.status == 400 && refused.object["field"] as? String == "openingStock", "\(refused.text)")
            #expect(try await store.movements(productID: mug.id).isEmpty)
        }
    }

    @Test func thePricePreviewIsTheDomainsFigures() async throws {
        let (app, store) = try makeApp()
        let manager = try await token(store, role: .manager)
        let staff = try await token(store, role: .staff)
        let cups = try await store.createCategory(Category(id: CategoryID(0), name: "Cups", markup: Percent(hundredths: 80_00)))
        try await app.test(.router) { raw in
            let client = Caller(client: raw, token: manager)
            // Prices before tax (the default): the tax is added.
            let net = try await client.call(.get, "/api/v1/products/price-preview?salePrice=10.00&taxRate=19&cost=2.50&categoryId=\(cups.id)")
            #expect(net.status == 200, "\(net.text)")
            #expect(net.object["pricesIncludeTax"] as? Bool == false)
            #expect(net.object["markup"] as? String == "80")
            #expect(net.object["suggestedSalePrice"] as? String == "4.50")
            #expect(net.object["netPrice"] as? String == "10.00")
            #expect(net.object["tax"] as? String == "1.90")
            #expect(net.object["finalPrice"] as? String == "11.90")
            // Nothing but a price: no suggestion, the shop's default tax rate.
            let bare = try await client.call(.get, "/api/v1/products/price-preview?salePrice=5")
            #expect(bare.status == 200 && bare.object["suggestedSalePrice"] == nil && bare.object["finalPrice"] != nil, "\(bare.text)")

            // Prices including tax: the tax is taken out of the price, and the suggestion has it added.
            var settings = try await store.settings()
            settings.pricesIncludeTax = true
            try await store.saveSettings(settings)
            let gross = try await client.call(.get, "/api/v1/products/price-preview?salePrice=3.10&taxRate=7&cost=2.00&categoryId=\(cups.id)")
            #expect(gross.object["pricesIncludeTax"] as? Bool == true)
            #expect(gross.object["netPrice"] as? String == "2.90")
            #expect(gross.object["tax"] as? String == "0.20")
            #expect(gross.object["finalPrice"] as? String == "3.10")
            #expect(gross.object["suggestedSalePrice"] as? String == "3.85")  // 2.00 + 80 % = 3.60, + 7 % tax

            // Staff may not call it (it is the product form's).
            #expect(try await raw.call(.get, "/api/v1/products/price-preview?salePrice=1", token: staff).status == 403)
        }
    }

    @Test(arguments: [
        ("salePrice=-1", "salePrice"), ("salePrice=abc", "salePrice"), ("taxRate=101", "taxRate"), ("taxRate=x", "taxRate"),
        ("cost=-2", "cost"), ("cost=1.234", "cost"), ("categoryId=abc", "categoryId"), ("categoryId=999", "categoryId"),
    ])
    func badPricePreviewParametersAreRefusedNamingThem(query: String, field: String) async throws {
        let (app, store) = try makeApp()
        let manager = try await token(store, role: .manager)
        try await app.test(.router) { raw in
            let reply = try await raw.call(.get, "/api/v1/products/price-preview?\(query)", token: manager)
            #expect([404, 422].contains(reply.status), "\(query): \(reply.text)")
            #expect(reply.object["field"] as? String == field, "\(query): \(reply.text)")
        }
    }

    @Test func aDescriptionIsSavedReplacedPatchedAndRefusedWhenTooLong() async throws {
        let (app, store) = try makeApp()
        let manager = try await token(store, role: .manager)
        try await app.test(.router) { raw in
            let client = Caller(client: raw, token: manager)
            let created = try await client.call(.post, "/api/v1/products", #"{"name":"Mug","description":" Stoneware, 300 ml "}"#)
            #expect(created.status == 201 && created.object["description"] as? String == "Stoneware, 300 ml", "\(created.text)")
            let id = try #require(created.object["id"] as? Int)
            // A replacement that leaves it out keeps it (as older clients send no description).
            let replaced = try await client.call(.put, "/api/v1/products/\(id)", #"{"name":"Blue mug"}"#)
            #expect(replaced.object["description"] as? String == "Stoneware, 300 ml", "\(replaced.text)")
            let patched = try await client.call(.patch, "/api/v1/products/\(id)", #"{"description":null}"#)
            #expect(patched.status == 200 && patched.object["description"] as? String == "", "\(patched.text)")
            let listed = try await client.call(.get, "/api/v1/products").object["items"] as? [[String: Any]]
            #expect(listed?.first?["description"] as? String == "")

            let long = String(repeating: "x", count: 2001)
            let before = try await store.product(ProductID(Int64(id)))
            for (method, uri, body) in [(HTTPRequest.Method.post, "/api/v1/products", #"{"name":"Cup","description":"\#(long)"}"#),
                                        (.put, "/api/v1/products/\(id)", #"{"name":"Mug","description":"\#(long)"}"#),
                                        (.patch, "/api/v1/products/\(id)", #"{"description":"\#(long)"}"#)] {
                let refused = try await client.call(method, uri, body)
                #expect(refused.status == 422 && refused.object["field"] as? String == "description", "\(method) \(refused.text)")
            }
            #expect(try await store.products(ProductQuery()).total == 1)
            #expect(try await store.product(ProductID(Int64(id))) == before)
        }
    }
}
