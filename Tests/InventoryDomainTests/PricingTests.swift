import InventoryDomain
import Testing

/// The sale and return rules live once, in the domain: the store reads the products' facts inside the document's
/// transaction and books what ``SaleDraft/priced(products:editing:currency:)`` and
/// ``CustomerReturnDraft/priced(against:)`` answer; controllers and the CLI pass the lines through as asked.
@Suite struct PricingTests {
    static let euro = Currency(code: "EUR", minorUnits: 2)
    static let tea = ProductID(1), cake = ProductID(2), old = ProductID(3)
    static let facts: [ProductID: ProductFacts] = [
        tea: ProductFacts(id: tea, salePrice: Money(minorUnits: 290), minimumSalePrice: Money(minorUnits: 224), taxRate: Percent(hundredths: 700)),
        cake: ProductFacts(id: cake, salePrice: Money(minorUnits: 450), taxRate: Percent(hundredths: 1900)),
        old: ProductFacts(id: old, isArchived: true, salePrice: Money(minorUnits: 100)),
    ]

    static func sale(_ lines: [SaleDraft.Line], tip: Money = .zero, payment: PaymentMethod = .cash, tendered: Money? = nil,
                     manager: Bool = false, note: String = "") -> SaleDraft {
        SaleDraft(effectiveAt: Instant(milliseconds: 0), note: note, lines: lines, tip: tip, paymentMethod: payment, allowBelowMinimum: manager,
                  cashTendered: tendered)
    }

    @Test func aLineWithoutAPriceSellsAtTheProductsPriceAndTaxRate() throws {
        let priced = try Self.sale([.init(productID: Self.tea, quantity: Quantity(2)),
                                    .init(productID: Self.cake, quantity: Quantity(1), unitPrice: Money(minorUnits: 400), taxRate: .zero)],
                                   tip: Money(minorUnits: 50), note: "  table 4 ")
            .priced(products: Self.facts, editing: false, currency: Self.euro)
        #expect(priced.lines.map(\.unitPrice) == [Money(minorUnits: 290), Money(minorUnits: 400)])
        #expect(priced.lines.map(\.taxRate) == [Percent(hundredths: 700), .zero])
        #expect(priced.lines[0].revenue == Money(minorUnits: 580))
        #expect(priced.lines[0].tax == Money(minorUnits: 41))  // 5.80 × 7 % = 0.406
        #expect(priced.total == Money(minorUnits: 580 + 41 + 400 + 50))
        #expect(priced.draft.note == "table 4")
    }

