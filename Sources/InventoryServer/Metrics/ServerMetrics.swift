import Hummingbird
import Metrics
import NIOCore
import Prometheus
import Synchronization

/// The server's measurements in Prometheus's text format at `GET /metrics`, served only with `serve --metrics`, and
/// then only to a caller on this machine or an admin (``Access/localOr(_:)``).
///
/// The store, the framework and the server record through the swift-metrics API; this bootstraps it with
/// swift-prometheus. What is measured:
/// - `http_server_request_duration_seconds{http_route, http_request_method, http_response_status_code}` and
///   `hb_requests_total`, per route pattern (`/api/v1/products/{id}`), from Hummingbird's `MetricsMiddleware`;
/// - the group commit (`stockroom_group_commit_writes`, `stockroom_group_commit_wait_seconds`), time in the database
///   (`stockroom_database_seconds{operation}`) and kept reads (`stockroom_cache_lookups_total{cache, result}`): see
///   the store's `StoreMetrics`;
/// - open live-event streams (`stockroom_event_listeners`; a stream the client closed counts until the server next
///   writes to it, its keep-alive comment at the latest, every 15 s).
public final class ServerMetrics: Sendable {
    let registry: PrometheusCollectorRegistry

    private init(registry: PrometheusCollectorRegistry) {
        self.registry = registry
    }

    private static let shared = Mutex<ServerMetrics?>(nil)

    /// The process's measurements. The first call bootstraps swift-metrics with a Prometheus registry (a process has
    /// one metrics backend, set once); later calls answer the same one. Call it before opening the store, whose
    /// measurements bind to the backend when it opens.
    public static func bootstrap() -> ServerMetrics {
        self.shared.withLock { shared in
            if let shared { return shared }
            let registry = PrometheusCollectorRegistry()
            var factory = PrometheusMetricsFactory(registry: registry)
            // Stockroom answers in well under a millisecond to a few seconds (an export): buckets to match.
            factory.defaultDurationHistogramBuckets = [
                .microseconds(250), .microseconds(500), .milliseconds(1), .milliseconds(2), .milliseconds(5), .milliseconds(10),
                .milliseconds(25), .milliseconds(50), .milliseconds(100), .milliseconds(250), .milliseconds(500), .seconds(1),
                .milliseconds(2500), .seconds(5), .seconds(10),
            ]
            factory.valueHistogramBuckets["stockroom_group_commit_writes"] = [1, 2, 4, 8, 16, 32, 64, 128, 256]
            factory.nameAndLabelSanitizer = { name, labels in
                (Self.renamed[name] ?? Self.prometheusName(name), labels.map { (Self.prometheusName($0.0), $0.1) })
            }
            MetricsSystem.bootstrap(factory)
            let metrics = ServerMetrics(registry: registry)
            shared = metrics
            return metrics
        }
    }

    /// Names given by the framework that Prometheus spells with their unit.
    static let renamed = ["http.server.request.duration": "http_server_request_duration_seconds"]

    /// `name` as Prometheus allows names: letters, digits and `_` (swift-metrics labels such as
    /// `http.server.request.duration` use dots).
    static func prometheusName(_ name: String) -> String {
        String(name.unicodeScalars.map { scalar in
            ("0"..."9").contains(scalar) || ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || scalar == "_" || scalar == ":"
                ? Character(scalar) : "_"
        })
    }

    /// Every measurement, in Prometheus's text format.
    func exposition() -> [UInt8] { self.registry.emitToBuffer() }

    /// Sets how many live-event streams are open.
    static func recordListeners(_ count: Int) {
        Gauge(label: "stockroom_event_listeners").record(count)
    }
}

/// `GET /metrics`.
struct MetricsController {
    let metrics: ServerMetrics

    func addRoutes(to root: Routes) {
        root.get("/metrics", .localOr(.viewMetrics)) { _, _ in
            var headers = HTTPFields()
            headers[.contentType] = "text/plain; version=0.0.4; charset=utf-8"
            headers[.cacheControl] = "no-store"
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: self.metrics.exposition())))
        }
    }
}
