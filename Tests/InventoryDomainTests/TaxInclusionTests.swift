import InventoryDomain
import Testing

/// Prices that include tax (issue 12, point 1): the tax is taken out of each line exactly, the figures add up to the
/// cent, re-pricing keeps what customers pay, and the meaning changes only before the first sale or by re-pricing.
@Suite struct TaxInclusionTests {
    static let euro = Currency(code: "EUR", minorUnits: 2)
    static let latte = ProductID(1), cake = ProductID(2), water = ProductID(3)
    static let facts: [ProductID: ProductFacts] = [
        latte: ProductFacts(id: latte, salePrice: Money(minorUnits: 310), minimumSalePrice: Money(minorUnits: 240), taxRate: Percent(hundredths: 700)),
        cake: ProductFacts(id: cake, salePrice: Money(minorUnits: 450), taxRate: Percent(hundredths: 1900)),
        water: ProductFacts(id: water, salePrice: Money(minorUnits: 150), taxRate: .zero),
    ]

    static func sale(_ lines: [SaleDraft.Line], tip: Money = .zero) -> SaleDraft {
        SaleDraft(effectiveAt: Instant(milliseconds: 0), lines: lines, tip: tip)
    }

    @Test func theTileSaysWhatTheCustomerPays() throws {
        // Issue 12: a tile said €2.90 and the customer paid €3.10. With prices including tax the tile's €3.10 is the total.
        let priced = try Self.sale([.init(productID: Self.latte, quantity: Quantity(1))])
            .priced(products: Self.facts, editing: false, currency: Self.euro, pricesIncludeTax: true)
        #expect(priced.total == Money(minorUnits: 310))
        #expect(priced.lines[0].tax == Money(minorUnits: 20))       // 3.10 × 7 ÷ 107 = 0.2028…
        #expect(priced.lines[0].revenue == Money(minorUnits: 290))
        #expect(priced.lines[0].charged == Money(minorUnits: 310))
        #expect(priced.pricesIncludeTax)
        // The same product priced before tax adds the tax on top.
        let before = try Self.sale([.init(productID: Self.latte, quantity: Quantity(1))])
            .priced(products: Self.facts, editing: false, currency: Self.euro)
        #expect(before.total == Money(minorUnits: 332))              // 3.10 + 0.217
    }

    @Test func includedTaxIsRoundedHalfAwayFromZeroPerLine() {
        #expect(Money(minorUnits: 107).includedTax(at: Percent(hundredths: 700)) == Money(minorUnits: 7))
        #expect(Money(minorUnits: 119).includedTax(at: Percent(hundredths: 1900)) == Money(minorUnits: 19))
        // 0.15 × 20 ÷ 120 = 0.025 → 0.03 (half away from zero), and −0.03 for a refund.
        #expect(Money(minorUnits: 15).includedTax(at: Percent(hundredths: 2000)) == Money(minorUnits: 3))
        #expect(Money(minorUnits: -15).includedTax(at: Percent(hundredths: 2000)) == Money(minorUnits: -3))
        #expect(Money(minorUnits: 999).includedTax(at: .zero) == .zero)
        #expect(Money(minorUnits: 500).includedTax(at: Percent(hundredths: 100_00)) == Money(minorUnits: 250))
    }

