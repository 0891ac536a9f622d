import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import InventoryDomain
@testable import InventoryServer
import InventoryStore
import Testing

/// Pictures for the upload attacks of issue 9 (findings 4, 8 and 12), made from the shared corpus.
enum HostilePictures {
    static func png() throws -> [UInt8] { try sharedImage("synthetic/ean13-synth/024_small.png") }
    static func jpeg() throws -> [UInt8] { try sharedImage("synthetic/ean13-synth/019_jpeg.jpg") }

    /// A real PNG whose IHDR claims `side` × `side` (a decompression bomb: a few KB that would decode to gigabytes).
    static func pngBomb(side: UInt32 = 16_384) throws -> [UInt8] {
        var bytes = try self.png()
        let encoded = [UInt8(side >> 24), UInt8(side >> 16 & 0xFF), UInt8(side >> 8 & 0xFF), UInt8(side & 0xFF)]
        bytes.replaceSubrange(16..<20, with: encoded)
        bytes.replaceSubrange(20..<24, with: encoded)
        return bytes
    }

    /// A real JPEG whose frame header claims `side` × `side`.
    static func jpegBomb(side: Int = 60_000) throws -> [UInt8] {
        var bytes = try self.jpeg()
        let sof = try #require((2..<(bytes.count - 9)).first { bytes[$0] == 0xFF && (0xC0...0xC2).contains(bytes[$0 + 1]) })
        bytes.replaceSubrange((sof + 5)..<(sof + 9), with: [UInt8(side >> 8), UInt8(side & 0xFF), UInt8(side >> 8), UInt8(side & 0xFF)])
        return bytes
    }

    /// A real JPEG carrying HTML in a comment segment and after its end marker (a polyglot).
    static func jpegPolyglot() throws -> [UInt8] {
        let comment = Array("<script>alert(document.cookie)</script>".utf8)
        let length = comment.count + 2
        let jpeg = try self.jpeg()
        return Array(jpeg.prefix(2)) + [0xFF, 0xFE, UInt8(length >> 8), UInt8(length & 0xFF)] + comment + jpeg.dropFirst(2)
            + Array("<html><body><script>alert(2)</script></body></html>".utf8)
    }

    static func contains(_ bytes: [UInt8], _ text: String) -> Bool {
        let needle = Array(text.utf8)
        guard bytes.count >= needle.count else { return false }
        return (0...(bytes.count - needle.count)).contains { Array(bytes[$0..<($0 + needle.count)]) == needle }
    }

    /// The files in a pictures folder (none when it does not exist).
    static func files(_ folder: String) -> [String] { (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] }
}

@Suite struct UploadSafetyTests {
    let boundary = "alamofire.boundary.5f4bd8b1c2a3e9d7"

    func post(_ client: any TestClientProtocol, _ body: [UInt8]) async throws -> Reply {
        try await client.execute(uri: "/api/public/add", method: .post, headers: [.contentType: "multipart/form-data; boundary=\(self.boundary)"],
                                 body: ByteBuffer(bytes: body)) { response in
            Reply(status: Int(response.status.code), text: String(buffer: response.body), contentType: response.headers[.contentType])
        }
    }

