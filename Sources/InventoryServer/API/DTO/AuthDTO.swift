import InventoryDomain

/// A staff account as `/api/v1/users` and the sign-in routes answer it, with what its role may do.
struct UserResponse: Encodable, Sendable {
    var id: Int64
    var username: String
    var displayName: String
    var role: String
    /// What they do in the shop (barista, kitchen …); empty when none.
    var jobTitle: String
    /// What the till shows for them (``StaffAccount/initials``).
    var initials: String
    var hasPIN: Bool
    var active: Bool
    var permissions: [String]

    init(_ account: StaffAccount) {
        self.id = account.id.rawValue
        self.username = account.username
        self.displayName = account.displayName
        self.role = account.role.rawValue
        self.jobTitle = account.jobTitle
        self.initials = account.initials
        self.hasPIN = account.pinHash != nil
        self.active = account.isActive
        self.permissions = Permission.allCases.filter { account.role.allows($0) }.map(\.rawValue)
    }
}

/// `POST /api/v1/auth/setup`, `…/login`, `…/pin` and `GET …/me`: who is signed in, the page's CSRF token, whether
/// the till is locked.
struct SignedInResponse: Encodable, Sendable {
    var user: UserResponse
    var csrfToken: String
    var locked: Bool
}

/// `GET /api/v1/auth/status`: whether the shop needs its first admin, and who (if anyone) is signed in.
struct AuthStatusResponse: Encodable, Sendable {
    var setupRequired: Bool
    var signedIn: Bool
    var locked: Bool
    var user: UserResponse?
}

/// `POST /api/v1/auth/setup`: the first admin.
struct SetupRequest: Decodable, Sendable, KnownFields {
    var username: String
    var displayName: String?
    var password: String
    var pin: String?
    /// The PIN typed a second time (the setup form sends it): must match `pin`.
    var pinAgain: String?

    enum CodingKeys: String, CodingKey, CaseIterable { case username, displayName, password, pin, pinAgain }
    static var fields: [String] { CodingKeys.allCases.map(\.stringValue) }
}

/// `POST /api/v1/auth/login`.
struct LoginRequest: Decodable, Sendable, KnownFields {
    var username: String
    var password: String

    enum CodingKeys: String, CodingKey, CaseIterable { case username, password }
    static var fields: [String] { CodingKeys.allCases.map(\.stringValue) }
}

/// `POST /api/v1/auth/pin`: unlocks the till (as the same or another user).
struct PINRequest: Decodable, Sendable, KnownFields {
    var username: String
    var pin: String

    enum CodingKeys: String, CodingKey, CaseIterable { case username, pin }
    static var fields: [String] { CodingKeys.allCases.map(\.stringValue) }
}

/// `PUT /api/v1/auth/me/password`: your own new password, with the current one.
struct PasswordChangeRequest: Decodable, Sendable, KnownFields {
    var currentPassword: String?
    var newPassword: String?

    enum CodingKeys: String, CodingKey, CaseIterable { case currentPassword, newPassword }
    static var fields: [String] { CodingKeys.allCases.map(\.stringValue) }
}

/// `PUT /api/v1/auth/me/pin`: your own new PIN, typed twice, with the current one when you have one
/// (``StaffAccount/SelfService``).
struct PINChangeRequest: Decodable, Sendable, KnownFields {
    var currentPin: String?
    var newPin: String?
    var newPinAgain: String?

    enum CodingKeys: String, CodingKey, CaseIterable { case currentPin, newPin, newPinAgain }
    static var fields: [String] { CodingKeys.allCases.map(\.stringValue) }
}

/// `PUT /api/v1/auth/me/password`: the account, and how many of its other sessions and tokens the change ended.
struct PasswordChangedResponse: Encodable, Sendable {
    var user: UserResponse
    var sessionsEnded: Int
}

/// `POST /api/v1/users` (username and password required) and `PUT /api/v1/users/{id}` (a member left out keeps its
/// value; an empty `pin` removes the PIN).
struct UserRequest: Decodable, Sendable, KnownFields {
    var username: String?
    var displayName: String?
    var role: String?
    var password: String?
    var pin: String?
    /// The PIN typed a second time (the new-user form sends it): must match `pin`.
    var pinAgain: String?
    var active: Bool?
    var jobTitle: String?

    enum CodingKeys: String, CodingKey, CaseIterable { case username, displayName, role, password, pin, pinAgain, active, jobTitle }
    static var fields: [String] { CodingKeys.allCases.map(\.stringValue) }
}

/// `POST /api/v1/tokens`: an API token for a user (the caller, unless `userId` names another).
struct TokenRequest: Decodable, Sendable, KnownFields {
    var name: String
    var userId: Int64?
    /// Days until the token stops working (1–3660); absent: it works until revoked.
    var expiresInDays: Int?

    enum CodingKeys: String, CodingKey, CaseIterable { case name, userId, expiresInDays }
    static var fields: [String] { CodingKeys.allCases.map(\.stringValue) }
}

/// An API token as `/api/v1/tokens` lists it; `token` is given once, in the answer that created it.
struct TokenResponse: Encodable, Sendable {
    var id: Int64
    var name: String
    var userId: Int64
    var createdAt: String
    var lastSeenAt: String
    var expiresAt: String?
    var token: String?
}

/// A shift as `POST /api/v1/auth/clock-in`, `…/clock-out` and `GET /api/v1/shifts` answer it.
struct ShiftResponse: Encodable, Sendable {
    var id: Int64
    var userId: Int64
    var username: String
    var startedAt: String
    var endedAt: String?
    /// Whole minutes worked so far.
    var minutes: Int64
    /// The sales this member of staff rang up while clocked in, their revenue (before tax) and tips.
    var salesCount: Int
    var revenue: String
    var tips: String

    init(_ shift: Shift, summary: DrawerReport.StaffLine, _ f: Formats, now: Int64) {
        self.id = shift.id
        self.userId = shift.userID.rawValue
        self.username = shift.username
        self.startedAt = Instant(milliseconds: shift.startedAt).iso8601
        self.endedAt = shift.endedAt.map { Instant(milliseconds: $0).iso8601 }
        self.minutes = ((shift.endedAt ?? now) - shift.startedAt) / 60_000
        self.salesCount = summary.salesCount
        self.revenue = f.string(summary.revenue)
        self.tips = f.string(summary.tips)
    }
}

/// `PUT /api/v1/auth/me/alerts`: whether you receive alerts (``ShopAlert``) as system notifications; managers and admins.
struct AlertsRequest: Decodable, Sendable, KnownFields {
    var enabled: Bool?

    enum CodingKeys: String, CodingKey, CaseIterable { case enabled }
    static var fields: [String] { CodingKeys.allCases.map(\.stringValue) }
}

/// `GET|PUT /api/v1/auth/me/alerts`: whether you receive alerts.
struct AlertsResponse: Encodable, Sendable {
    var enabled: Bool
}
