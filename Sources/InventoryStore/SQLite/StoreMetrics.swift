import Dispatch
import Metrics

/// What the store measures, through the swift-metrics API (the server picks the backend: Prometheus with
/// `serve --metrics`; with none bootstrapped every measurement is a no-op). Names as Prometheus shows them:
///
/// - `stockroom_group_commit_writes`: how many writes shared each group-commit transaction (a histogram);
/// - `stockroom_group_commit_wait_seconds`: how long each write waited for its transaction to begin;
/// - `stockroom_database_seconds{operation="read"}`: each read, `{operation="write"}`: each group transaction up to
///   its commit, `{operation="flush"}`: each flush of the write-ahead log that made committed transactions durable
///   (``WALFlusher``; on a database in memory, where there is nothing to flush, none), `{operation="checkpoint"}`:
///   each copy of the log into the database file (``WALCheckpointer``);
/// - `stockroom_cache_lookups_total{cache, result}`: kept reads (``RecentReads``) found (`hit`) or read (`miss`).
///
/// The measurements are bound to the backend bootstrapped when the repository is opened.
struct StoreMetrics: Sendable {
    let batchSize = Recorder(label: "stockroom_group_commit_writes")
    let wait = Timer(label: "stockroom_group_commit_wait_seconds", preferredDisplayUnit: .seconds)
    let readTime = Timer(label: "stockroom_database_seconds", dimensions: [("operation", "read")], preferredDisplayUnit: .seconds)
    let writeTime = Timer(label: "stockroom_database_seconds", dimensions: [("operation", "write")], preferredDisplayUnit: .seconds)
    let flushTime = Timer(label: "stockroom_database_seconds", dimensions: [("operation", "flush")], preferredDisplayUnit: .seconds)
    let checkpointTime = Timer(label: "stockroom_database_seconds", dimensions: [("operation", "checkpoint")], preferredDisplayUnit: .seconds)

    /// Nanoseconds on a clock that never steps, for measuring.
    static var now: UInt64 { DispatchTime.now().uptimeNanoseconds }

    static func elapsed(since start: UInt64) -> Int64 { Int64(clamping: Self.now &- start) }
}
