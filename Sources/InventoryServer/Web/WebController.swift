import Foundation
import HTTPTypes
import Hummingbird
import InventoryDomain

/// The web app: server-rendered screens (mustache) for signed-in staff, the sign-in, first-run and lock screens,
/// and the static files. Screens read and write through the JSON API with the session cookie and CSRF token the
/// page carries; the server decides here which screens a role may open and refuses the rest.
struct WebController<Repository: ReportRepository & SettingsRepository & StaffRepository & LedgerRepository> {
    let repository: Repository
    let assets: WebAssets

    /// The screens are open routes: each one redirects to sign-in (or the lock screen) and checks the screen's own
    /// permission from ``WebPage/all``; the data they show comes through the API, which checks again.
    func addRoutes(to router: Routes) {
        router.get("/", .open) { request, context in
            try await self.entry(request, context)
        }
        router.get("/login", .open) { request, context in
            if try await self.repository.userCount() == 0 { return Self.redirect("/setup") }
            return try await self.authPage("login", title: "Sign in", request: request, context: context)
        }
        router.get("/setup", .open) { request, context in
            if try await self.repository.userCount() > 0 { return Self.redirect("/login") }
            return try await self.authPage("setup", title: "Welcome", request: request, context: context)
        }
        router.get("/lock", .open) { request, context in
            guard let identity = context.identity, identity.session.kind == .web else { return Self.redirect("/login") }
            var extra = try await self.common(identity)
            extra["next"] = Self.safeNext(request.query("next"))
            let users = try await self.repository.users().filter { $0.isActive && $0.pinHash != nil }
            extra["users"] = users.map { user in
                var entry: [String: Any] = ["username": user.username, "name": user.displayName.isEmpty ? user.username : user.displayName,
                                            "current": user.id == identity.account.id]
                if !user.jobTitle.isEmpty { entry["jobTitle"] = user.jobTitle }   // an empty string would be a true section
                return entry
            }
            return try await self.authPage("lock", title: "Locked", request: request, context: context, extra: extra)
        }
        router.get("/app", .open) { _, _ in Self.redirect("/app/home") }
        router.get("/app/:page", .open) { request, context in try await self.page(request, context) }
        router.get("/app/:page/:id", .open) { request, context in try await self.page(request, context) }
        router.get("/app/:page/:id/:action", .open) { request, context in try await self.page(request, context) }
        router.get("/static/**", .open) { request, context in
            let path = context.parameters.getCatchAll().joined(separator: "/")
            return try self.staticFile(path, request: request)
        }
        router.get("/manifest.webmanifest", .open) { request, _ in try self.staticFile("manifest.webmanifest", request: request) }
        // The service worker that shows alerts as system notifications: served from the root so its scope is the whole app.
        router.get("/sw.js", .open) { request, _ in
            var response = try self.staticFile("js/sw.js", request: request)
            response.headers[.serviceWorkerAllowed] = "/"
            return response
        }
        router.get("/favicon.ico", .open) { request, _ in try self.staticFile("icons/icon-192.png", request: request) }
    }

    // MARK: screens

    func entry(_ request: Request, _ context: AppRequestContext) async throws -> Response {
        if try await self.repository.userCount() == 0 { return Self.redirect("/setup") }
        guard context.identity?.session.kind == .web else { return Self.redirect("/login") }
        return Self.redirect("/app/home")
    }

