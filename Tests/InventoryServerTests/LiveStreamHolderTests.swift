import InventoryDomain
@testable import InventoryServer
import Testing

/// When a live-events stream may go on (finding 19): only while the request's credentials name the same session, account
/// and role, unlocked, with the same choice of alerts. `tests/security/test_f19_streams.py` replays each case against a
/// real server; this pins the rule itself.
@Suite struct LiveStreamHolderTests {
    static func identity(session: Int64 = 7, user: Int64 = 3, role: Role = .manager, active: Bool = true, locked: Bool = false) -> Identity {
        Identity(account: StaffAccount(id: UserID(rawValue: user), username: "u\(user)", displayName: "U", role: role, passwordHash: "x",
                                       pinHash: nil, isActive: active),
                 session: StaffSession(id: session, userID: UserID(rawValue: user), kind: .web, name: "till", csrfToken: "c",
                                       createdAt: 0, lastSeenAt: 0, isLocked: locked))
    }

    @Test func aStreamGoesOnOnlyForWhomItWasOpenedFor() {
        let opened = Self.identity()
        func goesOn(_ now: Identity?, locked: Bool = false, alerts: Bool = true) -> Bool {
            EventsController.goesOn(opened: opened, alerts: true, now: now.map { ($0, locked) }, alertsNow: alerts)
        }
        #expect(goesOn(Self.identity()))
        #expect(!goesOn(nil), "signed out, revoked, or the session could not be read")
        #expect(!goesOn(Self.identity(), locked: true), "the till is locked")
        #expect(!goesOn(Self.identity(user: 4)), "unlocked by someone else's PIN: the same session, another account")
        #expect(!goesOn(Self.identity(session: 8)), "another session")
        #expect(!goesOn(Self.identity(role: .staff)), "a lesser role")
        #expect(!goesOn(Self.identity(active: false)), "a deactivated account")
        #expect(!goesOn(Self.identity(), alerts: false), "alerts turned off: the stream that carried them ends")
    }
}
