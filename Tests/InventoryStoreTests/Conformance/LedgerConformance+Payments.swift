import Foundation
import InventoryDomain
import Testing

/// Split payments with statuses, and refunds back to the payments they came from (issue 12, point 4).
@Suite struct PaymentConformance {
    /// A café sale of 3 lattes at 3.10 (7 %) and a 0.30 tip: 9.30 + 0.65 + 0.30 = 10.25, paid 5.00 cash (10.00 handed
    /// over) and 5.25 by card after a declined card attempt.
    static func splitSale(_ store: any TestableRepository) async throws -> (SaleRecord, ProductID) {
        let latte = try await store.createProduct(ProductDetails(name: "Latte", salePrice: eur("3.10"), taxRate: Percent(hundredths: 700)))
        _ = try await store.postPurchase(PurchaseDraft(effectiveAt: at(20260301), lines: [.init(productID: latte.id, quantity: qty(10), unitCost: eur("0.80"))]))
        var draft = SaleDraft(effectiveAt: at(20260302), lines: [.init(productID: latte.id, quantity: qty(3))], tip: eur("0.30"))
        draft.payments = [PaymentDraft(method: .cash, amount: eur("5.00"), tendered: eur("10.00")),
                          PaymentDraft(method: .card, amount: eur("5.25"), status: .failed, reference: "declined"),
                          PaymentDraft(method: .card, amount: eur("5.25"), reference: "A-4411")]
        return (try await store.postSale(draft), latte.id)
    }

    @Test(arguments: Backend.ported)
    func aSplitSaleKeepsEveryPaymentWithItsStatus(backend: Backend) async throws {
        let store = try await backend.make()
        let (sale, _) = try await Self.splitSale(store)
        #expect(sale.total == eur("10.25"))
        #expect(sale.payments.map(\.method) == [.cash, .card, .card])
        #expect(sale.payments.map(\.status) == [.completed, .failed, .completed])
        #expect(sale.payments.map(\.amount) == [eur("5.00"), eur("5.25"), eur("5.25")])
        #expect(sale.payments[2].reference == "A-4411")
        #expect(sale.change == eur("5.00"))
        #expect(sale.amountDue == .zero)
        #expect(sale.paymentMethod == .cash, "the header names the first payment that counts")
        #expect(try await store.sale(sale.id) == sale)
        // A sale paid the old way has one payment of its total.
        let plain = try await store.postSale(SaleDraft(effectiveAt: at(20260302), lines: [.init(productID: sale.lines[0].productID, quantity: qty(1))],
                                                       paymentMethod: .card))
        #expect(plain.payments.map(\.amount) == [plain.total])
        #expect(plain.payments.map(\.method) == [.card])
    }

    @Test(arguments: Backend.ported)
    func aSplitThatDoesNotAddUpBooksNothing(backend: Backend) async throws {
        let store = try await backend.make()
        let (sale, latte) = try await Self.splitSale(store)
        var draft = SaleDraft(effectiveAt: at(20260303), lines: [.init(productID: latte, quantity: qty(1))])
        draft.payments = [PaymentDraft(method: .cash, amount: eur("1.00")), PaymentDraft(method: .card, amount: eur("2.00"))]   // total 3.32
        try await expectRefusal(store, .invalidValue, field: "payments") { _ = try await store.postSale(draft) }
        draft.payments = [PaymentDraft(method: .card, amount: eur("3.32"), tendered: eur("5.00"))]
        try await expectRefusal(store, .invalidValue, field: "payments[0].tendered") { _ = try await store.postSale(draft) }
        // An edit replaces the payments (a sale with returns cannot be edited).
        var edit = SaleDraft(effectiveAt: sale.effectiveAt, lines: [.init(productID: latte, quantity: qty(1))])
        edit.payments = [PaymentDraft(method: .card, amount: eur("1.00"), status: .pending), PaymentDraft(method: .other, amount: eur("2.32"))]
        let edited = try await store.updateSale(sale.id, edit)
        #expect(edited.payments.map(\.method) == [.card, .other])
        #expect(edited.payments.map(\.status) == [.pending, .completed])
        #expect(edited.change == nil)
    }

