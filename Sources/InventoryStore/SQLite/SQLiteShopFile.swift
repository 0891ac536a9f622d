import Foundation
import GRDB
import InventoryDomain

/// A value as an SQLite shop file holds it: the storage classes Stockroom's schema uses (no REAL: Stockroom keeps
/// no floating-point value).
package enum StoredValue: Sendable, Hashable {
    case null
    case integer(Int64)
    case text(String)
    case blob([UInt8])
}

/// One column of a table of an SQLite shop file, as `PRAGMA table_info` gives it.
package struct StoredColumn: Sendable, Hashable {
    package var name: String
    /// Its position in the table's primary key (1-based), 0 when it is not part of it.
    package var primaryKeyIndex: Int
}

/// An SQLite shop database file opened for a whole-shop copy to or from another backend (the PostgreSQL backend's
/// backup, restore and `stockroom migrate`), table by table, without any of the store's rules: the other backend's
/// schema mirrors this one, and the file is checked as a backup is (``InventorySQLiteRepository/checkedCopy(of:to:scratchFolder:)``)
/// before anything reads it into a live shop.
///
/// A new file (``create(at:)``) is made by the store's own migrations, so it is exactly the file
/// ``InventorySQLiteRepository/open(dataFolder:)`` and a restore expect; its product search index is filled by the
/// schema's own triggers as products are inserted.
package struct SQLiteShopFile: Sendable {
    let queue: DatabaseQueue
    /// The file's path.
    package let path: String

    /// Creates a new 0600 file at `path` holding an empty shop at this version (every migration applied, no rows).
    /// Foreign keys are checked once at the end (``finish()``), so tables may be filled in any order.
    /// - Throws: ``InventoryError`` (`storage`, field `file`) when the file exists or cannot be made.
    package static func create(at path: String) throws -> SQLiteShopFile {
        guard PrivateFile.create(path) else {
            throw InventoryError(.storage, field: "file", "cannot create the database file \(path) (it exists, or the folder cannot be written)")
        }
        do {
            var configuration = Configuration()
            configuration.foreignKeysEnabled = false
            configuration.prepareDatabase { db in
                // A file being made: a failed copy removes it, so nothing needs to survive a crash on the way.
                try db.execute(sql: "PRAGMA synchronous = OFF")
            }
            let queue = try DatabaseQueue(path: path, configuration: configuration)
            try SQLiteMigrations.migrator.migrate(queue)
            return SQLiteShopFile(queue: queue, path: path)
        } catch {
            for suffix in ["", "-wal", "-shm", "-journal"] { try? FileManager.default.removeItem(atPath: path + suffix) }
            throw InventoryError(.storage, field: "file", "cannot create the database file \(path)", cause: error)
        }
    }

    /// Opens an existing shop file to read it (read-only, nothing in its schema trusted to run).
    /// - Throws: ``InventoryError`` (`invalidValue`, field `file`) when it is not an SQLite database at this version.
    package static func openForReading(at path: String) throws -> SQLiteShopFile {
        do {
            let queue = try DatabaseQueue(path: path, configuration: InventorySQLiteRepository.restoreConfiguration(readonly: true))
            let applied = try queue.read { db in try SQLiteMigrations.migrator.appliedIdentifiers(db) }
            guard applied == Set(SQLiteMigrations.names) else {
                throw InventoryError(.invalidValue, field: "file", "the database file \(path) is not a shop at this Stockroom's version")
            }
            return SQLiteShopFile(queue: queue, path: path)
        } catch let error as InventoryError {
            throw error
        } catch {
            throw InventoryError(.invalidValue, field: "file", "the file \(path) is not an SQLite database", cause: error)
        }
    }

    /// The shop's tables: every table but SQLite's own, the migrations' record and the product search index (derived
    /// data, with its shadow tables).
    package func tables() throws -> [String] {
        try self.queue.read { db in
            let all = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name")
            let virtual = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND sql LIKE 'CREATE VIRTUAL TABLE%'")
            return all.filter { name in
                name != "grdb_migrations" && !virtual.contains { name == $0 || name.hasPrefix($0 + "_") }
            }
        }
    }

    /// A table's columns in their order.
    package func columns(of table: String) throws -> [StoredColumn] {
        try self.queue.read { db in
            try Row.fetchAll(db, sql: "SELECT name, pk FROM pragma_table_info(?)", arguments: [table]).map {
                StoredColumn(name: $0["name"], primaryKeyIndex: $0["pk"])
            }
        }
    }

    /// Up to `limit` rows of `table` in the order of `key` (its primary key), after the row whose key is `after`.
    package func rows(of table: String, columns: [String], key: [String], after: [StoredValue]?, limit: Int) throws -> [[StoredValue]] {
        let keyList = key.map(Self.quoted).joined(separator: ", ")
        var sql = "SELECT \(columns.map(Self.quoted).joined(separator: ", ")) FROM \(Self.quoted(table))"
        var arguments = StatementArguments()
        if let after {
            sql += " WHERE (\(keyList)) > (\(Array(repeating: "?", count: key.count).joined(separator: ", ")))"
            arguments = StatementArguments(after.map(Self.databaseValue))
        }
        sql += " ORDER BY \(keyList) LIMIT \(limit)"
        return try self.queue.read { db in
            try Row.fetchAll(db, sql: sql, arguments: arguments).map { row in
                row.databaseValues.map(Self.storedValue)
            }
        }
    }

    /// Inserts `rows` into `table`, in one transaction.
    package func insert(into table: String, columns: [String], rows: [[StoredValue]]) throws {
        guard !rows.isEmpty else { return }
        let sql = "INSERT INTO \(Self.quoted(table)) (\(columns.map(Self.quoted).joined(separator: ", "))) VALUES (\(Array(repeating: "?", count: columns.count).joined(separator: ", ")))"
        try self.queue.inTransaction { db in
            let statement = try db.makeStatement(sql: sql)
            for row in rows {
                try statement.execute(arguments: StatementArguments(row.map(Self.databaseValue)))
            }
            return .commit
        }
    }

    /// The highest id each AUTOINCREMENT table has ever given (`sqlite_sequence`), by table.
    package func sequences() throws -> [String: Int64] {
        try self.queue.read { db in
            Dictionary(try Row.fetchAll(db, sql: "SELECT name, seq FROM sqlite_sequence").map { ($0["name"], $0["seq"]) }, uniquingKeysWith: max)
        }
    }

    /// Makes `table` give ids above `value` from now on (never lowering what it has given).
    package func raiseSequence(of table: String, to value: Int64) throws {
        try self.queue.inTransaction { db in
            try db.execute(sql: "UPDATE sqlite_sequence SET seq = MAX(seq, ?) WHERE name = ?", arguments: [value, table])
            if db.changesCount == 0 {
                try db.execute(sql: "INSERT INTO sqlite_sequence (name, seq) VALUES (?, ?)", arguments: [table, value])
            }
            return .commit
        }
    }

    /// Whether any of the shop's tables holds a row.
    package func holdsRows() throws -> Bool {
        let tables = try self.tables()
        return try self.queue.read { db in
            try tables.contains { try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM \(Self.quoted($0)))") ?? false }
        }
    }

    /// How many rows `table` holds.
    package func count(_ table: String) throws -> Int {
        try self.queue.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(Self.quoted(table))") ?? 0 }
    }

    /// Checks the filled file's references and integrity and closes it.
    /// - Throws: ``InventoryError`` (`storage`, field `file`) naming the first broken reference.
    package func finish() throws {
        do {
            try self.queue.read { db in
                if let row = try Row.fetchOne(db, sql: "PRAGMA foreign_key_check") {
                    throw InventoryError(.storage, field: "file", "the copy has a broken reference (table \((row[0] as String?) ?? "?"), row \((row[1] as Int64?) ?? 0))")
                }
                let integrity = try String.fetchAll(db, sql: "PRAGMA integrity_check")
                guard integrity == ["ok"] else {
                    throw InventoryError(.storage, field: "file", "the copy failed its integrity check: \(integrity.prefix(3).joined(separator: "; "))")
                }
            }
            try self.queue.close()
        } catch let error as InventoryError {
            throw error
        } catch {
            throw InventoryError(.storage, field: "file", "the copy could not be completed", cause: error)
        }
    }

    /// Closes the file.
    package func close() {
        try? self.queue.close()
    }

    static func quoted(_ name: String) -> String { "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }

    static func storedValue(_ value: DatabaseValue) -> StoredValue {
        switch value.storage {
        case .null: return .null
        case .int64(let integer): return .integer(integer)
        case .string(let text): return .text(text)
        case .blob(let data): return .blob(Array(data))
        // Stockroom's schema declares no REAL column and a restore refuses a file holding one; kept as text so it is
        // refused by the receiving column's type, never silently rounded.
        case .double(let double): return .text("\(double)")
        }
    }

    static func databaseValue(_ value: StoredValue) -> DatabaseValue {
        switch value {
        case .null: return .null
        case .integer(let integer): return integer.databaseValue
        case .text(let text): return text.databaseValue
        case .blob(let bytes): return Data(bytes).databaseValue
        }
    }
}

extension InventorySQLiteRepository {
    /// Checks a backup file exactly as ``restore(from:)`` does (a scratch copy in `scratchFolder`: integrity, schema,
    /// storage types, references, the domain's validators, the books' balances), brings that copy up to this version
    /// and writes it to the new file `copy` (0600), for another backend to restore from. The file at `path` is not
    /// changed.
    /// - Throws: ``InventoryError`` naming `file` with the reason the backup is refused; nothing is left at `copy` then.
    package static func checkedCopy(of path: String, to copy: String, scratchFolder: String) throws -> BackupContents {
        try self.withCheckedCopy(of: path, scratchFolder: scratchFolder) { checked, applied in
            let contents: BackupContents = try checked.read { db in try Self.contents(db, applied: applied) }
            guard PrivateFile.create(copy) else {
                throw InventoryError(.storage, field: "file", "no room for a checked copy of the backup")
            }
            do {
                let destination = try DatabaseQueue(path: copy)
                try checked.backup(to: destination)
                try destination.close()
            } catch {
                for suffix in ["", "-wal", "-shm", "-journal"] { try? FileManager.default.removeItem(atPath: copy + suffix) }
                throw InventoryError(.storage, field: "file", "the checked backup could not be copied", cause: error)
            }
            return contents
        }
    }
}
