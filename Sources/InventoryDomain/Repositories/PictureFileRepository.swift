import Foundation

/// Product pictures' bytes kept in the database itself, so that any of several servers sharing it can serve them
/// (PostgreSQL; an SQLite shop keeps them as files in `<data>/images`). Names are content-derived
/// (``ProductPictures/isValidName(_:)``): the same bytes always have the same name.
///
/// Servers write a picture's bytes before the catalogue change that names it, and delete the ones a change left
/// unused after it. Another server may be between those two steps for the same picture, so a deletion spares any
/// picture stored within ``pictureGraceMilliseconds`` (its change has not committed yet) and sweeps the older ones no
/// product shows, whatever named them.
public protocol PictureFileRepository: Sendable {
    /// Stores a picture's bytes under `name` (marking an existing one as just stored).
    /// - Returns: whether this call created it.
    func storePictureFile(_ name: String, bytes: [UInt8]) async throws -> Bool
    /// A picture's bytes, nil when none is stored under `name`.
    func pictureFile(_ name: String) async throws -> [UInt8]?
    /// Deletes every picture no product shows that was stored more than the grace period ago: what a change just left
    /// unused, and what earlier deletions spared.
    func deleteUnusedPictureFiles() async throws
    /// Deletes every stored picture whose name is not in `keep`, whatever shows it (a restore's pictures replace the
    /// old ones).
    func deletePictureFiles(except keep: Set<String>) async throws
    /// The stored pictures' names, sorted.
    func pictureFileNames() async throws -> [String]
}

extension PictureFileRepository {
    /// How long a just-stored picture is spared by deletions: longer than any catalogue change takes to commit.
    public static var pictureGraceMilliseconds: Int64 { 10 * 60 * 1_000 }
}
