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
}
