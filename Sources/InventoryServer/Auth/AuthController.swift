import Foundation
import HTTPTypes
import Hummingbird
import InventoryDomain

/// `/api/v1/auth`, `/api/v1/users`, `/api/v1/tokens`: first run, sign-in, the till's PIN lock, staff accounts and API
/// tokens (the audit log is ``AuditController``'s).
struct AuthController<Staff: StaffRepository & DrawerRepository & SettingsRepository> {
    let staff: Staff
    let secrets: Secrets
    /// Mark the session cookie Secure (served over HTTPS).
    var secureCookies = false
    /// How long a browser session lives from sign-in, in ms.
    var sessionLifetime: Int64 = StaffSession.defaultWebLifetimeMilliseconds

    /// Shifts with what each staff member sold while clocked in.
    func summarised(_ shifts: [Shift]) async throws -> [ShiftResponse] {
        let now = Instant.now.milliseconds
        let formats = try await self.staff.formats().0
        let summaries = try await self.staff.shiftSummaries(shifts, now: now)
        return zip(shifts, summaries).map { ShiftResponse($0, summary: $1, formats, now: now) }
    }

    func addRoutes(to api: Routes) {
        let auth = api.group("auth")
        auth.get("status", .open) { _, context in
            let count = try await self.staff.userCount()
            return JSON(AuthStatusResponse(setupRequired: count == 0, signedIn: context.identity != nil, locked: context.identity?.session.isLocked ?? false,
                                           user: context.identity.map { UserResponse($0.account) }))
        }
        auth.post("setup", .open) { request, context in
            let body = try await request.decodeJSON(as: SetupRequest.self, context: context)
            try StaffAccount.validatePassword(body.password)
            if let pin = body.pin { try StaffAccount.validatePIN(pin) }
            try StaffAccount.SelfService.checkTypedAgain(body.pinAgain, matches: body.pin, field: "pinAgain")
            let account = StaffAccount(
                id: UserID(0), username: try StaffAccount.validateUsername(body.username), displayName: try StaffAccount.validateDisplayName(body.displayName ?? ""), role: .admin,
                passwordHash: try await self.secrets.hash(body.password), pinHash: try await body.pin.asyncMap { try await self.secrets.hash($0) })
            let admin = try await self.staff.createFirstAdmin(account)
            return try await self.startSession(for: admin, status: .created)
        }
        auth.post("login", .open) { request, context in
            let body = try await request.decodeJSON(as: LoginRequest.self, context: context)
            let account = try await self.checkSecret(username: body.username, secret: body.password, kind: "password", address: context.clientAddress) {
                $0.passwordHash
            }
            return try await self.startSession(for: account, status: .ok)
        }
        auth.post("logout", .signedIn(whileLocked: true)) { _, context in
            if let identity = context.identity { try await self.staff.deleteSession(id: identity.session.id) }
            var response = Response(status: .noContent)
            response.setCookie(Cookie(name: AuthNames.cookie, value: "", maxAge: 0, path: "/", secure: self.secureCookies, httpOnly: true, sameSite: .strict))
            return response
        }
        auth.get("me", .signedIn(whileLocked: true)) { _, context in
            guard let identity = context.identity else { throw Self.unauthenticated }
            return JSON(SignedInResponse(user: UserResponse(identity.account), csrfToken: identity.session.csrfToken, locked: identity.session.isLocked))
        }
        auth.post("lock", .signedIn(whileLocked: true)) { _, context in
            guard let identity = context.identity, identity.session.kind == .web else {
                throw Problem(.badRequest, code: .badRequest, title: "Not a till", detail: "only a browser session can be locked")
            }
            try await self.staff.updateSession(id: identity.session.id, userID: identity.account.id, lastSeenAt: identity.session.lastSeenAt, isLocked: true)
            return Response(status: .noContent)
        }
        auth.post("pin", .signedIn(whileLocked: true)) { request, context in
            guard let identity = context.identity, identity.session.kind == .web else { throw Self.unauthenticated }
            let body = try await request.decodeJSON(as: PINRequest.self, context: context)
            try StaffAccount.validatePIN(body.pin)
            let account = try await self.checkSecret(username: body.username, secret: body.pin, kind: "PIN", address: context.clientAddress) { $0.pinHash }
            try await self.staff.updateSession(id: identity.session.id, userID: account.id, lastSeenAt: Instant.now.milliseconds, isLocked: false)
            try await self.staff.recordAudit(.staff(.tillUnlocked, by: Agent(account),
                                                    party: account.id == identity.account.id ? nil : identity.account.username))
            return JSON(SignedInResponse(user: UserResponse(account), csrfToken: identity.session.csrfToken, locked: false))
        }

        // Your own password and PIN, each with the current one (``StaffAccount/SelfService``).
        let me = auth.group("me")
        me.put("password", .signedIn) { request, context in
            guard let identity = context.identity else { throw Self.unauthenticated }
            let body = try await request.decodeJSON(as: PasswordChangeRequest.self, context: context)
            let current = try StaffAccount.SelfService.requireCurrentPassword(body.currentPassword)
            let new = try StaffAccount.SelfService.checkNewPassword(body.newPassword)
            var account = try await self.checkOwnSecret(identity, current, kind: "password", field: "currentPassword", address: context.clientAddress) {
                $0.passwordHash
            }
            account.passwordHash = try await self.secrets.hash(new)
            let updated = try await self.staff.updateUser(account)
            // A new password ends your other sessions and API tokens (someone who knew the old one); this one stays.
            let ended = try await self.staff.deleteSessions(userID: updated.id, except: identity.session.id)
            try await self.staff.recordAudit(.staff(.sessionsEnded, by: Agent(identity.account), user: (updated.id, updated.username), count: ended))
            return JSON(PasswordChangedResponse(user: UserResponse(updated), sessionsEnded: ended))
        }
        me.put("pin", .signedIn) { request, context in
            guard let identity = context.identity else { throw Self.unauthenticated }
            let body = try await request.decodeJSON(as: PINChangeRequest.self, context: context)
            var account = try await self.staff.user(identity.account.id)
            let current = try StaffAccount.SelfService.requireCurrentPIN(body.currentPin, of: account)
            let new = try StaffAccount.SelfService.checkNewPIN(body.newPin, again: body.newPinAgain)
            if let current {
                try StaffAccount.validatePIN(current, field: "currentPin")
                account = try await self.checkOwnSecret(identity, current, kind: "PIN", field: "currentPin", address: context.clientAddress) { $0.pinHash }
            }
            account.pinHash = try await self.secrets.hash(new)
            return JSON(UserResponse(try await self.staff.updateUser(account)))
        }

        // Alerts as system notifications (``ShopAlert``): managers and admins opt in for themselves.
        me.get("alerts", .permission(.viewActivity)) { _, context in
            guard let identity = context.identity else { throw Self.unauthenticated }
            return JSON(AlertsResponse(enabled: try await self.staff.receivesAlerts(identity.account.id)))
        }
        me.put("alerts", .permission(.viewActivity)) { request, context in
            guard let identity = context.identity else { throw Self.unauthenticated }
            let body = try await request.decodeJSON(as: AlertsRequest.self, context: context)
            guard let enabled = body.enabled else { throw InventoryError(.missingValue, field: "enabled", "is required: true or false") }
            try await self.staff.setReceivesAlerts(identity.account.id, enabled)
            return JSON(AlertsResponse(enabled: try await self.staff.receivesAlerts(identity.account.id)))
        }

        auth.post("clock-in", .permission(.clockInOut)) { _, context in
            guard let identity = context.identity else { throw Self.unauthenticated }
            return JSON(try await self.summarised([try await self.staff.clockIn(identity.account.id, at: Instant.now.milliseconds)])[0], status: .created)
        }
        auth.post("clock-out", .permission(.clockInOut)) { _, context in
            guard let identity = context.identity else { throw Self.unauthenticated }
            return JSON(try await self.summarised([try await self.staff.clockOut(identity.account.id, at: Instant.now.milliseconds)])[0])
        }
        api.get("shifts", .permission(.clockInOut)) { request, context in
            guard let identity = context.identity else { throw Self.unauthenticated }
            // Staff see their own shifts; managers and admins everyone's.
            let everyone = identity.allows(.viewReports)
            let to = Instant.now.milliseconds + 86_400_000
            let days = try request.queryInt("days", default: 31, range: 1...3660)
            return JSON(try await self.summarised(try await self.staff.shifts(userID: everyone ? nil : identity.account.id,
                                                                              from: to - Int64(days) * 86_400_000 * 2, to: to)))
        }

        let users = api.group("users")
        users.get(.permission(.manageUsers)) { _, _ in JSON(try await self.staff.users().map(UserResponse.init)) }
        users.post(.permission(.manageUsers)) { request, context in
            let body = try await request.decodeJSON(as: UserRequest.self, context: context)
            guard let username = body.username else { throw InventoryError(.missingValue, field: "username", "is required") }
            guard let password = body.password else { throw InventoryError(.missingValue, field: "password", "is required") }
            try StaffAccount.validatePassword(password)
            if let pin = body.pin { try StaffAccount.validatePIN(pin) }
            try StaffAccount.SelfService.checkTypedAgain(body.pinAgain, matches: body.pin, field: "pinAgain")
            let account = StaffAccount(
                id: UserID(0), username: try StaffAccount.validateUsername(username), displayName: try StaffAccount.validateDisplayName(body.displayName ?? ""),
                role: try Self.role(body.role ?? "staff"), passwordHash: try await self.secrets.hash(password),
                pinHash: try await body.pin.asyncMap { try await self.secrets.hash($0) }, isActive: body.active ?? true,
                jobTitle: try StaffAccount.validateJobTitle(body.jobTitle ?? ""))
            return JSON(UserResponse(try await self.staff.createUser(account)), status: .created)
        }
        users.put(":id", .permission(.manageUsers)) { request, context in
            var account = try await self.staff.user(UserID(try request.id(context)))
            let body = try await request.decodeJSON(as: UserRequest.self, context: context)
            let secretChanged = body.password != nil || body.pin != nil
            if let username = body.username { account.username = try StaffAccount.validateUsername(username) }
            if let displayName = body.displayName { account.displayName = try StaffAccount.validateDisplayName(displayName) }
            if let role = body.role { account.role = try Self.role(role) }
            if let active = body.active { account.isActive = active }
            if let jobTitle = body.jobTitle { account.jobTitle = try StaffAccount.validateJobTitle(jobTitle) }
            if let password = body.password {
                try StaffAccount.validatePassword(password)
                account.passwordHash = try await self.secrets.hash(password)
            }
            try StaffAccount.SelfService.checkTypedAgain(body.pinAgain, matches: body.pin, field: "pinAgain")
            if let pin = body.pin {
                if pin.isEmpty {
                    account.pinHash = nil
                } else {
                    try StaffAccount.validatePIN(pin)
                    account.pinHash = try await self.secrets.hash(pin)
                }
            }
            let updated = try await self.staff.updateUser(account)
            if secretChanged {
                // A new password or PIN ends the user's other sessions and API tokens (a lost phone, a leaked token);
                // the admin making the change keeps the session they are using.
                let ended = try await self.staff.deleteSessions(userID: updated.id, except: context.identity?.session.id)
                if let identity = context.identity {
                    try await self.staff.recordAudit(.staff(.sessionsEnded, by: Agent(identity.account), user: (updated.id, updated.username), count: ended))
                }
            }
            return JSON(UserResponse(updated))
        }

        // An admin resets a forgotten PIN: the account has none until its owner chooses a new one (typed twice, see
        // ``StaffAccount/SelfService``); the till cannot be unlocked as them meanwhile. Audited as a change of the
        // account, and, as any new secret, it ends the user's sessions and tokens.
        users.post(":id/pin-reset", .permission(.manageUsers)) { request, context in
            var account = try await self.staff.user(UserID(try request.id(context)))
            account.pinHash = nil
            let updated = try await self.staff.updateUser(account)
            let ended = try await self.staff.deleteSessions(userID: updated.id, except: context.identity?.session.id)
            if let identity = context.identity {
                try await self.staff.recordAudit(.staff(.sessionsEnded, by: Agent(identity.account), user: (updated.id, updated.username), count: ended))
            }
            return JSON(UserResponse(updated))
        }

        let tokens = api.group("tokens")
        tokens.get(.permission(.manageTokens)) { _, _ in
            JSON(try await self.staff.sessions(kind: .api).map {
                TokenResponse(id: $0.id, name: $0.name, userId: $0.userID.rawValue, createdAt: Self.iso($0.createdAt), lastSeenAt: Self.iso($0.lastSeenAt),
                              expiresAt: $0.expiresAt.map(Self.iso), token: nil)
            })
        }
        tokens.post(.permission(.manageTokens)) { request, context in
            let body = try await request.decodeJSON(as: TokenRequest.self, context: context)
            let name = body.name.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !name.isEmpty else { throw InventoryError(.missingValue, field: "name", "is required") }
            guard TextLimit.name.violation(name) == nil, name.utf8.count <= 200, !name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
                throw InventoryError(.invalidValue, field: "name", "must be at most 200 bytes of text without control characters")
            }
            guard let identity = context.identity else { throw Self.unauthenticated }
            let owner = try await self.staff.user(body.userId.map(UserID.init(rawValue:)) ?? identity.account.id)
            guard owner.isActive else { throw InventoryError(.conflict, field: "userId", "\(owner.username) is deactivated") }
            let now = Instant.now.milliseconds
            var expiresAt: Int64?
            if let days = body.expiresInDays {
                guard (1...3660).contains(days) else { throw InventoryError(.invalidValue, field: "expiresInDays", "must be between 1 and 3660") }
                expiresAt = now + Int64(days) * 86_400_000
            }
            let token = Secrets.newToken()
            let id = try await self.staff.createSession(userID: owner.id, kind: .api, name: name, tokenHash: Secrets.hashToken(token), csrfToken: "",
                                                        expiresAt: expiresAt)
            return JSON(TokenResponse(id: id, name: name, userId: owner.id.rawValue, createdAt: Self.iso(now), lastSeenAt: Self.iso(now),
                                      expiresAt: expiresAt.map(Self.iso), token: token), status: .created)
        }
        tokens.delete(":id", .permission(.manageTokens)) { request, context in
            let id = try request.id(context)
            guard try await self.staff.sessions(kind: .api).contains(where: { $0.id == id }) else {
                throw InventoryError(.notFound, field: "id", "token \(id) does not exist")
            }
            try await self.staff.deleteSession(id: id)
            return Response(status: .noContent)
        }
    }

    static var unauthenticated: Problem { Problem(.unauthorized, code: .unauthenticated, title: "Sign in", detail: "sign in first") }

    static func iso(_ milliseconds: Int64) -> String {
        Instant(milliseconds: milliseconds).iso8601
    }

    static func role(_ text: String) throws -> Role {
        guard let role = Role(rawValue: text) else { throw InventoryError(.invalidValue, field: "role", "must be staff, manager or admin") }
        return role
    }

    /// Starts a browser session: an HttpOnly, SameSite=Strict cookie and the CSRF token for the page. The session ends
    /// after its absolute lifetime whatever its activity.
    func startSession(for account: StaffAccount, status: HTTPResponse.Status) async throws -> Response {
        let token = Secrets.newToken(), csrf = Secrets.newToken()
        let expiresAt = Instant.now.milliseconds + self.sessionLifetime
        _ = try await self.staff.createSession(userID: account.id, kind: .web, name: "browser", tokenHash: Secrets.hashToken(token), csrfToken: csrf,
                                               expiresAt: expiresAt)
        var response = try JSON(SignedInResponse(user: UserResponse(account), csrfToken: csrf, locked: false), status: status).makeResponse()
        response.setCookie(Cookie(name: AuthNames.cookie, value: token, maxAge: Int(self.sessionLifetime / 1000), path: "/", secure: self.secureCookies,
                                  httpOnly: true, sameSite: .strict))
        return response
    }

    /// Checks the signed-in user's own current password or PIN (throttled as sign-in is): a wrong one is a 400 naming
    /// `field`, not a 401, since the caller is signed in.
    func checkOwnSecret(_ identity: Identity, _ secret: String, kind: String, field: String, address: String,
                        hash: (StaffAccount) -> String?) async throws -> StaffAccount {
        do {
            return try await self.checkSecret(username: identity.account.username, secret: secret, kind: kind, address: address, hash: hash)
        } catch let problem as Problem where problem.code == .wrongCredentials {
            throw InventoryError(.invalidValue, field: field, "is not your current \(kind)")
        }
    }

    func checkSecret(username: String, secret: String, kind: String, address: String, hash: (StaffAccount) -> String?) async throws -> StaffAccount {
        try await SecretCheck(staff: self.staff, secrets: self.secrets).verify(username: username, secret: secret, kind: kind, address: address, hash: hash)
    }
}

extension Optional {
    func asyncMap<T>(_ transform: (Wrapped) async throws -> T) async rethrows -> T? {
        guard let value = self else { return nil }
        return try await transform(value)
    }
}
