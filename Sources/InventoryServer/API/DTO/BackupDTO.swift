/// `POST /api/v1/restore`: the shop as restored.
struct RestoreResponse: Encodable, Sendable {
    var restored: Bool
    var products: Int
    /// Pictures the backup brought (absent for a bare database, which leaves the pictures as they were).
    var pictures: Int?
}

/// `GET /api/v1/backups`: the backups in the data folder's `backups/` and the rule that keeps them.
struct BackupListResponse: Encodable, Sendable {
    struct Policy: Encodable, Sendable {
        var keepDaily: Int
        var keepWeekly: Int
        var hour: Int
    }
    /// Whether the server takes the daily backup itself (`serve`; off with `--no-backups`).
    var automatic: Bool
    var policy: Policy
    /// When the next automatic backup is due (absent when automatic backups are off).
    var nextDueAt: String?
    /// Newest first.
    var backups: [BackupEntryResponse]
}

/// One backup in the folder.
struct BackupEntryResponse: Encodable, Sendable {
    var name: String
    var takenAt: String
    var bytes: Int64
    var sha256: String
    /// `passed` or `failed`: the check after writing, as a restore would check it.
    var check: String
    var detail: String
    var automatic: Bool
    /// Why the retention rule keeps it: `daily`, `weekly`, `newestFailure`.
    var kept: [String]
    var products: Int?
    var documents: Int?
    var pictures: Int?
    /// Where to download it.
    var download: String

    init(_ listed: ListedBackup) {
        let record = listed.record
        self.name = record.name
        self.takenAt = record.instant.iso8601
        self.bytes = record.bytes
        self.sha256 = record.sha256
        self.check = record.passed ? "passed" : "failed"
        self.detail = record.detail
        self.automatic = record.automatic
        self.kept = listed.kept.sorted().map(\.rawValue)
        self.products = record.products
        self.documents = record.documents
        self.pictures = record.pictures
        self.download = "/api/v1/backups/" + record.name
    }
}
