import Foundation
import InventoryDomain
import PostgresNIO

/// Staff accounts, sessions and API tokens, sign-in throttling, shifts, the audit log, the activity feed and the alert
/// opt-in (``StaffRepository``), on the `account` table (SQLite's `user`).
///
/// Several instances may share the database, so what SQLite gets from its single writer is a lock here: account
/// changes (first admin, new account, edits: the last-active-admin rule and the username check) take one advisory lock;
/// a throttle key is read, decided and written under an advisory lock of its own; a clock-in locks the account's row,
/// a clock-out the open shift. Nothing is cached: a signed-out session or a deactivated account is seen by every
/// instance with the next request.
extension InventoryPostgresRepository: StaffRepository {
    static let accountColumns = "id, username, displayName, role, passwordHash, pinHash, isActive, jobTitle"
    typealias AccountRow = (Int64, String, String, String, String, String?, Bool, String)

    static func account(_ row: AccountRow) -> StaffAccount {
        StaffAccount(id: UserID(row.0), username: row.1, displayName: row.2, role: Role(rawValue: row.3) ?? .staff, passwordHash: row.4,
                     pinHash: row.5, isActive: row.6, jobTitle: row.7)
    }

    /// The order of accounts by username as SQLite's `COLLATE NOCASE` has it: the ASCII letters folded to lower case, then
    /// byte by byte (code point order, `COLLATE "C"`), whatever the database's collation.
    static let usernameOrder = "translate(username, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'abcdefghijklmnopqrstuvwxyz') COLLATE \"C\""

    /// Serialises every change to accounts, on every instance: the username check and the last-active-admin count
    /// read what the previous change committed.
    func lockAccounts(_ connection: PostgresConnection) async throws {
        try await connection.query("SELECT pg_advisory_xact_lock(hashtext('stockroom-accounts'))", logger: self.logger)
    }

    /// One statement outside an explicit transaction, committed on its own (a single statement sees one snapshot): one
    /// round trip instead of three, for the session lookup every authenticated request makes and for a picture's bytes.
    func statement<T: Sendable>(_ body: @escaping @Sendable (PostgresConnection) async throws -> T) async throws -> T {
        do {
            return try await self.lease { connection in try await body(connection) }
        } catch {
            throw Self.translate(error)
        }
    }

    // MARK: - Accounts

    public func userCount() async throws -> Int {
        try await self.statement { connection in
            try await connection.query("SELECT COUNT(*) FROM account", logger: self.logger).collect(Int.self).first ?? 0
        }
    }

    public func createFirstAdmin(_ account: StaffAccount) async throws -> StaffAccount {
        try await self.write { connection, _, log in
            try await self.lockAccounts(connection)
            guard try await connection.query("SELECT COUNT(*) FROM account", logger: self.logger).collect(Int.self).first == 0 else {
                throw StaffAccount.shopAlreadySetUp()
            }
            let created = try await self.insertUser(connection, account.asFirstAdmin)
            try await log.record(.firstAdminCreated, record: .init(.user, created.id.rawValue), subject: created.username, by: Agent(created))
            return created
        }
    }

    public func createUser(_ account: StaffAccount) async throws -> StaffAccount {
        try await self.write { connection, _, log in
            try await self.lockAccounts(connection)
            let created = try await self.insertUser(connection, account)
            try await log.record(.userCreated, record: .init(.user, created.id.rawValue), subject: created.username,
                                 changes: ShopActivity.Change.newAccount(created))
            return created
        }
    }

    /// Inserts an account under the accounts lock, checked in SQLite's order: the username, that it is free, the job title.
    func insertUser(_ connection: PostgresConnection, _ account: StaffAccount) async throws -> StaffAccount {
        let username = try StaffAccount.validateUsername(account.username)
        guard try await self.usernameOwner(connection, username) == nil else { throw StaffAccount.usernameTaken(username) }
        let displayName = StaffAccount.storedDisplayName(account.displayName, username: username)
        let jobTitle = try StaffAccount.validateJobTitle(account.jobTitle)
        let id = try await connection.query("""
            INSERT INTO account (username, displayName, role, passwordHash, pinHash, isActive, createdAt, jobTitle)
            VALUES (\(username), \(displayName), \(account.role.rawValue), \(account.passwordHash), \(account.pinHash), \(account.isActive),
                    \(Self.now), \(jobTitle))
            RETURNING id
            """, logger: self.logger).collect(Int64.self)[0]
        var created = account
        created.id = UserID(id)
        created.username = username
        created.displayName = displayName
        created.jobTitle = jobTitle
        return created
    }

