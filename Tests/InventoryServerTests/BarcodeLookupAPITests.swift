import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import InventoryDomain
@testable import InventoryServer
import InventoryStore
import Testing

/// The barcode rule is the domain's (issue 10): the look-up refuses a code that cannot be a barcode with the domain's
/// reason, so the web app's screens (which each checked check digits their own way, with three length limits) ask
/// the server instead.
@Suite struct BarcodeLookupAPITests {
    @Test func aBarcodeLookUpRefusesACodeThatCannotBeOneWithTheDomainsReason() async throws {
        let (app, store) = try makeApp()
        let staff = try await token(store, role: .staff)
        _ = try await store.createProduct(ProductDetails(name: "Cola", barcode: try Barcode.normalize("042100005264"), salePrice: Money(minorUnits: 150)))
        try await app.test(.router) { raw in
            let client = Caller(client: raw, token: staff)
            // A wrong check digit: the reason saving it on a product would give.
            let wrong = try await client.call(.get, "/api/v1/products/barcode/4006381333932")
            #expect(wrong.status == 422 && wrong.object["field"] as? String == "code", "\(wrong.text)")
            #expect((wrong.object["detail"] as? String)?.contains("check digit should be 1") == true, "\(wrong.text)")
            // The same product as UPC-A, UPC-E and EAN-13.
            for code in ["042100005264", "04252614", "0042100005264"] {
                #expect(try await client.call(.get, "/api/v1/products/barcode/\(code)").object["name"] as? String == "Cola", "\(code)")
            }
            // Not barcodes of a GTIN kind (14 digits without a leading zero, 10 digits, text): looked up as they are.
            for code in ["12345678901234", "1234567890", "SHELF-12"] {
                #expect(try await client.call(.get, "/api/v1/products/barcode/\(code)").status == 404, "\(code)")
            }
        }
    }
}
