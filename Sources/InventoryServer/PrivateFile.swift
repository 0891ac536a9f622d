import Foundation
import InventoryDomain

/// Files of the shop's data folder that only the server's user may read.
enum PrivateFile {
    /// Writes `data` to `path` through a scratch file beside it that is 0600 from its creation, then renamed over
    /// `path`: the file is never readable by others, not even while it is written (`write(.atomic)` makes its scratch
    /// file with the process's umask, 0644).
    static func write(_ data: Data, to path: String) throws {
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
    static func create(_ path: String, contents: Data = Data()) -> Bool {
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
}
