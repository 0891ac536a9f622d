import Foundation
import InventoryStore
import Testing

/// ``PrivateFolder``: every folder it makes is 0700 (never wider, as Foundation's create-then-narrow is for an instant),
/// an existing folder is left as it is, and a file in the way is an error.
@Suite struct PrivateFolderTests {
    @Test func foldersAreMadePrivateWithTheirParentsAndExistingOnesAreLeftAlone() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("private-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: root) }
        let nested = root + "/a/b"
        try PrivateFolder.create(atPath: nested)
        for path in [root, root + "/a", nested] {
            let mode = try #require(FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
            #expect(mode == 0o700, "\(path) is \(String(mode, radix: 8))")
        }
        // An existing folder keeps its mode and its files.
        let shared = root + "/shared"
        try FileManager.default.createDirectory(atPath: shared, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o750])
        FileManager.default.createFile(atPath: shared + "/kept", contents: Data("x".utf8))
        try PrivateFolder.create(atPath: shared)
        #expect(try FileManager.default.attributesOfItem(atPath: shared)[.posixPermissions] as? Int == 0o750)
        #expect(FileManager.default.fileExists(atPath: shared + "/kept"))
        // A file where the folder should be.
        FileManager.default.createFile(atPath: root + "/file", contents: Data())
        #expect(throws: POSIXError.self) { try PrivateFolder.create(atPath: root + "/file") }
        #expect(throws: POSIXError.self) { try PrivateFolder.create(atPath: root + "/file/inside") }
    }
}
