import Foundation
import InventoryDomain
import NIOCore

/// The address clients use to reach the server, as `scheme://host[:port]`: picture links in `/api/public/get`
/// start with it. It is configured (`serve --public-url`) or derived from the listening address, never taken from
/// a request's `Host` header, which the client chooses.
public enum PublicURL {
    /// Checks and normalises a configured public URL: `http` or `https`, a host, an optional port, and nothing
    /// else (no path but `/`, no query, fragment or user name).
    /// - Returns: the URL without a trailing slash, scheme and host in lower case.
    /// - Throws: ``InventoryError`` naming `publicURL`, saying what is wrong.
    public static func parse(_ text: String) throws -> String {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        func refuse(_ reason: String) -> InventoryError {
            InventoryError(.invalidValue, field: "publicURL", "'\(text)' \(reason); write it like https://shop.example or http://192.168.1.20:8080")
        }
        guard let components = URLComponents(string: trimmed), let scheme = components.scheme?.lowercased() else {
            throw refuse("is not a URL")
        }
        guard scheme == "http" || scheme == "https" else { throw refuse("must start with http:// or https://") }
        guard var host = components.host?.lowercased(), !host.isEmpty else { throw refuse("has no host name") }
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard host.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-.:".contains($0)) }) else {
            throw refuse("has a host name with characters other than letters, digits, '-', '.' and ':'")
        }
        guard components.user == nil, components.password == nil else { throw refuse("must not contain a user name or password") }
        guard components.percentEncodedPath.isEmpty || components.percentEncodedPath == "/" else { throw refuse("must not have a path") }
        guard components.query == nil, components.fragment == nil else { throw refuse("must not have a query or fragment") }
        if let port = components.port, !(1...65_535).contains(port) { throw refuse("has a port outside 1–65535") }
        return self.format(scheme: scheme, host: host, port: components.port)
    }

    /// The public URL when none is configured: the listening address, `https` under TLS. For a wildcard address
    /// (`0.0.0.0`, `::`) it is this machine's first IPv4 address that is not loopback, else its host name, else
    /// `127.0.0.1`.
    public static func derived(host: String, port: Int, tls: Bool, machineAddress: () -> String? = PublicURL.firstNetworkAddress) -> String {
        var shown = host
        if host.isEmpty || host == "0.0.0.0" || host == "::" {
            let name = ProcessInfo.processInfo.hostName
            shown = machineAddress() ?? (name.isEmpty || name == "localhost" ? "127.0.0.1" : name)
        }
        return self.format(scheme: tls ? "https" : "http", host: shown, port: port)
    }

    /// The first IPv4 address of this machine that is not loopback, if any.
    @Sendable public static func firstNetworkAddress() -> String? {
        for device in (try? System.enumerateDevices()) ?? [] {
            if case .v4 = device.address, let ip = device.address?.ipAddress, !ip.hasPrefix("127.") { return ip }
        }
        return nil
    }

    static func format(scheme: String, host: String, port: Int?) -> String {
        let bracketed = host.contains(":") ? "[\(host)]" : host
        let isDefault = port == nil || (scheme == "http" && port == 80) || (scheme == "https" && port == 443)
        return "\(scheme)://\(bracketed)\(isDefault ? "" : ":\(port ?? 0)")"
    }
}

extension ServerConfiguration {
    /// ``publicURL`` when set, else the address derived from ``host``, ``port`` and TLS (``PublicURL/derived(host:port:tls:machineAddress:)``).
    public var resolvedPublicURL: String {
        self.publicURL ?? PublicURL.derived(host: self.host, port: self.port, tls: self.tls != nil)
    }
}
