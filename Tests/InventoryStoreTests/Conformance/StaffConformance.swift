import Foundation
import InventoryDomain
import Testing

/// Staff accounts, sessions, sign-in throttling, shifts and the audit log (``StaffRepository``), called directly
/// (the server's `AuthTests` and `SecurityTests` drive the same methods through HTTP).
@Suite struct StaffConformance {
    static let hash = "$2b$12$abcdefghijklmnopqrstuuOQ3oZJr9Yc0i7e5C4m1n2b3v4x5y6z7"

    static func account(_ username: String, _ role: Role = .staff, displayName: String = "") -> StaffAccount {
        StaffAccount(id: UserID(0), username: username, displayName: displayName, role: role, passwordHash: Self.hash, pinHash: nil)
    }

    /// Everything the staff protocol can read back, as text: accounts, sessions of both kinds, every shift, the audit
    /// log and the throttle of each key given.
    static func staffState(_ store: some StaffRepository, keys: [String] = []) async throws -> String {
        var lines = try await store.users().map { "user \($0)" }
        for kind in [StaffSession.Kind.web, .api] { lines += try await store.sessions(kind: kind).map { "session \($0)" } }
        lines += try await store.shifts(userID: nil, from: .min, to: .max).map { "shift \($0)" }
        lines += try await store.auditLog(limit: 10_000, offset: 0).map { "audit \($0)" }
        for key in keys { lines.append("throttle \(key) \(try await store.throttle(key: key))") }
        return lines.joined(separator: "\n")
    }

    /// Expects `body` to be refused with `code` (and `field`), leaving the staff records and the shop unchanged.
    static func expectStaffRefusal(_ store: any TestableRepository, _ code: InventoryError.Code, field: String? = nil, keys: [String] = [],
                                   sourceLocation: SourceLocation = #_sourceLocation, _ body: () async throws -> Void) async throws {
        let before = try await Self.staffState(store, keys: keys)
        try await expectRefusal(store, code, field: field, sourceLocation: sourceLocation, body)
        #expect(try await Self.staffState(store, keys: keys) == before, "the staff records changed after a refusal", sourceLocation: sourceLocation)
    }

    /// Milliseconds since 1970 now, to bound the moments the store stamps itself.
    static var now: Int64 { Instant.now.milliseconds }

    // MARK: - Accounts

    @Test(arguments: Backend.ported)
    func theFirstAdminIsCreatedOnceAndAccountsAreFound(backend: Backend) async throws {
        let store = try await backend.make()
        #expect(try await store.userCount() == 0)
        #expect(try await store.users().isEmpty)
        // The first account is an admin whatever role it was given.
        let owner = try await store.createFirstAdmin(Self.account("owner", .staff, displayName: "Olive Owner"))
        #expect(owner.role == .admin && owner.username == "owner" && owner.displayName == "Olive Owner" && owner.isActive)
        #expect(try await store.userCount() == 1)
        try await Self.expectStaffRefusal(store, .conflict) { _ = try await store.createFirstAdmin(Self.account("intruder", .admin)) }

        let mia = try await store.createUser(Self.account(" Mia ", .manager))
        // Usernames are trimmed; a blank display name is the username.
        #expect(mia.username == "Mia" && mia.displayName == "Mia" && mia.role == .manager && mia.id != owner.id)
        let ben = try await store.createUser(StaffAccount(id: UserID(0), username: "ben", displayName: "Ben", role: .staff, passwordHash: Self.hash,
                                                          pinHash: "$2b$12$pinpinpinpinpinpinpinpuOQ3oZJr9Yc0i7e5C4m1n2b3v4x5y6z7", isActive: false))
        #expect(ben.pinHash != nil && !ben.isActive)
        #expect(try await store.userCount() == 3)
        // By username, case-insensitively.
        #expect(try await store.users() == [ben, mia, owner])
        #expect(try await store.user(mia.id) == mia)
        #expect(try await store.user(username: "MIA") == mia)
        #expect(try await store.user(username: " ben ") == ben)
        #expect(try await store.user(username: "nobody") == nil)
        try await expectRefusal(store, .notFound) { _ = try await store.user(UserID(999)) }

        try await Self.expectStaffRefusal(store, .duplicate, field: "username") { _ = try await store.createUser(Self.account("mia")) }
        try await Self.expectStaffRefusal(store, .invalidValue, field: "username") { _ = try await store.createUser(Self.account("m")) }
        try await Self.expectStaffRefusal(store, .invalidValue, field: "username") { _ = try await store.createUser(Self.account("mia & ben")) }
        #expect(try await store.userCount() == 3)
    }

