import Foundation
import InventoryDomain
import Testing

extension LedgerConformance {
    /// A sale booked is answered from what its booking wrote rather than read back: a new one wholly
    /// (``PricedSale/record(id:recordedAt:receiptNumber:productNames:booked:payments:customerName:customerVisit:)``), an
    /// edit with its payments as written and no options or returns to look for when it has none. The answer must be what a later read of the
    /// same sale finds, on random sales with and without options, customers, split payments of every status, cash handed
    /// over, the rest worked out, recipes, and lines sold beyond stock with a manager's approval; prices before tax and
    /// prices including tax.
    @Suite struct BookedAnswer {
        @Test(arguments: Backend.ported, [false, true])
        func aBookedSaleIsAnsweredAsALaterReadFindsIt(backend: Backend, pricesIncludeTax: Bool) async throws {
            let store = try await backend.make()
            var settings = try await store.settings()
            settings.pricesIncludeTax = pricesIncludeTax   // (before any sale: free to change)
            try await store.saveSettings(settings)
            let beans = try await store.createProduct(ProductDetails(name: "Beans", salePrice: eur("9.00")))
            let milk = try await store.createProduct(ProductDetails(name: "Milk", unit: "l", salePrice: eur("2.00"), taxRate: Percent(hundredths: 700)))
            let latte = try await store.createProduct(ProductDetails(name: "Latte", salePrice: eur("3.10"), tracksStock: false))
            _ = try await store.setRecipe([RecipeComponent(ingredientID: beans.id, quantity: Quantity(thousandths: 18)),
                                           RecipeComponent(ingredientID: milk.id, quantity: Quantity(thousandths: 200))], of: latte.id)
            let groups = try await store.setOptionGroups([
                ModifierGroup(name: "Size", options: [Modifier(name: "Regular"), Modifier(name: "Large", priceChange: eur("0.50"))]),
                ModifierGroup(name: "Milk", options: [Modifier(name: "Whole"), Modifier(name: "Oat", priceChange: eur("0.40"))]),
            ], of: latte.id)
            let options = groups.flatMap { $0.options.compactMap(\.id) }
            let bea = try await store.createCustomer(Contact(id: CustomerID(0), name: "Bea"))
            _ = try await store.postPurchase(PurchaseDraft(effectiveAt: at(20260301), lines: [
                .init(productID: beans.id, quantity: qty(40), unitCost: eur("4.00")), .init(productID: milk.id, quantity: qty(50), unitCost: eur("0.90"))]))

            var random = SeededRandom(seed: 2_026_120_1)
            func randomDraft() -> SaleDraft {
                let lines: [SaleDraft.Line] = (0..<Int.random(in: 1...3, using: &random)).map { _ in
                    let product = [beans, milk, latte].randomElement(using: &random)!
                    var line = SaleDraft.Line(productID: product.id, quantity: qty(Int64.random(in: 1...3, using: &random)),
                                              discount: Bool.random(using: &random) ? .zero : eur("0.25"))
                    if product.id == latte.id, Bool.random(using: &random) {
                        // One of each group at most: a size, and a milk half the time.
                        line.options = [options[Int.random(in: 0...1, using: &random)]] + (Bool.random(using: &random) ? [options[3]] : [])
                    }
                    return line
                }
                var draft = SaleDraft(effectiveAt: at(Int.random(in: 20_260_301...20_260_310, using: &random)),
                                      customerID: Bool.random(using: &random) ? bea.id : nil, lines: lines,
                                      tip: Bool.random(using: &random) ? .zero : eur("0.30"))
                switch Int.random(in: 0..<4, using: &random) {
                case 0: break  // one payment of the total, the old way
                case 1: draft.payments = [PaymentDraft(method: .cash, amount: eur("1.00"), tendered: eur("5.00")), .rest(method: .card, reference: "A-1")]
                case 2: draft.payments = [PaymentDraft(method: .card, amount: eur("1.00"), status: .failed, reference: "declined"),
                                          PaymentDraft(method: .card, amount: eur("1.00"), status: .pending), .rest(method: .other)]
                default: draft.payments = [.rest(method: .cash, tendered: eur("100.00"))]
                }
                // Now and then the manager approves selling beyond the stock on record.
                if Int.random(in: 0..<4, using: &random) == 0 { draft.stockApprovedBy = "manager" }
                return draft
            }

            var booked = 0, edited = 0, refused = 0
            var ids: [SaleID] = []
            for _ in 0..<60 {
                do {
                    let sale: SaleRecord
                    if let id = ids.randomElement(using: &random), Int.random(in: 0..<3, using: &random) == 0 {
                        sale = try await store.updateSale(id, randomDraft())
                        edited += 1
                    } else {
                        sale = try await store.postSale(randomDraft())
                        ids.append(sale.id)
                        booked += 1
                    }
                    let read = try await store.sale(sale.id)
                    #expect(sale == read, "the answer of sale \(sale.id) differs from a later read of it")
                } catch let error as InventoryError where error.code == .insufficientStock {
                    refused += 1
                }
            }
            #expect(booked > 20 && edited > 5, "booked \(booked), edited \(edited), refused \(refused)")

            // And a sale with a return: an edit is refused, the answer of a new sale still matches its read.
            _ = try await store.postPurchase(PurchaseDraft(effectiveAt: at(20260311), lines: [.init(productID: milk.id, quantity: qty(5), unitCost: eur("0.90"))]))
            let sale = try await store.postSale(SaleDraft(effectiveAt: at(20260311), customerID: bea.id, lines: [.init(productID: milk.id, quantity: qty(1))]))
            _ = try await store.postCustomerReturn(CustomerReturnDraft(effectiveAt: at(20260312), saleID: sale.id,
                                                                       lines: [.init(saleLineID: sale.lines[0].movementID, quantity: qty(1))]))
            try await expectRefusal(store, .inUse, field: "id") { _ = try await store.updateSale(sale.id, randomDraft()) }
            #expect(try await store.sale(sale.id).returns.count == 1)
        }
    }
}
