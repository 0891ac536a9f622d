import InventoryDomain
import Testing

@Suite struct StaffTests {
    @Test func rolesIncludeTheOnesBelow() {
        #expect(Role.staff.allows(.sell) && Role.staff.allows(.scan))
        #expect(!Role.staff.allows(.purchase) && !Role.staff.allows(.manageSettings))
        #expect(Role.manager.allows(.purchase) && Role.manager.allows(.sellBelowMinimum) && !Role.manager.allows(.deleteTransactions))
        #expect(Permission.allCases.allSatisfy { Role.admin.allows($0) })
        // What things cost is a manager's: staff sell and count without seeing it.
        #expect(!Role.staff.allows(.viewCosts) && Role.manager.allows(.viewCosts) && Role.admin.allows(.viewCosts))
    }

    @Test func throttleSlowsDownThenLocksOut() {
        var throttle = LoginThrottle()
        var now: Int64 = 1_000_000
        for _ in 0..<LoginThrottle.freeFailures {
            #expect(throttle.decision(now: now) == .allow)
            throttle = throttle.failed(at: now)
        }
        #expect(throttle.decision(now: now) == .wait(seconds: 2))
        #expect(throttle.decision(now: now + 2_000) == .allow)
        throttle = throttle.failed(at: now + 2_000)
        #expect(throttle.decision(now: now + 2_000) == .wait(seconds: 4))
        while throttle.failures < LoginThrottle.lockoutFailures {
            now += 100_000
            throttle = throttle.failed(at: now)
        }
        #expect(throttle.decision(now: now + 1_000) == .lockedOut(seconds: 899))
        #expect(throttle.decision(now: now + LoginThrottle.lockoutMilliseconds) == .allow)
        #expect(throttle.failed(at: now + LoginThrottle.lockoutMilliseconds).failures == 1)
    }

