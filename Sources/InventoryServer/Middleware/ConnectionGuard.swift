import Hummingbird
import HummingbirdCore
import NIOCore
import NIOHTTPTypes
import Synchronization

/// Limits that keep slow or greedy clients from holding the server's connections (slowloris, slow bodies, floods of
/// half-sent requests), in the spirit of Apache's mod_reqtimeout and nginx's client timeouts.
public struct ConnectionLimits: Sendable {
    /// A new connection must send a complete request head within this time.
    public var headerTimeout: TimeAmount = .seconds(10)
    /// A kept-alive connection may wait this long between a response and the next request head.
    public var idleTimeout: TimeAmount = .seconds(60)
    /// A request body gets this long, plus one second for every ``bodyMinimumBytesPerSecond`` bytes it has sent.
    public var bodyGrace: TimeAmount = .seconds(10)
    /// The slowest body accepted after the grace period, in bytes per second.
    public var bodyMinimumBytesPerSecond: Int = 500
    /// Open connections from one client address; more are closed at once.
    public var maxConnectionsPerAddress: Int = 128

    public init() {}
}

/// Counts open connections per client address, shared by every connection of a server.
final class ConnectionCounter: Sendable {
    private let counts = Mutex<[String: Int]>([:])

    /// Counts a new connection from `address`; false (and not counted) when that address already has `limit`.
    func open(_ address: String, limit: Int) -> Bool {
        self.counts.withLock { counts in
            let current = counts[address, default: 0]
            guard current < limit else { return false }
            counts[address] = current + 1
            return true
        }
    }

    func close(_ address: String) {
        self.counts.withLock { counts in
            let remaining = counts[address, default: 1] - 1
            counts[address] = remaining > 0 ? remaining : nil
        }
    }

    func count(_ address: String) -> Int { self.counts.withLock { $0[address, default: 0] } }
}

/// Enforces ``ConnectionLimits`` on one connection: it sits after the HTTP decoder, so it sees request heads, body
/// parts and ends, and the response parts going out. A connection that misses a deadline is closed; a request that is
/// being answered (however long the answer takes, such as the live-events stream) has no deadline.
///
/// Every request moves the connection's deadline (a head starts the body's allowance, the response's end starts the
/// idle time), so the deadline is a value, and one timer at a time checks it: when the timer fires before the deadline
/// it is set again for the deadline, and a new deadline later than the timer's leaves the timer alone. A request on a
/// kept-alive connection then schedules and cancels no task (which took an allocation, a promise and the event loop's
/// queue of timers, three times a request).
final class ConnectionGuardHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    /// What the connection must do next, and by when.
    private enum Wait {
        /// Nothing: a request is being answered.
        case none
        /// Send a request head by then (a new or kept-alive connection).
        case head(NIODeadline)
        /// Keep sending the body of the request whose head arrived: ``ConnectionGuardHandler/bodyDeadline``.
        case body
    }

    let limits: ConnectionLimits
    let counter: ConnectionCounter
    private var address: String?
    private var wait = Wait.none
    /// The one timer, and when it fires.
    private var timer: (task: Scheduled<Void>, deadline: NIODeadline)?
    /// Requests whose head arrived and whose response has not ended.
    private var unanswered = 0
    /// The body being read: when its head arrived and how many bytes it has sent.
    private var body: (start: NIODeadline, bytes: Int)?

    init(limits: ConnectionLimits, counter: ConnectionCounter) {
        self.limits = limits
        self.counter = counter
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if let address = context.channel.remoteAddress?.ipAddress {
            guard self.counter.open(address, limit: self.limits.maxConnectionsPerAddress) else {
                context.close(promise: nil)
                return
            }
            self.address = address
        }
        self.waitFor(.head(context.eventLoop.now + self.limits.headerTimeout), context)
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        self.release()
    }

    func channelInactive(context: ChannelHandlerContext) {
        self.release()
        context.fireChannelInactive()
    }

    private func release() {
        self.timer?.task.cancel()
        self.timer = nil
        self.wait = .none
        if let address = self.address {
            self.counter.close(address)
            self.address = nil
        }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch self.unwrapInboundIn(data) {
        case .head:
            self.unanswered += 1
            self.body = (context.eventLoop.now, 0)
            self.waitFor(.body, context)
        case .body(let buffer):
            self.body?.bytes += buffer.readableBytes
        case .end:
            self.body = nil
            self.wait = .none
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = self.unwrapOutboundIn(data) {
            self.unanswered = max(0, self.unanswered - 1)
            if self.unanswered == 0 && self.body == nil {
                self.waitFor(.head(context.eventLoop.now + self.limits.idleTimeout), context)
            }
        }
        context.write(data, promise: promise)
    }

    /// When the body being read falls behind its allowance: the grace period from its head, plus a second for every
    /// ``ConnectionLimits/bodyMinimumBytesPerSecond`` bytes it has sent.
    private var bodyDeadline: NIODeadline? {
        guard let body = self.body else { return nil }
        let rate = Int64(max(1, self.limits.bodyMinimumBytesPerSecond))
        return body.start + self.limits.bodyGrace + .nanoseconds(Int64(body.bytes) * 1_000_000_000 / rate)
    }

    /// The deadline that `wait` sets, nil for none.
    private var deadline: NIODeadline? {
        switch self.wait {
        case .none: nil
        case .head(let deadline): deadline
        case .body: self.bodyDeadline
        }
    }

    /// Waits for `wait`: the timer is set for its deadline unless it already fires no later.
    private func waitFor(_ wait: Wait, _ context: ChannelHandlerContext) {
        self.wait = wait
        guard let deadline = self.deadline else { return }
        if let timer = self.timer {
            if timer.deadline <= deadline { return }
            timer.task.cancel()
        }
        self.schedule(at: deadline, context)
    }

    private func schedule(at deadline: NIODeadline, _ context: ChannelHandlerContext) {
        let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        let task = context.eventLoop.scheduleTask(deadline: deadline) {
            let (handler, context) = loopBound.value
            handler.timer = nil
            handler.check(context)
        }
        self.timer = (task, deadline)
    }

    /// The timer fired: the connection is closed when it missed its deadline, or the timer set again for it.
    private func check(_ context: ChannelHandlerContext) {
        guard let deadline = self.deadline else { return }
        if deadline <= context.eventLoop.now {
            context.close(promise: nil)
        } else {
            self.schedule(at: deadline, context)
        }
    }
}