    /// Finding 8: the anonymous add checks every field and picture before writing anything.
    @Test func publicAddWritesNothingUntilEverythingIsChecked() async throws {
        var path = ""
        let (app, store) = try makeApp { configuration in
            configuration.publicAPI = true
            path = configuration.images.folder
        }
        let folder = path
        let jpeg = try HostilePictures.jpeg()
        let zalgo = "e" + String(repeating: "\u{0301}", count: 100_000)
        let good = [("product_name", "Tea"), ("product_type", "Drinks"), ("price", "1.50"), ("tax", "7")]
        @Sendable func with(_ name: String, _ value: String) -> [(String, String)] { good.map { $0.0 == name ? (name, value) : $0 } }
        let picture = ("files[]", "image.jpg", "image/jpeg", jpeg)
        let before = try await store.testOnly_dump()
        try await app.test(.router) { client in
            let cases: [([(String, String)], [(name: String, filename: String, type: String, data: [UInt8])], String, String)] = [
                (with("product_name", zalgo), [picture], "product_name", "bytes"),
                (with("product_name", String(repeating: "x", count: 201)), [picture], "product_name", "200 characters"),
                (with("product_type", zalgo), [picture], "product_type", "bytes"),
                (with("price", "-1"), [picture], "price", "negative"),
                (with("tax", "150"), [picture], "tax", "100"),
                (good, [("files[]", "bomb.png", "image/png", try HostilePictures.pngBomb())], "files[]", "6000"),
                (good, [("files[]", "bomb.jpg", "image/jpeg", try HostilePictures.jpegBomb())], "files[]", "6000"),
                (good, [("files[]", "big.jpg", "image/jpeg", jpeg + [UInt8](repeating: 0, count: ImageStore.maxBytes))], "files[]", "5 MB"),
                (good, [picture, ("files[]", "second.png", "image/png", try HostilePictures.pngBomb())], "files[]", "6000"),
                (good, [("files[]", "cut.jpg", "image/jpeg", Array(jpeg.prefix(jpeg.count / 2)))], "files[]", "cannot be read"),
            ]
            for (fields, files, field, reason) in cases {
                let reply = try await self.post(client, multipart(fields: fields, files: files, boundary: self.boundary))
                #expect(reply.status == 400, "\(reply.text)")
                #expect(reply.object["success"] as? Bool == false)
                let message = reply.object["message"] as? String ?? ""
                #expect(message.hasPrefix("\(field):") && message.contains(reason), "\(field): \(message)")
                #expect(HostilePictures.files(folder).isEmpty, "\(field) left \(HostilePictures.files(folder))")
            }
        }
        #expect(try await store.testOnly_dump() == before)
    }

    /// Finding 4: a bomb sent as a product picture is refused on its header, naming the field and the limit.
    @Test func productPicturesAreRefusedOnTheirHeader() async throws {
        var path = ""
        let (app, store) = try makeApp { path = $0.images.folder }
        let folder = path
        let admin = try await token(store, role: .admin)
        let product = try await store.createProduct(ProductDetails(name: "Mug"))
        let before = try await store.testOnly_dump()
        try await app.test(.router) { client in
            for bomb in [try HostilePictures.pngBomb(), try HostilePictures.jpegBomb(), try HostilePictures.pngBomb(side: 6001)] {
                let reply = try await client.call(.put, "/api/v1/products/\(product.id)/image", nil, raw: bomb, token: admin)
                #expect(reply.status == 422, "\(reply.text)")
                #expect(reply.contentType == "application/problem+json")
                #expect(reply.object["field"] as? String == "body")
                #expect((reply.object["detail"] as? String)?.contains("6000") == true, "\(reply.text)")
            }
        }
        #expect(HostilePictures.files(folder).isEmpty)
        #expect(try await store.testOnly_dump() == before)
    }

    /// Finding 4: the barcode decoder refuses a bomb at once, and parallel bombs leave the server answering.
    @Test func barcodeDecodingRefusesBombs() async throws {
        let (app, store) = try makeApp { _ in }
        let staff = try await token(store, role: .staff)
        try await app.test(.router) { client in
            let replies = try await withThrowingTaskGroup(of: Reply.self) { group in
                for bomb in [try HostilePictures.pngBomb(), try HostilePictures.jpegBomb(side: 40_000), try HostilePictures.pngBomb(side: 7000)] {
                    group.addTask { try await client.call(.post, "/api/v1/barcodes/decode", nil, raw: bomb, token: staff) }
                }
                group.addTask { try await client.call(.get, "/health") }
                return try await group.reduce(into: [Reply]()) { $0.append($1) }
            }
            #expect(replies.filter { $0.status == 200 }.count == 1)  // /health
            for reply in replies where reply.status != 200 {
                #expect(reply.status == 422 && reply.object["field"] as? String == "body", "\(reply.text)")
                let detail = reply.object["detail"] as? String ?? ""
                #expect(detail.contains("12000") || detail.contains("40 megapixels"), "\(detail)")
            }
            // A real picture still decodes.
            let ok = try await client.call(.post, "/api/v1/barcodes/decode", nil, raw: try HostilePictures.jpeg(), token: staff)
            #expect(ok.status == 200, "\(ok.text)")
            #expect((ok.object["barcodes"] as? [Any])?.isEmpty == false)
        }
    }

