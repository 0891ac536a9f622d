import Foundation
import InventoryDomain
import Testing

/// Open tabs (``TabRepository``, issue 12 point 9): a parked sale books nothing, is listed for every till, is picked up
/// once (a second till gets "not found"), and is then charged as an ordinary sale; bad tabs are refused naming the
/// field, with nothing stored.
@Suite struct TabConformance {
    @Test(arguments: Backend.ported)
    func aParkedSaleBooksNothingAndIsPickedUpOnce(backend: Backend) async throws {
        let store = try await backend.make()
        let latte = try await store.createProduct(ProductDetails(name: "Latte", salePrice: eur("3.10"), taxRate: Percent(hundredths: 700)))
        _ = try await store.postPurchase(PurchaseDraft(effectiveAt: at(20260301), lines: [.init(productID: latte.id, quantity: qty(10), unitCost: eur("0.80"))]))
        let before = try await store.product(latte.id).stock
        let parked = try await store.parkSale(ParkedSale(label: "  Table 4 ", lines: [
            .init(productID: latte.id, quantity: qty(2)),
            .init(productID: latte.id, quantity: qty(1), unitPrice: eur("2.50"), discountPercent: Percent(hundredths: 1000)),
        ], note: "no sugar", parkedBy: "anna", parkedAt: at(20260302)))
        #expect(parked.id.rawValue > 0 && parked.label == "Table 4")
        #expect(parked.lines[1].discount == .percent(Percent(hundredths: 1000)) && parked.lines[1].unitPrice == eur("2.50"))
        #expect(try await store.product(latte.id).stock == before, "a parked sale takes no stock")
        #expect(try await store.sales(limit: 10, offset: 0).isEmpty, "and books no sale")
        let other = try await store.parkSale(ParkedSale(label: "Ben", lines: [.init(productID: latte.id, quantity: qty(1))], parkedAt: at(20260303)))
        #expect(try await store.parkedSales().map(\.id) == [parked.id, other.id])

        let picked = try await store.pickUpParkedSale(parked.id)
        #expect(picked == parked)
        #expect(try await store.parkedSales().map(\.id) == [other.id])
        try await expectRefusal(store, .notFound, field: "id") { _ = try await store.pickUpParkedSale(parked.id) }
        // Charged as an ordinary sale.
        let sale = try await store.postSale(SaleDraft(effectiveAt: at(20260302), note: picked.note, lines: picked.lines))
        #expect(sale.total == eur("9.04"))   // 6.20 + 0.43 tax; 2.50 − 0.25 = 2.25 + 0.16 tax
        #expect(try await store.product(latte.id).stock.quantity == qty(7))
    }

    @Test(arguments: Backend.ported)
    func badTabsAreRefusedNamingTheFieldAndStoreNothing(backend: Backend) async throws {
        let store = try await backend.make()
        let tea = try await store.createProduct(ProductDetails(name: "Tea", salePrice: eur("2.00")))
        let line = SaleDraft.Line(productID: tea.id, quantity: qty(1))
        try await expectRefusal(store, .missingValue, field: "label") { _ = try await store.parkSale(ParkedSale(label: "  ", lines: [line])) }
        try await expectRefusal(store, .missingValue, field: "lines") { _ = try await store.parkSale(ParkedSale(label: "T1", lines: [])) }
        try await expectRefusal(store, .invalidValue, field: "lines[0].quantity") {
            _ = try await store.parkSale(ParkedSale(label: "T1", lines: [.init(productID: tea.id, quantity: qty(0))]))
        }
        try await expectRefusal(store, .invalidValue, field: "lines[1].discount") {
            _ = try await store.parkSale(ParkedSale(label: "T1", lines: [line, .init(productID: tea.id, quantity: qty(1), discount: eur("-1"))]))
        }
        try await expectRefusal(store, .invalidValue, field: "lines[0].discountPercent") {
            _ = try await store.parkSale(ParkedSale(label: "T1", lines: [.init(productID: tea.id, quantity: qty(1), discountPercent: Percent(hundredths: 10_001))]))
        }
        try await expectRefusal(store, .notFound, field: "lines[1].productId") {
            _ = try await store.parkSale(ParkedSale(label: "T1", lines: [line, .init(productID: ProductID(999), quantity: qty(1))]))
        }
        try await expectRefusal(store, .notFound, field: "customerId") {
            _ = try await store.parkSale(ParkedSale(label: "T1", lines: [line], customerID: CustomerID(42)))
        }
        try await expectRefusal(store, .notFound, field: "id") { _ = try await store.pickUpParkedSale(ParkedSaleID(7)) }
        #expect(try await store.parkedSales().isEmpty)
    }
}
