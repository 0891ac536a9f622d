import Foundation
import InventoryDomain
import Testing

extension LedgerConformance {
    /// Receipts are numbered without gaps (issue 12, point 8): 1, 2, 3 … in booking order, whatever other documents
    /// are booked between sales; a refused sale and a dry run take no number, and an edit keeps its number.
    @Suite struct ReceiptNumbers {
        @Test(arguments: Backend.ported)
        func salesAreNumberedWithoutGaps(backend: Backend) async throws {
            let shop = try await Fixtures.refusalShop(backend)   // 5 beans in stock
            let beans = shop.beans.id
            let line = SaleDraft.Line(productID: beans, quantity: qty(1))
            let first = try await shop.store.postSale(SaleDraft(effectiveAt: at(20260102), lines: [line]))
            // A purchase, a refused sale (too many) and a dry run come between: none takes a receipt number.
            _ = try await shop.store.postPurchase(PurchaseDraft(effectiveAt: at(20260102), lines: [.init(productID: beans, quantity: qty(2), unitCost: eur("4.00"))]))
            try await expectRefusal(shop.store, .insufficientStock, field: "lines[0].quantity") {
                _ = try await shop.store.postSale(SaleDraft(effectiveAt: at(20260102), lines: [.init(productID: beans, quantity: qty(99))]))
            }
            let preview = try await shop.store.previewSale(SaleDraft(effectiveAt: at(20260102), lines: [line]), replacing: nil)
            #expect(preview.receiptNumber == 2, "a dry run says the number the sale would get")
            let second = try await shop.store.postSale(SaleDraft(effectiveAt: at(20260102), lines: [line]))
            try await shop.store.postSales([SaleDraft(effectiveAt: at(20260103), lines: [line]), SaleDraft(effectiveAt: at(20260103), lines: [line])])
            let edited = try await shop.store.updateSale(first.id, SaleDraft(effectiveAt: at(20260102), lines: [.init(productID: beans, quantity: qty(2))]))
            #expect([first.receiptNumber, second.receiptNumber, edited.receiptNumber] == [1, 2, 1])
            var numbers: [Int64] = []
            for summary in try await shop.store.sales(limit: 10, offset: 0) { numbers.append(try await shop.store.sale(SaleID(summary.id)).receiptNumber) }
            #expect(numbers.sorted() == [1, 2, 3, 4])
        }
    }
}
