import Foundation
import Hummingbird
import InventoryDomain

/// `GET /api/v1/backup` (the whole shop as one ZIP: a consistent copy of the database and every picture, streamed),
/// `POST /api/v1/restore` (such a ZIP, or a bare database from before pictures were included) and the backups kept in
/// the data folder (`/api/v1/backups`: list, take one now, download, restore one); admin only.
struct BackupController<Store: BackupRepository & CatalogueRepository & SettingsRepository & StaffRepository> {
    let store: Store
    let images: ImageStore
    let folder: BackupFolder<Store>
    /// Whether the server takes the daily backup itself.
    let automatic: Bool

    var archive: ShopArchive<Store> { ShopArchive(store: self.store, images: self.images) }

    func addRoutes(to api: Routes) {
        api.get("backup", .permission(.backup)) { _, _ in
            let path = self.scratchPath("backup", extension: "zip")
            do {
                // No picture is deleted between the copy of the database and the copy of the files.
                let archive = self.archive
                try await self.images.exclusively { try await archive.write(to: path) }
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
            let limit = try await self.archive.limitBytes()
            try await Self.stream(request.body, to: path, limit: limit)
            return JSON(try await self.restore(from: path, limit: limit))
        }
        let backups = api.group("backups")
        backups.get(.permission(.backup)) { _, _ in
            let policy = self.folder.policy
            return JSON(BackupListResponse(
                automatic: self.automatic, policy: .init(keepDaily: policy.keepDaily, keepWeekly: policy.keepWeekly, hour: policy.hour),
                nextDueAt: self.automatic ? try await self.folder.nextDue().iso8601 : nil,
                backups: try await self.folder.list().map(BackupEntryResponse.init)))
        }
        backups.post(.permission(.backup)) { _, _ in
            let record = try await self.folder.take(automatic: false)
            let listed = try await self.folder.list().first { $0.record.name == record.name } ?? ListedBackup(record: record, kept: [])
            return JSON(BackupEntryResponse(listed), status: .created)
        }
        backups.get(":name", .permission(.backup)) { _, context in
            let path = try await self.keptBackup(context)
            let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.intValue
            let name = (path as NSString).lastPathComponent
            return Response(status: .ok, headers: [.contentType: "application/zip", .contentDisposition: "attachment; filename=\"\(name)\""],
                            body: Self.streamFile(path, size: size, removeAfter: false))
        }
        backups.post(":name/restore", .permission(.backup)) { _, context in
            let path = try await self.keptBackup(context)
            // Restored from a copy: the restore may prune nothing, but the kept file must not change under it.
            let copy = self.scratchPath("restore-kept", extension: "zip")
            defer { try? FileManager.default.removeItem(atPath: copy) }
            do {
                try PrivateFile.copy(from: path, to: copy)
            } catch {
                throw InventoryError(.storage, field: "name", "the backup could not be copied for restoring", cause: error)
            }
            return JSON(try await self.restore(from: copy, limit: try await self.archive.limitBytes()))
        }
    }

    /// The path of the kept backup the request names. - Throws: 404 naming `name` when there is none.
    func keptBackup(_ context: AppRequestContext) async throws -> String {
        let name = context.parameters.get("name") ?? ""
        guard let path = await self.folder.file(named: name) else {
            throw InventoryError(.notFound, field: "name", "there is no backup named '\(name.prefix(60))' in the backups folder")
        }
        return path
    }

    /// Restores a checked backup file while no picture changes, and says what the shop now holds.
    /// A refused restore (not a backup this server accepts, too large, failing its checks) changes nothing, but is
    /// recorded as ``ShopActivity/Kind/restoreRefused`` with its reason — an alert for the managers who opted in.
    func restore(from path: String, limit: Int64) async throws -> RestoreResponse {
        let archive = self.archive
        let pictures: Int?
        do {
            pictures = try await self.images.exclusively { try await archive.restore(from: path, limit: limit) }
        } catch let error as InventoryError {
            try? await self.store.recordAudit(.restoreRefused(error.userMessage, by: Agent.current))
            throw error
        } catch let problem as Problem {
            try? await self.store.recordAudit(.restoreRefused(problem.detail, by: Agent.current))
            throw problem
        }
        return RestoreResponse(restored: true, products: try await self.store.products(ProductQuery(includeArchived: true, limit: 1)).total,
                               pictures: pictures)
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
