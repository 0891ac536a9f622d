import ChildProcess
import Foundation
import InventoryDomain
import InventoryStore
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A real `stockroom serve` on a fresh data folder, driven over real HTTP on 127.0.0.1.
final class LiveServer: @unchecked Sendable {
    let data: String
    private(set) var port: Int
    /// The running server (nil before ``start()``).
    private(set) var process: ChildProcess?
    let session: URLSession
    var token = ""
    var base: String { "http://127.0.0.1:\(self.port)" }

    let arguments: [String]

    /// A server on `data` (a new folder when nil), started with `serve --data … --port …` and `arguments`.
    init(data: String? = nil, arguments: [String] = []) {
        self.data = data ?? FileManager.default.temporaryDirectory.appendingPathComponent("stockroom-live-\(UUID().uuidString)").path
        self.arguments = arguments
        self.port = Int.random(in: 20_000...40_000)
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpMaximumConnectionsPerHost = 64
        configuration.timeoutIntervalForRequest = 30
        self.session = URLSession(configuration: configuration)
    }

    /// Starts the server and waits until it answers.
    func start() async throws {
        let binary = try #require(ServeProcessTests.executable, "build the stockroom executable first (swift build)")
        // A port picked at random may be taken (another test's server runs at the same time): a server that ends
        // before it answers is started again on another port.
        for _ in 0..<5 {
            let process = try ChildProcess(binary.path, ["serve", "--data", self.data, "--port", String(self.port)] + self.arguments)
            self.process = process
            // A liveness bound, not a speed check: a coverage build on a loaded 2-core machine can take long to start.
            for _ in 0..<1_200 where process.isRunning {
                if (try? await self.call("GET", "/health").status) == 200 { return }
                try await Task.sleep(for: .milliseconds(100))
            }
            if process.isRunning { break }
            self.port = Int.random(in: 20_000...40_000)
        }
        Issue.record("the server did not come up within 120 s (or ended at start five times)")
    }

