import Crypto
import Foundation
import InventoryDomain
import InventoryStore
import Logging
import ServiceLifecycle

/// What is recorded beside each backup (`NAME.json`).
public struct BackupRecord: Codable, Sendable, Hashable {
    /// The backup's file name in the folder.
    public var name: String
    /// When it was taken (ms since 1970).
    public var takenAt: Int64
    /// Its size in bytes (0 when it could not be written).
    public var bytes: Int64
    /// The SHA-256 of the file as written, in hex (empty when it could not be written).
    public var sha256: String
    /// Whether the check after writing passed.
    public var passed: Bool
    /// What the check found: a summary, or why it failed.
    public var detail: String
    /// Taken by the daily schedule (true) or on request.
    public var automatic: Bool
    /// What the check counted (nil when it failed).
    public var products: Int?
    public var documents: Int?
    public var pictures: Int?

    /// When it was taken.
    public var instant: Instant { Instant(milliseconds: self.takenAt) }
    /// The backup as the retention rule sees it.
    public var taken: BackupPolicy.Taken { BackupPolicy.Taken(name: self.name, at: self.instant, good: self.passed) }
}

/// A backup in the folder and why the policy keeps it.
public struct ListedBackup: Sendable, Hashable {
    public var record: BackupRecord
    public var kept: Set<BackupPolicy.Reason>
}


