import InventoryDomain
import Testing

/// The figures a receipt or a till shows come from the domain: a percentage discount becomes money here (the till
/// used to work it out in JavaScript), and a recorded sale gives its lines' amounts, its discounts and its tax per
/// rate (the receipt used to add them up itself).
@Suite struct SaleFiguresTests {
    static let pen = ProductID(1), ink = ProductID(2)

    @Test(arguments: [
        // price, quantity, percent → discount (minor units): half away from zero, as tax is rounded.
        (Int64(999), "3", Int64(1000), Int64(300)),   // 29.97 × 10 % = 2.997 → 3.00
        (333, "3", 1000, 100),                          // 9.99 × 10 % = 0.999 → 1.00
        (115, "1", 1500, 17),                           // 1.15 × 15 % = 0.1725 → 0.17
        (10, "1", 5000, 5),                             // 0.10 × 50 % = 0.05
        (1, "1", 5000, 1),                              // 0.01 × 50 % = 0.005 → 0.01 (half away from zero)
        (199, "1.5", 1250, 37),                         // 1.5 × 1.99 = 2.985 → 2.99; × 12.5 % = 0.37375 → 0.37
        (250, "2", 10000, 500),                         // 100 %: the whole line
        (250, "2", 0, 0),
    ])
    func aPercentageDiscountIsTheLinesAmountTimesThePercentRoundedOnce(price: Int64, quantity: String, hundredths: Int64, expected: Int64) throws {
        let line = SaleDraft.Line(productID: Self.pen, quantity: try Quantity.parse(quantity, field: "quantity"), unitPrice: Money(minorUnits: price),
                                  discountPercent: Percent(hundredths: hundredths))
        let priced = try SaleDraft(effectiveAt: Instant(milliseconds: 0), lines: [line])
            .priced(products: [Self.pen: ProductFacts(id: Self.pen)], editing: false, currency: Self.euro).lines[0]
        #expect(priced.discount == Money(minorUnits: expected))
        #expect(priced.revenue == priced.grossAmount - priced.discount)
    }

    static let euro = Currency(code: "EUR", minorUnits: 2)

    @Test func aPercentageAboveAHundredIsRefused() throws {
        let line = SaleDraft.Line(productID: Self.pen, quantity: .init(thousandths: 1000), unitPrice: Money(minorUnits: 10_000),
                                  discountPercent: Percent(hundredths: 10_001))
        let draft = SaleDraft(effectiveAt: Instant(milliseconds: 0), lines: [line])
        #expect(throws: InventoryError(.invalidValue, field: "lines[0].discountPercent", "")) {
            try draft.priced(products: [Self.pen: ProductFacts(id: Self.pen)], editing: false, currency: Self.euro)
        }
    }

    @Test func aRecordedSaleGivesItsAmountsDiscountsAndTaxPerRate() {
        func line(_ id: Int64, rate: Int64, price: Int64, discount: Int64, revenue: Int64, tax: Int64) -> SaleRecord.Line {
            SaleRecord.Line(movementID: MovementID(id), productID: Self.pen, productName: "Line \(id)", quantity: .init(thousandths: 1000),
                            unitPrice: Money(minorUnits: price), discount: Money(minorUnits: discount), taxRate: Percent(hundredths: rate),
                            tax: Money(minorUnits: tax), revenue: Money(minorUnits: revenue), costOfGoodsSold: .zero)
        }
        let sale = SaleRecord(
            id: SaleID(1), sequence: 1, effectiveAt: Instant(milliseconds: 0), recordedAt: Instant(milliseconds: 0), customerID: nil,
            customerName: nil, note: "", tip: Money(minorUnits: 25), paymentMethod: .cash,
            lines: [line(1, rate: 1900, price: 400, discount: 0, revenue: 400, tax: 76),
                    line(2, rate: 700, price: 500, discount: 50, revenue: 450, tax: 32),
                    line(3, rate: 1900, price: 333, discount: 33, revenue: 300, tax: 57),
                    line(4, rate: 0, price: 100, discount: 0, revenue: 100, tax: 0)],
            cashTendered: Money(minorUnits: 2000))
        #expect(sale.lines.map(\.amount) == [400, 500, 333, 100].map { Money(minorUnits: $0) })
        #expect(sale.discount == Money(minorUnits: 83))
        #expect(sale.taxShares == [
            SaleRecord.TaxShare(rate: .zero, revenue: Money(minorUnits: 100), tax: .zero),
            SaleRecord.TaxShare(rate: Percent(hundredths: 700), revenue: Money(minorUnits: 450), tax: Money(minorUnits: 32)),
            SaleRecord.TaxShare(rate: Percent(hundredths: 1900), revenue: Money(minorUnits: 700), tax: Money(minorUnits: 133)),
        ])
        #expect(sale.taxShares.reduce(Money.zero) { $0 + $1.tax } == sale.tax)
        #expect(sale.taxShares.reduce(Money.zero) { $0 + $1.revenue } == sale.revenue)
        #expect(sale.lines.reduce(Money.zero) { $0 + $1.amount } - sale.discount == sale.revenue)
    }

    @Test func aPeriodSumsItsDaysAndAveragesTheBasketOverAllItsSales() {
        let days = [
            DailyPerformance(day: 20260301, grossSales: Money(minorUnits: 1_100), discounts: Money(minorUnits: 100), revenue: Money(minorUnits: 1_000),
                             tax: Money(minorUnits: 70), tips: Money(minorUnits: 5), costOfGoodsSold: Money(minorUnits: 400), salesCount: 1),
            DailyPerformance(day: 20260302, grossSales: Money(minorUnits: 200), returns: Money(minorUnits: 50), revenue: Money(minorUnits: 150),
                             tax: Money(minorUnits: 10), costOfGoodsSold: Money(minorUnits: 60), salesCount: 2),
        ]
        let period = DailyPerformance.total(of: days, firstDay: 20260301)
        #expect(period.day == 20260301)
        #expect(period.revenue == Money(minorUnits: 1_150) && period.grossSales == Money(minorUnits: 1_300))
        #expect(period.discounts == Money(minorUnits: 100) && period.returns == Money(minorUnits: 50))
        #expect(period.tax == Money(minorUnits: 80) && period.tips == Money(minorUnits: 5))
        #expect(period.profit == Money(minorUnits: 690) && period.salesCount == 3)
        // 11.50 over 3 sales = 3.833… → 3.83; the average of the days' averages (10.00 and 0.75) would be 5.38.
        #expect(period.averageBasket == Money(minorUnits: 383))
        #expect(DailyPerformance.total(of: [], firstDay: 20260301).averageBasket == .zero)
    }
}
