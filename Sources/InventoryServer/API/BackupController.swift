import Foundation
import Hummingbird
import InventoryDomain

/// `GET /api/v1/backup` (the whole shop as one ZIP: a consistent copy of the database and every picture, streamed) and
/// `POST /api/v1/restore` (such a ZIP, or a bare database from before pictures were included; admin only).
struct BackupController<Store: BackupRepository & CatalogueRepository> {
    let store: Store
    let images: ImageStore

    var archive: ShopArchive<Store> { ShopArchive(store: self.store, images: self.images) }

    func addRoutes(to api: Routes) {
        api.get("backup", .permission(.backup)) { _, _ in
            let path = self.scratchPath("backup", extension: "zip")
            do {
                // No picture is deleted between the copy of the database and the copy of the files.
                let archive = self.archive
                try await self.images.exclusively { try archive.write(to: path) }
            } catch {
                try? FileManager.default.removeItem(atPath: path)
                throw error
            }
            let stamp = Date().formatted(Date.ISO8601FormatStyle().year().month().day())
            let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.intValue
            return Response(status: .ok, headers: [.contentType: "application/zip",
                                                   .contentDisposition: "attachment; filename=\"stockroom-\(stamp).zip\""],
                            body: Self.streamFile(path, size: size, removeAfter: true))
        }
        api.post("restore", .permission(.backup)) { request, _ in
            let path = self.scratchPath("upload", extension: "upload")
            defer { try? FileManager.default.removeItem(atPath: path) }
            let limit = self.archive.limitBytes()
            try await Self.stream(request.body, to: path, limit: limit)
            let archive = self.archive
            let pictures = try await self.images.exclusively { try await archive.restore(from: path, limit: limit) }
            return JSON(RestoreResponse(restored: true, products: try await self.store.products(ProductQuery(includeArchived: true, limit: 1)).total,
                                        pictures: pictures))
        }
    }

    /// A response body that reads a file in 64 KiB pieces as the client takes them (never the whole file in memory),
    /// removing the file afterwards when asked.
    static func streamFile(_ path: String, size: Int?, removeAfter: Bool) -> ResponseBody {
        ResponseBody(contentLength: size) { writer in
            defer { if removeAfter { try? FileManager.default.removeItem(atPath: path) } }
            guard let handle = FileHandle(forReadingAtPath: path) else {
                throw InventoryError(.storage, "the backup file could not be read back")
            }
            defer { try? handle.close() }
            while let chunk = try handle.read(upToCount: 64 * 1024), !chunk.isEmpty {
                try await writer.write(ByteBuffer(bytes: chunk))
            }
            try await writer.finish(nil)
        }
    }

    /// A file name for a scratch copy beside the database (readable by the server's user only once created).
    func scratchPath(_ kind: String, extension: String) -> String {
        (self.store.scratchFolder as NSString).appendingPathComponent(".\(kind)-\(UUID().uuidString).\(`extension`)")
    }

    /// Writes a request body to a new 0600 file as it arrives, never holding it all in memory.
    /// - Throws: 413 when the body is larger than `limit` (the partial file is removed by the caller).
    static func stream(_ body: RequestBody, to path: String, limit: Int64) async throws {
        guard PrivateFile.create(path),
            let handle = FileHandle(forWritingAtPath: path)
        else {
            throw InventoryError(.storage, field: "file", "the upload could not be stored")
        }
        defer { try? handle.close() }
        var written: Int64 = 0
        for try await buffer in body {
            written += Int64(buffer.readableBytes)
            guard written <= limit else {
                throw Problem(.contentTooLarge, code: .tooLarge, title: "Backup too large",
                              detail: "a backup of this shop can be at most \(limit / (1 << 20)) MiB (four times the live database plus 1 GiB)",
                              field: "file")
            }
            try handle.write(contentsOf: buffer.readableBytesView)
        }
        guard written > 0 else { throw InventoryError(.missingValue, field: "file", "send the backup file as the request body") }
    }
}
