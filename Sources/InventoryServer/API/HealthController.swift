import Foundation
import Hummingbird
import InventoryDomain
import Synchronization

/// This build's version, as `GET /health` and `stockroom --version` report it.
public enum StockroomVersion {
    public static let current = "0.14.0"
}

/// `GET /health`: whether this server can serve now (readiness: its database answers) and which version it runs.
///
/// 200 with `{"status": "ok", …}` when the database answered; 503 with `Retry-After` and `"status": "unavailable"`
/// when it did not, so a load balancer sends requests elsewhere. The database is asked at most once a second whatever
/// the rate of probes; the answer in between is the last one.
final class HealthController<Store: DatabaseHealth>: Sendable {
    let store: Store
    let instance: String
    private let last = Mutex<(at: ContinuousClock.Instant, reachable: Bool)?>(nil)

    init(store: Store, instance: String) {
        self.store = store
        self.instance = instance
    }

    struct Answer: Encodable {
        var status: String
        var database: String
        var databaseReachable: Bool
        var version: String
        var instance: String
    }

    func addRoutes(to router: Routes) {
        router.get("/health", .open) { _, _ in try await self.answer() }
    }

    func reachable() async -> Bool {
        let now = ContinuousClock.now
        if let last = self.last.withLock({ $0 }), last.at.duration(to: now) < .seconds(1) { return last.reachable }
        let reachable = await self.store.databaseReachable()
        self.last.withLock { $0 = (now, reachable) }
        return reachable
    }

    func answer() async throws -> Response {
        let reachable = await self.reachable()
        let answer = Answer(status: reachable ? "ok" : "unavailable", database: self.store.databaseKind, databaseReachable: reachable,
                            version: StockroomVersion.current, instance: self.instance)
        var headers: HTTPFields = [.contentType: "application/json", .cacheControl: "no-store"]
        if !reachable { headers[.retryAfter] = "2" }
        return Response(status: reachable ? .ok : .serviceUnavailable, headers: headers,
                        body: .init(byteBuffer: ByteBuffer(bytes: try APIJSON.encode(answer))))
    }
}
