import Foundation
import GRDB
import InventoryDomain

/// Restoring a backup file. The file is treated as hostile until proven otherwise: it is checked in a scratch copy
/// (integrity, the exact schema Stockroom makes, every value's storage type, the settings and a sample of every
/// table through the domain's validators, the books' balances), migrated there, and only then copied over the live
/// database in one step. A refused file leaves the live database untouched.
// MARK: - BackupRepository

extension InventorySQLiteRepository {
    /// How many rows of each table at each end (by id) are read back through the domain's validators.
    static let restoreSampleRows = 500

    /// The folder for scratch files next to the live database (the temporary folder for an in-memory one), so a
    /// large upload lands on the same disk as the database it may replace.
    public var scratchFolder: String {
        let path = self.dbWriter.path
        guard path != ":memory:", !path.isEmpty else { return FileManager.default.temporaryDirectory.path }
        return (path as NSString).deletingLastPathComponent
    }

    /// The size in bytes of the live database file and its write-ahead log (0 in memory).
    public func databaseBytes() -> Int64 {
        let path = self.dbWriter.path
        return [path, path + "-wal"].reduce(Int64(0)) { total, file in
            let size = (try? FileManager.default.attributesOfItem(atPath: file)[.size] as? NSNumber)?.int64Value ?? 0
            return total + size
        }
    }

    /// The largest backup ``restore(from:)`` accepts, in bytes: four times the live database and its log, plus 1 GiB.
    public func restoreLimitBytes() -> Int64 {
        let (times4, overflow) = self.databaseBytes().multipliedReportingOverflow(by: 4)
        return overflow ? Int64.max : times4 &+ (1 << 30)
    }

    /// Replaces the live database with a backup file, online, after checking it as described on this extension.
    /// - Parameter path: the uploaded file; it is not changed (the checks run on a copy).
    /// - Throws: ``InventoryError`` naming `file` (or the setting at fault) when the file is refused; the live data is
    ///   unchanged then.
    public func restore(from path: String) throws {
        // After a failed flush of the log nothing more is written (``WALFlusher``), a restore included.
        if let failure = self.coalescer.flusher?.failure { throw failure }
        let restored: ShopActivity = try Self.withCheckedCopy(of: path, scratchFolder: self.scratchFolder) { checked, _ in
            // The restore is audited in the restored books themselves, so the entry arrives with them or not at all.
            let restored: ShopActivity
            do {
                restored = try checked.write { db in
                    // The search index is derived data: rebuilt from the restored products, never taken from the file.
                    try db.execute(sql: "INSERT INTO productSearch(productSearch) VALUES ('rebuild')")
                    let activity = ShopActivity(.backupRestored, by: Agent.current, currency: try Self.loadSettings(db).currency)
                    try Self.insertAudit(db, activity)
                    return activity
                }
            } catch {
                throw InventoryError(.invalidValue, field: "file", "the backup could not be read back: \(error)", cause: error)
            }
            do {
                defer { self.dropRecentReads() }
                try checked.backup(to: self.dbWriter)
                try SQLiteMigrations.migrator.migrate(self.dbWriter)
                // The writer commits without flushing (``WALFlusher``): the restored books are on the disk before the
                // restore is answered.
                try self.coalescer.flusher?.flushNow()
            } catch {
                throw InventoryError(.storage, field: "file", "the restore failed", cause: error)
            }
            return restored
        }
        self.activityFeed.publish([restored])
    }

    /// Checks a backup database offline, as ``restore(from:)`` checks it before restoring (a copy is checked and
    /// brought up to this version in `scratchFolder`; the file itself is not changed), and says what it holds.
    /// - Throws: ``InventoryError`` naming `file` with the reason the backup would be refused.
    public static func verifyBackup(at path: String, scratchFolder: String) throws -> BackupContents {
        try self.withCheckedCopy(of: path, scratchFolder: scratchFolder) { checked, applied in
            do {
                return try checked.read { db in try Self.contents(db, applied: applied) }
            } catch {
                if let error = error as? InventoryError { throw error }
                throw InventoryError(.invalidValue, field: "file", "the backup could not be read back: \(error)", cause: error)
            }
        }
    }

    /// What a checked backup holds, for the one who restores it.
    static func contents(_ db: Database, applied: [String]) throws -> BackupContents {
        func count(_ sql: String) throws -> Int { try Int.fetchOne(db, sql: sql) ?? 0 }
        return BackupContents(
            version: applied.last ?? "",
            shopName: try Self.loadSettings(db).shopName,
            products: try count("SELECT COUNT(*) FROM product"),
            documents: try count("SELECT COUNT(*) FROM document"),
            users: try count("SELECT COUNT(*) FROM user"),
            lastDocumentAt: try Int64.fetchOne(db, sql: "SELECT MAX(effectiveAt) FROM document").map(Instant.init(milliseconds:)))
    }

