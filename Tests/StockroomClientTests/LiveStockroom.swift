import ChildProcess
import Foundation
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The real `stockroom serve` executable (built by `swift build` / `swift test`) on a fresh data folder and a free
/// loopback port, as StockroomCLITests' LiveServer runs it; the client tests reach it only over HTTP.
final class LiveStockroom: @unchecked Sendable {
    let data = FileManager.default.temporaryDirectory.appendingPathComponent("stockroom-client-\(UUID().uuidString)")
    private(set) var process: ChildProcess?
    private(set) var port = 0
    var url: URL { URL(string: "http://127.0.0.1:\(self.port)")! }
    /// What the server logged, for a failing test's message.
    var log: String { (try? String(contentsOf: self.data.appendingPathComponent("serve.log"), encoding: .utf8)) ?? "" }

    /// The executable beside this package's other build products.
    static var executable: URL? {
        var root = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { root.deleteLastPathComponent() }
        return [".build/debug/stockroom", ".build/x86_64-unknown-linux-gnu/debug/stockroom", ".build/aarch64-unknown-linux-gnu/debug/stockroom",
                ".build/arm64-apple-macosx/debug/stockroom"]
            .map { root.appendingPathComponent($0) }.first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    /// Starts the server and waits until `/health` answers (on another free port if the one picked was taken meanwhile).
    func start() async throws {
        let binary = try #require(Self.executable, "build the stockroom executable first (swift build)")
        try FileManager.default.createDirectory(at: self.data, withIntermediateDirectories: true)
        let logFile = self.data.appendingPathComponent("serve.log")
        for _ in 0..<3 {
            self.port = try Self.freePort()
            let process = try ChildProcess(binary.path, ["serve", "--data", self.data.appendingPathComponent("shop").path, "--port", String(self.port)],
                                           output: .file(logFile.path), errors: .standardOutput)
            self.process = process
            let health = self.url.appendingPathComponent("health")
            for _ in 0..<1_200 where process.isRunning {  // up to 120 s: a liveness bound
                if let (_, response) = try? await URLSession.shared.data(from: health), (response as? HTTPURLResponse)?.statusCode == 200 { return }
                try await Task.sleep(for: .milliseconds(100))
            }
            self.stopProcess()
        }
        Issue.record("stockroom serve did not come up:\n\(self.log)")
        throw CancellationError()
    }

    /// Stops the server and removes its data folder.
    func stop() {
        self.stopProcess()
        try? FileManager.default.removeItem(at: self.data)
    }

    private func stopProcess() {
        if let process = self.process, process.isRunning {
            process.terminate()
            process.wait()
        }
    }

    deinit { self.stop() }

    /// A loopback port nobody listens on (the kernel's pick for port 0).
    static func freePort() throws -> Int {
        #if canImport(Glibc)
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { throw POSIXError(.EMFILE) }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        guard bound else { throw POSIXError(.EADDRINUSE) }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
