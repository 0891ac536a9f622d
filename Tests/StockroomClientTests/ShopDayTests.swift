import Foundation
import HTTPTypes
import OpenAPIRuntime
import OpenAPIURLSession
import StockroomClient
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Signs requests with a browser session: its cookie and CSRF token (used once here, to create the API token).
struct SessionMiddleware: ClientMiddleware {
    let cookie: String
    let csrfToken: String

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        var request = request
        request.headerFields[.cookie] = self.cookie
        request.headerFields[HTTPField.Name("X-CSRF-Token")!] = self.csrfToken
        return try await next(request, body, baseURL)
    }
}

/// A whole shop day driven only through the generated client against a live `stockroom serve`, with every figure
/// computed by hand from the books' rules (README, "The books"): weighted average cost `V/Q`, an issue of `q` costs
/// `q·V/Q` rounded half away from zero to the cent, a customer return restocks at its sale's booked cost, tax is
/// per line on the net amount, and a return refunds its share of the line's revenue and tax.
@Suite struct ShopDayTests {
    /// One session without cookies, so the token client is signed in by its token alone.
    static let urlSession: URLSession = {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpShouldSetCookies = false
        configuration.httpCookieAcceptPolicy = .never
        configuration.timeoutIntervalForRequest = 30
        return URLSession(configuration: configuration)
    }()

    @Test func aShopDayThroughTheGeneratedClientBooksTheFiguresTheBooksImply() async throws {
        let server = LiveStockroom()
        try await server.start()
        defer { server.stop() }

        // Setup: the first admin (which signs in with a session), then an API token for everything else.
        let anonymous = Client(serverURL: server.url, token: nil, session: Self.urlSession)
        let signedIn = try await anonymous.setup(body: .json(.init(username: "owner", password: "long password", pin: "1234"))).created
        let cookie = try #require(signedIn.headers.setCookie?.split(separator: ";").first.map(String.init))
        #expect(cookie.hasPrefix("stockroom_session="))
        let session = Client(
            serverURL: server.url, transport: URLSessionTransport(configuration: .init(session: Self.urlSession)),
            middlewares: [SessionMiddleware(cookie: cookie, csrfToken: try signedIn.body.json.csrfToken)])
        let token = try #require(try await session.createToken(body: .json(.init(name: "native app"))).created.body.json.token)
        let client = Client(serverURL: server.url, token: token, session: Self.urlSession)
        #expect(try await client.me().ok.body.json.user.username == "owner")
        // Without the token the API is closed.
        guard case .clientError(statusCode: 401, let refusal) = try await anonymous.listProducts() else {
            Issue.record("listing products without a token was not refused with 401")
            return
        }
        #expect(try refusal.body.applicationProblemJson.code == "unauthenticated")

        // Catalogue: a category, three products, a supplier.
        let coffee = try await client.createCategory(body: .json(.init(name: "Coffee"))).created.body.json.id
        let blend = try await client.createProduct(body: .json(.init(
            name: "House blend 250 g", sku: "HB-250", barcode: "4006381333931", categoryId: coffee, unit: "pcs",
            salePrice: "8.90", taxRate: "7", lowStockThreshold: "5"))).created.body.json
        #expect(blend.categoryId == coffee && blend.quantity == "0" && blend.status == .out)
        let oatMilk = try await client.createProduct(body: .json(.init(name: "Oat milk 1 l", salePrice: "2.49", taxRate: "19", lowStockThreshold: "10")))
            .created.body.json.id
        let filters = try await client.createProduct(body: .json(.init(name: "Filter papers", salePrice: "3.50", taxRate: "19", lowStockThreshold: "2")))
            .created.body.json.id
        let roastery = try await client.createSupplier(body: .json(.init(name: "Roastery Nord", phone: "+49 40 123"))).created.body.json.id

        // Purchases: 10 @ 4.00 and 12 oat milk @ 0.95, then 3 more @ 4.75: V = 40.00 + 14.25 = 54.25, Q = 13,
        // average 54.25 / 13 = 4.1730769… → 4.17 shown, 4.173077 exact.
        let first = try await client.createPurchase(body: .json(.init(
            effectiveAt: "2026-03-02T08:00:00.000Z", supplierId: roastery, note: "weekly order",
            lines: [.init(productId: blend.id, quantity: "10", unitCost: "4.00"), .init(productId: oatMilk, quantity: "12", unitCost: "0.95")])))
            .created.body.json
        #expect(first.total == "51.40" && first.supplierName == "Roastery Nord" && first.effectiveAt == "2026-03-02T08:00:00.000Z")
        let second = try await client.createPurchase(body: .json(.init(
            effectiveAt: "2026-03-02T09:00:00.000Z", supplierId: roastery, lines: [.init(productId: blend.id, quantity: "3", unitCost: "4.75")])))
            .created.body.json
        #expect(second.total == "14.25")
        #expect(second.lines.map { [$0.amount, $0.averageCostAfter, $0.averageCostAfterExact] } == [["14.25", "4.17", "4.173077"]])

        // Sale 1 (cash, with a tip): 4 blend at 8.90 = 35.60, tax 7 % = 2.492 → 2.49, cost 4 × 54.25 / 13 = 16.692… → 16.69;
        // 3 oat milk at 2.49 = 7.47 less 0.47 = 7.00, tax 19 % = 1.33, cost 3 × 11.40 / 12 = 2.85.
        // Revenue 42.60 + tax 3.82 + tip 1.00 = 47.42; 50.00 tendered gives 2.58 change; cost 19.54, profit 23.06.
        let saleRequest = Components.Schemas.SaleRequest(
            effectiveAt: "2026-03-02T11:00:00.000Z", tip: "1.00", paymentMethod: .cash, cashTendered: "50.00",
            lines: [.init(productId: blend.id, quantity: "4"), .init(productId: oatMilk, quantity: "3", discount: "0.47")])
        let key = UUID().uuidString
        let booked = try await client.createSale(headers: .init(idempotencyKey: key), body: .json(saleRequest)).created
        #expect(booked.headers.idempotentReplayed == nil)
        let sale = try booked.body.json
        #expect([sale.revenue, sale.tax, sale.tip, sale.total, sale.costOfGoodsSold, sale.profit] == ["42.60", "3.82", "1.00", "47.42", "19.54", "23.06"])
        #expect(sale.cashTendered == "50.00" && sale.change == "2.58" && sale.paymentMethod == .cash && sale.soldBy == "owner")
        #expect(sale.lines.map { [$0.quantity, $0.unitPrice, $0.discount, $0.revenue, $0.taxRate, $0.tax, $0.costOfGoodsSold] } ==
                [["4", "8.90", "0.00", "35.60", "7", "2.49", "16.69"], ["3", "2.49", "0.47", "7.00", "19", "1.33", "2.85"]])
        // What a receipt prints comes from the server too: each line's amount before its discount, the sale's discounts
        // and its tax per rate.
        #expect(sale.lines.map(\.amount) == ["35.60", "7.47"] && sale.discount == "0.47")
        #expect(sale.taxes.map { [$0.taxRate, $0.revenue, $0.tax] } == [["7", "35.60", "2.49"], ["19", "7.00", "1.33"]])

