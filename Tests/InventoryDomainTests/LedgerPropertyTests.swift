import InventoryDomain
import Testing

/// Invariants of the costing rules over thousands of random movement sequences.
@Suite struct LedgerPropertyTests {
    static let runs = 3_000

    @Test func booksBalanceToTheMinorUnit() throws {
        for seed in 0..<UInt64(Self.runs) {
            var random = SeededRandom(seed: seed)
            var ledger = StockLedger(allowsNegativeStock: Bool.random(using: &random))
            var inflow = Money.zero, issued = Money.zero, adjustments = Money.zero
            var sales: [(cost: Money, quantity: Quantity)] = []
            for _ in 0..<Int.random(in: 1...60, using: &random) {
                let quantity = Quantity(thousandths: Int64.random(in: 1...20_000, using: &random))
                let effect: MovementEffect
                switch Int.random(in: 0..<10, using: &random) {
                case 0..<4: effect = .receipt(quantity: quantity, unitCost: Money(minorUnits: Int64.random(in: 0...10_000, using: &random)))
                case 4: effect = .receiptAtAverage(quantity: quantity)
                case 5 where !sales.isEmpty:
                    let sale = sales[Int.random(in: 0..<sales.count, using: &random)]
                    effect = .returnToStock(quantity: Quantity(thousandths: Int64.random(in: 1...sale.quantity.thousandths, using: &random)),
                                            bookedCost: sale.cost, bookedQuantity: sale.quantity)
                default: effect = .issue(quantity: quantity)
                }
                guard let outcome = try? ledger.apply(effect) else {
                    // Refused: only an issue past zero without permission may be refused.
                    #expect(!ledger.allowsNegativeStock)
                    #expect(ledger.balance.quantity < effect.quantity)
                    continue
                }
                if case .issue(let quantity) = effect {
                    issued = issued - outcome.valueChange
                    sales.append((-outcome.valueChange, quantity))
                } else {
                    inflow = inflow + outcome.valueChange + outcome.costAdjustment
                }
                adjustments = adjustments + outcome.costAdjustment
                // (c) never below zero unless allowed
                if !ledger.allowsNegativeStock { #expect(ledger.balance.quantity >= .zero, "seed \(seed)") }
                // stock at zero holds no value
                if ledger.balance.quantity == .zero { #expect(ledger.balance.value == .zero, "seed \(seed)") }
                // (a) Σ inflow cost = Σ issued cost + Σ cost adjustments + stock value
                #expect(inflow == issued + adjustments + ledger.balance.value, "seed \(seed)")
            }
        }
    }

    @Test func averageCostStaysBetweenTheCheapestAndDearestReceipt() throws {
        for seed in 0..<UInt64(Self.runs) {
            var random = SeededRandom(seed: seed &+ 1_000_000)
            var ledger = StockLedger()
            var low = Int64.max, high = Int64.min
            for _ in 0..<Int.random(in: 1...30, using: &random) {
                let cost = Int64.random(in: 1...5_000, using: &random)
                low = min(low, cost)
                high = max(high, cost)
                _ = try ledger.apply(.receipt(quantity: Quantity(Int64.random(in: 1...100, using: &random)), unitCost: Money(minorUnits: cost)))
                if Bool.random(using: &random), ledger.balance.quantity > Quantity(1) {
                    _ = try ledger.apply(.issue(quantity: Quantity(1)))
                }
                let average = ledger.balance.averageCost.rounded.minorUnits
                #expect(average >= low - 1 && average <= high + 1, "seed \(seed)")
            }
        }
    }
}
