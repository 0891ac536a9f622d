import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import InventoryDomain
import InventoryServer
import InventoryStore
import Testing

/// A JSON reply.
struct Reply {
    var status: Int
    var text: String
    var contentType: String?
    var setCookie: String? = nil
    var contentDisposition: String? = nil
    var json: Any? { try? JSONSerialization.jsonObject(with: Data(self.text.utf8), options: [.fragmentsAllowed]) }
    var object: [String: Any] { self.json as? [String: Any] ?? [:] }
    var array: [[String: Any]] { self.json as? [[String: Any]] ?? [] }
}

extension TestClientProtocol {
    func call(_ method: HTTPRequest.Method, _ uri: String, _ body: String? = nil, raw: [UInt8]? = nil, token: String? = nil,
              cookie: String? = nil, csrf: String? = nil) async throws -> Reply {
        let buffer: ByteBuffer? = raw.map { ByteBuffer(bytes: $0) } ?? body.map { ByteBuffer(string: $0) }
        var headers: HTTPFields = body != nil ? [.contentType: "application/json"] : [:]
        if let token { headers[.authorization] = "Bearer \(token)" }
        if let cookie { headers[.cookie] = "stockroom_session=\(cookie)" }
        if let csrf, let name = HTTPField.Name("X-CSRF-Token") { headers[name] = csrf }
        return try await self.execute(uri: uri, method: method, headers: headers, body: buffer) { response in
            Reply(status: Int(response.status.code), text: String(buffer: response.body), contentType: response.headers[.contentType],
                  setCookie: response.headers[.setCookie], contentDisposition: response.headers[.contentDisposition])
        }
    }
}

/// A test client signed in with an API token.
struct Caller: Sendable {
    let client: any TestClientProtocol
    let token: String?

    func call(_ method: HTTPRequest.Method, _ uri: String, _ body: String? = nil, raw: [UInt8]? = nil) async throws -> Reply {
        try await self.client.call(method, uri, body, raw: raw, token: self.token)
    }
}

/// Fast bcrypt for tests; production uses cost 12.
let testSecrets = Secrets(bcryptCost: 4)

/// A new user of `role` (password `password-<name>`, PIN 1234), created straight in the store.
func newAccount(_ store: InventorySQLiteRepository, role: Role, username: String? = nil) async throws -> StaffAccount {
    let name = username ?? "\(role.rawValue)-\(UUID().uuidString.prefix(6))"
    return try await store.createUser(StaffAccount(
        id: UserID(0), username: name, displayName: name, role: role, passwordHash: try await testSecrets.hash("password-\(name)"),
        pinHash: try await testSecrets.hash("1234")))
}

/// An API token for a new user of `role`, created straight in the store.
func token(_ store: InventorySQLiteRepository, role: Role, username: String? = nil) async throws -> String {
    let account = try await newAccount(store, role: role, username: username)
    let token = Secrets.newToken()
    _ = try await store.createSession(userID: account.id, kind: .api, name: "test", tokenHash: Secrets.hashToken(token), csrfToken: "",
                                      expiresAt: nil)
    return token
}

/// An application over a new store in memory; `publicAPI` and `metrics` mount those optional parts.
func makeApp(publicAPI: Bool = false, metrics: Bool = false) throws -> (some ApplicationProtocol, InventorySQLiteRepository) {
    let measured = metrics ? ServerMetrics.bootstrap() : nil   // before the store opens, as `serve` does
    let store = try InventorySQLiteRepository.inMemory()
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("stockroom-server-\(UUID().uuidString)").path
    var configuration = ServerConfiguration(host: "127.0.0.1", port: 0, secrets: testSecrets, dataFolder: folder, publicAPI: publicAPI)
    configuration.metrics = measured
    return (try buildApplication(configuration, repository: store), store)
}

