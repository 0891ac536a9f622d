import Foundation

/// Whole-shop copies of the database: a consistent online backup and a checked restore. Pictures are the server's
/// (`ShopArchive` puts both in one file).
public protocol BackupRepository: Sendable {
    /// Writes a consistent copy of the whole database to `path` while the shop keeps working; a file it creates is
    /// readable by the server's user only (0600 from its creation).
    func backup(to path: String) throws
    /// Replaces the database with the copy at `path` once every check passes (``restoreLimitBytes()`` and the
    /// implementation's own checks); a refused copy changes nothing.
    func restore(from path: String) throws
    /// The size of the database now, in bytes (restore uploads are capped relative to it).
    func databaseBytes() -> Int64
    /// A folder beside the database for scratch files (same file system, so a copy can be moved in place).
    var scratchFolder: String { get }
}