    /// The account holding a username, case-insensitively (as the unique index on `lower(username)` compares).
    func usernameOwner(_ connection: PostgresConnection, _ username: String) async throws -> Int64? {
        try await connection.query("SELECT id FROM account WHERE lower(username) = lower(\(username))", logger: self.logger).collect(Int64.self).first
    }

    public func updateUser(_ account: StaffAccount) async throws -> StaffAccount {
        try await self.write { connection, _, log in
            try await self.lockAccounts(connection)
            guard let old = try await self.accounts(connection, "WHERE id = $1 FOR NO KEY UPDATE", account.id.rawValue).first else {
                throw StaffAccount.notFound(account.id)
            }
            let username = try StaffAccount.validateUsername(account.username)
            if let owner = try await self.usernameOwner(connection, username), owner != account.id.rawValue {
                throw StaffAccount.usernameTaken(username)
            }
            // Never leave the shop without an active admin.
            let admins = try await connection.query("""
                SELECT COUNT(*) FROM account WHERE role = 'admin' AND isActive AND id <> \(account.id.rawValue)
                """, logger: self.logger).collect(Int.self).first ?? 0
            try account.checkKeepsAnActiveAdmin(otherActiveAdmins: admins)
            let jobTitle = try StaffAccount.validateJobTitle(account.jobTitle)
            try await connection.query("""
                UPDATE account SET username = \(username), displayName = \(StaffAccount.storedDisplayName(account.displayName, username: username)),
                role = \(account.role.rawValue), passwordHash = \(account.passwordHash), pinHash = \(account.pinHash), isActive = \(account.isActive),
                jobTitle = \(jobTitle) WHERE id = \(account.id.rawValue)
                """, logger: self.logger)
            if !account.isActive {
                try await connection.query("DELETE FROM session WHERE userId = \(account.id.rawValue)", logger: self.logger)
            }
            let updated = try await self.fetchUser(connection, account.id)
            try await log.record(.userChanged, record: .init(.user, updated.id.rawValue), subject: updated.username,
                                 changes: ShopActivity.Change.between(old, updated))
            return updated
        }
    }

    public func receivesAlerts(_ userID: UserID) async throws -> Bool {
        try await self.statement { connection in
            guard let on = try await connection.query("SELECT receivesAlerts FROM account WHERE id = \(userID.rawValue)", logger: self.logger)
                .collect(Bool.self).first
            else { throw StaffAccount.notFound(userID) }
            return on
        }
    }

    public func setReceivesAlerts(_ userID: UserID, _ on: Bool) async throws {
        try await self.write { connection, _, log in
            var found: (String, Bool)?
            for try await row in try await connection.query("""
                SELECT username, receivesAlerts FROM account WHERE id = \(userID.rawValue) FOR NO KEY UPDATE
                """, logger: self.logger).decode((String, Bool).self) { found = row }
            guard let (username, was) = found else { throw StaffAccount.notFound(userID) }
            guard let change = ShopActivity.Change.alerts(from: was, to: on) else { return }
            try await connection.query("UPDATE account SET receivesAlerts = \(on) WHERE id = \(userID.rawValue)", logger: self.logger)
            try await log.record(.userChanged, record: .init(.user, userID.rawValue), subject: username, changes: [change])
        }
    }

