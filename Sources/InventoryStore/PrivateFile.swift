import Foundation
import InventoryDomain

/// Files of the shop's data folder that only the server's user may read: the database, its scratch copies, backups,
/// pictures and the TLS key are 0600 from the moment they exist.
public enum PrivateFile {
    /// Writes `data` to `path` through a scratch file beside it that is 0600 from its creation, then renamed over
    /// `path`: the file is never readable by others, not even while it is written (`write(.atomic)` makes its scratch
    /// file with the process's umask, 0644).
    public static func write(_ data: Data, to path: String) throws {
        let scratch = (path as NSString).deletingLastPathComponent + "/.\((path as NSString).lastPathComponent)-\(UUID().uuidString)"
        guard self.create(scratch, contents: data) else {
            throw InventoryError(.storage, field: "data", "cannot write \(path)")
        }
        guard rename(scratch, path) == 0 else {
            try? FileManager.default.removeItem(atPath: scratch)
            throw InventoryError(.storage, field: "data", "cannot write \(path)")
        }
    }

    /// Creates a new file that is 0600 from the start (`open(2)` with `O_EXCL`), holding `contents`; false when it
    /// cannot. (`FileManager.createFile(atPath:contents:attributes:)` writes a 0644 scratch file first and applies the
    /// mode afterwards, so the data is briefly readable by others.)
    @discardableResult
    public static func create(_ path: String, contents: Data = Data()) -> Bool {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        return contents.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = Foundation.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written <= 0 { return false }
                offset += written
            }
            return true
        }
    }

    /// Copies `source` to a new file `destination` that is 0600 from its creation (`FileManager.copyItem` keeps the
    /// source's mode or the umask's, so a copy of the database could be readable by others while it is checked).
    /// - Throws: ``InventoryError`` (`storage`) when it cannot.
    public static func copy(from source: String, to destination: String) throws {
        guard let input = FileHandle(forReadingAtPath: source) else {
            throw InventoryError(.storage, field: "file", "cannot read \(source)")
        }
        defer { try? input.close() }
        guard self.create(destination), let output = FileHandle(forWritingAtPath: destination) else {
            throw InventoryError(.storage, field: "file", "cannot create \(destination)")
        }
        defer { try? output.close() }
        while let chunk = try input.read(upToCount: 1 << 20), !chunk.isEmpty {
            try output.write(contentsOf: chunk)
        }
    }
}
