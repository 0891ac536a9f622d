import InventoryDomain
import Testing

@Suite struct StockLedgerTests {
    @Test func sellingTheLastUnitTakesTheRemainingValue() throws {
        var ledger = StockLedger()
        _ = try ledger.apply(.receipt(quantity: Quantity(3), unitCost: Money(minorUnits: 100)))
        _ = try ledger.apply(.receipt(quantity: Quantity(0 + 0) + Quantity(thousandths: 0) + Quantity(0) + Quantity(1), unitCost: Money(minorUnits: 101)))
        // value 401 over 4 units: issuing 1 at a time rounds; the last issue takes what is left.
        var issued = Money.zero
        for _ in 0..<4 { issued = issued - (try ledger.apply(.issue(quantity: Quantity(1)))).valueChange }
        #expect(issued == Money(minorUnits: 401))
        #expect(ledger.balance.value == .zero)
        #expect(ledger.balance.quantity == .zero)
    }

    @Test func overSellingIsRefusedAndChangesNothing() throws {
        var ledger = StockLedger()
        _ = try ledger.apply(.receipt(quantity: Quantity(2), unitCost: Money(minorUnits: 100)))
        let before = ledger
        #expect(throws: InventoryError(.insufficientStock, field: "quantity", "")) {
            try ledger.apply(.issue(quantity: Quantity(3)))
        }
        #expect(ledger == before)
    }

    @Test func zeroQuantityIsRefused() {
        var ledger = StockLedger()
        #expect(throws: InventoryError(.invalidValue, field: "quantity", "")) {
            try ledger.apply(.receipt(quantity: .zero, unitCost: Money(minorUnits: 1)))
        }
        #expect(throws: InventoryError(.invalidValue, field: "quantity", "")) {
            try ledger.apply(.issue(quantity: Quantity(-1)))
        }
    }

    @Test func negativeStockWhenAllowedIsCostedAtLastAverageAndResetByNextReceipt() throws {
        var ledger = StockLedger(allowsNegativeStock: true)
        _ = try ledger.apply(.receipt(quantity: Quantity(2), unitCost: Money(minorUnits: 100)))
        let sale = try ledger.apply(.issue(quantity: Quantity(5)))
        #expect(sale.valueChange == Money(minorUnits: -500))
        #expect(ledger.balance.quantity == Quantity(-3))
        #expect(ledger.balance.value == Money(minorUnits: -300))
        let receipt = try ledger.apply(.receipt(quantity: Quantity(10), unitCost: Money(minorUnits: 150)))
        // 7 left, valued at the new price 1.50; the 3 units sold short cost 0.50 more than booked.
        #expect(receipt.balance.quantity == Quantity(7))
        #expect(receipt.balance.value == Money(minorUnits: 1050))
        #expect(receipt.balance.averageCost.rounded == Money(minorUnits: 150))
        #expect(receipt.costAdjustment == Money(minorUnits: 150))
        // Books: in 200 + 1500 = issued 500 + adjustment 150 + stock 1050.
        #expect(Money(minorUnits: 1700) == Money(minorUnits: 500) + receipt.costAdjustment + receipt.balance.value)
    }

    @Test func aSaleApprovedBeyondStockIsCostedAsNegativeStockAndOnlyThatMovementMayGoBelowZero() throws {
        var ledger = StockLedger()
        _ = try ledger.apply(.receipt(quantity: Quantity(2), unitCost: Money(minorUnits: 100)))
        var allowing = StockLedger(allowsNegativeStock: true)
        _ = try allowing.apply(.receipt(quantity: Quantity(2), unitCost: Money(minorUnits: 100)))
        // Approved: the same outcome as for a product that allows negative stock.
        let approved = try ledger.apply(.issue(quantity: Quantity(5)), beyondStock: true)
        #expect(approved == (try allowing.apply(.issue(quantity: Quantity(5)))))
        #expect(ledger.balance.quantity == Quantity(-3))
        // The next movement without an approval may not take it further below zero, and changes nothing.
        let before = ledger
        #expect(throws: InventoryError(.insufficientStock, field: "quantity", "")) {
            try ledger.apply(.issue(quantity: Quantity(1)))
        }
        #expect(ledger == before)
        // A receipt into the negative balance resets the average, as for negative stock.
        let receipt = try ledger.apply(.receipt(quantity: Quantity(10), unitCost: Money(minorUnits: 150)))
        #expect(receipt == (try allowing.apply(.receipt(quantity: Quantity(10), unitCost: Money(minorUnits: 150)))))
        #expect(SoldBeyondStock.shortBy(quantity: Quantity(5), stockAfter: Quantity(-3)) == Quantity(3))
        #expect(SoldBeyondStock.shortBy(quantity: Quantity(2), stockAfter: Quantity(-3)) == Quantity(2))
        #expect(SoldBeyondStock.shortBy(quantity: Quantity(2), stockAfter: .zero) == .zero)
    }

    @Test func customerReturnRestocksAtTheBookedCost() throws {
        var ledger = StockLedger()
        _ = try ledger.apply(.receipt(quantity: Quantity(3), unitCost: Money(minorUnits: 100)))
        let sale = try ledger.apply(.issue(quantity: Quantity(2)))
        _ = try ledger.apply(.receipt(quantity: Quantity(1), unitCost: Money(minorUnits: 400)))
        let back = try ledger.apply(.returnToStock(quantity: Quantity(1), bookedCost: -sale.valueChange, bookedQuantity: Quantity(2)))
        #expect(back.valueChange == Money(minorUnits: 100))
        #expect(ledger.balance.value == Money(minorUnits: 600))
        #expect(ledger.balance.quantity == Quantity(3))
    }

    @Test func aDamagedReturnIsWrittenOffAtItsBookedCost() throws {
        var ledger = StockLedger()
        _ = try ledger.apply(.receipt(quantity: Quantity(3), unitCost: Money(minorUnits: 100)))
        let sale = try ledger.apply(.issue(quantity: Quantity(2)))                                    // booked at 2.00
        _ = try ledger.apply(.receipt(quantity: Quantity(1), unitCost: Money(minorUnits: 400)))      // 2 on hand, worth 5.00
        let before = ledger.balance
        let booked = -sale.valueChange
        _ = try ledger.apply(.returnToStock(quantity: Quantity(1), bookedCost: booked, bookedQuantity: Quantity(2)))   // 3, worth 6.00
        let off = try ledger.apply(.writeOffReturned(quantity: Quantity(1), bookedCost: booked, bookedQuantity: Quantity(2)))
        // Out at the 1.00 it came in at, not the 2.00 average an issue would take: the stock is what it was.
        #expect(off.valueChange == Money(minorUnits: -100))
        #expect(ledger.balance.quantity == before.quantity && ledger.balance.value == before.value)
        #expect(ledger.balance.averageCost.rounded == Money(minorUnits: 250))
        #expect(MovementEffect.writeOffReturned(quantity: Quantity(1), bookedCost: booked, bookedQuantity: Quantity(2)).quantityChange == Quantity(-1))

        // Everything on hand: the whole value goes with it.
        var empty = StockLedger()
        let only = try empty.apply(.receipt(quantity: Quantity(2), unitCost: Money(minorUnits: 333)))
        _ = try empty.apply(.issue(quantity: Quantity(2)))
        _ = try empty.apply(.returnToStock(quantity: Quantity(1), bookedCost: only.valueChange, bookedQuantity: Quantity(2)))
        _ = try empty.apply(.writeOffReturned(quantity: Quantity(1), bookedCost: only.valueChange, bookedQuantity: Quantity(2)))
        #expect(empty.balance.quantity == .zero && empty.balance.value == .zero)

        // A product that keeps no stock: nothing moves.
        var untracked = StockLedger(tracksStock: false)
        let nothing = try untracked.apply(.writeOffReturned(quantity: Quantity(1), bookedCost: booked, bookedQuantity: Quantity(2)))
        #expect(nothing.valueChange == .zero && untracked.balance == StockLedger(tracksStock: false).balance)
    }

    @Test func adjustmentWithoutCostComesInAtAverage() throws {
        var ledger = StockLedger()
        _ = try ledger.apply(.receipt(quantity: Quantity(4), unitCost: Money(minorUnits: 250)))
        let found = try ledger.apply(.receiptAtAverage(quantity: Quantity(2)))
        #expect(found.valueChange == Money(minorUnits: 500))
        #expect(ledger.balance.averageCost.rounded == Money(minorUnits: 250))
    }

    @Test func untrackedProductsExpenseReceiptsAndCostNothingOnSale() throws {
        var ledger = StockLedger(tracksStock: false)
        let receipt = try ledger.apply(.receipt(quantity: Quantity(5), unitCost: Money(minorUnits: 100)))
        #expect(receipt.costAdjustment == Money(minorUnits: 500))
        #expect(receipt.valueChange == .zero)
        let sale = try ledger.apply(.issue(quantity: Quantity(50)))
        #expect(sale.valueChange == .zero)
        #expect(ledger.balance == .empty)
    }

    @Test func fractionalQuantitiesAreExact() throws {
        var ledger = StockLedger()
        _ = try ledger.apply(.receipt(quantity: Quantity(thousandths: 2_500), unitCost: Money(minorUnits: 399)))  // 2.5 kg at 3.99
        #expect(ledger.balance.value == Money(minorUnits: 998))  // 9.975 rounds half up to 9.98
        let sale = try ledger.apply(.issue(quantity: Quantity(thousandths: 500)))
        #expect(sale.valueChange == Money(minorUnits: -200))  // 0.5 × 9.98 / 2.5 = 1.996
    }
}

