import Foundation
import InventoryDomain
import InventoryStore
import PostgresNIO

extension InventoryPostgresRepository: ActivitySource, InventoryRepository {}

/// How many rows a whole-shop copy moved.
public struct ShopCopyCounts: Sendable, Hashable {
    /// Rows copied, by table (SQLite's names: `user` for PostgreSQL's `account`).
    public var rows: [String: Int]
    /// Pictures copied (files to or from a pictures folder).
    public var pictures: Int

    public var products: Int { self.rows["product", default: 0] }
    public var documents: Int { self.rows["document", default: 0] }
    public var users: Int { self.rows["user", default: 0] }
}

// MARK: - Whole-shop copies

/// The whole shop to and from an SQLite shop file: the portable backup every Stockroom backend writes and restores
/// (the server's `ShopArchive` puts it in a ZIP with the pictures), and `stockroom migrate`. See ``PostgresShopCopy``.
extension InventoryPostgresRepository {
    /// Writes the whole shop, from one consistent snapshot (`REPEATABLE READ, READ ONLY`), as a new SQLite shop file
    /// at `path` (0600; the same file an SQLite shop's backup is, at this version, ids and sequences preserved), and,
    /// when `pictures` names a folder, every picture in the database into it as a file of its own. The shop keeps
    /// working meanwhile.
    /// - Throws: ``InventoryError``; nothing is left at `path` then.
    @discardableResult
    public func writeShopFile(to path: String, pictures: String? = nil) async throws -> ShopCopyCounts {
        let file = try SQLiteShopFile.create(at: path)
        do {
            let counts = try await self.read { connection in
                let rows = try await PostgresShopCopy.copy(from: connection, to: file, logger: self.logger)
                var written = 0
                if let pictures { written = try await PostgresShopCopy.writePictures(from: connection, to: pictures, logger: self.logger) }
                return ShopCopyCounts(rows: rows, pictures: written)
            }
            try file.finish()
            return counts
        } catch {
            file.close()
            for suffix in ["", "-wal", "-shm", "-journal"] { try? FileManager.default.removeItem(atPath: path + suffix) }
            throw error
        }
    }

    /// Copies a whole SQLite shop file into this database, which must hold no shop yet, in one transaction (all or
    /// nothing): every table with its ids, the identity sequences moved past every id the file has given, and, when
    /// `pictures` names a folder (a data folder's `images`), its pictures into the database.
    /// - Parameter path: an SQLite shop file at this version (a data folder's `stockroom.sqlite`, or a copy of it).
    /// - Throws: ``InventoryError`` — `conflict` on `to` when this database already holds a shop (nothing is changed),
    ///   `invalidValue` on `from` for a value PostgreSQL cannot hold.
    @discardableResult
    public func copyShop(fromShopFile path: String, pictures: String? = nil) async throws -> ShopCopyCounts {
        let file = try SQLiteShopFile.openForReading(at: path)
        defer { file.close() }
        // `transaction`, not `write`: no settings are read before it nor stock alerts noted after it, as it replaces the shop.
        defer { self.settingsCache.invalidate() }  // the copied shop's, not the empty one's read at open
        return try await self.transaction { connection in
            // One copy at a time into this database, whichever process runs it: the second finds the first's shop.
            try await connection.execute("SELECT pg_advisory_xact_lock(hashtext('stockroom-shop-copy'))", logger: self.logger)
            let held = try await PostgresShopCopy.rowCounts(connection, logger: self.logger)
            guard held.isEmpty else {
                let count = { (table: String) in held.first { $0.table == table }?.rows ?? 0 }
                let others = held.filter { !["product", "document"].contains($0.table) }.map { "\($0.table) \($0.rows)" }
                throw InventoryError(.conflict, field: "to", "the target database already holds a shop (\(count("product")) products, \(count("document")) documents"
                                     + (others.isEmpty ? "" : "; other rows: \(others.prefix(4).joined(separator: ", "))") + "); migrate only into an empty one")
            }
            let rows = try await PostgresShopCopy.copy(from: file, to: connection, field: "from", logger: self.logger)
            var stored = 0
            if let pictures { stored = try await PostgresShopCopy.storePictures(from: pictures, connection, field: "from", logger: self.logger) }
            return Committing(value: ShopCopyCounts(rows: rows, pictures: stored))
        }
    }

