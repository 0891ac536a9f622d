import Foundation
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `stockroom serve --metrics` (issue 15, point 8), a real server over real HTTP: what the group commit, the database,
/// the kept reads and the live-event streams did shows at `/metrics`, to this machine without signing in.
@Suite(.serialized) struct MetricsServeTests {
    /// The value of the sample `name` (with its labels, as printed) in a Prometheus text exposition.
    static func sample(_ text: String, _ name: String) -> Double? {
        for line in text.split(separator: "\n") where line.hasPrefix(name + " ") {
            return Double(line.dropFirst(name.count + 1))
        }
        return nil
    }

    @Test func metricsShowTheGroupCommitRoutesCachesAndListeners() async throws {
        let server = LiveServer(arguments: ["--metrics"])
        try await server.start()
        defer { server.stop() }
        // From this machine, directly: no sign-in needed; through a proxy: refused.
        let (direct, _, response) = try await server.raw("GET", "/metrics")
        #expect(direct == 200)
        #expect(response?.value(forHTTPHeaderField: "Content-Type")?.hasPrefix("text/plain") == true)
        let (proxied, _, _) = try await server.raw("GET", "/metrics", headers: ["X-Forwarded-For": "203.0.113.9"])
        #expect(proxied == 401)

        try await server.setUp()
        let product = try await server.call("POST", "/api/v1/products", #"{"name":"Espresso","salePrice":"2.50"}"#)
        let id = try #require(product.object["id"] as? Int)
        _ = try await server.call("POST", "/api/v1/purchases", #"{"lines":[{"productId":\#(id),"quantity":"100","unitCost":"0.70"}]}"#)
        let statuses = await withTaskGroup(of: Int.self) { group in
            for _ in 0..<16 {
                group.addTask {
                    (try? await server.call("POST", "/api/v1/sales", #"{"lines":[{"productId":\#(id),"quantity":"1"}],"paymentMethod":"card"}"#).status) ?? 0
                }
            }
            return await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(statuses == Array(repeating: 201, count: 16))

        let (_, body, _) = try await server.raw("GET", "/metrics")
        let text = String(decoding: body, as: UTF8.self)
        // Every write went through the group commit: at least the 16 sales, the purchase, the product, the admin and
        // its token, in no more transactions than writes, and each write's wait was measured.
        let writes = try #require(Self.sample(text, "stockroom_group_commit_writes_sum"), "\(text.prefix(3000))")
        let transactions = try #require(Self.sample(text, "stockroom_group_commit_writes_count"))
        #expect(writes >= 20)
        #expect(transactions >= 1 && transactions <= writes)
        #expect(Self.sample(text, "stockroom_group_commit_wait_seconds_count") == writes)
        #expect(Self.sample(text, #"stockroom_database_seconds_count{operation="write"}"#) == transactions)
        #expect((Self.sample(text, #"stockroom_database_seconds_count{operation="read"}"#) ?? 0) > 0)
        // Each sale looked its caller up; all but the first few found it kept.
        #expect((Self.sample(text, #"stockroom_cache_lookups_total{cache="sessions",result="hit"}"#) ?? 0) > 0)
        // The sales' latencies, under their route pattern.
        let route = #"http_server_request_duration_seconds_count{http_route="/api/v1/sales",http_request_method="POST",http_response_status_code="201"}"#
        #expect(Self.sample(text, route) == 16, "\(text.split(separator: "\n").filter { $0.contains("/api/v1/sales") })")

        // A live-event stream open is counted while it is open.
        var request = URLRequest(url: try #require(URL(string: server.base + "/api/v1/events")))
        request.setValue("Bearer \(server.token)", forHTTPHeaderField: "Authorization")
        let stream = server.session.dataTask(with: request)
        stream.resume()
        #expect(try await Self.waitForListeners(server, 1))
        // The server notices a closed stream when it next writes to it: the keep-alive comment, every 15 s.
        stream.cancel()
        #expect(try await Self.waitForListeners(server, 0, within: 60))
    }

    /// Whether `/metrics` shows `count` live-event listeners within `seconds` (a liveness bound, not a speed check).
    static func waitForListeners(_ server: LiveServer, _ count: Double, within seconds: Int = 10) async throws -> Bool {
        for _ in 0..<(seconds * 10) {
            let (_, body, _) = try await server.raw("GET", "/metrics")
            if Self.sample(String(decoding: body, as: UTF8.self), "stockroom_event_listeners") == count { return true }
            try await Task.sleep(for: .milliseconds(100))
        }
        return false
    }
}
