import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import InventoryDomain
@testable import InventoryServer
import InventoryStore
import Testing

extension TestClientProtocol {
    /// A request with any headers (names as written), for the attacks the usual helper cannot spell.
    func send(_ method: HTTPRequest.Method, _ uri: String, body: String? = nil, headers: [String: String] = [:]) async throws -> Reply {
        var fields = HTTPFields()
        for (name, value) in headers { if let name = HTTPField.Name(name) { fields[name] = value } }
        return try await self.execute(uri: uri, method: method, headers: fields, body: body.map { ByteBuffer(string: $0) }) { response in
            Reply(status: Int(response.status.code), text: String(buffer: response.body), contentType: response.headers[.contentType],
                  setCookie: response.headers[.setCookie])
        }
    }
}

/// A server over an in-memory store with a chosen configuration.
func makeApp(_ configure: (inout ServerConfiguration) -> Void) throws -> (some ApplicationProtocol, InventorySQLiteRepository) {
    let store = try InventorySQLiteRepository.inMemory()
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("stockroom-server-\(UUID().uuidString)").path
    var configuration = ServerConfiguration(host: "127.0.0.1", port: 0, secrets: testSecrets, dataFolder: folder)
    configure(&configuration)
    return (try buildApplication(configuration, repository: store), store)
}

/// The attacks of issue 9 that the router itself must refuse (the Python suite replays them against a real server).
@Suite struct SecurityTests {
    @Test func nonCanonicalPathsAreRefusedBeforeAnyRoute() async throws {
        let (app, store) = try makeApp()
        let admin = try await newAccount(store, role: .admin)
        let before = try await store.testOnly_dump()
        let audited = try await store.auditLog(limit: 10, offset: 0)
        try await app.test(.router) { client in
            for path in ["//api/v1/users", "///api/v1/users", "/api//v1/users", "/api/v1/users/", "/./api/v1/users", "/api/v1/../v1/users",
                         "/api/v1/%2e%2e/v1/users", "/api%2fv1/users", "/api/v1/users%00"] {
                let reply = try await client.send(.get, path)
                #expect(reply.status == 400, "\(path): \(reply.status) \(reply.text)")
                #expect(reply.object["code"] as? String == "nonCanonicalPath")
                #expect(!reply.text.contains(admin.username))
            }
            let mint = try await client.send(.post, "//api/v1/tokens", body: #"{"name":"x","userId":\#(admin.id.rawValue)}"#,
                                             headers: ["Content-Type": "application/json"])
            #expect(mint.status == 400)
            #expect(try await client.send(.put, "//api/v1/settings", body: #"{"shopName":"Owned"}"#, headers: ["Content-Type": "application/json"]).status == 400)
            #expect(try await client.send(.delete, "//api/v1/products/1").status == 400)
            #expect(try await client.send(.get, "//api/v1/backup").status == 400)
            // The canonical spellings answer as before: anonymous is 401, the root and a screen are served.
            #expect(try await client.send(.get, "/api/v1/users").status == 401)
            #expect(try await client.send(.get, "/health").status == 200)
        }
        #expect(try await store.sessions(kind: .api).isEmpty)
        #expect(try await store.testOnly_dump() == before)
        #expect(try await store.auditLog(limit: 10, offset: 0) == audited, "a refused request reached the audit log")
    }

    @Test func canonicalFormRule() {
        #expect(AuthMiddleware<InventorySQLiteRepository>.nonCanonicalReason("/") == nil)
        #expect(AuthMiddleware<InventorySQLiteRepository>.nonCanonicalReason("/api/v1/products?search=a//b&x=../y") == nil)
        #expect(AuthMiddleware<InventorySQLiteRepository>.nonCanonicalReason("/static/css/app.css") == nil)
        for bad in ["", "*", "api/v1/users", "http://127.0.0.1:8080//api/v1/users", "http://127.0.0.1/api/v1/users", "//", "/a//b", "/a/",
                    "/a/./b", "/a/../b", "/a\\b", "/a%2Fb", "/a%5cb", "/%2E%2E/x"] {
            #expect(AuthMiddleware<InventorySQLiteRepository>.nonCanonicalReason(bad) != nil, "\(bad) must be refused")
        }
    }

