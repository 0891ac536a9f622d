import Foundation
import GRDB
import Synchronization

/// Read-only connections of their own for the short reads that nearly every request makes (``InventorySQLiteRepository/readHere(_:)``:
/// the caller's session, a product by barcode, the settings), taken from a stack and given back, each used by one
/// thread at a time.
///
/// GRDB's reader pool hands out its readers through a dispatch semaphore, a dispatch group and a concurrent queue, and
/// checks the schema's version with a statement before each read. Under 16 connections the lookups' threads waited on
/// each other there (futex waits in `DispatchQueue.sync`, two context switches a lookup; BENCHMARKS.md). Here a
/// lookup takes an idle connection under a lock held for one `popLast`, and runs its statements on the calling thread
/// (the connection's own serial queue is free, so GRDB runs the block in place).
///
/// The connections see every commit, as any SQLite reader in WAL mode does: each statement reads its own snapshot.
/// A restore or a migration changes the schema; ``drain()`` closes the idle connections so none keeps a statement
/// prepared for the old schema, and a connection in use when that happens is closed when it comes back.
final class PointReaders: Sendable {
    private struct State {
        var idle: [DatabaseQueue] = []
        /// Raised by ``drain()``: connections opened before it are closed when they come back.
        var generation = 0
    }

    private let path: String
    /// At most this many idle connections are kept; more may be open at once while more threads read.
    let capacity: Int
    private let state = Mutex(State())

    init(path: String, capacity: Int = 8) {
        self.path = path
        self.capacity = capacity
    }

    /// The configuration of a point reader: read-only, and waiting (rather than failing) while a checkpoint or a
    /// restore holds the file.
    static func configuration() -> Configuration {
        var configuration = Configuration()
        configuration.readonly = true
        configuration.busyMode = .timeout(10)
        configuration.label = "stockroom.point-reader"
        return configuration
    }

    /// Runs `body` on an idle connection (opening one when none is idle), on the calling thread.
    func read<T>(_ body: (Database) throws -> T) throws -> T {
        let (taken, generation) = self.state.withLock { state in (state.idle.popLast(), state.generation) }
        let connection = try taken ?? DatabaseQueue(path: self.path, configuration: Self.configuration())
        defer { self.giveBack(connection, generation: generation) }
        return try connection.inDatabase(body)
    }

    private func giveBack(_ connection: DatabaseQueue, generation: Int) {
        let kept = self.state.withLock { state -> Bool in
            guard state.generation == generation, state.idle.count < self.capacity else { return false }
            state.idle.append(connection)
            return true
        }
        if !kept { try? connection.close() }
    }

    /// Closes the idle connections; those in use are closed when they come back.
    func drain() {
        let closing = self.state.withLock { state -> [DatabaseQueue] in
            state.generation += 1
            defer { state.idle.removeAll() }
            return state.idle
        }
        for connection in closing { try? connection.close() }
    }

    /// How many idle connections are kept, for tests.
    var idleCount: Int { self.state.withLock { $0.idle.count } }
}
