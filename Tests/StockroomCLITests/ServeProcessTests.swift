import ChildProcess
import Foundation
import InventoryDomain
import InventoryStore
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Runs the real `stockroom serve` executable and stops it the way an init system does.
@Suite struct ServeProcessTests {
    static var executable: URL? {
        var folder = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { folder.deleteLastPathComponent() }
        let candidates = [".build/debug/stockroom", ".build/x86_64-unknown-linux-gnu/debug/stockroom", ".build/aarch64-unknown-linux-gnu/debug/stockroom"]
        return candidates.map { folder.appendingPathComponent($0) }.first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    @Test func sigtermStopsGracefullyWithAStreamOpenAndKeepsAcknowledgedSales() async throws {
        let server = LiveServer(arguments: ["--demo"])
        try await server.start()
        defer { server.stop() }

        let (cookie, csrf) = try await server.createAdmin()
        let (saleStatus, saleBody, _) = try await server.raw("POST", "/api/v1/sales", #"{"note":"last sale","lines":[{"productId":1,"quantity":"1"}]}"#,
                                                            headers: ["Cookie": cookie, "X-CSRF-Token": csrf])
        #expect(saleStatus == 201, "\(String(decoding: saleBody, as: UTF8.self))")

        // A live-events stream stays open while the server is asked to stop.
        let stream = Task { try? await server.raw("GET", "/api/v1/events", headers: ["Cookie": cookie]) }
        try await Task.sleep(for: .milliseconds(300))
        let process = try #require(server.process)
        process.terminate()  // SIGTERM
        let deadline = Date().addingTimeInterval(60)  // a liveness bound: it must stop, however loaded the machine is
        while process.isRunning && Date() < deadline { try await Task.sleep(for: .milliseconds(50)) }
        #expect(!process.isRunning, "the server did not stop within 60 s of SIGTERM")
        #expect(process.exited == true && process.wait() == 0)
        stream.cancel()

        let store = try InventorySQLiteRepository.open(dataFolder: server.data)
        #expect(try await store.sales(limit: 1, offset: 0).first?.note == "last sale", "the acknowledged sale is the newest one on disk")
    }
}
