import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import InventoryDomain
@testable import InventoryServer
import InventoryStore
import Testing

/// Issue 9's headers, search cap and restore body handling, in-process (tests/security replays them against a real
/// `stockroom serve`).
@Suite struct HardeningTests {
    static func headers(_ client: some TestClientProtocol, _ uri: String, token: String? = nil) async throws -> (Int, HTTPFields) {
        var fields = HTTPFields()
        if let token { fields[.authorization] = "Bearer \(token)" }
        return try await client.execute(uri: uri, method: .get, headers: fields, body: nil) { (Int($0.status.code), $0.headers) }
    }

    @Test func everyAnswerCarriesTheSecurityHeaders() async throws {
        let (app, store) = try makeApp { _ in }
        let admin = try await token(store, role: .admin)
        let names = SecurityHeadersMiddleware.names
        try await app.test(.router) { client in
            let (status, setup) = try await Self.headers(client, "/login")
            #expect(status == 200)
            #expect(setup[.contentType]?.hasPrefix("text/html") == true)
            let csp = try #require(setup[names.csp])
            #expect(csp.contains("script-src 'self'") && csp.contains("style-src 'self'") && csp.contains("frame-ancestors 'none'"))
            #expect(!csp.contains("unsafe-inline") && !csp.contains("unsafe-eval"))
            #expect(setup[names.nosniff] == "nosniff")
            for uri in ["/api/v1/products", "/api/v1/export/products", "/api/v1/backup", "/api/v1/nothing-here"] {
                let (status, fields) = try await Self.headers(client, uri, token: admin)
                #expect(fields[names.nosniff] == "nosniff", "\(uri) \(status)")
                #expect(fields[.cacheControl] == "no-store", "\(uri) \(status)")
                #expect(fields[names.csp] == nil, "\(uri): CSP is for HTML")
                #expect(fields[names.hsts] == nil, "\(uri): no HSTS over plain HTTP")
            }
            let (_, anonymous) = try await Self.headers(client, "/api/v1/users")
            #expect(anonymous[.cacheControl] == "no-store" && anonymous[names.nosniff] == "nosniff")
            // Static files keep their own caching rule.
            let (_, css) = try await Self.headers(client, "/static/css/app.css")
            #expect(css[.cacheControl] == "no-cache")
        }
    }

    /// The fields are made once and appended; one a handler set itself is replaced, never repeated, and the CSP goes
    /// to HTML whatever the case of its content type.
    @Test func theSecurityHeadersReplaceAHandlersOwnAndAreNeverRepeated() {
        let names = SecurityHeadersMiddleware.names
        var fields = HTTPFields()
        fields[.contentType] = "Text/HTML; charset=utf-8"
        fields[names.frame] = "SAMEORIGIN"
        fields[.cacheControl] = "no-cache"
        SecurityHeadersMiddleware(tls: true).secure(&fields)
        #expect(fields[values: names.frame] == ["DENY"])
        #expect(fields[values: names.nosniff] == ["nosniff"] && fields[values: names.referrer] == ["same-origin"])
        #expect(fields[values: .cacheControl] == ["no-cache"], "a handler's own caching rule stays")
        #expect(fields[values: names.csp] == [SecurityHeadersMiddleware.contentSecurityPolicy])
        #expect(fields[values: names.hsts] == ["max-age=31536000"])
        SecurityHeadersMiddleware(tls: true).secure(&fields)
        #expect(fields.count == 7, "securing twice adds nothing: \(fields)")

        var json = HTTPFields()
        json[.contentType] = "application/json"
        SecurityHeadersMiddleware(tls: false).secure(&json)
        #expect(json[names.csp] == nil && json[names.hsts] == nil && json[.cacheControl] == "no-store")
        for (type, html) in [("text/html", true), ("TEXT/HTML;charset=utf-8", true), ("text/htm", false), ("text/plain", false),
                             ("text\u{0F}html", false), ("", false)] {
            #expect(SecurityHeadersMiddleware.isHTML(type) == html, "\(type)")
        }
    }

