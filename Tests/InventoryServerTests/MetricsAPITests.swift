import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import InventoryDomain
@testable import InventoryServer
import InventoryStore
import Testing

/// `GET /metrics` (issue 15, point 8): off unless asked for; then for admins, or a caller on this machine connected
/// directly, never through a proxy; the figures are per route pattern.
@Suite struct MetricsAPITests {
    @Test func metricsAreNotServedUnlessAskedFor() async throws {
        let (app, store) = try makeApp()
        let admin = try await token(store, role: .admin)
        try await app.test(.live) { client in
            let asAdmin = try await client.call(.get, "/metrics", token: admin)
            let direct = try await client.call(.get, "/metrics")
            #expect(asAdmin.status == 404)
            #expect(direct.status == 404, "not even from this machine")
        }
    }

    @Test func onlyAdminsMayReadMetricsFromElsewhere() async throws {
        let (app, store) = try makeApp(metrics: true)
        let admin = try await token(store, role: .admin), manager = try await token(store, role: .manager)
        // The router test client has no network address: the caller is not on this machine.
        try await app.test(.router) { client in
            let anonymous = try await client.call(.get, "/metrics")
            #expect(anonymous.status == 401)
            let refused = try await client.call(.get, "/metrics", token: manager)
            #expect(refused.status == 403 && refused.object["code"] as? String == "forbidden", "\(refused.text)")
            _ = try await client.call(.get, "/api/v1/products/12345", token: admin)
            let answer = try await client.call(.get, "/metrics", token: admin)
            #expect(answer.status == 200)
            #expect(answer.contentType?.hasPrefix("text/plain; version=0.0.4") == true)
            // One histogram per route pattern, not per URL.
            #expect(answer.text.contains(#"http_server_request_duration_seconds_bucket{http_route="/api/v1/products/{id}""#), "\(answer.text.prefix(2000))")
            #expect(!answer.text.contains("12345"))
            // The store's measurements: the product's read, the caller's session looked up (and kept).
            #expect(answer.text.contains(#"stockroom_database_seconds_count{operation="read"}"#))
            #expect(answer.text.contains(#"stockroom_cache_lookups_total{cache="sessions",result="hit"}"#))
        }
    }

    @Test func aCallerOnThisMachineNeedsNoSignInUnlessItCameThroughAProxy() async throws {
        let (app, _) = try makeApp(metrics: true)
        try await app.test(.live) { client in
            let direct = try await client.call(.get, "/metrics")
            #expect(direct.status == 200, "\(direct.text.prefix(300))")
            #expect(direct.text.contains("# TYPE"))
            for (name, value) in [("X-Forwarded-For", "203.0.113.9"), ("Forwarded", "for=203.0.113.9"), ("X-Real-IP", "203.0.113.9")] {
                let field = try #require(HTTPField.Name(name))
                let status = try await client.execute(uri: "/metrics", method: .get, headers: [field: value]) { Int($0.status.code) }
                #expect(status == 401, "a request through a proxy (\(name)) is not local")
            }
        }
    }

    @Test func prometheusNamesAreSanitised() {
        #expect(ServerMetrics.prometheusName("http.server.request.duration") == "http_server_request_duration")
        #expect(ServerMetrics.prometheusName("stockroom_cache:hits-2") == "stockroom_cache:hits_2")
    }
}