    @Test(arguments: Backend.ported)
    func aRefundGoesBackToThePaymentsItCameFrom(backend: Backend) async throws {
        let store = try await backend.make()
        let (sale, _) = try await Self.splitSale(store)
        let line = try #require(sale.lines.first)
        // Two lattes back: 6.20 + 0.43 = 6.63, to the card (taken last) first, the rest in cash.
        let twoBack = CustomerReturnDraft(effectiveAt: at(20260303), saleID: sale.id, lines: [.init(saleLineID: line.movementID, quantity: qty(2))])
        let preview = try await store.previewCustomerReturn(twoBack)
        #expect(preview.refund == eur("6.63"))
        #expect(preview.refunds.map(\.payment.id) == [sale.payments[2].id, sale.payments[0].id])
        #expect(preview.refunds.map(\.amount) == [eur("5.25"), eur("1.38")])
        #expect(try await store.sale(sale.id) == sale, "a preview books nothing")

        // The cashier may send it elsewhere, within what each payment can give back.
        var asked = twoBack
        asked.refunds = [RefundDraft(paymentID: sale.payments[0].id, amount: eur("5.01")), RefundDraft(paymentID: sale.payments[2].id, amount: eur("1.62"))]
        try await expectRefusal(store, .invalidValue, field: "refunds[0].amount") { _ = try await store.postCustomerReturn(asked) }
        asked.refunds = [RefundDraft(paymentID: sale.payments[1].id, amount: eur("6.63"))]
        try await expectRefusal(store, .invalidValue, field: "refunds[0].amount") { _ = try await store.postCustomerReturn(asked) }
        asked.refunds = [RefundDraft(paymentID: sale.payments[0].id, amount: eur("5.00"))]
        try await expectRefusal(store, .invalidValue, field: "refunds") { _ = try await store.postCustomerReturn(asked) }
        asked.refunds = [RefundDraft(paymentID: sale.payments[0].id, amount: eur("5.00")), RefundDraft(paymentID: sale.payments[2].id, amount: eur("1.63"))]
        let returned = try await store.postCustomerReturn(asked)
        let after = try await store.sale(sale.id)
        #expect(after.payments.map(\.status) == [.refunded, .failed, .partlyRefunded])
        #expect(after.payments.map(\.refundable) == [.zero, .zero, eur("3.62")])
        #expect(after.refunded == eur("6.63"))

        // The last latte: 3.32 back, to the card; then nothing is left to return.
        let last = try await store.previewCustomerReturn(CustomerReturnDraft(effectiveAt: at(20260303), saleID: sale.id,
                                                                             lines: [.init(saleLineID: line.movementID, quantity: qty(1))]))
        #expect(last.refunds.map(\.amount) == [eur("3.32")])
        // Deleting a return gives its refunds back to the payments.
        try await store.deleteCustomerReturn(returned)
        #expect(try await store.sale(sale.id).payments.map(\.status) == [.completed, .failed, .completed])
    }

    @Test(arguments: Backend.ported)
    func aPendingPaymentIsSettledOnce(backend: Backend) async throws {
        let store = try await backend.make()
        let latte = try await store.createProduct(ProductDetails(name: "Latte", salePrice: eur("3.00")))
        _ = try await store.postPurchase(PurchaseDraft(effectiveAt: at(20260301), lines: [.init(productID: latte.id, quantity: qty(5), unitCost: eur("0.80"))]))
        var draft = SaleDraft(effectiveAt: at(20260302), lines: [.init(productID: latte.id, quantity: qty(1))])
        draft.payments = [PaymentDraft(method: .cash, amount: eur("1.00")), PaymentDraft(method: .card, amount: eur("2.00"), status: .pending)]
        let sale = try await store.postSale(draft)
        let pending = sale.payments[1].id
        // Not refundable while pending: a return of the whole sale cannot give back 3.00 yet.
        try await expectRefusal(store, .invalidValue, field: "lines") {
            _ = try await store.postCustomerReturn(CustomerReturnDraft(effectiveAt: at(20260302), saleID: sale.id,
                                                                       lines: [.init(saleLineID: sale.lines[0].movementID, quantity: qty(1))]))
        }
        let failed = try await store.settlePayment(pending, of: sale.id, to: .failed)
        #expect(failed.payments[1].status == .failed)
        #expect(failed.amountDue == eur("2.00"))
        try await expectRefusal(store, .conflict, field: "status") { _ = try await store.settlePayment(pending, of: sale.id, to: .completed) }
        try await expectRefusal(store, .notFound, field: "id") { _ = try await store.settlePayment(sale.payments[0].id, of: SaleID(999), to: .completed) }
        try await expectRefusal(store, .notFound, field: "paymentId") { _ = try await store.settlePayment(PaymentID(999), of: sale.id, to: .completed) }
    }
}
