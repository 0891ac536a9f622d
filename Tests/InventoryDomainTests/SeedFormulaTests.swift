import InventoryDomain
import Testing

/// The seed app's costing formulas, with its symbols: q = quantity received, h = unit purchase price.
@Suite struct SeedFormulaTests {
    @Test func firstStockCostIsQTimesHOverQ() throws {
        // first stock cost = (q·h) / q
        let q = Quantity(10), h = Money(minorUnits: 200)
        var ledger = StockLedger()
        let outcome = try ledger.apply(.receipt(quantity: q, unitCost: h))
        #expect(outcome.balance.averageCost.rounded == h)
        #expect(outcome.balance.value == Money(minorUnits: 2000))
        #expect(outcome.balance.quantity == q)
    }

    @Test func restockCostIsWeightedAverage() throws {
        // restock cost = (q1·h1 + q2·h2) / (q1 + q2) = (10·2.00 + 30·3.00) / 40 = 2.75
        let q1 = Quantity(10), h1 = Money(minorUnits: 200), q2 = Quantity(30), h2 = Money(minorUnits: 300)
        var ledger = StockLedger()
        _ = try ledger.apply(.receipt(quantity: q1, unitCost: h1))
        let outcome = try ledger.apply(.receipt(quantity: q2, unitCost: h2))
        #expect(outcome.balance.averageCost == UnitCost(scaled: 275 * UnitCost.scale))
        #expect(outcome.balance.averageCost.rounded == Money(minorUnits: 275))
        #expect(outcome.balance.value == Money(minorUnits: 11_000))
    }

    @Test func saleBooksQuantityTimesAverageCost() throws {
        var ledger = StockLedger()
        _ = try ledger.apply(.receipt(quantity: Quantity(10), unitCost: Money(minorUnits: 200)))
        _ = try ledger.apply(.receipt(quantity: Quantity(30), unitCost: Money(minorUnits: 300)))
        let sale = try ledger.apply(.issue(quantity: Quantity(5)))
        #expect(sale.valueChange == Money(minorUnits: -1375))
        #expect(sale.balance.quantity == Quantity(35))
        #expect(sale.balance.value == Money(minorUnits: 9625))
    }
}