    func page(_ request: Request, _ context: AppRequestContext) async throws -> Response {
        let name = context.parameters.get("page") ?? "home"
        let here = request.uri.path + (request.uri.query.map { "?" + $0 } ?? "")
        guard let identity = context.identity, identity.session.kind == .web else {
            if try await self.repository.userCount() == 0 { return Self.redirect("/setup") }
            return Self.redirect("/login?next=" + Self.percentEncoded(here))
        }
        if try await self.isLocked(identity) { return Self.redirect("/lock?next=" + Self.percentEncoded(here)) }
        guard let page = WebPage.named(name) else {
            return try await self.render(status: .notFound, template: "pages/missing", title: "Not found", page: nil, identity: identity, extra: [:])
        }
        guard page.allows(identity.account.role) else {
            return try await self.render(status: .forbidden, template: "pages/forbidden", title: "Not allowed", page: nil, identity: identity,
                                         extra: ["needed": page.permission?.minimumRole.rawValue ?? "", "screen": page.title])
        }
        guard self.assets.hasTemplate("pages/\(name)") else {
            return try await self.render(status: .notFound, template: "pages/missing", title: "Not found", page: nil, identity: identity, extra: [:])
        }
        var extra: [String: Any] = [:]
        if let id = context.parameters.get("id") { extra["id"] = id }
        if let action = context.parameters.get("action") { extra["action"] = action }
        if name == "home" {
            extra["dashboard"] = try await Dashboard(repository: self.repository, identity: identity).context(request)
        }
        if name == "activity" {
            // The feed's "Who" filter: every account, active or not (their past activity stays in the feed).
            extra["staff"] = try await self.repository.users().map { user -> [String: Any] in
                ["id": user.id.rawValue, "name": user.displayName.isEmpty ? user.username : "\(user.displayName) (\(user.username))"]
            }
        }
        return try await self.render(status: .ok, template: "pages/\(name)", title: page.title, page: page, identity: identity, extra: extra)
    }

    /// The values every signed-in screen gets: the shop, the user, what the role may do, the CSRF token.
    func common(_ identity: Identity) async throws -> [String: Any] {
        let settings = try await self.repository.settings()
        let role = identity.account.role
        var can: [String: Bool] = [:]
        for permission in Permission.allCases { can["\(permission)"] = role.allows(permission) }
        // Who is signed in, as the frame shows them: name, role, initials and job title (left out when empty: an empty
        // string would be a true section).
        var user: [String: Any] = ["id": identity.account.id.rawValue, "username": identity.account.username,
                                   "name": identity.account.displayName.isEmpty ? identity.account.username : identity.account.displayName,
                                   "role": role.rawValue, "initials": identity.account.initials]
        if !identity.account.jobTitle.isEmpty { user["jobTitle"] = identity.account.jobTitle }
        // Whether this page shows alerts as system notifications (a manager or admin who opted in).
        user["alerts"] = ShopAlert.mayReceive(role) ? try await self.repository.receivesAlerts(identity.account.id) : false
        return [
            "shop": ["name": settings.shopName, "currency": settings.currency.code, "minorUnits": settings.currency.minorUnits,
                     "timeZone": settings.timeZoneIdentifier, "lockMinutes": settings.lockMinutes,
                     "defaultTaxRate": settings.defaultTaxRate.decimalString,
                     "lowStockDefault": settings.lowStockDefault.decimalString, "address": settings.address, "taxId": settings.taxID,
                     "receiptFooter": settings.receiptFooter, "pricesIncludeTax": settings.pricesIncludeTax ? "true" : "false",
                     "logo": try await self.repository.shopLogoVersion().map { LogoResponse.url(version: $0) } ?? ""] as [String: Any],
            "user": user,
            "can": can,
            "csrf": identity.session.csrfToken,
        ]
    }

    func render(status: HTTPResponse.Status, template: String, title: String, page: WebPage?, identity: Identity,
                extra: [String: Any]) async throws -> Response {
        var values = try await self.common(identity)
        for (key, value) in extra { values[key] = value }
        let role = identity.account.role
        let visible = WebPage.all.filter { $0.place != .hidden && $0.allows(role) }
        func item(_ entry: WebPage) -> [String: Any] {
            ["name": entry.name, "title": entry.title, "href": "/app/\(entry.name)", "icon": entry.icon,
             "current": entry.name == page?.name || (entry.name == "more" && page?.place == .menu)]
        }
        values["nav"] = visible.map(item)
        // The phone's tab bar: the role's tab screens, then "More" for everything else.
        values["tabs"] = (visible.filter { $0.place == .tab } + (WebPage.named("more").map { [$0] } ?? [])).map(item)
        values["more"] = visible.filter { $0.place == .menu }.map(item)
        values["title"] = title
        values["page"] = page?.name ?? "none"
        if let page, self.assets.file("js/pages/\(page.name).js") != nil { values["script"] = page.name }
        values["content"] = try self.assets.render(values, template: template)
        return Self.html(try self.assets.render(values, template: "layout"), status: status)
    }