    /// The accounts a condition (trusted text, never input; `$1` the one bind) selects.
    func accounts(_ connection: PostgresConnection, _ condition: String, _ bind: Int64? = nil) async throws -> [StaffAccount] {
        var binds = PostgresBindings()
        if let bind { binds.append(bind) }
        var accounts: [StaffAccount] = []
        for try await row in try await connection.query(PostgresQuery(unsafeSQL: "SELECT \(Self.accountColumns) FROM account \(condition)", binds: binds),
                                                        logger: self.logger).decode(AccountRow.self) {
            accounts.append(Self.account(row))
        }
        return accounts
    }

    func fetchUser(_ connection: PostgresConnection, _ id: UserID) async throws -> StaffAccount {
        guard let account = try await self.accounts(connection, "WHERE id = $1", id.rawValue).first else { throw StaffAccount.notFound(id) }
        return account
    }

    public func users() async throws -> [StaffAccount] {
        try await self.statement { connection in try await self.accounts(connection, "ORDER BY \(Self.usernameOrder)") }
    }

    public func user(_ id: UserID) async throws -> StaffAccount {
        try await self.statement { connection in try await self.fetchUser(connection, id) }
    }

    public func user(username: String) async throws -> StaffAccount? {
        let username = username.trimmingCharacters(in: .whitespaces)
        return try await self.statement { connection in
            var binds = PostgresBindings()
            binds.append(username)
            var found: StaffAccount?
            for try await row in try await connection.query(PostgresQuery(unsafeSQL: """
                SELECT \(Self.accountColumns) FROM account WHERE lower(username) = lower($1)
                """, binds: binds), logger: self.logger).decode(AccountRow.self) { found = Self.account(row) }
            return found
        }
    }

    // MARK: - Sessions and API tokens

    public func createSession(userID: UserID, kind: StaffSession.Kind, name: String, tokenHash: String, csrfToken: String,
                              expiresAt: Int64?) async throws -> Int64 {
        try await self.write { connection, _, log in
            let now = Self.now
            let id = try await connection.query("""
                INSERT INTO session (tokenHash, userId, kind, name, csrfToken, createdAt, lastSeenAt, isLocked, expiresAt)
                VALUES (\(tokenHash), \(userID.rawValue), \(kind.rawValue), \(name), \(csrfToken), \(now), \(now), false,
                        \(expiresAt.map(Instant.init(milliseconds:))))
                RETURNING id
                """, logger: self.logger).collect(Int64.self)[0]
            if kind == .api {
                let owner = try await self.fetchUser(connection, userID)
                try await log.record(.tokenCreated, record: .init(.token, id), subject: name,
                                     party: ShopActivity.tokenParty(ownerID: owner.id, ownerUsername: owner.username, agent: log.agent))
            }
            return id
        }
    }

    /// The session a token hash belongs to, and its account, read afresh on every call (no cache: a sign-out, a revoked
    /// token or a deactivated account on any instance is seen by the next request on every other).
    public func session(tokenHash: String) async throws -> (StaffSession, StaffAccount)? {
        let found = try await self.statement { connection -> (StaffSession, StaffAccount)? in
            var found: (StaffSession, StaffAccount)?
            for try await row in try await connection.prepared("""
                SELECT s.id, s.userId, s.kind, s.name, s.csrfToken, s.createdAt, s.lastSeenAt, s.isLocked, s.expiresAt,
                       u.id, u.username, u.displayName, u.role, u.passwordHash, u.pinHash, u.isActive, u.jobTitle
                FROM session s JOIN account u ON u.id = s.userId WHERE s.tokenHash = \(tokenHash)
                """, logger: self.logger).decode(
                    (Int64, Int64, String, String, String, Instant, Instant, Bool, Instant?,
                     Int64, String, String, String, String, String?, Bool, String).self
                ) {
                guard let kind = StaffSession.Kind(rawValue: row.2) else { continue }
                let session = StaffSession(id: row.0, userID: UserID(row.1), kind: kind, name: row.3, csrfToken: row.4,
                                           createdAt: row.5.milliseconds, lastSeenAt: row.6.milliseconds, isLocked: row.7,
                                           expiresAt: row.8?.milliseconds)
                found = (session, Self.account((row.9, row.10, row.11, row.12, row.13, row.14, row.15, row.16)))
            }
            return found
        }
        return found
    }

