import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import InventoryDomain
@testable import InventoryServer
import InventoryStore
import Testing

/// What the web app shows comes from the server (issue 10): a sale line takes a percentage discount that the domain
/// turns into money (the till used to), and the sale answers its lines' amounts, its discounts and its tax per rate
/// (the receipt used to add them up).
@Suite struct SaleFiguresAPITests {
    @Test func aPercentageDiscountIsBookedAsTheDomainRoundsIt() async throws {
        let (app, store) = try makeApp()
        let staff = try await token(store, role: .staff)
        let jam = try await store.createProduct(ProductDetails(name: "Jam", salePrice: Money(minorUnits: 333), taxRate: Percent(hundredths: 1900), tracksStock: false))
        let tea = try await store.createProduct(ProductDetails(name: "Tea", salePrice: Money(minorUnits: 115), taxRate: Percent(hundredths: 700), tracksStock: false))
        try await app.test(.router) { raw in
            let client = Caller(client: raw, token: staff)
            // 3 × 3.33 = 9.99, 10 % = 0.999 → 1.00; 1.15 × 15 % = 0.1725 → 0.17.
            let body = #"{"paymentMethod":"card","lines":[{"productId":\#(jam.id),"quantity":"3","discountPercent":"10"},{"productId":\#(tea.id),"quantity":"1","discountPercent":"15%"}]}"#
            let preview = try await client.call(.post, "/api/v1/sales?dryRun=true", body)
            #expect(preview.status == 200, "\(preview.text)")
            let lines = preview.object["lines"] as? [[String: Any]] ?? []
            #expect(lines.map { $0["discount"] as? String } == ["1.00", "0.17"])
            #expect(lines.map { $0["revenue"] as? String } == ["8.99", "0.98"])
            let posted = try await client.call(.post, "/api/v1/sales", body)
            #expect(posted.status == 201, "\(posted.text)")
            #expect((posted.object["lines"] as? [[String: Any]])?.map { $0["discount"] as? String } == ["1.00", "0.17"])
            #expect(posted.object["total"] as? String == preview.object["total"] as? String)

            // Either an amount or a percentage, and a percentage of at most 100.
            let both = try await client.call(.post, "/api/v1/sales?dryRun=true",
                                             #"{"lines":[{"productId":\#(jam.id),"quantity":"1","discount":"0.10","discountPercent":"10"}]}"#)
            #expect(both.status == 422 && both.object["field"] as? String == "lines[0].discountPercent", "\(both.text)")
            let tooMuch = try await client.call(.post, "/api/v1/sales?dryRun=true", #"{"lines":[{"productId":\#(jam.id),"quantity":"1","discountPercent":"100.01"}]}"#)
            #expect(tooMuch.status == 422 && tooMuch.object["field"] as? String == "lines[0].discountPercent", "\(tooMuch.text)")
            let all = try await client.call(.post, "/api/v1/sales?dryRun=true", #"{"lines":[{"productId":\#(jam.id),"quantity":"1","discountPercent":"100"}]}"#)
            #expect(all.object["total"] as? String == "0.00", "\(all.text)")
        }
    }

    @Test func aSaleAnswersItsLineAmountsDiscountsAndTaxPerRate() async throws {
        let (app, store) = try makeApp()
        let staff = try await token(store, role: .staff)
        let coffee = try await store.createProduct(ProductDetails(name: "Coffee", salePrice: Money(minorUnits: 250), taxRate: Percent(hundredths: 700), tracksStock: false))
        let juice = try await store.createProduct(ProductDetails(name: "Juice", salePrice: Money(minorUnits: 400), taxRate: Percent(hundredths: 1900), tracksStock: false))
        let cake = try await store.createProduct(ProductDetails(name: "Cake", salePrice: Money(minorUnits: 333), taxRate: Percent(hundredths: 1900), tracksStock: false))
        try await app.test(.router) { raw in
            let client = Caller(client: raw, token: staff)
            let posted = try await client.call(.post, "/api/v1/sales", #"""
                {"cashTendered":"20","lines":[{"productId":\#(coffee.id),"quantity":"2","discount":"0.50"},{"productId":\#(juice.id),"quantity":"1"},
                {"productId":\#(cake.id),"quantity":"1","discountPercent":"10"}]}
                """#)
            #expect(posted.status == 201, "\(posted.text)")
            let sale = try await client.call(.get, "/api/v1/sales/\(try #require(posted.object["id"] as? Int))").object
            let lines = sale["lines"] as? [[String: Any]] ?? []
            #expect(lines.map { $0["amount"] as? String } == ["5.00", "4.00", "3.33"])
            #expect(lines.map { $0["discount"] as? String } == ["0.50", "0.00", "0.33"])
            #expect(sale["discount"] as? String == "0.83")
            // 4.50 at 7 % → 0.315 → 0.32; 4.00 and 3.00 at 19 % → 0.76 + 0.57.
            let taxes = sale["taxes"] as? [[String: String]] ?? []
            #expect(taxes == [["taxRate": "7", "revenue": "4.50", "tax": "0.32", "gross": "4.82"], ["taxRate": "19", "revenue": "7.00", "tax": "1.33", "gross": "8.33"]])
            #expect(lines.map { $0["lineTotal"] as? String } == ["4.50", "4.00", "3.00"], "before tax: what each line charged")
            #expect(sale["pricesIncludeTax"] as? Bool == false)
            #expect(sale["tax"] as? String == "1.65" && sale["revenue"] as? String == "11.50" && sale["total"] as? String == "13.15")
            #expect(sale["change"] as? String == "6.85")
        }
    }

    /// Issue 12, point 1: with prices including tax, a tile's price is what the customer pays, the tax per rate is taken
    /// out (net, tax, gross on the sale and in `GET /reports/taxes`), a PUT may not switch once a sale is booked, and
    /// `POST /settings/reprice` switches keeping what customers pay.
    @Test func pricesIncludingTaxAreWhatTheCustomerPays() async throws {
        let (app, store) = try makeApp()
        let staff = try await token(store, role: .staff)
        let admin = try await token(store, role: .admin)
        var settings = try await store.settings()
        settings.pricesIncludeTax = true
        try await store.saveSettings(settings)
        let latte = try await store.createProduct(ProductDetails(name: "Latte", salePrice: Money(minorUnits: 310), taxRate: Percent(hundredths: 700), tracksStock: false))
        try await app.test(.router) { raw in
            let till = Caller(client: raw, token: staff)
            let posted = try await till.call(.post, "/api/v1/sales", #"{"paymentMethod":"card","lines":[{"productId":\#(latte.id),"quantity":"1"}]}"#)
            #expect(posted.status == 201, "\(posted.text)")
            #expect(posted.object["total"] as? String == "3.10" && posted.object["pricesIncludeTax"] as? Bool == true, "\(posted.text)")
            #expect((posted.object["lines"] as? [[String: Any]])?.first?["lineTotal"] as? String == "3.10")
            #expect(posted.object["taxes"] as? [[String: String]] == [["taxRate": "7", "revenue": "2.90", "tax": "0.20", "gross": "3.10"]])
            let manager = Caller(client: raw, token: admin)
            let report = try await manager.call(.get, "/api/v1/reports/taxes")
            #expect(report.status == 200, "\(report.text)")
            #expect(report.array as? [[String: String]] == [["taxRate": "7", "net": "2.90", "tax": "0.20", "gross": "3.10"]], "\(report.text)")

            // A PUT may not switch the meaning any more; the settings are unchanged.
            let before = try await manager.call(.get, "/api/v1/settings").text
            let put = try await manager.call(.put, "/api/v1/settings", #"{"shopName":"My shop","currency":"EUR","timeZone":"UTC","defaultTaxRate":"0","lowStockDefault":"5","lockMinutes":5,"pricesIncludeTax":false}"#)
            #expect(put.status == 409 && put.object["field"] as? String == "pricesIncludeTax", "\(put.text)")
            #expect(try await manager.call(.get, "/api/v1/settings").text == before)
            // Staff may not re-price; an admin may, and the customer pays the same afterwards.
            #expect(try await till.call(.post, "/api/v1/settings/reprice", #"{"pricesIncludeTax":false}"#).status == 403)
            let repriced = try await manager.call(.post, "/api/v1/settings/reprice", #"{"pricesIncludeTax":false}"#)
            #expect(repriced.status == 200 && repriced.object["productsRepriced"] as? Int == 1, "\(repriced.text)")
            #expect((repriced.object["settings"] as? [String: Any])?["pricesIncludeTax"] as? Bool == false)
            let product = try await till.call(.get, "/api/v1/products/\(latte.id)")
            #expect(product.object["salePrice"] as? String == "2.90", "\(product.text)")
            let again = try await till.call(.post, "/api/v1/sales", #"{"paymentMethod":"card","lines":[{"productId":\#(latte.id),"quantity":"1"}]}"#)
            #expect(again.object["total"] as? String == "3.10" && again.object["pricesIncludeTax"] as? Bool == false, "\(again.text)")
            let unknown = try await manager.call(.post, "/api/v1/settings/reprice", #"{"pricesIncludeTax":true,"keep":"net"}"#)
            #expect(unknown.status == 422 || unknown.status == 400, "\(unknown.text)")
        }
    }
}
