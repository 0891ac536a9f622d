import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import InventoryDomain
@testable import InventoryServer
import InventoryStore
import Testing

/// Every endpoint × every role: refused (403) to each role that must not use it, allowed to the others, and refused
/// (401) to anyone who is not signed in. The expected table is written out here, independently of `AccessRules`, from
/// the roles the issue and the README name; it must list exactly the documented routes, so a new route cannot slip
/// in without a decision about who may call it.
@Suite struct RoleTableTests {
    enum Access: Equatable, CustomStringConvertible {
        /// Anyone, signed in or not.
        case open
        /// This role and the roles above it.
        case atLeast(Role)

        var description: String {
            switch self {
            case .open: "open"
            case .atLeast(let role): "\(role.rawValue)+"
            }
        }
    }

    static let staff = Access.atLeast(.staff), manager = Access.atLeast(.manager), admin = Access.atLeast(.admin)

    /// Who may call each route.
    static let table: [String: Access] = [
        // Open: health, the document, first run and sign-in, product pictures, the iOS client (only with --public-api).
        "GET /health": .open, "GET /api/openapi.json": .open, "GET /images/{name}": .open,
        // Admins, and anyone on the server's own machine connected directly (only with serve --metrics).
        "GET /metrics": admin,
        "GET /api/v1/auth/status": .open, "POST /api/v1/auth/setup": .open, "POST /api/v1/auth/login": .open,
        "GET /api/public/get": .open, "POST /api/public/add": .open,
        // Staff: sell, scan, view products and stock, clock in and out, lock and switch the till.
        "GET /api/v1/auth/me": staff, "POST /api/v1/auth/logout": staff, "POST /api/v1/auth/lock": staff,
        "POST /api/v1/auth/pin": staff, "PUT /api/v1/auth/me/password": staff, "PUT /api/v1/auth/me/pin": staff,
        "POST /api/v1/auth/clock-in": staff, "POST /api/v1/auth/clock-out": staff,
        "GET /api/v1/shifts": staff, "GET /api/v1/events": staff, "GET /api/v1/settings": staff,
        "GET /api/v1/products": staff, "GET /api/v1/products/{id}": staff, "GET /api/v1/products/barcode/{code}": staff,
        "GET /api/v1/products/{id}/movements": staff, "GET /api/v1/products/{id}/price-suggestion": staff, "GET /api/v1/products/shelves": staff,
        "GET /api/v1/categories": staff, "GET /api/v1/customers": staff,
        "GET /api/v1/sales": staff, "POST /api/v1/sales": staff, "GET /api/v1/sales/{id}": staff,
        "GET /api/v1/reports/low-stock": staff, "GET /api/v1/reports/low-stock.csv": staff, "GET /api/v1/reports/expiring": staff, "POST /api/v1/barcodes/decode": staff,
        // Manager: purchases and suppliers; products, categories, customers; adjustments; reports and exports; refunds.
        "POST /api/v1/products": manager, "GET /api/v1/products/price-preview": manager, "PUT /api/v1/products/{id}": manager, "PATCH /api/v1/products/{id}": manager,
        "DELETE /api/v1/products/{id}": manager,
        "POST /api/v1/products/{id}/archive": manager, "POST /api/v1/products/{id}/restore": manager,
        "PUT /api/v1/products/{id}/image": manager, "DELETE /api/v1/products/{id}/image": manager,
        "POST /api/v1/products/{id}/pictures": manager, "DELETE /api/v1/products/{id}/pictures/{name}": manager,
        "PUT /api/v1/products/{id}/pictures/{name}/main": manager,
        "POST /api/v1/categories": manager, "PUT /api/v1/categories/{id}": manager, "DELETE /api/v1/categories/{id}": manager,
        "POST /api/v1/customers": manager, "PUT /api/v1/customers/{id}": manager, "DELETE /api/v1/customers/{id}": manager,
        "GET /api/v1/suppliers": manager, "POST /api/v1/suppliers": manager, "PUT /api/v1/suppliers/{id}": manager,
        "DELETE /api/v1/suppliers/{id}": manager,
        "GET /api/v1/reorder": manager,
        "GET /api/v1/purchases": manager, "POST /api/v1/purchases": manager, "GET /api/v1/purchases/{id}": manager,
        "PUT /api/v1/purchases/{id}": manager, "PUT /api/v1/sales/{id}": manager,
        "POST /api/v1/returns/customer": manager, "POST /api/v1/returns/supplier": manager, "POST /api/v1/adjustments": manager,
        "GET /api/v1/reports/snapshot": manager, "GET /api/v1/reports/daily": manager, "GET /api/v1/reports/daily/total": manager, "GET /api/v1/reports/taxes": manager, "GET /api/v1/reports/top": manager,
        "GET /api/v1/reports/valuation": manager, "GET /api/v1/reports/valuation/total": manager, "GET /api/v1/export/{kind}": manager,
        "GET /api/v1/reports/snapshot.csv": manager, "GET /api/v1/reports/daily.csv": manager, "GET /api/v1/reports/top.csv": manager,
        "GET /api/v1/reports/valuation.csv": manager,
        // Stocktakes: staff read count sheets and count; managers open, post and cancel them and write off expired lots.
        "GET /api/v1/stocktakes": staff, "GET /api/v1/stocktakes/{id}": staff, "POST /api/v1/stocktakes/{id}/counts": staff,
        "POST /api/v1/stocktakes": manager, "POST /api/v1/stocktakes/{id}/post": manager, "POST /api/v1/stocktakes/{id}/cancel": manager,
        "POST /api/v1/adjustments/expired-lot": manager,
        "GET /api/v1/activity": manager, "GET /api/v1/auth/me/alerts": manager, "PUT /api/v1/auth/me/alerts": manager,
        // Admin: users, tokens, settings, deleting transactions, import, audit, backup and restore.
        "DELETE /api/v1/purchases/{id}": admin, "DELETE /api/v1/sales/{id}": admin, "DELETE /api/v1/adjustments/{id}": admin,
        "DELETE /api/v1/returns/customer/{id}": admin, "DELETE /api/v1/returns/supplier/{id}": admin,
        "PUT /api/v1/settings": admin, "POST /api/v1/settings/reprice": admin, "GET /api/v1/tabs": staff, "POST /api/v1/tabs": staff, "POST /api/v1/tabs/{id}/pickup": staff, "PUT /api/v1/sales/{id}/payments/{paymentId}": staff, "GET /api/v1/drawer": staff, "GET /api/v1/customers/card/{number}": staff, "GET /api/v1/customers/{id}/standing": staff, "PUT /api/v1/customers/{id}/card": staff, "DELETE /api/v1/customers/{id}/card": manager, "POST /api/v1/drawer/open": staff, "POST /api/v1/drawer/cash": staff, "POST /api/v1/drawer/close": staff, "GET /api/v1/drawer/sessions": manager, "GET /api/v1/drawer/sessions/{id}": manager, "GET /api/v1/drawer/sessions/{id}/report.csv": manager, "GET /api/v1/reports/sold-beyond-stock": manager, "POST /api/v1/sales/{id}/stock-review": manager, "GET /api/v1/products/{id}/options": staff, "PUT /api/v1/products/{id}/options": manager, "GET /api/v1/product-options": staff, "GET /api/v1/products/{id}/recipe": staff, "PUT /api/v1/products/{id}/recipe": manager, "GET /api/v1/settings/logo": staff, "PUT /api/v1/settings/logo": admin, "DELETE /api/v1/settings/logo": admin, "POST /api/v1/import/products": admin,
        "GET /api/v1/users": admin, "POST /api/v1/users": admin, "PUT /api/v1/users/{id}": admin, "POST /api/v1/users/{id}/pin-reset": admin,
        "GET /api/v1/tokens": admin, "POST /api/v1/tokens": admin, "DELETE /api/v1/tokens/{id}": admin,
        "GET /api/v1/audit": admin, "GET /api/v1/backup": admin, "POST /api/v1/restore": admin,
        "GET /api/v1/backups": admin, "POST /api/v1/backups": admin, "GET /api/v1/backups/{name}": admin, "POST /api/v1/backups/{name}/restore": admin,
    ]

