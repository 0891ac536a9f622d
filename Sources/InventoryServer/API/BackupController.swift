import Foundation
import Hummingbird
import InventoryDomain
import InventoryStore

/// `GET /api/v1/backup` (a consistent copy of the live database) and `POST /api/v1/restore` (admin only).
struct BackupController {
    let store: InventorySQLiteRepository

    struct Restored: Encodable, Sendable {
        var restored: Bool
        var products: Int
    }

    func addRoutes(to api: Routes) {
        api.get("backup", .permission(.backup)) { _, _ in
            let path = FileManager.default.temporaryDirectory.appendingPathComponent("stockroom-backup-\(UUID().uuidString).sqlite").path
            defer { try? FileManager.default.removeItem(atPath: path) }
            try self.store.backup(to: path)
            guard let data = FileManager.default.contents(atPath: path) else {
                throw InventoryError(.storage, "the backup file could not be read back")
            }
            let stamp = Date().formatted(Date.ISO8601FormatStyle().year().month().day())
            return Response(status: .ok, headers: [.contentType: "application/vnd.sqlite3",
                                                   .contentDisposition: "attachment; filename=\"stockroom-\(stamp).sqlite\""],
                            body: .init(byteBuffer: ByteBuffer(bytes: data)))
        }
        api.post("restore", .permission(.backup)) { request, _ in
            let body = try await request.body.collect(upTo: 2 << 30)
            let path = FileManager.default.temporaryDirectory.appendingPathComponent("stockroom-restore-\(UUID().uuidString).sqlite").path
            defer { try? FileManager.default.removeItem(atPath: path) }
            guard FileManager.default.createFile(atPath: path, contents: Data(body.readableBytesView)) else {
                throw InventoryError(.storage, field: "file", "the upload could not be stored")
            }
            try self.store.restore(from: path)
            return JSON(Restored(restored: true, products: try await self.store.products(ProductQuery(includeArchived: true, limit: 1)).total))
        }
    }
}
