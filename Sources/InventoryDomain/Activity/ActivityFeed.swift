import Foundation
import Synchronization

/// Hands each committed write's activities to whoever observes the store (the server's live events).
///
/// A store calls ``publish(_:)`` after the transaction holding the activities has committed — never for a refused
/// write, a rolled-back dry run or a failed commit — in the task of the caller that submitted the write, so an
/// observer has been told before that caller gets its answer. Observers run synchronously there: keep them quick.
public final class ActivityFeed: Sendable {
    public typealias Observer = @Sendable ([ShopActivity]) -> Void

    /// One observer: what it is told of committed activities and, if it asked, of possibly missed ones.
    private struct Registration {
        var activities: Observer
        var missed: (@Sendable () -> Void)?
    }

    private struct State {
        var observers: [Int: Registration] = [:]
        var next = 0
    }
    private let state = Mutex(State())
    private let whenObserved: (@Sendable (ActivityFeed) -> Void)?

    /// Creates a feed without observers.
    public init() {
        self.whenObserved = nil
    }

    /// Creates a feed without observers that calls `whenObserved` with itself each time an observer is added: a store
    /// that has work to do only for observers (PostgreSQL listening for other instances' activities) starts it then.
    public init(whenObserved: @escaping @Sendable (ActivityFeed) -> Void) {
        self.whenObserved = whenObserved
    }

    /// Calls `observer` with the activities of every write committed from now on, until the returned observation
    /// is cancelled or released; and `missed`, if given, each time the feed may have lost activities (see
    /// ``publishMissed()``).
    public func observe(_ observer: @escaping Observer, missed: (@Sendable () -> Void)? = nil) -> Observation {
        let id = self.state.withLock { state in
            state.next += 1
            state.observers[state.next] = Registration(activities: observer, missed: missed)
            return state.next
        }
        self.whenObserved?(self)
        return Observation { [weak self] in self?.state.withLock { _ = $0.observers.removeValue(forKey: id) } }
    }

    /// Tells every observer that activities may have been committed without reaching this feed (PostgreSQL: another
    /// instance's, while this one was not listening), so what they show should be read again.
    public func publishMissed() {
        let missed = self.state.withLock { $0.observers.values.compactMap(\.missed) }
        for call in missed { call() }
    }

    /// Tells every observer about committed activities (nothing when there are none).
    public func publish(_ activities: [ShopActivity]) {
        guard !activities.isEmpty else { return }
        let observers = self.state.withLock { $0.observers.values.map(\.activities) }
        for observer in observers { observer(activities) }
    }

    /// How many observers are attached.
    public var observerCount: Int { self.state.withLock { $0.observers.count } }

    /// An observer's registration: it ends on ``cancel()`` or when the observation is released.
    public final class Observation: Sendable {
        private let end: Mutex<(@Sendable () -> Void)?>

        init(_ end: @escaping @Sendable () -> Void) {
            self.end = Mutex(end)
        }

        /// Stops the observer.
        public func cancel() {
            let end = self.end.withLock { end in
                defer { end = nil }
                return end
            }
            end?()
        }

        deinit { self.cancel() }
    }
}

/// A store whose committed writes can be observed.
public protocol ActivitySource: Sendable {
    /// The store's feed of committed activities.
    var activityFeed: ActivityFeed { get }
}
