import InventoryDomain
import Testing

/// The average cost shown is value ÷ quantity rounded once (issue 10, defect 3).
@Suite struct AverageCostTests {
    @Test func theIssuesExampleShowsWhatOneUnitBooks() throws {
        var ledger = StockLedger()
        _ = try ledger.apply(.receipt(quantity: Quantity(20_000), unitCost: Money(minorUnits: 25)))
        _ = try ledger.apply(.receipt(quantity: Quantity(1), unitCost: Money(minorUnits: 10_025)))
        let balance = ledger.balance
        #expect(balance.value == Money(minorUnits: 510_025))
        #expect(balance.averageCost.exactDecimalString(.eur) == "0.255000")  // 5100.25 / 20001 at four extra decimals
        #expect(balance.averageCost.rounded == Money(minorUnits: 26))           // rounding that again: the old 0.26
        #expect(balance.roundedAverageCost == Money(minorUnits: 25))            // 0.2549997… rounded once
        let product = Product(id: ProductID(1), details: ProductDetails(name: "Screw", salePrice: Money(minorUnits: 10)), stock: balance, createdAt: 0, updatedAt: 0)
        #expect(product.costPrice == Money(minorUnits: 25))
        let sale = try ledger.apply(.issue(quantity: Quantity(1)))
        #expect(-sale.valueChange == balance.roundedAverageCost)
    }

    @Test func oneUnitIssuedAlwaysCostsTheShownAverage() throws {
        var random = SeededRandom(seed: 3)
        for _ in 0..<2_000 {
            var ledger = StockLedger()
            for _ in 0..<Int.random(in: 1...4, using: &random) {
                _ = try ledger.apply(.receipt(quantity: Quantity(thousandths: Int64.random(in: 1_000...50_000_000, using: &random)),
                                              unitCost: Money(minorUnits: Int64.random(in: 0...100_000, using: &random))))
            }
            let shown = ledger.balance.roundedAverageCost
            #expect(try ledger.apply(.issue(quantity: Quantity(1))).valueChange == -shown)
        }
    }

    @Test func withNothingOnHandTheKeptAverageIsShown() throws {
        var ledger = StockLedger(allowsNegativeStock: true)
        _ = try ledger.apply(.receipt(quantity: Quantity(3), unitCost: Money(minorUnits: 101)))
        _ = try ledger.apply(.issue(quantity: Quantity(3)))
        #expect(ledger.balance.quantity == .zero)
        #expect(ledger.balance.roundedAverageCost == Money(minorUnits: 101))
        _ = try ledger.apply(.issue(quantity: Quantity(2)))
        #expect(ledger.balance.roundedAverageCost == Money(minorUnits: 101))
        #expect(UnitCost(scaled: 1_234_567).exactDecimalString(.jpy) == "123.4567")
        #expect(UnitCost(scaled: 1_234_567).exactDecimalString(.kwd) == "0.1234567")
    }
}
