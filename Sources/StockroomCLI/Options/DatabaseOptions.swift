import ArgumentParser
import Foundation
import InventoryDomain
import InventoryPostgres
import InventoryServer
import InventoryStore

/// What every command needs of a shop's database, whichever backend holds it.
public typealias ShopStore = InventoryRepository & StaffRepository & BackupRepository

/// Where the shop's data lives; shared by every command through `@OptionGroup`.
///
/// SQLite (the default) keeps the shop in `<data>/stockroom.sqlite` and its pictures in `<data>/images`. With
/// `--database postgres://…` (or `STOCKROOM_DATABASE`) the shop is in that PostgreSQL database, pictures included, and
/// the data folder holds only this machine's own files: the TLS certificate and the kept backups.
public struct DatabaseOptions: ParsableArguments {
    /// The data folder.
    @Option(name: .long, help: "Data folder holding stockroom.sqlite (default: $STOCKROOM_DATA or ./stockroom-data).")
    public var data: String?

    /// A PostgreSQL database instead of the SQLite file.
    @Option(name: .long, help: ArgumentHelp(
        "A PostgreSQL database instead of the data folder's SQLite file: postgres://user@host:5432/db[?schema=NAME&sslmode=require] (default: $STOCKROOM_DATABASE).",
        discussion: "The password comes from the URL, else --database-password-file, else PGPASSWORD; it is never logged.", valueName: "url"))
    public var database: String?

    /// A file holding the PostgreSQL password.
    @Option(name: .long, help: ArgumentHelp("A file holding the PostgreSQL password (when the URL has none).", valueName: "file"))
    public var databasePasswordFile: String?

    /// Creates options with defaults.
    public init() {}

    /// The data folder to use.
    public var folder: String {
        self.data ?? ProcessInfo.processInfo.environment["STOCKROOM_DATA"]?.nilIfEmpty ?? "stockroom-data"
    }

    /// The PostgreSQL URL given, if any (`--database`, else `STOCKROOM_DATABASE`).
    public var databaseURL: String? {
        self.database ?? ProcessInfo.processInfo.environment["STOCKROOM_DATABASE"]?.nilIfEmpty
    }

    public func validate() throws {
        _ = try self.postgres()
    }

    /// The PostgreSQL database named, if any.
    /// - Throws: `ValidationError` saying what is wrong with the URL (never showing its password).
    public func postgres() throws -> PostgresLocation? {
        try Self.postgres(url: self.databaseURL, passwordFile: self.databasePasswordFile)
    }

    /// The PostgreSQL database a `--database` URL (and `--database-password-file`) names, if any; for commands with
    /// options of their own (`bench`).
    /// - Throws: `ValidationError` saying what is wrong with the URL (never showing its password).
    static func postgres(url: String?, passwordFile: String?) throws -> PostgresLocation? {
        guard let url else { return nil }
        do {
            return try PostgresLocation(url: url, passwordFile: passwordFile)
        } catch let error as InventoryError {
            throw ValidationError("--database: \(error.userMessage)")
        }
    }

    /// Where the shop is, as logs may show it: the PostgreSQL URL without its password, or the data folder.
    public func describe() throws -> String {
        try self.postgres().map(\.description) ?? self.folder
    }

    /// Opens (creating and migrating when needed) the shop's database.
    /// - Parameter connections: the most connections to PostgreSQL this process holds.
    /// - Throws: `InventoryError` when it cannot be opened.
    public func open(connections: Int = 8) async throws -> any ShopStore {
        if let location = try self.postgres() {
            // The data folder still holds this machine's files: backups, and the scratch files they are made in.
            try? PrivateFolder.create(atPath: self.folder)
            return try await InventoryPostgresRepository.open(location, maximumConnections: connections, scratchFolder: self.folder)
        }
        return try InventorySQLiteRepository.open(dataFolder: self.folder)
    }
}

/// How to print a report.
public enum OutputFormat: String, ExpressibleByArgument, CaseIterable, Sendable {
    case table, json, csv
}
