import ChildProcess
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import InventoryDomain
import Testing

/// Issue 11, point 3: a scan answers an EAN/UPC code's EAN-2/EAN-5 add-on in its own field, and the product is found by
/// the main code alone.
@Suite struct BarcodeAddOnAPITests {
    static let zint: String? = ["/usr/bin/zint", "/usr/local/bin/zint"].first { FileManager.default.isExecutableFile(atPath: $0) }

    @Test(.enabled(if: Self.zint != nil, "zint is installed by scripts/test.sh"))
    func aScanAnswersTheAddOnBesideTheMainCode() async throws {
        let (app, store) = try makeApp()
        let staff = try await token(store, role: .staff)
        let magazine = try await store.createProduct(ProductDetails(name: "Magazine", barcode: "4006381333931", salePrice: Money(minorUnits: 590)))
        let png = FileManager.default.temporaryDirectory.appendingPathComponent("addon-\(UUID().uuidString).png")
        defer { try? FileManager.default.removeItem(at: png) }
        let zint = try ChildProcess.run(try #require(Self.zint), ["-b", "13", "-d", "400638133393+51234", "--quietzones", "--scale", "3", "-o", png.path])
        #expect(zint.status == 0, "\(zint.errors)")
        let bytes = try [UInt8](Data(contentsOf: png))
        try await app.test(.router) { raw in
            let reply = try await Caller(client: raw, token: staff).call(.post, "/api/v1/barcodes/decode", nil, raw: bytes)
            #expect(reply.status == 200, "\(reply.text)")
            let code = try #require((reply.object["barcodes"] as? [[String: Any]])?.first, "\(reply.text)")
            #expect(code["text"] as? String == "4006381333931")
            #expect(code["addOn"] as? String == "51234")
            #expect(code["gs1"] as? Bool == false)
            #expect((code["product"] as? [String: Any])?["id"] as? Int == Int(magazine.id.rawValue))
        }
    }
}