    @Test(arguments: Backend.ported)
    func anAccountIsSavedWhileTheShopKeepsAnActiveAdmin(backend: Backend) async throws {
        let store = try await backend.make()
        let owner = try await store.createFirstAdmin(Self.account("owner"))
        var mia = try await store.createUser(Self.account("mia"))
        mia.username = "mia.k"
        mia.displayName = "Mia K."
        mia.role = .manager
        mia.passwordHash = "$2b$12$anotheranotheranotheruOQ3oZJr9Yc0i7e5C4m1n2b3v4x5y6z7"
        mia.pinHash = "$2b$12$pinpinpinpinpinpinpinpuOQ3oZJr9Yc0i7e5C4m1n2b3v4x5y6z7"
        #expect(try await store.updateUser(mia) == mia)
        #expect(try await store.user(mia.id) == mia)
        #expect(try await store.user(username: "mia") == nil)

        // The last active admin can be neither demoted nor deactivated; a second admin makes both possible.
        var demoted = owner
        demoted.role = .manager
        try await Self.expectStaffRefusal(store, .conflict, field: "role") { _ = try await store.updateUser(demoted) }
        var inactive = owner
        inactive.isActive = false
        try await Self.expectStaffRefusal(store, .conflict, field: "role") { _ = try await store.updateUser(inactive) }
        var taken = mia
        taken.username = "OWNER"
        try await Self.expectStaffRefusal(store, .duplicate, field: "username") { _ = try await store.updateUser(taken) }
        var ghost = mia
        ghost.id = UserID(999)
        ghost.username = "ghost"
        try await Self.expectStaffRefusal(store, .notFound) { _ = try await store.updateUser(ghost) }
        mia.role = .admin
        _ = try await store.updateUser(mia)
        #expect(try await store.updateUser(demoted).role == .manager)

        // Deactivating an account ends its sessions and tokens at once; others keep theirs.
        _ = try await store.createSession(userID: mia.id, kind: .web, name: "till", tokenHash: "mia-web", csrfToken: "c1", expiresAt: nil)
        _ = try await store.createSession(userID: mia.id, kind: .api, name: "script", tokenHash: "mia-api", csrfToken: "c2", expiresAt: nil)
        _ = try await store.createSession(userID: owner.id, kind: .web, name: "office", tokenHash: "owner-web", csrfToken: "c3", expiresAt: nil)
        var gone = demoted
        gone.isActive = false
        _ = try await store.updateUser(gone)
        #expect(try await store.session(tokenHash: "owner-web") == nil)
        #expect(try await store.session(tokenHash: "mia-web")?.1 == mia)
        #expect(try await store.session(tokenHash: "mia-api") != nil)
    }

    // MARK: - Sessions

