import Foundation
import InventoryDomain
import InventoryStore
import Logging
import NIOCore
import PostgresNIO

/// A whole shop copied between PostgreSQL and an SQLite shop file (``SQLiteShopFile``), table by table with ids
/// preserved: the PostgreSQL backup (a portable SQLite file, the same one SQLite shops give), its restore, and
/// `stockroom migrate`.
///
/// Nothing is listed twice: the columns and their types are read from both catalogs (`information_schema.columns`,
/// `PRAGMA table_info`), matched by name (PostgreSQL folds names to lower case; SQLite's `user` is `account`), and
/// every value converted by the PostgreSQL column's type — `timestamptz` to and from integer milliseconds (``Instant``'s
/// exact coding), `boolean` to and from 0 and 1, `bytea` to and from a blob. A table or column one side has and the
/// other has not stops the copy naming it, so a migration added to one backend alone cannot be copied half.
enum PostgresShopCopy {
    /// The shop's tables in an order that inserts every referenced row before its references (a document's sale and a
    /// movement's source come earlier by id), as SQLite and PostgreSQL name them. `pictureFile` (PostgreSQL only; on
    /// SQLite the pictures are files in the data folder) is copied apart.
    static let tables: [(sqlite: String, postgres: String)] = [
        ("setting", "setting"), ("category", "category"), ("supplier", "supplier"), ("customer", "customer"), ("product", "product"),
        ("user", "account"), ("document", "document"), ("movement", "movement"), ("productSalesYear", "productsalesyear"),
        ("session", "session"), ("shift", "shift"), ("loginThrottle", "loginthrottle"), ("auditLog", "auditlog"),
        ("idempotencyKey", "idempotencykey"), ("productPicture", "productpicture"), ("parkedSale", "parkedsale"),
        ("parkedSaleLine", "parkedsaleline"), ("salePayment", "salepayment"), ("paymentRefund", "paymentrefund"),
        ("drawerSession", "drawersession"), ("cashMovement", "cashmovement"), ("customerCard", "customercard"),
        ("optionGroup", "optiongroup"), ("productOption", "productoption"), ("saleLineOption", "salelineoption"),
        ("recipeComponent", "recipecomponent"), ("shopLogo", "shoplogo"), ("stocktake", "stocktake"), ("stocktakeLine", "stocktakeline"),
    ]

    /// PostgreSQL's tables that are not the shop's rows: the migrations' record, and the pictures (copied apart).
    static let postgresOnly: Set<String> = ["stockroom_migration", "picturefile"]

    /// How a column's values are converted, from the PostgreSQL column's type.
    enum Kind: Sendable {
        case bigint, integer, text, boolean, instant, bytes

        /// The type's name in a cast.
        var postgresType: String {
            switch self {
            case .bigint: return "bigint"
            case .integer: return "integer"
            case .text: return "text"
            case .boolean: return "boolean"
            case .instant: return "timestamptz"
            case .bytes: return "bytea"
            }
        }

        init?(postgresType: String) {
            switch postgresType {
            case "bigint": self = .bigint
            case "integer": self = .integer
            case "text": self = .text
            case "boolean": self = .boolean
            case "timestamp with time zone": self = .instant
            case "bytea": self = .bytes
            default: return nil
            }
        }
    }

    struct Column: Sendable {
        /// SQLite's name (PostgreSQL's is its lower-case form).
        var name: String
        var kind: Kind
        var isIdentity: Bool
        var postgresName: String { self.name.lowercased() }
    }

    /// One table as both sides have it.
    struct Table: Sendable {
        var sqlite: String
        var postgres: String
        var columns: [Column]
        /// The primary key's columns (SQLite's names), in order: the order rows are copied in.
        var key: [String]

        var identity: Column? { self.columns.first(where: \.isIdentity) }
        var postgresColumnList: String { self.columns.map(\.postgresName).joined(separator: ", ") }
        var postgresKeyList: String { self.key.map { $0.lowercased() }.joined(separator: ", ") }
    }

