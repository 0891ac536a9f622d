import Foundation
import Hummingbird
import InventoryDomain

/// Checks a username and a password or PIN: throttled per user and per address (shared with sign-in and the PIN
/// lock), unknown users checked against a dummy hash of the same cost, an inactive account refused.
struct SecretCheck<Staff: StaffRepository>: Sendable {
    let staff: Staff
    let secrets: Secrets

    /// Checks a password or PIN with throttling per account and per client address. The attempt is reserved on both
    /// counters (atomically, in the database) before the hash is checked, so a burst of parallel tries gets no more
    /// than the free ones; a right secret clears the account's counter and gives the reservation back on the address's,
    /// whose earlier failures stay (a success on one account does not wipe an address's guessing at others).
    func verify(username: String, secret: String, kind: String, address: String, hash: (StaffAccount) -> String?) async throws -> StaffAccount {
        let userKey = "\(kind):user:\(username.trimmingCharacters(in: .whitespaces).lowercased())", addressKey = "\(kind):ip:\(address)"
        switch try await self.staff.reserveAttempt(keys: [userKey, addressKey], at: Instant.now.milliseconds) {
        case .allow: break
        case .wait(let seconds):
            throw Problem(.tooManyRequests, code: .slowDown, title: "Too many tries", detail: "too many wrong tries; wait \(seconds) s and try again")
        case .lockedOut(let seconds):
            throw Problem(.tooManyRequests, code: .lockedOut, title: "Locked out",
                          detail: "too many wrong tries; locked for \((seconds + 59) / 60) more minute(s)")
        }
        let account = try await self.staff.user(username: username)
        let stored = account.flatMap(hash)
        // Unknown users are checked against a dummy hash of the same cost, so timing does not reveal which usernames exist.
        let checked: String
        if let stored { checked = stored } else { checked = try await self.secrets.dummyHash() }
        let matches = try await self.secrets.verify(secret, hash: checked)
        guard let account, account.isActive, stored != nil, matches else {
            throw Problem(.unauthorized, code: .wrongCredentials, title: "Wrong \(kind)", detail: "wrong username or \(kind)")
        }
        try await self.staff.settleAttempt(clear: [userKey], release: [addressKey])
        return account
    }
}