    /// Finding 12: a picture is stored without comments, foreign segments or trailing bytes, named by what is stored.
    @Test func storedPicturesAreCleaned() async throws {
        var path = ""
        let (app, store) = try makeApp { configuration in
            configuration.publicAPI = true
            path = configuration.images.folder
        }
        let folder = path
        let admin = try await token(store, role: .admin)
        let product = try await store.createProduct(ProductDetails(name: "Mug"))
        let polyglot = try HostilePictures.jpegPolyglot()
        let storedName = try await app.test(.router) { client in
            let uploaded = try await client.call(.put, "/api/v1/products/\(product.id)/image", nil, raw: polyglot, token: admin)
            #expect(uploaded.status == 200, "\(uploaded.text)")
            let name = try #require(uploaded.object["imageRef"] as? String)
            let served = try await client.execute(uri: "/images/\(name)", method: .get) { Array(buffer: $0.body) }
            #expect(!served.isEmpty)
            #expect(!HostilePictures.contains(served, "script") && !HostilePictures.contains(served, "html"))
            #expect(Array(served.suffix(2)) == [0xFF, 0xD9])
            let digest = SHA256.hash(data: Data(served)).prefix(12).map { String(format: "%02x", $0) }.joined()
            #expect(name == "\(digest).jpg")

            // The same through the public add: one file, the same cleaned picture.
            let body = multipart(fields: [("product_name", "Cup"), ("product_type", "Ware"), ("price", "2"), ("tax", "0")],
                                 files: [("files[]", "cup.jpg", "image/jpeg", polyglot)], boundary: self.boundary)
            let added = try await self.post(client, body)
            #expect(added.status == 200, "\(added.text)")
            #expect(((added.object["product_details"] as? [String: Any])?["image"] as? String)?.hasSuffix("/images/\(name)") == true)
            return name
        }
        #expect(HostilePictures.files(folder) == [storedName])
    }

    /// Finding 8: one letter with megabytes of combining marks, or a 20,000-scalar emoji, is refused through the API,
    /// on the field at fault, with nothing written.
    @Test func textFloodsAreRefusedOnTheirField() async throws {
        let (app, store) = try makeApp { _ in }
        let admin = try await token(store, role: .admin)
        let product = try await store.createProduct(ProductDetails(name: "Mug"))
        let zalgo = "e" + String(repeating: "\u{0301}", count: 200_000)
        let emoji = "👍" + String(repeating: "\u{200D}👍", count: 10_000)
        let before = try await store.testOnly_dump()
        try await app.test(.router) { client in
            let cases: [(HTTPRequest.Method, String, [String: String], String)] = [
                (.post, "/api/v1/products", ["name": zalgo], "name"),
                (.post, "/api/v1/products", ["name": "Tea", "iconEmoji": emoji], "iconEmoji"),
                (.put, "/api/v1/products/\(product.id)", ["name": "Mug", "iconEmoji": emoji], "iconEmoji"),
                (.post, "/api/v1/categories", ["name": zalgo], "name"),
                (.post, "/api/v1/suppliers", ["name": "Mill", "note": zalgo], "note"),
                (.post, "/api/v1/users", ["username": "newbie", "password": "first day!", "displayName": zalgo], "displayName"),
            ]
            for (method, path, fields, field) in cases {
                let body = String(decoding: try JSONSerialization.data(withJSONObject: fields), as: UTF8.self)
                let reply = try await client.call(method, path, body, token: admin)
                #expect(reply.status == 422, "\(path) \(field): \(reply.status) \(reply.text.prefix(300))")
                #expect(reply.object["field"] as? String == field, "\(path): \(reply.text.prefix(300))")
            }
        }
        #expect(try await store.testOnly_dump() == before)
    }
}
