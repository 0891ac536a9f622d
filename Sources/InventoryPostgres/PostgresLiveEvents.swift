import Foundation
import InventoryDomain
import InventoryStore
import Logging
import PostgresNIO
import Synchronization

/// Live events across instances: every committed write of every `stockroom serve` instance on one database reaches
/// every instance's ``ActivityFeed``, once, over PostgreSQL's `LISTEN/NOTIFY`.
///
/// **Sending.** A write that recorded activities sends one notification on ``channel`` just after its transaction
/// has committed, on the same connection (``announce(_:on:logger:)``): a refused write or a dry run sends nothing.
/// (Two writes committing at the same instant on different connections may be announced in either order.) The payload is small whatever the activity — this instance's id and the ids of the audit rows the write
/// added, as ranges (`<instance> 41-43,47`) — since PostgreSQL refuses payloads of 8000 bytes or more; a write whose
/// ids do not fit (hundreds of rows interleaved with another writer's) sends several, which listeners publish one by
/// one, in order.
///
/// **Listening.** Once someone observes the feed (the server's event hub), one task holds a connection of its own
/// (application name `stockroom-events`, with the schema) that listens on ``channel``. A notification from this
/// instance is skipped (its write already published its activities here); one from another instance is read back
/// from `auditLog` on that connection and rebuilt by the domain (``StoredAudit/activity(at:userID:username:action:detail:recordKind:recordID:productIDs:facts:)``)
/// before it is published. When the connection drops (PostgreSQL restarted, the backend terminated) the task connects
/// again by itself, waiting 100 ms, then twice as long each time up to 2 s, and listens again; it logs one warning
/// per outage and a notice when it listens again. Activities committed elsewhere while it was not listening are **not
/// replayed**: audit ids are taken before commit, so a later id may commit first and "everything after the last id
/// seen" would lose or repeat some. Instead, once it listens again, it calls the feed's ``ActivityFeed/publishMissed()``:
/// the server then sends its open streams a `resync` event, and each screen reads again what it shows. The task ends
/// when the repository is released (``stop()``).
///
/// The notification is sent after the commit, not inside the transaction, because PostgreSQL holds its notify-queue
/// lock from a notifying transaction's commit until that commit is on disk: inside, every write of every instance
/// would wait for every other write's disk flush; after, in a transaction that does not wait for the disk, the lock
/// is held for microseconds.
final class PostgresLiveEvents: Sendable {
    /// This repository's id in the notifications it sends.
    let instance = UUID()
    /// `stockroom_events`, or `stockroom_events_<schema>` when the location names a schema (so shops, or tests, that
    /// share a database do not hear each other).
    let channel: String
    private let location: PostgresLocation
    private let logger: Logger
    private let state = Mutex(State())
    /// The repository's settings, dropped when another instance's activities changed them, or may have.
    private let settingsCache: RecentReads<Int, ShopSettings>

    private struct State {
        var task: Task<Void, Never>?
        var stopped = false
        var connected = false
    }

    /// The largest payload sent (PostgreSQL refuses 8000 bytes or more).
    static let maximumPayload = 7000
    /// The waits between two attempts to listen again: the first, and the longest.
    static let firstRetry = Duration.milliseconds(100)
    static let longestRetry = Duration.seconds(2)

    init(_ location: PostgresLocation, logger: Logger, settingsCache: RecentReads<Int, ShopSettings>) {
        self.location = location
        self.logger = logger
        self.settingsCache = settingsCache
        self.channel = Self.channel(schema: location.schema)
    }

    /// The channel of a schema's shop: an identifier PostgreSQL keeps whole (at most 63 bytes), so a long schema name
    /// is shortened and told apart by a hash of it.
    static func channel(schema: String?) -> String {
        guard let schema else { return "stockroom_events" }
        let whole = "stockroom_events_\(schema)"
        guard whole.utf8.count > 63 else { return whole }
        // FNV-1a: the same in every process (Swift's Hasher is seeded per process).
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in schema.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        let suffix = String(hash, radix: 16)
        return "stockroom_events_\(schema.prefix(63 - 18 - suffix.count))_\(suffix)"
    }

