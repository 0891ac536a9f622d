import Foundation

/// Marker for staff user ids.
public enum StaffUser: Sendable {}
public typealias UserID = ID<StaffUser>

/// What a staff member may do. Each role includes the one below it.
public enum Role: String, Sendable, Codable, CaseIterable, Comparable {
    /// Sell, scan, view products and stock (without what they cost), clock in and out.
    case staff
    /// Also purchases; products, categories, suppliers and customers; adjustments; reports; approving prices below
    /// the minimum and selling beyond the stock on record (``Permission/sellBelowMinimum``); refunds; what things cost
    /// (``Permission/viewCosts``).
    case manager
    /// Also users, settings, deleting transactions, import, backup and restore, API tokens, the audit log.
    case admin

    private var rank: Int {
        switch self {
        case .staff: 0
        case .manager: 1
        case .admin: 2
        }
    }

    public static func < (lhs: Role, rhs: Role) -> Bool { lhs.rank < rhs.rank }

    /// Whether this role may do `permission`.
    public func allows(_ permission: Permission) -> Bool { self >= permission.minimumRole }
}

/// Things a role may or may not do.
public enum Permission: String, Sendable, CaseIterable {
    case sell, scan, viewCatalogue, clockInOut
    /// `sellBelowMinimum` is a manager's approval at the till: a price or discount below a product's minimum, and a
    /// sale beyond the stock on record (and marking such a sale reviewed).
    case purchase, editCatalogue, adjustStock, viewReports, sellBelowMinimum, refund
    /// Reading the activity feed (sales, refunds, shifts, price changes, products gone low).
    case viewActivity
    /// Seeing what stock cost the shop: cost prices and average costs, stock values, the cost of goods sold, margins and
    /// profit. Without it every answer leaves those figures out (the server decides, once per request).
    case viewCosts
    case manageUsers, manageSettings, deleteTransactions, importData, backup, manageTokens, viewAudit
    /// Reading the server's measurements (`/metrics`, only served with `serve --metrics`).
    case viewMetrics

    /// The least role that has the permission.
    public var minimumRole: Role {
        switch self {
        case .sell, .scan, .viewCatalogue, .clockInOut: .staff
        case .purchase, .editCatalogue, .adjustStock, .viewReports, .sellBelowMinimum, .refund, .viewCosts, .viewActivity: .manager
        case .manageUsers, .manageSettings, .deleteTransactions, .importData, .backup, .manageTokens, .viewAudit, .viewMetrics: .admin
        }
    }
}

/// A staff account as stored: secrets only as bcrypt hashes.
public struct StaffAccount: Sendable, Hashable, Identifiable {
    public var id: UserID
    public var username: String
    public var displayName: String
    public var role: Role
    public var passwordHash: String
    public var pinHash: String?
    public var isActive: Bool
    /// What they do in the shop (barista, kitchen, manager …), shown with their initials on the till; empty when none.
    public var jobTitle: String

    /// Creates an account.
    public init(id: UserID, username: String, displayName: String, role: Role, passwordHash: String, pinHash: String?, isActive: Bool = true,
                jobTitle: String = "") {
        self.id = id
        self.username = username
        self.displayName = displayName
        self.role = role
        self.passwordHash = passwordHash
        self.pinHash = pinHash
        self.isActive = isActive
        self.jobTitle = jobTitle
    }

    /// The initials the till shows for whoever is signed in: the first letters of the first and the last word of the
    /// display name (else of the username), upper-cased — "Ada Lovelace" is "AL", "ben" is "B".
    public var initials: String {
        let name = self.displayName.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty ? self.username : self.displayName
        let words = name.split { $0.isWhitespace || ".-_".contains($0) }.filter { $0.first?.isLetter == true || $0.first?.isNumber == true }
        guard let first = words.first?.first else { return "?" }
        guard words.count > 1, let last = words.last?.first else { return String(first).uppercased() }
        return (String(first) + String(last)).uppercased()
    }

