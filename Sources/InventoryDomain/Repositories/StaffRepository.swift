/// A signed-in session: a browser at the till (`web`) or a script's API token (`api`).
public struct StaffSession: Sendable, Hashable {
    /// How the session authenticates.
    public enum Kind: String, Sendable, Codable { case web, api }

    public var id: Int64
    public var userID: UserID
    public var kind: Kind
    /// A label: the token's name, or the browser's.
    public var name: String
    /// The value a browser must echo in `X-CSRF-Token` on every write.
    public var csrfToken: String
    public var createdAt: Int64
    public var lastSeenAt: Int64
    /// Whether the till is locked until a PIN is entered.
    public var isLocked: Bool
    /// When the session or token stops working (ms since 1970); nil: an API token without an expiry.
    public var expiresAt: Int64?

    /// Creates a session value.
    public init(id: Int64, userID: UserID, kind: Kind, name: String, csrfToken: String, createdAt: Int64, lastSeenAt: Int64, isLocked: Bool,
                expiresAt: Int64? = nil) {
        self.expiresAt = expiresAt
        self.id = id
        self.userID = userID
        self.kind = kind
        self.name = name
        self.csrfToken = csrfToken
        self.createdAt = createdAt
        self.lastSeenAt = lastSeenAt
        self.isLocked = isLocked
    }

    /// The default absolute lifetime of a browser session: a working day and a bit, whatever its activity.
    public static let defaultWebLifetimeMilliseconds: Int64 = 12 * 3_600_000

    /// Whether the session no longer works at `now`: past its own expiry, or a browser session older than `webLifetime`
    /// ms since sign-in.
    public func isExpired(at now: Int64, webLifetime: Int64) -> Bool {
        if let expiresAt = self.expiresAt, now >= expiresAt { return true }
        return self.kind == .web && now - self.createdAt >= webLifetime
    }
}

/// One line of the audit log: who did what, when. Entries written since activities were recorded carry the
/// ``ShopActivity``'s kind, record, products and figures, and its sentence as `detail`; older ones (`POST /api/v1/sales`,
/// `status 201`) only `action` and `detail`.
public struct AuditEntry: Sendable, Hashable {
    public var id: Int64
    public var at: Int64
    public var userID: UserID?
    public var username: String
    /// The activity's kind (`saleRecorded`), or an older entry's action.
    public var action: String
    /// The activity's sentence, or an older entry's detail.
    public var detail: String
    /// The record the activity is about, and one it refers to (the sale a customer return is against).
    public var record: ShopActivity.Record?
    public var related: ShopActivity.Record?
    /// The products it touched.
    public var productIDs: [ProductID]
    /// Its figures and the fields it changed (empty for older entries).
    public var figures: ShopActivity.Figures
    public var changes: [ShopActivity.Change]

    /// Creates an entry.
    public init(id: Int64, at: Int64, userID: UserID?, username: String, action: String, detail: String, record: ShopActivity.Record? = nil,
                related: ShopActivity.Record? = nil, productIDs: [ProductID] = [], figures: ShopActivity.Figures = ShopActivity.Figures(), changes: [ShopActivity.Change] = []) {
        self.id = id
        self.at = at
        self.userID = userID
        self.username = username
        self.action = action
        self.detail = detail
        self.record = record
        self.related = related
        self.productIDs = productIDs
        self.figures = figures
        self.changes = changes
    }

    /// The activity's kind; nil for an entry written before activities were recorded.
    public var kind: ShopActivity.Kind? { ShopActivity.Kind(rawValue: self.action) }

    /// The entry as a sentence: the activity's own, or for an older entry its user, action and detail
    /// (`ada: POST /api/v1/sales (status 201)`).
    public var sentence: String {
        if self.kind != nil { return self.detail }
        return "\(self.username): \(self.action)\(self.detail.isEmpty ? "" : " (\(self.detail))")"
    }
}

/// A stretch of work between clocking in and out.
public struct Shift: Sendable, Hashable {
    public var id: Int64
    public var userID: UserID
    public var username: String
    public var startedAt: Int64
    /// nil while the shift is open.
    public var endedAt: Int64?

    /// Creates a shift.
    public init(id: Int64, userID: UserID, username: String, startedAt: Int64, endedAt: Int64?) {
        self.id = id
        self.userID = userID
        self.username = username
        self.startedAt = startedAt
        self.endedAt = endedAt
    }
}

