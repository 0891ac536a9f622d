import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import InventoryDomain
import InventoryServer
import InventoryStore
import Testing

/// The web app's server side: which screen whom, redirects, static files. The screens' behaviour is tested in a real
/// browser (tests/browser).
@Suite struct WebTests {
    struct Page {
        var status: Int
        var location: String?
        var text: String
        var etag: String?
    }

    func get(_ client: some TestClientProtocol, _ uri: String, cookie: String? = nil, ifNoneMatch: String? = nil) async throws -> Page {
        var headers: HTTPFields = [:]
        if let cookie { headers[.cookie] = "stockroom_session=\(cookie)" }
        if let ifNoneMatch { headers[.ifNoneMatch] = ifNoneMatch }
        return try await client.execute(uri: uri, method: .get, headers: headers) { response in
            Page(status: Int(response.status.code), location: response.headers[.location], text: String(buffer: response.body), etag: response.headers[.eTag])
        }
    }

    /// Signs in through the API and returns the session cookie's value.
    func signIn(_ client: some TestClientProtocol, _ username: String, _ password: String) async throws -> String {
        let reply = try await client.call(.post, "/api/v1/auth/login", #"{"username":"\#(username)","password":"\#(password)"}"#)
        let header = try #require(reply.setCookie)
        return String(header.prefix { $0 != ";" }.dropFirst("stockroom_session=".count))
    }

    @Test func firstRunThenSignInThenScreensByRole() async throws {
        let (app, store) = try makeApp()
        try await app.test(.router) { client in
            // No account yet: everything leads to the first-run screen.
            #expect(try await self.get(client, "/").location == "/setup")
            #expect(try await self.get(client, "/app/home").location == "/setup")
            #expect(try await self.get(client, "/login").location == "/setup")
            let setup = try await self.get(client, "/setup")
            #expect(setup.status == 200 && setup.text.contains("setup-form"))

            _ = try await token(store, role: .admin, username: "boss")
            _ = try await token(store, role: .staff, username: "clerk")
            #expect(try await self.get(client, "/setup").location == "/login")
            // Not signed in: to the sign-in screen, remembering where to go next.
            #expect(try await self.get(client, "/app/products?q=tea").location == "/login?next=/app/products%3Fq%3Dtea")

            let boss = try await self.signIn(client, "boss", "password-boss")
            let home = try await self.get(client, "/app/home", cookie: boss)
            #expect(home.status == 200)
            #expect(home.text.contains("Stock value") && home.text.contains("Revenue") && home.text.contains("<svg class=\"chart\""))
            #expect(home.text.contains("href=\"/app/settings\""))
            #expect(try await self.get(client, "/", cookie: boss).location == "/app/home")

            let clerk = try await self.signIn(client, "clerk", "password-clerk")
            let staffHome = try await self.get(client, "/app/home", cookie: clerk)
            #expect(staffHome.status == 200)
            #expect(!staffHome.text.contains("Revenue") && !staffHome.text.contains("href=\"/app/settings\"") && !staffHome.text.contains("href=\"/app/purchases\""))
            for screen in ["purchases", "settings", "reports", "users", "backup", "import"] {
                let refused = try await self.get(client, "/app/\(screen)", cookie: clerk)
                #expect(refused.status == 403, "\(screen)")
                #expect(refused.text.contains("Not allowed"))
            }
            #expect(try await self.get(client, "/app/no-such-screen", cookie: clerk).status == 404)
        }
    }

    @Test func dashboardShowsTheChosenDayAndRefusesABadDateInline() async throws {
        let (app, store) = try makeApp()
        _ = try await token(store, role: .admin, username: "boss")
        let settings = try await store.settings()
        let calendar = settings.calendar
        let product = try await store.createProduct(ProductDetails(name: "Flat white", salePrice: Money(minorUnits: 350)))
        let today = calendar.dayNumber(.now)
        let lastWeek = calendar.addingDays(-7, to: today)
        _ = try await store.postPurchase(PurchaseDraft(effectiveAt: calendar.startOfDay(lastWeek).adding(seconds: 3600),
                                                       lines: [.init(productID: product.id, quantity: Quantity(10), unitCost: Money(minorUnits: 200))]))
        _ = try await store.postSale(SaleDraft(effectiveAt: .now, lines: [.init(productID: product.id, quantity: Quantity(2), unitPrice: Money(minorUnits: 350))]))
        try await app.test(.router) { client in
            let boss = try await self.signIn(client, "boss", "password-boss")
            let home = try await self.get(client, "/app/home", cookie: boss)
            #expect(home.text.contains("data-money=\"7.00\""))  // revenue today: 2 × 3.50
            #expect(home.text.contains("data-money=\"16.00\""))  // stock value: 8 × 2.00
            #expect(home.text.contains("Flat white"))
            let before = try await self.get(client, "/app/home?date=\(ShopCalendar.isoDate(calendar.addingDays(-8, to: today)))", cookie: boss)
            #expect(before.text.contains("data-money=\"0.00\""))
            let bad = try await self.get(client, "/app/home?date=yesterday", cookie: boss)
            #expect(bad.status == 200 && bad.text.contains("is not a date"))
        }
    }

    @Test func staticFilesHaveETagsAndNoPathTricks() async throws {
        let (app, _) = try makeApp()
        try await app.test(.router) { client in
            let css = try await self.get(client, "/static/css/app.css")
            #expect(css.status == 200 && css.text.contains("prefers-color-scheme"))
            let etag = try #require(css.etag)
            #expect(try await self.get(client, "/static/css/app.css", ifNoneMatch: etag).status == 304)
            // A dot segment is refused before any route is chosen; an encoded one too.
            #expect(try await self.get(client, "/static/../templates/layout.mustache").status == 400)
            #expect(try await self.get(client, "/static/%2e%2e/templates/layout.mustache").status == 400)
            #expect(try await self.get(client, "/static/..%2ftemplates/layout.mustache").status == 400)
            #expect(try await self.get(client, "/static/.hidden").status == 404)
            #expect(try await self.get(client, "/static/js/nope.js").status == 404)
            let manifest = try await self.get(client, "/manifest.webmanifest")
            #expect(manifest.status == 200 && manifest.text.contains("\"display\": \"standalone\""))
        }
    }

    @Test func lockedTillSendsScreensToThePINPad() async throws {
        let (app, store) = try makeApp()
        _ = try await token(store, role: .manager, username: "mia")
        try await app.test(.router) { client in
            let mia = try await self.signIn(client, "mia", "password-mia")
            let me = try await client.call(.get, "/api/v1/auth/me", cookie: mia)
            let csrf = try #require(me.object["csrfToken"] as? String)
            #expect(try await client.call(.post, "/api/v1/auth/lock", cookie: mia, csrf: csrf).status == 204)
            #expect(try await self.get(client, "/app/products", cookie: mia).location == "/lock?next=/app/products")
            let lock = try await self.get(client, "/lock?next=https://evil.example/", cookie: mia)
            #expect(lock.status == 200 && lock.text.contains("data-next=\"/app/home\""))
            #expect(lock.text.contains("value=\"mia\""))
        }
    }

    @Test func queryParametersAreDecodedAsBrowsersEncodeThem() async throws {
        let (app, store) = try makeApp()
        let admin = try await token(store, role: .admin)
        _ = try await store.createProduct(ProductDetails(name: "Flat white", salePrice: Money(minorUnits: 350)))
        try await app.test(.router) { client in
            let caller = Caller(client: client, token: admin)
            // URLSearchParams and HTML forms write a space as "+".
            for query in ["search=flat+white", "search=flat%20white", "search=Flat+w"] {
                let reply = try await caller.call(.get, "/api/v1/products?\(query)")
                let names = (reply.object["items"] as? [[String: Any]] ?? reply.array).compactMap { $0["name"] as? String }
                #expect(names == ["Flat white"], "\(query): \(reply.text.prefix(200))")
            }
        }
    }
}