    /// The check of an ASCII target by its bytes answers what the check by Characters answers (the same reason, or
    /// none), on random targets made of the pieces each rule looks at, and on the refusals above; a non-ASCII target
    /// is checked by Characters.
    @Test func theCanonicalFormRuleByBytesAnswersWhatTheRuleByCharactersAnswers() {
        typealias Auth = AuthMiddleware<InventorySQLiteRepository>
        var random = SeededRandom(seed: 2_026_112_8)
        let pieces = ["/", "/", "/", ".", "..", "%", "2", "5", "0", "f", "F", "c", "C", "e", "E", "\\", "?", "a", "api", "%2", "\r\n", "%0"]
        var targets = ["", "/", "?", "/?", "//", "/.", "/..", "/...", "/a/", "/%", "/%2", "/%2f", "/%2F?x", "/a?%2f", "/a%5C", "/%00", "/%0a", "/a\\b"]
        for index in 0..<20_000 {
            let words = (0..<Int(random.next() % 9)).map { _ in pieces[Int(random.next() % UInt64(pieces.count))] }
            targets.append((index % 4 == 0 ? "" : "/a/") + words.joined(separator: index % 3 == 0 ? "" : "b"))
        }
        var answers: [String?: Int] = [:]
        for target in targets {
            var bytes = target
            let byBytes = bytes.withUTF8 { Auth.nonCanonicalReason(ascii: $0) }
            let byCharacters = Auth.nonCanonicalReason(characters: target)
            #expect(byBytes == byCharacters, "\(target.debugDescription)")
            #expect(Auth.nonCanonicalReason(target) == byCharacters)
            answers[byCharacters, default: 0] += 1
        }
        #expect(answers.count == 6 && answers.values.allSatisfy { $0 >= 50 }, "every reason, and none, came often: \(answers)")
        // Not ASCII: by Characters (a combining accent after '/' makes a Character of its own).
        #expect(Auth.nonCanonicalReason("/caf\u{E9}") == nil)
        #expect(Auth.nonCanonicalReason("/\u{301}a") == Auth.nonCanonicalReason(characters: "/\u{301}a"))
    }