@Suite struct APITests {
    @Test func seedScenarioOverHTTP() async throws {
        let (app, store) = try makeApp()
        let admin = try await token(store, role: .admin)
        try await app.test(.router) { raw in
            let client = Caller(client: raw, token: admin)
            let category = try await client.call(.post, "/api/v1/categories", ##"{"name":"Coffee","color":"#92400e","lowStockThreshold":"5","markup":"50"}"##)
            #expect(category.status == 201)
            let categoryID = try #require(category.object["id"] as? Int)
            let supplier = try await client.call(.post, "/api/v1/suppliers", #"{"name":"Roastery","location":"Hamburg","phone":"+49 40 123"}"#)
            #expect(supplier.status == 201)
            let customer = try await client.call(.post, "/api/v1/customers", #"{"name":"Ada","email":"ada@example.com"}"#)
            #expect(customer.status == 201)
            let first = try await client.call(.post, "/api/v1/purchases", """
                {"effectiveAt":"2026-03-01T09:00:00Z","supplierId":\(supplier.object["id"] as? Int ?? 0),
                 "lines":[{"newProduct":{"name":"Espresso beans","categoryId":\(categoryID),"salePrice":"4.00","barcode":"4006381333931"},"quantity":"10","unitCost":"2.00"}]}
                """)
            #expect(first.status == 201, "\(first.text)")
            let lines = first.object["lines"] as? [[String: Any]] ?? []
            let productID = try #require(lines.first?["productId"] as? Int)
            #expect(first.object["total"] as? String == "20.00")
            let second = try await client.call(.post, "/api/v1/purchases", #"{"effectiveAt":"2026-03-02T09:00:00Z","lines":[{"productId":\#(productID),"quantity":"30","unitCost":"3.00"}]}"#)
            #expect((second.object["lines"] as? [[String: Any]])?.first?["averageCostAfter"] as? String == "2.75")
            let sale = try await client.call(.post, "/api/v1/sales", """
                {"effectiveAt":"2026-03-03T10:00:00Z","customerId":\(customer.object["id"] as? Int ?? 0),"paymentMethod":"card","lines":[{"productId":\(productID),"quantity":"5"}]}
                """)
            #expect(sale.status == 201, "\(sale.text)")
            #expect(sale.object["costOfGoodsSold"] as? String == "13.75")
            #expect(sale.object["revenue"] as? String == "20.00")
            let product = try await client.call(.get, "/api/v1/products/\(productID)")
            #expect(product.object["quantity"] as? String == "35")
            #expect(product.object["stockValue"] as? String == "96.25")
            #expect(product.object["costPrice"] as? String == "2.75")
            #expect(try await client.call(.get, "/api/v1/products/barcode/4006381333931").object["id"] as? Int == productID)
            let daily = try await client.call(.get, "/api/v1/reports/daily?date=2026-03-03").array
            #expect(daily.first?["revenue"] as? String == "20.00")
            #expect(daily.first?["profit"] as? String == "6.25")
            let period = try await client.call(.get, "/api/v1/reports/daily/total?from=2026-03-01&to=2026-03-31").object
            #expect(period["from"] as? String == "2026-03-01" && period["to"] as? String == "2026-03-31")
            #expect(period["revenue"] as? String == "20.00" && period["salesCount"] as? Int == 1 && period["averageBasket"] as? String == "20.00")
            #expect(period["profit"] as? String == "6.25", "\(period)")
            let top = try await client.call(.get, "/api/v1/reports/top?from=2026-03-01&to=2026-03-31").array
            #expect(top.first?["productId"] as? Int == productID)
            let snapshot = try await client.call(.get, "/api/v1/reports/snapshot?at=2026-03-01").object
            #expect(snapshot["totalValue"] as? String == "20.00")
            let movements = try await client.call(.get, "/api/v1/products/\(productID)/movements").array
            #expect(movements.count == 3)
            // Each movement's unit cost is the books' (10 at 2.00, 30 at 3.00, 5 sold at the 2.75 average).
            #expect(movements.map { $0["unitCost"] as? String } == ["2.00", "3.00", "2.75"], "\(movements)")
            #expect(product.object["soldOut"] as? Bool == false)
            // The category's 50 % markup on the 2.75 cost price: 4.125 → 4.13, computed by the domain, not the form.
            let suggestion = try await client.call(.get, "/api/v1/products/\(productID)/price-suggestion").object
            #expect(suggestion["salePrice"] as? String == "4.13" && suggestion["costPrice"] as? String == "2.75" && suggestion["markup"] as? String == "50")
            #expect(try await client.call(.get, "/api/v1/products/\(productID)/price-suggestion?categoryId=999").status == 404)
            #expect(try await client.call(.get, "/api/v1/sales").array.first?["total"] as? String == "20.00")
            #expect(try await client.call(.get, "/api/v1/purchases").array.count == 2)
            let csv = try await client.call(.get, "/api/v1/export/products")
            #expect(csv.contentType == "text/csv; charset=utf-8")
            #expect(try CSV.parse(csv.text).count == 2)
        }
    }

    @Test func aSaleRemembersWhoRangItUpAndTheCashTendered() async throws {
        let (app, store) = try makeApp()
        let clerk = try await token(store, role: .staff, username: "clerk")
        let boss = try await token(store, role: .admin, username: "boss")
        let product = try await store.createProduct(ProductDetails(name: "Bun", salePrice: Money(minorUnits: 250)))
        _ = try await store.postPurchase(PurchaseDraft(effectiveAt: .now, lines: [.init(productID: product.id, quantity: Quantity(10), unitCost: Money(minorUnits: 100))]))
        try await app.test(.router) { raw in
            let staff = Caller(client: raw, token: clerk), admin = Caller(client: raw, token: boss)
            let short = try await staff.call(.post, "/api/v1/sales", #"{"cashTendered":"4.99","lines":[{"productId":\#(product.id.rawValue),"quantity":"2"}]}"#)
            #expect(short.status == 422 && short.object["field"] as? String == "cashTendered", "\(short.text)")
            let sale = try await staff.call(.post, "/api/v1/sales", #"{"cashTendered":"10","lines":[{"productId":\#(product.id.rawValue),"quantity":"2"}]}"#)
            #expect(sale.status == 201, "\(sale.text)")
            #expect(sale.object["soldBy"] as? String == "clerk")
            #expect(sale.object["cashTendered"] as? String == "10.00")
            #expect(sale.object["change"] as? String == "5.00")
            // An admin's correction keeps the seller.
            let id = try #require(sale.object["id"] as? Int)
            let edited = try await admin.call(.put, "/api/v1/sales/\(id)", #"{"paymentMethod":"card","lines":[{"productId":\#(product.id.rawValue),"quantity":"3"}]}"#)
            #expect(edited.status == 200, "\(edited.text)")
            #expect(edited.object["soldBy"] as? String == "clerk")
            #expect(edited.object["change"] == nil)
        }
    }

    @Test func badRequestsAreProblemsThatChangeNothing() async throws {
        let (app, store) = try makeApp()
        let admin = try await token(store, role: .admin)
        let product = try await store.createProduct(ProductDetails(name: "Milk", salePrice: Money(minorUnits: 150)))
        try await app.test(.router) { raw in
            let client = Caller(client: raw, token: admin)
            let before = try await store.testOnly_dump()
            let cases: [(HTTPRequest.Method, String, String?, Int, String?)] = [
                (.post, "/api/v1/products", "{not json", 400, nil),
                (.post, "/api/v1/products", "", 400, nil),
                (.post, "/api/v1/products", #"{"name":"X","colour":"red"}"#, 400, "colour"),
                (.post, "/api/v1/products", #"{"name":7}"#, 400, "name"),
                (.post, "/api/v1/products", #"{"salePrice":"1.00"}"#, 400, "name"),
                (.post, "/api/v1/products", #"{"name":"X","salePrice":"1.005"}"#, 422, "salePrice"),
                (.post, "/api/v1/products", #"{"name":"X","salePrice":"abc"}"#, 422, "salePrice"),
                (.post, "/api/v1/products", #"{"name":"X","barcode":"4006381333932"}"#, 422, "barcode"),
                (.get, "/api/v1/products/abc", nil, 400, "id"),
                (.get, "/api/v1/products/999", nil, 404, "productId"),
                (.get, "/api/v1/products?limit=100000", nil, 422, "limit"),
                (.get, "/api/v1/products?status=sparkly", nil, 422, "status"),
                (.post, "/api/v1/sales", #"{"lines":[{"productId":\#(product.id),"quantity":"1"}]}"#, 422, "lines[0].quantity"),
                (.post, "/api/v1/sales", #"{"lines":[{"productId":\#(product.id),"quantity":"0"}]}"#, 422, "lines[0].quantity"),
                (.post, "/api/v1/sales", #"{"lines":[{"productId":999,"quantity":"1"}]}"#, 404, "lines[0].productId"),
                (.post, "/api/v1/sales", #"{"effectiveAt":"yesterday","lines":[{"productId":\#(product.id),"quantity":"1","unitPrice":"1"}]}"#, 422, "effectiveAt"),
                (.post, "/api/v1/purchases", #"{"lines":[{"productId":\#(product.id),"quantity":"1","unitCost":"-1"}]}"#, 422, "lines[0].unitCost"),
                (.post, "/api/v1/purchases", #"{"lines":[{"quantity":"1","unitCost":"1"}]}"#, 422, "lines[0].productId"),
                (.post, "/api/v1/purchases", #"{"lines":[]}"#, 422, "lines"),
                (.delete, "/api/v1/purchases/77", nil, 404, "id"),
                (.post, "/api/v1/adjustments", #"{"productId":\#(product.id),"quantityChange":"1","reason":"count","colour":"red"}"#, 400, "colour"),
                (.post, "/api/v1/returns/supplier", #"{"lines":[{"productId":\#(product.id),"quantity":"1","extra":1}]}"#, 400, "lines[0].extra"),
                (.post, "/api/v1/adjustments", "[1,2]", 400, nil),
                (.post, "/api/v1/adjustments", #"{"productId":\#(product.id),"reason":"count"}"#, 422, "quantityChange"),
                (.post, "/api/v1/adjustments", #"{"productId":\#(product.id),"quantityChange":"1"}"#, 422, "reason"),
                (.post, "/api/v1/adjustments", #"{"productId":\#(product.id),"quantityChange":"1","countedQuantity":"2","reason":"count"}"#, 422, "countedQuantity"),
                (.post, "/api/v1/adjustments", #"{"productId":\#(product.id),"countedQuantity":"2","reason":"damage"}"#, 422, "reason"),
                (.post, "/api/v1/adjustments", #"{"productId":\#(product.id),"countedQuantity":"0"}"#, 422, "countedQuantity"),
                (.post, "/api/v1/tokens", #"{"name":"x","scope":"all"}"#, 400, "scope"),
                (.get, "/api/v1/reports/daily?date=2026-02-30", nil, 422, "date"),
                (.get, "/api/v1/reports/top?by=profit", nil, 422, "by"),
                (.get, "/api/v1/export/everything", nil, 404, "kind"),
                (.post, "/api/v1/barcodes/decode", "not an image", 422, "body"),
                (.post, "/api/v1/barcodes/decode?width=10&height=10", "short", 422, "width"),
                (.put, "/api/v1/settings", #"{"shopName":"S","currency":"EUR","timeZone":"Mars/Base","defaultTaxRate":"7","lowStockDefault":"5","lockMinutes":5}"#, 422, "timeZone"),
            ]
            for (method, uri, body, status, field) in cases {
                let reply = try await client.call(method, uri, body)
                #expect(reply.status == status, "\(method) \(uri) \(body ?? ""): \(reply.text)")
                #expect(reply.contentType == "application/problem+json", "\(uri)")
                #expect(reply.object["field"] as? String == field, "\(method) \(uri) \(body ?? ""): \(reply.text)")
                #expect((reply.object["detail"] as? String)?.isEmpty == false)
            }
            #expect(try await store.testOnly_dump() == before)
            #expect(try await client.call(.get, "/nowhere").status == 404)
        }
    }

    @Test func importDryRunAndRefusal() async throws {
        let (app, store) = try makeApp()
        let admin = try await token(store, role: .admin)
        try await app.test(.router) { raw in
            let client = Caller(client: raw, token: admin)
            let good = try await client.call(.post, "/api/v1/import/products?dryRun=true", nil, raw: Array("name,sku,sale_price,category\nTea,T1,2.50,Drinks\n".utf8))
            #expect(good.status == 200)
            #expect(good.object["created"] as? Int == 1)
            #expect(try await store.products(ProductQuery()).total == 0)
            let bad = try await client.call(.post, "/api/v1/import/products", nil, raw: Array("name,sale_price\nTea,x\n,1\n".utf8))
            #expect(bad.status == 422)
            #expect((bad.object["errors"] as? [[String: Any]])?.compactMap { $0["line"] as? Int } == [2, 3])
            let done = try await client.call(.post, "/api/v1/import/products", nil, raw: Array("name,sku,sale_price,category\nTea,T1,2.50,Drinks\n".utf8))
            #expect(done.object["created"] as? Int == 1)
            #expect(try await store.products(ProductQuery()).total == 1)
        }
    }

    @Test func decodesARawCameraFrameAndFindsTheProduct() async throws {
        let (app, store) = try makeApp()
        _ = try await store.createProduct(ProductDetails(name: "Chocolate", barcode: "4006381333931"))
        let staff = try await token(store, role: .staff)
        let width = 640, height = 480
        let frame = EAN13Painter.frame(code: "4006381333931", width: width, height: height)
        try await app.test(.router) { raw in
            let client = Caller(client: raw, token: staff)
            let reply = try await client.call(.post, "/api/v1/barcodes/decode?width=\(width)&height=\(height)", nil, raw: frame)
            #expect(reply.status == 200, "\(reply.text)")
            let codes = reply.object["barcodes"] as? [[String: Any]] ?? []
            #expect(codes.first?["text"] as? String == "4006381333931")
            #expect((codes.first?["product"] as? [String: Any])?["name"] as? String == "Chocolate")
            let empty = try await client.call(.post, "/api/v1/barcodes/decode?width=64&height=48", nil, raw: [UInt8](repeating: 200, count: 64 * 48))
            #expect((empty.object["barcodes"] as? [Any])?.isEmpty == true)
        }
    }

    @Test func servesOverRealHTTP() async throws {
        let (app, store) = try makeApp()
        _ = try await store.createProduct(ProductDetails(name: "Live"))
        let staff = try await token(store, role: .staff)
        try await app.test(.live) { raw in
            let client = Caller(client: raw, token: staff)
            let reply = try await client.call(.get, "/api/v1/products")
            #expect(reply.status == 200)
            #expect((reply.object["items"] as? [[String: Any]])?.first?["name"] as? String == "Live")
            let health = try await client.call(.get, "/health")
            #expect(health.status == 200)
            #expect(health.object["status"] as? String == "ok")
            #expect(health.object["database"] as? String == "sqlite")
            #expect(health.object["databaseReachable"] as? Bool == true)
            #expect(health.object["version"] as? String == StockroomVersion.current)
        }
    }
}

/// Paints an EAN-13 symbol into a grey camera-sized frame, for decoding tests.
enum EAN13Painter {
    static let left: [[Int]] = [[3, 2, 1, 1], [2, 2, 2, 1], [2, 1, 2, 2], [1, 4, 1, 1], [1, 1, 3, 2], [1, 2, 3, 1], [1, 1, 1, 4], [1, 3, 1, 2], [1, 2, 1, 3], [3, 1, 1, 2]]
    static let parity = ["LLLLLL", "LLGLGG", "LLGGLG", "LLGGGL", "LGLLGG", "LGGLLG", "LGGGLL", "LGLGLG", "LGLGGL", "LGGLGL"]

    static func frame(code: String, width: Int, height: Int, module: Int = 3) -> [UInt8] {
        let digits = code.compactMap(\.wholeNumberValue)
        var bars: [(Bool, Int)] = [(true, 1), (false, 1), (true, 1)]
        let pattern = Array(self.parity[digits[0]])
        for index in 1...6 {
            let widths = self.left[digits[index]]
            let seq = pattern[index - 1] == "L" ? widths : widths.reversed()
            for (i, w) in seq.enumerated() { bars.append((i % 2 == 1, w)) }
        }
        bars += [(false, 1), (true, 1), (false, 1), (true, 1), (false, 1)]
        for index in 7...12 {
            for (i, w) in self.left[digits[index]].enumerated() { bars.append((i % 2 == 0, w)) }
        }
        bars += [(true, 1), (false, 1), (true, 1)]
        var pixels = [UInt8](repeating: 235, count: width * height)
        let total = bars.reduce(0) { $0 + $1.1 } * module
        var x = (width - total) / 2
        for (dark, w) in bars {
            for dx in 0..<(w * module) where dark {
                for y in (height / 4)..<(height * 3 / 4) { pixels[y * width + x + dx] = 30 }
            }
            x += w * module
        }
        return pixels
    }
}
