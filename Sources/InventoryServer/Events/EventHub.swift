import Foundation
import Hummingbird
import InventoryDomain
import ServiceLifecycle
import Synchronization

/// A live event for signed-in clients (Server-Sent Events on `/api/v1/events`).
public struct LiveEvent: Sendable, Equatable {
    /// `sale`, `product`, `low-stock`, `activity`, `alert` or `resync`.
    public var type: String
    /// A JSON object.
    public var data: String

    /// The event as an SSE frame.
    public var frame: String { "event: \(self.type)\ndata: \(self.data)\n\n" }
}

/// Fans events out to every open stream of this server.
///
/// The events come from the store: ``follow(_:)`` observes its ``ActivityFeed``, so every committed write — through
/// the v1 API, `/api/public/add`, an import, or anything else in this process — publishes what it changed, and a
/// refused write or a dry run, which commit nothing, publish nothing. An activity that changed sales publishes `sale`;
/// one that changed products or their stock publishes `product` and refreshes the `low-stock` list. Both carry
/// `{"kind", "record": {"kind", "id"}, "productIds"}`. One that belongs in the activity feed publishes
/// `activity` with only `{"group"}` (the feed screen then fetches the page again through its own permission).
public final class EventHub: Sendable {
    private struct State {
        var subscribers: [UUID: AsyncStream<LiveEvent>.Continuation] = [:]
        /// The streams of managers and admins who opted in to alerts (``ShopAlert``): only they get `alert` events.
        var alerted: Set<UUID> = []
        var lastLowStock: String?
        var refreshingLowStock = false
        var lowStockChangedAgain = false
        /// The followed store's low-stock list as the `low-stock` event's JSON.
        var lowStock: (@Sendable () async -> String?)?
        var following: ActivityFeed.Observation?
        var followed: ObjectIdentifier?
    }
    private let state = Mutex(State())

    /// Creates an empty hub.
    public init() {}

    /// Publishes the activities a store commits from now on (again for the same store changes nothing; another store
    /// replaces it). The hub holds the store; the store's feed holds the hub only weakly.
    public func follow<Store: ActivitySource & ReportRepository>(_ store: Store) {
        let feed = store.activityFeed
        let already = self.state.withLock { $0.followed == ObjectIdentifier(feed) }
        guard !already else { return }
        let observation = feed.observe(
            { [weak self] activities in self?.receive(activities) }, missed: { [weak self] in self?.publishResync() })
        self.state.withLock { state in
            state.following = observation
            state.followed = ObjectIdentifier(feed)
            state.lowStock = { await Self.lowStockJSON(store) }
        }
    }

    /// A stream of every event published from now on; it ends when the caller stops iterating. With `alerts`, it
    /// also carries the `alert` events (for a manager or admin who opted in, decided by the caller when it subscribes).
    ///
    /// Unbounded: its consumer (`/events` forwarding to ``LiveFrames``) never waits, so events do not pile up here;
    /// the bound that a slow client meets is its ``LiveFrames``', which tells the client when it dropped anything.
    public func subscribe(alerts: Bool = false) -> AsyncStream<LiveEvent> {
        let id = UUID()
        let (stream, continuation) = AsyncStream<LiveEvent>.makeStream(bufferingPolicy: .unbounded)
        continuation.onTermination = { [weak self] _ in
            guard let self else { return }
            ServerMetrics.recordListeners(self.state.withLock { state in
                state.subscribers.removeValue(forKey: id)
                state.alerted.remove(id)
                return state.subscribers.count
            })
        }
        ServerMetrics.recordListeners(self.state.withLock { state in
            state.subscribers[id] = continuation
            if alerts { state.alerted.insert(id) }
            return state.subscribers.count
        })
        return stream
    }

    /// Sends an `alert` event to the streams that receive alerts only.
    public func publishAlert(_ event: LiveEvent) {
        let streams = self.state.withLock { state in state.alerted.compactMap { state.subscribers[$0] } }
        for continuation in streams { continuation.yield(event) }
    }

    /// What an `alert` event says: the notification's title, text and the screen a click opens; `tag` is the same for
    /// the same alert, so two open pages show one notification.
    struct AlertEvent: Encodable {
        var tag: String
        var kind: String
        var title: String
        var body: String
        var url: String

        init(_ alert: ShopAlert, of activity: ShopActivity) {
            self.tag = "\(alert.kind.rawValue)-\(activity.at.milliseconds)-\(activity.record?.id ?? 0)"
            self.kind = alert.kind.rawValue
            self.title = alert.title
            self.body = alert.body
            self.url = alert.path
        }
    }

    /// How many streams are open.
    public var subscriberCount: Int { self.state.withLock { $0.subscribers.count } }

