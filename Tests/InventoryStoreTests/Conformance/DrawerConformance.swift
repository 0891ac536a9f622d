import Foundation
import InventoryDomain
import Testing

/// The cash drawer (``DrawerRepository``, issue 12 point 10): one session open at a time, cash in and out checked
/// against the drawer, the X report while open and the Z report kept unchanged at closing; refusals store nothing.
@Suite struct DrawerConformance {
    @Test(arguments: Backend.ported)
    func aDayFromFloatToZReport(backend: Backend) async throws {
        let store = try await backend.make()
        let now = Instant.now.milliseconds
        try await expectRefusal(store, .conflict, field: "drawer") { _ = try await store.moveCash(amount: eur("1.00"), reason: "x", by: "anna", at: now) }
        try await expectRefusal(store, .invalidValue, field: "openingFloat") { _ = try await store.openDrawer(float: eur("-1"), note: "", by: "anna", at: now) }
        #expect(try await store.currentDrawer() == nil)
        let session = try await store.openDrawer(float: eur("100.00"), note: " morning ", by: "anna", at: now - 60_000)
        #expect(session.isOpen && session.note == "morning" && session.openingFloat == eur("100.00"))
        try await expectRefusal(store, .conflict, field: "openingFloat") { _ = try await store.openDrawer(float: eur("50"), note: "", by: "ben", at: now) }

        let latte = try await store.createProduct(ProductDetails(name: "Latte", salePrice: eur("3.10"), taxRate: Percent(hundredths: 700), tracksStock: false))
        var split = SaleDraft(effectiveAt: at(20260301), lines: [.init(productID: latte.id, quantity: qty(3))], tip: eur("0.30"), soldBy: "anna")   // 10.25
        split.payments = [PaymentDraft(method: .cash, amount: eur("5.00"), tendered: eur("10.00")), PaymentDraft(method: .card, amount: eur("5.25"))]
        let first = try await store.postSale(split)
        _ = try await store.postSale(SaleDraft(effectiveAt: at(20260301), lines: [.init(productID: latte.id, quantity: qty(1))], paymentMethod: .card, soldBy: "ben"))
        _ = try await store.postCustomerReturn(CustomerReturnDraft(effectiveAt: at(20260302), saleID: first.id, lines: [.init(saleLineID: first.lines[0].movementID, quantity: qty(1))],
                                                                   refunds: [RefundDraft(paymentID: first.payments[0].id, amount: eur("3.32"))]))
        _ = try await store.moveCash(amount: eur("20.00"), reason: "coins from the bank", by: "anna", at: Instant.now.milliseconds)
        try await expectRefusal(store, .invalidValue, field: "amount") {
            _ = try await store.moveCash(amount: eur("-500.00"), reason: "safe drop", by: "anna", at: Instant.now.milliseconds)
        }
        try await expectRefusal(store, .missingValue, field: "reason") { _ = try await store.moveCash(amount: eur("1.00"), reason: " ", by: "anna", at: now) }
        let open = try #require(try await store.currentDrawer())
        #expect(open.cashMovements.map(\.reason) == ["coins from the bank"])

        let x = try await store.drawerReport(open.id, now: Instant.now.milliseconds + 1000)
        #expect(x.salesCount == 2 && x.refundsCount == 1)
        #expect(x.takings == eur("10.25") + eur("3.32"))
        #expect(x.refunds == eur("3.32"))
        #expect(x.methods.map(\.method) == [.cash, .card])
        #expect(x.methods.map(\.net) == [eur("1.68"), eur("8.57")])
        #expect(x.expectedCash == eur("121.68"))
        #expect(x.staff.map(\.username) == ["anna", "ben"] && x.staff.map(\.salesCount) == [1, 1])
        #expect(x.countedCash == nil)

        try await expectRefusal(store, .invalidValue, field: "countedCash") { _ = try await store.closeDrawer(counted: eur("-1"), by: "anna", at: Instant.now.milliseconds) }
        let closed = try await store.closeDrawer(counted: eur("121.50"), by: "anna", at: Instant.now.milliseconds + 1000)
        let z = try #require(closed.closingReport)
        #expect(!closed.isOpen && closed.closedBy == "anna")
        #expect(z.difference == eur("-0.18") && z.expectedCash == eur("121.68"))
        #expect(try await store.currentDrawer() == nil)
        // The Z report is kept as it was: a sale booked after closing does not change it.
        _ = try await store.postSale(SaleDraft(effectiveAt: at(20260301), lines: [.init(productID: latte.id, quantity: qty(1))], paymentMethod: .cash))
        #expect(try await store.drawerReport(closed.id, now: Instant.now.milliseconds + 5000) == z)
        #expect(try await store.drawerSessions(limit: 10, offset: 0).map(\.id) == [closed.id])
        try await expectRefusal(store, .notFound, field: "id") { _ = try await store.drawerSession(DrawerSessionID(99)) }
        try await expectRefusal(store, .conflict, field: "drawer") { _ = try await store.closeDrawer(counted: .zero, by: "anna", at: Instant.now.milliseconds) }
    }
}
