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
}
