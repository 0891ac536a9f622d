import Foundation
import InventoryDomain
import Testing

extension LedgerConformance {
    /// A count sets the stock to what was found: the change is the count less the stock on record at the count's
    /// instant, worked out in the booking transaction (so a sale rung up while the count was typed is not counted
    /// twice, and a back-dated count is measured against the stock of its own day).
    @Suite struct Counts {
        @Test(arguments: Backend.ported)
        func aCountBooksTheDifferenceToTheStockOnRecordAtItsInstant(backend: Backend) async throws {
            let shop = try await Fixtures.refusalShop(backend)  // 5 beans bought on 1 January
            let beans = shop.beans.id
            _ = try await shop.store.postSale(SaleDraft(effectiveAt: at(20260103), lines: [.init(productID: beans, quantity: qty(1))]))
            // Counted on the 2nd (before that sale): 3 found of the 5 on record then → −2; today's stock follows.
            let backDated = try await shop.store.postAdjustment(AdjustmentDraft(effectiveAt: at(20260102), productID: beans, counted: qty(3)))
            let movements = try await shop.store.movements(productID: beans)
            #expect(movements.first { $0.kind == .adjustment && $0.documentID == backDated.rawValue }?.quantity == qty(-2))
            #expect(try await shop.store.product(beans).stock.quantity == qty(2))
            // Counted now: 4 found of the 2 on record → +2, valued at the average cost.
            _ = try await shop.store.postAdjustment(AdjustmentDraft(effectiveAt: at(20260104), productID: beans, counted: qty(4), note: " shelf B "))
            let after = try await shop.store.product(beans)
            #expect(after.stock.quantity == qty(4) && after.stock.value == eur("16.00"))
            let last = try #require(try await shop.store.movements(productID: beans).last)
            #expect(last.quantity == qty(2) && last.reason == .count)
        }

        @Test(arguments: Backend.ported)
        func aCountThatMatchesTheStockOrIsNegativeIsRefusedAndChangesNothing(backend: Backend) async throws {
            let shop = try await Fixtures.refusalShop(backend)
            try await expectRefusal(shop.store, .invalidValue, field: "countedQuantity") {
                _ = try await shop.store.postAdjustment(AdjustmentDraft(effectiveAt: at(20260102), productID: shop.beans.id, counted: qty(5)))
            }
            try await expectRefusal(shop.store, .invalidValue, field: "countedQuantity") {
                _ = try await shop.store.postAdjustment(AdjustmentDraft(effectiveAt: at(20260102), productID: shop.beans.id, counted: qty(-1)))
            }
            // A count cannot add stock at a cost when it turns out to remove some.
            try await expectRefusal(shop.store, .invalidValue, field: "unitCost") {
                _ = try await shop.store.postAdjustment(AdjustmentDraft(effectiveAt: at(20260102), productID: shop.beans.id, counted: qty(1),
                                                                        unitCost: eur("1.00")))
            }
        }
    }
}
