import Foundation

/// Where a shop's PostgreSQL database is: `postgres://user[:password]@host[:port]/database[?schema=NAME&sslmode=MODE]`.
///
/// The password comes from the URL, else from a password file given apart (`--database-password-file`), else from
/// `PGPASSWORD`; it is never part of ``description`` (what logs and errors show). `schema` keeps one shop's tables in
/// a schema of their own (created when missing), so several shops, or test runs, can share one database. `sslmode`
/// is `disable`, `prefer` (the default: TLS when the server offers it) or `require`.
public struct PostgresLocation: Sendable, Hashable, CustomStringConvertible {
    public enum TLSMode: String, Sendable { case disable, prefer, require }

    public var host: String
    public var port: Int
    public var username: String
    public var password: String?
    public var database: String
    public var schema: String?
    public var tls: TLSMode

    /// Whether `text` names a PostgreSQL database rather than a data folder.
    public static func isURL(_ text: String) -> Bool {
        text.hasPrefix("postgres://") || text.hasPrefix("postgresql://")
    }

    /// Parses a URL; `passwordFile` and `environment` (for `PGPASSWORD`) are read only when the URL has no password.
    /// - Throws: ``PostgresStoreError/location(_:)`` saying what is wrong, without the password.
    public init(url text: String, passwordFile: String? = nil, environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        guard Self.isURL(text), let components = URLComponents(string: text) else {
            throw PostgresStoreError.location("the database must be a URL of the form postgres://user@host:5432/database")
        }
        guard let host = components.host, !host.isEmpty else {
            throw PostgresStoreError.location("the database URL names no host")
        }
        guard let user = components.user, !user.isEmpty else {
            throw PostgresStoreError.location("the database URL names no user (postgres://user@host/database)")
        }
        let database = String(components.path.drop(while: { $0 == "/" }))
        guard !database.isEmpty, !database.contains("/") else {
            throw PostgresStoreError.location("the database URL names no database (postgres://user@host/database)")
        }
        self.host = host
        self.port = components.port ?? 5432
        guard (1...65535).contains(self.port) else { throw PostgresStoreError.location("the database URL's port is out of range") }
        self.username = user.removingPercentEncoding ?? user
        self.database = database.removingPercentEncoding ?? database
        self.schema = nil
        self.tls = .prefer
        for item in components.queryItems ?? [] {
            switch item.name {
            case "schema":
                guard let name = item.value, Self.isPlainName(name) else {
                    throw PostgresStoreError.location("the schema must be 1 to 63 lower-case letters, digits or underscores, starting with a letter")
                }
                self.schema = name
            case "sslmode":
                guard let mode = item.value.flatMap(TLSMode.init(rawValue:)) else {
                    throw PostgresStoreError.location("sslmode must be disable, prefer or require")
                }
                self.tls = mode
            default:
                throw PostgresStoreError.location("the database URL has an unknown parameter '\(item.name)' (schema and sslmode are known)")
            }
        }
        if let password = components.password {
            self.password = password.removingPercentEncoding ?? password
        } else if let passwordFile {
            guard let contents = FileManager.default.contents(atPath: passwordFile) else {
                throw PostgresStoreError.location("cannot read the password file \(passwordFile)")
            }
            self.password = String(decoding: contents, as: UTF8.self).trimmingCharacters(in: .newlines)
        } else {
            self.password = environment["PGPASSWORD"]
        }
    }

    /// The URL without its password: what may be logged.
    public var description: String {
        var text = "postgres://\(self.username)@\(self.host):\(self.port)/\(self.database)"
        var parameters: [String] = []
        if let schema { parameters.append("schema=\(schema)") }
        if self.tls != .prefer { parameters.append("sslmode=\(self.tls.rawValue)") }
        if !parameters.isEmpty { text += "?" + parameters.joined(separator: "&") }
        return text
    }

    /// The same database with the tables in `schema`.
    public func inSchema(_ schema: String) -> PostgresLocation {
        var copy = self
        copy.schema = schema
        return copy
    }

    static func isPlainName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, ("a"..."z").contains(first), name.utf8.count <= 63 else { return false }
        return name.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "_" }
    }
}
