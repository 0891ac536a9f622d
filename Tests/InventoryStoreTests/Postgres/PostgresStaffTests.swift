import Foundation
import InventoryDomain
import InventoryPostgres
import Testing

/// What the staff conformance suite cannot show on one repository: several `stockroom serve` instances on one
/// PostgreSQL database (two repositories opened on the same schema) racing on the same sign-in throttle, the same
/// accounts and the same shifts, and a change on one seen by the other at once (no cache).
@Suite(.enabled(if: Backend.ported.contains(.postgres), "needs STOCKROOM_TEST_POSTGRES"))
struct PostgresStaffTests {
    /// Two repositories on one new schema, as two server instances.
    static func twoInstances() async throws -> (InventoryPostgresRepository, InventoryPostgresRepository) {
        let location = try Backend.postgresLocation()
        let first = try await InventoryPostgresRepository.open(location, maximumConnections: 4)
        let second = try await InventoryPostgresRepository.open(location, maximumConnections: 4)
        return (first, second)
    }

    static func account(_ username: String, _ role: Role = .staff) -> StaffAccount {
        StaffAccount(id: UserID(0), username: username, displayName: username, role: role, passwordHash: StaffConformance.hash, pinHash: nil)
    }

    /// Runs `count` calls at once, alternating between the two instances.
    static func race<T: Sendable>(_ count: Int, _ instances: (InventoryPostgresRepository, InventoryPostgresRepository),
                                  _ body: @escaping @Sendable (InventoryPostgresRepository, Int) async throws -> T) async throws -> [Result<T, InventoryError>] {
        try await withThrowingTaskGroup(of: Result<T, InventoryError>.self) { group in
            for index in 0..<count {
                let store = index.isMultiple(of: 2) ? instances.0 : instances.1
                group.addTask {
                    do { return .success(try await body(store, index)) } catch let error as InventoryError { return .failure(error) }
                }
            }
            var all: [Result<T, InventoryError>] = []
            for try await result in group { all.append(result) }
            return all
        }
    }

    @Test func twoInstancesReservingAtOnceNeverBothPassTheLimit() async throws {
        let instances = try await Self.twoInstances()
        let now: Int64 = 1_767_225_600_000
        // One account and one address, from both instances at once: exactly the free attempts pass, counted on both keys.
        let keys = ["user:ada", "ip:10.0.0.7"]
        let decisions = try await Self.race(30, instances) { store, _ in try await store.reserveAttempt(keys: keys, at: now) }.map { try $0.get() }
        #expect(decisions.filter { $0 == .allow }.count == LoginThrottle.freeFailures)
        #expect(decisions.filter { $0 == .wait(seconds: 2) }.count == 30 - LoginThrottle.freeFailures)
        for key in keys {
            #expect(try await instances.0.throttle(key: key) == LoginThrottle(failures: LoginThrottle.freeFailures, lastFailureAt: now))
        }

        // A minute later, keys named in either order by either instance, each reservation that passes given back at
        // once (a right answer): an attempt that sees another's reservation waits; no deadlock surfaces; and both keys
        // end as they were, with the last failure's time (a right answer is not a failure's time).
        let later = now + 60_000
        let outcomes = try await Self.race(20, instances) { store, index -> Bool in
            let order = index % 4 < 2 ? keys : Array(keys.reversed())
            guard try await store.reserveAttempt(keys: order, at: later + Int64(index)) == .allow else { return false }
            try await store.settleAttempt(clear: [], release: order)
            return true
        }.map { try $0.get() }
        #expect(outcomes.contains(true))
        for key in keys {
            #expect(try await instances.1.throttle(key: key) == LoginThrottle(failures: LoginThrottle.freeFailures, lastFailureAt: now))
        }
    }

    /// A key with no row yet is the hard case (there is no row to lock): two first attempts from two instances both
    /// count.
    @Test func twoInstancesCountEveryFirstAttempt() async throws {
        let instances = try await Self.twoInstances()
        let now: Int64 = 1_767_225_600_000
        for round in 0..<10 {
            let key = "user:ben\(round)"
            let results = try await Self.race(2, instances) { store, _ in try await store.reserveAttempt(keys: [key], at: now) }.map { try $0.get() }
            #expect(results == [.allow, .allow])
            #expect(try await instances.1.throttle(key: key) == LoginThrottle(failures: 2, lastFailureAt: now))
        }
    }

