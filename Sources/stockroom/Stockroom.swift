import Dispatch
import Foundation
import NIOCore
import NIOPosix
import StockroomCLI

/// The `stockroom` executable: hands the command line to ``StockroomCommand``.
///
/// `main` is synchronous on purpose: the command runs on Swift's cooperative pool and the main thread waits for it on
/// a semaphore. An `async main` hands the main thread to libdispatch (`dispatch_main`), which parks it in
/// `sigsuspend`, and valgrind 3.19 (Debian 12's) stops there with an internal error, so the server could not be run
/// under `valgrind --tool=callgrind` for its instruction counts (`scripts/bench-callgrind.py`). Nothing in Stockroom
/// or its packages runs on the main actor or the main queue, so nothing waits for the main thread.
@main
enum Stockroom {
    static func main() {
        ProcessTimeZone.nameTheMachineZone()
        // Swift's tasks run on SwiftNIO's event loops instead of a pool of their own (SwiftNIO's supported hook,
        // which must be installed on the main thread before any task starts): a request's handler then runs on the
        // thread that read it and writes its answer without waking another one. Under 16 connections that halved the
        // context switches a lookup costs (1.2 to 0.6 a request, the bare Hummingbird app's 0.7) and lowered the CPU a
        // lookup takes by about a fifth (BENCHMARKS.md). Nothing slow runs on them: password hashing goes to NIO's
        // thread pool, picture decoding and the database's writes, flushes and pooled reads to queues of their own;
        // the point reads a request makes on its own thread take tens of microseconds. STOCKROOM_EXECUTOR=swift keeps
        // Swift's own pool (to compare the two).
        if ProcessInfo.processInfo.environment["STOCKROOM_EXECUTOR"] != "swift" {
            NIOSingletons.unsafeTryInstallSingletonPosixEventLoopGroupAsConcurrencyGlobalExecutor()
        }
        let done = DispatchSemaphore(value: 0)
        // Detached: `main` is isolated to the main actor, whose queue nobody drains while the main thread waits.
        Task.detached {
            await StockroomCommand.mainAsCommandLine()
            done.signal()
        }
        done.wait()
    }
}