    static let rank: [Role: Int] = [.staff: 0, .manager: 1, .admin: 2]

    /// A concrete URI for a documented path (ids that do not exist, so an allowed call changes nothing).
    static func uri(_ path: String) -> String {
        path.replacingOccurrences(of: "{id}", with: "999999")
            .replacingOccurrences(of: "{code}", with: "4006381333931")
            .replacingOccurrences(of: "{kind}", with: "products")
            .replacingOccurrences(of: "{name}", with: "none.png")
    }

    @Test func theTableListsExactlyTheDocumentedRoutes() throws {
        let documented = Set(OpenAPITests.operations(try OpenAPITests.document()).keys)
        let listed = Set(Self.table.keys)
        #expect(documented.subtracting(listed).sorted() == [], "routes without a decided role")
        #expect(listed.subtracting(documented).sorted() == [], "table rows for routes that do not exist")
    }

    /// Every route the router holds was registered with a declared ``Access`` (through ``Routes``, the only way the
    /// controllers add routes): a route added any other way has no permission and fails here.
    @Test func everyRouterRouteDeclaresItsAccess() throws {
        let (router, access) = try routesAndAccess()
        let routed = Set(router.routes.map { "\($0.method.rawValue) \($0.path.description)" })
        let declared = Set(access.all.keys)
        #expect(routed.subtracting(declared).sorted() == [], "routes registered without a declared permission")
        #expect(declared.subtracting(routed).sorted() == [], "declared routes the router does not hold")
        #expect(routed.count > 80)
    }

    /// The routes' declared permissions are the roles this table (written from the README, independently) expects.
    @Test func declaredAccessIsTheExpectedTable() throws {
        let declared = try declaredAccess()
        for (route, expected) in Self.table.sorted(by: { $0.key < $1.key }) {
            let access = try #require(declared[route], "\(route) is not registered")
            switch expected {
            case .open: #expect(access == .open, "\(route) is declared \(access), expected open")
            case .atLeast(let role): #expect(access.minimumRole == role, "\(route) is declared \(access), expected \(role.rawValue)+")
            }
        }
    }

