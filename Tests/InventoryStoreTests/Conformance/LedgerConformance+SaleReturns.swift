import Foundation
import InventoryDomain
import Testing

extension LedgerConformance {
    /// Returns shown on their sale (issue 14 point 6): a sale lists the customer returns booked against it, oldest
    /// first, with their lines and refunds, and each line what is left to return.
    @Suite struct SaleReturns {
        @Test(arguments: Backend.allCases)
        func aSaleListsItsReturnsAndWhatIsLeft(backend: Backend) async throws {
            let store = try backend.make()
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
