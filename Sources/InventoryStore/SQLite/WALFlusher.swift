import Foundation
import GRDB
import InventoryDomain
import Synchronization

/// Makes committed writes durable on a thread of its own, so the writer never waits for the disk.
///
/// The shop's writer connection commits with `synchronous=NORMAL`: a commit appends its pages to the write-ahead log
/// (`-wal`) and returns without flushing it. The ``WriteCoalescer`` then hands the batch's answers to this flusher,
/// which flushes the log (`fdatasync`) and only then answers every caller whose transaction committed before that
/// flush began. Meanwhile the writer is already running the next batch: the disk's flush and the next batch's work
/// overlap, where with `synchronous=FULL` the writer sat idle through every flush.
///
/// An acknowledged write is still a durable one: the log is written in commit order, so one flush makes every
/// transaction committed before it durable, and a caller is answered only after such a flush. What differs from
/// `synchronous=FULL` is visibility: other connections may read a committed write a flush's time (a fraction of a
/// millisecond) before its caller is answered; a power cut in that window loses a write nobody was told was booked.
/// SQLite's own safety does not change: in WAL mode `NORMAL` never corrupts the file, and a checkpoint flushes the log
/// before copying it into the database.
///
/// A flush that fails is final. After a failed `fdatasync` Linux may have dropped the log's unwritten pages and
/// marked them clean, so a later flush can succeed while the log on the disk has a hole that would end its recovery
/// there and lose every write after it, acknowledged or not (PostgreSQL stops for the same reason). So the first
/// failure is kept: every caller it was to make durable gets it, and from then on ``failure`` refuses every write
/// before it runs (``WriteCoalescer``) and the health check says the database is not usable, until Stockroom is
/// restarted (SQLite then recovers the log from what the disk holds).
final class WALFlusher: Sendable {
    typealias Answer = WriteCoalescer.Answer
    /// Flushes the log to the disk (tests may give another).
    typealias Flush = @Sendable () throws -> Void

    private struct State {
        var waiting: [Answer] = []
        var flushing = false
        /// The first flush's failure, kept for good (see the type's notes).
        var failure: InventoryError?
    }

    private let state = Mutex(State())
    private let flush: Flush
    private let queue = DispatchQueue(label: "stockroom.wal-flush", qos: .userInitiated)
    private let metrics: StoreMetrics

    init(metrics: StoreMetrics = StoreMetrics(), flush: @escaping Flush) {
        self.metrics = metrics
        self.flush = flush
    }

    /// A flusher of the write-ahead log of the database file at `databasePath`.
    convenience init(databasePath: String, metrics: StoreMetrics = StoreMetrics()) {
        let log = WriteAheadLogFile(path: databasePath + "-wal")
        self.init(metrics: metrics) { try log.flush() }
    }

    /// The refusal of every write once a flush has failed, or nil while the log's flushes succeed.
    var failure: InventoryError? {
        self.state.withLock { $0.failure }
    }

    /// The refusal kept after the flush that failed with `cause`.
    static func failure(_ cause: any Error) -> InventoryError {
        InventoryError(.storage, field: "database",
                       "the disk failed to store the shop's last writes, so nothing more is written: check the disk (and its free space), then restart Stockroom",
                       cause: cause)
    }

    /// Answers `answers` (with `nil`, or the flush's error) once every transaction committed before this call is on
    /// the disk. Returns at once.
    func answerWhenDurable(_ answers: [Answer]) {
        let startFlushing = self.state.withLock { state in
            state.waiting.append(contentsOf: answers)
            guard !state.flushing else { return false }
            state.flushing = true
            return true
        }
        if startFlushing {
            self.queue.async { self.flushWhileWaiting() }
        }
    }

    /// Flushes on the calling thread: for writes that do not go through the group commit (migrations, a restore).
    /// Final like the others: after any failed flush it throws that failure without flushing, and its own failure
    /// is kept for every later write.
    func flushNow() throws {
        if let failure = self.failure { throw failure }
        do {
            try self.flush()
        } catch {
            let kept = Self.failure(error)
            throw self.state.withLock { state in
                if state.failure == nil { state.failure = kept }
                return state.failure ?? kept
            }
        }
    }

    private func flushWhileWaiting() {
        while true {
            let (answers, failedBefore) = self.state.withLock { state in
                let answers = state.waiting
                state.waiting = []
                if answers.isEmpty { state.flushing = false }
                return (answers, state.failure)
            }
            guard !answers.isEmpty else { return }
            // After a failure no flush vouches for the log any more: the writes committed since are refused too.
            var failure = failedBefore
            if failure == nil {
                let start = StoreMetrics.now
                do {
                    try self.flush()
                } catch {
                    let kept = Self.failure(error)
                    failure = kept
                    self.state.withLock { $0.failure = kept }
                }
                self.metrics.flushTime.recordNanoseconds(StoreMetrics.elapsed(since: start))
            }
            for answer in answers { answer(failure) }
        }
    }
}

/// The write-ahead log file of a database, flushed through a descriptor of its own.
final class WriteAheadLogFile: Sendable {
    let path: String
    private let descriptor = Mutex<Int32>(-1)

    init(path: String) {
        self.path = path
    }

    deinit {
        self.descriptor.withLock { if $0 >= 0 { close($0) } }
    }