    @Test func theMinimumPriceHoldsForDefaultPricesAndDiscountedLinesUnlessAManagerApproves() throws {
        let below = Self.sale([.init(productID: Self.tea, quantity: Quantity(1), unitPrice: Money(minorUnits: 145))])
        #expect(throws: InventoryError(.invalidValue, field: "lines[0].unitPrice", "")) {
            try below.priced(products: Self.facts, editing: false, currency: Self.euro)
        }
        var approved = below
        approved.allowBelowMinimum = true
        #expect(try approved.priced(products: Self.facts, editing: false, currency: Self.euro).lines[0].unitPrice == Money(minorUnits: 145))
        // A discount may not take the line below the minimum either (issue 12: 50 % off 2.90 sold at 1.45 under a 2.24 minimum).
        let halfOff = Self.sale([.init(productID: Self.tea, quantity: Quantity(2), discountPercent: Percent(hundredths: 5000))])
        #expect(throws: InventoryError(.invalidValue, field: "lines[0].discountPercent", "")) {
            try halfOff.priced(products: Self.facts, editing: false, currency: Self.euro)
        }
        let tooMuch = Self.sale([.init(productID: Self.tea, quantity: Quantity(2), discount: Money(minorUnits: 133))])  // 5.80 − 1.33 = 4.47 < 4.48
        #expect(throws: InventoryError(.invalidValue, field: "lines[0].discount", "")) {
            try tooMuch.priced(products: Self.facts, editing: false, currency: Self.euro)
        }
        let justEnough = Self.sale([.init(productID: Self.tea, quantity: Quantity(2), discount: Money(minorUnits: 132))])  // 4.48 = 2 × 2.24
        #expect(try justEnough.priced(products: Self.facts, editing: false, currency: Self.euro).lines[0].revenue == Money(minorUnits: 448))
        var managerHalfOff = halfOff
        managerHalfOff.allowBelowMinimum = true
        #expect(try managerHalfOff.priced(products: Self.facts, editing: false, currency: Self.euro).lines[0].revenue == Money(minorUnits: 290))
    }

    @Test func theApproverIsKeptOnlyWhenALineIsBelowItsMinimum() throws {
        var below = Self.sale([.init(productID: Self.tea, quantity: Quantity(1), discountPercent: Percent(hundredths: 5000))], manager: true)
        below.approvedBy = "maria"
        let approved = try below.priced(products: Self.facts, editing: false, currency: Self.euro)
        #expect(approved.belowMinimum && approved.draft.approvedBy == "maria")
        var above = Self.sale([.init(productID: Self.tea, quantity: Quantity(1))], manager: true)
        above.approvedBy = "maria"
        let plain = try above.priced(products: Self.facts, editing: false, currency: Self.euro)
        #expect(!plain.belowMinimum && plain.draft.approvedBy.isEmpty)
    }

    @Test func unknownAndArchivedProductsAreRefusedOnTheirLineButAnEditMayKeepAnArchivedOne() throws {
        let unknown = Self.sale([.init(productID: Self.tea, quantity: Quantity(1)), .init(productID: ProductID(99), quantity: Quantity(1))])
        #expect(throws: InventoryError(.notFound, field: "lines[1].productId", "")) {
            try unknown.priced(products: Self.facts, editing: false, currency: Self.euro)
        }
        let archived = Self.sale([.init(productID: Self.old, quantity: Quantity(1))])
        #expect(throws: InventoryError(.conflict, field: "lines[0].productId", "")) {
            try archived.priced(products: Self.facts, editing: false, currency: Self.euro)
        }
        #expect(try archived.priced(products: Self.facts, editing: true, currency: Self.euro).lines.count == 1)
        #expect(throws: InventoryError(.conflict, field: "productId", "")) { try Self.facts[Self.old]?.requireUsable(field: "productId", editing: false) }
    }

    @Test func refusalsNameTheirField() throws {
        #expect(throws: InventoryError(.missingValue, field: "lines", "")) {
            try Self.sale([]).priced(products: Self.facts, editing: false, currency: Self.euro)
        }
        let cases: [(SaleDraft, String)] = [
            (Self.sale([.init(productID: Self.cake, quantity: .zero)]), "lines[0].quantity"),
            (Self.sale([.init(productID: Self.cake, quantity: Quantity(1), unitPrice: Money(minorUnits: -1))]), "lines[0].unitPrice"),
            (Self.sale([.init(productID: Self.cake, quantity: Quantity(1), discount: Money(minorUnits: 451))]), "lines[0].discount"),
            (Self.sale([.init(productID: Self.cake, quantity: Quantity(1), discount: Money(minorUnits: -1))]), "lines[0].discount"),
            (Self.sale([.init(productID: Self.cake, quantity: Quantity(1), taxRate: Percent(hundredths: 10_001))]), "lines[0].taxRate"),
            (Self.sale([.init(productID: Self.cake, quantity: Quantity(1))], tip: Money(minorUnits: -1)), "tip"),
            (Self.sale([.init(productID: Self.cake, quantity: Quantity(1))], payment: .card, tendered: Money(minorUnits: 1000)), "cashTendered"),
            (Self.sale([.init(productID: Self.cake, quantity: Quantity(1))], tendered: Money(minorUnits: 535)), "cashTendered"),  // total 5.36
        ]
        for (draft, field) in cases {
            #expect(throws: InventoryError(.invalidValue, field: field, ""), "\(field)") {
                try draft.priced(products: Self.facts, editing: false, currency: Self.euro)
            }
        }
        // Exactly the total is enough.
        #expect(try Self.sale([.init(productID: Self.cake, quantity: Quantity(1))], tendered: Money(minorUnits: 536))
            .priced(products: Self.facts, editing: false, currency: Self.euro).total == Money(minorUnits: 536))
    }

    // MARK: - Customer returns

    static func soldLine(_ id: Int64, quantity: Int64, revenue: Int64, tax: Int64, returned: Int64 = 0) -> SaleRecord.Line {
        SaleRecord.Line(movementID: MovementID(id), productID: Self.tea, productName: "Tea", quantity: Quantity(quantity),
                        unitPrice: Money(minorUnits: revenue / quantity), discount: .zero, taxRate: Percent(hundredths: 700),
                        tax: Money(minorUnits: tax), revenue: Money(minorUnits: revenue), costOfGoodsSold: .zero, returnedQuantity: Quantity(returned))
    }

    static let sold = SaleRecord(id: SaleID(7), sequence: 7, effectiveAt: Instant(milliseconds: 1_000), recordedAt: Instant(milliseconds: 1_000),
                                 customerID: nil, customerName: nil, note: "", tip: .zero, paymentMethod: .cash,
                                 lines: [soldLine(10, quantity: 3, revenue: 100, tax: 7), soldLine(11, quantity: 2, revenue: 500, tax: 35, returned: 1)])

    @Test func aReturnTakesItsShareOfTheLinesRevenueAndTaxRoundedHalfAwayFromZero() throws {
        let lines = try CustomerReturnDraft(effectiveAt: Instant(milliseconds: 2_000), saleID: SaleID(7),
                                            lines: [.init(saleLineID: MovementID(10), quantity: Quantity(1)),
                                                    .init(saleLineID: MovementID(10), quantity: Quantity(1))]).priced(against: Self.sold)
        #expect(lines.map(\.revenue) == [Money(minorUnits: 33), Money(minorUnits: 33)])  // 1.00 / 3 = 0.333…
        #expect(lines.map(\.tax) == [Money(minorUnits: 2), Money(minorUnits: 2)])          // 0.07 / 3 = 0.0233…
        #expect(lines[0].saleLine.movementID == MovementID(10))
    }

    @Test func aReturnIsLimitedToWhatIsLeftIncludingEarlierReturnsAndItsOwnEarlierLines() throws {
        func draft(_ lines: [(Int64, Int64)], at: Int64 = 2_000) -> CustomerReturnDraft {
            CustomerReturnDraft(effectiveAt: Instant(milliseconds: at), saleID: SaleID(7),
                                lines: lines.map { .init(saleLineID: MovementID($0.0), quantity: Quantity($0.1)) })
        }
        #expect(throws: InventoryError(.invalidValue, field: "lines[0].quantity", "")) { try draft([(11, 2)]).priced(against: Self.sold) }
        #expect(throws: InventoryError(.invalidValue, field: "lines[2].quantity", "")) {
            try draft([(10, 2), (11, 1), (10, 2)]).priced(against: Self.sold)
        }
        #expect(throws: InventoryError(.notFound, field: "lines[0].saleLineId", "")) { try draft([(12, 1)]).priced(against: Self.sold) }
        #expect(throws: InventoryError(.invalidValue, field: "effectiveAt", "")) { try draft([(10, 1)], at: 999).priced(against: Self.sold) }
        #expect(try draft([(10, 3), (11, 1)]).priced(against: Self.sold).count == 2)
    }
}
