import Foundation

/// Whole-shop copies of the database: a consistent online backup and a checked restore. Pictures are the server's
/// (`ShopArchive` puts both in one file). The backup file is the same on every backend (an SQLite shop database), so
/// any backup restores anywhere.
///
/// The requirements are `async` because a networked database answers asynchronously; a backend that works
/// synchronously (SQLite) meets them with plain `throws` functions, which its own callers still call synchronously.
public protocol BackupRepository: Sendable {
    /// Writes a consistent copy of the whole database to `path` while the shop keeps working; a file it creates is
    /// readable by the server's user only (0600 from its creation).
    func backup(to path: String) async throws
    /// Replaces the database with the copy at `path` once every check passes (``restoreLimitBytes()`` and the
    /// implementation's own checks); a refused copy changes nothing.
    func restore(from path: String) async throws
    /// The size of the database now, in bytes (restore uploads are capped relative to it).
    func databaseBytes() async throws -> Int64
    /// A folder beside the database for scratch files (same file system, so a copy can be moved in place).
    var scratchFolder: String { get }
}