    /// Copies a backup file into `scratchFolder`, checks the copy (``inspectBackup(at:)``), brings it up to this
    /// version, checks its contents (``validateContents(_:)``) and hands it to `body` with the migrations the file had;
    /// the copy is removed afterwards.
    static func withCheckedCopy<T>(of path: String, scratchFolder: String, _ body: (DatabaseQueue, _ applied: [String]) throws -> T) throws -> T {
        let scratch = (scratchFolder as NSString).appendingPathComponent(".restore-\(UUID().uuidString).sqlite")
        defer {
            for suffix in ["", "-wal", "-shm", "-journal"] { try? FileManager.default.removeItem(atPath: scratch + suffix) }
        }
        do {
            try PrivateFile.copy(from: path, to: scratch)
        } catch {
            throw InventoryError(.storage, field: "file", "the upload could not be copied for checking", cause: error)
        }
        let applied = try Self.inspectBackup(at: scratch)
        let checked: DatabaseQueue
        do {
            checked = try DatabaseQueue(path: scratch, configuration: Self.restoreConfiguration(readonly: false))
            try SQLiteMigrations.migrator.migrate(checked)
        } catch {
            throw InventoryError(.invalidValue, field: "file", "the backup could not be brought up to this version (from \(applied.last ?? "nothing"))",
                                 cause: error)
        }
        defer { try? checked.close() }
        do {
            try checked.read { db in try Self.validateContents(db) }
        } catch {
            if let error = error as? InventoryError { throw error }
            throw InventoryError(.invalidValue, field: "file", "the backup could not be read back: \(error)", cause: error)
        }
        return try body(checked, applied)
    }

    static func restoreConfiguration(readonly: Bool) -> Configuration {
        var configuration = Configuration()
        configuration.readonly = readonly
        configuration.foreignKeysEnabled = false  // checked explicitly with foreign_key_check
        configuration.prepareDatabase { db in
            // Nothing in a foreign schema (a view, a trigger, a default) may call functions with side effects.
            try db.execute(sql: "PRAGMA trusted_schema = OFF")
            try db.execute(sql: "PRAGMA cell_size_check = ON")
        }
        return configuration
    }

    /// Opens the copy read-only and checks what can be checked before anything runs on it: an SQLite file that passes
    /// the integrity check, whose migrations are a prefix of this version's, and whose schema is exactly the one those
    /// migrations make (tables, columns, indexes; no trigger or view Stockroom did not create).
    /// - Returns: the applied migration names.
    static func inspectBackup(at path: String) throws -> [String] {
        do {
            let source = try DatabaseQueue(path: path, configuration: self.restoreConfiguration(readonly: true))
            defer { try? source.close() }
            return try source.read { db in
                let integrity = try String.fetchAll(db, sql: "PRAGMA integrity_check")
                guard integrity == ["ok"] else {
                    throw InventoryError(.invalidValue, field: "file",
                                         "the backup is damaged (integrity check: \(integrity.prefix(3).joined(separator: "; ")))")
                }
                guard try db.tableExists("grdb_migrations") else {
                    throw InventoryError(.invalidValue, field: "file", "the file is not a Stockroom backup (it has no migrations table)")
                }
                let applied = try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations ORDER BY rowid")
                let known = SQLiteMigrations.names
                guard let last = applied.last, applied.count <= known.count, Set(applied) == Set(known.prefix(applied.count)),
                    applied.contains("v1-books")
                else {
                    throw InventoryError(.invalidValue, field: "file",
                                         "the file is not a Stockroom backup this version can read (its migrations: \(applied.prefix(8).joined(separator: ", ")))")
                }
                try self.requireSchema(of: db, matchingMigrationsUpTo: last)
                return applied
            }
        } catch let error as InventoryError {
            throw error
        } catch {
            throw InventoryError(.invalidValue, field: "file", "the file is not an SQLite database", cause: error)
        }
    }

    /// One schema object as SQLite records it, with whitespace folded so only real differences count.
    struct SchemaObject: Hashable, Comparable, CustomStringConvertible {
        var type: String
        var name: String
        var table: String
        var sql: String

        static func < (a: SchemaObject, b: SchemaObject) -> Bool { (a.type, a.name) < (b.type, b.name) }
        var description: String { "\(self.type) '\(self.name)'" }
    }

    static func schema(_ db: Database) throws -> [SchemaObject] {
        try Row.fetchAll(db, sql: "SELECT type, name, tbl_name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite\\_%' ESCAPE '\\'").map { row in
            let sql: String = (row["sql"] as String?) ?? ""
            return SchemaObject(type: row["type"], name: row["name"], table: row["tbl_name"],
                                sql: sql.split(whereSeparator: \.isWhitespace).joined(separator: " "))
        }.sorted()
    }

