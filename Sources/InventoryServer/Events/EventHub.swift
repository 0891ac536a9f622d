import Foundation
import Hummingbird
import InventoryDomain
import ServiceLifecycle

/// A live event for signed-in clients (Server-Sent Events on `/api/v1/events`).
public struct LiveEvent: Sendable, Equatable {
    /// `sale`, `product` or `low-stock`.
    public var type: String
    /// A JSON object.
    public var data: String

    /// The event as an SSE frame.
    public var frame: String { "event: \(self.type)\ndata: \(self.data)\n\n" }
}

/// Fans events out to every open stream of this server.
public actor EventHub {
    private var subscribers: [UUID: AsyncStream<LiveEvent>.Continuation] = [:]
    private var lastLowStock: String?

    /// Creates an empty hub.
    public init() {}

    /// A stream of every event published from now on; it ends when the caller stops iterating.
    public func subscribe() -> AsyncStream<LiveEvent> {
        let id = UUID()
        let (stream, continuation) = AsyncStream<LiveEvent>.makeStream(bufferingPolicy: .bufferingNewest(100))
        continuation.onTermination = { _ in Task { await self.remove(id) } }
        self.subscribers[id] = continuation
        return stream
    }

    /// How many streams are open.
    public var subscriberCount: Int { self.subscribers.count }

    private func remove(_ id: UUID) { self.subscribers[id] = nil }

    /// Sends an event to every stream.
    public func publish(_ event: LiveEvent) {
        for continuation in self.subscribers.values { continuation.yield(event) }
    }

    private var refreshingLowStock = false
    private var lowStockChangedAgain = false

    /// Recomputes the low-stock list after a change, off the request's path: only while someone listens, and at most
    /// one computation at a time (changes made meanwhile are covered by one more computation when it ends).
    func refreshLowStock(_ compute: @escaping @Sendable () async -> String?) {
        guard !self.subscribers.isEmpty else { return }
        guard !self.refreshingLowStock else {
            self.lowStockChangedAgain = true
            return
        }
        self.refreshingLowStock = true
        Task { await self.runLowStockRefresh(compute) }
    }

    private func runLowStockRefresh(_ compute: @Sendable () async -> String?) async {
        repeat {
            self.lowStockChangedAgain = false
            if let json = await compute() { self.publishLowStock(json) }
        } while self.lowStockChangedAgain
        self.refreshingLowStock = false
    }

    /// Publishes the low-stock list when it differs from the last one published.
    func publishLowStock(_ json: String) {
        guard json != self.lastLowStock else { return }
        self.lastLowStock = json
        self.publish(LiveEvent(type: "low-stock", data: json))
    }
}

/// Publishes `sale`, `product` and `low-stock` events after every successful change that causes them.
struct EventMiddleware<Repository: InventoryRepository>: RouterMiddleware {
    typealias Context = AppRequestContext
    let hub: EventHub
    let repository: Repository

    struct LowStockEvent: Encodable {
        var count: Int
        var items: [Item]
        struct Item: Encodable {
            var productId: Int64
            var name: String
            var quantity: String
            var status: String
        }
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let response = try await next(request, context)
        let path = request.uri.path
        // The iOS client's credential-free add changes the catalogue as much as the API does.
        guard request.method != .get, request.method != .head, response.status.code < 400,
            path.hasPrefix("/api/v1/") || path == "/api/public/add", !request.isDryRun
        else {
            return response
        }
        let stock = ["/api/v1/sales", "/api/v1/purchases", "/api/v1/adjustments", "/api/v1/returns", "/api/v1/products", "/api/v1/import",
                     "/api/public/add"]
        guard stock.contains(where: { path.hasPrefix($0) }) else { return response }
        let detail = "{\"method\":\"\(request.method.rawValue)\",\"path\":\"\(path)\"}"
        if path.hasPrefix("/api/v1/sales") { await self.hub.publish(LiveEvent(type: "sale", data: detail)) }
        await self.hub.publish(LiveEvent(type: "product", data: detail))
        let repository = self.repository
        await self.hub.refreshLowStock {
            guard let low = try? await repository.lowStock() else { return nil }
            let event = LowStockEvent(count: low.count, items: low.prefix(50).map {
                .init(productId: $0.productID.rawValue, name: $0.name, quantity: $0.quantity.decimalString, status: $0.status.rawValue)
            })
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            guard let data = try? encoder.encode(event) else { return nil }
            return String(data: data, encoding: .utf8)
        }
        return response
    }
}

/// `GET /api/v1/events`: a Server-Sent Events stream, with a comment line every 15 s to keep proxies open.
struct EventsController {
    let hub: EventHub

    func addRoutes(to api: Routes) {
        // Live events (stock changed, low stock, a sale): every signed-in screen listens.
        api.get("events", .signedIn) { _, _ in
            let events = await self.hub.subscribe()
            // One stream of frames: the hub's events and a keep-alive comment every 15 s.
            let (frames, continuation) = AsyncStream<String>.makeStream(bufferingPolicy: .bufferingNewest(100))
            let forward = Task {
                for await event in events { continuation.yield(event.frame) }
                continuation.finish()
            }
            let ping = Task {
                while !Task.isCancelled {
                    try? await Task.sleep(for: .seconds(15))
                    continuation.yield(": ping\n\n")
                }
            }
            continuation.onTermination = { _ in
                forward.cancel()
                ping.cancel()
            }
            return Response(
                status: .ok,
                headers: [.contentType: "text/event-stream", .cacheControl: "no-cache"],
                body: ResponseBody { writer in
                    try await writer.write(ByteBuffer(string: ": connected\n\n"))
                    // A graceful shutdown ends the stream, so open streams never hold the server up.
                    try await withGracefulShutdownHandler {
                        for await frame in frames { try await writer.write(ByteBuffer(string: frame)) }
                    } onGracefulShutdown: {
                        continuation.finish()
                    }
                    try await writer.finish(nil)
                })
        }
    }
}
