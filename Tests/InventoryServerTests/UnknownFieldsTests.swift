import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import InventoryDomain
@testable import InventoryServer
import InventoryStore
import Testing

/// Every JSON body refuses a member it does not know (`KnownFields`), at the top and in nested objects, with a 400
/// naming its path — a misspelt field is never silently ignored — and nothing is written.
@Suite struct UnknownFieldsTests {
    @Test func everyBodyRefusesAMemberItDoesNotKnow() async throws {
        let (app, store) = try makeApp()
        let admin = try await token(store, role: .admin)
        let product = try await store.createProduct(ProductDetails(name: "Sticker", salePrice: Money(minorUnits: 50)))
        let adminID = try #require(try await store.users().first?.id)
        let line = #"{"productId":\#(product.id),"quantity":"1","unitCost":"1.00"}"#
        let cases: [(HTTPRequest.Method, String, String, String)] = [
            (.post, "/api/v1/categories", #"{"name":"Tea","colour":"red"}"#, "colour"),
            (.post, "/api/v1/suppliers", #"{"name":"Roastery","fax":"1"}"#, "fax"),
            (.post, "/api/v1/customers", #"{"name":"Ada","fax":"1"}"#, "fax"),
            (.post, "/api/v1/products", #"{"name":"Mug","colour":"red"}"#, "colour"),
            (.put, "/api/v1/products/\(product.id)", #"{"name":"Mug","colour":"red"}"#, "colour"),
            (.patch, "/api/v1/products/\(product.id)", #"{"colour":"red"}"#, "colour"),
            (.patch, "/api/v1/products/\(product.id)", #"{"salePrice":null,"barcode":"x","colour":null}"#, "colour"),
            (.put, "/api/v1/settings", #"{"shopName":"S","currency":"EUR","timeZone":"UTC","defaultTaxRate":"0","lowStockDefault":"0","lockMinutes":5,"x":1}"#, "x"),
            (.post, "/api/v1/purchases", #"{"lines":[\#(line)],"vendor":"x"}"#, "vendor"),
            (.post, "/api/v1/purchases", #"{"lines":[\#(line),{"productId":\#(product.id),"quantity":"1","unitCost":"1.00","price":"2"}]}"#, "lines[1].price"),
            (.post, "/api/v1/purchases", #"{"lines":[{"newProduct":{"name":"Mug","colour":"red"},"quantity":"1","unitCost":"1.00"}]}"#, "lines[0].newProduct.colour"),
            (.post, "/api/v1/sales", #"{"lines":[{"productId":\#(product.id),"quantity":"1","rebate":"1"}]}"#, "lines[0].rebate"),
            (.post, "/api/v1/sales", #"{"lines":[],"waiter":"x"}"#, "waiter"),
            (.post, "/api/v1/returns/customer", #"{"saleId":1,"lines":[{"saleLineId":1,"quantity":"1","why":"x"}]}"#, "lines[0].why"),
            (.post, "/api/v1/returns/supplier", #"{"lines":[{"productId":\#(product.id),"quantity":"1"}],"why":"x"}"#, "why"),
            (.post, "/api/v1/adjustments", #"{"productId":\#(product.id),"quantityChange":"1","reason":"correction","why":"x"}"#, "why"),
            (.post, "/api/v1/tokens", #"{"name":"t","scope":"all"}"#, "scope"),
            (.post, "/api/v1/users", #"{"username":"ada","password":"long-enough-1","email":"a@b"}"#, "email"),
            (.put, "/api/v1/users/\(adminID)", #"{"displayName":"Ada","email":"a@b"}"#, "email"),
            (.post, "/api/v1/auth/login", #"{"username":"ada","password":"x","remember":true}"#, "remember"),
            (.post, "/api/v1/auth/setup", #"{"username":"ada","password":"long-enough-1","email":"a@b"}"#, "email"),
        ]
        try await app.test(.router) { raw in
            let client = Caller(client: raw, token: admin)
            let before = try await store.testOnly_dump()
            for (method, path, body, field) in cases {
                let reply = try await client.call(method, path, body)
                #expect(reply.status == 400, "\(method) \(path): \(reply.status) \(reply.text)")
                #expect(reply.object["code"] as? String == "invalidValue", "\(method) \(path): \(reply.text)")
                #expect(reply.object["field"] as? String == field, "\(method) \(path): \(reply.text)")
            }
            // A product's merge patch sent as what it is (`application/merge-patch+json`) is checked the same way.
            let patch = try await raw.execute(uri: "/api/v1/products/\(product.id)", method: .patch,
                                              headers: [.contentType: "application/merge-patch+json", .authorization: "Bearer \(admin)"],
                                              body: ByteBuffer(string: #"{"name":"Mug","colour":"red"}"#)) { response in
                Reply(status: Int(response.status.code), text: String(buffer: response.body), contentType: response.headers[.contentType])
            }
            #expect(patch.status == 400, "\(patch.text)")
            #expect(patch.object["code"] as? String == "invalidValue", "\(patch.text)")
            #expect(patch.object["field"] as? String == "colour", "\(patch.text)")
            #expect(try await store.testOnly_dump() == before, "a refused body wrote something")
        }
    }
}
