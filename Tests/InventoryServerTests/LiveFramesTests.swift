@testable import InventoryServer
import Testing

/// A client too slow for its `/events` stream loses the oldest frames, and is told: a `resync` frame follows the loss,
/// so its screens read again what they show (``LiveFrames``).
@Suite struct LiveFramesTests {
    static func event(_ n: Int) -> String { LiveEvent(type: "sale", data: "{\"n\":\(n)}").frame }

    /// What a writer that starts reading only now gets (telling the frames what it wrote, as `/events` does).
    static func drain(_ frames: LiveFrames) async -> [String] {
        frames.finish()
        var read: [String] = []
        for await frame in frames.stream {
            frames.wrote(frame)
            read.append(frame)
        }
        return read
    }

    @Test func aClientThatKeepsUpGetsEveryFrameAndNoResync() async {
        let frames = LiveFrames(capacity: 4)
        for n in 1...4 { frames.send(Self.event(n)) }
        #expect(await Self.drain(frames) == (1...4).map(Self.event))
    }

    @Test(arguments: [5, 6, 7, 10, 57])
    func aClientThatFellBehindGetsTheNewestFramesAndOneResyncAfterTheLoss(sent: Int) async {
        let frames = LiveFrames(capacity: 4)
        for n in 1...sent { frames.send(Self.event(n)) }
        let read = await Self.drain(frames)
        #expect(read.count == 4)
        // Exactly one resync, and the events read are the newest sent, in order: the lost ones are the oldest.
        #expect(read.filter { $0 == LiveFrames.resync }.count == 1)
        let events = read.filter { $0 != LiveFrames.resync }
        #expect(events == ((sent - events.count + 1)...sent).map(Self.event))
    }

    @Test func aResyncWrittenLetsTheNextLossSendAnother() async {
        let frames = LiveFrames(capacity: 2)
        for n in 1...3 { frames.send(Self.event(n)) }
        var iterator = frames.stream.makeAsyncIterator()
        var read: [String] = []
        for _ in 0..<2 {
            if let frame = await iterator.next() {
                frames.wrote(frame)
                read.append(frame)
            }
        }
        #expect(read.contains(LiveFrames.resync))
        // The client has caught up and read the resync; a new loss needs a new one.
        for n in 4...6 { frames.send(Self.event(n)) }
        frames.finish()
        var after: [String] = []
        while let frame = await iterator.next() { after.append(frame) }
        #expect(after.contains(LiveFrames.resync))
    }

    @Test func aLostKeepAliveCommentIsNoLoss() async {
        let frames = LiveFrames(capacity: 2)
        frames.send(LiveFrames.ping)
        frames.send(Self.event(1))
        frames.send(Self.event(2))
        #expect(await Self.drain(frames) == [Self.event(1), Self.event(2)])
    }
}