    // MARK: - Sending

    /// The payloads naming `ids` (audit rows of one write, in order) for `instance`: `<instance> <ranges>`, each under
    /// ``maximumPayload`` bytes; none when there are no ids.
    static func payloads(instance: UUID, ids: [Int64]) -> [String] {
        var ranges: [ClosedRange<Int64>] = []
        for id in ids {
            if let last = ranges.last, last.upperBound &+ 1 == id {
                ranges[ranges.count - 1] = last.lowerBound...id
            } else {
                ranges.append(id...id)
            }
        }
        let head = instance.uuidString + " "
        var payloads: [String] = []
        var current = ""
        for range in ranges {
            let text = range.lowerBound == range.upperBound ? "\(range.lowerBound)" : "\(range.lowerBound)-\(range.upperBound)"
            if !current.isEmpty, head.utf8.count + current.utf8.count + 1 + text.utf8.count > Self.maximumPayload {
                payloads.append(head + current)
                current = ""
            }
            current += current.isEmpty ? text : "," + text
        }
        if !current.isEmpty { payloads.append(head + current) }
        return payloads
    }

    /// The instance and the audit ids a payload names, nil for one this build cannot read.
    static func parse(_ payload: String) -> (instance: String, ids: [Int64])? {
        let parts = payload.split(separator: " ", maxSplits: 1)
        guard parts.count == 2 else { return nil }
        var ids: [Int64] = []
        for range in parts[1].split(separator: ",") {
            let bounds = range.split(separator: "-", maxSplits: 1)
            guard let first = bounds.first.flatMap({ Int64($0) }) else { return nil }
            let last = bounds.count == 2 ? Int64(bounds[1]) : first
            guard let last, first <= last, last - first < 1_000_000 else { return nil }
            ids.append(contentsOf: first...last)
        }
        return (String(parts[0]), ids)
    }

    /// Announces, just after a write has committed, the audit rows it added (nothing without any). Each payload is
    /// one statement in a transaction of its own that does not wait for the disk (`synchronous_commit` off for it
    /// alone): the rows it names are durable already, and a notification lost to a crash is a screen that misses one
    /// live update, never a lost write. A failure is logged, not thrown: the write it announces has happened.
    func announce(_ auditIDs: [Int64], on connection: PostgresConnection, logger: Logger) async {
        for payload in Self.payloads(instance: self.instance, ids: auditIDs) {
            do {
                try await connection.run(
                    "SELECT set_config('synchronous_commit', 'off', true), pg_notify(\(self.channel), \(payload))", logger: logger)
            } catch {
                logger.warning("live event not announced to the other instances", metadata: ["error": "\(String(reflecting: error))"])
                return
            }
        }
    }

    // MARK: - Listening

    /// Whether the listening connection is open and listening (false before anyone observed the feed).
    var isConnected: Bool { self.state.withLock { $0.connected } }

    /// Starts listening for the other instances' activities and publishing them to `feed`, unless already started or
    /// stopped.
    func start(publishingTo feed: ActivityFeed) {
        self.state.withLock { state in
            guard state.task == nil, !state.stopped else { return }
            state.task = Task.detached { [self] in await self.listen(publishingTo: feed) }
        }
    }

    /// Stops listening for good: the task ends and closes its connection.
    func stop() {
        let task = self.state.withLock { state in
            state.stopped = true
            defer { state.task = nil }
            return state.task
        }
        task?.cancel()
    }

    private func setConnected(_ connected: Bool) {
        self.state.withLock { $0.connected = connected }
    }

    /// Thrown when the notifications end without an error while the task still runs (the connection closed).
    private struct ListeningEnded: Error, CustomStringConvertible {
        var description: String { "the listening connection closed" }
    }

