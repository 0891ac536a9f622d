import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import InventoryDomain
@testable import InventoryServer
import InventoryStore
import Testing

/// A file of the shared barcode corpus (real JPEG and PNG pictures).
func sharedImage(_ path: String) throws -> [UInt8] {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("shared/barcode").appendingPathComponent(path)
    return Array(try Data(contentsOf: root))
}

/// A multipart body shaped like the iOS client's (Alamofire) upload.
func multipart(fields: [(String, String)], files: [(name: String, filename: String, type: String, data: [UInt8])], boundary: String) -> [UInt8] {
    var body: [UInt8] = []
    for (name, value) in fields {
        body += Array("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\"\r\n\r\n\(value)\r\n".utf8)
    }
    for file in files {
        body += Array("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(file.name)\"; filename=\"\(file.filename)\"\r\nContent-Type: \(file.type)\r\n\r\n".utf8)
        body += file.data + Array("\r\n".utf8)
    }
    body += Array("--\(boundary)--\r\n".utf8)
    return body
}

@Suite struct PublicAPITests {
    let boundary = "alamofire.boundary.5f4bd8b1c2a3e9d7"

    func post(_ client: any TestClientProtocol, _ body: [UInt8]) async throws -> Reply {
        try await client.execute(uri: "/api/public/add", method: .post, headers: [.contentType: "multipart/form-data; boundary=\(self.boundary)"],
                                 body: ByteBuffer(bytes: body)) { response in
            Reply(status: Int(response.status.code), text: String(buffer: response.body), contentType: response.headers[.contentType])
        }
    }

    /// Issue 12, point 1: where the shop's prices include tax, the iOS client's prices keep their before-tax meaning:
    /// a product it adds at 1.00 with 7 % is sold at 1.07, and it lists that product at 1.00.
    @Test func theIOSClientsPricesStayBeforeTaxWhereTheShopsIncludeIt() async throws {
        let (app, store) = try makeApp(publicAPI: true)
        var settings = try await store.settings()
        settings.pricesIncludeTax = true
        try await store.saveSettings(settings)
        try await app.test(.router) { client in
            let body = multipart(fields: [("product_name", "Espresso"), ("product_type", "Coffee"), ("price", "1.00"), ("tax", "7")], files: [],
                                 boundary: self.boundary)
            let reply = try await self.post(client, body)
            #expect(reply.status == 200, "\(reply.text)")
            #expect(((reply.object["product_details"] as? [String: Any])?["price"] as? NSNumber)?.decimalValue == Decimal(string: "1"))
            let product = try #require(try await store.products(ProductQuery()).products.first)
            #expect(product.details.salePrice == Money(minorUnits: 107))
            let list = try await client.call(.get, "/api/public/get")
            #expect(((list.json as? [[String: Any]])?.first?["price"] as? NSNumber)?.decimalValue == Decimal(string: "1"), "\(list.text)")
        }
    }