    public func updateSession(id: Int64, userID: UserID, lastSeenAt: Int64, isLocked: Bool) async throws {
        try await self.write { connection, _, _ in
            _ = try await connection.prepared("""
                UPDATE session SET userId = \(userID.rawValue), lastSeenAt = \(Instant(milliseconds: lastSeenAt)), isLocked = \(isLocked) WHERE id = \(id)
                """, logger: self.logger)
        }
    }

    public func deleteSession(id: Int64) async throws {
        try await self.write { connection, _, log in
            var deleted: (String, String, Int64, String)?
            for try await row in try await connection.prepared("""
                DELETE FROM session s USING account u WHERE s.id = \(id) AND u.id = s.userId RETURNING s.kind, s.name, s.userId, u.username
                """, logger: self.logger).decode((String, String, Int64, String).self) { deleted = row }
            guard let (kind, name, ownerID, owner) = deleted else { throw StaffSession.notFound(id) }
            if kind == StaffSession.Kind.api.rawValue {
                try await log.record(.tokenRevoked, record: .init(.token, id), subject: name,
                                     party: ShopActivity.tokenParty(ownerID: UserID(ownerID), ownerUsername: owner, agent: log.agent))
            }
        }
    }

    @discardableResult public func deleteSessions(userID: UserID, except: Int64?) async throws -> Int {
        try await self.write { connection, _, _ in
            try await connection.query("""
                WITH gone AS (DELETE FROM session WHERE userId = \(userID.rawValue) AND id IS DISTINCT FROM \(except) RETURNING 1)
                SELECT COUNT(*) FROM gone
                """, logger: self.logger).collect(Int.self).first ?? 0
        }
    }

    public func sessions(kind: StaffSession.Kind) async throws -> [StaffSession] {
        try await self.statement { connection in
            var sessions: [StaffSession] = []
            for try await (id, userID, name, createdAt, lastSeenAt, isLocked, expiresAt) in try await connection.query("""
                SELECT id, userId, name, createdAt, lastSeenAt, isLocked, expiresAt FROM session WHERE kind = \(kind.rawValue) ORDER BY id
                """, logger: self.logger).decode((Int64, Int64, String, Instant, Instant, Bool, Instant?).self) {
                sessions.append(StaffSession(id: id, userID: UserID(userID), kind: kind, name: name, csrfToken: "", createdAt: createdAt.milliseconds,
                                             lastSeenAt: lastSeenAt.milliseconds, isLocked: isLocked, expiresAt: expiresAt?.milliseconds))
            }
            return sessions
        }
    }

    // MARK: - Sign-in throttling

    public func throttle(key: String) async throws -> LoginThrottle {
        try await self.statement { connection in try await self.fetchThrottle(connection, key) }
    }

    public func saveThrottle(key: String, _ throttle: LoginThrottle?) async throws {
        try await self.write { connection, _, _ in
            try await self.lockThrottles(connection, [key])
            try await self.storeThrottle(connection, key, throttle)
        }
    }

    /// Takes the advisory lock of each key for the rest of the transaction, in one order (sorted, each once) so that
    /// two reservations over the same keys cannot deadlock. Whoever holds a key's lock reads its committed state and
    /// is the only one to change it: two instances racing on one key are counted one after the other.
    func lockThrottles(_ connection: PostgresConnection, _ keys: [String]) async throws {
        for key in Set(keys).sorted() {
            try await connection.query("SELECT pg_advisory_xact_lock(hashtext('stockroom-throttle:' || \(key)))", logger: self.logger)
        }
    }

    func fetchThrottle(_ connection: PostgresConnection, _ key: String) async throws -> LoginThrottle {
        for try await (failures, lastFailureAt, previousFailureAt) in try await connection.query("""
            SELECT failures, lastFailureAt, previousFailureAt FROM loginThrottle WHERE key = \(key)
            """, logger: self.logger).decode((Int, Instant, Instant).self) {
            return LoginThrottle(failures: failures, lastFailureAt: lastFailureAt.milliseconds, previousFailureAt: previousFailureAt.milliseconds)
        }
        return LoginThrottle()
    }

