import Foundation
import InventoryDomain
@testable import InventoryPostgres
import InventoryStore
import PostgresNIO
import Testing

/// Pictures kept in PostgreSQL (any instance serves them), the readiness probe, and a database out of reach refused as
/// `unavailable` rather than waited for.
@Suite(.enabled(if: Backend.ported.contains(.postgres)))
struct PostgresPictureAndHealthTests {
    static let name = "0123456789abcdef01234567.png"

    @Test func aPictureStoredByOneInstanceIsServedByAnother() async throws {
        let location = try Backend.postgresLocation()
        let one = try await InventoryPostgresRepository.open(location, maximumConnections: 2)
        let other = try await InventoryPostgresRepository.open(location, maximumConnections: 2)
        let bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0, 1, 2, 3, 255]
        #expect(try await one.storePictureFile(Self.name, bytes: bytes))
        #expect(try await other.pictureFile(Self.name) == bytes)
        #expect(try await other.storePictureFile(Self.name, bytes: bytes) == false)  // already there: not created again
        #expect(try await other.pictureFileNames() == [Self.name])
        #expect(try await one.pictureFile("ffffffffffffffffffffffff.png") == nil)
        #expect(try await one.pictureFile("../etc/passwd") == nil)
        await #expect(throws: InventoryError(.invalidValue, field: "name", "")) {
            _ = try await one.storePictureFile("../../etc/passwd", bytes: bytes)
        }
    }

    @Test func aDeletionSparesPicturesJustStoredOrShownAndSweepsOldUnusedOnes() async throws {
        let repository = try await InventoryPostgresRepository.open(try Backend.postgresLocation(), maximumConnections: 2)
        let shown = "aaaaaaaaaaaaaaaaaaaaaaaa.jpg", old = "bbbbbbbbbbbbbbbbbbbbbbbb.png", fresh = "cccccccccccccccccccccccc.png"
        for name in [shown, old, fresh] { _ = try await repository.storePictureFile(name, bytes: [1, 2, 3]) }
        let product = try await repository.createProduct(ProductDetails(name: "Shown"))
        _ = try await repository.changePictures(of: product.id, .add(shown, makeMain: true))
        // `shown` and `old` were stored long ago (another server may have stored `fresh` a moment ago).
        try await repository.client.withConnection { connection in
            try await connection.query("UPDATE pictureFile SET storedAt = now() - interval '1 hour' WHERE name <> \(fresh)", logger: repository.logger)
        }
        try await repository.deleteUnusedPictureFiles()
        #expect(try await repository.pictureFileNames() == [shown, fresh])
        try await repository.deletePictureFiles(except: [fresh])
        #expect(try await repository.pictureFileNames() == [fresh])
    }

    @Test func theProbeSaysTheDatabaseAnswers() async throws {
        let repository = try await InventoryPostgresRepository.open(try Backend.postgresLocation(), maximumConnections: 1)
        #expect(repository.databaseKind == "postgresql")
        #expect(await repository.databaseReachable())
    }

    @Test func aDatabaseOutOfReachIsRefusedAsUnavailableWithinSeconds() async throws {
        // A port nobody listens on: the pool keeps trying to connect, and each request gives up after its lease timeout.
        var location = try Backend.postgresLocation()
        location.port = try Self.closedPort()
        location.schema = nil
        let repository = InventoryPostgresRepository.unopened(location, maximumConnections: 2)
        // Each answer comes within seconds on a quiet machine (8 s for the three; the cluster rig checks that no request
        // waits long); no time is asserted here, since the suites run many tests at once on two cores (193 s seen).
        #expect(await repository.databaseReachable() == false)
        await #expect(throws: InventoryError(.unavailable, field: "database", "")) { _ = try await repository.settings() }
        await #expect(throws: InventoryError(.unavailable, field: "database", "")) {
            _ = try await repository.createCategory(Category(id: CategoryID(0), name: "Never"))
        }
    }

    @Test func aPoolThatHasGivenUpConnectingIsRefusedAsUnavailableToo() async throws {
        // A minute after its first failed attempt to connect, the pool refuses every request at once (its circuit
        // breaker, `ConnectionPoolError`) before any watchdog of ours decides: that is the database out of reach as
        // well (a 503 with Retry-After), never a failure of the database (a 500), as a CI run saw on a loaded machine.
        var location = try Backend.postgresLocation()
        location.port = try Self.closedPort()
        location.schema = nil
        let repository = InventoryPostgresRepository.unopened(location, maximumConnections: 1)
        await #expect(throws: InventoryError(.unavailable, field: "database", "")) { _ = try await repository.settings() }
        try await Task.sleep(for: .seconds(62))
        for _ in 0..<2 {
            await #expect(throws: InventoryError(.unavailable, field: "database", "")) { _ = try await repository.settings() }
        }
    }

    @Test func openingADatabaseNobodyServesSaysWhereItLooked() async throws {
        var location = try Backend.postgresLocation()
        location.port = try Self.closedPort()
        await #expect {
            _ = try await InventoryPostgresRepository.open(location, maximumConnections: 1)
        } throws: { error in
            guard let error = error as? InventoryError else { return false }
            return error.code == .unavailable && error.field == "database" && error.userMessage.contains("127.0.0.1:\(location.port)")
        }
    }

    /// A TCP port on 127.0.0.1 with nothing listening (bound, then closed).
    static func closedPort() throws -> Int {
        let socket = Foundation.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, length) == 0 && getsockname(socket, $0, &length) == 0 }
        }
        guard bound else { throw InventoryError(.storage, "no free port") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}

