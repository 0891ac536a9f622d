import Dispatch
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
        let done = DispatchSemaphore(value: 0)
        // Detached: `main` is isolated to the main actor, whose queue nobody drains while the main thread waits.
        Task.detached {
            await StockroomCommand.mainAsCommandLine()
            done.signal()
        }
        done.wait()
    }
}
