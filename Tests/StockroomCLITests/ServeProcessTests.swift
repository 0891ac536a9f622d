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

    func request(_ url: String, method: String = "GET", body: String? = nil, headers: [String: String] = [:]) async throws -> (Int, Data, HTTPURLResponse?) {
        guard let target = URL(string: url) else { throw URLError(.badURL) }
        var request = URLRequest(url: target)
        request.httpMethod = method
        request.httpBody = body.map { Data($0.utf8) }
        for (key, value) in headers { request.setValue(value, forHTTPHeaderField: key) }
        let (data, response) = try await URLSession.shared.data(for: request)
        let http = response as? HTTPURLResponse
        return (http?.statusCode ?? 0, data, http)
    }

    @Test func sigtermStopsGracefullyWithAStreamOpenAndKeepsAcknowledgedSales() async throws {
        let binary = try #require(Self.executable, "build the stockroom executable first (swift build)")
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("stockroom-serve-\(UUID().uuidString)").path
        let port = Int.random(in: 20_000...40_000)
        let process = Process()
        process.executableURL = binary
        process.arguments = ["serve", "--data", data, "--port", String(port), "--demo"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer { if process.isRunning { process.terminate() } }
        let base = "http://127.0.0.1:\(port)"
        var up = false
        for _ in 0..<150 where !up {
            try await Task.sleep(for: .milliseconds(100))
            up = (try? await self.request(base + "/health").0) == 200
        }
        #expect(up, "the server did not come up")

        let (status, body, response) = try await self.request(base + "/api/v1/auth/setup", method: "POST",
                                                                body: #"{"username":"owner","password":"long password"}"#)
        #expect(status == 201)
        let csrf = try #require((try JSONSerialization.jsonObject(with: body) as? [String: Any])?["csrfToken"] as? String)
        let setCookie = try #require(response?.value(forHTTPHeaderField: "Set-Cookie"))
        let cookie = String(setCookie.prefix { $0 != ";" })
        let headers = ["Cookie": cookie, "X-CSRF-Token": csrf, "Content-Type": "application/json"]
        let (saleStatus, saleBody, _) = try await self.request(base + "/api/v1/sales", method: "POST",
                                                                 body: #"{"note":"last sale","lines":[{"productId":1,"quantity":"1"}]}"#, headers: headers)
        #expect(saleStatus == 201, "\(String(decoding: saleBody, as: UTF8.self))")

        // A live-events stream stays open while the server is asked to stop.
        let stream = Task { try? await self.request(base + "/api/v1/events", headers: ["Cookie": cookie]) }
        try await Task.sleep(for: .milliseconds(300))
        process.terminate()  // SIGTERM
        let deadline = Date().addingTimeInterval(10)
        while process.isRunning && Date() < deadline { try await Task.sleep(for: .milliseconds(50)) }
        #expect(!process.isRunning, "the server did not stop within 10 s of SIGTERM")
        #expect(process.terminationReason == .exit && process.terminationStatus == 0)
        stream.cancel()

        let store = try InventorySQLiteRepository.open(dataFolder: data)
        #expect(try await store.sales(limit: 1, offset: 0).first?.note == "last sale", "the acknowledged sale is the newest one on disk")
    }
}