@Suite struct LimitTests {
    @Test func documentsRefuseAmountsAndQuantitiesBeyondTheBooksLimits() {
        let product = ProductID(1)
        #expect(throws: InventoryError(.invalidValue, field: "lines[0].quantity", "")) {
            try PurchaseDraft(effectiveAt: .now, lines: [.init(productID: product, quantity: Quantity.maximum + Quantity(thousandths: 1), unitCost: .zero)]).validated()
        }
        #expect(throws: InventoryError(.invalidValue, field: "lines[0].unitCost", "")) {
            try PurchaseDraft(effectiveAt: .now, lines: [.init(productID: product, quantity: Quantity(1), unitCost: Money.maximum + Money(minorUnits: 1))]).validated()
        }
        #expect(throws: InventoryError(.invalidValue, field: "lines[0].unitPrice", "")) {
            try SaleDraft(effectiveAt: .now, lines: [.init(productID: product, quantity: Quantity(1), unitPrice: Money(minorUnits: Int64.max))])
                .priced(products: [product: ProductFacts(id: product)], editing: false, currency: Currency(code: "EUR", minorUnits: 2))
        }
        #expect(throws: InventoryError(.invalidValue, field: "quantityChange", "")) {
            try AdjustmentDraft(effectiveAt: .now, productID: product, quantityChange: Quantity(thousandths: -Int64.max), reason: .count).validated()
        }
        #expect(throws: InventoryError(.invalidValue, field: "lines", "")) {
            try SupplierReturnDraft(effectiveAt: .now, lines: Array(repeating: .init(productID: product, quantity: Quantity(1)), count: maximumDocumentLines + 1)).validated()
        }
        #expect(throws: InventoryError(.invalidValue, field: "salePrice", "")) { try ProductDetails(name: "Gold", salePrice: Money(minorUnits: Int64.max)).validated() }
    }

    @Test func theLedgerRefusesInsteadOfOverflowing() throws {
        var ledger = StockLedger(balance: LedgerBalance(quantity: Quantity(thousandths: Int64.max - 10), value: Money(minorUnits: 1), averageCost: .zero))
        let before = ledger
        #expect(throws: InventoryError(.invalidValue, field: "quantity", "")) { try ledger.apply(.receipt(quantity: Quantity(1), unitCost: .zero)) }
        var rich = StockLedger(balance: LedgerBalance(quantity: Quantity(1), value: Money(minorUnits: Int64.max / 2), averageCost: .zero))
        #expect(throws: InventoryError(.invalidValue, field: "quantity", "")) { try rich.apply(.receipt(quantity: Quantity(1), unitCost: Money(minorUnits: 1))) }
        #expect(ledger == before)
    }
}