        // The till retries after a lost answer: the same key answers the same sale and books nothing again.
        let retried = try await client.createSale(headers: .init(idempotencyKey: key), body: .json(saleRequest)).created
        #expect(retried.headers.idempotentReplayed == ._true)
        #expect(try retried.body.json.id == sale.id)

        // Sale 2 (card): 2 blend from V = 54.25 − 16.69 = 37.56, Q = 9: cost 2 × 37.56 / 9 = 8.3466… → 8.35; tax 1.246 → 1.25.
        // A dry run shows exactly what would be booked and stores nothing.
        let secondSale = Components.Schemas.SaleRequest(
            effectiveAt: "2026-03-02T13:00:00.000Z", paymentMethod: .card, lines: [.init(productId: blend.id, quantity: "2")])
        let preview = try await client.createSale(query: .init(dryRun: true), body: .json(secondSale)).ok.body.json
        let card = try await client.createSale(body: .json(secondSale)).created.body.json
        for figures in [preview, card] {
            #expect([figures.revenue, figures.tax, figures.total, figures.costOfGoodsSold, figures.profit] == ["17.80", "1.25", "19.05", "8.35", "9.45"])
        }
        #expect(card.id == preview.id, "the dry run names the id the sale gets")

        // A customer brings one blend back from sale 1: refund 35.60 / 4 = 8.90 and tax 2.49 / 4 = 0.6225 → 0.62;
        // it goes back into stock at its booked cost, 16.69 / 4 = 4.1725 → 4.17.
        let blendLine = try #require(sale.lines.first { $0.productId == blend.id })
        _ = try await client.createCustomerReturn(body: .json(.init(
            effectiveAt: "2026-03-02T15:00:00.000Z", saleId: sale.id, note: "wrong grind", lines: [.init(saleLineId: blendLine.id, quantity: "1")])))
            .created.body.json.id
        let afterReturn = try await client.getSale(path: .init(id: sale.id)).ok.body.json
        #expect(afterReturn.lines.map(\.returnedQuantity) == ["1", "0"] && afterReturn.lines.map(\.returnableQuantity) == ["3", "3"])