    /// Sends an event to every stream.
    public func publish(_ event: LiveEvent) {
        for continuation in self.state.withLock({ Array($0.subscribers.values) }) { continuation.yield(event) }
    }

    /// The event that tells every screen to read again what it shows: sent when the store says activities may have
    /// been committed without reaching it (``ActivityFeed/publishMissed()``). The low-stock list is computed again.
    static let resync = LiveEvent(type: "resync", data: "{}")

    func publishResync() {
        self.publish(Self.resync)
        self.refreshLowStock()
    }

    /// What a live event says about an activity.
    struct ActivityEvent: Encodable {
        var kind: String
        var record: Record?
        var productIds: [Int64]
        struct Record: Encodable {
            var kind: String
            var id: Int64
        }

        init(_ activity: ShopActivity) {
            self.kind = activity.kind.rawValue
            self.record = activity.record.map { Record(kind: $0.kind.rawValue, id: $0.id) }
            self.productIds = activity.productIDs.map(\.rawValue)
        }
    }

    /// Turns committed activities into `sale` and `product` events and, after a product change, a fresh low-stock list.
    func receive(_ activities: [ShopActivity]) {
        // Nobody listens: nothing to tell (a stream opened later starts from the screens' own reads).
        guard self.subscriberCount > 0 else { return }
        var productsChanged = false
        // The activity feed refreshes on `activity`; the event names only the group, since every signed-in stream
        // receives it and the feed itself is for managers.
        for group in Set(activities.compactMap(\.feedGroup)).sorted(by: { $0.rawValue < $1.rawValue }) {
            self.publish(LiveEvent(type: "activity", data: "{\"group\":\"\(group.rawValue)\"}"))
        }
        for activity in activities {
            guard let alert = activity.alert, let data = Self.json(AlertEvent(alert, of: activity)) else { continue }
            self.publishAlert(LiveEvent(type: "alert", data: data))
        }
        for activity in activities where activity.kind.changesSales || activity.kind.changesProducts {
            guard let data = Self.json(ActivityEvent(activity)) else { continue }
            if activity.kind.changesSales { self.publish(LiveEvent(type: "sale", data: data)) }
            if activity.kind.changesProducts {
                self.publish(LiveEvent(type: "product", data: data))
                productsChanged = true
            }
        }
        if productsChanged { self.refreshLowStock() }
    }

    /// Recomputes the low-stock list after a change, off the writer's path: only while someone listens, and at most
    /// one computation at a time (changes made meanwhile are covered by one more computation when it ends).
    func refreshLowStock() {
        let start = self.state.withLock { state -> Bool in
            guard !state.subscribers.isEmpty, state.lowStock != nil else { return false }
            guard !state.refreshingLowStock else {
                state.lowStockChangedAgain = true
                return false
            }
            state.refreshingLowStock = true
            return true
        }
        if start { Task { await self.runLowStockRefresh() } }
    }

    private func runLowStockRefresh() async {
        while true {
            let compute = self.state.withLock { state in
                state.lowStockChangedAgain = false
                return state.lowStock
            }
            if let json = await compute?() { self.publishLowStock(json) }
            let again = self.state.withLock { state in
                if state.lowStockChangedAgain { return true }
                state.refreshingLowStock = false
                return false
            }
            if !again { return }
        }
    }

    /// Publishes the low-stock list when it differs from the last one published.
    func publishLowStock(_ json: String) {
        let changed = self.state.withLock { state in
            guard json != state.lastLowStock else { return false }
            state.lastLowStock = json
            return true
        }
        if changed { self.publish(LiveEvent(type: "low-stock", data: json)) }
    }

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

    static func lowStockJSON(_ store: some ReportRepository) async -> String? {
        guard let low = try? await store.lowStock() else { return nil }
        return self.json(LowStockEvent(count: low.count, items: low.prefix(50).map {
            .init(productId: $0.productID.rawValue, name: $0.name, quantity: $0.quantity.decimalString, status: $0.status.rawValue)
        }))
    }

    /// An event's data, written as the API writes its answers (``APIJSON``).
    static func json(_ value: some Encodable) -> String? {
        (try? APIJSON.encode(value)).map { String(decoding: $0, as: UTF8.self) }
    }
}

/// `GET /api/v1/events`: a Server-Sent Events stream, with a comment line every 15 s to keep proxies open.
///
/// A stream is admitted once, when it opens, but lasts as long as the page: every second it checks that the request's
/// credentials still name whom it was opened for (``goesOn(opened:alerts:now:alertsNow:)``), and ends when they do not
/// — signed out, the session or token revoked, the account deactivated or given another role, the till locked or
/// unlocked by someone else, alerts turned on or off. The browser's `EventSource` then connects again, as whoever is
/// signed in by then, or is refused.
struct EventsController {
    let hub: EventHub
    /// Whether a signed-in caller's stream carries alerts: a manager or admin who opted in.
    let receivesAlerts: @Sendable (Identity) async -> Bool
    /// Who the request's credentials name now and whether their till is locked (nil: nobody, or it could not be read).
    let caller: @Sendable (Request) async -> (identity: Identity, locked: Bool)?

