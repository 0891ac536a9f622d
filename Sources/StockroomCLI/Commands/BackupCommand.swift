import ArgumentParser
import Foundation
import InventoryDomain
import InventoryServer
import InventoryStore

/// `stockroom backup`: takes a checked backup into `<data>/backups` now, lists the kept ones, or checks a backup file
/// offline (`--verify FILE`) exactly as a restore would check it.
struct BackupCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "backup",
        abstract: "Take a checked backup into <data>/backups, list the kept backups, or check a backup file (--verify FILE).",
        discussion: """
            Without options, takes a backup of the shop now (the database and every picture, online: the server may keep \
            running), checks it as a restore would, records the result beside it and removes the backups the retention \
            rule no longer keeps. `serve` takes one a day by itself. `--verify FILE` checks any backup file (.zip, or \
            .sqlite from an older backup) without a data folder and exits with 1 when a restore would refuse it.
            """)

    @OptionGroup var database: DatabaseOptions
    @OptionGroup var retention: BackupPolicyOptions
    @Flag(help: "List the backups in <data>/backups instead of taking one.") var list = false
    @Option(help: "Check this backup file offline instead of taking one.") var verify: String?

    func validate() throws {
        if self.list && self.verify != nil { throw ValidationError("give --list or --verify, not both") }
        _ = try self.retention.policy()
    }

    func run() async throws {
        if let file = self.verify {
            try await Self.verify(file)
            return
        }
        try await self.run(on: try await self.database.open())
    }

    func run(on store: some ShopStore) async throws {
        let images = (store as? any PictureFileRepository).map { ImageStore(database: $0, dataFolder: self.database.folder) }
            ?? ImageStore(dataFolder: self.database.folder)
        let folder = BackupFolder(dataFolder: self.database.folder, store: store, images: images, policy: try self.retention.policy())
        if !self.list {
            let record = try await folder.take(automatic: false)
            print("\(record.passed ? "backup" : "FAILED backup") \(folder.path)/\(record.name): \(record.bytes) bytes; \(record.detail)")
            if !record.passed { throw ExitCode(1) }
            return
        }
        let listed = try await folder.list()
        if listed.isEmpty { print("no backups in \(folder.path)") }
        for entry in listed {
            let record = entry.record
            let kept = entry.kept.sorted().map(\.rawValue).joined(separator: ", ")
            print("\(record.name)  \(record.instant.iso8601)  \(record.bytes) bytes  \(record.passed ? "passed" : "FAILED")  kept: \(kept)  \(record.detail)")
        }
    }

    /// Checks a backup file and prints what it holds; a file that would be refused exits with 1 and the reason.
    static func verify(_ file: String) async throws {
        guard FileManager.default.fileExists(atPath: file) else { throw ValidationError("--verify: no file at \(file)") }
        do {
            let (contents, sha256Matches) = try await BackupFolder<InventorySQLiteRepository>.verifyFile(file)
            var line = "ok: \(file) restores: shop '\(contents.shopName)', \(contents.products) products, \(contents.documents) documents, "
                + "\(contents.users) staff accounts"
            if let pictures = contents.pictures { line += ", \(pictures) pictures" }
            if let last = contents.lastDocumentAt { line += "; newest document \(last.iso8601)" }
            line += "; version \(contents.version)"
            switch sha256Matches {
            case true?: line += "; SHA-256 matches its record"
            case false?: line += "; WARNING: the file's SHA-256 differs from its record (changed since it was taken)"
            case nil: break
            }
            print(line)
            if sha256Matches == false { throw ExitCode(1) }
        } catch let error as InventoryError {
            print("refused: \(file): \(error.userMessage)")
            throw ExitCode(1)
        }
    }
}
