import Dispatch
import Synchronization

/// Runs image decoding on its own threads, at most ``width`` at a time in the whole process.
///
/// Decoding a large photo takes a few hundred milliseconds of CPU and up to five bytes per pixel of memory. Run on
/// Swift's concurrency pool (one thread per core), a few parallel uploads would stall every other request, `/health`
/// included; behind the gate the rest wait their turn, in order, without holding a thread.
public final class ImageDecodeGate: Sendable {
    /// The process-wide gate: two decodes at a time.
    public static let shared = ImageDecodeGate(width: 2)

    /// How many decodes may run at once.
    public let width: Int

    private struct State {
        var running = 0
        var peak = 0
        var waiting: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Mutex(State())
    private let queue = DispatchQueue(label: "stockroom.image-decode", attributes: .concurrent)

    /// Creates a gate letting `width` (at least 1) decodes run at once.
    public init(width: Int) {
        self.width = max(1, width)
    }

    /// The most decodes that ran at the same time so far (for tests).
    public var peak: Int { self.state.withLock { $0.peak } }

    /// Runs `work` once a place is free, off the concurrency pool, and answers its result.
    public func run<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await self.enter()
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<T, Never>) in
            self.queue.async { continuation.resume(returning: work()) }
        }
        self.leave()
        return result
    }

    private func enter() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let admitted = self.state.withLock { state -> Bool in
                guard state.running < self.width else {
                    state.waiting.append(continuation)
                    return false
                }
                state.running += 1
                state.peak = max(state.peak, state.running)
                return true
            }
            if admitted { continuation.resume() }
        }
    }

    private func leave() {
        // The place passes straight to the first waiter, if any, so the running count stays the same.
        let next = self.state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard !state.waiting.isEmpty else {
                state.running -= 1
                return nil
            }
            return state.waiting.removeFirst()
        }
        next?.resume()
    }
}