    /// Whether a stream opened for `opened`, carrying alerts or not, may go on now that the request's credentials name
    /// `now` (nil: nobody): the same session of the same account, with the same role, not locked, and the same choice
    /// of alerts.
    static func goesOn(opened: Identity, alerts: Bool, now: (identity: Identity, locked: Bool)?, alertsNow: Bool) -> Bool {
        guard let now, !now.locked else { return false }
        return now.identity.session.id == opened.session.id && now.identity.account.id == opened.account.id
            && now.identity.account.role == opened.account.role && now.identity.account.isActive && alertsNow == alerts
    }

    /// Whether the stream `request` opened for `opened` may go on (``goesOn(opened:alerts:now:alertsNow:)``).
    func goesOn(_ request: Request, opened: Identity, alerts: Bool) async -> Bool {
        let now = await self.caller(request)
        let alertsNow = if let now { await self.receivesAlerts(now.identity) } else { false }
        return Self.goesOn(opened: opened, alerts: alerts, now: now, alertsNow: alertsNow)
    }

    func addRoutes(to api: Routes) {
        // Live events (stock changed, low stock, a sale): every signed-in screen listens.
        api.get("events", .signedIn) { request, context in
            guard let identity = context.identity else { throw RouteGate.signInFirst }
            let alerts = await self.receivesAlerts(identity)
            let events = self.hub.subscribe(alerts: alerts)
            // One stream of frames: the hub's events and a keep-alive comment every 15 s.
            let frames = LiveFrames()
            let forward = Task {
                for await event in events { frames.send(event.frame) }
                frames.finish()
            }
            let watch = Task {
                var seconds = 0
                while !Task.isCancelled {
                    try? await Task.sleep(for: .seconds(1))
                    if Task.isCancelled { return }
                    seconds += 1
                    if seconds % 15 == 0 { frames.send(LiveFrames.ping) }
                    if !(await self.goesOn(request, opened: identity, alerts: alerts)) {
                        frames.finish()
                        return
                    }
                }
            }
            frames.onTermination {
                forward.cancel()
                watch.cancel()
            }
            return Response(
                status: .ok,
                headers: [.contentType: "text/event-stream", .cacheControl: "no-cache"],
                body: ResponseBody { writer in
                    // However the stream ends (the client gone, a shutdown), the forwarding and the pings stop with it.
                    defer { frames.finish() }
                    try await writer.write(ByteBuffer(string: ": connected\n\n"))
                    // A graceful shutdown ends the stream, so open streams never hold the server up.
                    try await withGracefulShutdownHandler {
                        for await frame in frames.stream {
                            try await writer.write(ByteBuffer(string: frame))
                            frames.wrote(frame)
                        }
                    } onGracefulShutdown: {
                        frames.finish()
                    }
                    try await writer.finish(nil)
                })
        }
    }
}

/// The frames of one `/events` stream on their way to its socket: at most `capacity` wait for a slow client, the
/// oldest dropped first. A client that lost frames is told so: after a drop a `resync` frame follows (``EventHub/resync``),
/// so its screens read again what they show, as after a reconnect. One is pending at a time — until the writer has
/// written it, or it is dropped in turn and sent again — so a client far behind gets one, not one per lost frame.
final class LiveFrames: Sendable {
    let stream: AsyncStream<String>
    private let continuation: AsyncStream<String>.Continuation
    private let resyncPending = Mutex(false)

    /// The keep-alive comment (losing one loses nothing).
    static let ping = ": ping\n\n"
    static let resync = EventHub.resync.frame

    init(capacity: Int = 100) {
        (self.stream, self.continuation) = AsyncStream<String>.makeStream(bufferingPolicy: .bufferingNewest(capacity))
    }

    func send(_ frame: String) {
        guard case .dropped(let lost) = self.continuation.yield(frame), lost != Self.ping else { return }
        let resend = self.resyncPending.withLock { pending in
            defer { pending = true }
            return !pending || lost == Self.resync
        }
        if resend { self.continuation.yield(Self.resync) }
    }

    /// The writer wrote `frame` to the socket.
    func wrote(_ frame: String) {
        if frame == Self.resync { self.resyncPending.withLock { $0 = false } }
    }

    func finish() { self.continuation.finish() }

    func onTermination(_ body: @escaping @Sendable () -> Void) {
        self.continuation.onTermination = { _ in body() }
    }
}