    @Test func httpsAnswersCarryStrictTransportSecurity() async throws {
        let store = try InventorySQLiteRepository.inMemory()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("stockroom-hsts-\(UUID().uuidString)").path
        var configuration = ServerConfiguration(host: "127.0.0.1", port: 0, secrets: testSecrets, dataFolder: folder)
        configuration.tls = ShopCertificate(certificatePath: "/nonexistent.pem", keyPath: "/nonexistent.key")
        let app = Application(router: buildRouter(repository: store, configuration: configuration))
        try await app.test(.router) { client in
            let (_, fields) = try await Self.headers(client, "/health")
            #expect(fields[SecurityHeadersMiddleware.names.hsts] == "max-age=31536000")
        }
    }

    @Test func aSearchOfTooManyWordsIsRefusedNotAServerError() async throws {
        let (app, store) = try makeApp { _ in }
        let manager = try await token(store, role: .manager)
        try await app.test(.router) { client in
            let many = Array(repeating: "tea", count: 999).joined(separator: "+")
            let refused = try await client.call(.get, "/api/v1/products?search=\(many)", token: manager)
            #expect(refused.status == 422, "\(refused.text)")
            #expect(refused.object["field"] as? String == "search")
            let eight = Array(repeating: "tea", count: 8).joined(separator: "+")
            #expect(try await client.call(.get, "/api/v1/products?search=\(eight)", token: manager).status == 200)
            #expect(try await client.call(.get, "/api/v1/customers?search=\(many)", token: manager).status == 422)
        }
    }

    @Test func aForgedBackupIsRefusedThroughTheAPIAndTheShopStillAnswers() async throws {
        let (app, store) = try makeApp { _ in }
        let admin = try await token(store, role: .admin)
        let before = try await store.testOnly_dump()
        try await app.test(.router) { client in
            let refused = try await client.call(.post, "/api/v1/restore", nil, raw: Array(repeating: 0x53, count: 4096), token: admin)
            #expect(refused.status == 422, "\(refused.text)")
            #expect(refused.object["field"] as? String == "file")
            let empty = try await client.call(.post, "/api/v1/restore", nil, raw: [], token: admin)
            #expect(empty.status == 422 || empty.status == 400, "\(empty.text)")
            #expect(try await client.call(.get, "/api/v1/users", token: admin).status == 200)
        }
        #expect(try await store.testOnly_dump() == before)
    }

    @Test func aRestoreBodyIsStreamedToDiskAndCutAtItsLimit() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("stream-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let parts = (0..<4).map { _ in ByteBuffer(bytes: [UInt8](repeating: 7, count: 1000)) }
        try await BackupController<InventorySQLiteRepository>.stream(RequestBody(asyncSequence: parts.async), to: path, limit: 4000)
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        #expect((attributes[.size] as? NSNumber)?.intValue == 4000)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        try FileManager.default.removeItem(atPath: path)
        do {
            try await BackupController<InventorySQLiteRepository>.stream(RequestBody(asyncSequence: parts.async), to: path, limit: 3999)
            Issue.record("a body over the limit was accepted")
        } catch let problem as Problem {
            #expect(problem.status == .contentTooLarge)
            #expect(problem.field == "file")
        }
    }

    @Test func connectionsPerAddressAreCounted() {
        let counter = ConnectionCounter()
        #expect(counter.open("10.0.0.1", limit: 2) && counter.open("10.0.0.1", limit: 2))
        #expect(!counter.open("10.0.0.1", limit: 2))
        #expect(counter.open("10.0.0.2", limit: 2))
        counter.close("10.0.0.1")
        #expect(counter.count("10.0.0.1") == 1)
        #expect(counter.open("10.0.0.1", limit: 2))
        counter.close("10.0.0.2")
        #expect(counter.count("10.0.0.2") == 0)
    }
}

extension Array where Element: Sendable {
    /// The elements as an async sequence.
    var async: AsyncStream<Element> {
        AsyncStream { continuation in
            for element in self { continuation.yield(element) }
            continuation.finish()
        }
    }
}