    @Test(arguments: Backend.ported)
    func sessionsAreFoundByTokenHashAndKeepTheirExpiry(backend: Backend) async throws {
        let store = try await backend.make()
        let owner = try await store.createFirstAdmin(Self.account("owner"))
        let mia = try await store.createUser(Self.account("mia"))
        let before = Self.now
        let expiry = before + StaffSession.defaultWebLifetimeMilliseconds
        let web = try await store.createSession(userID: mia.id, kind: .web, name: "Firefox", tokenHash: "hash-web", csrfToken: "csrf-1", expiresAt: expiry)
        let token = try await store.createSession(userID: owner.id, kind: .api, name: "stock sync", tokenHash: "hash-api", csrfToken: "csrf-2", expiresAt: nil)
        let after = Self.now
        #expect(web != token)

        let (session, account) = try #require(try await store.session(tokenHash: "hash-web"))
        #expect(account == mia)
        #expect(session.id == web && session.userID == mia.id && session.kind == .web && session.name == "Firefox" && session.csrfToken == "csrf-1")
        #expect(!session.isLocked && session.expiresAt == expiry)
        #expect((before...after).contains(session.createdAt) && session.lastSeenAt == session.createdAt)
        // The stored expiry is what ends it: working a millisecond before, not at it.
        #expect(!session.isExpired(at: expiry - 1, webLifetime: StaffSession.defaultWebLifetimeMilliseconds * 2))
        #expect(session.isExpired(at: expiry, webLifetime: StaffSession.defaultWebLifetimeMilliseconds * 2))
        let (apiSession, apiAccount) = try #require(try await store.session(tokenHash: "hash-api"))
        #expect(apiAccount == owner && apiSession.kind == .api && apiSession.expiresAt == nil && apiSession.csrfToken == "csrf-2")
        #expect(try await store.session(tokenHash: "hash-unknown") == nil)

        // Activity, the lock and a switch of user are saved on the session.
        try await store.updateSession(id: web, userID: owner.id, lastSeenAt: after + 60_000, isLocked: true)
        let (updated, switched) = try #require(try await store.session(tokenHash: "hash-web"))
        #expect(switched == owner)
        #expect(updated.userID == owner.id && updated.lastSeenAt == after + 60_000 && updated.isLocked)
        #expect(updated.createdAt == session.createdAt && updated.expiresAt == expiry && updated.csrfToken == "csrf-1")

        // Listed by kind, in the order they were made.
        let second = try await store.createSession(userID: mia.id, kind: .api, name: "label printer", tokenHash: "hash-api-2", csrfToken: "csrf-3",
                                                   expiresAt: expiry)
        let tokens = try await store.sessions(kind: .api)
        #expect(tokens.map(\.id) == [token, second])
        #expect(tokens.map(\.name) == ["stock sync", "label printer"])
        #expect(tokens.map(\.userID) == [owner.id, mia.id])
        #expect(tokens.map(\.expiresAt) == [nil, expiry])
        #expect(tokens.allSatisfy { $0.kind == .api })
        #expect(try await store.sessions(kind: .web).map(\.id) == [web])
    }

    @Test(arguments: Backend.ported)
    func sessionsEndOneByOneOrAllButOne(backend: Backend) async throws {
        let store = try await backend.make()
        let owner = try await store.createFirstAdmin(Self.account("owner"))
        let mia = try await store.createUser(Self.account("mia"))
        var ids: [Int64] = []
        for (index, kind) in [StaffSession.Kind.web, .web, .api].enumerated() {
            ids.append(try await store.createSession(userID: mia.id, kind: kind, name: "s\(index)", tokenHash: "mia-\(index)", csrfToken: "c", expiresAt: nil))
        }
        let ownerSession = try await store.createSession(userID: owner.id, kind: .web, name: "office", tokenHash: "owner", csrfToken: "c", expiresAt: nil)

        try await store.deleteSession(id: ids[0])
        #expect(try await store.session(tokenHash: "mia-0") == nil)
        try await Self.expectStaffRefusal(store, .notFound) { try await store.deleteSession(id: ids[0]) }
        // Every other session of Mia's but the one making the change; the owner's stays.
        #expect(try await store.deleteSessions(userID: mia.id, except: ids[1]) == 1)
        #expect(try await store.session(tokenHash: "mia-1") != nil)
        #expect(try await store.session(tokenHash: "mia-2") == nil)
        #expect(try await store.deleteSessions(userID: mia.id, except: nil) == 1)
        #expect(try await store.deleteSessions(userID: mia.id, except: nil) == 0)
        #expect(try await store.sessions(kind: .web).map(\.id) == [ownerSession])
        #expect(try await store.sessions(kind: .api).isEmpty)
    }

