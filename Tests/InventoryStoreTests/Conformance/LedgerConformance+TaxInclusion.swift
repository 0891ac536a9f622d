import Foundation
import InventoryDomain
import Testing

extension LedgerConformance {
    /// Prices that include tax (issue 12, point 1): a sale books what the customer pays with the tax taken out of each
    /// line, reports show net, tax and gross per rate equal to the receipts, the setting changes only before the first
    /// sale or by re-pricing (which keeps what customers pay), and a booked sale keeps its meaning.
    @Suite struct TaxInclusion {
        struct Shop {
            var store: any TestableRepository
            var latte: Product
            var cake: Product
        }

        static func cafe(_ backend: Backend) async throws -> Shop {
            let store = try await backend.make()
            var settings = try await store.settings()
            settings.pricesIncludeTax = true
            try await store.saveSettings(settings)   // no sale yet: free to change
            let latte = try await store.createProduct(ProductDetails(name: "Latte", salePrice: eur("3.10"), minimumSalePrice: eur("2.40"),
                                                                     taxRate: Percent(hundredths: 700)))
            let cake = try await store.createProduct(ProductDetails(name: "Cake", salePrice: eur("4.50"), taxRate: Percent(hundredths: 1900)))
            _ = try await store.postPurchase(PurchaseDraft(effectiveAt: at(20260301), lines: [
                .init(productID: latte.id, quantity: qty(50), unitCost: eur("0.80")),
                .init(productID: cake.id, quantity: qty(20), unitCost: eur("1.50")),
            ]))
            return Shop(store: store, latte: latte, cake: cake)
        }

        @Test(arguments: Backend.ported)
        func aSaleChargesThePricesAndTakesTheTaxOutOfEachLine(backend: Backend) async throws {
            let shop = try await Self.cafe(backend)
            let sale = try await shop.store.postSale(SaleDraft(effectiveAt: at(20260302), lines: [
                .init(productID: shop.latte.id, quantity: qty(2), discount: eur("0.20")),
                .init(productID: shop.cake.id, quantity: qty(1)),
            ], tip: eur("0.50"), paymentMethod: .card))
            #expect(sale.pricesIncludeTax)
            // 2 × 3.10 − 0.20 = 6.00 with 0.39 tax (6.00 × 7 ÷ 107 = 0.3925); 4.50 with 0.72 tax (4.50 × 19 ÷ 119 = 0.7185).
            #expect(sale.lines.map(\.charged) == [eur("6.00"), eur("4.50")])
            #expect(sale.lines.map(\.tax) == [eur("0.39"), eur("0.72")])
            #expect(sale.lines.map(\.revenue) == [eur("5.61"), eur("3.78")])
            #expect(sale.lines.map(\.discount) == [eur("0.20"), eur("0.00")], "the receipt shows the discount as given")
            #expect(sale.lines.map(\.amount) == [eur("6.20"), eur("4.50")])
            #expect(sale.total == eur("11.00"))
            #expect(sale.taxShares.map(\.gross) == [eur("6.00"), eur("4.50")])
            // The reports: revenue before tax, gross − discounts = revenue, and tax per rate equal to the receipt's.
            let day = try #require(try await shop.store.daily(from: 20260302, to: 20260302).first)
            #expect(day.revenue == sale.revenue)
            #expect(day.tax == sale.tax)
            #expect(day.grossSales - day.discounts == day.revenue)
            #expect(day.discounts == eur("0.18"), "6.20 without its 0.41 tax is 5.79; 5.79 − 5.61")
            let taxes = try await shop.store.taxes(from: 20260302, to: 20260302)
            #expect(taxes == sale.taxShares)
            let movements = try await shop.store.allMovements()
            let calendar = try await shop.store.settings().calendar
            #expect(taxes == ReportFolds.taxes(movements: movements, calendar: calendar, from: 20260302, to: 20260302))
            #expect(try await shop.store.daily(from: 20260301, to: 20260303)
                == ReportFolds.daily(movements: movements, sales: try await shop.store.saleFacts(), calendar: calendar, from: 20260301, to: 20260303))
            // A return of one latte takes back its share of the line, and the tax report nets it.
            _ = try await shop.store.postCustomerReturn(CustomerReturnDraft(
                effectiveAt: at(20260302, minutes: 5), saleID: sale.id, lines: [.init(saleLineID: sale.lines[0].movementID, quantity: qty(1))]))
            let afterReturn = try await shop.store.taxes(from: 20260302, to: 20260302)
            #expect(afterReturn.map(\.gross) == [eur("3.00"), eur("4.50")])
        }

        @Test(arguments: Backend.ported)
        func afterTheFirstSaleOnlyRepricingSwitchesAndCustomersPayTheSame(backend: Backend) async throws {
            let shop = try await Self.cafe(backend)
            let first = try await shop.store.postSale(SaleDraft(effectiveAt: at(20260302), lines: [.init(productID: shop.latte.id, quantity: qty(1))]))
            #expect(first.total == eur("3.10"))
            var settings = try await shop.store.settings()
            settings.pricesIncludeTax = false
            try await expectRefusal(shop.store, .conflict, field: "pricesIncludeTax") { try await shop.store.saveSettings(settings) }

            #expect(try await shop.store.reprice(pricesIncludeTax: false) == 2)
            #expect(try await shop.store.settings().pricesIncludeTax == false)
            let latte = try await shop.store.product(shop.latte.id)
            #expect(latte.details.salePrice == eur("2.90"))             // 2.90 + 0.203 = 3.10
            #expect(latte.details.minimumSalePrice == eur("2.24"))      // 2.24 + 0.1568 = 2.40
            #expect(try await shop.store.product(shop.cake.id).details.salePrice == eur("3.78"))  // 3.78 + 0.7182 = 4.50
            let second = try await shop.store.postSale(SaleDraft(effectiveAt: at(20260303), lines: [.init(productID: shop.latte.id, quantity: qty(1))]))
            #expect(!second.pricesIncludeTax)
            #expect(second.total == first.total, "the customer pays the same after re-pricing")
            // The first sale keeps its meaning, also when edited.
            #expect(try await shop.store.sale(first.id).pricesIncludeTax)
            let edited = try await shop.store.updateSale(first.id, SaleDraft(effectiveAt: at(20260302), lines: [
                .init(productID: shop.latte.id, quantity: qty(1), unitPrice: eur("3.10"))]))
            #expect(edited.pricesIncludeTax && edited.total == eur("3.10"))
            // Every changed price is in the audit log, and so is the setting.
            let log = try await shop.store.auditLog(limit: 100, offset: 0)
            let fields = Set(log.flatMap(\.changes).map(\.field))
            #expect(fields.isSuperset(of: [.salePrice, .minimumSalePrice, .pricesIncludeTax]))
            // Switching to the meaning the shop already has changes nothing.
            #expect(try await shop.store.reprice(pricesIncludeTax: false) == 0)
            #expect(try await shop.store.product(shop.latte.id).details.salePrice == eur("2.90"))
            // And back: the prices return exactly.
            #expect(try await shop.store.reprice(pricesIncludeTax: true) == 2)
            #expect(try await shop.store.product(shop.latte.id).details.salePrice == eur("3.10"))
            #expect(try await shop.store.product(shop.latte.id).details.minimumSalePrice == eur("2.40"))
        }
    }
}
