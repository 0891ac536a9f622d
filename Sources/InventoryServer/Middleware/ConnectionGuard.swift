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
final class ConnectionGuardHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    let limits: ConnectionLimits
    let counter: ConnectionCounter
    private var address: String?
    private var timer: Scheduled<Void>?
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
        self.schedule(context, in: self.limits.headerTimeout)
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        self.release()
    }

    func channelInactive(context: ChannelHandlerContext) {
        self.release()
        context.fireChannelInactive()
    }

    private func release() {
        self.timer?.cancel()
        self.timer = nil
        if let address = self.address {
            self.counter.close(address)
            self.address = nil
        }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch self.unwrapInboundIn(data) {
        case .head:
            self.unanswered += 1
            self.body = (.now(), 0)
            self.checkBody(context)
        case .body(let buffer):
            self.body?.bytes += buffer.readableBytes
        case .end:
            self.body = nil
            self.cancelTimer()
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = self.unwrapOutboundIn(data) {
            self.unanswered = max(0, self.unanswered - 1)
            if self.unanswered == 0 && self.body == nil {
                self.schedule(context, in: self.limits.idleTimeout)
            }
        }
        context.write(data, promise: promise)
    }

    /// Closes the connection when the body being read is behind its allowance, or checks again when it would be.
    private func checkBody(_ context: ChannelHandlerContext) {
        guard let body = self.body else { return }
        let rate = Int64(max(1, self.limits.bodyMinimumBytesPerSecond))
        let earned = TimeAmount.nanoseconds(Int64(body.bytes) * 1_000_000_000 / rate)
        let deadline = body.start + self.limits.bodyGrace + earned
        if deadline <= .now() {
            context.close(promise: nil)
            return
        }
        self.cancelTimer()
        let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        self.timer = context.eventLoop.scheduleTask(deadline: deadline) {
            let (handler, context) = loopBound.value
            handler.timer = nil
            handler.checkBody(context)
        }
    }

    /// Closes the connection unless a request head arrives within `delay`.
    private func schedule(_ context: ChannelHandlerContext, in delay: TimeAmount) {
        self.cancelTimer()
        let loopBound = NIOLoopBound(context, eventLoop: context.eventLoop)
        self.timer = context.eventLoop.scheduleTask(in: delay) {
            loopBound.value.close(promise: nil)
        }
    }

    private func cancelTimer() {
        self.timer?.cancel()
        self.timer = nil
    }
}
