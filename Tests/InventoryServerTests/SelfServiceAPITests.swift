import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import InventoryDomain
import InventoryServer
import InventoryStore
import Testing

/// Changing your own password and PIN (`PUT /api/v1/auth/me/password`, `…/me/pin`), each with the current one; a
/// first PIN typed twice; an admin resetting someone's PIN (`POST /api/v1/users/{id}/pin-reset`). Every refusal names
/// its field and writes nothing.
@Suite struct SelfServiceAPITests {
    /// Signs `username` in through the browser route: the session cookie and CSRF token.
    static func signIn(_ client: some TestClientProtocol, _ username: String, _ password: String) async throws -> (cookie: String, csrf: String) {
        let login = try await client.call(.post, "/api/v1/auth/login", #"{"username":"\#(username)","password":"\#(password)"}"#)
        #expect(login.status == 200, "\(login.text)")
        return (try #require(sessionCookie(login)), try #require(login.object["csrfToken"] as? String))
    }

    @Test func changingYourPasswordNeedsTheCurrentOneAndEndsYourOtherSessions() async throws {
        let (app, store) = try makeApp()
        _ = try await newAccount(store, role: .admin)   // a shop always has an active admin
        let ada = try await newAccount(store, role: .staff, username: "ada")
        let otherToken = Secrets.newToken()
        _ = try await store.createSession(userID: ada.id, kind: .api, name: "phone", tokenHash: Secrets.hashToken(otherToken), csrfToken: "", expiresAt: nil)
        try await app.test(.router) { client in
            let here = try await Self.signIn(client, "ada", "password-ada")
            let elsewhere = try await Self.signIn(client, "ada", "password-ada")
            let uri = "/api/v1/auth/me/password"
            // Refusals, each naming its field, none writing anything.
            let refusals: [(String, String, Int)] = [
                (#"{"currentPassword":"not my password","newPassword":"a new long one"}"#, "currentPassword", 422),
                (#"{"newPassword":"a new long one"}"#, "currentPassword", 422),
                (#"{"currentPassword":"password-ada","newPassword":"short"}"#, "newPassword", 422),
                (#"{"currentPassword":"password-ada"}"#, "newPassword", 422),
                (#"{"currentPassword":"password-ada","newPassword":"a new long one","pin":"1234"}"#, "pin", 400),
            ]
            for (body, field, status) in refusals {
                let refused = try await client.call(.put, uri, body, cookie: here.cookie, csrf: here.csrf)
                #expect(refused.status == status, "\(body): \(refused.text)")
                #expect(refused.object["field"] as? String == field, "\(body): \(refused.text)")
                let row = try await store.user(ada.id)
                #expect(row == ada, "\(body) changed the account")
                let still = try await client.call(.get, "/api/v1/auth/me", cookie: elsewhere.cookie)
                #expect(still.status == 200)
            }
            // Without the CSRF token a browser cannot change it.
            let forged = try await client.call(.put, uri, #"{"currentPassword":"password-ada","newPassword":"a new long one"}"#, cookie: here.cookie)
            #expect(forged.status == 403)

            let changed = try await client.call(.put, uri, #"{"currentPassword":"password-ada","newPassword":"a new long one"}"#,
                                                cookie: here.cookie, csrf: here.csrf)
            #expect(changed.status == 200, "\(changed.text)")
            #expect(changed.object["sessionsEnded"] as? Int == 2)
            let row = try await store.user(ada.id)
            #expect(row.passwordHash != ada.passwordHash && row.pinHash == ada.pinHash)
            // This session goes on; the other browser and the API token are signed out.
            let stays = try await client.call(.get, "/api/v1/auth/me", cookie: here.cookie)
            let ended = try await client.call(.get, "/api/v1/auth/me", cookie: elsewhere.cookie)
            let revoked = try await client.call(.get, "/api/v1/products", token: otherToken)
            #expect(stays.status == 200 && ended.status == 401 && revoked.status == 401)
            let old = try await client.call(.post, "/api/v1/auth/login", #"{"username":"ada","password":"password-ada"}"#)
            #expect(old.status == 401)
            let new = try await client.call(.post, "/api/v1/auth/login", #"{"username":"ada","password":"a new long one"}"#)
            #expect(new.status == 200)
            // Audited: the account's change (the password as "a new one") and the sessions it ended.
            let log = try await store.auditLog(limit: 10, offset: 0)
            let change = log.first { $0.action == "userChanged" }
            #expect(change?.changes.map(\.field) == [.password] && change?.username == "ada", "\(log.map(\.detail))")
            #expect(log.contains { $0.action == "sessionsEnded" && $0.figures.count == 2 }, "\(log.map(\.detail))")
        }
    }

    @Test func changingYourPINNeedsTheCurrentOneAndTheNewOneTwice() async throws {
        let (app, store) = try makeApp()
        _ = try await newAccount(store, role: .admin)   // a shop always has an active admin
        let ben = try await newAccount(store, role: .staff, username: "ben")
        try await app.test(.router) { client in
            let session = try await Self.signIn(client, "ben", "password-ben")
            let uri = "/api/v1/auth/me/pin"
            let refusals: [(String, String)] = [
                (#"{"currentPin":"9999","newPin":"4321","newPinAgain":"4321"}"#, "currentPin"),
                (#"{"newPin":"4321","newPinAgain":"4321"}"#, "currentPin"),
                (#"{"currentPin":"12a4","newPin":"4321","newPinAgain":"4321"}"#, "currentPin"),
                (#"{"currentPin":"1234","newPin":"43","newPinAgain":"43"}"#, "newPin"),
                (#"{"currentPin":"1234","newPin":"4321"}"#, "newPinAgain"),
                (#"{"currentPin":"1234","newPin":"4321","newPinAgain":"4322"}"#, "newPinAgain"),
            ]
            for (body, field) in refusals {
                let refused = try await client.call(.put, uri, body, cookie: session.cookie, csrf: session.csrf)
                #expect(refused.status == 422, "\(body): \(refused.text)")
                #expect(refused.object["field"] as? String == field, "\(body): \(refused.text)")
                let row = try await store.user(ben.id)
                #expect(row == ben, "\(body) changed the account")
            }
            let changed = try await client.call(.put, uri, #"{"currentPin":"1234","newPin":"4321","newPinAgain":"4321"}"#,
                                                cookie: session.cookie, csrf: session.csrf)
            #expect(changed.status == 200, "\(changed.text)")
            #expect(changed.object["hasPIN"] as? Bool == true)
            let row = try await store.user(ben.id)
            #expect(row.pinHash != ben.pinHash && row.passwordHash == ben.passwordHash)
            // The till unlocks with the new PIN, not the old one.
            let lock = try await client.call(.post, "/api/v1/auth/lock", cookie: session.cookie, csrf: session.csrf)
            #expect(lock.status == 204)
            let old = try await client.call(.post, "/api/v1/auth/pin", #"{"username":"ben","pin":"1234"}"#, cookie: session.cookie, csrf: session.csrf)
            #expect(old.status == 401)
            let new = try await client.call(.post, "/api/v1/auth/pin", #"{"username":"ben","pin":"4321"}"#, cookie: session.cookie, csrf: session.csrf)
            #expect(new.status == 200, "\(new.text)")
            let log = try await store.auditLog(limit: 5, offset: 0)
            #expect(log.contains { $0.action == "userChanged" && $0.changes.map(\.field) == [.pin] }, "\(log.map(\.detail))")
        }
    }

    @Test func anAdminResetsAPINAndItsOwnerChoosesTheFirstNewOneTwice() async throws {
        let (app, store) = try makeApp()
        let admin = try await token(store, role: .admin, username: "root")
        let cleo = try await newAccount(store, role: .staff, username: "cleo")
        let manager = try await token(store, role: .manager)
        try await app.test(.router) { client in
            let before = try await Self.signIn(client, "cleo", "password-cleo")
            // Only an admin may reset it.
            let refused = try await client.call(.post, "/api/v1/users/\(cleo.id.rawValue)/pin-reset", token: manager)
            #expect(refused.status == 403)
            let unchanged = try await store.user(cleo.id)
            #expect(unchanged == cleo)
            let missing = try await client.call(.post, "/api/v1/users/999999/pin-reset", token: admin)
            #expect(missing.status == 404 && missing.object["field"] as? String == "id")

            let reset = try await client.call(.post, "/api/v1/users/\(cleo.id.rawValue)/pin-reset", token: admin)
            #expect(reset.status == 200, "\(reset.text)")
            #expect(reset.object["hasPIN"] as? Bool == false)
            let row = try await store.user(cleo.id)
            #expect(row.pinHash == nil && row.passwordHash == cleo.passwordHash)
            // Her sessions are ended; audited as a change of her account by the admin.
            let ended = try await client.call(.get, "/api/v1/auth/me", cookie: before.cookie)
            #expect(ended.status == 401)
            let log = try await store.auditLog(limit: 5, offset: 0)
            #expect(log.contains { $0.action == "userChanged" && $0.username == "root" && $0.changes.map(\.field) == [.pin] }, "\(log.map(\.detail))")
            #expect(log.contains { $0.action == "sessionsEnded" && $0.username == "root" })

            // Her first new PIN needs no current one, but must be typed twice alike.
            let session = try await Self.signIn(client, "cleo", "password-cleo")
            let uri = "/api/v1/auth/me/pin"
            let mismatch = try await client.call(.put, uri, #"{"newPin":"2468","newPinAgain":"2469"}"#, cookie: session.cookie, csrf: session.csrf)
            #expect(mismatch.status == 422 && mismatch.object["field"] as? String == "newPinAgain", "\(mismatch.text)")
            let once = try await client.call(.put, uri, #"{"newPin":"2468"}"#, cookie: session.cookie, csrf: session.csrf)
            #expect(once.status == 422 && once.object["field"] as? String == "newPinAgain", "\(once.text)")
            let still = try await store.user(cleo.id)
            #expect(still.pinHash == nil)
            let first = try await client.call(.put, uri, #"{"newPin":"2468","newPinAgain":"2468"}"#, cookie: session.cookie, csrf: session.csrf)
            #expect(first.status == 200 && first.object["hasPIN"] as? Bool == true, "\(first.text)")
            // From now on a change needs it.
            let again = try await client.call(.put, uri, #"{"newPin":"1357","newPinAgain":"1357"}"#, cookie: session.cookie, csrf: session.csrf)
            #expect(again.status == 422 && again.object["field"] as? String == "currentPin")
        }
    }

    @Test func aNewUsersPINIsTypedTwice() async throws {
        let (app, store) = try makeApp()
        let admin = try await token(store, role: .admin)
        try await app.test(.router) { client in
            let before = try await store.users().count
            let mistyped = try await client.call(.post, "/api/v1/users", #"{"username":"bea","password":"password-bea","pin":"1357","pinAgain":"1375"}"#, token: admin)
            #expect(mistyped.status == 422 && mistyped.object["field"] as? String == "pinAgain", "\(mistyped.text)")
            #expect(try await store.users().count == before)
            let created = try await client.call(.post, "/api/v1/users", #"{"username":"bea","password":"password-bea","pin":"1357","pinAgain":"1357"}"#, token: admin)
            #expect(created.status == 201, "\(created.text)")
            let id = try #require(created.object["id"] as? Int)
            // A new PIN set by the admin: the same check, and the old PIN still works after a refusal.
            let changed = try await client.call(.put, "/api/v1/users/\(id)", #"{"pin":"2468","pinAgain":""}"#, token: admin)
            #expect(changed.status == 422 && changed.object["field"] as? String == "pinAgain", "\(changed.text)")
            let hash = try await store.users().first { $0.username == "bea" }?.pinHash
            #expect(try await testSecrets.verify("1357", hash: try #require(hash)))
        }
    }
}
