import Foundation

// The staff rules every store applies alike: how an account is stored, when a save or a shift is refused and with
// which error, how a reservation of sign-in attempts on several keys is decided, and who a token activity names. The
// stores keep the records (their SQL); these decide, so that SQLite and PostgreSQL cannot disagree.

extension StaffAccount {
    /// The display name an account is stored with: trimmed of spaces; a blank one is the username.
    public static func storedDisplayName(_ displayName: String, username: String) -> String {
        displayName.trimmingCharacters(in: .whitespaces).nilIfEmpty ?? username
    }

    /// The account as the shop's first admin, whatever role it was given.
    public var asFirstAdmin: StaffAccount {
        var admin = self
        admin.role = .admin
        return admin
    }

    /// The refusal of a first admin once the shop has an account: `conflict` on `username`.
    public static func shopAlreadySetUp() -> InventoryError {
        InventoryError(.conflict, field: "username", "the shop already has an admin; sign in instead")
    }

    /// The refusal of a username another account holds (case-insensitively): `duplicate` on `username`.
    public static func usernameTaken(_ username: String) -> InventoryError {
        InventoryError(.duplicate, field: "username", "the username '\(username)' is taken")
    }

    /// The refusal of an account that does not exist: `notFound` on `id`.
    public static func notFound(_ id: UserID) -> InventoryError {
        InventoryError(.notFound, field: "id", "user \(id) does not exist")
    }

    /// Never leaves the shop without an active admin: saving this account (as it would be stored) is refused when no
    /// other account is an active admin and this one would no longer be one.
    /// - Throws: `conflict` on `role`.
    public func checkKeepsAnActiveAdmin(otherActiveAdmins: Int) throws {
        if otherActiveAdmins == 0 && (self.role != .admin || !self.isActive) {
            throw InventoryError(.conflict, field: "role", "this is the last active admin; make someone else admin first")
        }
    }
}

extension StaffSession {
    /// The refusal of a session or API token that does not exist: `notFound` on `id`.
    public static func notFound(_ id: Int64) -> InventoryError {
        InventoryError(.notFound, field: "id", "session \(id) does not exist")
    }
}

extension ShopActivity {
    /// The other side of an activity on an API token (created, revoked): its owner, unless the agent is the owner.
    public static func tokenParty(ownerID: UserID, ownerUsername: String, agent: Agent) -> String? {
        ownerID == agent.userID ? nil : ownerUsername
    }
}

extension ShopActivity.Change {
    /// What a new account is recorded with: its role.
    public static func newAccount(_ account: StaffAccount) -> [ShopActivity.Change] {
        [ShopActivity.Change(.role, from: .none, to: .text(account.role.rawValue))]
    }

    /// An account's opt-in to alerts turned from `old` to `new`; nil when the choice is the same (nothing to change or
    /// record).
    public static func alerts(from old: Bool, to new: Bool) -> ShopActivity.Change? {
        old == new ? nil : ShopActivity.Change(.alerts, from: .flag(old), to: .flag(new))
    }
}

extension Shift {
    /// When a shift that started at `startedAt` ends if clocked out at `clockedOutAt` (ms): never before its start (a
    /// clock earlier than the start closes it at its start).
    public static func end(startedAt: Int64, clockedOutAt: Int64) -> Int64 {
        max(startedAt, clockedOutAt)
    }

    /// The refusal of a clock-in while the user has a shift open: `conflict` on `shift`.
    public static func alreadyClockedIn() -> InventoryError {
        InventoryError(.conflict, field: "shift", "you are already clocked in")
    }

    /// The refusal of a clock-out without an open shift: `conflict` on `shift`.
    public static func notClockedIn() -> InventoryError {
        InventoryError(.conflict, field: "shift", "you are not clocked in")
    }

    /// The refusal of a shift that does not exist: `notFound` on `shift`.
    public static func notFound(_ id: Int64) -> InventoryError {
        InventoryError(.notFound, field: "shift", "shift \(id) does not exist")
    }
}

extension LoginThrottle {
    /// The outcome of reserving one attempt on several keys at once (``reserve(_:at:)``).
    public enum Reservation: Sendable, Hashable {
        /// Every key counts the attempt: the states to store, in the order of the keys.
        case allowed([LoginThrottle])
        /// The first key that refuses the attempt, and its answer; no key changes.
        case refused(Decision)
    }

    /// Reserves one attempt on every key at once (``reserved(at:)``), given their current states in order: either each
    /// counts it, or none does and the answer is the first refusal.
    public static func reserve(_ states: [LoginThrottle], at now: Int64) -> Reservation {
        var next: [LoginThrottle] = []
        for state in states {
            guard let reserved = state.reserved(at: now) else { return .refused(state.decision(now: now)) }
            next.append(reserved)
        }
        return .allowed(next)
    }
}