/// The shop's own backups in `<data>/backups`: the daily automatic backup (``AutomaticBackupService``) and any taken
/// on request ("Back up now", `stockroom backup`). Each is the same ZIP that Download backup gives (``ShopArchive``),
/// taken online, then **checked as a restore would check it** (every entry, every picture, the database's integrity,
/// schema and books) before it counts; the result is recorded beside it in `NAME.json`: when, its size, its SHA-256,
/// whether the check passed and what it found. After each backup the folder is pruned by the ``BackupPolicy``.
///
/// One backup at a time (an actor); a backup is written under a hidden scratch name and renamed into place only when
/// complete, so a half-written file never has a backup's name.
public actor BackupFolder<Store: BackupRepository & SettingsRepository & StaffRepository> {
    /// The folder, `<data>/backups`.
    public nonisolated let path: String
    let store: Store
    let images: ImageStore
    /// What is kept, and when the automatic backup is due.
    public nonisolated let policy: BackupPolicy
    let clock: @Sendable () -> Instant
    let logger: Logger
    /// Whether the failures since the last good backup have been reported (``ShopActivity/backupFailed(_:at:)``): once
    /// per run of failures, not once a minute while the daily backup keeps failing.
    var failureReported = false

    /// Creates the folder's keeper for a data folder (`<dataFolder>/backups`, made when the first backup is taken).
    public init(dataFolder: String, store: Store, images: ImageStore, policy: BackupPolicy = .standard,
                clock: @escaping @Sendable () -> Instant = { .now }, logger: Logger = Logger(label: "stockroom.backups")) {
        self.path = (dataFolder as NSString).appendingPathComponent("backups")
        self.store = store
        self.images = images
        self.policy = policy
        self.clock = clock
        self.logger = logger
    }

    // MARK: - Names

    /// Whether `name` is a name this folder gives a backup: `stockroom-YYYYMMDD-HHMMSS.zip`, optionally with `-N`
    /// before `.zip`. Nothing else is listed or served.
    public nonisolated static func isBackupName(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        let prefix = Array("stockroom-".utf8), suffix = Array(".zip".utf8)
        guard bytes.count >= prefix.count + 15 + suffix.count, bytes.count <= 40,
            bytes.starts(with: prefix), bytes.suffix(suffix.count).elementsEqual(suffix)
        else { return false }
        let stamp = bytes[prefix.count..<(bytes.count - suffix.count)]
        func digits(_ part: ArraySlice<UInt8>) -> Bool { !part.isEmpty && part.allSatisfy { (0x30...0x39).contains($0) } }
        let start = stamp.startIndex
        guard digits(stamp[start..<start + 8]), stamp[start + 8] == UInt8(ascii: "-"), digits(stamp[start + 9..<start + 15]) else { return false }
        let rest = stamp[(start + 15)...]
        return rest.isEmpty || (rest.first == UInt8(ascii: "-") && rest.count <= 4 && digits(rest.dropFirst()))
    }

    /// The path of a listed backup, or nil for a name this folder does not hold.
    public func file(named name: String) -> String? {
        guard Self.isBackupName(name) else { return nil }
        let file = (self.path as NSString).appendingPathComponent(name)
        return FileManager.default.fileExists(atPath: file) ? file : nil
    }

    /// A new name for a backup taken at `instant` (UTC in the name, so names sort by time whatever the zone).
    func newName(at instant: Instant) -> String {
        let iso = instant.iso8601  // 2026-11-26T03:15:00.000Z
        let digits = iso.prefix(19).filter(\.isNumber)
        let base = "stockroom-\(digits.prefix(8))-\(digits.dropFirst(8))"
        var name = base + ".zip"
        var counter = 2
        while FileManager.default.fileExists(atPath: self.recordPath(name)) || FileManager.default.fileExists(atPath: (self.path as NSString).appendingPathComponent(name)) {
            name = "\(base)-\(counter).zip"
            counter += 1
        }
        return name
    }

    func recordPath(_ name: String) -> String {
        (self.path as NSString).appendingPathComponent((name as NSString).deletingPathExtension + ".json")
    }

    // MARK: - Listing

    /// Every backup recorded in the folder, newest first, with why it is kept.
    public func list() async throws -> [ListedBackup] {
        let calendar = try await self.store.settings().calendar
        let records = self.records()
        let kept = self.policy.kept(records.map(\.taken), calendar: calendar)
        return records.map { ListedBackup(record: $0, kept: kept[$0.name] ?? []) }
    }

    /// The records in the folder, newest first (unreadable records and records of another name are skipped).
    func records() -> [BackupRecord] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: self.path)) ?? []
        let decoder = JSONDecoder()
        return names.filter { $0.hasSuffix(".json") && !$0.hasPrefix(".") }.compactMap { file -> BackupRecord? in
            guard let data = FileManager.default.contents(atPath: (self.path as NSString).appendingPathComponent(file)),
                let record = try? decoder.decode(BackupRecord.self, from: data), Self.isBackupName(record.name),
                self.recordPath(record.name).hasSuffix("/" + file)
            else { return nil }
            return record
        }.sorted { ($0.takenAt, $0.name) > ($1.takenAt, $1.name) }
    }

    /// When the next automatic backup is due: now (or at once) when it is due, else today's or tomorrow's `hour`.
    public func nextDue() async throws -> Instant {
        self.policy.nextDue(at: self.clock(), newestGood: self.newestGood(), lastFailure: self.lastFailure(),
                            calendar: try await self.store.settings().calendar)
    }

    /// When the newest good backup was taken (nil: none).
    func newestGood() -> Instant? { self.records().first(where: \.passed)?.instant }

    /// When the newest failed backup was taken (nil: none).
    func lastFailure() -> Instant? { self.records().first(where: { !$0.passed })?.instant }

    // MARK: - Taking

    /// Takes the day's backup when the policy says one is due; answers it, or nil when none was due. A failure is
    /// logged and recorded (the backup screen shows it); it never stops the server.
    @discardableResult
    public func takeIfDue() async -> BackupRecord? {
        do {
            let calendar = try await self.store.settings().calendar
            guard self.policy.isDue(at: self.clock(), newestGood: self.newestGood(), lastFailure: self.lastFailure(), calendar: calendar)
            else { return nil }
            // A shop nobody can sign in to yet is not in use, and its backup could not be restored (a restore needs an
            // active admin): the first backup follows the first account.
            guard try await self.store.userCount() > 0 else { return nil }
            return try await self.take(automatic: true)
        } catch {
            self.logger.error("automatic backup failed: \(error)")
            await self.reportFailure(Self.reason(error))
            return nil
        }
    }

    /// Takes a backup now, checks it, records the result and prunes the folder by the policy.
    /// - Returns: the record (`passed` false when the check refused it; the file is kept to be looked at until a newer
    ///   good backup exists).
    /// - Throws: ``InventoryError`` when the folder cannot be made or the record cannot be written.
    @discardableResult
    public func take(automatic: Bool) async throws -> BackupRecord {
        do {
            try PrivateFolder.create(atPath: self.path)
        } catch {
            throw InventoryError(.storage, "the backups folder could not be made", cause: error)
        }
        // Strictly after the newest backup, so that "newest" is never a tie, even for a clock that stands still.
        let now = self.clock()
        let takenAt = self.records().first.map { max(now, $0.instant.adding(milliseconds: 1)) } ?? now
        let name = self.newName(at: takenAt)
        let final = (self.path as NSString).appendingPathComponent(name)
        let partial = (self.path as NSString).appendingPathComponent(".partial-\(UUID().uuidString).zip")
        defer { try? FileManager.default.removeItem(atPath: partial) }
        let archive = ShopArchive(store: self.store, images: self.images)
        var record = BackupRecord(name: name, takenAt: takenAt.milliseconds, bytes: 0, sha256: "", passed: false, detail: "", automatic: automatic)
        do {
            try await self.images.exclusively { try await archive.write(to: partial) }
            record.bytes = (try? FileManager.default.attributesOfItem(atPath: partial)[.size] as? NSNumber)?.int64Value ?? 0
            record.sha256 = try Self.sha256(ofFile: partial)
            do {
                let contents = try await ShopArchive<Store>.verify(partial, scratchFolder: self.store.scratchFolder, limit: try await archive.limitBytes())
                record.passed = true
                record.products = contents.products
                record.documents = contents.documents
                record.pictures = contents.pictures
                record.detail = "checked: \(contents.products) products, \(contents.documents) documents, \(contents.pictures ?? 0) pictures"
            } catch {
                record.detail = "the check after writing refused it: " + Self.reason(error)
            }
            try FileManager.default.moveItem(atPath: partial, toPath: final)
        } catch {
            record.detail = "it could not be written: " + Self.reason(error)
        }
        try self.write(record)
        if record.passed {
            self.logger.info("backup \(name) taken and checked (\(record.bytes) bytes)")
            self.failureReported = false
        } else {
            self.logger.error("backup \(name) failed: \(record.detail)")
            await self.reportFailure(record.detail)
        }
        try await self.prune()
        return record
    }

    /// Records a failed backup in the activity log, an alert for the managers who opted in (the first failure after a
    /// good backup, or after the server started).
    func reportFailure(_ reason: String) async {
        guard !self.failureReported else { return }
        self.failureReported = true
        do {
            try await self.store.recordAudit(.backupFailed(reason, at: self.clock()))
        } catch {
            self.logger.error("the failed backup could not be recorded in the activity log: \(error)")
        }
    }

    /// Removes every backup (and its record) that the policy no longer keeps.
    func prune() async throws {
        for listed in try await self.list() where listed.kept.isEmpty {
            let record = listed.record
            try? FileManager.default.removeItem(atPath: (self.path as NSString).appendingPathComponent(record.name))
            try? FileManager.default.removeItem(atPath: self.recordPath(record.name))
            self.logger.info("backup \(record.name) removed by the retention rule")
        }
    }

    /// Writes a record beside its backup, atomically and readable by the server's user only.
    func write(_ record: BackupRecord) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        let target = self.recordPath(record.name)
        let scratch = (self.path as NSString).appendingPathComponent(".record-\(UUID().uuidString).json")
        do {
            guard PrivateFile.create(scratch, contents: try encoder.encode(record)) else {
                throw InventoryError(.storage, "the backup's record could not be written")
            }
            guard rename(scratch, target) == 0 else { throw InventoryError(.storage, "the backup's record could not be put in place") }
        } catch {
            try? FileManager.default.removeItem(atPath: scratch)
            throw InventoryError(.storage, "the backup's record could not be written", cause: error)
        }
    }

    /// Checks any backup file offline (`stockroom backup --verify`), as a restore would check it, in the temporary
    /// folder; the archive may unpack to at most 20 times its size plus 1 GiB.
    /// - Returns: what it holds, and — when the record this folder writes sits beside it under the same name — whether
    ///   the file's SHA-256 still matches the one recorded when it was taken (nil: no record).
    /// - Throws: ``InventoryError`` naming `file` with the reason a restore would refuse it.
    public static func verifyFile(_ file: String) async throws -> (contents: BackupContents, sha256Matches: Bool?) {
        let size = (try? FileManager.default.attributesOfItem(atPath: file)[.size] as? NSNumber)?.int64Value ?? 0
        let (times20, overflow) = size.multipliedReportingOverflow(by: 20)
        let contents = try await ShopArchive<Store>.verify(file, scratchFolder: FileManager.default.temporaryDirectory.path,
                                                           limit: overflow ? Int64.max : times20 &+ (1 << 30))
        let name = (file as NSString).lastPathComponent
        let recordFile = (file as NSString).deletingPathExtension + ".json"
        guard let data = FileManager.default.contents(atPath: recordFile), let record = try? JSONDecoder().decode(BackupRecord.self, from: data),
            record.name == name, !record.sha256.isEmpty
        else { return (contents, nil) }
        return (contents, try Self.sha256(ofFile: file) == record.sha256)
    }

    /// The SHA-256 of a file in hex, read in 1 MiB pieces.
    static func sha256(ofFile path: String) throws -> String {
        guard let handle = FileHandle(forReadingAtPath: path) else { throw InventoryError(.storage, "the backup could not be read back") }
        defer { try? handle.close() }
        var hasher = SHA256()
        while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty { hasher.update(data: chunk) }
        return hasher.finalize().lowercaseHex
    }

    static func reason(_ error: any Error) -> String {
        (error as? InventoryError)?.userMessage ?? String(describing: error)
    }
}

/// Runs ``BackupFolder/takeIfDue()`` once a minute while the server runs (`serve`; off with `--no-backups`).
struct AutomaticBackupService<Store: BackupRepository & SettingsRepository & StaffRepository>: Service {
    let folder: BackupFolder<Store>
    var interval: Duration = .seconds(60)

    func run() async throws {
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                await self.folder.takeIfDue()
                do { try await Task.sleep(for: self.interval) } catch { return }
            }
        }
    }
}