    /// The inode of the file the held descriptor is open on (nil before the first flush of an existing log).
    var openInode: UInt64? {
        self.descriptor.withLock { descriptor in
            var held = stat()
            guard descriptor >= 0, fstat(descriptor, &held) == 0 else { return nil }
            return UInt64(held.st_ino)
        }
    }

    /// Flushes what was written to the log to the disk (`fdatasync`). The log is opened once and opened again if it
    /// was replaced (another inode at its path); a log that does not exist holds nothing to flush.
    func flush() throws {
        try self.descriptor.withLock { descriptor in
            var onDisk = stat()
            guard stat(self.path, &onDisk) == 0 else {
                if errno == ENOENT { return }
                throw DatabaseError(resultCode: .SQLITE_IOERR, message: "cannot find \(self.path): \(String(cString: strerror(errno)))")
            }
            var held = stat()
            if descriptor < 0 || fstat(descriptor, &held) != 0 || held.st_ino != onDisk.st_ino || held.st_dev != onDisk.st_dev {
                if descriptor >= 0 { close(descriptor) }
                descriptor = open(self.path, O_RDONLY | O_CLOEXEC)
                guard descriptor >= 0 else {
                    throw DatabaseError(resultCode: .SQLITE_IOERR, message: "cannot open \(self.path): \(String(cString: strerror(errno)))")
                }
            }
            guard fdatasync(descriptor) == 0 else {
                throw DatabaseError(resultCode: .SQLITE_IOERR_FSYNC, message: "cannot flush \(self.path): \(String(cString: strerror(errno)))")
            }
        }
    }
}

/// Copies the write-ahead log into the database file on a connection and a thread of its own.
///
/// SQLite's automatic checkpoint runs inside the commit that takes the log past 1,000 pages, on the writer's thread:
/// that commit then copies every page in the log into the database file and flushes the file, while every write behind
/// it waits (hundreds of milliseconds on a slow disk: BENCHMARKS.md). The shop's writer turns it off
/// (`wal_autocheckpoint = 0`) and the group commit calls ``noteCommit()`` after each batch instead: at most every
/// ``interval`` a passive checkpoint runs here, which never waits for the writer nor makes it wait, and is run again
/// while the writer adds pages (a handful of times at most) so that the log is copied up to its end and SQLite can
/// start it again from the beginning. Should the log still outgrow ``restartPages`` under a write load that never
/// pauses, a `RESTART` checkpoint copies what is left while holding the writer back for that long, and the log starts
/// again from the beginning.
final class WALCheckpointer: Sendable {
    /// The least time between two checkpoints.
    static let interval: Duration = .milliseconds(100)
    /// Log pages beyond which a checkpoint holds the writer back to finish (by default 16,384: about 64 MB of 4 KiB
    /// pages).
    let restartPages: Int

    private struct State {
        var running = false
        var lastRun: ContinuousClock.Instant?
        var connection: DatabaseQueue?
        var runs = 0
    }

    private let path: String
    private let state = Mutex(State())
    private let queue = DispatchQueue(label: "stockroom.checkpoint", qos: .utility)
    private let metrics: StoreMetrics

    init(databasePath: String, restartPages: Int = 16_384, metrics: StoreMetrics = StoreMetrics()) {
        self.path = databasePath
        self.restartPages = restartPages
        self.metrics = metrics
    }

    /// How many checkpoints ``noteCommit()`` has run.
    var runs: Int { self.state.withLock { $0.runs } }

    /// A batch was committed: starts a checkpoint unless one runs or ran less than ``interval`` ago.
    func noteCommit() {
        let now = ContinuousClock.now
        let start = self.state.withLock { state in
            guard !state.running, state.lastRun.map({ now - $0 >= Self.interval }) ?? true else { return false }
            state.running = true
            return true
        }
        if start {
            self.queue.async { self.run() }
        }
    }

    /// Copies the log into the database file now, on the calling thread, and answers how many pages the log holds and
    /// how many of them are in the database file (equal when it is copied to its end).
    @discardableResult
    func checkpoint() throws -> (logPages: Int, copiedPages: Int) {
        let connection = try self.state.withLock { state in
            if let connection = state.connection { return connection }
            var configuration = Configuration()
            configuration.busyMode = .timeout(10)
            let connection = try DatabaseQueue(path: self.path, configuration: configuration)
            state.connection = connection
            return connection
        }
        let start = StoreMetrics.now
        defer { self.metrics.checkpointTime.recordNanoseconds(StoreMetrics.elapsed(since: start)) }
        return try connection.inDatabase { db in
            var result = try db.checkpoint(.passive)
            for _ in 0..<4 where result.walFrameCount > result.checkpointedFrameCount {
                result = try db.checkpoint(.passive)
            }
            if result.walFrameCount >= self.restartPages {
                result = try db.checkpoint(.restart)
            }
            return (result.walFrameCount, result.checkpointedFrameCount)
        }
    }

    private func run() {
        // A checkpoint that fails (a busy database, a full disk) is tried again after the next commit; the log keeps
        // every committed write meanwhile.
        _ = try? self.checkpoint()
        self.state.withLock { state in
            state.running = false
            state.runs += 1
            state.lastRun = ContinuousClock.now
        }
    }
}
