import Foundation
import InventoryDomain
import Testing

/// The customer at the till (``CustomerCardRepository``, issue 12 point 7): a loyalty card finds its customer exactly,
/// a card belongs to one customer, and a customer's visits, spend and milestones are sums over their sales and returns.
@Suite struct CustomerCardConformance {
    @Test(arguments: Backend.ported)
    func aCardFindsItsCustomerWithVisitsSpendAndMilestones(backend: Backend) async throws {
        let store = try await backend.make()
        let ana = try await store.createCustomer(Contact(id: CustomerID(0), name: "Ana", phone: "+49 170 1234"))
        let ben = try await store.createCustomer(Contact(id: CustomerID(0), name: "Ben"))
        let latte = try await store.createProduct(ProductDetails(name: "Latte", salePrice: eur("3.10"), taxRate: Percent(hundredths: 700), tracksStock: false))
        #expect(try await store.setCustomerCard(ana.id, number: " LC-0042 ").cardNumber == "LC-0042")
        try await expectRefusal(store, .conflict, field: "cardNumber") { _ = try await store.setCustomerCard(ben.id, number: "lc-0042") }
        try await expectRefusal(store, .invalidValue, field: "cardNumber") { _ = try await store.setCustomerCard(ben.id, number: "42") }
        try await expectRefusal(store, .invalidValue, field: "cardNumber") { _ = try await store.setCustomerCard(ben.id, number: "LC 0042!") }
        try await expectRefusal(store, .notFound, field: "id") { _ = try await store.setCustomerCard(CustomerID(99), number: "LC-0099") }
        try await expectRefusal(store, .notFound, field: "cardNumber") { _ = try await store.customer(cardNumber: "LC-0043") }

        var sales: [SaleRecord] = []
        for index in 1...5 {
            sales.append(try await store.postSale(SaleDraft(effectiveAt: at(20260301, minutes: index), customerID: ana.id,
                                                            lines: [.init(productID: latte.id, quantity: qty(1))], tip: eur(index == 5 ? "0.50" : "0"))))
        }
        _ = try await store.postSale(SaleDraft(effectiveAt: at(20260301), customerID: ben.id, lines: [.init(productID: latte.id, quantity: qty(1))]))
        #expect(sales.map(\.customerVisit) == [1, 2, 3, 4, 5])
        #expect(sales.map(\.customerMilestone) == [nil, nil, nil, nil, 5])
        _ = try await store.postCustomerReturn(CustomerReturnDraft(effectiveAt: at(20260302), saleID: sales[0].id,
                                                                   lines: [.init(saleLineID: sales[0].lines[0].movementID, quantity: qty(1))]))
        let standing = try await store.customer(cardNumber: "LC-0042")
        #expect(standing.customerID == ana.id && standing.name == "Ana" && standing.visits == 5)
        #expect(standing.spend == eur("13.78"), "five lattes at 3.32 and a 0.50 tip, less the one brought back")
        #expect(standing.milestonesReached == [5] && standing.nextMilestone == 10)
        #expect(standing.lastVisit == at(20260301, minutes: 5).milliseconds)
        #expect(try await store.customerStanding(ben.id).visits == 1)
        try await store.removeCustomerCard(ana.id)
        try await expectRefusal(store, .notFound, field: "cardNumber") { _ = try await store.customer(cardNumber: "LC-0042") }
        #expect(try await store.setCustomerCard(ben.id, number: "LC-0042").cardNumber == "LC-0042", "a card given back can go to someone else")
    }
}