    /// Every request asks for its caller's session first, so the store may keep the answer; a change made through the
    /// store must still be seen by the very next lookup, whatever was read just before it.
    @Test(arguments: Backend.ported)
    func aChangeToAnAccountOrSessionIsSeenByTheNextLookup(backend: Backend) async throws {
        let store = try await backend.make()
        _ = try await store.createFirstAdmin(Self.account("owner"))
        var mia = try await store.createUser(Self.account("mia"))
        let web = try await store.createSession(userID: mia.id, kind: .web, name: "till", tokenHash: "mia-web", csrfToken: "c", expiresAt: nil)
        let api = try await store.createSession(userID: mia.id, kind: .api, name: "sync", tokenHash: "mia-api", csrfToken: "c", expiresAt: nil)
        // Read twice: the second answer may come from what the store kept.
        for _ in 0..<2 { #expect(try await store.session(tokenHash: "mia-web")?.1.role == .staff) }

        mia.role = .manager
        _ = try await store.updateUser(mia)
        #expect(try await store.session(tokenHash: "mia-web")?.1.role == .manager)
        #expect(try await store.session(tokenHash: "mia-api")?.1.role == .manager)

        try await store.updateSession(id: web, userID: mia.id, lastSeenAt: Self.now, isLocked: true)
        #expect(try await store.session(tokenHash: "mia-web")?.0.isLocked == true)
        try await store.updateSession(id: web, userID: mia.id, lastSeenAt: Self.now, isLocked: false)
        #expect(try await store.session(tokenHash: "mia-web")?.0.isLocked == false)

        // A revoked token, then a password change that ends every other session.
        try await store.deleteSession(id: api)
        #expect(try await store.session(tokenHash: "mia-api") == nil)
        let other = try await store.createSession(userID: mia.id, kind: .web, name: "phone", tokenHash: "mia-phone", csrfToken: "c", expiresAt: nil)
        #expect(try await store.session(tokenHash: "mia-phone")?.0.id == other)
        try await store.deleteSessions(userID: mia.id, except: web)
        #expect(try await store.session(tokenHash: "mia-phone") == nil)
        #expect(try await store.session(tokenHash: "mia-web") != nil)

        // A deactivated account signs out everywhere at once.
        mia.isActive = false
        _ = try await store.updateUser(mia)
        #expect(try await store.session(tokenHash: "mia-web") == nil)
    }

    // MARK: - Sign-in throttling

    @Test(arguments: Backend.ported)
    func throttleStatesAreSavedAndCleared(backend: Backend) async throws {
        let store = try await backend.make()
        #expect(try await store.throttle(key: "user:ada") == LoginThrottle())
        try await store.saveThrottle(key: "user:ada", LoginThrottle(failures: 4, lastFailureAt: 1_767_225_600_123))
        try await store.saveThrottle(key: "ip:10.0.0.7", LoginThrottle(failures: 1, lastFailureAt: 1_767_225_600_000))
        #expect(try await store.throttle(key: "user:ada") == LoginThrottle(failures: 4, lastFailureAt: 1_767_225_600_123))
        let reserved = LoginThrottle(failures: 5, lastFailureAt: 1_767_225_601_000, previousFailureAt: 1_767_225_600_123)
        try await store.saveThrottle(key: "user:ada", reserved)
        #expect(try await store.throttle(key: "user:ada") == reserved)
        try await store.saveThrottle(key: "user:ada", nil)
        #expect(try await store.throttle(key: "user:ada") == LoginThrottle())
        #expect(try await store.throttle(key: "ip:10.0.0.7") == LoginThrottle(failures: 1, lastFailureAt: 1_767_225_600_000))
    }

    @Test(arguments: Backend.ported)
    func aReservationCountsOnEveryKeyOrOnNone(backend: Backend) async throws {
        let store = try await backend.make()
        let now: Int64 = 1_767_225_600_000
        let keys = ["user:ada", "ip:10.0.0.7"]
        // The address is locked out: the answer is its refusal, and the account's key is left as it was.
        let locked = LoginThrottle(failures: LoginThrottle.lockoutFailures, lastFailureAt: now - 60_000)
        try await store.saveThrottle(key: keys[1], locked)
        #expect(try await store.reserveAttempt(keys: keys, at: now) == .lockedOut(seconds: 14 * 60))
        #expect(try await store.throttle(key: keys[0]) == LoginThrottle())
        #expect(try await store.throttle(key: keys[1]) == locked)

        // Once the lockout is over, both keys count the attempt.
        let later = now - 60_000 + LoginThrottle.lockoutMilliseconds
        #expect(try await store.reserveAttempt(keys: keys, at: later) == .allow)
        #expect(try await store.throttle(key: keys[0]) == LoginThrottle(failures: 1, lastFailureAt: later, previousFailureAt: 0))
        #expect(try await store.throttle(key: keys[1]) == LoginThrottle(failures: 1, lastFailureAt: later, previousFailureAt: now - 60_000))
        #expect(try await store.reserveAttempt(keys: keys, at: later + 1) == .allow)

        // The secret was right: the account's key is cleared, the address gives its reservation back, with the time of
        // its last failure before the reservation (not the success's time).
        try await store.settleAttempt(clear: [keys[0]], release: [keys[1]])
        #expect(try await store.throttle(key: keys[0]) == LoginThrottle())
        #expect(try await store.throttle(key: keys[1]) == LoginThrottle(failures: 1, lastFailureAt: later))
        try await store.settleAttempt(clear: [], release: [keys[1]])
        #expect(try await store.throttle(key: keys[1]) == LoginThrottle())
    }

    /// Parallel attempts at one moment see each other's reservations: exactly the free attempts pass, the rest wait.
    @Test(arguments: Backend.ported)
    func parallelReservationsAreCountedOneByOne(backend: Backend) async throws {
        let store = try await backend.make()
        let now: Int64 = 1_767_225_600_000
        let decisions = try await withThrowingTaskGroup(of: LoginThrottle.Decision.self) { group in
            for _ in 0..<24 { group.addTask { try await store.reserveAttempt(keys: ["user:ada"], at: now) } }
            var all: [LoginThrottle.Decision] = []
            for try await decision in group { all.append(decision) }
            return all
        }
        #expect(decisions.filter { $0 == .allow }.count == LoginThrottle.freeFailures)
        #expect(decisions.filter { $0 == .wait(seconds: 2) }.count == 24 - LoginThrottle.freeFailures)
        #expect(try await store.throttle(key: "user:ada") == LoginThrottle(failures: LoginThrottle.freeFailures, lastFailureAt: now))
    }

    // MARK: - Shifts

    @Test(arguments: Backend.ported)
    func aShiftOpensOnceClosesOnceAndListsNewestFirst(backend: Backend) async throws {
        let store = try await backend.make()
        let owner = try await store.createFirstAdmin(Self.account("owner"))
        let mia = try await store.createUser(Self.account("mia"))
        let day = at(20260105).milliseconds
        let morning = try await store.clockIn(mia.id, at: day)
        #expect(morning.userID == mia.id && morning.username == "mia" && morning.startedAt == day && morning.endedAt == nil)
        try await Self.expectStaffRefusal(store, .conflict, field: "shift") { _ = try await store.clockIn(mia.id, at: day + 1) }
        let closed = try await store.clockOut(mia.id, at: day + 4 * 3_600_000)
        #expect(closed.id == morning.id && closed.startedAt == day && closed.endedAt == day + 4 * 3_600_000)
        try await Self.expectStaffRefusal(store, .conflict, field: "shift") { _ = try await store.clockOut(mia.id, at: day + 5 * 3_600_000) }
        try await Self.expectStaffRefusal(store, .notFound) { _ = try await store.clockIn(UserID(999), at: day) }

        let evening = try await store.clockIn(mia.id, at: day + 6 * 3_600_000)
        let office = try await store.clockIn(owner.id, at: day + 7 * 3_600_000)
        // Each user has one open shift at most; another user's open shift is no obstacle.
        try await Self.expectStaffRefusal(store, .conflict, field: "shift") { _ = try await store.clockIn(owner.id, at: day + 30 * 3_600_000) }
        // A clock earlier than the start closes the shift at its start, never before it.
        let instant = try await store.clockOut(mia.id, at: day)
        #expect(instant.id == evening.id && instant.endedAt == instant.startedAt)

        #expect(try await store.shifts(userID: nil, from: day, to: day + 24 * 3_600_000).map(\.id) == [office.id, evening.id, morning.id])
        #expect(try await store.shifts(userID: mia.id, from: day, to: day + 24 * 3_600_000).map(\.id) == [evening.id, morning.id])
        #expect(try await store.shifts(userID: mia.id, from: day + 1, to: day + 6 * 3_600_000).map(\.id) == [evening.id])
        #expect(try await store.shifts(userID: owner.id, from: day, to: day + 7 * 3_600_000 - 1).isEmpty)
        #expect(try await store.shifts(userID: nil, from: day, to: day + 24 * 3_600_000).first?.username == "owner")
    }

    // MARK: - Audit log

    @Test(arguments: Backend.ported)
    func theAuditLogAppendsAndReadsNewestFirst(backend: Backend) async throws {
        let store = try await backend.make()
        let owner = try await store.createFirstAdmin(Self.account("owner"))
        let mia = try await store.createUser(Self.account("mia"))
        // Entries the store writes for its own commands come before; only the three below are this test's.
        let earlier = try await store.auditLog(limit: 10_000, offset: 0)
        let moment = at(20260105).milliseconds
        let activities = [
            ShopActivity(.tillUnlocked, by: Agent(owner), at: Instant(milliseconds: moment), party: "mia", currency: .eur),
            ShopActivity(.sessionsEnded, by: Agent(userID: nil, username: "api"), at: Instant(milliseconds: moment + 1),
                         record: .init(.user, mia.id.rawValue), subject: "mia", figures: .init(count: 3), currency: .eur),
            ShopActivity(.tillUnlocked, by: Agent(mia), at: Instant(milliseconds: moment + 1), party: "owner", currency: .eur),
        ]
        for activity in activities { try await store.recordAudit(activity) }

        let log = try await store.auditLog(limit: 10_000, offset: 0)
        #expect(log.count == earlier.count + 3)
        #expect(Array(log.dropFirst(3)) == earlier)
        // Newest first: the last appended is the first read, ties in time kept in the order they were appended.
        let mine = Array(log.prefix(3))
        let appended = Array(activities.reversed())
        #expect(mine.map(\.kind) == appended.map(\.kind))
        #expect(mine.map(\.action) == appended.map(\.kind.rawValue))
        #expect(mine.map(\.detail) == appended.map(\.sentence))
        #expect(mine.map(\.sentence) == appended.map(\.sentence))
        #expect(mine.map(\.at) == appended.map(\.at.milliseconds))
        #expect(mine.map(\.userID) == [mia.id, nil, owner.id])
        #expect(mine.map(\.username) == ["mia", "api", "owner"])
        #expect(mine.map(\.record) == [nil, ShopActivity.Record(.user, mia.id.rawValue), nil])
        #expect(mine.map(\.figures) == appended.map(\.figures))
        #expect(mine[0].id > mine[1].id && mine[1].id > mine[2].id)
        // Paged: a limit and an offset into the same order.
        #expect(try await store.auditLog(limit: 2, offset: 0) == Array(log.prefix(2)))
        #expect(try await store.auditLog(limit: 2, offset: 1) == Array(log.dropFirst().prefix(2)))
        #expect(try await store.auditLog(limit: 5, offset: log.count).isEmpty)
    }
}
