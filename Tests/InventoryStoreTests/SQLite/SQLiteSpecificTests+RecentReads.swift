import Foundation
import InventoryDomain
@testable import InventoryStore
import Testing

/// What the store keeps of recent reads (the settings, signed-in callers): fresh for its lifetime, dropped by every
/// change made through the store, and never stored by a read that an invalidation overtook.
extension SQLiteSpecificTests {
    @Test func recentReadsExpireAreInvalidatedAndStayBounded() async throws {
        let cache = RecentReads<String, Int>(name: "test", lifetime: .milliseconds(200), capacity: 3)
        let (missing, generation) = cache.current("a")
        #expect(missing == nil)
        cache.store(1, for: "a", generation: generation)
        #expect(cache.current("a").0 == 1)

        // A read that began before an invalidation does not store what it read.
        let (_, before) = cache.current("b")
        cache.invalidate()
        cache.store(2, for: "b", generation: before)
        #expect(cache.current("b").0 == nil && cache.current("a").0 == nil)

        // Full: expired values go first; when none has expired, all of them.
        let now = cache.current("x").1
        for (index, key) in ["a", "b", "c"].enumerated() { cache.store(index, for: key, generation: now) }
        #expect(cache.count == 3)
        cache.store(9, for: "d", generation: now)
        #expect(cache.count == 1 && cache.current("d").0 == 9)

        // A value is fresh for its lifetime only.
        try await Task.sleep(for: .milliseconds(250))
        #expect(cache.current("d").0 == nil)
        cache.store(10, for: "e", generation: now)
        cache.store(11, for: "f", generation: now)
        cache.store(12, for: "g", generation: now)
        #expect(cache.count == 3, "the expired 'd' was dropped to make room")
    }

    /// Another process on the same file (the command line, while the server runs) changes an account: the server's
    /// store sees it within the cache's lifetime, without a change of its own.
    @Test func aChangeByAnotherProcessIsSeenWithinTheCachesLifetime() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("stockroom-cache-\(UUID().uuidString)").path
        let server = try InventorySQLiteRepository.open(dataFolder: folder)
        let commandLine = try InventorySQLiteRepository.open(dataFolder: folder)
        _ = try await server.createFirstAdmin(StaffAccount(id: UserID(0), username: "owner", displayName: "", role: .admin, passwordHash: "x", pinHash: nil))
        var mia = try await server.createUser(StaffAccount(id: UserID(0), username: "mia", displayName: "", role: .staff, passwordHash: "x", pinHash: nil))
        _ = try await server.createSession(userID: mia.id, kind: .web, name: "till", tokenHash: "mia", csrfToken: "c", expiresAt: nil)
        #expect(try await server.session(tokenHash: "mia")?.1.role == .staff)
        #expect(server.sessionCache.count == 1)

        mia.role = .manager
        _ = try await commandLine.updateUser(mia)
        // A read begun after the deadline sees the change whatever the machine's load (the kept session has expired by
        // then), so the test ends with one such read rather than failing on a thread that was late to run.
        let deadline = ContinuousClock.now + server.sessionCache.lifetime + .seconds(5)
        var role = try await server.session(tokenHash: "mia")?.1.role
        while role != .manager {
            let late = ContinuousClock.now >= deadline
            try await Task.sleep(for: .milliseconds(50))
            role = try await server.session(tokenHash: "mia")?.1.role
            if late { break }
        }
        #expect(role == .manager)
    }
}
