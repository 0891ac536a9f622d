import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import InventoryDomain
import InventoryServer
import InventoryStore
import Testing

/// The session cookie's value from a Set-Cookie header.
func sessionCookie(_ reply: Reply) -> String? {
    guard let header = reply.setCookie, let start = header.range(of: "stockroom_session=") else { return nil }
    return String(header[start.upperBound...].prefix { $0 != ";" })
}

@Suite struct AuthTests {
    @Test func firstRunCreatesTheAdminOnceAndNothingWorksBefore() async throws {
        let (app, store) = try makeApp()
        try await app.test(.router) { client in
            #expect(try await client.call(.get, "/api/v1/auth/status").object["setupRequired"] as? Bool == true)
            #expect(try await client.call(.get, "/api/v1/products").status == 401)
            let weak = try await client.call(.post, "/api/v1/auth/setup", #"{"username":"owner","password":"short"}"#)
            #expect(weak.status == 422 && weak.object["field"] as? String == "password")
            let badPin = try await client.call(.post, "/api/v1/auth/setup", #"{"username":"owner","password":"long enough","pin":"12a4"}"#)
            #expect(badPin.object["field"] as? String == "pin")
            // The first PIN typed twice: a second typing that differs is refused naming it, and nobody is created.
            let mistyped = try await client.call(.post, "/api/v1/auth/setup", #"{"username":"owner","password":"long enough","pin":"2468","pinAgain":"2486"}"#)
            #expect(mistyped.status == 422 && mistyped.object["field"] as? String == "pinAgain", "\(mistyped.text)")
            let againWithout = try await client.call(.post, "/api/v1/auth/setup", #"{"username":"owner","password":"long enough","pinAgain":"2468"}"#)
            #expect(againWithout.status == 422 && againWithout.object["field"] as? String == "pinAgain", "\(againWithout.text)")
            #expect(try await store.userCount() == 0)
            let setup = try await client.call(.post, "/api/v1/auth/setup", #"{"username":"owner","displayName":"Olga","password":"correct horse","pin":"2468","pinAgain":"2468"}"#)
            #expect(setup.status == 201)
            #expect((setup.object["user"] as? [String: Any])?["role"] as? String == "admin")
            let header = try #require(setup.setCookie)
            #expect(header.contains("HttpOnly") && header.contains("SameSite=Strict"))
            let again = try await client.call(.post, "/api/v1/auth/setup", #"{"username":"thief","password":"correct horse"}"#)
            #expect(again.status == 409)
            // Secrets are bcrypt hashes, never the text.
            let owner = try #require(try await store.user(username: "owner"))
            #expect(owner.passwordHash.hasPrefix("$2b$") && !owner.passwordHash.contains("correct horse"))
            #expect(owner.pinHash?.hasPrefix("$2b$") == true)
        }
    }

    @Test func cookieSessionsNeedTheCSRFTokenForWrites() async throws {
        let (app, store) = try makeApp()
        _ = try await token(store, role: .manager, username: "mia")
        try await app.test(.router) { client in
            let login = try await client.call(.post, "/api/v1/auth/login", #"{"username":"MIA","password":"password-mia"}"#)
            #expect(login.status == 200, "\(login.text)")
            let cookie = try #require(sessionCookie(login))
            let csrf = try #require(login.object["csrfToken"] as? String)
            #expect(try await client.call(.get, "/api/v1/products", cookie: cookie).status == 200)
            let body = #"{"name":"Tea"}"#
            #expect(try await client.call(.post, "/api/v1/products", body, cookie: cookie).status == 403)
            #expect(try await client.call(.post, "/api/v1/products", body, cookie: cookie, csrf: "forged").status == 403)
            #expect(try await client.call(.post, "/api/v1/products", body, cookie: cookie, csrf: csrf).status == 201)
            // A session cookie is not an API token, and the other way round.
            #expect(try await client.call(.get, "/api/v1/products", token: cookie).status == 401)
            #expect(try await client.call(.post, "/api/v1/auth/logout", cookie: cookie, csrf: csrf).status == 204)
            #expect(try await client.call(.get, "/api/v1/products", cookie: cookie).status == 401)
        }
    }

    @Test func wrongPasswordsSlowDownThenLockOut() async throws {
        let (app, store) = try makeApp()
        _ = try await token(store, role: .staff, username: "sam")
        try await app.test(.router) { client in
            for _ in 0..<LoginThrottle.freeFailures {
                #expect(try await client.call(.post, "/api/v1/auth/login", #"{"username":"sam","password":"guess guess"}"#).status == 401)
            }
            // The right password is slowed down until the wait after the last failure is over. (The wait is 2 s; on a
            // loaded machine it may have passed before this request is read: then it signs in. The waits themselves are
            // checked without a clock in the domain's LoginThrottle tests.)
            let throttle = try await store.throttle(key: "password:user:sam")
            #expect(throttle.failures == LoginThrottle.freeFailures)
            let slowed = try await client.call(.post, "/api/v1/auth/login", #"{"username":"sam","password":"password-sam"}"#)
            let waited = Instant.now.milliseconds - throttle.lastFailureAt
            if slowed.status != 200 || waited < 2_000 {
                #expect(slowed.status == 429, "answered \(slowed.status) \(waited) ms after the last failure")
                #expect(slowed.object["code"] as? String == "slowDown")
            }
            // Ten failures lock the account out, even with the right password.
            try await store.saveThrottle(key: "password:user:sam", LoginThrottle(failures: LoginThrottle.lockoutFailures, lastFailureAt: Instant.now.milliseconds))
            try await store.saveThrottle(key: "password:ip:unknown", nil)
            let locked = try await client.call(.post, "/api/v1/auth/login", #"{"username":"sam","password":"password-sam"}"#)
            #expect(locked.object["code"] as? String == "lockedOut", "\(locked.text)")
            // Unknown users are answered like wrong passwords.
            try await store.saveThrottle(key: "password:ip:unknown", nil)
            #expect(try await client.call(.post, "/api/v1/auth/login", #"{"username":"nobody","password":"whatever1"}"#).object["code"] as? String == "wrongCredentials")
        }
    }

    @Test func rolesSeeOnlyWhatTheyMayUse() async throws {
        let (app, store) = try makeApp()
        let staff = try await token(store, role: .staff), manager = try await token(store, role: .manager), admin = try await token(store, role: .admin)
        let product = try await store.createProduct(ProductDetails(name: "Cake", salePrice: Money(minorUnits: 300), minimumSalePrice: Money(minorUnits: 250)))
        _ = try await store.postPurchase(PurchaseDraft(effectiveAt: .now, lines: [.init(productID: product.id, quantity: Quantity(10), unitCost: Money(minorUnits: 100))]))
        try await app.test(.router) { client in
            let checks: [(String, HTTPRequest.Method, String, String?, [Int])] = [
                (staff, .get, "/api/v1/products", nil, [200]),
                (staff, .get, "/api/v1/purchases", nil, [403]),
                (staff, .get, "/api/v1/suppliers", nil, [403]),
                (staff, .get, "/api/v1/reports/daily", nil, [403]),
                (staff, .get, "/api/v1/reports/low-stock", nil, [200]),
                (staff, .get, "/api/v1/settings", nil, [200]),
                (staff, .put, "/api/v1/settings", #"{"shopName":"X","currency":"EUR","timeZone":"UTC","defaultTaxRate":"0","lowStockDefault":"5","lockMinutes":5}"#, [403]),
                (staff, .post, "/api/v1/products", #"{"name":"X"}"#, [403]),
                (staff, .post, "/api/v1/sales", #"{"lines":[{"productId":\#(product.id),"quantity":"1"}]}"#, [201]),
                (staff, .post, "/api/v1/sales", #"{"lines":[{"productId":\#(product.id),"quantity":"1","unitPrice":"2.00"}]}"#, [422]),
                (staff, .get, "/api/v1/users", nil, [403]),
                (manager, .get, "/api/v1/purchases", nil, [200]),
                (manager, .get, "/api/v1/reports/daily", nil, [200]),
                (manager, .post, "/api/v1/sales", #"{"lines":[{"productId":\#(product.id),"quantity":"1","unitPrice":"2.00"}]}"#, [201]),
                (manager, .delete, "/api/v1/purchases/1", nil, [403]),
                (manager, .post, "/api/v1/import/products", "name\nX\n", [403]),
                (manager, .get, "/api/v1/audit", nil, [403]),
                (admin, .delete, "/api/v1/purchases/1", nil, [409, 422]),
                (admin, .get, "/api/v1/audit", nil, [200]),
                (admin, .get, "/api/v1/users", nil, [200]),
            ]
            for (token, method, uri, body, statuses) in checks {
                let reply = try await client.call(method, uri, body, token: token)
                #expect(statuses.contains(reply.status), "\(method) \(uri) as \(token == staff ? "staff" : token == manager ? "manager" : "admin"): \(reply.status) \(reply.text)")
            }
            let audit = try await client.call(.get, "/api/v1/audit", token: admin).array
            #expect(audit.contains { ($0["kind"] as? String) == "saleRecorded" && ($0["username"] as? String)?.hasPrefix("staff") == true })
        }
    }

    @Test func theTillLocksAndAPINUnlocksOrSwitchesUser() async throws {
        let (app, store) = try makeApp()
        _ = try await token(store, role: .staff, username: "sam")
        _ = try await token(store, role: .manager, username: "mia")
        try await app.test(.router) { client in
            let login = try await client.call(.post, "/api/v1/auth/login", #"{"username":"sam","password":"password-sam"}"#)
            let cookie = try #require(sessionCookie(login)), csrf = try #require(login.object["csrfToken"] as? String)
            #expect(try await client.call(.post, "/api/v1/auth/lock", cookie: cookie, csrf: csrf).status == 204)
            #expect(try await client.call(.get, "/api/v1/products", cookie: cookie).status == 423)
            #expect(try await client.call(.post, "/api/v1/auth/pin", #"{"username":"sam","pin":"9999"}"#, cookie: cookie, csrf: csrf).status == 401)
            #expect(try await client.call(.post, "/api/v1/auth/pin", #"{"username":"sam","pin":"12"}"#, cookie: cookie, csrf: csrf).status == 422)
            let unlocked = try await client.call(.post, "/api/v1/auth/pin", #"{"username":"sam","pin":"1234"}"#, cookie: cookie, csrf: csrf)
            #expect(unlocked.status == 200)
            #expect(try await client.call(.get, "/api/v1/products", cookie: cookie).status == 200)
            #expect(try await client.call(.get, "/api/v1/purchases", cookie: cookie).status == 403)
            // A manager switches the till to herself with her PIN.
            let switched = try await client.call(.post, "/api/v1/auth/pin", #"{"username":"mia","pin":"1234"}"#, cookie: cookie, csrf: csrf)
            #expect((switched.object["user"] as? [String: Any])?["username"] as? String == "mia")
            #expect(try await client.call(.get, "/api/v1/purchases", cookie: cookie).status == 200)
            // Idle longer than the lock time: locked.
            var settings = try await store.settings()
            settings.lockMinutes = 1
            try await store.saveSettings(settings)
            let session = try #require(try await store.session(tokenHash: Secrets.hashToken(cookie)))
            try await store.updateSession(id: session.0.id, userID: session.0.userID, lastSeenAt: Instant.now.milliseconds - 120_000, isLocked: false)
            #expect(try await client.call(.get, "/api/v1/products", cookie: cookie).status == 423)
            #expect(try await client.call(.get, "/api/v1/auth/me", cookie: cookie).object["locked"] as? Bool == true)
        }
    }

    @Test func adminsManageUsersAndTokens() async throws {
        let (app, store) = try makeApp()
        let admin = try await token(store, role: .admin, username: "root")
        try await app.test(.router) { client in
            let created = try await client.call(.post, "/api/v1/users", #"{"username":"newbie","password":"first day!","role":"staff","pin":"4321"}"#, token: admin)
            #expect(created.status == 201)
            #expect(created.object["hasPIN"] as? Bool == true)
            let duplicate = try await client.call(.post, "/api/v1/users", #"{"username":"NEWBIE","password":"first day!"}"#, token: admin)
            #expect(duplicate.status == 409 && duplicate.object["field"] as? String == "username")
            #expect(try await client.call(.post, "/api/v1/users", #"{"username":"x y","password":"first day!"}"#, token: admin).object["field"] as? String == "username")
            #expect(try await client.call(.post, "/api/v1/users", #"{"username":"boss","password":"first day!","role":"king"}"#, token: admin).object["field"] as? String == "role")
            let id = try #require(created.object["id"] as? Int)
            #expect(try await client.call(.put, "/api/v1/users/\(id)", #"{"role":"manager"}"#, token: admin).object["role"] as? String == "manager")
            let rootID = try #require(try await store.user(username: "root")).id
            let demote = try await client.call(.put, "/api/v1/users/\(rootID)", #"{"role":"staff"}"#, token: admin)
            #expect(demote.status == 409, "the last admin cannot be demoted")

            let issued = try await client.call(.post, "/api/v1/tokens", #"{"name":"stock script"}"#, token: admin)
            let secret = try #require(issued.object["token"] as? String)
            #expect(try await client.call(.get, "/api/v1/products", token: secret).status == 200)
            let listed = try await client.call(.get, "/api/v1/tokens", token: admin).array
            #expect(listed.allSatisfy { $0["token"] == nil })
            let tokenID = try #require(issued.object["id"] as? Int)
            #expect(try await client.call(.delete, "/api/v1/tokens/\(tokenID)", token: admin).status == 204)
            #expect(try await client.call(.get, "/api/v1/products", token: secret).status == 401)
            // Deactivating a user ends their sessions.
            let login = try await client.call(.post, "/api/v1/auth/login", #"{"username":"newbie","password":"first day!"}"#)
            let cookie = try #require(sessionCookie(login))
            _ = try await client.call(.put, "/api/v1/users/\(id)", #"{"active":false}"#, token: admin)
            #expect(try await client.call(.get, "/api/v1/products", cookie: cookie).status == 401)
        }
    }
}

@Suite struct BackupTests {
    @Test func backupDownloadsAConsistentCopyAndRestoreBringsItBack() async throws {
        let (app, store) = try makeApp()
        let admin = try await token(store, role: .admin, username: "boss")
        let manager = try await token(store, role: .manager)
        _ = try await store.createProduct(ProductDetails(name: "Before"))
        try await app.test(.router) { client in
            #expect(try await client.call(.get, "/api/v1/backup", token: manager).status == 403)
            let backup = try await client.execute(uri: "/api/v1/backup", method: .get, headers: [.authorization: "Bearer \(admin)"]) { $0 }
            #expect(backup.status == .ok)
            #expect(backup.headers[.contentType] == "application/zip")
            let bytes = Array(backup.body.readableBytesView)
            #expect(bytes.starts(with: [0x50, 0x4B, 0x03, 0x04]), "a ZIP of the database and the pictures")
            _ = try await store.createProduct(ProductDetails(name: "After"))
            #expect(try await store.products(ProductQuery()).total == 2)
            let refused = try await client.call(.post, "/api/v1/restore", nil, raw: Array("junk".utf8), token: admin)
            #expect(refused.status == 422 && refused.object["field"] as? String == "file")
            #expect(try await store.products(ProductQuery()).total == 2)
            let restored = try await client.call(.post, "/api/v1/restore", nil, raw: bytes, token: admin)
            #expect(restored.status == 200, "\(restored.text)")
            #expect(try await store.products(ProductQuery()).products.map(\.name) == ["Before"])
        }
    }
}

@Suite struct EventTests {
    @Test func writesPublishSaleProductAndLowStockEvents() async throws {
        let store = try InventorySQLiteRepository.inMemory()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("stockroom-events-\(UUID().uuidString)").path
        let configuration = ServerConfiguration(host: "127.0.0.1", port: 0, secrets: testSecrets, dataFolder: folder)
        let app = try buildApplication(configuration, repository: store)
        let staff = try await token(store, role: .staff)
        let product = try await store.createProduct(ProductDetails(name: "Bun", salePrice: Money(minorUnits: 100), lowStockThreshold: Quantity(3)))
        _ = try await store.postPurchase(PurchaseDraft(effectiveAt: .now, lines: [.init(productID: product.id, quantity: Quantity(5), unitCost: Money(minorUnits: 40))]))
        let stream = configuration.events.subscribe()
        try await app.test(.router) { client in
            let sale = try await client.call(.post, "/api/v1/sales", #"{"lines":[{"productId":\#(product.id),"quantity":"3"}]}"#, token: staff)
            #expect(sale.status == 201)
            let refused = try await client.call(.post, "/api/v1/sales", #"{"lines":[{"productId":\#(product.id),"quantity":"30"}]}"#, token: staff)
            #expect(refused.status == 422)
        }
        var received: [LiveEvent] = [], feed: [LiveEvent] = []
        for await event in stream {
            // The activity feed's refresh hints (only the group) come first: the sale, and Bun gone low with it.
            if event.type == "activity" { feed.append(event); continue }
            received.append(event)
            if received.count == 3 { break }
        }
        #expect(feed.map(\.data) == [#"{"group":"lowStock"}"#, #"{"group":"sales"}"#])
        #expect(received.map(\.type) == ["sale", "product", "low-stock"])
        #expect(received.last?.data.contains("\"name\":\"Bun\"") == true)
        #expect(received.last?.frame.hasPrefix("event: low-stock\ndata: {") == true)
    }
}

@Suite struct ShiftTests {
    @Test func staffClockInAndOutAndManagersSeeEveryone() async throws {
        let (app, store) = try makeApp()
        let staff = try await token(store, role: .staff, username: "sam"), manager = try await token(store, role: .manager, username: "mia")
        try await app.test(.router) { client in
            #expect(try await client.call(.post, "/api/v1/auth/clock-in", token: staff).status == 201)
            let twice = try await client.call(.post, "/api/v1/auth/clock-in", token: staff)
            #expect(twice.status == 409 && twice.object["field"] as? String == "shift")
            // The shift summary: what sam rang up while clocked in (mia's sale is not sam's).
            let tea = try await store.createProduct(ProductDetails(name: "Tea", salePrice: Money(minorUnits: 250), tracksStock: false))
            for (who, tip) in [(staff, "0.50"), (staff, "0"), (manager, "1.00")] {
                let sale = try await client.call(.post, "/api/v1/sales", #"{"lines":[{"productId":\#(tea.id),"quantity":"2"}],"tip":"\#(tip)"}"#, token: who)
                #expect(sale.status == 201, "\(sale.text)")
            }
            let out = try await client.call(.post, "/api/v1/auth/clock-out", token: staff)
            #expect(out.object["endedAt"] is String)
            #expect(out.object["salesCount"] as? Int == 2 && out.object["revenue"] as? String == "10.00" && out.object["tips"] as? String == "0.50", "\(out.text)")
            #expect(try await client.call(.post, "/api/v1/auth/clock-out", token: staff).status == 409)
            _ = try await client.call(.post, "/api/v1/auth/clock-in", token: manager)
            #expect(try await client.call(.get, "/api/v1/shifts", token: staff).array.map { $0["username"] as? String } == ["sam"])
            #expect(try await client.call(.get, "/api/v1/shifts", token: manager).array.count == 2)
        }
    }
}
