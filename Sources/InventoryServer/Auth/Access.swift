import Foundation
import HTTPTypes
import Hummingbird
import InventoryDomain
import Synchronization

/// What a route needs from its caller. Every route declares it where it is registered (``Routes``), so the
/// permission belongs to the route that matched — never to a pattern over the raw request path.
public enum Access: Sendable, Hashable, CustomStringConvertible {
    /// Anyone, signed in or not: health, the API document, first run and sign-in, product pictures, the static files
    /// and the screens (which redirect to sign-in and check the screen's own permission from ``WebPage``).
    case open
    /// Any signed-in user; `whileLocked` also from a locked till (the PIN unlock, sign-out, "who am I").
    case signedIn(whileLocked: Bool)
    /// A signed-in user whose role has the permission.
    case permission(Permission)
    /// Anyone on this machine, connected directly (a loopback address, and none of a proxy's forwarding headers), so
    /// that a local scraper needs no account; from elsewhere, as ``permission(_:)``.
    case localOr(Permission)

    /// Any signed-in user of an unlocked till or an API token.
    public static let signedIn = Access.signedIn(whileLocked: false)

    public var description: String {
        switch self {
        case .open: "open"
        case .signedIn(let whileLocked): whileLocked ? "signed in (even locked)" : "signed in"
        case .permission(let permission): "\(permission.rawValue) (\(permission.minimumRole.rawValue)+)"
        case .localOr(let permission): "this machine, or \(permission.rawValue) (\(permission.minimumRole.rawValue)+)"
        }
    }

    /// The least role that passes, nil for open routes.
    public var minimumRole: Role? {
        switch self {
        case .open: nil
        case .signedIn: .staff
        case .permission(let permission), .localOr(let permission): permission.minimumRole
        }
    }
}

/// Every route's declared access, filled as the routes are registered, keyed `"METHOD /path/{param}"`: the table the
/// role tests and the route check read.
public final class AccessTable: Sendable {
    private let entries = Mutex<[String: Access]>([:])

    public init() {}

    func record(_ method: HTTPRequest.Method, _ path: String, _ access: Access) {
        let key = "\(method.rawValue) \(path)"
        self.entries.withLock { entries in
            precondition(entries[key] == nil, "route \(key) is registered twice")
            entries[key] = access
        }
    }

    /// Every declared route and its access.
    public var all: [String: Access] { self.entries.withLock { $0 } }
}

/// Registers routes, each with its ``Access``: the only way controllers add routes, so a route cannot exist without a
/// declared permission (and the tests check that the router holds no route this table does not).
struct Routes: Sendable {
    private let group: RouterGroup<AppRequestContext>
    /// The path so far, as `/a/{b}`.
    let prefix: String
    let gate: RouteGate

    init(router: Router<AppRequestContext>, gate: RouteGate) {
        self.group = router.group("")
        self.prefix = ""
        self.gate = gate
    }

    private init(group: RouterGroup<AppRequestContext>, prefix: String, gate: RouteGate) {
        self.group = group
        self.prefix = prefix
        self.gate = gate
    }

    /// Routes under `path`.
    func group(_ path: String) -> Routes {
        Routes(group: self.group.group(RouterPath(path)), prefix: Self.join(self.prefix, path), gate: self.gate)
    }

    static func join(_ prefix: String, _ path: String) -> String {
        let parts = (prefix.split(separator: "/") + path.split(separator: "/")).map { part in
            part.hasPrefix(":") ? "{\(part.dropFirst())}" : String(part)
        }
        return "/" + parts.joined(separator: "/")
    }

    typealias Handler<Output: ResponseGenerator> = @Sendable (Request, AppRequestContext) async throws -> Output

    func on<Output: ResponseGenerator>(_ path: String, method: HTTPRequest.Method, _ access: Access, use handler: @escaping Handler<Output>) {
        self.gate.table.record(method, Self.join(self.prefix, path), access)
        let gate = self.gate
        self.group.on(RouterPath(path), method: method) { request, context in
            let context = try await gate.admit(request, context: context, access: access)
            // Whether the answer may show what things cost is decided here, once, from the caller this route admitted
            // (or, on an open route, whoever is signed in): every ``Cost`` member of the answer reads it.
            return try await CostDisclosure.$visible.withValue(CostDisclosure.visible(to: context.identity)) {
                // Whatever the route writes is audited as done by the caller it admitted (the store records each
                // command's activity itself, in the command's own transaction).
                guard let identity = context.identity else {
                    return try await handler(request, context).response(from: request, context: context)
                }
                return try await Agent.$current.withValue(Agent(identity.account)) {
                    try await handler(request, context).response(from: request, context: context)
                }
            }
        }
    }

