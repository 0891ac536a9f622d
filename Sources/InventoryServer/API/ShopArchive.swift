import BarcodeImage
import Foundation
import InventoryDomain
import InventoryStore
import ZIPFoundation

/// A whole shop in one file: a ZIP holding `stockroom.sqlite` (a consistent online copy of the database) and every
/// product picture under `images/`. Restoring one checks everything before anything changes: the entries (names,
/// kinds, sizes: no path outside the archive, no zip bomb), every picture (its header and cleaning, as an upload is
/// checked) and the database (``BackupRepository/restore(from:)``); the pictures folder and the database are
/// then swapped together, and a refused database puts the old pictures back. A bare SQLite file (a backup from before
/// pictures were included) still restores, leaving the pictures as they are.
struct ShopArchive<Store: BackupRepository> {
    let store: Store
    let images: ImageStore

    /// The archive's database entry.
    static var databaseEntry: String { "stockroom.sqlite" }
    /// Pictures in an archive are stored under this folder.
    static var imagesFolder: String { "images/" }
    /// The most entries an archive may hold.
    static var maximumEntries: Int { 200_000 }

    /// Writes the archive to `path` (a new 0600 file), working in a scratch folder beside the database.
    func write(to path: String) async throws {
        let scratch = try self.scratchFolder("backup")
        defer { try? FileManager.default.removeItem(atPath: scratch.path) }
        let database = scratch.appendingPathComponent(Self.databaseEntry)
        try await self.store.backup(to: database.path)
        // Made inside the 0700 scratch folder (ZIPFoundation creates the file with the process's umask), made 0600,
        // then moved to `path`: the archive is never readable by others, not even while it is written.
        let made = scratch.appendingPathComponent("backup.zip")
        do {
            try await self.fill(made, database: database)  // the archive is closed when this returns
            _ = chmod(made.path, 0o600)
            try FileManager.default.moveItem(at: made, to: URL(fileURLWithPath: path))
        } catch {
            throw InventoryError(.storage, "the backup could not be written", cause: error)
        }
    }

    /// Writes the database and every picture into a new archive at `url`.
    func fill(_ url: URL, database: URL) async throws {
        let archive = try Archive(url: url, accessMode: .create)
        try archive.addEntry(with: Self.databaseEntry, fileURL: database, compressionMethod: .deflate)
        if let pictures = self.images.database {
            // Pictures kept in the database: written from there, one at a time (each at most ImageStore.maxBytes).
            for name in try await pictures.pictureFileNames() where Self.isPictureName(name) {
                guard let bytes = try await pictures.pictureFile(name) else { continue }  // deleted meanwhile
                let data = Data(bytes)
                try archive.addEntry(with: Self.imagesFolder + name, type: .file, uncompressedSize: Int64(data.count)) { position, size in
                    data.subdata(in: Int(position)..<Int(position) + size)
                }
            }
            return
        }
        for name in self.pictureNames() {
            // Pictures are JPEG or PNG, already compressed.
            try archive.addEntry(with: Self.imagesFolder + name, fileURL: URL(fileURLWithPath: self.images.folder).appendingPathComponent(name))
        }
    }

