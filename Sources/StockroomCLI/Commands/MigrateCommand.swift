import ArgumentParser
import Foundation
import InventoryDomain
import InventoryPostgres
import InventoryServer
import InventoryStore

/// `stockroom migrate --from X --to Y`: moves a whole shop between SQLite (a data folder) and PostgreSQL (a URL),
/// pictures included, into an empty target only, then proves the copy: every report read on both sides must be
/// equal (``ShopCopyProof``), else it exits with 1.
struct MigrateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate",
        abstract: "Copy a whole shop between a data folder (SQLite) and PostgreSQL, pictures included, and prove the copy.",
        discussion: """
            --from and --to are each a data folder (its stockroom.sqlite, pictures in its images folder) or a URL \
            postgres://user[:password]@host[:port]/database[?schema=NAME&sslmode=MODE]; one of them must be each. \
            The target must hold no shop: an empty PostgreSQL database (or schema), or a new or empty data folder. \
            The copy is one snapshot of the source (stop the server first so nothing is booked after it), written in \
            one transaction (PostgreSQL) or beside the target and moved in place (SQLite), ids preserved. Afterwards \
            every report (stock at several instants, daily figures, taxes, top 10, valuation …) is read on both sides; \
            any difference is listed and the command exits with 1.
            """)

    @Option(help: "The shop to copy: a data folder or a postgres:// URL.") var from: String
    @Option(help: "Where to copy it: a postgres:// URL of an empty database, or a new or empty data folder.") var to: String
    @Option(help: "A file holding the PostgreSQL password, for a URL without one (else $PGPASSWORD).") var passwordFile: String?

    func validate() throws {
        switch (PostgresLocation.isURL(self.from), PostgresLocation.isURL(self.to)) {
        case (false, true), (true, false): return
        case (false, false):
            throw ValidationError("--from and --to are both data folders: copy a folder with `stockroom backup` (or cp while the server is stopped)")
        case (true, true):
            throw ValidationError("--from and --to are both PostgreSQL: copy between databases with pg_dump, or migrate through a data folder")
        }
    }

    func run() async throws {
        let started = ContinuousClock.now
        let copied: ShopCopyCounts
        let proof: ShopCopyProof.Outcome
        do {
            if PostgresLocation.isURL(self.to) {
                (copied, proof) = try await Self.toPostgres(folder: self.from, try PostgresLocation(url: self.to, passwordFile: self.passwordFile))
            } else {
                (copied, proof) = try await Self.toSQLite(try PostgresLocation(url: self.from, passwordFile: self.passwordFile), folder: self.to)
            }
        } catch let error as InventoryError {
            print("refused: \(error.field.map { "--\($0): " } ?? "")\(error.userMessage)")
            throw ExitCode(1)
        }
        let seconds = (ContinuousClock.now - started).components.seconds
        print("Copied the shop from \(Self.describe(self.from)) to \(Self.describe(self.to)) in \(seconds) s.")
        print(Table(columns: ["copied", "count"], rows: [
            ["products", "\(copied.products)"], ["documents", "\(copied.documents)"], ["staff accounts", "\(copied.users)"],
            ["pictures", "\(copied.pictures)"], ["rows in every table", "\(copied.rows.values.reduce(0, +))"],
            ["reports compared", "\(proof.compared.count)"], ["reports that differ", "\(proof.differences.count)"],
        ], numeric: [1]).render(.table), terminator: "")
        guard proof.proven else {
            print("The copy differs from the source:")
            for difference in proof.differences { print("  - \(difference)") }
            throw ExitCode(1)
        }
        print("Proven: every report is equal on both sides.")
    }

    /// A data folder or a URL as it may be printed (never the password).
    static func describe(_ place: String) -> String {
        guard PostgresLocation.isURL(place) else { return place }
        return (try? PostgresLocation(url: place, environment: [:]).description) ?? "the PostgreSQL database"
    }

    static func databasePath(_ folder: String) -> String { (folder as NSString).appendingPathComponent("stockroom.sqlite") }

    /// SQLite to PostgreSQL: an online backup of the data folder's database (one snapshot), copied into the empty
    /// database with the folder's pictures in one transaction, then proven.
    static func toPostgres(folder: String, _ location: PostgresLocation) async throws -> (ShopCopyCounts, ShopCopyProof.Outcome) {
        guard FileManager.default.fileExists(atPath: self.databasePath(folder)) else {
            throw InventoryError(.notFound, field: "from", "there is no shop in \(folder) (no stockroom.sqlite)")
        }
        let source = try InventorySQLiteRepository.open(dataFolder: folder)
        let snapshot = (folder as NSString).appendingPathComponent(".migrate-\(UUID().uuidString).sqlite")
        defer { try? FileManager.default.removeItem(atPath: snapshot) }
        try source.backup(to: snapshot)
        let target = try await InventoryPostgresRepository.open(location, maximumConnections: 4)
        let copied = try await target.copyShop(fromShopFile: snapshot, pictures: ImageStore(dataFolder: folder).folder)
        return (copied, try await ShopCopyProof.compare(source, target))
    }

    /// PostgreSQL to SQLite: the shop written from one snapshot into a new file (and its pictures into a new folder)
    /// beside the target's, both moved in place once complete, then proven. A folder that holds a shop is refused.
    static func toSQLite(_ location: PostgresLocation, folder: String) async throws -> (ShopCopyCounts, ShopCopyProof.Outcome) {
        let path = self.databasePath(folder)
        if FileManager.default.fileExists(atPath: path) {
            // Brought up to this version first, so it can be read as a shop file of this version.
            let existing = try InventorySQLiteRepository.open(dataFolder: folder)
            let products = try await existing.products(ProductQuery(includeArchived: true, limit: 1)).total
            let file = try SQLiteShopFile.openForReading(at: path)
            defer { file.close() }
            if try file.holdsRows() {
                throw InventoryError(.conflict, field: "to", "the data folder \(folder) already holds a shop (\(products) products, "
                                     + "\(try file.count("document")) documents); migrate only into a new or empty folder")
            }
        }
        let source = try await InventoryPostgresRepository.open(location, maximumConnections: 4)
        do {
            try PrivateFolder.create(atPath: folder)
        } catch {
            throw InventoryError(.storage, field: "to", "cannot create the data folder \(folder)", cause: error)
        }
        let scratch = (folder as NSString).appendingPathComponent(".migrate-\(UUID().uuidString).sqlite")
        let pictures = (folder as NSString).appendingPathComponent(".migrate-images-\(UUID().uuidString)")
        defer {
            try? FileManager.default.removeItem(atPath: scratch)
            try? FileManager.default.removeItem(atPath: pictures)
        }
        let copied = try await source.writeShopFile(to: scratch, pictures: pictures)
        try self.movePictures(from: pictures, to: ImageStore(dataFolder: folder).folder)
        for suffix in ["-wal", "-shm", "-journal", ""] { try? FileManager.default.removeItem(atPath: path + suffix) }
        guard rename(scratch, path) == 0 else {
            throw InventoryError(.storage, field: "to", "cannot move the copy in place as \(path)")
        }
        let target = try InventorySQLiteRepository.open(dataFolder: folder)
        return (copied, try await ShopCopyProof.compare(source, target))
    }

    /// Moves the pictures written beside the data folder's into it (the folder itself when there is none yet).
    static func movePictures(from scratch: String, to folder: String) throws {
        let manager = FileManager.default
        do {
            guard manager.fileExists(atPath: folder) else {
                try manager.moveItem(atPath: scratch, toPath: folder)
                return
            }
            for name in try manager.contentsOfDirectory(atPath: scratch) {
                let destination = (folder as NSString).appendingPathComponent(name)
                // A picture's name is its content's digest: one already there is the same picture.
                if manager.fileExists(atPath: destination) { continue }
                try manager.moveItem(atPath: (scratch as NSString).appendingPathComponent(name), toPath: destination)
            }
        } catch {
            throw InventoryError(.storage, field: "to", "cannot move the pictures into \(folder)", cause: error)
        }
    }
}