    @Test func aBurstOfWrongPasswordsGetsOnlyTheFreeTries() async throws {
        let (app, store) = try makeApp()
        _ = try await newAccount(store, role: .admin, username: "boss")
        try await app.test(.router) { client in
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for attempt in 0..<50 {
                    group.addTask {
                        try await client.call(.post, "/api/v1/auth/login", #"{"username":"boss","password":"guess-\#(attempt)"}"#).status
                    }
                }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            let checked = statuses.filter { $0 != 429 }
            #expect(checked.count <= LoginThrottle.freeFailures, "\(checked.count) of 50 parallel guesses were checked: \(statuses)")
            #expect(checked.allSatisfy { $0 == 401 })
            let throttle = try await store.throttle(key: "password:user:boss")
            #expect(throttle.failures == LoginThrottle.freeFailures)
            // The right password is slowed down too until the wait after the last failure is over (on a loaded machine
            // the wait may already have passed: then it signs in).
            let right = try await client.call(.post, "/api/v1/auth/login", #"{"username":"boss","password":"password-boss"}"#).status
            let waited = Instant.now.milliseconds - throttle.lastFailureAt
            #expect(right == 429 || (right == 200 && waited >= 2_000), "right password answered \(right) \(waited) ms after the last failure")
        }
    }

    @Test func aBurstOfPINsCannotSwitchTheTillToAnAdmin() async throws {
        let (app, store) = try makeApp()
        _ = try await newAccount(store, role: .admin, username: "boss")  // PIN 1234
        let (cookie, csrf) = try await webSession(store, role: .staff)
        try await app.test(.router) { client in
            let pins = (0..<49).map { String(format: "%04d", 5000 + $0) } + ["1234"]
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for pin in pins {
                    group.addTask {
                        try await client.call(.post, "/api/v1/auth/pin", #"{"username":"boss","pin":"\#(pin)"}"#, cookie: cookie, csrf: csrf).status
                    }
                }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            #expect(statuses.filter { $0 != 429 }.count <= LoginThrottle.freeFailures, "\(statuses)")
            let me = try await client.call(.get, "/api/v1/auth/me", cookie: cookie)
            let role = (me.object["user"] as? [String: Any])?["role"] as? String
            // Only when the right PIN happened to be among the three checked may the till now be the admin's.
            #expect(role == "staff" || statuses.contains(200))
        }
    }

    @Test func aSuccessOnOneAccountKeepsTheAddressCounter() async throws {
        let (app, store) = try makeApp()
        _ = try await newAccount(store, role: .staff, username: "amy")
        _ = try await newAccount(store, role: .staff, username: "bob")
        try await app.test(.router) { client in
            for _ in 0..<2 {
                let wrong = try await client.call(.post, "/api/v1/auth/login", #"{"username":"amy","password":"wrong-password"}"#)
                #expect(wrong.status == 401)
            }
            let right = try await client.call(.post, "/api/v1/auth/login", #"{"username":"bob","password":"password-bob"}"#)
            #expect(right.status == 200)
        }
        let address = "unknown"  // the in-process test client has no socket address
        #expect(try await store.throttle(key: "password:ip:\(address)").failures == 2, "the address keeps its two failures")
        #expect(try await store.throttle(key: "password:user:bob").failures == 0)
        #expect(try await store.throttle(key: "password:user:amy").failures == 2)
    }

    @Test func unknownUsersAreCheckedAgainstAHashOfTheSameCost() async throws {
        let secrets = Secrets(bcryptCost: 5)
        let dummy = try await secrets.dummyHash()
        #expect(dummy.hasPrefix("$2b$05$"))
        #expect(try await secrets.dummyHash() == dummy, "made once")
        #expect(try await Secrets(bcryptCost: 4).dummyHash().hasPrefix("$2b$04$"))
    }

    @Test func aNewPasswordOrPINEndsTheUsersOtherSessionsAndTokens() async throws {
        let (app, store) = try makeApp()
        let adminToken = try await token(store, role: .admin, username: "root")
        let clerkToken = try await token(store, role: .staff, username: "clerk")
        let clerk = try #require(try await store.user(username: "clerk"))
        try await app.test(.router) { client in
            let login = try await client.call(.post, "/api/v1/auth/login", #"{"username":"clerk","password":"password-clerk"}"#)
            let cookie = try #require(sessionCookie(login))
            #expect(try await client.call(.get, "/api/v1/auth/me", cookie: cookie).status == 200)
            // A display-name change ends nothing.
            #expect(try await client.call(.put, "/api/v1/users/\(clerk.id)", #"{"displayName":"Clerk"}"#, token: adminToken).status == 200)
            #expect(try await client.call(.get, "/api/v1/products", token: clerkToken).status == 200)
            let changed = try await client.call(.put, "/api/v1/users/\(clerk.id)", #"{"password":"a new password"}"#, token: adminToken)
            #expect(changed.status == 200, "\(changed.text)")
            #expect(try await client.call(.get, "/api/v1/auth/me", cookie: cookie).status == 401)
            #expect(try await client.call(.get, "/api/v1/products", token: clerkToken).status == 401)
            #expect(try await client.call(.get, "/api/v1/products", token: adminToken).status == 200, "the changer keeps their own session")
            let audit = try await client.call(.get, "/api/v1/audit", token: adminToken).array
            #expect(audit.first?["kind"] as? String == "sessionsEnded")
            #expect(audit.first?["sentence"] as? String == "root ended 2 sessions and tokens of clerk after a new password or PIN", "\(audit)")
        }
    }

    @Test func browserSessionsEndAfterTheirLifetimeAndTokensAtTheirExpiry() async throws {
        let lifetime: Int64 = 1_500
        let (app, store) = try makeApp { $0.sessionLifetime = lifetime }
        let admin = try await token(store, role: .admin, username: "root")
        try await app.test(.router) { client in
            let signedIn = Instant.now.milliseconds
            let login = try await client.call(.post, "/api/v1/auth/login", #"{"username":"root","password":"password-root"}"#)
            let cookie = try #require(sessionCookie(login))
            let first = try await client.call(.get, "/api/v1/auth/me", cookie: cookie).status
            // Within its lifetime the session works (on a very loaded machine the check may come too late to tell).
            if Instant.now.milliseconds - signedIn < lifetime { #expect(first == 200) }
            try await Task.sleep(for: .milliseconds(lifetime + 200))
            #expect(try await client.call(.get, "/api/v1/auth/me", cookie: cookie).status == 401)

            let refused = try await client.call(.post, "/api/v1/tokens", #"{"name":"ci","expiresInDays":0}"#, token: admin)
            #expect(refused.status == 422 && refused.object["field"] as? String == "expiresInDays")
            let made = try await client.call(.post, "/api/v1/tokens", #"{"name":"ci","expiresInDays":30}"#, token: admin)
            #expect(made.status == 201 && made.object["expiresAt"] is String, "\(made.text)")
            let secret = try #require(made.object["token"] as? String)
            #expect(try await client.call(.get, "/api/v1/products", token: secret).status == 200)
        }
        // A token whose expiry has passed no longer works, and is removed.
        let account = try #require(try await store.user(username: "root"))
        let expired = Secrets.newToken()
        _ = try await store.createSession(userID: account.id, kind: .api, name: "old", tokenHash: Secrets.hashToken(expired), csrfToken: "",
                                          expiresAt: Instant.now.milliseconds - 1)
        try await app.test(.router) { client in
            let reply = try await client.call(.get, "/api/v1/products", token: expired)
            #expect(reply.status == 401)
        }
        #expect(try await store.sessions(kind: .api).contains { $0.name == "old" } == false)
    }

    @Test func crossSiteBrowserRequestsAndNonJSONBodiesAreRefused() async throws {
        let (app, store) = try makeApp()
        try await app.test(.router) { client in
            // A cross-site form can post text/plain without asking: first-run setup must not accept it.
            let plain = try await client.send(.post, "/api/v1/auth/setup", body: #"{"username":"evil","password":"evil-password"}"#,
                                              headers: ["Content-Type": "text/plain"])
            #expect(plain.status == 415 && plain.object["field"] as? String == "Content-Type", "\(plain.text)")
            let crossSite = try await client.send(.post, "/api/v1/auth/setup", body: #"{"username":"evil","password":"evil-password"}"#,
                                                  headers: ["Content-Type": "application/json", "Sec-Fetch-Site": "cross-site"])
            #expect(crossSite.status == 403 && crossSite.object["code"] as? String == "crossSite")
            let otherOrigin = try await client.send(.post, "/api/v1/auth/setup", body: #"{"username":"evil","password":"evil-password"}"#,
                                                    headers: ["Content-Type": "application/json", "Origin": "http://evil.example"])
            #expect(otherOrigin.status == 403)
            #expect(try await store.userCount() == 0)
            let own = try await client.send(.post, "/api/v1/auth/setup", body: #"{"username":"owner","password":"owner-password"}"#,
                                            headers: ["Content-Type": "application/json", "Origin": "http://localhost",  // the test client's authority
                                                      "Sec-Fetch-Site": "same-origin"])
            #expect(own.status == 201, "\(own.text)")
            let cookie = try #require(sessionCookie(own))
            let csrf = try #require(own.object["csrfToken"] as? String)
            let forged = try await client.send(.post, "/api/v1/categories", body: #"{"name":"Evil"}"#,
                                               headers: ["Content-Type": "application/json", "Cookie": "stockroom_session=\(cookie)",
                                                         "X-CSRF-Token": csrf, "Origin": "http://evil.example"])
            #expect(forged.status == 403)
            #expect(try await store.categories().isEmpty)
        }
    }

    @Test func mintingATokenForAnotherUserIsAudited() async throws {
        let (app, store) = try makeApp()
        let admin = try await token(store, role: .admin, username: "root")
        let clerk = try await newAccount(store, role: .staff, username: "clerk")
        try await app.test(.router) { client in
            let made = try await client.call(.post, "/api/v1/tokens", #"{"name":"till","userId":\#(clerk.id.rawValue)}"#, token: admin)
            #expect(made.status == 201)
        }
        let entries = try await store.auditLog(limit: 10, offset: 0)
        #expect(entries.contains { $0.kind == .tokenCreated && $0.username == "root" && $0.sentence.hasSuffix("'till' for clerk") }, "\(entries)")
    }

    @Test func throttleReservationsAreCountedBeforeTheCheck() {
        var throttle = LoginThrottle()
        for _ in 0..<LoginThrottle.freeFailures { throttle = throttle.reserved(at: 1_000) ?? throttle }
        #expect(throttle.failures == LoginThrottle.freeFailures)
        #expect(throttle.reserved(at: 1_000) == nil, "the fourth try at the same moment must wait")
        #expect(throttle.released()?.failures == LoginThrottle.freeFailures - 1)
        #expect(LoginThrottle(failures: 1, lastFailureAt: 5).released() == nil)
    }
}
