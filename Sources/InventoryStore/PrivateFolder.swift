import Foundation

/// Folders only the shop's own user may enter (the data folder, backups, scratch folders), made with mode 0700 from
/// the first instant. Foundation's `createDirectory(…, attributes: [.posixPermissions: 0o700])` makes a folder with
/// the umask's mode (typically 0755) and narrows it afterwards: the security tests saw scratch folders in between.
public enum PrivateFolder {
    /// Makes `path` a folder with mode 0700, and any missing parent the same way; an existing folder is left as it is.
    /// - Throws: `POSIXError` naming why it could not be made.
    public static func create(atPath path: String) throws {
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue { return }
        let parent = (path as NSString).deletingLastPathComponent
        if !parent.isEmpty, parent != path { try Self.create(atPath: parent) }
        // mkdir applies the umask too, which only ever narrows 0700.
        guard mkdir(path, 0o700) != 0 else { return }
        let failure = errno
        // Made meanwhile by someone else, which is fine only if it is a folder.
        if failure == EEXIST, FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue { return }
        throw POSIXError(failure == EEXIST ? .ENOTDIR : POSIXErrorCode(rawValue: failure) ?? .EIO)
    }
}
