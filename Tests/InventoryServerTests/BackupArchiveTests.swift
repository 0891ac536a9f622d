import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import InventoryDomain
@testable import InventoryServer
import InventoryStore
import Testing
import ZIPFoundation

/// A backup is the whole shop — the database and every picture — in one ZIP, and restoring it elsewhere gives the same
/// shop: every report and every picture byte for byte.
@Suite struct BackupArchiveTests {
    /// A server on a file database in its own data folder.
    static func makeShop() throws -> (some ApplicationProtocol, InventorySQLiteRepository, String) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("stockroom-archive-\(UUID().uuidString)").path
        let store = try InventorySQLiteRepository.open(dataFolder: folder)
        let configuration = ServerConfiguration(host: "127.0.0.1", port: 0, secrets: testSecrets, dataFolder: folder)
        return (try buildApplication(configuration, repository: store), store, folder)
    }

    static let reports = [
        "/api/v1/products?archived=true", "/api/v1/categories", "/api/v1/sales", "/api/v1/purchases",
        "/api/v1/reports/snapshot?at=2026-03-01", "/api/v1/reports/daily?from=2026-01-01&to=2026-03-01",
        "/api/v1/reports/top?from=2026-01-01&to=2026-03-01", "/api/v1/reports/low-stock", "/api/v1/reports/valuation",
        "/api/v1/export/movements",
    ]

    static func fill(_ store: InventorySQLiteRepository) async throws -> [ProductID] {
        let category = try await store.createCategory(Category(id: CategoryID(0), name: "Coffee", color: "#3b82f6"))
        var ids: [ProductID] = []
        for (index, name) in ["Espresso beans", "Oat milk", "Croissant"].enumerated() {
            let product = try await store.createProduct(ProductDetails(name: name, categoryID: category.id, salePrice: Money(minorUnits: 250 + Int64(index) * 100)))
            ids.append(product.id)
            _ = try await store.postPurchase(PurchaseDraft(effectiveAt: at(day: 10 + index), lines: [
                .init(productID: product.id, quantity: Quantity(7), unitCost: Money(minorUnits: 100 + Int64(index) * 13)),
            ]))
            _ = try await store.postSale(SaleDraft(effectiveAt: at(day: 20 + index), lines: [
                .init(productID: product.id, quantity: Quantity(2), unitPrice: Money(minorUnits: 250 + Int64(index) * 100)),
            ]))
        }
        return ids
    }

    static func at(day: Int) -> Instant { Instant(milliseconds: 1_767_225_600_000 + Int64(day) * 86_400_000) }  // 2026-01-01 + day

    static func get(_ client: some TestClientProtocol, _ uri: String, token: String) async throws -> (HTTPResponse.Status, [UInt8], HTTPFields) {
        try await client.execute(uri: uri, method: .get, headers: [.authorization: "Bearer \(token)"], body: nil) {
            ($0.status, Array($0.body.readableBytesView), $0.headers)
        }
    }

    @Test func aBackupHoldsTheDatabaseAndEveryPictureAndRestoresElsewhereByteForByte() async throws {
        let (app, store, _) = try Self.makeShop()
        let admin = try await token(store, role: .admin, username: "owner")
        let ids = try await Self.fill(store)
        let (archive, reports, pictures) = try await app.test(.router) { client in
            var pictures: [String: [UInt8]] = [:]
            for (id, picture) in zip(ids, [try HostilePictures.png(), try HostilePictures.jpeg()]) {
                let uploaded = try await client.call(.put, "/api/v1/products/\(id.rawValue)/image", nil, raw: picture, token: admin)
                #expect(uploaded.status == 200, "\(uploaded.text)")
                let url = try #require(uploaded.object["url"] as? String)
                let (status, bytes, _) = try await Self.get(client, url, token: admin)
                #expect(status == .ok)
                pictures[url] = bytes
            }
            var reports: [String: [UInt8]] = [:]
            for uri in Self.reports {
                let (status, body, _) = try await Self.get(client, uri, token: admin)
                #expect(status == .ok, "\(uri)")
                reports[uri] = body
            }
            let (status, body, headers) = try await Self.get(client, "/api/v1/backup", token: admin)
            #expect(status == .ok)
            #expect(headers[.contentType] == "application/zip")
            #expect(headers[.contentDisposition]?.contains(".zip") == true)
            return (body, reports, pictures)
        }
        #expect(pictures.count == 2)
        let entries = try Archive(data: Data(archive), accessMode: .read).map(\.path).sorted()
        #expect(entries.count == 3 && entries.contains("stockroom.sqlite"), "\(entries)")
        #expect(entries.filter { $0.hasPrefix("images/") }.count == 2)

        // Another machine: a fresh shop with its own admin restores the archive and shows the same books and pictures.
        let (other, otherStore, otherFolder) = try Self.makeShop()
        let otherAdmin = try await token(otherStore, role: .admin, username: "someone")
        try await other.test(.router) { client in
            let restored = try await client.call(.post, "/api/v1/restore", nil, raw: archive, token: otherAdmin)
            #expect(restored.status == 200, "\(restored.text)")
            #expect(restored.object["pictures"] as? Int == 2)
            // The answer is the documented one (the schema allows no other member).
            let schemas = (try JSONSerialization.jsonObject(with: Data(OpenAPIDocument.data)) as? [String: Any])
                .flatMap { ($0["components"] as? [String: Any])?["schemas"] as? [String: Any] }
            let documented = ((schemas?["Restored"] as? [String: Any])?["properties"] as? [String: Any])?.keys.sorted() ?? []
            #expect(restored.object.keys.sorted() == documented)
        }
        // The restored database holds the first shop's staff: sign in with its token.
        try await other.test(.router) { client in
            for uri in Self.reports {
                let (status, body, _) = try await Self.get(client, uri, token: admin)
                #expect(status == .ok, "\(uri)")
                #expect(body == reports[uri], "\(uri) differs after the restore")
            }
            for (url, bytes) in pictures {
                let (status, body, _) = try await Self.get(client, url, token: admin)
                #expect(status == .ok && body == bytes, "\(url) differs after the restore")
            }
        }
        let files = try FileManager.default.contentsOfDirectory(atPath: (otherFolder as NSString).appendingPathComponent("images"))
        #expect(files.count == 2)
        #expect(try FileManager.default.contentsOfDirectory(atPath: otherFolder).filter { $0.hasPrefix(".") }.isEmpty, "scratch files left behind")
    }

    /// Writes a ZIP with `entries` (name → bytes).
    static func makeZip(_ entries: [(String, [UInt8])]) throws -> [UInt8] {
        let archive = try Archive(data: Data(), accessMode: .create)
        for (name, bytes) in entries {
            try archive.addEntry(with: name, type: .file, uncompressedSize: Int64(bytes.count), compressionMethod: .deflate) { position, size in
                Data(bytes[Int(position)..<Int(position) + size])
            }
        }
        return Array(try #require(archive.data))
    }

    @Test func aHostileArchiveIsRefusedAndTheShopAndItsPicturesAreUnchanged() async throws {
        let (app, store, folder) = try Self.makeShop()
        let admin = try await token(store, role: .admin, username: "owner")
        let ids = try await Self.fill(store)
        let database = try await app.test(.router) { client in
            #expect(try await client.call(.put, "/api/v1/products/\(ids[0].rawValue)/image", nil, raw: try HostilePictures.png(), token: admin).status == 200)
            let (_, body, _) = try await Self.get(client, "/api/v1/backup", token: admin)
            let archive = try Archive(data: Data(body), accessMode: .read)
            let entry = try #require(archive["stockroom.sqlite"])
            var database: [UInt8] = []
            _ = try archive.extract(entry) { database.append(contentsOf: $0) }
            return database
        }
        let imagesFolder = (folder as NSString).appendingPathComponent("images")
        let picturesBefore = try FileManager.default.contentsOfDirectory(atPath: imagesFolder).sorted()
        let before = try await store.testOnly_dump()
        let name = String(repeating: "ab", count: 12) + ".png"
        let hostile: [(String, [(String, [UInt8])])] = [
            ("path traversal", [("stockroom.sqlite", database), ("../evil.png", try HostilePictures.png())]),
            ("absolute path", [("stockroom.sqlite", database), ("/tmp/evil.png", try HostilePictures.png())]),
            ("foreign entry", [("stockroom.sqlite", database), ("notes.txt", Array("hello".utf8))]),
            ("picture bomb", [("stockroom.sqlite", database), ("images/" + name, try HostilePictures.pngBomb())]),
            ("not a picture", [("stockroom.sqlite", database), ("images/" + name, Array("<script>".utf8))]),
            ("no database", [("images/" + name, try HostilePictures.png())]),
            ("forged database", [("stockroom.sqlite", Array(repeating: 0x41, count: 4096))]),
            ("zip bomb", [("stockroom.sqlite", database), ("images/" + name, [UInt8](repeating: 0, count: 6 << 20))]),
        ]
        try await app.test(.router) { client in
            for (label, entries) in hostile {
                let refused = try await client.call(.post, "/api/v1/restore", nil, raw: try Self.makeZip(entries), token: admin)
                #expect(refused.status == 422, "\(label): \(refused.status) \(refused.text)")
                #expect(refused.object["field"] as? String == "file", "\(label)")
            }
            // A genuine database with a hostile picture is refused as a whole: the database is not swapped in either.
            _ = try await store.createCategory(Category(id: CategoryID(0), name: "After the backup"))
        }
        #expect(try await store.categories().map(\.name).contains("After the backup"))
        _ = before
        #expect(try FileManager.default.contentsOfDirectory(atPath: imagesFolder).sorted() == picturesBefore)
        #expect(!FileManager.default.fileExists(atPath: FileManager.default.temporaryDirectory.appendingPathComponent("evil.png").path))
        #expect(!FileManager.default.fileExists(atPath: (folder as NSString).deletingLastPathComponent + "/evil.png"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasPrefix(".") }.isEmpty, "scratch files left behind")
    }

    @Test func aBareDatabaseFromAnOlderBackupStillRestoresAndKeepsThePictures() async throws {
        let (app, store, folder) = try Self.makeShop()
        let admin = try await token(store, role: .admin, username: "owner")
        let ids = try await Self.fill(store)
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("bare-\(UUID().uuidString).sqlite").path
        try store.backup(to: path)
        let bare = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        try await app.test(.router) { client in
            #expect(try await client.call(.put, "/api/v1/products/\(ids[1].rawValue)/image", nil, raw: try HostilePictures.jpeg(), token: admin).status == 200)
            let restored = try await client.call(.post, "/api/v1/restore", nil, raw: bare, token: admin)
            #expect(restored.status == 200, "\(restored.text)")
            #expect(restored.object["pictures"] == nil)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: (folder as NSString).appendingPathComponent("images")).count == 1)
        #expect(try await store.product(ids[1]).imageRef == nil, "the bare database is the one restored")
    }

    @Test func pictureNamesAreOnlyTheStoresOwn() {
        #expect(ShopArchive<InventorySQLiteRepository>.isPictureName("0123456789abcdef01234567.png"))
        #expect(ShopArchive<InventorySQLiteRepository>.isPictureName("0123456789abcdef01234567.jpg"))
        for name in ["../x.png", "ABCDEF0123456789.png", "0123456789abcdef.gif", ".png", "0123456789abcdef.png.png", "stockroom.sqlite", "x y.png"] {
            #expect(!ShopArchive<InventorySQLiteRepository>.isPictureName(name), "\(name)")
        }
    }
}