/// Staff accounts, sessions, shifts, sign-in throttling and the audit log.
public protocol StaffRepository: Sendable {
    /// How many accounts exist (zero means the first run still has to create the admin).
    func userCount() async throws -> Int
    /// Creates the first admin — only while no account exists — and audits it as done by that admin.
    /// - Throws: `conflict` otherwise.
    func createFirstAdmin(_ account: StaffAccount) async throws -> StaffAccount
    /// Creates an account (audited, as every write below that changes accounts or API tokens).
    /// - Throws: `duplicate` when the username is taken.
    func createUser(_ account: StaffAccount) async throws -> StaffAccount
    /// Saves an account's name, role, secrets and active flag.
    func updateUser(_ account: StaffAccount) async throws -> StaffAccount
    /// Every account by username.
    func users() async throws -> [StaffAccount]
    /// One account. - Throws: `notFound`.
    func user(_ id: UserID) async throws -> StaffAccount
    /// The account with this username (case-insensitive), if any.
    func user(username: String) async throws -> StaffAccount?

    /// Stores a new session under the SHA-256 of its secret token, working until `expiresAt` (ms; nil: no expiry of its
    /// own); returns its id. A new API token is audited.
    func createSession(userID: UserID, kind: StaffSession.Kind, name: String, tokenHash: String, csrfToken: String, expiresAt: Int64?) async throws -> Int64
    /// The session and its account for a token hash, if the session exists.
    func session(tokenHash: String) async throws -> (StaffSession, StaffAccount)?
    /// Records activity, the lock state, or a switch of user on a session.
    func updateSession(id: Int64, userID: UserID, lastSeenAt: Int64, isLocked: Bool) async throws
    /// Ends a session; a revoked API token is audited.
    func deleteSession(id: Int64) async throws
    /// Ends every session and API token of a user but `except` (the one making a change); returns how many ended.
    @discardableResult func deleteSessions(userID: UserID, except: Int64?) async throws -> Int
    /// Sessions of a kind (API tokens for the admin's list).
    func sessions(kind: StaffSession.Kind) async throws -> [StaffSession]

    /// The throttle state of a key (`user:ada`, `ip:10.0.0.7`).
    func throttle(key: String) async throws -> LoginThrottle
    /// Saves a throttle state; nil clears it.
    func saveThrottle(key: String, _ throttle: LoginThrottle?) async throws
    /// Reserves one attempt on every key at once, atomically (``LoginThrottle/reserved(at:)``): either each key counts
    /// the attempt and the answer is `.allow`, or nothing changes and the answer is the first key's refusal.
    func reserveAttempt(keys: [String], at now: Int64) async throws -> LoginThrottle.Decision
    /// After a reserved attempt turned out right: clears the keys in `clear`, gives the reservation back on `release`.
    func settleAttempt(clear: [String], release: [String]) async throws

    /// Opens a shift for a user. - Throws: `conflict` when one is already open.
    func clockIn(_ userID: UserID, at: Int64) async throws -> Shift
    /// Closes the user's open shift. - Throws: `conflict` when none is open.
    func clockOut(_ userID: UserID, at: Int64) async throws -> Shift
    /// Shifts started from `from` through `to` (ms), newest first; one user's or everyone's.
    func shifts(userID: UserID?, from: Int64, to: Int64) async throws -> [Shift]

    /// Appends a staff activity the store did not record itself (a till unlocked, sessions ended) to the audit log.
    /// Every write of the store records its own activity in its own transaction; this is for what happens around them.
    func recordAudit(_ activity: ShopActivity) async throws
    /// The audit log, newest first.
    func auditLog(limit: Int, offset: Int) async throws -> [AuditEntry]
    /// Whether an account receives alerts (``ShopAlert``) on its open pages.
    func receivesAlerts(_ userID: UserID) async throws -> Bool
    /// Opts an account in or out of alerts (audited as a change of the account's `alerts`). - Throws: `notFound`.
    func setReceivesAlerts(_ userID: UserID, _ on: Bool) async throws
    /// A page of the activity feed: the audit entries ``ActivityFeedQuery/includes(_:)`` accepts, newest first, at
    /// most `limit` of them.
    func activityFeed(_ query: ActivityFeedQuery) async throws -> [AuditEntry]
}