    func authPage(_ name: String, title: String, request: Request, context: AppRequestContext, extra: [String: Any] = [:]) async throws -> Response {
        var values = extra
        let settings = try await self.repository.settings()
        values["shop"] = ["name": settings.shopName] as [String: Any]
        values["title"] = title
        values["page"] = name
        values["next"] = values["next"] ?? Self.safeNext(request.query("next"))
        values["content"] = try self.assets.render(values, template: "auth/\(name)")
        return Self.html(try self.assets.render(values, template: "auth/layout"), status: .ok)
    }

    /// Whether the till is locked (by hand or after the idle time); page views count as activity otherwise.
    func isLocked(_ identity: Identity) async throws -> Bool {
        let now = Instant.now.milliseconds
        let idle = now - identity.session.lastSeenAt
        let lockAfter = Int64(try await self.repository.settings().lockMinutes) * 60_000
        if identity.session.isLocked { return true }
        if idle > lockAfter {
            try await self.repository.updateSession(id: identity.session.id, userID: identity.account.id, lastSeenAt: identity.session.lastSeenAt, isLocked: true)
            return true
        }
        if idle > 15_000 {
            try await self.repository.updateSession(id: identity.session.id, userID: identity.account.id, lastSeenAt: now, isLocked: false)
        }
        return false
    }

    // MARK: files and responses

    func staticFile(_ path: String, request: Request) throws -> Response {
        guard let file = self.assets.file(path) else {
            return Response(status: .notFound, headers: [.contentType: "text/plain; charset=utf-8"], body: .init(byteBuffer: ByteBuffer(string: "not found")))
        }
        // Revalidated on each use (cheap with the ETag), so a new version shows at once after an update.
        var headers: HTTPFields = [.eTag: file.etag, .cacheControl: "no-cache"]
        if request.headers.value(.ifNoneMatch) == file.etag { return Response(status: .notModified, headers: headers) }
        headers[.contentType] = file.contentType
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: file.bytes)))
    }

    static func html(_ text: String, status: HTTPResponse.Status) -> Response {
        Response(status: status, headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-store",
                                           .xContentTypeOptions: "nosniff", .referrerPolicy: "same-origin", .xFrameOptions: "DENY"],
                 body: .init(byteBuffer: ByteBuffer(string: text)))
    }

    static func redirect(_ location: String) -> Response {
        Response(status: .seeOther, headers: [.location: location, .cacheControl: "no-store"])
    }

    /// Only a local path may be a "next" target (no open redirects).
    static func safeNext(_ next: String?) -> String {
        guard let next, next.hasPrefix("/app"), !next.hasPrefix("//"), !next.contains("\\") else { return "/app/home" }
        return next
    }

    static func percentEncoded(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "/-_.~"))) ?? "/app/home"
    }
}

extension HTTPField.Name {
    static var xFrameOptions: Self {
        guard let name = Self("X-Frame-Options") else { preconditionFailure("X-Frame-Options is a valid header name") }
        return name
    }
    static var serviceWorkerAllowed: Self {
        guard let name = Self("Service-Worker-Allowed") else { preconditionFailure("Service-Worker-Allowed is a valid header name") }
        return name
    }
    static var referrerPolicy: Self {
        guard let name = Self("Referrer-Policy") else { preconditionFailure("Referrer-Policy is a valid header name") }
        return name
    }
}