    /// A right answer gives its reservation back with the last failure's time: a till whose address has had a few typos
    /// does not make the next person wait after every right PIN (it did: the success's time was kept as a failure's).
    @Test func aRightAnswerDoesNotCountAsAFailuresTime() throws {
        let start: Int64 = 1_000_000
        var throttle = LoginThrottle()
        for i in 0..<5 { throttle = try #require(throttle.reserved(at: start + Int64(i) * 60_000)) }
        let lastFailure = start + 4 * 60_000
        #expect(throttle.decision(now: lastFailure + 1_000) == .wait(seconds: 7))
        // 8 s later, a right PIN; the next person's right PIN a moment after is checked at once, and so is the next.
        var now = lastFailure + 8_000
        for _ in 0..<3 {
            let reserved = try #require(throttle.reserved(at: now))
            throttle = try #require(reserved.released())
            #expect(throttle == LoginThrottle(failures: 5, lastFailureAt: lastFailure))
            now += 500
            #expect(throttle.decision(now: now) == .allow)
        }
        // The next wrong one waits as it would have without the successes.
        throttle = try #require(throttle.reserved(at: now))
        #expect(throttle.decision(now: now + 1_000) == .wait(seconds: 15))
    }

    /// A count with no failure for 15 minutes starts afresh, successes in between or not: typos spread over a day do
    /// not add up to a lockout.
    @Test func anIdleCountIsForgotten() throws {
        let start: Int64 = 1_000_000
        var throttle = LoginThrottle(failures: LoginThrottle.lockoutFailures - 1, lastFailureAt: start)
        let success = try #require(throttle.reserved(at: start + 10 * 60_000))
        throttle = try #require(success.released())
        #expect(throttle.failed(at: start + LoginThrottle.lockoutMilliseconds - 1).failures == LoginThrottle.lockoutFailures)
        #expect(throttle.failed(at: start + LoginThrottle.lockoutMilliseconds).failures == 1)
        let fresh = try #require(throttle.reserved(at: start + LoginThrottle.lockoutMilliseconds))
        #expect(fresh.failures == 1 && fresh.released() == nil)
    }

    @Test func credentialRules() throws {
        #expect(try StaffAccount.validateUsername(" ada.l ") == "ada.l")
        #expect(throws: InventoryError(.invalidValue, field: "username", "")) { try StaffAccount.validateUsername("a") }
        #expect(throws: InventoryError(.invalidValue, field: "password", "")) { try StaffAccount.validatePassword("short") }
        #expect(throws: InventoryError(.invalidValue, field: "password", "")) { try StaffAccount.validatePassword(String(repeating: "x", count: 73)) }
        #expect(throws: InventoryError(.invalidValue, field: "pin", "")) { try StaffAccount.validatePIN("123") }
        #expect(throws: InventoryError(.invalidValue, field: "pin", "")) { try StaffAccount.validatePIN("12345678 ") }
        try StaffAccount.validatePIN("12345678")
    }

    /// What the till shows for whoever is signed in.
    @Test func initialsAndJobTitles() throws {
        func account(_ username: String, _ displayName: String) -> StaffAccount {
            StaffAccount(id: UserID(1), username: username, displayName: displayName, role: .staff, passwordHash: "p", pinHash: nil)
        }
        #expect(account("ada", "Ada Lovelace").initials == "AL")
        #expect(account("ada", "ada king lovelace").initials == "AL")
        #expect(account("ben", "").initials == "B")
        #expect(account("ben.okafor", " ").initials == "BO")
        #expect(account("zoe", "Zoë").initials == "Z")
        #expect(account("x1", "Émile  Zola").initials == "ÉZ")
        #expect(try StaffAccount.validateJobTitle("  Barista ") == "Barista")
        #expect(try StaffAccount.validateJobTitle("") == "")
        #expect(throws: InventoryError(.invalidValue, field: "jobTitle", "")) { try StaffAccount.validateJobTitle(String(repeating: "x", count: 41)) }
        #expect(throws: InventoryError(.invalidValue, field: "jobTitle", "")) { try StaffAccount.validateJobTitle("Barista\nand cook") }
    }

    /// Changing your own password or PIN: the current one when there is one, a new PIN typed twice alike.
    @Test func selfServiceRules() throws {
        typealias Rules = StaffAccount.SelfService
        let withPIN = StaffAccount(id: UserID(1), username: "ada", displayName: "Ada", role: .staff, passwordHash: "p", pinHash: "h")
        var withoutPIN = withPIN
        withoutPIN.pinHash = nil
        #expect(throws: InventoryError(.missingValue, field: "currentPassword", "")) { try Rules.requireCurrentPassword(nil) }
        #expect(throws: InventoryError(.missingValue, field: "currentPassword", "")) { try Rules.requireCurrentPassword("") }
        #expect(try Rules.requireCurrentPassword("old one") == "old one")
        #expect(throws: InventoryError(.missingValue, field: "newPassword", "")) { try Rules.checkNewPassword(nil) }
        #expect(throws: InventoryError(.invalidValue, field: "newPassword", "")) { try Rules.checkNewPassword("short") }
        #expect(try Rules.checkNewPassword("long enough") == "long enough")
        // A current PIN only when the account has one.
        #expect(throws: InventoryError(.missingValue, field: "currentPin", "")) { try Rules.requireCurrentPIN(nil, of: withPIN) }
        #expect(try Rules.requireCurrentPIN("1234", of: withPIN) == "1234")
        #expect(try Rules.requireCurrentPIN(nil, of: withoutPIN) == nil)
        #expect(try Rules.requireCurrentPIN("1234", of: withoutPIN) == nil)
        // The new one twice, alike.
        #expect(throws: InventoryError(.missingValue, field: "newPin", "")) { try Rules.checkNewPIN(nil, again: "1234") }
        #expect(throws: InventoryError(.invalidValue, field: "newPin", "")) { try Rules.checkNewPIN("12a4", again: "12a4") }
        #expect(throws: InventoryError(.missingValue, field: "newPinAgain", "")) { try Rules.checkNewPIN("1234", again: nil) }
        #expect(throws: InventoryError(.invalidValue, field: "newPinAgain", "")) { try Rules.checkNewPIN("1234", again: "1243") }
        #expect(try Rules.checkNewPIN("1234", again: "1234") == "1234")
    }

    /// The rules both stores apply (StaffRules.swift): stored names, the last active admin, shifts, reservations.
    @Test func storeRules() throws {
        #expect(StaffAccount.storedDisplayName("  Mia K. ", username: "mia") == "Mia K.")
        #expect(StaffAccount.storedDisplayName("   ", username: "mia") == "mia")
        let hash = "$2b$12$abcdefghijklmnopqrstuuOQ3oZJr9Yc0i7e5C4m1n2b3v4x5y6z7"
        let clerk = StaffAccount(id: UserID(7), username: "ada", displayName: "Ada", role: .staff, passwordHash: hash, pinHash: nil)
        #expect(clerk.asFirstAdmin.role == .admin)

        // The last active admin can be neither demoted nor deactivated; with another active admin both are fine.
        var admin = clerk.asFirstAdmin
        try admin.checkKeepsAnActiveAdmin(otherActiveAdmins: 0)
        admin.isActive = false
        #expect(throws: InventoryError(.conflict, field: "role", "")) { try admin.checkKeepsAnActiveAdmin(otherActiveAdmins: 0) }
        try admin.checkKeepsAnActiveAdmin(otherActiveAdmins: 1)
        #expect(throws: InventoryError(.conflict, field: "role", "")) { try clerk.checkKeepsAnActiveAdmin(otherActiveAdmins: 0) }

        // A token's owner is named unless they act on their own.
        #expect(ShopActivity.tokenParty(ownerID: UserID(7), ownerUsername: "ada", agent: Agent(clerk)) == nil)
        #expect(ShopActivity.tokenParty(ownerID: UserID(7), ownerUsername: "ada", agent: .system) == "ada")
        #expect(ShopActivity.Change.alerts(from: true, to: true) == nil)
        #expect(ShopActivity.Change.alerts(from: false, to: true)?.field == .alerts)

        // A clock-out earlier than the start closes the shift at its start.
        #expect(Shift.end(startedAt: 1_000, clockedOutAt: 500) == 1_000)
        #expect(Shift.end(startedAt: 1_000, clockedOutAt: 5_000) == 5_000)
    }

    @Test func aReservationCountsOnEveryKeyOrOnNone() {
        let now: Int64 = 1_767_225_600_000
        let fresh = LoginThrottle()
        let locked = LoginThrottle(failures: LoginThrottle.lockoutFailures, lastFailureAt: now - 60_000)
        let counted = LoginThrottle(failures: 1, lastFailureAt: now, previousFailureAt: 0)
        #expect(LoginThrottle.reserve([fresh, fresh], at: now) == .allowed([counted, counted]))
        // The first refusal is the answer, whatever follows it.
        let waiting = LoginThrottle(failures: LoginThrottle.freeFailures, lastFailureAt: now)
        #expect(LoginThrottle.reserve([fresh, locked, waiting], at: now) == .refused(.lockedOut(seconds: 14 * 60)))
        #expect(LoginThrottle.reserve([waiting, locked], at: now) == .refused(.wait(seconds: 2)))
        #expect(LoginThrottle.reserve([], at: now) == .allowed([]))
    }
}