    /// The tables and columns of the copy, read from both catalogs and matched.
    /// - Throws: `storage` on `field` naming the first table or column the two schemas do not share.
    static func plan(_ connection: PostgresConnection, _ file: SQLiteShopFile, field: String, logger: Logger) async throws -> [Table] {
        var postgres: [String: [(name: String, type: String, identity: Bool)]] = [:]
        for try await (table, column, type, identity) in try await connection.query("""
            SELECT table_name::text, column_name::text, data_type::text, is_identity::text FROM information_schema.columns
            WHERE table_schema = current_schema() ORDER BY table_name, ordinal_position
            """, logger: logger).decode((String, String, String, String).self) {
            postgres[table, default: []].append((column, type, identity == "YES"))
        }
        func mismatch(_ reason: String) -> InventoryError {
            InventoryError(.storage, field: field, "the SQLite and PostgreSQL schemas differ (\(reason)); use the same Stockroom version on both")
        }
        let known = Set(self.tables.map(\.postgres))
        if let extra = postgres.keys.sorted().first(where: { !known.contains($0) && !self.postgresOnly.contains($0) }) {
            throw mismatch("PostgreSQL has a table \(extra) the copy does not know")
        }
        let sqliteTables = try file.tables()
        if let extra = sqliteTables.first(where: { name in !self.tables.contains { $0.sqlite == name } }) {
            throw mismatch("SQLite has a table \(extra) the copy does not know")
        }
        return try self.tables.map { names in
            guard let postgresColumns = postgres[names.postgres] else { throw mismatch("PostgreSQL has no table \(names.postgres)") }
            guard sqliteTables.contains(names.sqlite) else { throw mismatch("SQLite has no table \(names.sqlite)") }
            let sqliteColumns = try file.columns(of: names.sqlite)
            guard sqliteColumns.count == postgresColumns.count else {
                throw mismatch("\(names.sqlite) has \(sqliteColumns.count) columns on SQLite, \(postgresColumns.count) on PostgreSQL")
            }
            let columns = try sqliteColumns.map { column in
                guard let match = postgresColumns.first(where: { $0.name == column.name.lowercased() }) else {
                    throw mismatch("PostgreSQL's \(names.postgres) has no column \(column.name)")
                }
                guard let kind = Kind(postgresType: match.type) else {
                    throw mismatch("\(names.postgres).\(match.name) is of a type the copy does not convert (\(match.type))")
                }
                return Column(name: column.name, kind: kind, isIdentity: match.identity)
            }
            let key = sqliteColumns.filter { $0.primaryKeyIndex > 0 }.sorted { $0.primaryKeyIndex < $1.primaryKeyIndex }.map(\.name)
            guard !key.isEmpty else { throw mismatch("\(names.sqlite) has no primary key") }
            return Table(sqlite: names.sqlite, postgres: names.postgres, columns: columns, key: key)
        }
    }

    // MARK: - PostgreSQL to SQLite

    /// Copies every table from PostgreSQL (`connection`, inside one `REPEATABLE READ` transaction: one snapshot) into
    /// the new, empty shop `file`, and the sequences past every id PostgreSQL has given.
    /// - Returns: the rows copied, by SQLite table name.
    static func copy(from connection: PostgresConnection, to file: SQLiteShopFile, logger: Logger) async throws -> [String: Int] {
        let tables = try await self.plan(connection, file, field: "file", logger: logger)
        var counts: [String: Int] = [:]
        for table in tables {
            var batch: [[StoredValue]] = []
            var copied = 0
            let rows = try await connection.query(
                PostgresQuery(unsafeSQL: "SELECT \(table.postgresColumnList) FROM \(table.postgres) ORDER BY \(table.postgresKeyList)"), logger: logger)
            for try await row in rows {
                var values: [StoredValue] = []
                values.reserveCapacity(table.columns.count)
                for (cell, column) in zip(row, table.columns) {
                    values.append(try self.storedValue(cell, column, table: table.sqlite))
                }
                batch.append(values)
                if batch.count == 1000 {
                    try file.insert(into: table.sqlite, columns: table.columns.map(\.name), rows: batch)
                    copied += batch.count
                    batch.removeAll(keepingCapacity: true)
                }
            }
            try file.insert(into: table.sqlite, columns: table.columns.map(\.name), rows: batch)
            copied += batch.count
            counts[table.sqlite] = copied
            // An id PostgreSQL has given is never given again, even when its row is gone.
            if let identity = table.identity, let given = try await self.lastGiven(connection, table: table.postgres, column: identity.postgresName, logger: logger) {
                try file.raiseSequence(of: table.sqlite, to: given)
            }
        }
        return counts
    }

