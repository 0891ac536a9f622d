import Dispatch
import Foundation
import Hummingbird
import NIOCore
import NIOPosix

/// A bare Hummingbird app, the ceiling Stockroom's routes are measured against: `baseline PORT` answers
/// `GET /json` with a constant JSON object and `GET /health` with "ok" on 127.0.0.1. Hummingbird's defaults throughout;
/// `BASELINE_EXECUTOR=eventloop` runs its tasks on SwiftNIO's event loops as `stockroom` does (its `main`), to compare
/// like with like.
struct Reply: ResponseEncodable {
    let id: Int
    let name: String
    let barcode: String
    let salePrice: String
}

func serve(port: Int) async throws {
    let router = Router()
    router.get("/json") { _, _ in Reply(id: 1, name: "Oat milk 1 l", barcode: "4006381333931", salePrice: "2.49") }
    router.get("/health") { _, _ in "ok" }
    let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: port), serverName: "Baseline"))
    try await app.runService()
}

// The main thread waits on a semaphore rather than being handed to libdispatch by an async main, as in Stockroom's
// own `main`, so that both run under valgrind 3.19 (scripts/bench-callgrind.py).
let port = CommandLine.arguments.dropFirst().first.flatMap { Int($0) } ?? 8080
if ProcessInfo.processInfo.environment["BASELINE_EXECUTOR"] == "eventloop" {
    NIOSingletons.unsafeTryInstallSingletonPosixEventLoopGroupAsConcurrencyGlobalExecutor()
}
let done = DispatchSemaphore(value: 0)
Task.detached { [port, done] in
    do {
        try await serve(port: port)
    } catch {
        FileHandle.standardError.write(Data("baseline: \(error)\n".utf8))
        exit(1)
    }
    done.signal()
}
done.wait()
