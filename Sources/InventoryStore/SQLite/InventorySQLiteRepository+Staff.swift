import Foundation
import GRDB
import InventoryDomain

extension InventorySQLiteRepository: StaffRepository {
    static func account(_ row: Row) -> StaffAccount {
        StaffAccount(id: UserID(row[0]), username: row[1], displayName: row[2], role: Role(rawValue: row[3]) ?? .staff,
                     passwordHash: row[4], pinHash: row[5], isActive: row[6], jobTitle: row[7])
    }

    static let accountColumns = "id, username, displayName, role, passwordHash, pinHash, isActive, jobTitle"

    public func userCount() async throws -> Int {
        try await self.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM user") ?? 0 }
    }

    public func createFirstAdmin(_ account: StaffAccount) async throws -> StaffAccount {
        try await self.write { db, _, log in
            guard try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM user") == 0 else {
                throw StaffAccount.shopAlreadySetUp()
            }
            let created = try Self.insertUser(db, account.asFirstAdmin)
            try log.record(.firstAdminCreated, record: .init(.user, created.id.rawValue), subject: created.username, by: Agent(created))
            return created
        }
    }

    public func createUser(_ account: StaffAccount) async throws -> StaffAccount {
        try await self.write { db, _, log in
            let created = try Self.insertUser(db, account)
            try log.record(.userCreated, record: .init(.user, created.id.rawValue), subject: created.username,
                           changes: ShopActivity.Change.newAccount(created))
            return created
        }
    }

    static func insertUser(_ db: Database, _ account: StaffAccount) throws -> StaffAccount {
        let username = try StaffAccount.validateUsername(account.username)
        if try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM user WHERE username = ? COLLATE NOCASE", arguments: [username]) ?? 0 > 0 {
            throw StaffAccount.usernameTaken(username)
        }
        let displayName = StaffAccount.storedDisplayName(account.displayName, username: username)
        let jobTitle = try StaffAccount.validateJobTitle(account.jobTitle)
        try db.execute(sql: """
            INSERT INTO user (username, displayName, role, passwordHash, pinHash, isActive, createdAt, jobTitle) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            """, arguments: [username, displayName, account.role.rawValue, account.passwordHash, account.pinHash, account.isActive, Self.now, jobTitle])
        var created = account
        created.id = UserID(db.lastInsertedRowID)
        created.username = username
        created.displayName = displayName
        created.jobTitle = jobTitle
        return created
    }

    public func updateUser(_ account: StaffAccount) async throws -> StaffAccount {
        try await self.write { db, _, log in
            let old = try Self.fetchUser(db, account.id)
            let username = try StaffAccount.validateUsername(account.username)
            if let owner = try Int64.fetchOne(db, sql: "SELECT id FROM user WHERE username = ? COLLATE NOCASE", arguments: [username]),
               owner != account.id.rawValue {
                throw StaffAccount.usernameTaken(username)
            }
            // Never leave the shop without an active admin.
            let admins = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM user WHERE role = 'admin' AND isActive = 1 AND id != ?",
                                          arguments: [account.id.rawValue]) ?? 0
            try account.checkKeepsAnActiveAdmin(otherActiveAdmins: admins)
            let jobTitle = try StaffAccount.validateJobTitle(account.jobTitle)
            try db.execute(sql: """
                UPDATE user SET username = ?, displayName = ?, role = ?, passwordHash = ?, pinHash = ?, isActive = ?, jobTitle = ? WHERE id = ?
                """, arguments: [username, StaffAccount.storedDisplayName(account.displayName, username: username), account.role.rawValue,
                                 account.passwordHash, account.pinHash, account.isActive, jobTitle, account.id.rawValue])
            guard db.changesCount == 1 else { throw StaffAccount.notFound(account.id) }
            if !account.isActive { try db.execute(sql: "DELETE FROM session WHERE userId = ?", arguments: [account.id.rawValue]) }
            let updated = try Self.fetchUser(db, account.id)
            try log.record(.userChanged, record: .init(.user, updated.id.rawValue), subject: updated.username,
                           changes: ShopActivity.Change.between(old, updated))
            return updated
        }
    }

    public func receivesAlerts(_ userID: UserID) async throws -> Bool {
        try await self.read { db in
            guard let on = try Bool.fetchOne(db, sql: "SELECT receivesAlerts FROM user WHERE id = ?", arguments: [userID.rawValue]) else {
                throw StaffAccount.notFound(userID)
            }
            return on
        }
    }

    public func setReceivesAlerts(_ userID: UserID, _ on: Bool) async throws {
        try await self.write { db, _, log in
            guard let row = try Row.fetchOne(db, sql: "SELECT username, receivesAlerts FROM user WHERE id = ?", arguments: [userID.rawValue]) else {
                throw StaffAccount.notFound(userID)
            }
            guard let change = ShopActivity.Change.alerts(from: row[1], to: on) else { return }
            try db.execute(sql: "UPDATE user SET receivesAlerts = ? WHERE id = ?", arguments: [on, userID.rawValue])
            try log.record(.userChanged, record: .init(.user, userID.rawValue), subject: row[0], changes: [change])
        }
    }

    static func fetchUser(_ db: Database, _ id: UserID) throws -> StaffAccount {
        let statement = try db.cachedStatement(sql: "SELECT \(Self.accountColumns) FROM user WHERE id = ?")
        guard let row = try Row.fetchOne(statement, arguments: [id.rawValue]) else {
            throw StaffAccount.notFound(id)
        }
        return Self.account(row)
    }

    public func users() async throws -> [StaffAccount] {
        try await self.read { db in
            try Row.fetchAll(db, sql: "SELECT \(Self.accountColumns) FROM user ORDER BY username COLLATE NOCASE").map(Self.account)
        }
    }

    public func user(_ id: UserID) async throws -> StaffAccount {
        try await self.read { db in try Self.fetchUser(db, id) }
    }

    public func user(username: String) async throws -> StaffAccount? {
        try await self.read { db in
            try Row.fetchOne(db, sql: "SELECT \(Self.accountColumns) FROM user WHERE username = ? COLLATE NOCASE",
                             arguments: [username.trimmingCharacters(in: .whitespaces)]).map(Self.account)
        }
    }

    public func createSession(userID: UserID, kind: StaffSession.Kind, name: String, tokenHash: String, csrfToken: String,
                              expiresAt: Int64?) async throws -> Int64 {
        try await self.write { db, _, log in
            let now = Self.now
            try db.execute(sql: """
                INSERT INTO session (tokenHash, userId, kind, name, csrfToken, createdAt, lastSeenAt, isLocked, expiresAt)
                VALUES (?, ?, ?, ?, ?, ?, ?, 0, ?)
                """, arguments: [tokenHash, userID.rawValue, kind.rawValue, name, csrfToken, now, now, expiresAt])
            let id = db.lastInsertedRowID
            if kind == .api {
                let owner = try Self.fetchUser(db, userID)
                try log.record(.tokenCreated, record: .init(.token, id), subject: name,
                               party: ShopActivity.tokenParty(ownerID: owner.id, ownerUsername: owner.username, agent: log.agent))
            }
            return id
        }
    }

    /// The session a token hash belongs to, and its account. Every authenticated request asks this first, so the answer
    /// is kept for up to a second (``sessionCache``): any committed change to the `session` or `user` tables through
    /// this repository (sign-out, a revoked token, a lock, a changed or deactivated account) and a restore drop what is
    /// kept at once (``CacheInvalidator``); a change by another process on the same file (the command line) is seen
    /// within a second. Unknown tokens are not kept.
    public func session(tokenHash: String) async throws -> (StaffSession, StaffAccount)? {
        let found = try await self.sessionCache.value(for: tokenHash) { try self.readHere { db -> CachedSession? in
            let statement = try db.cachedStatement(sql: """
                SELECT s.id, s.userId, s.kind, s.name, s.csrfToken, s.createdAt, s.lastSeenAt, s.isLocked, s.expiresAt FROM session s
                WHERE s.tokenHash = ?
                """)
            guard let row = try Row.fetchOne(statement, arguments: [tokenHash]) else { return nil }
            guard let kind = StaffSession.Kind(rawValue: row[2]) else { return nil }
            let session = StaffSession(id: row[0], userID: UserID(row[1]), kind: kind, name: row[3],
                                       csrfToken: row[4], createdAt: row[5], lastSeenAt: row[6], isLocked: row[7], expiresAt: row[8])
            return CachedSession(session: session, account: try Self.fetchUser(db, session.userID))
        } }
        return found.map { ($0.session, $0.account) }
    }

    public func updateSession(id: Int64, userID: UserID, lastSeenAt: Int64, isLocked: Bool) async throws {
        try await self.write { db, _ in
            try db.execute(sql: "UPDATE session SET userId = ?, lastSeenAt = ?, isLocked = ? WHERE id = ?",
                           arguments: [userID.rawValue, lastSeenAt, isLocked, id])
        }
    }

    public func deleteSession(id: Int64) async throws {
        try await self.write { db, _, log in
            let token = try Row.fetchOne(db.cachedStatement(sql: """
                SELECT s.name, s.userId, u.username FROM session s JOIN user u ON u.id = s.userId WHERE s.id = ? AND s.kind = 'api'
                """), arguments: [id])
            try db.cachedStatement(sql: "DELETE FROM session WHERE id = ?").execute(arguments: [id])
            guard db.changesCount == 1 else { throw StaffSession.notFound(id) }
            if let token {
                try log.record(.tokenRevoked, record: .init(.token, id), subject: token[0],
                               party: ShopActivity.tokenParty(ownerID: UserID(token[1]), ownerUsername: token[2], agent: log.agent))
            }
        }
    }

    @discardableResult public func deleteSessions(userID: UserID, except: Int64?) async throws -> Int {
        try await self.write { db, _ in
            try db.execute(sql: "DELETE FROM session WHERE userId = ? AND id IS NOT ?", arguments: [userID.rawValue, except])
            return db.changesCount
        }
    }

    public func sessions(kind: StaffSession.Kind) async throws -> [StaffSession] {
        try await self.read { db in
            try Row.fetchAll(db, sql: """
                SELECT id, userId, kind, name, csrfToken, createdAt, lastSeenAt, isLocked, expiresAt FROM session WHERE kind = ? ORDER BY id
                """, arguments: [kind.rawValue]).map {
                StaffSession(id: $0[0], userID: UserID($0[1]), kind: kind, name: $0[3], csrfToken: "", createdAt: $0[5], lastSeenAt: $0[6], isLocked: $0[7],
                             expiresAt: $0[8])
            }
        }
    }

    public func throttle(key: String) async throws -> LoginThrottle {
        try await self.read { db in try Self.fetchThrottle(db, key) }
    }

    public func saveThrottle(key: String, _ throttle: LoginThrottle?) async throws {
        try await self.write { db, _ in try Self.storeThrottle(db, key, throttle) }
    }

    static func fetchThrottle(_ db: Database, _ key: String) throws -> LoginThrottle {
        try Row.fetchOne(db.cachedStatement(sql: "SELECT failures, lastFailureAt, previousFailureAt FROM loginThrottle WHERE key = ?"),
                         arguments: [key])
            .map { LoginThrottle(failures: $0[0], lastFailureAt: $0[1], previousFailureAt: $0[2]) } ?? LoginThrottle()
    }

    static func storeThrottle(_ db: Database, _ key: String, _ throttle: LoginThrottle?) throws {
        if let throttle {
            try db.cachedStatement(sql: """
                INSERT INTO loginThrottle (key, failures, lastFailureAt, previousFailureAt) VALUES (?, ?, ?, ?)
                ON CONFLICT(key) DO UPDATE SET failures = excluded.failures, lastFailureAt = excluded.lastFailureAt,
                    previousFailureAt = excluded.previousFailureAt
                """).execute(arguments: [key, throttle.failures, throttle.lastFailureAt, throttle.previousFailureAt])
        } else {
            try db.cachedStatement(sql: "DELETE FROM loginThrottle WHERE key = ?").execute(arguments: [key])
        }
    }

    public func reserveAttempt(keys: [String], at now: Int64) async throws -> LoginThrottle.Decision {
        // One write transaction (writes are serialised), so a burst of parallel attempts sees each other's reservations.
        try await self.write { db, _ in
            switch LoginThrottle.reserve(try keys.map { try Self.fetchThrottle(db, $0) }, at: now) {
            case .refused(let decision):
                return decision
            case .allowed(let next):
                for (key, state) in zip(keys, next) { try Self.storeThrottle(db, key, state) }
                return .allow
            }
        }
    }

    public func settleAttempt(clear: [String], release: [String]) async throws {
        try await self.write { db, _ in
            for key in clear { try Self.storeThrottle(db, key, nil) }
            for key in release { try Self.storeThrottle(db, key, try Self.fetchThrottle(db, key).released()) }
        }
    }

    public func clockIn(_ userID: UserID, at: Int64) async throws -> Shift {
        try await self.write { db, _, log in
            _ = try Self.fetchUser(db, userID)
            if try Int.fetchOne(db.cachedStatement(sql: "SELECT COUNT(*) FROM shift WHERE userId = ? AND endedAt IS NULL"), arguments: [userID.rawValue]) ?? 0 > 0 {
                throw Shift.alreadyClockedIn()
            }
            try db.cachedStatement(sql: "INSERT INTO shift (userId, startedAt) VALUES (?, ?)").execute(arguments: [userID.rawValue, at])
            let shift = try Self.fetchShift(db, db.lastInsertedRowID)
            try log.record(.clockedIn, record: .init(.shift, shift.id), subject: shift.username)
            return shift
        }
    }

    public func clockOut(_ userID: UserID, at: Int64) async throws -> Shift {
        try await self.write { db, _, log in
            guard let open = try Row.fetchOne(db.cachedStatement(sql: "SELECT id, startedAt FROM shift WHERE userId = ? AND endedAt IS NULL"),
                                              arguments: [userID.rawValue]) else {
                throw Shift.notClockedIn()
            }
            let id: Int64 = open[0]
            try db.cachedStatement(sql: "UPDATE shift SET endedAt = ? WHERE id = ?").execute(arguments: [Shift.end(startedAt: open[1], clockedOutAt: at), id])
            let shift = try Self.fetchShift(db, id)
            try log.record(.clockedOut, record: .init(.shift, shift.id), subject: shift.username)
            return shift
        }
    }

    public func shifts(userID: UserID?, from: Int64, to: Int64) async throws -> [Shift] {
        try await self.read { db in
            var sql = "SELECT s.id, s.userId, u.username, s.startedAt, s.endedAt FROM shift s JOIN user u ON u.id = s.userId WHERE s.startedAt BETWEEN ? AND ?"
            var arguments: StatementArguments = [from, to]
            if let userID {
                sql += " AND s.userId = ?"
                arguments += [userID.rawValue]
            }
            return try Row.fetchAll(db, sql: sql + " ORDER BY s.startedAt DESC", arguments: arguments).map(Self.shift)
        }
    }

    static func shift(_ row: Row) -> Shift {
        Shift(id: row[0], userID: UserID(row[1]), username: row[2], startedAt: row[3], endedAt: row[4])
    }

    static func fetchShift(_ db: Database, _ id: Int64) throws -> Shift {
        guard let row = try Row.fetchOne(db.cachedStatement(sql: "SELECT s.id, s.userId, u.username, s.startedAt, s.endedAt FROM shift s JOIN user u ON u.id = s.userId WHERE s.id = ?"),
                                         arguments: [id]) else {
            throw Shift.notFound(id)
        }
        return Self.shift(row)
    }
}

/// A signed-in caller as kept by ``InventorySQLiteRepository/sessionCache``.
struct CachedSession: Sendable {
    var session: StaffSession
    var account: StaffAccount
}
