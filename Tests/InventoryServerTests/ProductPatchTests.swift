import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import InventoryDomain
import InventoryServer
import InventoryStore
import Testing

/// `PATCH /api/v1/products/{id}` (JSON merge patch, RFC 7396): only the fields sent change, `null` clears, unknown
/// fields and rule-breaking results are refused and change nothing. (Issue 10, defect 1: the purchase form's
/// `PUT {name, salePrice}` wiped the product's barcode, SKU, category, minimum price and threshold.)
@Suite struct ProductPatchTests {
    /// A product with every optional field set.
    static func fullProduct(_ store: InventorySQLiteRepository) async throws -> Product {
        let category = try await store.createCategory(Category(id: CategoryID(0), name: "Coffee", color: "#92400e"))
        return try await store.createProduct(ProductDetails(
            name: "Espresso beans", sku: "ESP-1", barcode: "4006381333931", categoryID: category.id, unit: "bag",
            salePrice: Money(minorUnits: 400), minimumSalePrice: Money(minorUnits: 300), taxRate: Percent(hundredths: 700),
            lowStockThreshold: Quantity(5), iconEmoji: "☕"))
    }

    static func patch(_ client: some TestClientProtocol, _ id: ProductID, _ body: String, token: String,
                      contentType: String = "application/merge-patch+json") async throws -> Reply {
        try await client.execute(uri: "/api/v1/products/\(id)", method: .patch,
                                 headers: [.contentType: contentType, .authorization: "Bearer \(token)"],
                                 body: ByteBuffer(string: body)) { response in
            Reply(status: Int(response.status.code), text: String(buffer: response.body), contentType: response.headers[.contentType])
        }
    }

    @Test func aPatchChangesOnlyTheFieldsItNames() async throws {
        let (app, store) = try makeApp()
        let manager = try await token(store, role: .manager)
        let product = try await Self.fullProduct(store)
        try await app.test(.router) { client in
            let reply = try await Self.patch(client, product.id, #"{"salePrice":"4.50"}"#, token: manager)
            #expect(reply.status == 200, "\(reply.text)")
            #expect(reply.object["salePrice"] as? String == "4.50")
            var expected = product.details
            expected.salePrice = Money(minorUnits: 450)
            #expect(try await store.product(product.id).details == expected)
            // Plain JSON is a merge patch too.
            let json = try await Self.patch(client, product.id, #"{"name":"Espresso","archived":true}"#, token: manager, contentType: "application/json")
            #expect(json.status == 200, "\(json.text)")
            expected.name = "Espresso"
            expected.isArchived = true
            #expect(try await store.product(product.id).details == expected)
            // An empty patch changes nothing.
            #expect(try await Self.patch(client, product.id, "{}", token: manager).status == 200)
            #expect(try await store.product(product.id).details == expected)
        }
    }

    @Test func nullClearsAnOptionalField() async throws {
        let (app, store) = try makeApp()
        let manager = try await token(store, role: .manager)
        let product = try await Self.fullProduct(store)
        try await app.test(.router) { client in
            let reply = try await Self.patch(
                client, product.id, #"{"barcode":null,"sku":null,"categoryId":null,"minimumSalePrice":null,"lowStockThreshold":null}"#, token: manager)
            #expect(reply.status == 200, "\(reply.text)")
            #expect(reply.object["barcode"] == nil && reply.object["sku"] == nil && reply.object["categoryId"] == nil)
            var expected = product.details
            (expected.barcode, expected.sku, expected.categoryID, expected.minimumSalePrice, expected.lowStockThreshold) = (nil, nil, nil, nil, nil)
            #expect(try await store.product(product.id).details == expected)
            // A cleared icon is the name's icon again.
            _ = try await Self.patch(client, product.id, #"{"iconEmoji":null}"#, token: manager)
            #expect(try await store.product(product.id).details.iconEmoji == ProductIcon.emoji(for: "Espresso beans"))
        }
    }

    @Test func refusedPatchesChangeNothing() async throws {
        let (app, store) = try makeApp()
        let manager = try await token(store, role: .manager)
        let staff = try await token(store, role: .staff)
        let product = try await Self.fullProduct(store)
        _ = try await store.createProduct(ProductDetails(name: "Tea", barcode: "5901234123457"))
        let before = try await store.testOnly_dump()
        try await app.test(.router) { client in
            let cases: [(String, Int?, String?)] = [
                (#"{"salePrice":"4.50","colour":"red"}"#, 400, "colour"),             // unknown field
                (#"{"salePrice":"2.00"}"#, 422, "minimumSalePrice"),                    // below the kept minimum price
                (#"{"name":null}"#, 422, "name"),                                       // a name cannot be cleared
                (#"{"name":"  "}"#, 422, "name"),
                (#"{"salePrice":null}"#, 422, "salePrice"),
                (#"{"tracksStock":null}"#, 422, "tracksStock"),
                (#"{"salePrice":"lots"}"#, 422, "salePrice"),
                (#"{"salePrice":4.5}"#, 400, "salePrice"),
                (#"{"barcode":"5901234123457"}"#, 409, "barcode"),                      // another product's barcode
                (#"{"taxRate":"101"}"#, 422, "taxRate"),
                (#"{"categoryId":999}"#, nil, nil),
                (#"["salePrice"]"#, 400, nil),
            ]
            for (body, status, field) in cases {
                let reply = try await Self.patch(client, product.id, body, token: manager)
                if let status { #expect(reply.status == status, "\(body): \(reply.text)") } else { #expect(reply.status >= 400, "\(body): \(reply.text)") }
                if let field { #expect(reply.object["field"] as? String == field, "\(body): \(reply.text)") }
            }
            let plain = try await Self.patch(client, product.id, #"{"salePrice":"4.50"}"#, token: manager, contentType: "text/plain")
            #expect(plain.status == 415)
            let forbidden = try await Self.patch(client, product.id, #"{"salePrice":"4.50"}"#, token: staff)
            #expect(forbidden.status == 403)
            let missing = try await Self.patch(client, ProductID(999), #"{"salePrice":"4.50"}"#, token: manager)
            #expect(missing.status == 404)
        }
        #expect(try await store.testOnly_dump() == before)
    }
}