    /// The most bytes a backup of this shop may take, uploaded or unpacked: four times the live database and
    /// pictures, plus 1 GiB.
    func limitBytes() async throws -> Int64 {
        let folder = URL(fileURLWithPath: self.images.folder)
        let pictures = self.pictureNames().reduce(Int64(0)) { total, name in
            let size = (try? FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent(name).path)[.size] as? NSNumber)?.int64Value
            return total + (size ?? 0)
        }
        let (times4, overflow) = (try await self.store.databaseBytes() + pictures).multipliedReportingOverflow(by: 4)
        return overflow ? Int64.max : times4 &+ (1 << 30)
    }

    /// The stored pictures' names, sorted.
    func pictureNames() -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: self.images.folder)) ?? []
        return names.filter(Self.isPictureName).sorted()
    }

    /// Whether `name` is a name the picture store gives (``ProductPictures/isValidName(_:)``): nothing else is
    /// archived or restored.
    static func isPictureName(_ name: String) -> Bool { ProductPictures.isValidName(name) }

    /// A new 0700 folder beside the database for scratch work (``PrivateFolder``: never wider, not even for an instant).
    func scratchFolder(_ kind: String) throws -> URL {
        let url = URL(fileURLWithPath: self.store.scratchFolder).appendingPathComponent(".\(kind)-\(UUID().uuidString)")
        do {
            try PrivateFolder.create(atPath: url.path)
        } catch {
            throw InventoryError(.storage, field: "file", "no room for scratch files beside the database", cause: error)
        }
        return url
    }

    /// Restores a backup file: an archive of this kind, or a bare SQLite database.
    /// - Parameter limit: the most bytes the archive may unpack to.
    /// - Returns: how many pictures the backup brought (nil for a bare database).
    /// - Throws: ``InventoryError`` naming `file` when it is refused; nothing has changed then.
    @discardableResult
    func restore(from path: String, limit: Int64) async throws -> Int? {
        let head = Self.head(of: path)
        if head.starts(with: Array("SQLite format 3".utf8)) {
            try await self.store.restore(from: path)
            return nil
        }
        guard head.starts(with: [0x50, 0x4B, 0x03, 0x04]) else {
            throw InventoryError(.invalidValue, field: "file", "the file is not a Stockroom backup: neither the .zip that Download backup gives nor an SQLite database")
        }
        let scratch = try self.scratchFolder("restore")
        defer { try? FileManager.default.removeItem(atPath: scratch.path) }
        if let database = self.images.database { return try await self.restore(from: path, into: database, scratch: scratch, limit: limit) }
        // The new pictures are unpacked beside the live folder, so swapping them in is a rename on the same disk.
        let live = URL(fileURLWithPath: self.images.folder)
        let parent = live.deletingLastPathComponent()
        let pictures = parent.appendingPathComponent(".images-new-\(UUID().uuidString)")
        let old = parent.appendingPathComponent(".images-old-\(UUID().uuidString)")
        defer {
            try? FileManager.default.removeItem(at: pictures)
            try? FileManager.default.removeItem(at: old)
        }
        do {
            try PrivateFolder.create(atPath: pictures.path)
        } catch {
            throw InventoryError(.storage, field: "file", "no room to unpack the backup's pictures", cause: error)
        }
        let database = scratch.appendingPathComponent(Self.databaseEntry)
        let count = try await Self.unpack(path, database: database, pictures: pictures, limit: limit)

        // Swap the pictures in, then the database; a refused database puts the old pictures back.
        let hadPictures = FileManager.default.fileExists(atPath: live.path)
        do {
            if hadPictures { try FileManager.default.moveItem(at: live, to: old) }
            try FileManager.default.moveItem(at: pictures, to: live)
        } catch {
            if hadPictures, !FileManager.default.fileExists(atPath: live.path) { try? FileManager.default.moveItem(at: old, to: live) }
            throw InventoryError(.storage, field: "file", "the pictures could not be put in place", cause: error)
        }
        do {
            try await self.store.restore(from: database.path)
        } catch {
            try? FileManager.default.removeItem(at: live)
            if hadPictures { try? FileManager.default.moveItem(at: old, to: live) }
            throw error
        }
        return count
    }

    /// Restores an archive whose pictures go into the database: the backup's pictures are stored first, then the
    /// database is replaced, then the pictures the backup does not hold are deleted. A refused database leaves the old
    /// shop whole (the pictures stored for it are swept later, as no product shows them).
    private func restore(from path: String, into pictures: any PictureFileRepository, scratch: URL, limit: Int64) async throws -> Int {
        let folder = scratch.appendingPathComponent("images")
        do {
            try PrivateFolder.create(atPath: folder.path)
        } catch {
            throw InventoryError(.storage, field: "file", "no room to unpack the backup's pictures", cause: error)
        }
        let database = scratch.appendingPathComponent(Self.databaseEntry)
        let count = try await Self.unpack(path, database: database, pictures: folder, limit: limit)
        var names = Set<String>()
        for name in ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted() where Self.isPictureName(name) {
            guard let data = FileManager.default.contents(atPath: folder.appendingPathComponent(name).path) else {
                throw InventoryError(.storage, field: "file", "the backup's pictures could not be unpacked")
            }
            _ = try await pictures.storePictureFile(name, bytes: Array(data))
            names.insert(name)
        }
        try await self.store.restore(from: database.path)
        try await pictures.deletePictureFiles(except: names)
        return count
    }

    /// Checks a backup file without restoring it: every entry, every picture and the database, exactly as
    /// ``restore(from:limit:)`` checks them before changing anything (the database through
    /// `InventorySQLiteRepository.verifyBackup`), unpacking into a scratch folder inside `scratchFolder` that is
    /// removed afterwards. A backup that passes is one a restore accepts.
    /// - Parameter limit: the most bytes the archive may unpack to.
    /// - Throws: ``InventoryError`` naming `file` with the reason it would be refused.
    static func verify(_ path: String, scratchFolder: String, limit: Int64) async throws -> BackupContents {
        let head = Self.head(of: path)
        if head.starts(with: Array("SQLite format 3".utf8)) {
            return try InventorySQLiteRepository.verifyBackup(at: path, scratchFolder: scratchFolder)
        }
        guard head.starts(with: [0x50, 0x4B, 0x03, 0x04]) else {
            throw InventoryError(.invalidValue, field: "file", "the file is not a Stockroom backup: neither the .zip that Download backup gives nor an SQLite database")
        }
        let scratch = URL(fileURLWithPath: scratchFolder).appendingPathComponent(".verify-\(UUID().uuidString)")
        do {
            try PrivateFolder.create(atPath: scratch.appendingPathComponent("images").path)
        } catch {
            throw InventoryError(.storage, field: "file", "no room for scratch files to check the backup", cause: error)
        }
        defer { try? FileManager.default.removeItem(at: scratch) }
        let database = scratch.appendingPathComponent(Self.databaseEntry)
        let pictures = try await Self.unpack(path, database: database, pictures: scratch.appendingPathComponent("images"), limit: limit)
        var contents = try InventorySQLiteRepository.verifyBackup(at: database.path, scratchFolder: scratch.path)
        contents.pictures = pictures
        return contents
    }

    /// The first bytes of a file.
    static func head(of path: String) -> [UInt8] {
        guard let handle = FileHandle(forReadingAtPath: path) else { return [] }
        defer { try? handle.close() }
        return Array((try? handle.read(upToCount: 16)) ?? Data())
    }

    /// Checks every entry and unpacks the database and the (checked, cleaned) pictures into the scratch folder.
    /// - Returns: the number of pictures.
    static func unpack(_ path: String, database: URL, pictures: URL, limit: Int64) async throws -> Int {
        let archive: Archive
        do {
            archive = try Archive(url: URL(fileURLWithPath: path), accessMode: .read)
        } catch {
            throw InventoryError(.invalidValue, field: "file", "the backup is not a readable ZIP archive", cause: error)
        }
        var seen = Set<String>()
        var total: Int64 = 0
        var pictureCount = 0
        for entry in archive {
            guard seen.count < Self.maximumEntries else {
                throw InventoryError(.invalidValue, field: "file", "the backup has more than \(Self.maximumEntries) entries")
            }
            let name = entry.path
            guard seen.insert(name).inserted else {
                throw InventoryError(.invalidValue, field: "file", "the backup holds '\(name.prefix(80))' twice")
            }
            if entry.type == .directory && name == Self.imagesFolder { continue }
            guard entry.type == .file else {
                throw InventoryError(.invalidValue, field: "file", "the backup's entry '\(name.prefix(80))' is not a plain file")
            }
            if name == Self.databaseEntry {
                let remaining = limit - total
                total += try Self.extract(entry, from: archive, to: database, limit: remaining, name: name)
            } else if name.hasPrefix(Self.imagesFolder), Self.isPictureName(String(name.dropFirst(Self.imagesFolder.count))) {
                let file = String(name.dropFirst(Self.imagesFolder.count))
                let bytes = try Self.read(entry, from: archive, limit: min(Int64(ImageStore.maxBytes), limit - total), name: name)
                total += Int64(bytes.count)
                let cleaned: [UInt8]
                do {
                    _ = try ImageStore.checkHeader(bytes, field: "file")
                    cleaned = try ImageSanitizer.clean(bytes)
                } catch let error as InventoryError {
                    throw InventoryError(.invalidValue, field: "file", "the backup's picture \(file) is refused: \(error.userMessage)")
                } catch {
                    throw InventoryError(.invalidValue, field: "file", "the backup's picture \(file) cannot be read")
                }
                let target = pictures.appendingPathComponent(file)
                guard PrivateFile.create(target.path, contents: Data(cleaned)) else {
                    throw InventoryError(.storage, field: "file", "the backup's pictures could not be unpacked")
                }
                pictureCount += 1
            } else {
                throw InventoryError(.invalidValue, field: "file", "the backup holds '\(name.prefix(80))', which is not part of a Stockroom backup")
            }
        }
        guard seen.contains(Self.databaseEntry) else {
            throw InventoryError(.invalidValue, field: "file", "the backup has no \(Self.databaseEntry)")
        }
        return pictureCount
    }

    /// Unpacks one entry to a new 0600 file, refusing it once it passes `limit` bytes (whatever its header claims).
    static func extract(_ entry: Entry, from archive: Archive, to url: URL, limit: Int64, name: String) throws -> Int64 {
        guard PrivateFile.create(url.path),
            let handle = FileHandle(forWritingAtPath: url.path)
        else {
            throw InventoryError(.storage, field: "file", "the backup could not be unpacked")
        }
        defer { try? handle.close() }
        var written: Int64 = 0
        do {
            _ = try archive.extract(entry) { chunk in
                written += Int64(chunk.count)
                guard written <= limit else { throw Self.tooLarge(name) }
                try handle.write(contentsOf: chunk)
            }
        } catch let error as InventoryError {
            throw error
        } catch {
            throw InventoryError(.invalidValue, field: "file", "the backup's entry '\(name.prefix(80))' is damaged", cause: error)
        }
        return written
    }

    /// Reads one (small) entry into memory, refusing it once it passes `limit` bytes.
    static func read(_ entry: Entry, from archive: Archive, limit: Int64, name: String) throws -> [UInt8] {
        var bytes: [UInt8] = []
        do {
            _ = try archive.extract(entry) { chunk in
                guard Int64(bytes.count + chunk.count) <= limit else { throw Self.tooLarge(name) }
                bytes.append(contentsOf: chunk)
            }
        } catch let error as InventoryError {
            throw error
        } catch {
            throw InventoryError(.invalidValue, field: "file", "the backup's entry '\(name.prefix(80))' is damaged", cause: error)
        }
        return bytes
    }

    static func tooLarge(_ name: String) -> InventoryError {
        InventoryError(.invalidValue, field: "file", "the backup's entry '\(name.prefix(80))' unpacks to more than this shop's limit")
    }
}