    @Test func twoInstancesDemotingEachOtherLeaveAnActiveAdmin() async throws {
        let instances = try await Self.twoInstances()
        _ = try await instances.0.createFirstAdmin(Self.account("owner", .admin))
        for round in 0..<5 {
            let ada = try await instances.0.createUser(Self.account("ada\(round)", .admin))
            let bea = try await instances.1.createUser(Self.account("bea\(round)", .admin))
            // Every other admin steps down, leaving the two new ones.
            for admin in try await instances.0.users() where admin.role == .admin && admin.id != ada.id && admin.id != bea.id {
                var other = admin
                other.role = .manager
                _ = try await instances.0.updateUser(other)
            }
            // Each instance demotes one of the two at once: one is refused as the last active admin.
            let results = try await Self.race(2, instances) { store, index in
                var account = index == 0 ? ada : bea
                account.role = .manager
                return try await store.updateUser(account)
            }
            #expect(results.filter { if case .success = $0 { true } else { false } }.count == 1)
            #expect(results.contains { if case .failure(let error) = $0 { error.code == .conflict && error.field == "role" } else { false } })
            let left = try await instances.1.users().filter { $0.role == .admin && $0.isActive }
            #expect(left.count == 1)
        }
    }

    @Test func twoInstancesCreatingTheFirstAdminMakeOne() async throws {
        let instances = try await Self.twoInstances()
        let results = try await Self.race(6, instances) { store, index in try await store.createFirstAdmin(Self.account("owner\(index)")) }
        #expect(results.filter { if case .success = $0 { true } else { false } }.count == 1)
        #expect(results.allSatisfy { if case .failure(let error) = $0 { error.code == .conflict && error.field == "username" } else { true } })
        #expect(try await instances.1.userCount() == 1)
        // One username, case-insensitively, whichever instance asks first.
        let names = try await Self.race(6, instances) { store, index in try await store.createUser(Self.account(index.isMultiple(of: 2) ? "MIA" : "mia")) }
        #expect(names.filter { if case .success = $0 { true } else { false } }.count == 1)
        #expect(names.allSatisfy { if case .failure(let error) = $0 { error.code == .duplicate && error.field == "username" } else { true } })
    }

    @Test func twoInstancesClockingInAtOnceOpenOneShift() async throws {
        let instances = try await Self.twoInstances()
        let mia = try await instances.0.createUser(Self.account("mia"))
        let now = Instant.now.milliseconds
        let clockIns = try await Self.race(6, instances) { store, index in try await store.clockIn(mia.id, at: now + Int64(index)) }
        #expect(clockIns.filter { if case .success = $0 { true } else { false } }.count == 1)
        #expect(clockIns.allSatisfy { if case .failure(let error) = $0 { error.code == .conflict && error.field == "shift" } else { true } })
        let clockOuts = try await Self.race(6, instances) { store, _ in try await store.clockOut(mia.id, at: now + 60_000) }
        #expect(clockOuts.filter { if case .success = $0 { true } else { false } }.count == 1)
        let shifts = try await instances.1.shifts(userID: mia.id, from: .min, to: .max)
        #expect(shifts.count == 1 && shifts.first?.endedAt == now + 60_000)
    }

    @Test func aSessionEndedOnOneInstanceIsGoneOnTheOtherAtOnce() async throws {
        let (first, second) = try await Self.twoInstances()
        _ = try await first.createFirstAdmin(Self.account("owner"))
        var mia = try await first.createUser(Self.account("mia"))
        let token = try await first.createSession(userID: mia.id, kind: .api, name: "sync", tokenHash: "mia-api", csrfToken: "c", expiresAt: nil)
        _ = try await first.createSession(userID: mia.id, kind: .web, name: "till", tokenHash: "mia-web", csrfToken: "c", expiresAt: nil)
        for _ in 0..<2 { #expect(try await second.session(tokenHash: "mia-api")?.0.id == token) }
        try await first.deleteSession(id: token)
        #expect(try await second.session(tokenHash: "mia-api") == nil)
        #expect(try await second.session(tokenHash: "mia-web")?.1.role == .staff)
        mia.role = .manager
        mia = try await first.updateUser(mia)
        #expect(try await second.session(tokenHash: "mia-web")?.1 == mia)
        mia.isActive = false
        _ = try await second.updateUser(mia)
        #expect(try await first.session(tokenHash: "mia-web") == nil)
    }

    /// Open bounds (`Int64.min`, `Int64.max`) are PostgreSQL's -infinity and infinity, not an overflow.
    @Test func openBoundsAndTheWidestInstantsAreStoredAndFound() async throws {
        let (store, _) = try await Self.twoInstances()
        let mia = try await store.createUser(Self.account("mia"))
        let shift = try await store.clockIn(mia.id, at: .max)
        #expect(shift.startedAt == .max)
        #expect(try await store.shifts(userID: nil, from: .min, to: .max).map(\.id) == [shift.id])
        #expect(try await store.shifts(userID: nil, from: .min, to: 0).isEmpty)
        #expect(try await store.clockOut(mia.id, at: 0).endedAt == .max)
    }
}