    /// Throws naming the first difference between the file's schema and the one the migrations up to `last` make.
    static func requireSchema(of db: Database, matchingMigrationsUpTo last: String) throws {
        let reference = try DatabaseQueue()
        try SQLiteMigrations.migrator.migrate(reference, upTo: last)
        let expected = try reference.read { try self.schema($0) }
        let actual = try self.schema(db)
        guard expected != actual else { return }
        let expectedByName = Dictionary(expected.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        let actualByName = Dictionary(actual.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        let reason: String
        if let extra = actual.first(where: { expectedByName[$0.name] == nil }) {
            reason = "it has a \(extra) that Stockroom does not create"
        } else if let missing = expected.first(where: { actualByName[$0.name] == nil }) {
            reason = "its \(missing) is missing"
        } else if let changed = actual.first(where: { expectedByName[$0.name] != $0 }) {
            reason = "its \(changed) differs from Stockroom's"
        } else {
            reason = "its schema differs from Stockroom's"
        }
        throw InventoryError(.invalidValue, field: "file", "the file is not a Stockroom backup: \(reason)")
    }

    /// The checks that read the (migrated) copy's rows: every value's storage type, foreign keys, the settings, a
    /// sample of every table through the domain's validators, at least one active admin, and the books' balances.
    static func validateContents(_ db: Database) throws {
        try self.requireStorageTypes(db)
        if let row = try Row.fetchOne(db, sql: "PRAGMA foreign_key_check") {
            throw InventoryError(.invalidValue, field: "file", "the backup has a broken reference (table \((row[0] as String?) ?? "?"), row \((row[1] as Int64?) ?? 0))")
        }
        do {
            _ = try self.loadSettings(db)
        } catch let error as InventoryError {
            throw InventoryError(.invalidValue, field: "file", "the backup's setting \(error.field ?? "") is invalid: \(error.userMessage)")
        }
        try self.validateSample(db)
        try self.validatePictureRows(db)
        let admins = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM user WHERE role = 'admin' AND isActive = 1") ?? 0
        guard admins > 0 else {
            throw InventoryError(.invalidValue, field: "file", "the backup has no active admin, so no one could sign in to manage the shop")
        }
        let unbalanced = try Int64.fetchOne(db, sql: """
            SELECT p.id FROM product p
            LEFT JOIN movement m ON m.id = (SELECT id FROM movement WHERE productId = p.id ORDER BY effectiveAt DESC, documentId DESC, lineNo DESC LIMIT 1)
            WHERE p.quantity != COALESCE(m.quantityAfter, 0) OR p.value != COALESCE(m.valueAfter, 0)
            LIMIT 1
            """)
        if let unbalanced {
            throw InventoryError(.invalidValue, field: "file", "the backup's stock of product \(unbalanced) does not match its stock history")
        }
    }

    /// Every column holds only what its declared type says (SQLite would store any value anywhere), and no NULL where
    /// the column is NOT NULL, so reading a row can never meet a value of the wrong kind.
    static func requireStorageTypes(_ db: Database) throws {
        let tables = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'")
        for table in tables {
            var conditions: [String] = []
            for column in try db.columns(in: table) {
                let name = column.name.replacingOccurrences(of: "\"", with: "\"\"")
                let kind: String
                switch column.type.uppercased() {
                case "INTEGER": kind = "integer"
                case "TEXT": kind = "text"
                default: continue
                }
                let allowed = column.isNotNull || column.primaryKeyIndex > 0 ? "('\(kind)')" : "('\(kind)', 'null')"
                conditions.append("typeof(\"\(name)\") NOT IN \(allowed)")
            }
            guard !conditions.isEmpty else { continue }
            let quoted = table.replacingOccurrences(of: "\"", with: "\"\"")
            let sql = "SELECT EXISTS (SELECT 1 FROM \"\(quoted)\" WHERE \(conditions.joined(separator: " OR ")))"
            if try Bool.fetchOne(db, sql: sql) == true {
                throw InventoryError(.invalidValue, field: "file", "the backup's table \(table) holds a value of the wrong kind")
            }
        }
    }

    /// The first and last ``restoreSampleRows`` rows of each table, read the way the app reads them and checked by the
    /// domain's validators.
    static func validateSample(_ db: Database) throws {
        let limit = self.restoreSampleRows
        func sample(_ table: String, _ columns: String) throws -> [Row] {
            try Row.fetchAll(db, sql: "SELECT \(columns) FROM \(table) WHERE id IN (SELECT id FROM \(table) ORDER BY id LIMIT \(limit)) OR id IN (SELECT id FROM \(table) ORDER BY id DESC LIMIT \(limit))")
        }
        func check(_ table: String, _ id: Int64, _ body: () throws -> Void) throws {
            do {
                try body()
            } catch let error as InventoryError {
                throw InventoryError(.invalidValue, field: "file",
                                     "the backup's \(table) \(id) is invalid: \(error.field.map { "\($0) " } ?? "")\(error.userMessage)")
            }
        }
        for row in try sample("category", "id, name, color, lowStockThreshold, markup") {
            try check("category", row[0]) { _ = try self.category(row).validated() }
        }
        for table in ["supplier", "customer"] {
            for row in try sample(table, self.contactColumns(table)) {
                try check(table, row[0]) {
                    _ = try self.contact(Supplier.self)(row).validated()
                }
            }
        }
        for row in try sample("product p", self.productColumns) {
            try check("product", row[0]) {
                let product = self.product(row)
                _ = try product.details.validated()
                // A balance sums many lines, each within a line's limit: it is held to the ledger's (a shop whose stock
                // is worth more than one line may be must still restore from its own backup).
                for (field, amount) in [("quantity", product.stock.quantity.thousandths), ("value", product.stock.value.minorUnits)]
                where amount.magnitude >= UInt64(StockLedger.balanceLimit) {
                    throw InventoryError(.invalidValue, field: field, "is beyond what the books can hold")
                }
            }
        }
        for row in try sample("user", "\(self.accountColumns), role AS rawRole") {
            try check("user", row[0]) {
                guard Role(rawValue: row["rawRole"]) != nil else { throw InventoryError(.invalidValue, field: "role", "is not staff, manager or admin") }
                let account = self.account(row)
                _ = try StaffAccount.validateUsername(account.username)
                _ = try StaffAccount.validateJobTitle(account.jobTitle)
                guard account.passwordHash.hasPrefix("$2") else { throw InventoryError(.invalidValue, field: "passwordHash", "is not a bcrypt hash") }
            }
        }
        for row in try sample("parkedSale", "id") {
            try check("parked sale", row[0]) {
                for parked in try self.fetchParkedSales(db, id: row[0]) { _ = try parked.validated() }
            }
        }
        for row in try sample("salePayment", "id, method, status, amount") {
            try check("payment", row[0]) {
                guard PaymentMethod(rawValue: row[1]) != nil else { throw InventoryError(.invalidValue, field: "method", "is not cash, card or other") }
                guard let status = PaymentStatus(rawValue: row[2]), PaymentStatus.takenStatuses.contains(status) else {
                    throw InventoryError(.invalidValue, field: "status", "is not pending, completed or failed")
                }
                try Money(minorUnits: row[3]).requireWithinLimit(field: "amount")
            }
        }
        for row in try sample("drawerSession", "id, openingFloat, closingReport") {
            try check("drawer session", row[0]) {
                try Money(minorUnits: row[1]).requireWithinLimit(field: "openingFloat")
                if let report = row[2] as String?, (try? JSONDecoder().decode(DrawerReport.self, from: Data(report.utf8))) == nil {
                    throw InventoryError(.invalidValue, field: "closingReport", "is not a drawer report")
                }
            }
        }
        let documentKinds = Set(MovementKind.allCases.map(\.rawValue))
        for row in try sample("document", "id, kind, paymentMethod, reason") {
            try check("document", row[0]) {
                guard documentKinds.contains(row[1]) else { throw InventoryError(.invalidValue, field: "kind", "is not a known document kind") }
                if let method = row[2] as String?, PaymentMethod(rawValue: method) == nil {
                    throw InventoryError(.invalidValue, field: "paymentMethod", "is not cash, card or other")
                }
                if let reason = row[3] as String?, AdjustmentReason(rawValue: reason) == nil {
                    throw InventoryError(.invalidValue, field: "reason", "is not a known adjustment reason")
                }
            }
        }
        for row in try sample("movement", "id, kind, quantity, quantityAfter, valueAfter") {
            try check("movement", row[0]) {
                guard documentKinds.contains(row[1]) else { throw InventoryError(.invalidValue, field: "kind", "is not a known movement kind") }
                for (index, field) in [(2, "quantity"), (3, "quantityAfter"), (4, "valueAfter")] {
                    let value: Int64 = row[index]
                    guard value != .min else { throw InventoryError(.invalidValue, field: field, "is out of range") }
                    if index == 2 {
                        try Quantity(thousandths: abs(value)).requireWithinLimit(field: field)
                    } else if value.magnitude >= UInt64(StockLedger.balanceLimit) {
                        // The balances after a movement sum many lines: held to the ledger's limit, not a line's.
                        throw InventoryError(.invalidValue, field: field, "is beyond what the books can hold")
                    }
                }
            }
        }
    }
}