    @Test func theIOSClientAddsAndListsProducts() async throws {
        let (app, store) = try makeApp(publicAPI: true)
        let jpeg = try sharedImage("synthetic/ean13-synth/019_jpeg.jpg")
        try await app.test(.router) { client in
            let body = multipart(fields: [("product_name", "Oat latte"), ("product_type", "Coffee"), ("price", "3.80"), ("tax", "7")],
                                 files: [("files[]", "image.jpg", "image/jpeg", jpeg)], boundary: self.boundary)
            let reply = try await self.post(client, body)
            #expect(reply.status == 200, "\(reply.text)")
            #expect(reply.object["success"] as? Bool == true)
            #expect(reply.object["message"] as? String == "Product added Successfully!")
            #expect(reply.object["product_id"] is Int)
            let details = reply.object["product_details"] as? [String: Any] ?? [:]
            #expect(details["product_name"] as? String == "Oat latte")
            #expect(details["product_type"] as? String == "Coffee")
            #expect((details["price"] as? NSNumber)?.decimalValue == Decimal(string: "3.8"))
            #expect((details["tax"] as? NSNumber)?.intValue == 7)
            let image = try #require(details["image"] as? String)
            #expect(image.hasPrefix("http://") && image.contains("/images/"))
            #expect(try await store.categories().map(\.name) == ["Coffee"])

            let list = try await client.call(.get, "/api/public/get")
            #expect(list.status == 200)
            let items = try #require(list.json as? [[String: Any]])
            #expect(items.count == 1)
            #expect(Set(items[0].keys) == ["image", "price", "product_name", "product_type", "tax"])
            // The picture is served, cacheable, with an ETag.
            let path = String(image[try #require(image.range(of: "/images/")).lowerBound...])
            let picture = try await client.execute(uri: path, method: .get) { $0 }
            #expect(picture.status == .ok)
            #expect(picture.headers[.contentType] == "image/jpeg")
            let etag = try #require(picture.headers[.eTag])
            let again = try await client.execute(uri: path, method: .get, headers: [.ifNoneMatch: etag]) { $0 }
            #expect(again.status == .notModified)
        }
    }

    @Test func badInputAnswersSuccessFalseAndAddsNothing() async throws {
        let (app, store) = try makeApp(publicAPI: true)
        try await app.test(.router) { client in
            let cases: [([(String, String)], [(name: String, filename: String, type: String, data: [UInt8])], String)] = [
                ([("product_name", ""), ("product_type", "Tea"), ("price", "1"), ("tax", "0")], [], "product_name"),
                ([("product_name", "Tea"), ("price", "1"), ("tax", "0")], [], "product_type"),
                ([("product_name", "Tea"), ("product_type", "Tea"), ("price", "one"), ("tax", "0")], [], "price"),
                ([("product_name", "Tea"), ("product_type", "Tea"), ("price", "1.50"), ("tax", "x")], [], "tax"),
                ([("product_name", "Tea"), ("product_type", "Tea"), ("price", "1.50"), ("tax", "7")], [("files[]", "image.jpg", "image/jpeg", Array("not a jpeg".utf8))], "files[]"),
            ]
            for (fields, files, field) in cases {
                let reply = try await self.post(client, multipart(fields: fields, files: files, boundary: self.boundary))
                #expect(reply.status == 400)
                #expect(reply.object["success"] as? Bool == false)
                #expect((reply.object["message"] as? String)?.hasPrefix(field) == true, "\(reply.text)")
            }
            #expect(try await store.products(ProductQuery()).total == 0)
            #expect(try await store.categories().isEmpty)
        }
    }

    @Test func theIOSClientsOverPrecisePriceIsRoundedToTheCent() async throws {
        let (app, store) = try makeApp(publicAPI: true)
        let admin = try await token(store, role: .admin)
        try await app.test(.router) { client in
            // The client sends a Double's description (its own sample data: 2000 / 1.18).
            let body = multipart(fields: [("product_name", "Espresso machine"), ("product_type", "Machines"), ("price", "1694.91525424"), ("tax", "18")],
                                 files: [], boundary: self.boundary)
            let reply = try await self.post(client, body)
            #expect(reply.status == 200, "\(reply.text)")
            #expect(reply.object["success"] as? Bool == true)
            let details = reply.object["product_details"] as? [String: Any] ?? [:]
            #expect((details["price"] as? NSNumber)?.decimalValue == Decimal(string: "1694.92"))
            let product = try #require(try await store.products(ProductQuery()).products.first)
            #expect(product.details.salePrice == Money(minorUnits: 169_492))
            // Half away from zero: …5 goes up.
            let half = try await self.post(client, multipart(fields: [("product_name", "Tamper"), ("product_type", "Machines"), ("price", "12.345"), ("tax", "18")],
                                                             files: [], boundary: self.boundary))
            #expect(half.object["success"] as? Bool == true, "\(half.text)")
            #expect(try await store.products(ProductQuery(search: "Tamper")).products.first?.details.salePrice == Money(minorUnits: 1235))
            // The v1 API keeps refusing an over-precise amount, naming the field.
            let v1 = try await client.call(.post, "/api/v1/products", #"{"name":"Grinder","salePrice":"1694.91525424"}"#, token: admin)
            #expect(v1.status == 422 || v1.status == 400, "\(v1.text)")
            #expect(v1.object["field"] as? String == "salePrice")
            #expect(try await store.products(ProductQuery()).total == 2)
        }
    }

    /// Issue 10, defect 7: a product added by the iOS client reaches the open screens like one added through the API
    /// (the store publishes what it commits, whichever route wrote it), and is audited as the client's.
    @Test func anAddThroughThePublicAPIPublishesAProductEvent() async throws {
        var hub: EventHub?
        let (app, store) = try makeApp { configuration in
            configuration.publicAPI = true
            hub = configuration.events
        }
        let live = try #require(hub)
        let stream = live.subscribe()
        let productID = try await app.test(.router) { client -> Int64? in
            let refused = try await self.post(client, multipart(fields: [("product_name", "Bun"), ("price", "-1"), ("tax", "7")], files: [],
                                                                boundary: self.boundary))
            #expect(refused.object["success"] as? Bool == false)
            let added = try await self.post(client, multipart(fields: [("product_name", "Bun"), ("product_type", "Bakery"), ("price", "1.20"),
                                                                       ("tax", "7")], files: [], boundary: self.boundary))
            #expect(added.object["success"] as? Bool == true, "\(added.text)")
            return (added.object["product_id"] as? NSNumber)?.int64Value
        }
        // Events are published before the writer is answered: everything before this marker is the adds' doing.
        live.publish(LiveEvent(type: "marker", data: "{}"))
        var received: [LiveEvent] = []
        for await event in stream where event.type != "low-stock" {
            if event.type == "marker" { break }
            received.append(event)
        }
        let id = try #require(productID)
        #expect(received.map(\.type) == ["product"])
        #expect(received.first?.data == #"{"kind":"productCreated","productIds":[\#(id)],"record":{"id":\#(id),"kind":"product"}}"#)
        let audit = try await store.auditLog(limit: 10, offset: 0)
        #expect(audit.map(\.sentence) == ["iOS client added the product Bun at €1.20", "iOS client added the category Bakery"])
    }

    @Test func thePublicAPIIsOffByDefault() async throws {
        let (app, _) = try makeApp()
        try await app.test(.router) { client in
            let reply = try await client.call(.get, "/api/public/get")
            #expect(reply.status == 404)
        }
    }

    @Test func productPicturesAreCheckedByContent() async throws {
        let (app, store) = try makeApp()
        let admin = try await token(store, role: .admin)
        let product = try await store.createProduct(ProductDetails(name: "Mug"))
        let png = try sharedImage("synthetic/ean13-synth/024_small.png")
        try await app.test(.router) { client in
            let uploaded = try await client.call(.put, "/api/v1/products/\(product.id)/image", nil, raw: png, token: admin)
            #expect(uploaded.status == 200, "\(uploaded.text)")
            #expect(uploaded.object["square"] is Bool)
            #expect(try await store.product(product.id).imageRef == uploaded.object["imageRef"] as? String)
            let fake = try await client.call(.put, "/api/v1/products/\(product.id)/image", nil, raw: Array("GIF89a....".utf8), token: admin)
            #expect(fake.status == 422 && fake.object["field"] as? String == "body")
            let truncated = try await client.call(.put, "/api/v1/products/\(product.id)/image", nil, raw: Array(png.prefix(100)), token: admin)
            #expect(truncated.status == 422)
            #expect(try await client.call(.delete, "/api/v1/products/\(product.id)/image", token: admin).status == 204)
            #expect(try await store.product(product.id).imageRef == nil)
            #expect(try await client.call(.get, "/images/..%2Fetc").status == 400)
            #expect(try await client.call(.get, "/images/..etc").status == 404)
        }
    }
}

@Suite struct MultipartTests {
    @Test func parsesAndRefusesMalformedBodies() {
        let body = multipart(fields: [("a", "1"), ("b", "two\r\nlines")], files: [("f", "x.bin", "application/octet-stream", [0, 13, 10, 45, 45])], boundary: "XyZ")
        let form = MultipartForm.parse(body, boundary: "XyZ")
        #expect(form?.field("a") == "1")
        #expect(form?.field("b") == "two\r\nlines")
        #expect(form?.files("f").first?.data == [0, 13, 10, 45, 45])
        #expect(MultipartForm.parse(Array("no boundary here".utf8), boundary: "XyZ") == nil)
        #expect(MultipartForm.boundary(contentType: "multipart/form-data; boundary=\"abc\"") == "abc")
        #expect(MultipartForm.boundary(contentType: "application/json") == nil)
    }
}

/// Issue 9, finding 13: picture links come from the configured public URL, never from the request's Host header.
@Suite struct PublicURLTests {
    let boundary = "alamofire.boundary.5f4bd8b1c2a3e9d7"

    @Test func pictureLinksIgnoreTheHostHeader() async throws {
        let (app, _) = try makeApp { configuration in
            configuration.publicAPI = true
            configuration.publicURL = "https://shop.example"
        }
        let jpeg = try sharedImage("synthetic/ean13-synth/019_jpeg.jpg")
        try await app.test(.router) { client in
            let body = multipart(fields: [("product_name", "Oat latte"), ("product_type", "Coffee"), ("price", "3.80"), ("tax", "7")],
                                 files: [("files[]", "image.jpg", "image/jpeg", jpeg)], boundary: self.boundary)
            // The router test client sends the authority "localhost"; a forged Host field rides along too.
            let forged: HTTPFields = [.contentType: "multipart/form-data; boundary=\(self.boundary)", HTTPField.Name("Host")!: "evil.example"]
            let added = try await client.execute(uri: "/api/public/add", method: .post, headers: forged, body: ByteBuffer(bytes: body)) {
                Reply(status: Int($0.status.code), text: String(buffer: $0.body), contentType: $0.headers[.contentType])
            }
            #expect(added.status == 200, "\(added.text)")
            let image = try #require((added.object["product_details"] as? [String: Any])?["image"] as? String)
            #expect(image.hasPrefix("https://shop.example/images/"), "\(image)")
            let list = try await client.execute(uri: "/api/public/get", method: .get, headers: [HTTPField.Name("Host")!: "evil.example"]) {
                String(buffer: $0.body)
            }
            #expect(list.contains("https:\\/\\/shop.example\\/images\\/") || list.contains("https://shop.example/images/"), "\(list)")
            #expect(!list.contains("evil") && !list.contains("localhost"))
        }
        // Without --public-url: the listening address.
        let (plain, _) = try makeApp { configuration in
            configuration.publicAPI = true
            configuration.port = 8123
        }
        try await plain.test(.router) { client in
            let body = multipart(fields: [("product_name", "Tea"), ("product_type", "Tea"), ("price", "1"), ("tax", "0")],
                                 files: [("files[]", "image.jpg", "image/jpeg", jpeg)], boundary: self.boundary)
            let added = try await client.execute(uri: "/api/public/add", method: .post,
                                                 headers: [.contentType: "multipart/form-data; boundary=\(self.boundary)"], body: ByteBuffer(bytes: body)) {
                Reply(status: Int($0.status.code), text: String(buffer: $0.body), contentType: $0.headers[.contentType])
            }
            let image = try #require((added.object["product_details"] as? [String: Any])?["image"] as? String)
            #expect(image.hasPrefix("http://127.0.0.1:8123/images/"), "\(image)")
        }
    }

    @Test func theConfiguredURLIsCheckedAndNormalised() throws {
        #expect(try PublicURL.parse("https://Shop.Example") == "https://shop.example")
        #expect(try PublicURL.parse("https://shop.example/") == "https://shop.example")
        #expect(try PublicURL.parse("http://192.168.1.20:8080") == "http://192.168.1.20:8080")
        #expect(try PublicURL.parse("https://shop.example:443") == "https://shop.example")
        #expect(try PublicURL.parse("http://[fd00::1]:8080") == "http://[fd00::1]:8080")
        for bad in ["shop.example", "ftp://shop.example", "https://", "https://shop.example/till", "https://shop.example?x=1",
                    "https://shop.example#top", "https://ana:pw@shop.example", "https://shop example", "https://shop.example:0",
                    "javascript:alert(1)", "https://shop_ex<ample"] {
            #expect(throws: InventoryError(.invalidValue, field: "publicURL", ""), "\(bad)") { _ = try PublicURL.parse(bad) }
        }
        #expect(PublicURL.derived(host: "127.0.0.1", port: 8080, tls: false) == "http://127.0.0.1:8080")
        #expect(PublicURL.derived(host: "shop.local", port: 443, tls: true) == "https://shop.local")
        #expect(PublicURL.derived(host: "0.0.0.0", port: 8443, tls: true, machineAddress: { "192.168.1.20" }) == "https://192.168.1.20:8443")
        #expect(PublicURL.derived(host: "::", port: 80, tls: false, machineAddress: { "10.0.0.2" }) == "http://10.0.0.2")
        #expect(PublicURL.derived(host: "::1", port: 8080, tls: false) == "http://[::1]:8080")
        #expect(!PublicURL.derived(host: "0.0.0.0", port: 8080, tls: false, machineAddress: { nil }).contains("0.0.0.0"))
        var configuration = ServerConfiguration(dataFolder: "/tmp/unused")
        #expect(configuration.resolvedPublicURL == "http://127.0.0.1:8080")
        configuration.publicURL = "https://shop.example"
        #expect(configuration.resolvedPublicURL == "https://shop.example")
    }
}