    /// Replaces the whole shop with a backup file once it passes every check an SQLite shop's restore makes (a scratch
    /// copy checked by `InventorySQLiteRepository`: integrity, Stockroom's exact schema, every value's type,
    /// references, the domain's validators, an active admin, the books' balances; brought up to this version), in one
    /// transaction: every table emptied and refilled from the file, ids and sequences as the file has them, and the
    /// restore recorded in the restored audit log (``ShopActivity/Kind/backupRestored``). A refused file changes
    /// nothing.
    ///
    /// The pictures in the database (`pictureFile`) are kept as they are unless `pictures` names a folder: then they are
    /// replaced by that folder's pictures in the same transaction.
    /// - Throws: ``InventoryError`` naming `file` with the reason the backup is refused.
    public func restore(from path: String, pictures: String?) async throws {
        let scratch = (self.scratchFolder as NSString).appendingPathComponent(".restore-\(UUID().uuidString).sqlite")
        defer {
            for suffix in ["", "-wal", "-shm", "-journal"] { try? FileManager.default.removeItem(atPath: scratch + suffix) }
        }
        _ = try InventorySQLiteRepository.checkedCopy(of: path, to: scratch, scratchFolder: self.scratchFolder)
        let file = try SQLiteShopFile.openForReading(at: scratch)
        defer { file.close() }
        let agent = Agent.current
        // `transaction`, not `write`: no settings are read before it nor stock alerts noted after it, as it replaces the shop.
        try await self.transaction { connection in
            // Emptied in the transaction: every other reader and writer waits for its end, and a failure brings it all back.
            let emptied = PostgresShopCopy.tables.map(\.postgres) + (pictures == nil ? [] : ["pictureFile"])
            try await connection.execute(PostgresQuery(unsafeSQL: "TRUNCATE \(emptied.joined(separator: ", ")) RESTART IDENTITY"), logger: self.logger)
            _ = try await PostgresShopCopy.copy(from: file, to: connection, field: "file", logger: self.logger)
            if let pictures { _ = try await PostgresShopCopy.storePictures(from: pictures, connection, field: "file", logger: self.logger) }
            let settings = try await Self.loadSettings(connection, logger: self.logger)
            let log = PostgresActivityLog(connection, agent: agent, currency: settings.currency, logger: self.logger)
            try await log.record(ShopActivity(.backupRestored, by: agent, at: Self.now, currency: settings.currency))
            return Committing(value: (), activities: log.activities)
        }
    }
}

// MARK: - BackupRepository

extension InventoryPostgresRepository: BackupRepository {
    /// Writes the whole shop as a new SQLite shop file (0600), from one snapshot, without the pictures (the server's
    /// `ShopArchive` adds them): the portable backup any Stockroom restores. See ``writeShopFile(to:pictures:)``.
    public func backup(to path: String) async throws {
        try await self.writeShopFile(to: path)
    }

    /// Replaces the whole shop with a checked backup file, keeping the pictures in the database (the server's
    /// `ShopArchive` restores them apart). See ``restore(from:pictures:)``.
    public func restore(from path: String) async throws {
        try await self.restore(from: path, pictures: nil)
    }

    /// The size of this shop's tables, with their indexes and TOAST data, in bytes.
    public func databaseBytes() async throws -> Int64 {
        try await self.read { connection in
            try await connection.query("""
                SELECT COALESCE(sum(pg_total_relation_size(c.oid)), 0)::bigint FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
                WHERE n.nspname = current_schema() AND c.relkind = 'r'
                """, logger: self.logger).collect(Int64.self).first ?? 0
        }
    }

    /// The temporary folder: a PostgreSQL shop keeps no folder of its own.
    public var scratchFolder: String { self.scratch ?? FileManager.default.temporaryDirectory.path }
}
