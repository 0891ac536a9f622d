import Foundation
import GRDB
import InventoryDomain
@testable import InventoryStore
import Synchronization
import Testing

/// The connections of their own that the reads on the calling thread use (``PointReaders``): they see every commit,
/// refuse to write, keep at most their capacity idle, and are closed by a restore so that none reads with statements
/// prepared for the old schema.
extension SQLiteSpecificTests {
    static func shopFolder(_ name: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("stockroom-\(name)-\(UUID().uuidString)").path
    }

    @Test func pointReadersSeeEveryCommitRefuseWritesAndKeepAtMostTheirCapacity() async throws {
        let folder = Self.shopFolder("pointreaders")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let store = try InventorySQLiteRepository.open(dataFolder: folder)
        let readers = PointReaders(path: folder + "/stockroom.sqlite", capacity: 2)
        let count = { try readers.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM product") ?? -1 } }
        #expect(try count() == 0)
        _ = try await store.createProduct(ProductDetails(name: "Oat milk", barcode: "4006381333931"))
        #expect(try count() == 1, "a commit made after the connection read once is seen by its next statement")
        #expect(readers.idleCount == 1)

        // Read-only: a write is refused by SQLite, and nothing changes.
        #expect(throws: DatabaseError.self) { try readers.read { db in try db.execute(sql: "DELETE FROM product") } }
        #expect(try count() == 1)
        #expect(try await store.product(barcode: "4006381333931")?.name == "Oat milk")

        // Eight threads reading at once open eight connections; two are kept when they are done.
        let threads = 8
        let inside = DispatchSemaphore(value: 0), mayLeave = DispatchSemaphore(value: 0), finished = DispatchSemaphore(value: 0)
        let answers = Mutex<[Int]>([])
        for _ in 0..<threads {
            Thread.detachNewThread {
                let answer = try? readers.read { db -> Int in
                    inside.signal()
                    mayLeave.wait()
                    return try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM product") ?? -1
                }
                answers.withLock { $0.append(answer ?? -1) }
                finished.signal()
            }
        }
        for _ in 0..<threads { _ = await inside.waitOffThePool(seconds: 600) }
        #expect(readers.idleCount == 0, "every connection is in use")
        for _ in 0..<threads { mayLeave.signal() }
        for _ in 0..<threads { _ = await finished.waitOffThePool(seconds: 600) }
        #expect(answers.withLock { $0 } == Array(repeating: 1, count: threads))
        #expect(readers.idleCount == 2)

        // A drain closes the idle connections, and one in use when it happens when it comes back.
        let holding = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0), returned = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            _ = try? readers.read { _ in
                holding.signal()
                release.wait()
            }
            returned.signal()
        }
        _ = await holding.waitOffThePool(seconds: 600)
        #expect(readers.idleCount == 1)
        readers.drain()
        #expect(readers.idleCount == 0)
        release.signal()
        _ = await returned.waitOffThePool(seconds: 600)
        #expect(readers.idleCount == 0, "the connection taken before the drain was closed, not kept")
        #expect(try count() == 1, "a read after a drain opens a connection")
        #expect(readers.idleCount == 1)
    }

    /// The barcode lookup and the caller's session are read on the point readers of a shop on disk, and a restore
    /// reaches them: the product added after the backup is gone for the lookup at once, the one changed after it is
    /// found by its restored code again, and the session signed in after it is gone.
    @Test func aRestoreReachesTheLookupsOnTheirOwnConnections() async throws {
        let folder = Self.shopFolder("pointreaders-restore")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let store = try InventorySQLiteRepository.open(dataFolder: folder)
        #expect(store.pointReaders != nil)
        let oat = try await store.createProduct(ProductDetails(name: "Oat milk", barcode: "4006381333931"))
        let owner = try await store.createFirstAdmin(StaffAccount(id: UserID(0), username: "owner", displayName: "", role: .admin,
                                                                passwordHash: "$2b$12$abcdefghijklmnopqrstuuOQ3oZJr9Yc0i7e5C4m1n2b3v4x5y6z7", pinHash: nil))
        let backup = folder + "/before.sqlite"
        try store.backup(to: backup)

        var details = oat.details
        details.barcode = "5012345678900"
        _ = try await store.updateProduct(oat.id, details)
        _ = try await store.createProduct(ProductDetails(name: "Rice milk", barcode: "9780201379624"))
        _ = try await store.createSession(userID: owner.id, kind: .web, name: "till", tokenHash: "till", csrfToken: "c", expiresAt: nil)
        #expect(try await store.session(tokenHash: "till")?.1.username == "owner")
        #expect(try await store.product(barcode: "5012345678900")?.name == "Oat milk")
        #expect(try await store.product(barcode: "4006381333931") == nil)
        #expect(try await store.product(barcode: "9780201379624")?.name == "Rice milk")
        #expect(store.pointReaders!.idleCount >= 1)

        try store.restore(from: backup)
        #expect(store.pointReaders!.idleCount == 0, "the restore closed the idle point readers")
        #expect(try await store.product(barcode: "4006381333931")?.name == "Oat milk")
        #expect(try await store.product(barcode: "5012345678900") == nil)
        #expect(try await store.product(barcode: "9780201379624") == nil)
        #expect(try await store.session(tokenHash: "till") == nil, "the session made after the backup is gone")
    }
}
