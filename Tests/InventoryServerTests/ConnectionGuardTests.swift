import HTTPTypes
@testable import InventoryServer
import NIOCore
import NIOEmbedded
import NIOHTTPTypes
import Testing

/// The connection guard (``ConnectionGuardHandler``) on a channel whose clock the test moves: each deadline of
/// ``ConnectionLimits`` closes the connection when it is missed and not a moment before, and a kept-alive connection
/// that keeps sending requests is never closed. (The same limits against a real server: `tests/security/test_f07_slow_clients.py`.)
@Suite struct ConnectionGuardTests {
    let limits = ConnectionLimits()

    func channel() throws -> EmbeddedChannel {
        let channel = EmbeddedChannel(handler: ConnectionGuardHandler(limits: self.limits, counter: ConnectionCounter()))
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 9)).wait()
        return channel
    }

    func head(_ method: HTTPRequest.Method = .get) -> HTTPRequestPart {
        .head(HTTPRequest(method: method, scheme: "http", authority: "shop", path: "/health"))
    }

    func advance(_ channel: EmbeddedChannel, seconds: Int64) {
        channel.embeddedEventLoop.advanceTime(by: .seconds(seconds))
    }

    /// Sends a whole request and its whole response.
    func exchange(_ channel: EmbeddedChannel) throws {
        try channel.writeInbound(self.head())
        try channel.writeInbound(HTTPRequestPart.end(nil))
        try channel.writeOutbound(HTTPResponsePart.head(HTTPResponse(status: .ok)))
        try channel.writeOutbound(HTTPResponsePart.end(nil))
    }

    @Test func aConnectionWithoutARequestHeadIsClosedAtTheHeaderTimeout() throws {
        let channel = try self.channel()
        self.advance(channel, seconds: self.limits.headerTimeout.nanoseconds / 1_000_000_000 - 1)
        #expect(channel.isActive)
        self.advance(channel, seconds: 2)
        #expect(!channel.isActive)
    }

    @Test func aKeptAliveConnectionIsClosedAfterItsIdleTimeOnly() throws {
        let channel = try self.channel()
        // A request every 3 seconds for five minutes: past every timeout, and never closed.
        for _ in 0..<100 {
            try self.exchange(channel)
            self.advance(channel, seconds: 3)
            #expect(channel.isActive)
        }
        let idle = self.limits.idleTimeout.nanoseconds / 1_000_000_000
        self.advance(channel, seconds: idle - 4)
        #expect(channel.isActive, "idle for less than the idle timeout")
        self.advance(channel, seconds: 2)
        #expect(!channel.isActive, "idle for longer than the idle timeout")
    }

    @Test func aRequestBeingAnsweredHasNoDeadline() throws {
        let channel = try self.channel()
        try channel.writeInbound(self.head())
        try channel.writeInbound(HTTPRequestPart.end(nil))
        try channel.writeOutbound(HTTPResponsePart.head(HTTPResponse(status: .ok)))
        // The live-events stream: a response that lasts an hour.
        for _ in 0..<60 {
            self.advance(channel, seconds: 60)
            try channel.writeOutbound(HTTPResponsePart.body(ByteBuffer(string: ": ping\n\n")))
        }
        #expect(channel.isActive)
        try channel.writeOutbound(HTTPResponsePart.end(nil))
        self.advance(channel, seconds: self.limits.idleTimeout.nanoseconds / 1_000_000_000 + 1)
        #expect(!channel.isActive)
    }

    @Test func aSlowBodyIsClosedWhenItFallsBehindItsAllowanceAndAFastOneIsNot() throws {
        let grace = self.limits.bodyGrace.nanoseconds / 1_000_000_000
        let rate = self.limits.bodyMinimumBytesPerSecond

        // One byte a second: closed once the grace period is over.
        let slow = try self.channel()
        try slow.writeInbound(self.head(.post))
        var seconds: Int64 = 0
        while slow.isActive && seconds < 10 * grace {
            try slow.writeInbound(HTTPRequestPart.body(ByteBuffer(string: "x")))
            self.advance(slow, seconds: 1)
            seconds += 1
        }
        #expect(!slow.isActive)
        #expect(seconds >= grace && seconds <= grace + 1, "closed after \(seconds) s")

        // Twice the minimum rate for a minute, then the end: open all along, and idle after its response.
        let fast = try self.channel()
        try fast.writeInbound(self.head(.post))
        for _ in 0..<60 {
            try fast.writeInbound(HTTPRequestPart.body(ByteBuffer(repeating: 0x20, count: 2 * rate)))
            self.advance(fast, seconds: 1)
            #expect(fast.isActive)
        }
        try fast.writeInbound(HTTPRequestPart.end(nil))
        self.advance(fast, seconds: 5 * grace)
        #expect(fast.isActive, "a request that is being answered has no deadline")
        try fast.writeOutbound(HTTPResponsePart.head(HTTPResponse(status: .ok)))
        try fast.writeOutbound(HTTPResponsePart.end(nil))
        self.advance(fast, seconds: self.limits.idleTimeout.nanoseconds / 1_000_000_000 + 1)
        #expect(!fast.isActive)
    }
}