    @Test func everyRouteIsRefusedToEachRoleBelowItAndAllowedToTheRest() async throws {
        let (app, store) = try makeApp(publicAPI: true, metrics: true)
        // Driven by what the routes declare (for every documented route); the declaration is held to the expected table
        // by declaredAccessIsTheExpectedTable.
        let documented = Set(OpenAPITests.operations(try OpenAPITests.document()).keys)
        let declared: [String: Access] = try declaredAccess().filter { documented.contains($0.key) }.mapValues { declared in
            declared.minimumRole.map(Access.atLeast) ?? .open
        }
        #expect(declared.count == documented.count)
        let checked = try await app.test(.router) { client in
            var checked = 0
            for (route, access) in declared.sorted(by: { $0.key < $1.key }) {
                let parts = route.split(separator: " ", maxSplits: 1)
                let method = HTTPRequest.Method(rawValue: String(parts[0])) ?? .get
                let uri = Self.uri(String(parts[1]))
                let body: String? = [.post, .put, .patch].contains(method) ? "{}" : nil
                // The live-events stream never ends; its allowed case is covered by EventTests and the browser tests.
                let streams = uri == "/api/v1/events"

                let anonymous = try await client.call(method, uri, body)
                let garbage = try await client.call(method, uri, body, token: "not-a-token")
                if access == .open {
                    #expect(![401, 403].contains(anonymous.status), "\(route) unauthenticated: \(anonymous.status) \(anonymous.text)")
                    #expect(anonymous.status < 500, "\(route): \(anonymous.status) \(anonymous.text)")
                    checked += 1
                    continue
                }
                #expect(anonymous.status == 401, "\(route) unauthenticated: \(anonymous.status) \(anonymous.text)")
                #expect(garbage.status == 401, "\(route) with an unknown token: \(garbage.status) \(garbage.text)")
                guard case .atLeast(let minimum) = access else { continue }
                for role in [Role.staff, .manager, .admin] {
                    let allowed = (Self.rank[role] ?? 0) >= (Self.rank[minimum] ?? 0)
                    if allowed && streams { continue }
                    // Both ways in: a browser session (cookie + CSRF token) and an API token — except the PIN unlock,
                    // which only a browser till session has. A fresh account per call, so sign-out and lock calls
                    // cannot disturb the next one.
                    var replies: [(String, Reply)] = []
                    let (cookie, csrf) = try await webSession(store, role: role)
                    replies.append(("\(role.rawValue) in a browser", try await client.call(method, uri, body, cookie: cookie, csrf: csrf)))
                    if uri != "/api/v1/auth/pin" {
                        let token = try await token(store, role: role)
                        replies.append(("\(role.rawValue) with an API token", try await client.call(method, uri, body, token: token)))
                    }
                    for (who, reply) in replies {
                        if allowed {
                            #expect(![401, 403, 423].contains(reply.status), "\(route) as \(who) must be allowed: \(reply.status) \(reply.text)")
                            #expect(reply.status < 500, "\(route) as \(who): \(reply.status) \(reply.text)")
                        } else {
                            #expect(reply.status == 403, "\(route) as \(who) must be refused: \(reply.status) \(reply.text)")
                            #expect(reply.object["code"] as? String == "forbidden", "\(route) as \(who): \(reply.text)")
                        }
                        checked += 1
                    }
                }
            }
            return checked
        }
        #expect(checked >= 400)
        // Nothing was written by any of the calls (allowed ones named missing ids or sent empty bodies).
        #expect(try await store.products(ProductQuery(includeArchived: true, limit: 1)).total == 0)
        #expect(try await store.categories().isEmpty)
        #expect(try await store.sales(limit: 1, offset: 0).isEmpty)
        #expect(try await store.purchases(limit: 1, offset: 0).isEmpty)
    }
}

/// The router of a server with every optional part mounted, and its routes' declared access.
func routesAndAccess() throws -> (Router<AppRequestContext>, AccessTable) {
    let store = try InventorySQLiteRepository.inMemory()
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("stockroom-routes-\(UUID().uuidString)").path
    var configuration = ServerConfiguration(dataFolder: folder, publicAPI: true)
    configuration.metrics = ServerMetrics.bootstrap()
    let built = buildRoutes(repository: store, configuration: configuration)
    return (built.router, built.access)
}

/// Every route's declared access, keyed `"METHOD /path/{param}"`.
func declaredAccess() throws -> [String: InventoryServer.Access] { try routesAndAccess().1.all }

/// A browser session of a new user of `role`, created straight in the store: its cookie value and CSRF token.
func webSession(_ store: InventorySQLiteRepository, role: Role) async throws -> (cookie: String, csrf: String) {
    let account = try await newAccount(store, role: role)
    let cookie = Secrets.newToken(), csrf = Secrets.newToken()
    _ = try await store.createSession(userID: account.id, kind: .web, name: "browser", tokenHash: Secrets.hashToken(cookie), csrfToken: csrf,
                                      expiresAt: nil)
    return (cookie, csrf)
}