        // Stock: blend 13 − 4 − 2 + 1 = 8 worth 54.25 − 16.69 − 8.35 + 4.17 = 33.38 (average 4.1725 → 4.17);
        // oat milk 12 − 3 = 9 worth 11.40 − 2.85 = 8.55 (0.95); filter papers never moved.
        let product = try await client.getProduct(path: .init(id: blend.id)).ok.body.json
        #expect([product.quantity, product.stockValue, product.averageCost, product.averageCostExact, product.costPrice] == ["8", "33.38", "4.17", "4.172500", "4.17"])
        #expect(product.status == .inStock && product.effectiveLowStockThreshold == "5")
        let search = try await client.listProducts(query: .init(search: "oat")).ok.body.json
        #expect(search.total == 1 && search.items.map(\.status) == [.low] && search.items.map(\.stockValue) == ["8.55"])

        // The day's figures: gross 35.60 + 7.47 + 17.80 = 60.87, discounts 0.47, returns 8.90,
        // revenue 60.87 − 0.47 − 8.90 = 51.50, tax 2.49 + 1.33 + 1.25 − 0.62 = 4.45, tips 1.00,
        // cost 16.69 + 2.85 + 8.35 − 4.17 = 23.72, profit 27.78, 2 sales (the retry booked none), basket 51.50 / 2 = 25.75.
        let days = try await client.dailyReport(query: .init(date: "2026-03-02")).ok.body.json
        #expect(days.count == 1)
        let day = try #require(days.first)
        #expect(day.date == "2026-03-02" && day.salesCount == 2)
        #expect([day.grossSales, day.discounts, day.returns, day.revenue, day.tax, day.tips, day.costOfGoodsSold, day.profit, day.averageBasket] ==
                ["60.87", "0.47", "8.90", "51.50", "4.45", "1.00", "23.72", "27.78", "25.75"])

        // Snapshots: between the purchases and the first sale, and at the day's end.
        let morning = try await client.stockSnapshot(query: .init(at: "2026-03-02T10:00:00.000Z")).ok.body.json
        #expect(morning.totalQuantity == "25" && morning.totalValue == "65.65")
        #expect(morning.lines.map { [$0.name, $0.quantity, $0.value, $0.averageCost, $0.averageCostExact] } ==
                [["House blend 250 g", "13", "54.25", "4.17", "4.173077"], ["Oat milk 1 l", "12", "11.40", "0.95", "0.950000"]])
        let evening = try await client.stockSnapshot(query: .init(at: "2026-03-02")).ok.body.json
        #expect(evening.totalQuantity == "17" && evening.totalValue == "41.93")
        #expect(evening.lines.map { [$0.name, $0.quantity, $0.value, $0.averageCost, $0.averageCostExact] } ==
                [["House blend 250 g", "8", "33.38", "4.17", "4.172500"], ["Oat milk 1 l", "9", "8.55", "0.95", "0.950000"]])
        // The books balance: everything bought (51.40 + 14.25) is either sold at cost (net 23.72) or on the shelf (41.93).
        // (Cost members are optional in the document: only callers who may see costs get them, as this admin does.)
        #expect(try cents(#require(first.total)) + cents(#require(second.total)) == cents(#require(day.costOfGoodsSold)) + cents(#require(evening.totalValue)))

        // Low stock: oat milk at 9 is at or below its 10; filter papers are out; the blend (8 above 5) is fine.
        let low = try await client.lowStock().ok.body.json.sorted { $0.productId < $1.productId }
        #expect(low.map { [String($0.productId), $0.quantity, $0.threshold, $0.status.rawValue] } ==
                [[String(oatMilk), "9", "10", "low"], [String(filters), "0", "2", "out"]])

        // Top products of the day, net of the return: blend 4 + 2 − 1 = 5 for 35.60 + 17.80 − 8.90 = 44.50; oat milk 3 for 7.00.
        let top = try await client.topProducts(query: .init(from: "2026-03-02T00:00:00.000Z", to: "2026-03-02T23:59:59.999Z")).ok.body.json
        #expect(top.map { [$0.name, $0.quantity, $0.revenue] } == [["House blend 250 g", "5", "44.50"], ["Oat milk 1 l", "3", "7.00"]])
    }
}

/// An amount of the API ("41.93", "-8.90") in cents, exactly.
func cents(_ text: String) throws -> Int {
    let parts = text.split(separator: ".", omittingEmptySubsequences: false)
    let whole = try #require(Int(parts[0]), "not an amount: \(text)")
    let fraction = try #require(parts.count == 2 && parts[1].count == 2 ? Int(parts[1]) : nil, "not an amount with cents: \(text)")
    return whole * 100 + (text.hasPrefix("-") ? -fraction : fraction)
}