@Suite struct CountTests {
    @Test func aCountBecomesTheDifferenceToTheStockOnRecord() throws {
        let count = AdjustmentDraft(effectiveAt: .now, productID: ProductID(1), counted: Quantity(thousandths: 9_500), note: "  aisle 3 ")
        let checked = try count.validated()
        #expect(checked.reason == .count && checked.note == "aisle 3" && checked.countedQuantity == Quantity(thousandths: 9_500))
        let resolved = try checked.resolvingCount(stockOnRecord: Quantity(12))
        #expect(resolved.quantityChange == Quantity(thousandths: -2_500) && resolved.countedQuantity == nil)
        #expect(try resolved.resolvingCount(stockOnRecord: Quantity(1)) == resolved, "a change is not a count")
        #expect(throws: InventoryError(.invalidValue, field: "countedQuantity", "")) { try count.resolvingCount(stockOnRecord: Quantity(thousandths: 9_500)) }
        let negative = AdjustmentDraft(effectiveAt: .now, productID: ProductID(1), counted: Quantity(-1))
        #expect(throws: InventoryError(.invalidValue, field: "countedQuantity", "")) { try negative.validated() }
        #expect(throws: InventoryError(.invalidValue, field: "countedQuantity", "")) { try negative.resolvingCount(stockOnRecord: .zero) }
        let costly = AdjustmentDraft(effectiveAt: .now, productID: ProductID(1), counted: Quantity(1), unitCost: Money(minorUnits: -1))
        #expect(throws: InventoryError(.invalidValue, field: "unitCost", "")) { try costly.validated() }
    }
}
