import InventoryDomain
import Testing

/// Split payments and refunds (issue 12, point 4): a sale's payments that count add up to its total exactly; a return's
/// money goes back to the payments it came from, never more than is left of one.
@Suite struct PaymentTests {
    static let euro = PricingTests.euro
    static let tea = PricingTests.tea, cake = PricingTests.cake

    /// 2 teas (2.90, 7 %) and a cake (4.50, 19 %) with a 0.50 tip: 5.80 + 0.41 + 4.50 + 0.86 + 0.50 = 12.07.
    static func sale(payments: [PaymentDraft], tendered: Money? = nil) -> SaleDraft {
        var draft = PricingTests.sale([.init(productID: tea, quantity: Quantity(2)), .init(productID: cake, quantity: Quantity(1))],
                                      tip: Money(minorUnits: 50), tendered: tendered)
        draft.payments = payments
        return draft
    }

    static func priced(_ draft: SaleDraft) throws -> PricedSale {
        try draft.priced(products: PricingTests.facts, editing: false, currency: euro)
    }

    static func cents(_ value: Int64) -> Money { Money(minorUnits: value) }

    @Test func aSaleWithoutPaymentsIsOnePaymentOfItsTotal() throws {
        let priced = try Self.priced(Self.sale(payments: [], tendered: Self.cents(2000)))
        #expect(priced.total == Self.cents(1207))
        #expect(priced.payments == [PaymentDraft(method: .cash, amount: Self.cents(1207), tendered: Self.cents(2000))])
    }

    @Test func aSplitPaymentAddsUpToTheTotalExactly() throws {
        let split = [PaymentDraft(method: .cash, amount: Self.cents(500), tendered: Self.cents(1000)),
                     PaymentDraft(method: .card, amount: Self.cents(700), status: .failed, reference: "declined"),
                     PaymentDraft(method: .card, amount: Self.cents(707), status: .pending, reference: " 8841 ")]
        let priced = try Self.priced(Self.sale(payments: split))
        #expect(priced.payments.map(\.amount) == [Self.cents(500), Self.cents(700), Self.cents(707)])
        #expect(priced.payments[2].reference == "8841")
        // One cent short, or one too many: refused on `payments`, saying what is left.
        for amount: Int64 in [706, 708] {
            var wrong = split
            wrong[2].amount = Self.cents(amount)
            let error = try #require(throws: InventoryError.self) { try Self.priced(Self.sale(payments: wrong)) }
            #expect(error.field == "payments")
            #expect(error.userMessage.contains(amount == 706 ? "0.01 is left to pay" : "0.01 too much"))
        }
    }

