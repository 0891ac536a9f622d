import Foundation
import InventoryDomain
import Testing

extension LedgerConformance {
    /// Returns shown on their sale (issue 14 point 6): a sale lists the customer returns booked against it, oldest
    /// first, with their lines and refunds, and each line what is left to return.
    @Suite struct SaleReturns {
        @Test(arguments: Backend.ported)
        func aSaleListsItsReturnsAndWhatIsLeft(backend: Backend) async throws {
            let store = try await backend.make()
            let tea = try await store.createProduct(ProductDetails(name: "Tea", salePrice: eur("3.00")))
            let cake = try await store.createProduct(ProductDetails(name: "Cake", salePrice: eur("4.00")))
            _ = try await store.postPurchase(PurchaseDraft(effectiveAt: at(20260101), lines: [
                .init(productID: tea.id, quantity: qty(20), unitCost: eur("1.00")), .init(productID: cake.id, quantity: qty(20), unitCost: eur("2.00")),
            ]))
            let sale = try await store.postSale(SaleDraft(effectiveAt: at(20260102), lines: [
                .init(productID: tea.id, quantity: qty(5)), .init(productID: cake.id, quantity: qty(2)),
            ]))
            let other = try await store.postSale(SaleDraft(effectiveAt: at(20260102), lines: [.init(productID: tea.id, quantity: qty(1))]))
            #expect(try await store.sale(sale.id).returns.isEmpty)
            let teaLine = sale.lines[0].movementID, cakeLine = sale.lines[1].movementID
            // Booked out of order: the later return first.
            let second = try await store.postCustomerReturn(CustomerReturnDraft(effectiveAt: at(20260104), saleID: sale.id, note: "cold",
                                                                               lines: [.init(saleLineID: teaLine, quantity: qty(1))]))
            let first = try await store.postCustomerReturn(CustomerReturnDraft(effectiveAt: at(20260103), saleID: sale.id, lines: [
                .init(saleLineID: teaLine, quantity: qty(2)), .init(saleLineID: cakeLine, quantity: qty(1)),
            ]))
            _ = try await store.postCustomerReturn(CustomerReturnDraft(effectiveAt: at(20260103), saleID: other.id,
                                                                      lines: [.init(saleLineID: other.lines[0].movementID, quantity: qty(1))]))
            let booked = try await store.sale(sale.id)
            #expect(booked.returns.map(\.id) == [first, second])
            #expect(booked.returns[0].lines.map { [$0.saleLineID.rawValue, $0.productID.rawValue] } == [[teaLine.rawValue, tea.id.rawValue], [cakeLine.rawValue, cake.id.rawValue]])
            #expect(booked.returns[0].lines.map(\.quantity) == [qty(2), qty(1)])
            #expect(booked.returns[0].lines.map(\.productName) == ["Tea", "Cake"])
            #expect(booked.returns[0].refunded == eur("10.00"))          // 2 × 3.00 + 1 × 4.00
            #expect(booked.returns[1].note == "cold" && booked.returns[1].refunded == eur("3.00") && booked.returns[1].effectiveAt == at(20260104))
            #expect(booked.lines.map(\.returnedQuantity) == [qty(3), qty(1)])
            #expect(booked.lines.map(\.returnableQuantity) == [qty(2), qty(1)])
            #expect(booked.refunded == eur("13.00"))
            // Deleting a return takes it off its sale.
            try await store.deleteCustomerReturn(first)
            let after = try await store.sale(sale.id)
            #expect(after.returns.map(\.id) == [second] && after.lines.map(\.returnableQuantity) == [qty(4), qty(2)])
        }
    }
}

extension LedgerConformance.SaleReturns {
    /// A return that skips restocking (damaged): the customer is refunded, the goods are written off at the cost their
    /// sale was booked at, so the stock's quantity and value are what they were — and stay so when a back-dated
    /// purchase re-costs the sale.
    @Test(arguments: Backend.ported)
    func aDamagedReturnIsRefundedAndWrittenOffAtTheBookedCost(backend: Backend) async throws {
        let store = try await backend.make()
        let mug = try await store.createProduct(ProductDetails(name: "Mug", salePrice: eur("8.00")))
        _ = try await store.postPurchase(PurchaseDraft(effectiveAt: at(20260101), lines: [.init(productID: mug.id, quantity: qty(4), unitCost: eur("2.00"))]))
        let sale = try await store.postSale(SaleDraft(effectiveAt: at(20260102), lines: [.init(productID: mug.id, quantity: qty(2))]))
        _ = try await store.postPurchase(PurchaseDraft(effectiveAt: at(20260103), lines: [.init(productID: mug.id, quantity: qty(2), unitCost: eur("5.00"))]))
        let before = try await store.product(mug.id).stock        // 4 on hand, worth 4.00 + 10.00
        #expect(before.quantity == qty(4) && before.value == eur("14.00"))
        let line = sale.lines[0].movementID
        let damaged = try await store.postCustomerReturn(CustomerReturnDraft(effectiveAt: at(20260104), saleID: sale.id, lines: [
            .init(saleLineID: line, quantity: qty(1), restock: false),
        ]))
        let after = try await store.product(mug.id).stock
        #expect(after.quantity == before.quantity && after.value == before.value, "\(after)")
        let booked = try await store.sale(sale.id)
        #expect(booked.lines[0].returnedQuantity == qty(1) && booked.lines[0].returnableQuantity == qty(1))
        #expect(booked.refunded == eur("8.00"))
        #expect(booked.returns.map(\.id) == [damaged] && booked.returns[0].lines.map(\.restocked) == [false])
        // A restocked return of the other mug comes back at the booked 2.00.
        _ = try await store.postCustomerReturn(CustomerReturnDraft(effectiveAt: at(20260105), saleID: sale.id, lines: [.init(saleLineID: line, quantity: qty(1))]))
        #expect(try await store.product(mug.id).stock.value == eur("16.00"))
        #expect(try await store.sale(sale.id).returns.map { $0.lines.map(\.restocked) } == [[false], [true]])
        // A purchase back-dated before the sale re-costs it (average 1.50): the write-off follows the booked cost.
        _ = try await store.postPurchase(PurchaseDraft(effectiveAt: at(20251231), lines: [.init(productID: mug.id, quantity: qty(4), unitCost: eur("1.00"))]))
        let recosted = try await store.product(mug.id).stock
        // 8 bought at 1.50 average, 2 sold (3.00), 1 back at 1.50; 2 bought at 5.00: 9 on hand worth 9.00 + 1.50 + 10.00.
        #expect(recosted.quantity == qty(9) && recosted.value == eur("20.50"), "\(recosted)")
        // Deleting the damaged return takes back its refund and its write-off together.
        try await store.deleteCustomerReturn(damaged)
        #expect(try await store.product(mug.id).stock.value == eur("20.50"))
        #expect(try await store.sale(sale.id).returns.count == 1)
    }
}