    @Test func everyFigureAddsUpToTheCentOnRandomSales() throws {
        var random = SeededRandom(seed: 12)
        let rates = [0, 250, 550, 700, 1000, 1300, 1900, 2000, 2100, 2500].map { Percent(hundredths: Int64($0)) }
        for _ in 0..<2_000 {
            var facts: [ProductID: ProductFacts] = [:]
            var lines: [SaleDraft.Line] = []
            for index in 0..<Int.random(in: 1...6, using: &random) {
                let id = ProductID(Int64(index + 1))
                facts[id] = ProductFacts(id: id, salePrice: Money(minorUnits: Int64.random(in: 1...50_000, using: &random)),
                                         taxRate: rates.randomElement(using: &random)!)
                let quantity = Quantity(thousandths: Int64.random(in: 1...20_000, using: &random))
                let line = Bool.random(using: &random)
                    ? SaleDraft.Line(productID: id, quantity: quantity, discountPercent: Percent(hundredths: Int64.random(in: 0...10_000, using: &random)))
                    : SaleDraft.Line(productID: id, quantity: quantity)
                lines.append(line)
            }
            let tip = Money(minorUnits: Int64.random(in: 0...500, using: &random))
            let sale = try Self.sale(lines, tip: tip).priced(products: facts, editing: false, currency: Self.euro, pricesIncludeTax: true)
            for line in sale.lines {
                #expect(line.revenue + line.tax == line.charged, "net + tax is exactly what the line charges")
                #expect(line.tax == line.charged.includedTax(at: line.taxRate))
                #expect(line.grossAmount.excludingIncludedTax(at: line.taxRate) - line.bookedDiscount == line.revenue,
                        "gross sales − discounts = revenue in the books")
            }
            #expect(sale.total == sale.lines.reduce(tip) { $0 + $1.charged }, "the customer pays the lines as priced, and the tip")
            // The receipt's tax per rate is the exact sum of its lines.
            let record = SaleRecord(id: SaleID(1), sequence: 1, effectiveAt: Instant(milliseconds: 0), recordedAt: Instant(milliseconds: 0), customerID: nil,
                                    customerName: nil, note: "", tip: tip, paymentMethod: .card, lines: sale.lines.enumerated().map { index, line in
                SaleRecord.Line(movementID: MovementID(Int64(index)), productID: line.productID, productName: "", quantity: line.quantity,
                                unitPrice: line.unitPrice, discount: line.bookedDiscount, taxRate: line.taxRate, tax: line.tax, revenue: line.revenue,
                                costOfGoodsSold: .zero, taxIncluded: true)
            })
            #expect(record.total == sale.total)
            #expect(record.taxShares.reduce(Money.zero) { $0 + $1.tax } == record.tax)
            #expect(record.taxShares.reduce(Money.zero) { $0 + $1.gross } + tip == record.total)
            for (booked, line) in zip(record.lines, sale.lines) {
                #expect(booked.discount == line.discount, "the receipt shows the discount the till gave, with tax")
                #expect(booked.charged == line.charged)
                #expect(booked.amount == line.grossAmount)
            }
        }
    }

    @Test func theMinimumPriceHoldsWithTheSameMeaningAsThePrice() throws {
        // 3.10 − 0.71 = 2.39 is under the 2.40 minimum (both including tax); a manager may approve it.
        let under = Self.sale([.init(productID: Self.latte, quantity: Quantity(1), discount: Money(minorUnits: 71))])
        #expect(throws: InventoryError(.invalidValue, field: "lines[0].discount", "")) {
            try under.priced(products: Self.facts, editing: false, currency: Self.euro, pricesIncludeTax: true)
        }
        let atMinimum = Self.sale([.init(productID: Self.latte, quantity: Quantity(1), discount: Money(minorUnits: 70))])
        #expect(try atMinimum.priced(products: Self.facts, editing: false, currency: Self.euro, pricesIncludeTax: true).total == Money(minorUnits: 240))
    }

    @Test func repricingKeepsWhatCustomersPay() {
        var random = SeededRandom(seed: 99)
        for _ in 0..<20_000 {
            let price = Money(minorUnits: Int64.random(in: 0...1_000_000, using: &random))
            let rate = Percent(hundredths: Int64.random(in: 0...10_000, using: &random))
            // Before tax → including tax: the customer paid price + tax, and pays exactly that afterwards.
            let gross = TaxInclusion.convert(price, rate: rate, toIncludeTax: true)
            #expect(gross == price + price.applying(rate))
            // And back again: the net whose price + tax is the gross is found, so the round trip is exact.
            #expect(TaxInclusion.convert(gross, rate: rate, toIncludeTax: false) == price)
            // Including tax → before tax: the customer pays the same, or one minor unit off where no net price reaches it.
            let net = TaxInclusion.convert(price, rate: rate, toIncludeTax: false)
            #expect(abs((net + net.applying(rate) - price).minorUnits) <= 1)
        }
        // 0.01 at 50 %: 0.01 + 0.005 → 0.02, so no net price makes a customer pay exactly 0.01; the nearest is kept.
        #expect(TaxInclusion.convert(Money(minorUnits: 1), rate: Percent(hundredths: 5000), toIncludeTax: false) == Money(minorUnits: 1))
        // The iOS client's price is always before tax.
        #expect(TaxInclusion.priceBeforeTax(Money(minorUnits: 107), rate: Percent(hundredths: 700), pricesIncludeTax: true) == Money(minorUnits: 100))
        #expect(TaxInclusion.priceBeforeTax(Money(minorUnits: 107), rate: Percent(hundredths: 700), pricesIncludeTax: false) == Money(minorUnits: 107))
        #expect(TaxInclusion.shopPrice(beforeTax: Money(minorUnits: 100), rate: Percent(hundredths: 700), pricesIncludeTax: true) == Money(minorUnits: 107))
    }

    @Test func theMeaningChangesFreelyBeforeTheFirstSaleAndOnlyByRepricingAfter() throws {
        let before = ShopSettings()
        var after = before
        after.pricesIncludeTax = true
        try before.checkPriceMeaningChange(to: after, salesBooked: false)
        try before.checkPriceMeaningChange(to: before, salesBooked: true)
        #expect(throws: InventoryError(.conflict, field: "pricesIncludeTax", "")) {
            try before.checkPriceMeaningChange(to: after, salesBooked: true)
        }
        #expect(ShopActivity.Change.between(before, after) == [ShopActivity.Change(.pricesIncludeTax, from: .flag(false), to: .flag(true))])
    }

    @Test func theSuggestedPriceIncludesTaxWhereThePricesDo() {
        let bakery = Category(id: CategoryID(1), name: "Bakery", markup: Percent(hundredths: 5000))
        #expect(bakery.suggestedSalePrice(cost: Money(minorUnits: 200)) == Money(minorUnits: 300))
        #expect(bakery.suggestedSalePrice(cost: Money(minorUnits: 200), taxRate: Percent(hundredths: 700), pricesIncludeTax: true) == Money(minorUnits: 321))
    }
}
