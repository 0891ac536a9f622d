import Foundation
import InventoryDomain
import InventoryStore
import Testing

/// `stockroom backup`, run as the real executable: takes a checked backup into `<data>/backups`, lists them, and
/// checks any backup file offline with the exit status a script can rely on.
@Suite struct BackupCommandTests {
    static func run(_ arguments: [String]) throws -> (status: Int32, printed: String) {
        let executable = try #require(ServeProcessTests.executable, "build the stockroom executable first")
        return try runProcess(executable, arguments)
    }

    /// A shop with a product and an admin (a restore, and so a backup's check, needs one).
    static func shop(admin: Bool = true) async throws -> String {
        let data = temporaryFolder()
        try await stockroom(["init", "--data", data, "--shop-name", "Backup café"])
        try await stockroom(["product", "add", "--data", data, "--name", "Beans", "--price", "4.00"])
        if admin {
            let store = try InventorySQLiteRepository.open(dataFolder: data)
            _ = try await store.createFirstAdmin(StaffAccount(
                id: UserID(0), username: "owner", displayName: "Owner", role: .admin,
                passwordHash: "$2b$04$abcdefghijklmnopqrstuuM0fGmYl8o6Ff5kW1k1vZxW3yQe5nJ6u", pinHash: nil))
        }
        return data
    }

    @Test func takesListsAndVerifiesABackup() async throws {
        let data = try await Self.shop()
        let taken = try Self.run(["backup", "--data", data])
        #expect(taken.status == 0, "\(taken.printed)")
        #expect(taken.printed.contains("checked: 1 products"), "\(taken.printed)")
        let folder = data + "/backups"
        let zip = try #require(try FileManager.default.contentsOfDirectory(atPath: folder).first { $0.hasSuffix(".zip") })
        let attributes = try FileManager.default.attributesOfItem(atPath: folder)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o700, "the backups folder is the server's user's only")

        let listed = try Self.run(["backup", "--data", data, "--list"])
        #expect(listed.status == 0)
        #expect(listed.printed.contains(zip) && listed.printed.contains("passed") && listed.printed.contains("kept: daily, weekly"), "\(listed.printed)")

        let verified = try Self.run(["backup", "--verify", folder + "/" + zip])
        #expect(verified.status == 0, "\(verified.printed)")
        #expect(verified.printed.contains("restores: shop 'Backup café', 1 products"), "\(verified.printed)")
        #expect(verified.printed.contains("SHA-256 matches its record"), "\(verified.printed)")

        // A copy elsewhere has no record beside it: checked, no SHA-256 comparison.
        let elsewhere = temporaryFolder()
        try FileManager.default.createDirectory(atPath: elsewhere, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: folder + "/" + zip, toPath: elsewhere + "/copy.zip")
        let copy = try Self.run(["backup", "--verify", elsewhere + "/copy.zip"])
        #expect(copy.status == 0 && copy.printed.hasPrefix("ok:") && !copy.printed.contains("SHA-256"), "\(copy.printed)")

        // A damaged copy is refused with the reason, exit status 1.
        var bytes = try Data(contentsOf: URL(fileURLWithPath: elsewhere + "/copy.zip"))
        for offset in stride(from: 200, to: min(bytes.count - 200, 4000), by: 7) { bytes[offset] ^= 0x5A }
        try bytes.write(to: URL(fileURLWithPath: elsewhere + "/damaged.zip"))
        let damaged = try Self.run(["backup", "--verify", elsewhere + "/damaged.zip"])
        #expect(damaged.status == 1 && damaged.printed.hasPrefix("refused:"), "\(damaged.printed)")
        let notABackup = try Self.run(["backup", "--verify", "/etc/hostname"])
        #expect(notABackup.status == 1 && notABackup.printed.contains("not a Stockroom backup"), "\(notABackup.printed)")

        // A file changed since it was taken (here: its record says otherwise) is reported, exit status 1.
        let record = folder + "/" + (zip as NSString).deletingPathExtension + ".json"
        let text = try String(contentsOfFile: record, encoding: .utf8)
        let changed = text.replacingOccurrences(of: #""sha256" : "[0-9a-f]{64}""#, with: #""sha256" : "\#(String(repeating: "0", count: 64))""#,
                                                options: .regularExpression)
        #expect(changed != text)
        try changed.write(toFile: record, atomically: true, encoding: .utf8)
        let mismatch = try Self.run(["backup", "--verify", folder + "/" + zip])
        #expect(mismatch.status == 1 && mismatch.printed.contains("differs from its record"), "\(mismatch.printed)")
    }

    @Test func badOptionsAndAShopNoOneCanSignInToAreRefused() async throws {
        let data = try await Self.shop(admin: false)
        let failed = try Self.run(["backup", "--data", data])
        #expect(failed.status == 1 && failed.printed.contains("FAILED") && failed.printed.contains("no active admin"), "\(failed.printed)")
        for (arguments, says) in [(["backup", "--data", data, "--backup-keep-daily", "0"], "--backup-keep-daily"),
                                  (["backup", "--data", data, "--list", "--verify", "x.zip"], "not both"),
                                  (["backup", "--verify", data + "/nothing.zip"], "no file"),
                                  (["serve", "--data", data, "--backup-hour", "24"], "--backup-hour")] {
            let refused = try Self.run(arguments)
            #expect(refused.status == 64 && refused.printed.contains(says), "\(arguments): \(refused.printed)")
        }
    }
}
