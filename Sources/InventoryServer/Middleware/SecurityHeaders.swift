import HTTPTypes
import Hummingbird

/// Headers every answer carries so a browser treats it as exactly what it is:
/// - everything: `X-Content-Type-Options: nosniff` (a picture or a CSV is never run as a script), `Referrer-Policy`,
///   and no framing by other sites;
/// - HTML: a Content-Security-Policy that allows only the server's own scripts, styles, pictures and connections
///   (the app has no inline script or style attribute, so none is allowed);
/// - anything without its own caching rule (the API's JSON, CSV exports, backups, errors): `Cache-Control: no-store`,
///   so shop data is not left in a shared device's cache;
/// - under TLS: `Strict-Transport-Security`, so a browser that once reached the shop over HTTPS without a certificate
///   warning does not fall back to plain HTTP.
struct SecurityHeadersMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    /// Whether the server answers over HTTPS.
    let tls: Bool

    static var contentSecurityPolicy: String {
        [
            "default-src 'self'", "script-src 'self'", "style-src 'self'", "img-src 'self' data: blob:", "media-src 'self' blob:",
            "connect-src 'self'", "font-src 'self'", "worker-src 'self'", "manifest-src 'self'", "object-src 'none'",
            "base-uri 'none'", "form-action 'self'", "frame-ancestors 'none'",
        ].joined(separator: "; ")
    }

    static let names = (
        nosniff: field("X-Content-Type-Options"), referrer: field("Referrer-Policy"), frame: field("X-Frame-Options"),
        csp: field("Content-Security-Policy"), hsts: field("Strict-Transport-Security")
    )

    static func field(_ name: String) -> HTTPField.Name {
        guard let field = HTTPField.Name(name) else { preconditionFailure("\(name) is a valid header name") }
        return field
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            var response = try await next(request, context)
            self.secure(&response.headers)
            return response
        } catch let error as any HTTPResponseError {
            var response = try error.response(from: request, context: context)
            self.secure(&response.headers)
            return response
        }
    }

    /// The fields every answer gets, made once (a field made from a `String` checks every byte of its value).
    static let always = [
        HTTPField(name: names.nosniff, value: "nosniff"), HTTPField(name: names.referrer, value: "same-origin"),
        HTTPField(name: names.frame, value: "DENY"),
    ]
    static let noStore = HTTPField(name: .cacheControl, value: "no-store")
    static let csp = HTTPField(name: names.csp, value: contentSecurityPolicy)
    static let hsts = HTTPField(name: names.hsts, value: "max-age=31536000")

    func secure(_ headers: inout HTTPFields) {
        for field in Self.always { Self.set(field, in: &headers) }
        if let type = headers.value(.contentType), Self.isHTML(type) {
            Self.set(Self.csp, in: &headers)
        }
        if !headers.contains(.cacheControl) {
            headers.append(Self.noStore)
        }
        if self.tls {
            Self.set(Self.hsts, in: &headers)
        }
    }

    /// Sets `field` as the one field of its name: appended, or replacing those a handler set.
    static func set(_ field: HTTPField, in headers: inout HTTPFields) {
        if headers.contains(field.name) {
            headers[field.name] = field.value
        } else {
            headers.append(field)
        }
    }

    /// Whether a `Content-Type` is `text/html` (in any case, with or without parameters).
    static func isHTML(_ contentType: String) -> Bool {
        contentType.hasPrefix(asciiCaseInsensitive: "text/html")
    }
}
