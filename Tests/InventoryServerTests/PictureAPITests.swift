import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import InventoryDomain
@testable import InventoryServer
import InventoryStore
import Testing
import ZIPFoundation

/// Issue 10, defect 9: every picture is kept (the first is the main one), through the v1 API and the iOS client's
/// `/api/public/add`; a picture no product shows any more is deleted after the change; picture URLs for the iOS client
/// come from the configured public address (https under TLS).
@Suite struct PictureAPITests {
    let boundary = "alamofire.boundary.5f4bd8b1c2a3e9d7"

    /// Distinct real pictures from the shared corpus.
    static func picture(_ index: Int) throws -> [UInt8] {
        try sharedImage(["synthetic/ean13-synth/021_small.png", "synthetic/ean13-synth/022_small.png",
                         "synthetic/ean13-synth/023_small.png", "synthetic/ean13-synth/024_small.png",
                         "synthetic/ean13-synth/019_jpeg.jpg", "synthetic/ean13-synth/026_combo.jpg"][index])
    }

    /// The pictures' names on a reply (`pictures[].imageRef`).
    static func names(_ reply: Reply) -> [String] {
        (reply.object["pictures"] as? [[String: Any]] ?? []).compactMap { $0["imageRef"] as? String }
    }

    static func files(_ folder: String) -> Set<String> { Set(HostilePictures.files(folder)) }