/// A request whose connection PostgreSQL terminates while the request waits (for a row lock, here) is answered, not
/// left hanging: `unavailable`, within seconds.
@Suite(.enabled(if: Backend.ported.contains(.postgres)))
struct PostgresTerminatedConnectionTests {
    @Test func aWriteWaitingForALockWhoseConnectionIsTerminatedIsAnswered() async throws {
        let location = try Backend.postgresLocation()
        let repository = try await InventoryPostgresRepository.open(location, maximumConnections: 4)
        let category = try await repository.createCategory(Category(id: CategoryID(0), name: "Locked"))
        let holding = Barrier(parties: 2)
        let release = Barrier(parties: 2)
        // One write holds the category's row; a second waits for it; the waiting one's backend is terminated.
        let holder = Task {
            try await repository.write { connection, _, _ in
                _ = try await connection.query("SELECT id FROM category WHERE id = \(category.id.rawValue) FOR UPDATE", logger: repository.logger)
                    .collect(Int64.self)
                await holding.arrive()
                await release.arrive()
            }
        }
        await holding.arrive()
        // The waiting query carries a mark of its own, so that only its backend is terminated: other tests running at
        // the same time on the same server wait for row locks too (the deadlock test), and must not lose theirs.
        let mark = "terminate-me-\(UUID().uuidString)"
        let waiter = Task {
            try await repository.write { connection, _, _ in
                _ = try await connection.query("SELECT id FROM category WHERE id = \(category.id.rawValue) FOR UPDATE /* \(unescaped: mark) */",
                                               logger: repository.logger)
                    .collect(Int64.self)
            }
        }
        // Wait until the second write is blocked, then terminate its backend.
        var terminated = false
        for _ in 0..<100 where !terminated {
            try await Task.sleep(for: .milliseconds(100))
            terminated = try await repository.statement { connection in
                try await connection.query("""
                    SELECT pg_terminate_backend(pid) FROM pg_stat_activity
                    WHERE wait_event_type = 'Lock' AND query LIKE \("%" + mark + "%") AND pid <> pg_backend_pid()
                    """, logger: repository.logger).collect(Bool.self).contains(true)
            }
        }
        #expect(terminated)
        await #expect(throws: InventoryError(.unavailable, field: "database", "")) { try await waiter.value }
        await release.arrive()
        try await holder.value
    }
}
