import ArgumentParser
import InventoryDomain

/// The retention rule and hour of the backups kept in `<data>/backups` (``BackupPolicy``).
struct BackupPolicyOptions: ParsableArguments {
    @Option(help: "Backups kept: the newest of each of the last N days that have one.") var backupKeepDaily: Int = BackupPolicy.standard.keepDaily
    @Option(help: "Backups kept besides: the newest of each of the last N weeks (Monday to Sunday) that have one.")
    var backupKeepWeekly: Int = BackupPolicy.standard.keepWeekly
    @Option(help: "The hour (0-23, shop time) from which the day's automatic backup is due.") var backupHour: Int = BackupPolicy.standard.hour

    /// The policy, checked.
    func policy() throws -> BackupPolicy {
        do {
            return try BackupPolicy(keepDaily: self.backupKeepDaily, keepWeekly: self.backupKeepWeekly, hour: self.backupHour)
        } catch let error as InventoryError {
            let flag = ["keepDaily": "--backup-keep-daily", "keepWeekly": "--backup-keep-weekly", "hour": "--backup-hour"][error.field ?? ""] ?? "backup"
            throw ValidationError("\(flag): \(error.userMessage)")
        }
    }
}