    /// Expects the reply to have the shape the API document gives `key` ("METHOD /path/{param}") for its status.
    static func expectDocumented(_ reply: Reply, _ key: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let document = try OpenAPITests.document()
        let responses = try #require(OpenAPITests.operations(document)[key]?["responses"] as? [String: Any], "\(key) is not documented",
                                     sourceLocation: sourceLocation)
        let response = OpenAPITests.deref(responses[String(reply.status)] ?? responses["\(reply.status / 100)XX"] as Any, in: document) as? [String: Any]
        #expect(response != nil, "\(key) answered \(reply.status), which is not documented", sourceLocation: sourceLocation)
        let mediaType = reply.contentType?.split(separator: ";").first.map(String.init) ?? ""
        if let schema = ((response?["content"] as? [String: Any])?[mediaType] as? [String: Any])?["schema"] {
            let json = try JSONDecoder().decode(JSONValue.self, from: Data(reply.text.utf8))
            let errors = OpenAPITests.validate(json, against: schema, in: document, at: "")
            #expect(errors.isEmpty, "\(key) → \(reply.status): \(errors.prefix(5))", sourceLocation: sourceLocation)
        }
    }

    @Test func aProductKeepsSeveralPicturesAndOneIsMain() async throws {
        var path = ""
        let (app, store) = try makeApp { path = $0.images.folder }
        let folder = path
        let manager = try await token(store, role: .manager)
        let mug = try await store.createProduct(ProductDetails(name: "Mug"))
        let cup = try await store.createProduct(ProductDetails(name: "Cup"))
        try await app.test(.router) { raw in
            let client = Caller(client: raw, token: manager)
            let base = "/api/v1/products/\(mug.id)"
            let first = try await client.call(.post, "\(base)/pictures", raw: try Self.picture(0))
            #expect(first.status == 201, "\(first.text)")
            try Self.expectDocumented(first, "POST /api/v1/products/{id}/pictures")
            let a = try #require((first.object["added"] as? [String: Any])?["imageRef"] as? String)
            let second = try await client.call(.post, "\(base)/pictures", raw: try Self.picture(1))
            let b = try #require((second.object["added"] as? [String: Any])?["imageRef"] as? String)
            #expect(Self.names(second) == [a, b] && second.object["imageRef"] as? String == a)
            // The same picture again is not kept twice.
            let again = try await client.call(.post, "\(base)/pictures", raw: try Self.picture(1))
            #expect(again.status == 200 && Self.names(again) == [a, b], "\(again.text)")
            try Self.expectDocumented(again, "POST /api/v1/products/{id}/pictures")

            // The second becomes main: the product (alone and in the list) says so, imageRef included.
            let main = try await client.call(.put, "\(base)/pictures/\(b)/main")
            #expect(main.status == 200 && Self.names(main) == [b, a], "\(main.text)")
            try Self.expectDocumented(main, "PUT /api/v1/products/{id}/pictures/{name}/main")
            let product = try await client.call(.get, base)
            #expect(product.object["imageRef"] as? String == b)
            #expect(Self.names(product) == [b, a])
            #expect((product.object["pictures"] as? [[String: Any]])?.first?["url"] as? String == "/images/\(b)")
            try Self.expectDocumented(product, "GET /api/v1/products/{id}")
            let list = try await client.call(.get, "/api/v1/products?search=mug")
            #expect((list.object["items"] as? [[String: Any]])?.first?["imageRef"] as? String == b)
            try Self.expectDocumented(list, "GET /api/v1/products")
            // A field edit (PUT) keeps the pictures.
            let edited = try await client.call(.put, base, #"{"name":"Big mug"}"#)
            #expect(edited.status == 200 && Self.names(edited) == [b, a], "\(edited.text)")
            #expect(Self.files(folder) == [a, b])

            // The cup shows a too; removing a from the mug keeps its file, removing it from the cup deletes it.
            #expect(try await client.call(.post, "/api/v1/products/\(cup.id)/pictures", raw: try Self.picture(0)).status == 201)
            let removed = try await client.call(.delete, "\(base)/pictures/\(a)")
            #expect(removed.status == 200 && Self.names(removed) == [b], "\(removed.text)")
            try Self.expectDocumented(removed, "DELETE /api/v1/products/{id}/pictures/{name}")
            #expect(Self.files(folder) == [a, b])
            #expect(try await client.call(.delete, "/api/v1/products/\(cup.id)/pictures/\(a)").status == 200)
            #expect(Self.files(folder) == [b])

            // PUT /image keeps its meaning: the upload replaces the main picture, whose file goes.
            let put = try await client.call(.put, "\(base)/image", raw: try Self.picture(2))
            #expect(put.status == 200, "\(put.text)")
            try Self.expectDocumented(put, "PUT /api/v1/products/{id}/image")
            let c = try #require(put.object["imageRef"] as? String)
            #expect(try await store.product(mug.id).pictures == [c])
            #expect(Self.files(folder) == [c])
            // DELETE /image removes the main one; the next becomes main.
            _ = try await client.call(.post, "\(base)/pictures", raw: try Self.picture(3))
            let d = try #require(try await store.product(mug.id).pictures.last)
            #expect(try await client.call(.delete, "\(base)/image").status == 204)
            #expect(try await store.product(mug.id).imageRef == d)
            #expect(Self.files(folder) == [d])

            // Refusals name what is wrong and change nothing.
            let before = try await store.testOnly_dump()
            for (method, uri, status) in [(HTTPRequest.Method.delete, "\(base)/pictures/\(a)", 404), (.put, "\(base)/pictures/\(a)/main", 404),
                                          (.delete, "\(base)/pictures/..%2Fstockroom.sqlite", 400), (.put, "/api/v1/products/999/pictures/\(d)/main", 404),
                                          (.post, "\(base)/pictures?main=maybe", 422)] {
                let reply = try await client.call(method, uri, raw: method == .post ? try Self.picture(4) : nil)
                #expect(reply.status == status, "\(method) \(uri): \(reply.text)")
            }
            let broken = try await client.call(.post, "\(base)/pictures", raw: Array(try Self.picture(0).prefix(100)))
            #expect(broken.status == 422 && broken.object["field"] as? String == "body", "\(broken.text)")
            #expect(try await store.testOnly_dump() == before)
            #expect(Self.files(folder) == [d])

            // Deleting the product deletes the pictures no other product shows.
            #expect(try await client.call(.post, "/api/v1/products/\(cup.id)/pictures", raw: try Self.picture(3)).status == 201)
            _ = try await client.call(.post, "\(base)/pictures?main=true", raw: try Self.picture(5))
            let e = try #require(try await store.product(mug.id).imageRef)
            #expect(Self.files(folder) == [d, e])
            #expect(try await client.call(.delete, base).status == 204)
            #expect(Self.files(folder) == [d])
        }
    }

    @Test func aProductKeepsAtMostTwelvePictures() async throws {
        var path = ""
        let (app, store) = try makeApp { path = $0.images.folder }
        let folder = path
        let manager = try await token(store, role: .manager)
        let names = (0..<ProductPictures.maximumCount).map { String(format: "%024x.png", $0) }
        let full = try await store.createProduct(ProductDetails(name: "Full"), pictures: names)
        try await app.test(.router) { client in
            let reply = try await client.call(.post, "/api/v1/products/\(full.id)/pictures", raw: try Self.picture(0), token: manager)
            #expect(reply.status == 409 && reply.object["field"] as? String == "pictures", "\(reply.text)")
            // Replacing the main picture is still possible.
            let put = try await client.call(.put, "/api/v1/products/\(full.id)/image", raw: try Self.picture(0), token: manager)
            #expect(put.status == 200, "\(put.text)")
        }
        #expect(try await store.product(full.id).pictures.count == ProductPictures.maximumCount)
        #expect(Self.files(folder).count == 1)
    }

    func add(_ client: some TestClientProtocol, files: [[UInt8]]) async throws -> Reply {
        let body = multipart(fields: [("product_name", "Oat latte"), ("product_type", "Coffee"), ("price", "3.80"), ("tax", "7")],
                             files: files.enumerated().map { ("files[]", "image\($0.offset).jpg", "image/jpeg", $0.element) }, boundary: self.boundary)
        return try await client.execute(uri: "/api/public/add", method: .post, headers: [.contentType: "multipart/form-data; boundary=\(self.boundary)"],
                                        body: ByteBuffer(bytes: body)) { response in
            Reply(status: Int(response.status.code), text: String(buffer: response.body), contentType: response.headers[.contentType])
        }
    }

    @Test func theIOSClientsPicturesAreAllKept() async throws {
        var path = ""
        let (app, store) = try makeApp { configuration in
            configuration.publicAPI = true
            configuration.publicURL = "https://till.example:8443"
            path = configuration.images.folder
        }
        let folder = path
        let admin = try await token(store, role: .admin)
        try await app.test(.router) { client in
            let added = try await self.add(client, files: [try Self.picture(4), try Self.picture(0)])
            #expect(added.status == 200 && added.object["success"] as? Bool == true, "\(added.text)")
            let id = try #require(added.object["product_id"] as? Int)
            let pictures = try await store.product(ProductID(Int64(id))).pictures
            #expect(pictures.count == 2 && pictures[0].hasSuffix(".jpg") && pictures[1].hasSuffix(".png"), "\(pictures)")
            #expect(Self.files(folder) == Set(pictures))
            // The iOS client sees the main picture, from the configured address, in the shape it knows.
            let image = (added.object["product_details"] as? [String: Any])?["image"] as? String
            #expect(image == "https://till.example:8443/images/\(pictures[0])")
            let list = try await client.call(.get, "/api/public/get")
            #expect(list.array.count == 1 && Set(list.array[0].keys) == ["image", "price", "product_name", "product_type", "tax"])
            #expect(list.array[0]["image"] as? String == "https://till.example:8443/images/\(pictures[0])")
            // The v1 API shows both.
            let product = try await client.call(.get, "/api/v1/products/\(id)", token: admin)
            #expect(Self.names(product) == pictures && product.object["imageRef"] as? String == pictures[0])
        }
    }

    /// All or nothing: a third picture that cannot be read refuses the product, and nothing is stored (no product, no
    /// category, no picture file).
    @Test func oneRefusedPictureRefusesTheWholeAdd() async throws {
        var path = ""
        let (app, store) = try makeApp { configuration in
            configuration.publicAPI = true
            path = configuration.images.folder
        }
        let folder = path
        _ = try await store.createProduct(ProductDetails(name: "Tea"))
        let before = try await store.testOnly_dump()
        try await app.test(.router) { client in
            let truncated = Array(try Self.picture(1).prefix(100))  // a good header, then nothing: refused when decoded
            for files in [[try Self.picture(4), try Self.picture(0), truncated], [try Self.picture(4), try Self.picture(0), Array("GIF89a".utf8)],
                          Array(repeating: try Self.picture(0), count: ProductPictures.maximumCount + 1)] {
                let reply = try await self.add(client, files: files)
                #expect(reply.status == 400 && reply.object["success"] as? Bool == false, "\(reply.text)")
                #expect((reply.object["message"] as? String)?.hasPrefix("files[]") == true, "\(reply.text)")
            }
        }
        #expect(try await store.testOnly_dump() == before)
        #expect(try await store.categories().isEmpty)
        #expect(Self.files(folder).isEmpty)
    }

    /// Under `--tls` without `--public-url` the iOS client's picture links are https, on the listening address.
    @Test func pictureLinksAreHTTPSUnderTLS() async throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("stockroom-tls-pictures-\(UUID().uuidString)").path
        let (app, _) = try makeApp { configuration in
            configuration.publicAPI = true
            configuration.port = 8443
            configuration.tls = try? ShopCertificate.selfSigned(dataFolder: data, shopName: "Shop")
        }
        try await app.test(.router) { client in
            let added = try await self.add(client, files: [try Self.picture(0), try Self.picture(1)])
            let image = try #require((added.object["product_details"] as? [String: Any])?["image"] as? String, "\(added.text)")
            #expect(image.hasPrefix("https://127.0.0.1:8443/images/"), "\(image)")
            let list = try await client.call(.get, "/api/public/get")
            #expect(list.array.first?["image"] as? String == image)
        }
        #expect(ServerConfiguration(host: "0.0.0.0", port: 443, dataFolder: data,
                                    tls: try ShopCertificate.selfSigned(dataFolder: data, shopName: "Shop")).resolvedPublicURL.hasPrefix("https://"))
    }

    /// A backup carries every picture of a product, and a restore elsewhere shows them in the same order, byte for byte.
    @Test func aBackupRoundTripKeepsEveryPictureOfAProduct() async throws {
        let (app, store, _) = try BackupArchiveTests.makeShop()
        let admin = try await token(store, role: .admin, username: "owner")
        let mug = try await store.createProduct(ProductDetails(name: "Mug"))
        let (archive, pictures, bytes) = try await app.test(.router) { client in
            for index in [0, 1, 2] {
                #expect(try await client.call(.post, "/api/v1/products/\(mug.id)/pictures", raw: try Self.picture(index), token: admin).status == 201)
            }
            let pictures = try await store.product(mug.id).pictures
            _ = try await client.call(.put, "/api/v1/products/\(mug.id)/pictures/\(pictures[2])/main", token: admin)
            var bytes: [String: [UInt8]] = [:]
            for name in pictures { bytes[name] = try await BackupArchiveTests.get(client, "/images/\(name)", token: admin).1 }
            return (try await BackupArchiveTests.get(client, "/api/v1/backup", token: admin).1, [pictures[2], pictures[0], pictures[1]], bytes)
        }
        let (other, otherStore, _) = try BackupArchiveTests.makeShop()
        let otherAdmin = try await token(otherStore, role: .admin, username: "someone")
        try await other.test(.router) { client in
            let restored = try await client.call(.post, "/api/v1/restore", nil, raw: archive, token: otherAdmin)
            #expect(restored.status == 200 && restored.object["pictures"] as? Int == 3, "\(restored.text)")
            #expect(try await otherStore.product(mug.id).pictures == pictures)
            for name in pictures {
                let (status, body, _) = try await BackupArchiveTests.get(client, "/images/\(name)", token: admin)
                #expect(status == .ok && body == bytes[name], "\(name)")
            }
        }
    }
}