    /// Creates the admin (first run) and returns the browser session it is signed in with.
    func createAdmin() async throws -> (cookie: String, csrf: String) {
        let (status, body, response) = try await self.raw("POST", "/api/v1/auth/setup", #"{"username":"owner","password":"long password","pin":"1234"}"#)
        #expect(status == 201, "\(String(decoding: body, as: UTF8.self))")
        let csrf = try #require((try JSONSerialization.jsonObject(with: body) as? [String: Any])?["csrfToken"] as? String)
        return (String(try #require(response?.value(forHTTPHeaderField: "Set-Cookie")).prefix { $0 != ";" }), csrf)
    }

    /// Creates the admin and an API token for the rest of the calls.
    func setUp() async throws {
        let (cookie, csrf) = try await self.createAdmin()
        let (tokenStatus, tokenBody, _) = try await self.raw("POST", "/api/v1/tokens", #"{"name":"load test"}"#,
                                                             headers: ["Cookie": cookie, "X-CSRF-Token": csrf])
        #expect(tokenStatus == 201)
        self.token = try #require((try JSONSerialization.jsonObject(with: tokenBody) as? [String: Any])?["token"] as? String)
    }

    func raw(_ method: String, _ path: String, _ body: String? = nil, headers: [String: String] = [:]) async throws -> (Int, Data, HTTPURLResponse?) {
        var request = URLRequest(url: try #require(URL(string: self.base + path)))
        request.httpMethod = method
        request.httpBody = body.map { Data($0.utf8) }
        if body != nil { request.setValue("application/json", forHTTPHeaderField: "Content-Type") }
        if !self.token.isEmpty { request.setValue("Bearer \(self.token)", forHTTPHeaderField: "Authorization") }
        for (key, value) in headers { request.setValue(value, forHTTPHeaderField: key) }
        let (data, response) = try await self.session.data(for: request)
        let http = response as? HTTPURLResponse
        return (http?.statusCode ?? 0, data, http)
    }

    /// A call with the API token; the answer's status and JSON object.
    func call(_ method: String, _ path: String, _ body: String? = nil) async throws -> (status: Int, object: [String: Any]) {
        let (status, data, _) = try await self.raw(method, path, body)
        return (status, (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:])
    }

    func kill() {
        self.process?.signal(SIGKILL)
        self.process?.wait()
    }

    func stop() {
        if let process = self.process, process.isRunning {
            process.terminate()
            process.wait()
        }
    }

    deinit { self.stop() }
}

/// A decimal string of the API ("25.88", "32", "-1.5") in units of 10^-digits, exactly.
func scaled(_ text: Any?, digits: Int) -> Int64? {
    guard let text = text as? String else { return nil }
    let negative = text.hasPrefix("-")
    let parts = text.drop { $0 == "-" }.split(separator: ".", omittingEmptySubsequences: false)
    guard let whole = Int64(parts.first ?? ""), parts.count <= 2 else { return nil }
    var fraction = parts.count == 2 ? String(parts[1]) : ""
    guard fraction.count <= digits else { return nil }
    fraction += String(repeating: "0", count: digits - fraction.count)
    var power: Int64 = 1
    for _ in 0..<digits { power *= 10 }
    let value = whole * power + (Int64(fraction) ?? 0)
    return negative ? -value : value
}

/// Issues `q` units from stock `V` (cents) / `Q` the way the books do: cost `q·V/Q`, rounded half away from zero.
func issueCost(value: Int64, quantity: Int64, taking q: Int64) -> Int64 {
    if q == quantity { return value }
    let numerator = value * q
    let (quotient, remainder) = numerator.quotientAndRemainder(dividingBy: quantity)
    return 2 * abs(remainder) >= quantity ? quotient + (numerator < 0 ? -1 : 1) : quotient
}

@Suite(.serialized) struct ServeLoadTests {
    /// 16 tills sell the same product at once over real HTTP; the stock and its value end exactly where selling the
    /// same units one after another would leave them, and oversold units are refused, not booked.
    @Test func sixteenClientsSellingOneProductEndWithExactStockAndValue() async throws {
        let server = LiveServer()
        try await server.start()
        defer { server.stop() }
        try await server.setUp()
        let product = try await server.call("POST", "/api/v1/products", #"{"name":"Espresso","salePrice":"2.50"}"#)
        #expect(product.status == 201)
        let id = try #require(product.object["id"] as? Int)
        for (quantity, cost) in [("100", "0.70"), ("60", "0.95")] {
            let purchase = try await server.call("POST", "/api/v1/purchases", #"{"lines":[{"productId":\#(id),"quantity":"\#(quantity)","unitCost":"\#(cost)"}]}"#)
            #expect(purchase.status == 201)
        }

        // Round 1: 16 clients × 8 one-unit sales (128 of the 160 in stock).
        struct Answer: Sendable {
            var status: Int
            var code: String?
            var costOfGoodsSold: String?
        }
        func sell(_ quantity: Int, rounds: Int) async -> [Answer] {
            await withTaskGroup(of: [Answer].self) { group in
                for _ in 0..<16 {
                    group.addTask {
                        var results: [Answer] = []
                        for _ in 0..<rounds {
                            let body = #"{"lines":[{"productId":\#(id),"quantity":"\#(quantity)"}],"paymentMethod":"card"}"#
                            let reply = (try? await server.call("POST", "/api/v1/sales", body)) ?? (status: 0, object: [:])
                            results.append(Answer(status: reply.status, code: reply.object["code"] as? String,
                                                  costOfGoodsSold: reply.object["costOfGoodsSold"] as? String))
                        }
                        return results
                    }
                }
                var all: [Answer] = []
                for await results in group { all += results }
                return all
            }
        }
        let first = await sell(1, rounds: 8)
        #expect(first.filter { $0.status == 201 }.count == 128, "\(first.map(\.status))")
        // Round 2: 16 clients × one 3-unit sale: only 10 fit in the 32 left.
        let second = await sell(3, rounds: 1)
        #expect(second.filter { $0.status == 201 }.count == 10, "\(second.map(\.status))")
        #expect(second.filter { $0.status == 422 }.count == 6, "\(second.map(\.status))")
        #expect(second.filter { $0.status == 422 }.allSatisfy { $0.code == "insufficientStock" })

        // The same units sold one after another: every sale of a round is alike, so the order cannot matter.
        var value: Int64 = 100 * 70 + 60 * 95, quantity: Int64 = 160, cogs: Int64 = 0
        for q: Int64 in Array(repeating: 1, count: 128) + Array(repeating: 3, count: 10) {
            let cost = issueCost(value: value, quantity: quantity, taking: q)
            value -= cost; quantity -= q; cogs += cost
        }
        let after = try await server.call("GET", "/api/v1/products/\(id)")
        #expect(scaled(after.object["quantity"], digits: 3) == quantity * 1000, "\(after.object)")
        #expect(scaled(after.object["stockValue"], digits: 2) == value, "\(after.object)")
        let booked = (first + second).filter { $0.status == 201 }.compactMap { scaled($0.costOfGoodsSold, digits: 2) }
        #expect(booked.count == 138)
        #expect(booked.reduce(0, +) == cogs)
        #expect(booked.reduce(0, +) + value == 100 * 70 + 60 * 95, "the books balance: Σ purchases = Σ COGS + stock value")
        let listed = try await server.raw("GET", "/api/v1/sales?limit=500")
        let sales = (try JSONSerialization.jsonObject(with: listed.1) as? [[String: Any]]) ?? []
        #expect(sales.count == 138)
    }

    /// A server killed with SIGKILL in the middle of a sales load restarts with every acknowledged sale on disk and
    /// the books balanced to the cent.
    @Test func aServerKilledMidLoadKeepsEveryAcknowledgedSale() async throws {
        let server = LiveServer()
        try await server.start()
        try await server.setUp()
        let product = try await server.call("POST", "/api/v1/products", #"{"name":"Water","salePrice":"1.00"}"#)
        let id = try #require(product.object["id"] as? Int)
        for (quantity, cost) in [("60000", "0.31"), ("40000", "0.37")] {
            let purchase = try await server.call("POST", "/api/v1/purchases", #"{"lines":[{"productId":\#(id),"quantity":"\#(quantity)","unitCost":"\#(cost)"}]}"#)
            #expect(purchase.status == 201)
        }

        let acknowledged = AcknowledgedSales()
        let load = Task {
            await withTaskGroup(of: Void.self) { group in
                for client in 0..<8 {
                    group.addTask {
                        // Bounded: at most 2,000 sales per client, and each client stops at its first failed call.
                        for index in 0..<2_000 {
                            let body = #"{"lines":[{"productId":\#(id),"quantity":"1"}],"note":"client \#(client) sale \#(index)"}"#
                            guard let reply = try? await server.call("POST", "/api/v1/sales", body), reply.status == 201,
                                  let sale = reply.object["id"] as? Int else { return }
                            acknowledged.add(Int64(sale))
                        }
                    }
                }
            }
        }
        // Kill it once sales are flowing.
        // Waits (up to 2 minutes, a liveness bound) until 150 sales are acknowledged.
        for _ in 0..<2_400 where acknowledged.count < 150 { try await Task.sleep(for: .milliseconds(50)) }
        server.kill()
        await load.value
        let acked = acknowledged.ids
        #expect(acked.count >= 150, "only \(acked.count) sales were acknowledged before the kill")

        // It restarts on the same data: every acknowledged sale is there.
        let restarted = LiveServer(data: server.data)
        try await restarted.start()
        defer { restarted.stop() }
        restarted.token = server.token
        #expect(try await restarted.call("GET", "/api/v1/sales/\(try #require(acked.max()))").status == 200)
        let productAfter = try await restarted.call("GET", "/api/v1/products/\(id)")
        restarted.stop()

        let store = try InventorySQLiteRepository.open(dataFolder: server.data)
        var stored: [Int64] = []
        while true {
            let page = try await store.sales(limit: 500, offset: stored.count)
            stored += page.map(\.id)
            if page.count < 500 { break }
        }
        #expect(Set(acked).isSubset(of: Set(stored)), "acknowledged sales missing after the crash: \(Set(acked).subtracting(stored).sorted().prefix(20))")
        // A sale may have committed without its answer reaching the client; never the other way round.
        #expect(stored.count >= acked.count)

        // The books balance to the cent: Σ purchase cost = Σ COGS + stock value, and the stock is what was not sold.
        let movements = try await store.allMovements()
        let purchased = movements.filter { $0.quantity > .zero }.reduce(Money.zero) { $0 + $1.valueChange + $1.costAdjustment }
        let issued = movements.filter { $0.quantity < .zero }.reduce(Money.zero) { $0 - $1.valueChange }
        let onHand = try await store.product(ProductID(Int64(id)))
        #expect(purchased == Money(minorUnits: 60_000 * 31 + 40_000 * 37))
        #expect(purchased == issued + onHand.stock.value)
        #expect(onHand.stock.quantity == Quantity(Int64(100_000 - stored.count)))
        #expect(scaled(productAfter.object["quantity"], digits: 3) == Int64(100_000 - stored.count) * 1000)
        #expect(scaled(productAfter.object["stockValue"], digits: 2) == onHand.stock.value.minorUnits)
    }
}

/// Sale ids acknowledged (201) to the load clients.
final class AcknowledgedSales: @unchecked Sendable {
    private let lock = NSLock()
    private var list: [Int64] = []
    func add(_ id: Int64) { self.lock.withLock { self.list.append(id) } }
    var ids: [Int64] { self.lock.withLock { self.list } }
    var count: Int { self.lock.withLock { self.list.count } }
}
