import Foundation
import GRDB
import Synchronization

/// Group commit for the shop's writes.
///
/// Every acknowledged write must be on the disk. Writes that arrive while a transaction is running are gathered into
/// the next one, each in its own savepoint, and every caller is answered only after the transaction holding its write
/// has committed and been flushed to the disk: N concurrent sales then pay for one disk flush instead of N, and an
/// acknowledged write is still a durable one. On a database file the flush is a ``WALFlusher``'s, on a thread of its
/// own, so the next batch runs while the last one's flush is under way; without one (a database in memory, or a
/// connection that commits with `synchronous=FULL`) a caller is answered as soon as its commit returns.
///
/// Each write keeps its own outcome: one that throws rolls back its savepoint only, and its caller gets the error
/// while the others in the batch commit. If the commit itself fails, every caller in the batch gets that error and
/// nothing of the batch is kept. Writes run in the order they arrived, so a caller that awaits one write before
/// starting the next sees exactly the sequential behaviour.
final class WriteCoalescer: Sendable {
    /// Answers one caller once the batch's fate is known: `nil` after a commit, else the commit's error.
    typealias Answer = @Sendable ((any Error)?) -> Void

    struct Job: Sendable {
        /// Runs the write inside the open transaction and returns how to answer its caller. When other writes
        /// `share` the transaction it runs in a savepoint and keeps its error to itself; alone, its error is thrown and
        /// rolls the transaction back. (A savepoint copies every page it changes to a sub-journal, which a write alone
        /// in its transaction does not need.)
        let run: @Sendable (_ db: Database, _ shared: Bool) throws -> Answer
        /// Answers the caller when the batch's transaction could not be run or committed.
        let fail: @Sendable (any Error) -> Void
        /// When the write was queued (``StoreMetrics/now``).
        let queuedAt: UInt64
    }

    private struct State {
        var pending: [Job] = []
        var draining = false
    }

    /// At most this many writes share one transaction, so a long queue still commits (and answers) in steps.
    static let maximumBatch = 256

    private let writer: any DatabaseWriter
    private let state = Mutex(State())
    private let metrics: StoreMetrics
    /// Where batches are run and committed, one after another (``drain()``).
    private let drainQueue = DispatchQueue(label: "stockroom.group-commit", qos: .userInitiated)
    /// Makes each committed batch durable before its callers are answered (nil: the commit itself did).
    let flusher: WALFlusher?
    /// Told of every commit, copies the log into the database file off the writer's thread (nil: SQLite's automatic
    /// checkpoint does, in the commits).
    let checkpointer: WALCheckpointer?

    init(_ writer: any DatabaseWriter, flusher: WALFlusher? = nil, checkpointer: WALCheckpointer? = nil, metrics: StoreMetrics = StoreMetrics()) {
        self.writer = writer
        self.flusher = flusher
        self.checkpointer = checkpointer
        self.metrics = metrics
    }

    /// How many writes wait for the next transaction (for tests that need a known queue).
    var waiting: Int { self.state.withLock { $0.pending.count } }

    /// Runs `body` in a savepoint of the next group transaction and returns its result after that transaction has
    /// committed and is on the disk.
    func write<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
            let job = Job(
                run: { db, shared in
                    let outcome: Result<T, any Error> = shared ? Result { try db.savepoint(body) } : .success(try body(db))
                    return { commitError in continuation.resume(with: commitError.map { .failure($0) } ?? outcome) }
                },
                fail: { continuation.resume(throwing: $0) },
                queuedAt: StoreMetrics.now
            )
            let startDraining = self.state.withLock { state in
                state.pending.append(job)
                guard !state.draining else { return false }
                state.draining = true
                return true
            }
            if startDraining {
                self.drainQueue.async { self.drain() }
            }
        }
    }

    /// Commits batches until no write is waiting, on a thread of its own (``drainQueue``) and with GRDB's synchronous
    /// `write`, which runs on that thread: one batch follows another without a hop to GRDB's queue and back to the
    /// Swift concurrency pool, where the next batch would wait behind the requests being served.
    private func drain() {
        while true {
            let batch = self.state.withLock { state in
                let batch = Array(state.pending.prefix(Self.maximumBatch))
                state.pending.removeFirst(batch.count)
                if batch.isEmpty { state.draining = false }
                return batch
            }
            guard !batch.isEmpty else { return }
            // Once a flush of the log has failed nothing more is written (``WALFlusher``).
            if let failure = self.flusher?.failure {
                for job in batch { job.fail(failure) }
                continue
            }
            let start = StoreMetrics.now
            for job in batch { self.metrics.wait.recordNanoseconds(Int64(clamping: start &- job.queuedAt)) }
            self.metrics.batchSize.record(batch.count)
            do {
                let shared = batch.count > 1
                let answers = try self.writer.write { db in try batch.map { try $0.run(db, shared) } }
                self.metrics.writeTime.recordNanoseconds(StoreMetrics.elapsed(since: start))
                self.checkpointer?.noteCommit()
                if let flusher = self.flusher {
                    flusher.answerWhenDurable(answers)
                } else {
                    for answer in answers { answer(nil) }
                }
            } catch {
                for job in batch { job.fail(error) }
            }
        }
    }
}

extension Database {
    /// Runs `body` in a savepoint: what it changed is kept if it returns and rolled back if it throws.
    func savepoint<T>(_ body: (Database) throws -> T) throws -> T {
        var value: T?
        try self.inSavepoint {
            value = try body(self)
            return .commit
        }
        guard let value else { throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "the savepoint did not run its block") }
        return value
    }
}