    func storeThrottle(_ connection: PostgresConnection, _ key: String, _ throttle: LoginThrottle?) async throws {
        if let throttle {
            try await connection.query("""
                INSERT INTO loginThrottle (key, failures, lastFailureAt, previousFailureAt) VALUES (\(key), \(Int32(clamping: throttle.failures)),
                \(Instant(milliseconds: throttle.lastFailureAt)), \(Instant(milliseconds: throttle.previousFailureAt)))
                ON CONFLICT (key) DO UPDATE SET failures = excluded.failures, lastFailureAt = excluded.lastFailureAt,
                    previousFailureAt = excluded.previousFailureAt
                """, logger: self.logger)
        } else {
            try await connection.query("DELETE FROM loginThrottle WHERE key = \(key)", logger: self.logger)
        }
    }

    public func reserveAttempt(keys: [String], at now: Int64) async throws -> LoginThrottle.Decision {
        try await self.write { connection, _, _ in
            try await self.lockThrottles(connection, keys)
            var states: [LoginThrottle] = []
            for key in keys { states.append(try await self.fetchThrottle(connection, key)) }
            switch LoginThrottle.reserve(states, at: now) {
            case .refused(let decision):
                return decision
            case .allowed(let next):
                for (key, state) in zip(keys, next) { try await self.storeThrottle(connection, key, state) }
                return .allow
            }
        }
    }

    public func settleAttempt(clear: [String], release: [String]) async throws {
        try await self.write { connection, _, _ in
            try await self.lockThrottles(connection, clear + release)
            for key in clear { try await self.storeThrottle(connection, key, nil) }
            for key in release { try await self.storeThrottle(connection, key, try await self.fetchThrottle(connection, key).released()) }
        }
    }

    // MARK: - Shifts

    public func clockIn(_ userID: UserID, at: Int64) async throws -> Shift {
        try await self.write { connection, _, log in
            // The account's row lock: two clock-ins of one user, on any instances, are checked one after the other.
            guard try await connection.query("SELECT id FROM account WHERE id = \(userID.rawValue) FOR NO KEY UPDATE", logger: self.logger)
                .collect(Int64.self).first != nil
            else { throw StaffAccount.notFound(userID) }
            if try await self.exists("SELECT 1 FROM shift WHERE userId = \(userID.rawValue) AND endedAt IS NULL", connection) {
                throw Shift.alreadyClockedIn()
            }
            let id = try await connection.query("""
                INSERT INTO shift (userId, startedAt) VALUES (\(userID.rawValue), \(Instant(milliseconds: at))) RETURNING id
                """, logger: self.logger).collect(Int64.self)[0]
            let shift = try await self.fetchShift(connection, id)
            try await log.record(.clockedIn, record: .init(.shift, shift.id), subject: shift.username)
            return shift
        }
    }

    public func clockOut(_ userID: UserID, at: Int64) async throws -> Shift {
        try await self.write { connection, _, log in
            var open: (Int64, Instant)?
            for try await row in try await connection.query("""
                SELECT id, startedAt FROM shift WHERE userId = \(userID.rawValue) AND endedAt IS NULL ORDER BY id LIMIT 1 FOR UPDATE
                """, logger: self.logger).decode((Int64, Instant).self) { open = row }
            guard let (id, startedAt) = open else { throw Shift.notClockedIn() }
            let end = Shift.end(startedAt: startedAt.milliseconds, clockedOutAt: at)
            try await connection.query("UPDATE shift SET endedAt = \(Instant(milliseconds: end)) WHERE id = \(id)", logger: self.logger)
            let shift = try await self.fetchShift(connection, id)
            try await log.record(.clockedOut, record: .init(.shift, shift.id), subject: shift.username)
            return shift
        }
    }