    func get<Output: ResponseGenerator>(_ path: String, _ access: Access, use handler: @escaping Handler<Output>) {
        self.on(path, method: .get, access, use: handler)
    }
    func post<Output: ResponseGenerator>(_ path: String, _ access: Access, use handler: @escaping Handler<Output>) {
        self.on(path, method: .post, access, use: handler)
    }
    func put<Output: ResponseGenerator>(_ path: String = "", _ access: Access, use handler: @escaping Handler<Output>) {
        self.on(path, method: .put, access, use: handler)
    }
    func patch<Output: ResponseGenerator>(_ path: String = "", _ access: Access, use handler: @escaping Handler<Output>) {
        self.on(path, method: .patch, access, use: handler)
    }
    func delete<Output: ResponseGenerator>(_ path: String = "", _ access: Access, use handler: @escaping Handler<Output>) {
        self.on(path, method: .delete, access, use: handler)
    }

    // The group's own path.
    func get<Output: ResponseGenerator>(_ access: Access, use handler: @escaping Handler<Output>) { self.on("", method: .get, access, use: handler) }
    func post<Output: ResponseGenerator>(_ access: Access, use handler: @escaping Handler<Output>) { self.on("", method: .post, access, use: handler) }
}

/// Lets a request through to the route that matched, or refuses it: sign-in, the till's idle lock, the CSRF token on
/// browser changes, the route's permission.
struct RouteGate: Sendable {
    let staff: any StaffRepository
    let lockMinutes: @Sendable () async throws -> Int
    /// How long a browser session lives from sign-in, in ms, whatever its activity.
    let sessionLifetime: Int64
    let table: AccessTable

    static let unsafeMethods: Set<HTTPRequest.Method> = [.post, .put, .patch, .delete]

    /// The refusal of a route that needs a caller, to a request that names none.
    static var signInFirst: Problem {
        Problem(.unauthorized, code: .unauthenticated, title: "Sign in", detail: "sign in or send an API token first")
    }

    /// Whether a session is locked at `now` (ms): locked by hand, or a browser session idle for longer than the shop's
    /// lock time. An API token never locks.
    func isLocked(_ session: StaffSession, at now: Int64) async throws -> Bool {
        guard session.kind == .web else { return false }
        if session.isLocked { return true }
        let minutes = Int64(clamping: max(1, try await self.lockMinutes()))
        let (lockAfter, overflow) = minutes.multipliedReportingOverflow(by: 60_000)
        return !overflow && now - session.lastSeenAt > lockAfter
    }

    func admit(_ request: Request, context: AppRequestContext, access: Access) async throws -> AppRequestContext {
        let whileLocked: Bool
        let permission: Permission?
        switch access {
        case .open: return context
        case .signedIn(let locked): (whileLocked, permission) = (locked, nil)
        case .permission(let needed): (whileLocked, permission) = (false, needed)
        case .localOr(let needed):
            if Self.isDirectFromThisMachine(request, context: context) { return context }
            (whileLocked, permission) = (false, needed)
        }
        guard var identity = context.identity else {
            throw Self.signInFirst
        }
        if identity.session.kind == .web {
            let now = Instant.now.milliseconds
            let idle = now - identity.session.lastSeenAt
            let locked = try await self.isLocked(identity.session, at: now)
            if locked && !whileLocked {
                if !identity.session.isLocked {
                    try await self.staff.updateSession(id: identity.session.id, userID: identity.account.id,
                                                       lastSeenAt: identity.session.lastSeenAt, isLocked: true)
                }
                throw Problem(HTTPResponse.Status(code: 423, reasonPhrase: "Locked"), code: .locked, title: "Till locked",
                              detail: "the till is locked; enter a PIN to unlock")
            }
            if !locked && idle > 15_000 {
                try await self.staff.updateSession(id: identity.session.id, userID: identity.account.id, lastSeenAt: now, isLocked: false)
                identity.session.lastSeenAt = now
            }
            if Self.unsafeMethods.contains(request.method) {
                guard let sent = request.headers.value(AuthNames.csrfHeader), Self.constantTimeEqual(sent, identity.session.csrfToken) else {
                    throw Problem(.forbidden, code: .csrf, title: "Missing CSRF token",
                                  detail: "send the X-CSRF-Token header you got at sign-in with every change")
                }
            }
        }
        if let permission, !identity.allows(permission) {
            throw Problem(.forbidden, code: .forbidden, title: "Not allowed",
                          detail: "a \(identity.account.role.rawValue) may not do this (needs \(permission.minimumRole.rawValue))")
        }
        var context = context
        context.identity = identity
        return context
    }

    /// Headers a reverse proxy adds: a request carrying one came through a proxy, which may run on this machine for
    /// callers anywhere.
    static let forwardingHeaders = ["Forwarded", "X-Forwarded-For", "X-Real-IP"].compactMap { HTTPField.Name($0) }

    /// Whether the caller is on this machine and connected directly: a loopback address and no forwarding header.
    static func isDirectFromThisMachine(_ request: Request, context: AppRequestContext) -> Bool {
        let address = context.clientAddress
        let loopback = address == "::1" || address.hasPrefix("127.") || address.hasPrefix("::ffff:127.")
        return loopback && !Self.forwardingHeaders.contains { request.headers.contains($0) }
    }

    static func constantTimeEqual(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        guard x.count == y.count, !x.isEmpty else { return false }
        var difference: UInt8 = 0
        for index in x.indices { difference |= x[index] ^ y[index] }
        return difference == 0
    }
}