    /// Listens until cancelled, connecting again after each failure (see the type's comment).
    private func listen(publishingTo feed: ActivityFeed) async {
        var wait = Self.firstRetry
        var outage = false
        var attempt = 0
        while !Task.isCancelled {
            attempt += 1
            do {
                let connection = try await PostgresConnection.connect(configuration: try self.configuration(), id: attempt, logger: self.logger)
                do {
                    try await connection.listen(on: self.channel) { notifications in
                        self.setConnected(true)
                        wait = Self.firstRetry
                        if outage {
                            outage = false
                            self.logger.notice("live events: listening on \(self.channel) again (activities committed meanwhile are not replayed; screens are told to read again)")
                            self.settingsCache.invalidate()
                            feed.publishMissed()
                        }
                        for try await notification in notifications {
                            try await self.deliver(notification.payload, over: connection, to: feed)
                        }
                    }
                    if !Task.isCancelled { throw ListeningEnded() }
                } catch {
                    self.setConnected(false)
                    try? await connection.close()
                    throw error
                }
                self.setConnected(false)
                try? await connection.close()
            } catch {
                self.setConnected(false)
                if Task.isCancelled { break }
                if !outage {
                    outage = true
                    self.logger.warning("live events: not listening to other instances (\(InventoryPostgresRepository.describe(error))); trying again")
                }
                try? await Task.sleep(for: wait)
                wait = min(wait * 2, Self.longestRetry)
            }
        }
        self.setConnected(false)
    }

    /// Publishes the activities another instance's notification names, read back from the audit log.
    private func deliver(_ payload: String, over connection: PostgresConnection, to feed: ActivityFeed) async throws {
        guard let (instance, ids) = Self.parse(payload) else {
            self.logger.debug("live events: skipped a notification this build cannot read", metadata: ["payload": "\(payload.prefix(80))"])
            return
        }
        guard instance != self.instance.uuidString, !ids.isEmpty else { return }
        var activities: [ShopActivity] = []
        for try await (at, userID, username, action, detail, recordKind, recordID, productIDs, facts) in try await connection.query("""
            SELECT at, userId, username, action, detail, recordKind, recordId, productIds, facts FROM auditLog WHERE id = ANY(\(ids)) ORDER BY id
            """, logger: self.logger).decode((Instant, Int64?, String, String, String, String?, Int64?, String?, String?).self) {
            if let activity = StoredAudit.activity(at: at, userID: userID, username: username, action: action, detail: detail, recordKind: recordKind,
                                                   recordID: recordID, productIDs: productIDs, facts: facts) {
                activities.append(activity)
            }
        }
        if InventoryPostgresRepository.changeSettings(activities) { self.settingsCache.invalidate() }
        feed.publish(activities)
    }

    /// The listening connection's settings: the repository's database, its schema first on the search path.
    private func configuration() throws -> PostgresConnection.Configuration {
        let tls: PostgresConnection.Configuration.TLS
        switch self.location.tls {
        case .disable: tls = .disable
        case .prefer: tls = .prefer(try NIOSSLContext(configuration: .makeClientConfiguration()))
        case .require: tls = .require(try NIOSSLContext(configuration: .makeClientConfiguration()))
        }
        var configuration = PostgresConnection.Configuration(
            host: self.location.host, port: self.location.port, username: self.location.username, password: self.location.password,
            database: self.location.database, tls: tls)
        if let schema = self.location.schema {
            configuration.options.additionalStartupParameters = [("search_path", "\(schema), public")]
        }
        configuration.options.additionalStartupParameters.append(("application_name", Self.applicationName(schema: self.location.schema)))
        return configuration
    }

    /// The listening connection's application name, as `pg_stat_activity` shows it: `stockroom-events`, then the
    /// schema.
    static func applicationName(schema: String?) -> String {
        String(("stockroom-events" + (schema.map { " " + $0 } ?? "")).prefix(63))
    }
}
