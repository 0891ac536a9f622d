import Foundation
import HTTPTypes
import Hummingbird
import InventoryDomain

/// Names of the session cookie and the CSRF header.
enum AuthNames {
    /// The session cookie's name, also as bytes for the reading of `Cookie` fields
    /// (``AuthMiddleware/sessionCookie(_:)``).
    static let cookieName: StaticString = "stockroom_session"
    static let cookie = cookieName.description
    static var csrfHeader: HTTPField.Name {
        guard let name = HTTPField.Name("X-CSRF-Token") else { preconditionFailure("X-CSRF-Token is a valid header name") }
        return name
    }
    static var secFetchSite: HTTPField.Name {
        guard let name = HTTPField.Name("Sec-Fetch-Site") else { preconditionFailure("Sec-Fetch-Site is a valid header name") }
        return name
    }
    static var origin: HTTPField.Name {
        guard let name = HTTPField.Name("Origin") else { preconditionFailure("Origin is a valid header name") }
        return name
    }
}

/// The first door every request passes, before any route is chosen: refuses request targets that are not in canonical
/// form (so no spelling of a path can reach a route another way than its own), refuses cross-site browser changes,
/// and finds who is calling. It decides nothing about permissions: each route's declared ``Access`` does (``RouteGate``).
struct AuthMiddleware<Staff: StaffRepository>: RouterMiddleware {
    typealias Context = AppRequestContext
    let staff: Staff
    /// How long a browser session lives from sign-in, in ms.
    let sessionLifetime: Int64

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        if let reason = Self.nonCanonicalReason(request.head.path ?? "") {
            throw Problem(.badRequest, code: .nonCanonicalPath, title: "Malformed path", detail: reason)
        }
        if RouteGate.unsafeMethods.contains(request.method) && request.headers.value(.authorization) == nil {
            try Self.checkSameOrigin(request)
        }
        var context = context
        context.identity = try await self.identify(request)
        return try await next(request, context)
    }

    /// Whether an `Authorization` header is of the bearer scheme: it starts with "Bearer " in any case.
    static func isBearer(_ header: String) -> Bool {
        header.hasPrefix(asciiCaseInsensitive: "bearer ")
    }

    /// The session cookie's value in a request's `Cookie` fields: what Hummingbird's `request.cookies[name]?.value`
    /// answers (each field split at `;`, leading whitespace dropped, the first whose name before its first `=` is the
    /// cookie's; its value what follows the `=`s, verbatim, and none when nothing does), read from the bytes when the
    /// fields are ASCII. Hummingbird's reading parsed every attribute of the cookie into a dictionary: a sixth of a
    /// lookup by browser session.
    static func sessionCookie(_ fields: [String]) -> String? {
        var fields = fields
        // Each field's bytes are read in place (a walk over `Substring.UTF8View`s cost as much as the rest of the
        // cookie's handling: a session lookup was 9,500 instructions dearer than a token's; BENCHMARKS.md).
        for index in fields.indices where !fields[index].withUTF8({ $0.allSatisfy { $0 < 0x80 } }) {
            return Cookies(from: fields)[AuthNames.cookie]?.value
        }
        for index in fields.indices {
            switch fields[index].withUTF8({ Self.sessionCookie(ascii: $0) }) {
            case .none: continue
            case .some(let value): return value
            }
        }
        return nil
    }

    /// The session cookie in one ASCII `Cookie` field: nil when the field does not name it, `.some(nil)` when it does
    /// without a value, else its value.
    static func sessionCookie(ascii bytes: UnsafeBufferPointer<UInt8>) -> String?? {
        let semicolon = UInt8(ascii: ";"), equals = UInt8(ascii: "=")
        var start = 0
        while start < bytes.count {
            var end = start
            while end < bytes.count && bytes[end] != semicolon { end += 1 }
            var nameStart = start
            while nameStart < end && (bytes[nameStart] == 0x20 || (0x09...0x0D).contains(bytes[nameStart])) {
                nameStart += 1
            }
            var nameEnd = nameStart
            while nameEnd < end && bytes[nameEnd] != equals { nameEnd += 1 }
            if nameEnd < end && Self.isSessionCookieName(UnsafeBufferPointer(rebasing: bytes[nameStart..<nameEnd])) {
                var valueStart = nameEnd
                while valueStart < end && bytes[valueStart] == equals { valueStart += 1 }
                guard valueStart < end else { return .some(nil) }
                return .some(String(decoding: UnsafeBufferPointer(rebasing: bytes[valueStart..<end]), as: UTF8.self))
            }
            start = end + 1
        }
        return .none
    }

    /// Whether `name` is the session cookie's name, byte for byte.
    private static func isSessionCookieName(_ name: UnsafeBufferPointer<UInt8>) -> Bool {
        let expected = AuthNames.cookieName
        guard name.count == expected.utf8CodeUnitCount else { return false }
        return memcmp(name.baseAddress!, expected.utf8Start, name.count) == 0
    }

    /// Why a request target is not a canonical origin-form path, or nil when it is: it must start with one `/`, have no
    /// empty, `.` or `..` segments, no trailing `/` (but for the root), no backslash, and no percent-encoded `/`, `\`
    /// or `.` (which could become any of those after decoding).
    static func nonCanonicalReason(_ target: String) -> String? {
        // Every request asks this: an ASCII target (what clients send: other bytes are percent-encoded) is checked in
        // one pass over its bytes; the checks by Characters below, which gave a tenth of a barcode lookup's
        // instructions to splitting the path into Strings, answer the rest.
        guard target.utf8.allSatisfy({ $0 < 0x80 }) else { return Self.nonCanonicalReason(characters: target) }
        var target = target
        return target.withUTF8 { Self.nonCanonicalReason(ascii: $0) }
    }

    /// ``nonCanonicalReason(_:)`` for an ASCII target: the same answers, from its bytes. (An ASCII text's Characters
    /// are its bytes, but for "\r\n", which is neither `/`, `.` nor a byte of a percent escape.)
    static func nonCanonicalReason(ascii bytes: UnsafeBufferPointer<UInt8>) -> String? {
        let slash = UInt8(ascii: "/"), dot = UInt8(ascii: ".")
        let end = bytes.firstIndex(of: UInt8(ascii: "?")) ?? bytes.count
        guard end > 0, bytes[0] == slash else { return "the request target must be a path starting with '/'" }
        if end == 1 { return nil }
        var segmentStart = 1
        for index in 1...end where index == end || bytes[index] == slash {
            let length = index - segmentStart
            if length == 0 { return "the path has an empty segment ('//' or a trailing '/')" }
            if bytes[segmentStart] == dot && (length == 1 || (length == 2 && bytes[segmentStart + 1] == dot)) {
                return "the path has a '.' or '..' segment"
            }
            segmentStart = index + 1
        }
        let path = UnsafeBufferPointer(rebasing: bytes[..<end])
        if path.contains(UInt8(ascii: "\\")) { return "the path has a backslash" }
        var index = 0
        while let percent = path[index...].firstIndex(of: UInt8(ascii: "%")) {
            if percent + 2 < path.count {
                let second = path[percent + 2]
                let escape = (path[percent + 1], second >= UInt8(ascii: "A") && second <= UInt8(ascii: "Z") ? second | 0x20 : second)
                if escape == (UInt8(ascii: "2"), UInt8(ascii: "f")) || escape == (UInt8(ascii: "5"), UInt8(ascii: "c"))
                    || escape == (UInt8(ascii: "2"), UInt8(ascii: "e")) || escape == (UInt8(ascii: "0"), UInt8(ascii: "0")) {
                    return "the path has an encoded '/', '\\', '.' or NUL"
                }
            }
            index = percent + 1
        }
        return nil
    }

    /// ``nonCanonicalReason(_:)`` by Characters, for any target.
    static func nonCanonicalReason(characters target: String) -> String? {
        let path = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
        guard path.hasPrefix("/") else { return "the request target must be a path starting with '/'" }
        if path == "/" { return nil }
        let segments = path.dropFirst().split(separator: "/", omittingEmptySubsequences: false)
        for segment in segments {
            if segment.isEmpty { return "the path has an empty segment ('//' or a trailing '/')" }
            if segment == "." || segment == ".." { return "the path has a '.' or '..' segment" }
        }
        if path.utf8.contains(UInt8(ascii: "\\")) { return "the path has a backslash" }
        guard path.utf8.contains(UInt8(ascii: "%")) else { return nil }
        let lowered = path.lowercased()
        for encoded in ["%2f", "%5c", "%2e", "%00"] where lowered.contains(encoded) {
            return "the path has an encoded '/', '\\', '.' or NUL"
        }
        return nil
    }

    /// A browser change must come from the shop's own pages: `Sec-Fetch-Site` (sent by every current browser) must not
    /// say another site, and an `Origin` must be this server's own.
    static func checkSameOrigin(_ request: Request) throws {
        if let site = request.headers.value(AuthNames.secFetchSite)?.lowercased(), !["same-origin", "none"].contains(site) {
            throw Problem(.forbidden, code: .crossSite, title: "Cross-site request",
                          detail: "changes are accepted only from the shop's own pages (Sec-Fetch-Site: \(site))")
        }
        if let origin = request.headers.value(AuthNames.origin) {
            // HTTP/1's Host header becomes the request's authority; a Host field is read too where it did not.
            let host = (request.head.authority ?? HTTPField.Name("Host").flatMap { request.headers.value($0) } ?? "").lowercased()
            let originHost = URLComponents(string: origin).map { components -> String in
                let name = (components.host ?? "").lowercased()
                let bracketed = name.contains(":") ? "[\(name)]" : name
                return components.port.map { "\(bracketed):\($0)" } ?? bracketed
            } ?? ""
            let defaultPorts = [":80", ":443"]
            let same = !originHost.isEmpty && (originHost == host || defaultPorts.contains { host == originHost + $0 || originHost == host + $0 })
            guard same else {
                throw Problem(.forbidden, code: .crossSite, title: "Cross-site request",
                              detail: "changes are accepted only from the shop's own pages (Origin: \(origin), this server: \(host))")
            }
        }
    }

    func identify(_ request: Request) async throws -> Identity? {
        let authorization = request.headers.value(.authorization)
        var token: String?
        if let header = authorization, Self.isBearer(header) {
            token = String(header.dropFirst(7)).trimmingWhitespace(andNewlines: false)
        } else if let cookie = Self.sessionCookie(request.headers[values: .cookie]) {
            token = cookie
        }
        guard let token, !token.isEmpty, let (session, account) = try await self.staff.session(tokenHash: Secrets.hashToken(token)) else {
            return nil
        }
        guard account.isActive else { return nil }
        // A cookie must come from a web session and a bearer token from an API token.
        let isBearer = authorization != nil
        guard (session.kind == .api) == isBearer else { return nil }
        let now = Instant.now.milliseconds
        if session.isExpired(at: now, webLifetime: self.sessionLifetime) {
            try? await self.staff.deleteSession(id: session.id)
            return nil
        }
        return Identity(account: account, session: session)
    }
}
