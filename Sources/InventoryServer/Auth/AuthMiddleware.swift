import Foundation
import HTTPTypes
import Hummingbird
import InventoryDomain

/// Names of the session cookie and the CSRF header.
enum AuthNames {
    static let cookie = "stockroom_session"
    static var csrfHeader: HTTPField.Name {
        guard let name = HTTPField.Name("X-CSRF-Token") else { preconditionFailure("X-CSRF-Token is a valid header name") }
        return name
    }
}

/// Finds who is calling (bearer token or session cookie), locks idle tills, checks CSRF on cookie writes, enforces
/// the role's permission for the route, and writes every successful change to the audit log.
struct AuthMiddleware<Staff: StaffRepository>: RouterMiddleware {
    typealias Context = AppRequestContext
    let staff: Staff
    let lockMinutes: @Sendable () async throws -> Int

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var context = context
        let path = request.uri.path
        context.identity = try await self.identify(request)
        if !AccessRules.isOpen(path) && path.hasPrefix("/api/") {
            guard var identity = context.identity else {
                throw Problem(.unauthorized, code: "unauthenticated", title: "Sign in", detail: "sign in or send an API token first")
            }
            if identity.session.kind == .web {
                let now = Date().milliseconds
                let idle = now - identity.session.lastSeenAt
                let lockAfter = Int64(try await self.lockMinutes()) * 60_000
                let locked = identity.session.isLocked || idle > lockAfter
                if locked && !AccessRules.whileLocked.contains(path) {
                    if !identity.session.isLocked {
                        try await self.staff.updateSession(id: identity.session.id, userID: identity.account.id, lastSeenAt: identity.session.lastSeenAt, isLocked: true)
                    }
                    throw Problem(HTTPResponse.Status(code: 423, reasonPhrase: "Locked"), code: "locked", title: "Till locked", detail: "the till is locked; enter a PIN to unlock")
                }
                if !locked && idle > 15_000 {
                    try await self.staff.updateSession(id: identity.session.id, userID: identity.account.id, lastSeenAt: now, isLocked: false)
                    identity.session.lastSeenAt = now
                }
                if ![HTTPRequest.Method.get, .head, .options].contains(request.method) {
                    guard let sent = request.headers[AuthNames.csrfHeader], sent == identity.session.csrfToken else {
                        throw Problem(.forbidden, code: "csrf", title: "Missing CSRF token",
                                      detail: "send the X-CSRF-Token header you got at sign-in with every change")
                    }
                }
            }
            if let permission = AccessRules.permission(method: request.method, path: path), !identity.allows(permission) {
                throw Problem(.forbidden, code: "forbidden", title: "Not allowed",
                              detail: "a \(identity.account.role.rawValue) may not do this (needs \(permission.minimumRole.rawValue))")
            }
            context.identity = identity
        }
        let response = try await next(request, context)
        if let identity = context.identity, ![HTTPRequest.Method.get, .head, .options].contains(request.method), response.status.code < 400 {
            try? await self.staff.recordAudit(userID: identity.account.id, username: identity.account.username,
                                              action: "\(request.method.rawValue) \(path)", detail: "status \(response.status.code)")
        }
        return response
    }

    func identify(_ request: Request) async throws -> Identity? {
        var token: String?
        if let header = request.headers[.authorization], header.lowercased().hasPrefix("bearer ") {
            token = String(header.dropFirst(7)).trimmingCharacters(in: .whitespaces)
        } else if let cookie = request.cookies[AuthNames.cookie] {
            token = cookie.value
        }
        guard let token, !token.isEmpty, let (session, account) = try await self.staff.session(tokenHash: Secrets.hashToken(token)) else {
            return nil
        }
        guard account.isActive else { return nil }
        // A cookie must come from a web session and a bearer token from an API token.
        let isBearer = request.headers[.authorization] != nil
        guard (session.kind == .api) == isBearer else { return nil }
        return Identity(account: account, session: session)
    }
}