    public func shifts(userID: UserID?, from: Int64, to: Int64) async throws -> [Shift] {
        try await self.statement { connection in
            var binds = PostgresBindings()
            binds.append(Instant(milliseconds: from))
            binds.append(Instant(milliseconds: to))
            var sql = "WHERE s.startedAt BETWEEN $1 AND $2"
            if let userID {
                binds.append(userID.rawValue)
                sql += " AND s.userId = $3"
            }
            return try await self.shifts(connection, PostgresQuery(unsafeSQL: Self.shiftSelect + sql + " ORDER BY s.startedAt DESC, s.id DESC", binds: binds))
        }
    }

    static let shiftSelect = "SELECT s.id, s.userId, u.username, s.startedAt, s.endedAt FROM shift s JOIN account u ON u.id = s.userId "

    func shifts(_ connection: PostgresConnection, _ query: PostgresQuery) async throws -> [Shift] {
        var shifts: [Shift] = []
        for try await (id, userID, username, startedAt, endedAt) in try await connection.query(query, logger: self.logger)
            .decode((Int64, Int64, String, Instant, Instant?).self) {
            shifts.append(Shift(id: id, userID: UserID(userID), username: username, startedAt: startedAt.milliseconds, endedAt: endedAt?.milliseconds))
        }
        return shifts
    }

    func fetchShift(_ connection: PostgresConnection, _ id: Int64) async throws -> Shift {
        var binds = PostgresBindings()
        binds.append(id)
        guard let shift = try await self.shifts(connection, PostgresQuery(unsafeSQL: Self.shiftSelect + "WHERE s.id = $1", binds: binds)).first else {
            throw Shift.notFound(id)
        }
        return shift
    }

    // MARK: - Audit log and activity feed

    public func recordAudit(_ activity: ShopActivity) async throws {
        try await self.write { _, _, log in try await log.record(activity) }
    }

    static let auditColumns = "id, at, userId, username, action, detail, recordKind, recordId, productIds, facts"

    func auditEntries(_ connection: PostgresConnection, _ query: PostgresQuery) async throws -> [AuditEntry] {
        var entries: [AuditEntry] = []
        for try await (id, at, userID, username, action, detail, recordKind, recordID, productIDs, facts) in try await connection.query(query, logger: self.logger)
            .decode((Int64, Instant, Int64?, String, String, String, String?, Int64?, String?, String?).self) {
            entries.append(StoredAudit.entry(id: id, at: at.milliseconds, userID: userID, username: username, action: action, detail: detail,
                                             recordKind: recordKind, recordID: recordID, productIDs: productIDs, facts: facts))
        }
        return entries
    }

    /// A LIMIT as SQLite reads one: a negative limit is none (NULL in PostgreSQL, which refuses a negative one).
    static func limit(_ limit: Int) -> Int? { limit < 0 ? nil : limit }

    public func activityFeed(_ query: ActivityFeedQuery) async throws -> [AuditEntry] {
        try await self.statement { connection in
            var binds = PostgresBindings()
            binds.append(query.groups.map(\.rawValue))
            var sql = "SELECT \(Self.auditColumns) FROM auditLog WHERE feedGroup = ANY($1)"
            if let userID = query.userID {
                binds.append(userID.rawValue)
                sql += " AND userId = $\(binds.count)"
            }
            if let from = query.range.from {
                binds.append(from)
                sql += " AND at >= $\(binds.count)"
            }
            if let to = query.range.to {
                binds.append(to)
                sql += " AND at <= $\(binds.count)"
            }
            if let before = query.before {
                binds.append(before)
                sql += " AND id < $\(binds.count)"
            }
            binds.append(Self.limit(query.limit))
            return try await self.auditEntries(connection, PostgresQuery(unsafeSQL: sql + " ORDER BY id DESC LIMIT $\(binds.count)", binds: binds))
        }
    }

    public func auditLog(limit: Int, offset: Int) async throws -> [AuditEntry] {
        try await self.statement { connection in
            // SQLite reads a negative offset as none; PostgreSQL refuses one.
            try await self.auditEntries(connection, """
                SELECT id, at, userId, username, action, detail, recordKind, recordId, productIds, facts FROM auditLog
                ORDER BY id DESC LIMIT \(Self.limit(limit)) OFFSET \(max(0, offset))
                """)
        }
    }
}