    /// Checks a job title: trimmed, one line, at most ``TextLimit/jobTitle``; empty means none.
    /// - Throws: ``InventoryError`` naming `jobTitle`.
    public static func validateJobTitle(_ title: String) throws -> String {
        let trimmed = title.trimmingCharacters(in: .whitespacesAndNewlines)
        try TextLimit.jobTitle.check(trimmed, field: "jobTitle")
        guard !trimmed.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw InventoryError(.invalidValue, field: "jobTitle", "must be one line of text")
        }
        return trimmed
    }

    /// Checks a username: 2–40 letters, digits, `.`, `-` or `_`.
    /// - Throws: ``InventoryError`` naming `username`.
    public static func validateUsername(_ name: String) throws -> String {
        let trimmed = name.trimmingCharacters(in: .whitespaces)
        guard TextLimit.username.violation(trimmed) == nil, (2...40).contains(trimmed.count), trimmed.allSatisfy({ $0.isLetter || $0.isNumber || ".-_".contains($0) }) else {
            throw InventoryError(.invalidValue, field: "username", "must be 2 to 40 letters, digits, '.', '-' or '_'")
        }
        return trimmed
    }

    /// Checks a display name: trimmed, at most ``TextLimit/name``.
    /// - Throws: ``InventoryError`` naming `displayName`.
    public static func validateDisplayName(_ name: String) throws -> String {
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
        try TextLimit.name.check(trimmed, field: "displayName")
        return trimmed
    }

    /// Checks a password: at least 8 characters, at most 72 bytes (bcrypt's limit).
    /// - Throws: ``InventoryError`` naming `field` (`password`).
    public static func validatePassword(_ password: String, field: String = "password") throws {
        guard password.count >= 8 else { throw InventoryError(.invalidValue, field: field, "must have at least 8 characters") }
        guard password.utf8.count <= 72 else { throw InventoryError(.invalidValue, field: field, "must be at most 72 bytes") }
    }

    /// Checks a PIN: 4 to 8 digits.
    /// - Throws: ``InventoryError`` naming `field` (`pin`).
    public static func validatePIN(_ pin: String, field: String = "pin") throws {
        guard (4...8).contains(pin.count), pin.allSatisfy(\.isASCIIDigit) else {
            throw InventoryError(.invalidValue, field: field, "must be 4 to 8 digits")
        }
    }

    /// What a change of one's own password or PIN needs, and the rules for the new one.
    ///
    /// Changing your own password needs the current one. Changing your own PIN needs the current PIN when the account
    /// has one; without one (never set, or reset by an admin) the new PIN is your first, and — as every new PIN you
    /// choose yourself — it is typed twice. Nothing is written unless all of it holds.
    public enum SelfService {
        /// Checks a new password: present and valid.
        /// - Throws: ``InventoryError`` naming `newPassword`.
        public static func checkNewPassword(_ password: String?) throws -> String {
            guard let password, !password.isEmpty else { throw InventoryError(.missingValue, field: "newPassword", "is required") }
            try StaffAccount.validatePassword(password, field: "newPassword")
            return password
        }

        /// Checks that the current password was given (whether it is right is checked against the stored hash).
        /// - Throws: ``InventoryError`` naming `currentPassword`.
        public static func requireCurrentPassword(_ current: String?) throws -> String {
            guard let current, !current.isEmpty else { throw InventoryError(.missingValue, field: "currentPassword", "is required") }
            return current
        }

        /// Checks a new PIN typed twice: present, 4 to 8 digits, and the same both times.
        /// - Throws: ``InventoryError`` naming `newPin` or `newPinAgain`.
        public static func checkNewPIN(_ pin: String?, again: String?) throws -> String {
            guard let pin, !pin.isEmpty else { throw InventoryError(.missingValue, field: "newPin", "is required") }
            try StaffAccount.validatePIN(pin, field: "newPin")
            guard let again, !again.isEmpty else { throw InventoryError(.missingValue, field: "newPinAgain", "type the new PIN a second time") }
            try Self.checkTypedAgain(again, matches: pin, field: "newPinAgain")
            return pin
        }

        /// Checks the second typing of a first PIN, when a form sent one (the setup and new-user forms always do):
        /// the same digits as `pin`.
        /// - Throws: ``InventoryError`` naming `field`.
        public static func checkTypedAgain(_ again: String?, matches pin: String?, field: String) throws {
            guard let again, !(again.isEmpty && (pin ?? "").isEmpty) else { return }
            guard again == pin else { throw InventoryError(.invalidValue, field: field, "does not match the PIN; type the same PIN twice") }
        }

        /// The current PIN a change needs: nil when the account has none (a first PIN), else the one given.
        /// - Throws: ``InventoryError`` naming `currentPin` when it has one and none was given.
        public static func requireCurrentPIN(_ current: String?, of account: StaffAccount) throws -> String? {
            guard account.pinHash != nil else { return nil }
            guard let current, !current.isEmpty else { throw InventoryError(.missingValue, field: "currentPin", "is required to change your PIN") }
            return current
        }
    }
}

