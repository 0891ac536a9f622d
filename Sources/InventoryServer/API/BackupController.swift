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
            let path = self.scratchPath("backup")
            defer { try? FileManager.default.removeItem(atPath: path) }
            FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o600])
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
            let path = self.scratchPath("upload")
            defer { try? FileManager.default.removeItem(atPath: path) }
            try await Self.stream(request.body, to: path, limit: self.store.restoreLimitBytes())
            try self.store.restore(from: path)
            return JSON(Restored(restored: true, products: try await self.store.products(ProductQuery(includeArchived: true, limit: 1)).total))
        }
    }

    /// A file name for a scratch copy beside the database (readable by the server's user only once created).
    func scratchPath(_ kind: String) -> String {
        (self.store.scratchFolder as NSString).appendingPathComponent(".\(kind)-\(UUID().uuidString).sqlite")
    }

    /// Writes a request body to a new 0600 file as it arrives, never holding it all in memory.
    /// - Throws: 413 when the body is larger than `limit` (the partial file is removed by the caller).
    static func stream(_ body: RequestBody, to path: String, limit: Int64) async throws {
        guard FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o600]),
            let handle = FileHandle(forWritingAtPath: path)
        else {
            throw InventoryError(.storage, field: "file", "the upload could not be stored")
        }
        defer { try? handle.close() }
        var written: Int64 = 0
        for try await buffer in body {
            written += Int64(buffer.readableBytes)
            guard written <= limit else {
                throw Problem(.contentTooLarge, code: "tooLarge", title: "Backup too large",
                              detail: "a backup of this shop can be at most \(limit / (1 << 20)) MiB (four times the live database plus 1 GiB)",
                              field: "file")
            }
            try handle.write(contentsOf: buffer.readableBytesView)
        }
        guard written > 0 else { throw InventoryError(.missingValue, field: "file", "send the backup file as the request body") }
    }
}