    /// The last value a table's identity sequence gave, nil when it gave none.
    static func lastGiven(_ connection: PostgresConnection, table: String, column: String, logger: Logger) async throws -> Int64? {
        let sequence = try await connection.query("SELECT pg_get_serial_sequence(\(table), \(column))", logger: logger).collect(String?.self).first ?? nil
        guard let sequence else { return nil }
        // The name comes from the catalog, quoted as an identifier where it needs to be.
        for try await (value, called) in try await connection.query(PostgresQuery(unsafeSQL: "SELECT last_value, is_called FROM \(sequence)"), logger: logger)
            .decode((Int64, Bool).self) {
            return called ? value : nil
        }
        return nil
    }

    static func storedValue(_ cell: PostgresCell, _ column: Column, table: String) throws -> StoredValue {
        guard cell.bytes != nil else { return .null }
        do {
            switch column.kind {
            case .bigint, .integer: return .integer(try cell.decode(Int64.self))
            case .text: return .text(try cell.decode(String.self))
            case .boolean: return .integer(try cell.decode(Bool.self) ? 1 : 0)
            case .instant: return .integer(try cell.decode(Instant.self).milliseconds)
            case .bytes: return .blob(Array(try cell.decode(ByteBuffer.self).readableBytesView))
            }
        } catch {
            throw InventoryError(.storage, field: "file", "\(table).\(column.name) could not be read from PostgreSQL", cause: error)
        }
    }

    /// Writes every picture kept in the database (`pictureFile`) into `folder` as a file of its own (0600), skipping
    /// any whose name is not one the picture store gives.
    /// - Returns: how many were written.
    static func writePictures(from connection: PostgresConnection, to folder: String, logger: Logger) async throws -> Int {
        do {
            try PrivateFolder.create(atPath: folder)
        } catch {
            throw InventoryError(.storage, field: "to", "cannot create the pictures folder \(folder)", cause: error)
        }
        var written = 0
        for try await (name, data) in try await connection.query("SELECT name, data FROM pictureFile ORDER BY name", logger: logger)
            .decode((String, ByteBuffer).self) where ProductPictures.isValidName(name) {
            try PrivateFile.write(Data(data.readableBytesView), to: (folder as NSString).appendingPathComponent(name))
            written += 1
        }
        return written
    }

    // MARK: - SQLite to PostgreSQL

    /// Copies every table of `file` into PostgreSQL (`connection`, inside a transaction the caller commits), then
    /// moves each identity sequence past the highest id the file has given. The target tables must be empty.
    /// - Parameter field: what a value PostgreSQL cannot hold is blamed on (`file` for a restore, `from` for a migration).
    /// - Returns: the rows copied, by SQLite table name.
    static func copy(from file: SQLiteShopFile, to connection: PostgresConnection, field: String, logger: Logger) async throws -> [String: Int] {
        let tables = try await self.plan(connection, file, field: field, logger: logger)
        let sequences = try file.sequences()
        var counts: [String: Int] = [:]
        for table in tables {
            let names = table.columns.map(\.name)
            let keyPositions = table.key.compactMap { key in names.firstIndex(of: key) }
            // PostgreSQL takes at most 65,535 parameters in one statement.
            let batchSize = max(1, min(1000, 30_000 / table.columns.count))
            var after: [StoredValue]?
            var copied = 0
            while true {
                let rows = try file.rows(of: table.sqlite, columns: names, key: table.key, after: after, limit: batchSize)
                guard let last = rows.last else { break }
                try await self.insert(rows, into: table, connection, field: field, logger: logger)
                copied += rows.count
                after = keyPositions.map { last[$0] }
                if rows.count < batchSize { break }
            }
            counts[table.sqlite] = copied
            if let identity = table.identity {
                let given = sequences[table.sqlite] ?? 0
                let column = identity.postgresName
                try await connection.execute(PostgresQuery(unsafeSQL: """
                    SELECT setval(pg_get_serial_sequence('\(table.postgres)', '\(column)'),
                                  GREATEST(COALESCE((SELECT max(\(column)) FROM \(table.postgres)), 0), \(given), 1),
                                  GREATEST(COALESCE((SELECT max(\(column)) FROM \(table.postgres)), 0), \(given)) > 0)
                    """), logger: logger)
            }
        }
        return counts
    }

