import Foundation
import InventoryDomain
import Testing

extension LedgerConformance {
    /// A document sent without a date is dated by the moment the ledger books it (``LedgerDraft``), not by the moment
    /// its request arrived: two tills' requests can reach the ledger in the opposite order to their arrival, and the
    /// one booked second must not land before the first and re-cost a sale whose cost was already answered. (Seen once
    /// as a cent of difference between 16 tills' answers and the ledger in `ServeLoadTests`.)
    @Suite struct BookingOrder {
        @Test(arguments: Backend.ported)
        func aDocumentDatedWhenBookedNeverLandsBeforeOneAlreadyBooked(backend: Backend) async throws {
            let shop = try await Fixtures.refusalShop(backend)   // 5 beans at 4.00 on 1 January
            let beans = shop.beans.id
            let arrived = Instant.now
            // The purchase's request arrived first, the sale's half a second later, but the sale is booked first.
            let sale = try await shop.store.postSale(SaleDraft(
                effectiveAt: arrived.adding(milliseconds: -500), lines: [.init(productID: beans, quantity: qty(5))]
            ).dating(whenBooked: true))
            #expect(sale.costOfGoodsSold == eur("20.00"))
            let purchase = try await shop.store.postPurchase(PurchaseDraft(
                effectiveAt: arrived.adding(milliseconds: -1000), lines: [.init(productID: beans, quantity: qty(5), unitCost: eur("10.00"))]
            ).dating(whenBooked: true))
            #expect(purchase.effectiveAt >= sale.effectiveAt, "dated when booked, after the sale booked before it")
            #expect(sale.effectiveAt >= arrived.adding(milliseconds: -500), "never earlier than the request")
            let reread = try await shop.store.sale(sale.id)
            #expect(reread.costOfGoodsSold == sale.costOfGoodsSold, "the answered cost is the cost on the books")
            #expect(try await shop.store.product(beans).stock.value == eur("50.00"))

            // Two sales the same way round: the one booked second is dated after the first and re-costs nothing.
            let first = try await shop.store.postSale(SaleDraft(
                effectiveAt: arrived, lines: [.init(productID: beans, quantity: qty(1))]).dating(whenBooked: true))
            let second = try await shop.store.postSale(SaleDraft(
                effectiveAt: arrived.adding(milliseconds: -2000), lines: [.init(productID: beans, quantity: qty(2))]).dating(whenBooked: true))
            #expect(second.effectiveAt >= first.effectiveAt)
            #expect(try await shop.store.sale(first.id).costOfGoodsSold == first.costOfGoodsSold)
            #expect(try await shop.store.sale(second.id).costOfGoodsSold == second.costOfGoodsSold)

            // A date given on purpose still back-dates, and re-costs what follows it.
            _ = try await shop.store.postAdjustment(AdjustmentDraft(
                effectiveAt: arrived.adding(milliseconds: -3000), productID: beans, quantityChange: qty(1), reason: .correction, unitCost: eur("100.00")))
            #expect(try await shop.store.sale(sale.id).costOfGoodsSold > sale.costOfGoodsSold, "the back-dated find re-costs the sale after it")
        }
    }
}
