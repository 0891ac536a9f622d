import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import InventoryDomain
@testable import InventoryServer
import Testing

/// The receipt logo (issue 12, point 8): set by who manages settings, checked and cleaned as pictures are, served to
/// anyone signed in, removable; a refusal changes nothing.
@Suite struct LogoAPITests {
    @Test func theLogoIsSetServedRefusedAndRemoved() async throws {
        let (app, store) = try makeApp()
        let admin = try await token(store, role: .admin)
        let staff = try await token(store, role: .staff)
        let png = try HostilePictures.png()
        try await app.test(.router) { raw in
            let office = Caller(client: raw, token: admin), till = Caller(client: raw, token: staff)
            #expect(try await till.call(.get, "/api/v1/settings/logo").status == 404)
            #expect(try await till.call(.put, "/api/v1/settings/logo", raw: png).status == 403)

            let before = try await store.testOnly_dump()
            let text = try await office.call(.put, "/api/v1/settings/logo", raw: Array("not a picture".utf8))
            #expect(text.status == 422 && text.object["field"] as? String == "body", "\(text.text)")
            let big = try await office.call(.put, "/api/v1/settings/logo", raw: png + [UInt8](repeating: 0, count: ShopLogo.maxBytes))
            #expect(big.status == 413 && big.object["field"] as? String == "body", "\(big.text)")
            let bomb = try await office.call(.put, "/api/v1/settings/logo", raw: try HostilePictures.pngBomb())
            #expect(bomb.status == 422, "\(bomb.text)")
            #expect(try await store.testOnly_dump() == before, "refusals change nothing")

            let set = try await office.call(.put, "/api/v1/settings/logo", raw: png)
            #expect(set.status == 200, "\(set.text)")
            let url = try #require(set.object["url"] as? String)
            #expect(url.hasPrefix("/api/v1/settings/logo?v=") && (set.object["width"] as? Int ?? 0) > 0)
            let served = try await till.call(.get, url)
            #expect(served.status == 200 && served.contentType == "image/png")
            let stored = try #require(try await store.shopLogo())
            #expect(stored.contentType == "image/png" && !stored.bytes.isEmpty && stored.bytes.count <= png.count)
            #expect(try await store.shopLogoVersion() == stored.version)

            #expect(try await office.call(.delete, "/api/v1/settings/logo").status == 204)
            #expect(try await till.call(.get, "/api/v1/settings/logo").status == 404)
            #expect(try await store.shopLogo() == nil)
        }
    }
}
