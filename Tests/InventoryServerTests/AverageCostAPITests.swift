import Foundation
import HummingbirdTesting
import InventoryDomain
import InventoryServer
import InventoryStore
import Testing

/// The average cost is value ÷ quantity rounded once, everywhere the API shows it, with the full-precision figure
/// beside it (issue 10, defect 3).
@Suite struct AverageCostAPITests {
    @Test func theIssuesExampleShowsWhatOneUnitBooks() async throws {
        let (app, store) = try makeApp()
        let admin = try await token(store, role: .admin)
        try await app.test(.router) { raw in
            let client = Caller(client: raw, token: admin)
            let product = try await client.call(.post, "/api/v1/products", #"{"name":"Screw","salePrice":"1.00"}"#)
            let id = try #require(product.object["id"] as? Int)
            _ = try await client.call(.post, "/api/v1/purchases",
                #"{"effectiveAt":"2026-01-20T09:00:00Z","lines":[{"productId":\#(id),"quantity":"20000","unitCost":"0.25"}]}"#)
            let second = try await client.call(.post, "/api/v1/purchases",
                #"{"effectiveAt":"2026-01-20T10:00:00Z","lines":[{"productId":\#(id),"quantity":"1","unitCost":"100.25"}]}"#)
            let line = try #require((second.object["lines"] as? [[String: Any]])?.first)
            #expect(line["averageCostAfter"] as? String == "0.25")
            #expect(line["averageCostAfterExact"] as? String == "0.255000")

            let shown = try await client.call(.get, "/api/v1/products/\(id)").object
            #expect(shown["averageCost"] as? String == "0.25")
            #expect(shown["costPrice"] as? String == "0.25")  // the former name, same figure
            #expect(shown["averageCostExact"] as? String == "0.255000")
            let listed = (try await client.call(.get, "/api/v1/products").object["items"] as? [[String: Any]])?.first { $0["id"] as? Int == id }
            #expect(listed?["averageCost"] as? String == "0.25")

            let movement = try #require(try await client.call(.get, "/api/v1/products/\(id)/movements").array.last)
            #expect(movement["averageCostAfter"] as? String == "0.25")
            #expect(movement["averageCostAfterExact"] as? String == "0.255000")

            let snapshot = try await client.call(.get, "/api/v1/reports/snapshot?at=2026-01-20").object
            let stock = try #require((snapshot["lines"] as? [[String: Any]])?.first)
            #expect(stock["averageCost"] as? String == "0.25")
            #expect(stock["averageCostExact"] as? String == "0.255000")

            let csv = try CSV.parse(try await client.call(.get, "/api/v1/export/products").text)
            let column = try #require(csv.first?.cells.firstIndex(of: "cost_price"))
            #expect(csv.dropFirst().first?.cells[column] == "0.25")

            // Selling one unit books the average shown.
            let sale = try await client.call(.post, "/api/v1/sales",
                #"{"effectiveAt":"2026-01-20T11:00:00Z","paymentMethod":"cash","lines":[{"productId":\#(id),"quantity":"1"}]}"#)
            #expect(sale.object["costOfGoodsSold"] as? String == "0.25")

        }
    }
}