/// Slows down and then locks out repeated wrong passwords or PINs, per account and per client address.
///
/// The first three failures in a row cost nothing; each further one doubles a wait (2, 4, 8 … s, at most 60 s)
/// before the next try is accepted; the tenth locks the key out for 15 minutes. A success resets the count, and so
/// do 15 minutes without a failure: a till's typos over a day do not add up to a lockout.
public struct LoginThrottle: Sendable, Hashable {
    /// Failures in a row.
    public var failures: Int
    /// When the last failure happened (ms since 1970).
    public var lastFailureAt: Int64
    /// When the last failure before the newest reservation happened (ms since 1970): what a right answer puts back
    /// (``released()``), so that a success does not count as a failure's time.
    public var previousFailureAt: Int64

    /// Creates a throttle state; `previousFailureAt` defaults to `lastFailureAt`.
    public init(failures: Int = 0, lastFailureAt: Int64 = 0, previousFailureAt: Int64? = nil) {
        self.failures = failures
        self.lastFailureAt = lastFailureAt
        self.previousFailureAt = previousFailureAt ?? lastFailureAt
    }

    /// Failures allowed before waits begin.
    public static let freeFailures = 3
    /// Failures that lock the key out.
    public static let lockoutFailures = 10
    /// How long a lockout lasts, in ms; also how long without a failure makes a key start counting afresh.
    public static let lockoutMilliseconds: Int64 = 15 * 60 * 1000

    /// What to do with a new attempt.
    public enum Decision: Sendable, Hashable {
        case allow
        /// Try again after this many seconds.
        case wait(seconds: Int)
        /// Locked out for this many more seconds.
        case lockedOut(seconds: Int)
    }

    /// Whether an attempt at `now` (ms since 1970) may be checked.
    public func decision(now: Int64) -> Decision {
        let elapsed = now - self.lastFailureAt
        if self.failures >= Self.lockoutFailures {
            let left = Self.lockoutMilliseconds - elapsed
            return left > 0 ? .lockedOut(seconds: Int((left + 999) / 1000)) : .allow
        }
        guard self.failures >= Self.freeFailures else { return .allow }
        let wait = Int64(min(60, 1 << min(6, self.failures - Self.freeFailures + 1))) * 1000
        return elapsed >= wait ? .allow : .wait(seconds: Int((wait - elapsed + 999) / 1000))
    }

    /// The state once an attempt at `now` has been reserved: counted as a failure before the secret is checked, so that
    /// parallel attempts cannot all pass the check on the same old count; a success then gives it back
    /// (``released()``) or clears the key. nil when the attempt must be refused (see ``decision(now:)``).
    public func reserved(at now: Int64) -> LoginThrottle? {
        guard self.decision(now: now) == .allow else { return nil }
        return self.failed(at: now)
    }

    /// The state after a reserved attempt turned out right: the reservation is given back, earlier failures stay with
    /// the time of the last of them, so the next try waits no longer than it would have without the success.
    public func released() -> LoginThrottle? {
        self.failures <= 1 ? nil : LoginThrottle(failures: self.failures - 1, lastFailureAt: self.previousFailureAt)
    }

    /// The state after a failed attempt at `now`; a finished lockout, or a count idle for as long, starts afresh.
    public func failed(at now: Int64) -> LoginThrottle {
        let base = now - self.lastFailureAt >= Self.lockoutMilliseconds ? 0 : self.failures
        return LoginThrottle(failures: base + 1, lastFailureAt: now, previousFailureAt: self.lastFailureAt)
    }
}