    @Test func eachPaymentIsCheckedNamingItsField() throws {
        let cases: [(PaymentDraft, String)] = [
            (PaymentDraft(method: .card, amount: .zero), "payments[0].amount"),
            (PaymentDraft(method: .card, amount: Self.cents(-5)), "payments[0].amount"),
            (PaymentDraft(method: .card, amount: Self.cents(1207), tendered: Self.cents(1300)), "payments[0].tendered"),
            (PaymentDraft(method: .cash, amount: Self.cents(1207), tendered: Self.cents(1200)), "payments[0].tendered"),
            (PaymentDraft(method: .cash, amount: Self.cents(1207), status: .refunded), "payments[0].status"),
            (PaymentDraft(method: .cash, amount: Self.cents(1207), reference: String(repeating: "x", count: 201)), "payments[0].reference"),
        ]
        for (payment, field) in cases {
            #expect(throws: InventoryError(.invalidValue, field: field, "")) { try Self.priced(Self.sale(payments: [payment])) }
        }
        #expect(throws: InventoryError(.invalidValue, field: "cashTendered", "")) {
            try Self.priced(Self.sale(payments: [PaymentDraft(method: .cash, amount: Self.cents(1207))], tendered: Self.cents(2000)))
        }
        let many = Array(repeating: PaymentDraft(method: .card, amount: Self.cents(1)), count: maximumSalePayments + 1)
        #expect(throws: InventoryError(.invalidValue, field: "payments", "")) { try Self.priced(Self.sale(payments: many)) }
    }

    /// The till's "Rest": one payment without an amount takes what the total (12.07) leaves after the others that
    /// count; the sum is the domain's, never the client's.
    @Test func aPaymentTakesTheRestOfTheTotal() throws {
        let split = [PaymentDraft(method: .cash, amount: Self.cents(500), tendered: Self.cents(1000)),
                     PaymentDraft(method: .card, amount: Self.cents(300), status: .failed),
                     .rest(method: .card, reference: " T-1 ")]
        let priced = try Self.priced(Self.sale(payments: split))
        #expect(priced.payments.map(\.amount) == [Self.cents(500), Self.cents(300), Self.cents(707)])
        #expect(priced.payments.allSatisfy { !$0.takesTheRest })
        #expect(priced.payments[2].reference == "T-1")
        // Alone, it is the whole total; first, it is still what the others leave; cash tendered is checked against it.
        #expect(try Self.priced(Self.sale(payments: [.rest(method: .cash, tendered: Self.cents(2000))])).payments.map(\.amount) == [Self.cents(1207)])
        #expect(try Self.priced(Self.sale(payments: [.rest(method: .cash), PaymentDraft(method: .card, amount: Self.cents(7))]))
                    .payments.map(\.amount) == [Self.cents(1200), Self.cents(7)])
        let refusals: [([PaymentDraft], String, String)] = [
            ([.rest(method: .cash, tendered: Self.cents(1000))], "payments[0].tendered", "less than the payment's amount 12.07"),
            ([PaymentDraft(method: .card, amount: Self.cents(1207)), .rest(method: .cash)], "payments[1].amount", "nothing is left to pay"),
            ([PaymentDraft(method: .card, amount: Self.cents(1300)), .rest(method: .cash)], "payments[1].amount", "add up to 13.00 of the total 12.07"),
            ([.rest(method: .cash), .rest(method: .card)], "payments[1].amount", "only one payment"),
            ([.rest(method: .card, status: .failed), PaymentDraft(method: .cash, amount: Self.cents(1207))], "payments[0].amount", "failed payment"),
            ([PaymentDraft(method: .card, amount: .zero), .rest(method: .cash)], "payments[0].amount", "more than zero"),
        ]
        for (payments, field, words) in refusals {
            let error = try #require(throws: InventoryError.self) { try Self.priced(Self.sale(payments: payments)) }
            #expect(error.field == field && error.userMessage.contains(words), "\(error)")
        }
    }

    /// Any total split at random points over random methods is accepted, and the same split one cent off is refused.
    @Test func randomSplitsOfRandomSales() throws {
        var random = SeededRandom(seed: 0x5917)
        for _ in 0..<500 {
            let quantity = Quantity(thousandths: Int64.random(in: 1...20, using: &random) * 1000)
            var draft = PricingTests.sale([.init(productID: Self.cake, quantity: quantity, unitPrice: Self.cents(.random(in: 1...99_999, using: &random)))],
                                          tip: Self.cents(.random(in: 0...500, using: &random)))
            let total = try Self.priced(draft).total
            let parts = Int.random(in: 1...5, using: &random)
            var cuts = (0..<(parts - 1)).map { _ in Int64.random(in: 1..<max(total.minorUnits, 2), using: &random) }.sorted()
            cuts = [0] + cuts + [total.minorUnits]
            draft.payments = zip(cuts, cuts.dropFirst()).compactMap { from, to in
                to > from ? PaymentDraft(method: PaymentMethod.allCases.randomElement(using: &random) ?? .card, amount: Self.cents(to - from)) : nil
            }
            #expect(try Self.priced(draft).payments.reduce(Money.zero) { $0 + $1.amount } == total)
            draft.payments[0].amount += Self.cents(1)
            #expect(throws: InventoryError(.invalidValue, field: "payments", "")) { try Self.priced(draft) }
        }
    }

    static let cash = PaymentRecord(id: PaymentID(1), method: .cash, amount: Self.cents(500), tendered: Self.cents(1000))
    static let card = PaymentRecord(id: PaymentID(2), method: .card, amount: Self.cents(707))

    @Test func aRefundGoesBackToTheLastPaymentFirst() throws {
        let refunds = try RefundAllocation.refunds(of: Self.cents(900), over: [Self.cash, Self.card], asked: nil, currency: Self.euro)
        #expect(refunds == [RefundDraft(paymentID: PaymentID(2), amount: Self.cents(707)), RefundDraft(paymentID: PaymentID(1), amount: Self.cents(193))])
        var cardPartly = Self.card
        cardPartly.refunded = Self.cents(700)
        #expect(cardPartly.status == .partlyRefunded)
        #expect(cardPartly.refundable == Self.cents(7))
        cardPartly.refunded = Self.cents(707)
        #expect(cardPartly.status == .refunded)
        #expect(try RefundAllocation.refunds(of: Self.cents(100), over: [Self.cash, cardPartly], asked: nil, currency: Self.euro)
                == [RefundDraft(paymentID: PaymentID(1), amount: Self.cents(100))])
        #expect(try RefundAllocation.refunds(of: .zero, over: [Self.cash], asked: nil, currency: Self.euro).isEmpty)
    }

    @Test func pendingAndFailedPaymentsAreNotRefunded() throws {
        var pending = Self.card
        pending.takenStatus = .pending
        #expect(pending.refundable == .zero)
        let error = try #require(throws: InventoryError.self) {
            try RefundAllocation.refunds(of: Self.cents(600), over: [Self.cash, pending], asked: nil, currency: Self.euro)
        }
        #expect(error.field == "lines")
        #expect(try pending.settled(to: .completed).status == .completed)
        #expect(try pending.settled(to: .failed).counts == false)
        #expect(throws: InventoryError(.conflict, field: "status", "")) { try Self.card.settled(to: .failed) }
        #expect(throws: InventoryError(.invalidValue, field: "status", "")) { try pending.settled(to: .refunded) }
    }

    @Test func askedRefundsAreCheckedPaymentByPayment() throws {
        let payments = [Self.cash, Self.card]
        let asked = [RefundDraft(paymentID: PaymentID(1), amount: Self.cents(400)), RefundDraft(paymentID: PaymentID(2), amount: Self.cents(500))]
        #expect(try RefundAllocation.refunds(of: Self.cents(900), over: payments, asked: asked, currency: Self.euro) == asked)
        let cases: [([RefundDraft], String)] = [
            ([RefundDraft(paymentID: PaymentID(1), amount: Self.cents(600)), RefundDraft(paymentID: PaymentID(2), amount: Self.cents(300))], "refunds[0].amount"),
            ([RefundDraft(paymentID: PaymentID(9), amount: Self.cents(900))], "refunds[0].paymentId"),
            ([RefundDraft(paymentID: PaymentID(2), amount: Self.cents(500)), RefundDraft(paymentID: PaymentID(2), amount: Self.cents(400))], "refunds[1].paymentId"),
            ([RefundDraft(paymentID: PaymentID(2), amount: Self.cents(900)), RefundDraft(paymentID: PaymentID(1), amount: .zero)], "refunds[0].amount"),
            ([RefundDraft(paymentID: PaymentID(2), amount: Self.cents(700))], "refunds"),
        ]
        for (refunds, field) in cases {
            let error = try #require(throws: InventoryError.self) {
                try RefundAllocation.refunds(of: Self.cents(900), over: payments, asked: refunds, currency: Self.euro)
            }
            #expect(error.field == field)
        }
    }

    @Test func aSaleRecordAnswersItsPaymentsChangeAndAmountDue() {
        var record = SaleRecord(id: SaleID(1), sequence: 1, effectiveAt: Instant(milliseconds: 0), recordedAt: Instant(milliseconds: 0),
                                customerID: nil, customerName: nil, note: "", tip: Self.cents(1207), paymentMethod: .cash, lines: [])
        record.payments = [Self.cash, Self.card]
        #expect(record.change == Self.cents(500))
        #expect(record.amountDue == .zero)
        record.payments[1].takenStatus = .failed
        #expect(record.amountDue == Self.cents(707))
        record.payments[0].refunded = Self.cents(50)
        #expect(record.refunded == Self.cents(50))
    }
}