    /// Inserts a batch of rows in one statement, each value converted for its column.
    static func insert(_ rows: [[StoredValue]], into table: Table, _ connection: PostgresConnection, field: String, logger: Logger) async throws {
        var bindings = PostgresBindings(capacity: rows.count * table.columns.count)
        var tuples: [String] = []
        tuples.reserveCapacity(rows.count)
        for row in rows {
            var placeholders: [String] = []
            for (value, column) in zip(row, table.columns) {
                try self.bind(value, column, table: table.sqlite, field: field, into: &bindings)
                // Typed, so a NULL (sent without a type) is read as the column's type in a VALUES list of many rows.
                placeholders.append("$\(bindings.count)::\(column.kind.postgresType)")
            }
            tuples.append("(" + placeholders.joined(separator: ", ") + ")")
        }
        let sql = "INSERT INTO \(table.postgres) (\(table.postgresColumnList)) VALUES " + tuples.joined(separator: ", ")
        do {
            try await connection.execute(PostgresQuery(unsafeSQL: sql, binds: bindings), logger: logger)
        } catch let error as PSQLError where error.serverInfo?[.sqlState] != nil && !InventoryPostgresRepository.isTransient(error) {
            // A constraint PostgreSQL holds more strictly than SQLite (a case-insensitive name that only differs
            // beyond ASCII, say): named, so the shop can be fixed before it is copied.
            throw InventoryError(.invalidValue, field: field,
                                 "the shop's \(table.sqlite) rows cannot be stored in PostgreSQL: \(InventoryPostgresRepository.describe(error))",
                                 cause: error)
        }
    }

    static func bind(_ value: StoredValue, _ column: Column, table: String, field: String, into bindings: inout PostgresBindings) throws {
        func wrongKind() -> InventoryError {
            InventoryError(.invalidValue, field: field, "the shop's \(table).\(column.name) holds a value of the wrong kind for PostgreSQL")
        }
        switch (column.kind, value) {
        case (_, .null): bindings.appendNull()
        case (.bigint, .integer(let integer)): bindings.append(integer)
        case (.integer, .integer(let integer)):
            guard let small = Int32(exactly: integer) else { throw wrongKind() }
            bindings.append(small)
        case (.boolean, .integer(let integer)):
            guard integer == 0 || integer == 1 else { throw wrongKind() }
            bindings.append(integer == 1)
        case (.instant, .integer(let milliseconds)): bindings.append(Instant(milliseconds: milliseconds))
        case (.text, .text(let text)):
            // PostgreSQL refuses a NUL in text; Stockroom never stores one.
            guard !text.utf8.contains(0) else {
                throw InventoryError(.invalidValue, field: field, "the shop's \(table).\(column.name) holds a NUL character, which PostgreSQL cannot store")
            }
            bindings.append(text)
        case (.bytes, .blob(let bytes)): bindings.append(ByteBuffer(bytes: bytes))
        default: throw wrongKind()
        }
    }

    /// Stores the pictures of a data folder's `images` (every file whose name the picture store gives) in
    /// `pictureFile`, replacing one of the same name.
    /// - Returns: how many were stored.
    static func storePictures(from folder: String, _ connection: PostgresConnection, field: String, logger: Logger) async throws -> Int {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue else { return 0 }
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: folder).filter(ProductPictures.isValidName).sorted()
        } catch {
            throw InventoryError(.storage, field: field, "cannot read the pictures folder \(folder)", cause: error)
        }
        for name in names {
            guard let data = FileManager.default.contents(atPath: (folder as NSString).appendingPathComponent(name)) else {
                throw InventoryError(.storage, field: field, "cannot read the picture \(name) in \(folder)")
            }
            try await connection.execute("""
                INSERT INTO pictureFile (name, contentType, data) VALUES (\(name), \(ProductPictures.contentType(ofName: name)), \(ByteBuffer(bytes: data)))
                ON CONFLICT (name) DO UPDATE SET contentType = excluded.contentType, data = excluded.data
                """, logger: logger)
        }
        return names.count
    }

    /// How many rows each of the shop's tables holds (pictures included), by PostgreSQL name, leaving out empty ones.
    static func rowCounts(_ connection: PostgresConnection, logger: Logger) async throws -> [(table: String, rows: Int64)] {
        var counts: [(String, Int64)] = []
        for table in self.tables.map(\.postgres) + ["picturefile"] {
            let rows = try await connection.query(PostgresQuery(unsafeSQL: "SELECT count(*) FROM \(table)"), logger: logger).collect(Int64.self).first ?? 0
            if rows > 0 { counts.append((table, rows)) }
        }
        return counts
    }
}
