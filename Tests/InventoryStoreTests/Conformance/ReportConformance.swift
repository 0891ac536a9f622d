import Foundation
import InventoryDomain
import Testing

/// The read-only figures (``ReportRepository``), each checked against figures worked out by hand in the test and
/// against the domain's pure folds (``ReportFolds``) over the same books. The low-stock queries are held to the
/// domain's ``StockStatus`` rule by the nested ``LowStockRule`` suite; random histories check the folds again in
/// ``LedgerConformance/BooksPropertyTests``.
@Suite struct ReportConformance {
    /// The shop's movements and product names, for the domain's folds.
    static func folds(_ store: any TestableRepository) async throws -> (movements: [StockMovement], names: [ProductID: String]) {
        var names: [ProductID: String] = [:]
        for product in try await store.products(ProductQuery(includeArchived: true, limit: 1000)).products { names[product.id] = product.name }
        return (try await store.allMovements(), names)
    }

    @Test(arguments: Backend.ported)
    func snapshotsAreTheLedgerAtEachMoment(backend: Backend) async throws {
        let store = try await backend.make()
        let beans = try await store.createProduct(ProductDetails(name: "Beans", salePrice: eur("9.00")))
        let milk = try await store.createProduct(ProductDetails(name: "Milk", unit: "l", salePrice: eur("1.50")))
        _ = try await store.postPurchase(PurchaseDraft(effectiveAt: at(20260101), lines: [.init(productID: beans.id, quantity: qty(10), unitCost: eur("2.00"))]))
        _ = try await store.postPurchase(PurchaseDraft(effectiveAt: at(20260102), lines: [
            .init(productID: beans.id, quantity: qty(10), unitCost: eur("3.00")),
            .init(productID: milk.id, quantity: qty(4), unitCost: eur("0.80")),
        ]))
        _ = try await store.postSale(SaleDraft(effectiveAt: at(20260103), lines: [.init(productID: beans.id, quantity: qty(5), unitPrice: eur("9.00"))]))

        func line(_ product: Product, _ quantity: Int64, _ value: String, average: String) -> (ProductID, String, Quantity, Money, Money) {
            (product.id, product.name, qty(quantity), eur(value), eur(average))
        }
        func expectSnapshot(_ moment: Instant, _ lines: [(ProductID, String, Quantity, Money, Money)], totalQuantity: Int64, totalValue: String,
                            sourceLocation: SourceLocation = #_sourceLocation) async throws {
            let snapshot = try await store.snapshot(at: moment)
            #expect(snapshot.at == moment, sourceLocation: sourceLocation)
            #expect(snapshot.lines.map(\.productID) == lines.map(\.0), sourceLocation: sourceLocation)
            #expect(snapshot.lines.map(\.name) == lines.map(\.1), sourceLocation: sourceLocation)
            #expect(snapshot.lines.map(\.quantity) == lines.map(\.2), sourceLocation: sourceLocation)
            #expect(snapshot.lines.map(\.value) == lines.map(\.3), sourceLocation: sourceLocation)
            #expect(snapshot.lines.map(\.balance.roundedAverageCost) == lines.map(\.4), sourceLocation: sourceLocation)
            #expect(snapshot.totalQuantity == qty(totalQuantity) && snapshot.totalValue == eur(totalValue), sourceLocation: sourceLocation)
            let (movements, names) = try await Self.folds(store)
            #expect(snapshot == ReportFolds.snapshot(movements: movements, names: names, at: moment), sourceLocation: sourceLocation)
        }

        try await expectSnapshot(at(20251231), [], totalQuantity: 0, totalValue: "0.00")
        try await expectSnapshot(at(20260101), [line(beans, 10, "20.00", average: "2.00")], totalQuantity: 10, totalValue: "20.00")
        // One millisecond before the second purchase it is not there yet; at its moment it is.
        try await expectSnapshot(at(20260102).adding(milliseconds: -1), [line(beans, 10, "20.00", average: "2.00")], totalQuantity: 10, totalValue: "20.00")
        try await expectSnapshot(at(20260102), [line(beans, 20, "50.00", average: "2.50"), line(milk, 4, "3.20", average: "0.80")],
                                 totalQuantity: 24, totalValue: "53.20")
        try await expectSnapshot(at(20260103), [line(beans, 15, "37.50", average: "2.50"), line(milk, 4, "3.20", average: "0.80")],
                                 totalQuantity: 19, totalValue: "40.70")

        // A purchase back-dated to the morning of the 1st changes the past from then on.
        _ = try await store.postPurchase(PurchaseDraft(effectiveAt: at(20260101, minutes: -60), lines: [.init(productID: milk.id, quantity: qty(1), unitCost: eur("1.00"))]))
        try await expectSnapshot(at(20260101), [line(beans, 10, "20.00", average: "2.00"), line(milk, 1, "1.00", average: "1.00")],
                                 totalQuantity: 11, totalValue: "21.00")
        try await expectSnapshot(at(20260103), [line(beans, 15, "37.50", average: "2.50"), line(milk, 5, "4.20", average: "0.84")],
                                 totalQuantity: 20, totalValue: "41.70")
    }

    @Test(arguments: Backend.ported)
    func dailyFiguresByHand(backend: Backend) async throws {
        let store = try await backend.make()
        let mug = try await store.createProduct(ProductDetails(name: "Mug", salePrice: eur("9.00"), taxRate: Percent(hundredths: 1900)))
        let pen = try await store.createProduct(ProductDetails(name: "Pen", salePrice: eur("2.00"), taxRate: Percent(hundredths: 700)))
        _ = try await store.postPurchase(PurchaseDraft(effectiveAt: at(20260301), lines: [
            .init(productID: mug.id, quantity: qty(10), unitCost: eur("3.00")),
            .init(productID: pen.id, quantity: qty(10), unitCost: eur("0.50")),
        ]))
        _ = try await store.postSale(SaleDraft(effectiveAt: at(20260302, minutes: -120), lines: [
            .init(productID: mug.id, quantity: qty(2), unitPrice: eur("9.00"), discount: eur("1.00")),
        ], tip: eur("0.50")))
        let penSale = try await store.postSale(SaleDraft(effectiveAt: at(20260302), lines: [.init(productID: pen.id, quantity: qty(3), unitPrice: eur("2.00"))]))
        _ = try await store.postCustomerReturn(CustomerReturnDraft(effectiveAt: at(20260303), saleID: penSale.id, lines: [
            .init(saleLineID: penSale.lines[0].movementID, quantity: qty(1)),
        ]))

        // 2 March: mugs 18.00 − 1.00 discount, 19 % of 17.00 = 3.23 tax, cost 6.00; pens 6.00, 7 % = 0.42 tax, cost 1.50.
        let second = DailyPerformance(day: 20260302, grossSales: eur("24.00"), discounts: eur("1.00"), revenue: eur("23.00"), tax: eur("3.65"),
                                      tips: eur("0.50"), costOfGoodsSold: eur("7.50"), salesCount: 2)
        // 3 March: one pen back, 2.00 refunded with its 0.14 tax; its cost 0.50 comes back into stock.
        let third = DailyPerformance(day: 20260303, returns: eur("2.00"), revenue: eur("-2.00"), tax: eur("-0.14"), costOfGoodsSold: eur("-0.50"))
        let days = try await store.daily(from: 20260302, to: 20260304)
        #expect(days == [second, third, DailyPerformance(day: 20260304)])
        #expect(days.first?.profit == eur("15.50") && days.first?.averageBasket == eur("11.50"))
        #expect(days.dropFirst().first?.profit == eur("-1.50"))
        let (movements, _) = try await Self.folds(store)
        let calendar = try await store.settings().calendar
        #expect(days == ReportFolds.daily(movements: movements, sales: try await store.saleFacts(), calendar: calendar, from: 20260302, to: 20260304))
        #expect(try await store.daily(from: 20260301, to: 20260301) == [DailyPerformance(day: 20260301)])
        try await expectRefusal(store, .invalidValue, field: "from") { _ = try await store.daily(from: 20260304, to: 20260302) }
    }

    @Test(arguments: Backend.ported)
    func topProductsByHand(backend: Backend) async throws {
        let store = try await backend.make()
        let beans = try await store.createProduct(ProductDetails(name: "Beans", salePrice: eur("2.00")))
        let milk = try await store.createProduct(ProductDetails(name: "Milk", salePrice: eur("10.00")))
        let cake = try await store.createProduct(ProductDetails(name: "Cake", salePrice: eur("9.00")))
        _ = try await store.postPurchase(PurchaseDraft(effectiveAt: at(20260101), lines: [beans, milk, cake].map {
            PurchaseDraft.Line(productID: $0.id, quantity: qty(100), unitCost: eur("0.50"))
        }))
        func sell(_ day: Int, _ lines: [(Product, Int64)]) async throws -> SaleRecord {
            try await store.postSale(SaleDraft(effectiveAt: at(day), lines: lines.map {
                SaleDraft.Line(productID: $0.0.id, quantity: qty($0.1), unitPrice: $0.0.details.salePrice)
            }))
        }
        _ = try await sell(20260115, [(beans, 10), (milk, 2)])
        let february = try await sell(20260210, [(beans, 5), (cake, 3)])
        _ = try await sell(20260220, [(milk, 1)])
        _ = try await store.postCustomerReturn(CustomerReturnDraft(effectiveAt: at(20260221), saleID: february.id, lines: [
            .init(saleLineID: february.lines[0].movementID, quantity: qty(1)),
        ]))
        _ = try await sell(20260310, [(cake, 1), (beans, 1)])

        let calendar = try await store.settings().calendar
        let (movements, names) = try await Self.folds(store)
        func expectTop(from: Instant, to: Instant, _ metric: TopProductMetric, limit: Int = 10, _ rows: [(Product, Int64, String)],
                       sourceLocation: SourceLocation = #_sourceLocation) async throws {
            let top = try await store.topProducts(from: from, to: to, by: metric, limit: limit)
            #expect(top == rows.map { TopProduct(productID: $0.0.id, name: $0.0.name, quantity: qty($0.1), revenue: eur($0.2)) }, sourceLocation: sourceLocation)
            #expect(top == ReportFolds.top(movements: movements, names: names, from: from, to: to, by: metric, limit: limit), sourceLocation: sourceLocation)
        }
        // 15 January to 14 March: part of January, all of February (the monthly summary), part of March; net of the
        // bean returned on 21 February. Beans 10 + 5 − 1 + 1 = 15 for 30.00, milk 3 for 30.00, cake 4 for 36.00.
        let from = calendar.startOfDay(20260115), to = calendar.startOfDay(20260315).adding(milliseconds: -1)
        try await expectTop(from: from, to: to, .quantity, [(beans, 15, "30.00"), (cake, 4, "36.00"), (milk, 3, "30.00")])
        // By revenue, the tie between beans and milk at 30.00 goes to the larger quantity.
        try await expectTop(from: from, to: to, .revenue, [(cake, 4, "36.00"), (beans, 15, "30.00"), (milk, 3, "30.00")])
        try await expectTop(from: from, to: to, .quantity, limit: 2, [(beans, 15, "30.00"), (cake, 4, "36.00")])
        // February alone, and one day holding only the return.
        try await expectTop(from: calendar.startOfDay(20260201), to: calendar.startOfDay(20260301).adding(milliseconds: -1), .quantity,
                            [(beans, 4, "8.00"), (cake, 3, "27.00"), (milk, 1, "10.00")])
        try await expectTop(from: calendar.startOfDay(20260221), to: calendar.startOfDay(20260222).adding(milliseconds: -1), .quantity,
                            [(beans, -1, "-2.00")])
        try await expectTop(from: calendar.startOfDay(20260401), to: calendar.startOfDay(20260501), .revenue, [])

        try await expectRefusal(store, .invalidValue, field: "limit") { _ = try await store.topProducts(from: from, to: to, by: .quantity, limit: 0) }
        try await expectRefusal(store, .invalidValue, field: "from") { _ = try await store.topProducts(from: to, to: from, by: .quantity, limit: 5) }
    }

    @Test(arguments: Backend.ported)
    func lowStockAndValuationByHand(backend: Backend) async throws {
        let store = try await backend.make()
        let (drinks, ids) = try await Fixtures.drinksShop(store)
        let low = try await store.lowStock()
        #expect(low.map(\.name) == ["Juice", "Lemonade", "Water"])
        #expect(low.first?.status == .out)
        #expect(low.last?.threshold == qty(10))
        // Juice has none of the category's 10, Lemonade 2 of the shop's default 5, Water 5 of the category's 10.
        #expect(low == [
            LowStockItem(productID: ids[2], name: "Juice", quantity: .zero, threshold: qty(10), status: .out, unit: "pcs"),
            LowStockItem(productID: ids[3], name: "Lemonade", quantity: qty(2), threshold: qty(5), status: .low, unit: "pcs"),
            LowStockItem(productID: ids[1], name: "Water", quantity: qty(5), threshold: qty(10), status: .low, unit: "pcs"),
        ])
        let valuation = try await store.valuation()
        #expect(valuation.map(\.name) == ["Drinks", "Uncategorised"])
        #expect(valuation.first?.value == eur("26.00"))
        // Drinks: 50 × 0.50 + 5 × 0.20 + nothing = 26.00 over 3 products; Lemonade 2 × 1.00 alone.
        #expect(valuation == [
            CategoryValuation(categoryID: drinks.id, name: "Drinks", productCount: 3, quantity: qty(55), value: eur("26.00")),
            CategoryValuation(categoryID: nil, name: "Uncategorised", productCount: 1, quantity: qty(2), value: eur("2.00")),
        ])

        // Archived products leave the low-stock report, and the valuation once they hold nothing; a product that does
        // not track stock is in neither.
        for id in [ids[2], ids[3]] {
            var details = try await store.product(id).details
            details.isArchived = true
            _ = try await store.updateProduct(id, details)
        }
        _ = try await store.createProduct(ProductDetails(name: "Delivery", categoryID: drinks.id, tracksStock: false))
        #expect(try await store.lowStock().map(\.productID) == [ids[1]])
        #expect(try await store.valuation() == [
            CategoryValuation(categoryID: drinks.id, name: "Drinks", productCount: 2, quantity: qty(55), value: eur("26.00")),
            CategoryValuation(categoryID: nil, name: "Uncategorised", productCount: 1, quantity: qty(2), value: eur("2.00")),
        ])
    }

    @Test(arguments: Backend.ported)
    func expiringLotsFirstInFirstOut(backend: Backend) async throws {
        let store = try await backend.make()
        let yoghurt = try await store.createProduct(ProductDetails(name: "Yoghurt"))
        _ = try await store.postPurchase(PurchaseDraft(effectiveAt: at(20260101), lines: [
            .init(productID: yoghurt.id, quantity: qty(6), unitCost: eur("0.40"), lotCode: "L7", expiryDate: "2026-01-10")
        ]))
        #expect(try await store.expiringLots(through: "2026-01-09").isEmpty)
        #expect(try await store.expiringLots(through: "2026-01-10").map(\.lotCode) == ["L7"])
        await #expect(throws: InventoryError(.invalidValue, field: "through", "")) { try await store.expiringLots(through: "soon") }

        // A second lot, then 7 sold: first in, first out, all of L7 is gone and 3 of L8's 4 are left.
        _ = try await store.postPurchase(PurchaseDraft(effectiveAt: at(20260103), lines: [
            .init(productID: yoghurt.id, quantity: qty(4), unitCost: eur("0.50"), lotCode: "L8", expiryDate: "2026-01-20")
        ]))
        _ = try await store.postSale(SaleDraft(effectiveAt: at(20260104), lines: [.init(productID: yoghurt.id, quantity: qty(7), unitPrice: eur("1.00"))]))
        // Cheese (no lot code) keeps its 2; milk is sold out; butter is archived.
        let cheese = try await store.createProduct(ProductDetails(name: "Cheese"))
        let milk = try await store.createProduct(ProductDetails(name: "Milk"))
        let butter = try await store.createProduct(ProductDetails(name: "Butter"))
        _ = try await store.postPurchase(PurchaseDraft(effectiveAt: at(20260101), lines: [
            .init(productID: cheese.id, quantity: qty(2), unitCost: eur("1.00"), expiryDate: "2026-01-05"),
            .init(productID: milk.id, quantity: qty(2), unitCost: eur("0.60"), lotCode: "M1", expiryDate: "2026-01-08"),
            .init(productID: butter.id, quantity: qty(1), unitCost: eur("1.20"), lotCode: "B1", expiryDate: "2026-01-06"),
        ]))
        _ = try await store.postSale(SaleDraft(effectiveAt: at(20260102), lines: [.init(productID: milk.id, quantity: qty(2), unitPrice: eur("1.00"))]))
        var archived = butter.details
        archived.isArchived = true
        _ = try await store.updateProduct(butter.id, archived)

        let cheeseLot = ExpiringLot(productID: cheese.id, name: "Cheese", lotCode: nil, expiryDate: "2026-01-05", purchasedQuantity: qty(2), stockQuantity: qty(2))
        #expect(try await store.expiringLots(through: "2026-01-19") == [cheeseLot])
        #expect(try await store.expiringLots(through: "2026-01-31") == [
            cheeseLot,
            ExpiringLot(productID: yoghurt.id, name: "Yoghurt", lotCode: "L8", expiryDate: "2026-01-20", purchasedQuantity: qty(4), stockQuantity: qty(3)),
        ])
    }

    @Test(arguments: Backend.ported)
    func everyMovementAndSaleFactForTheOracles(backend: Backend) async throws {
        let store = try await backend.make()
        let beans = try await store.createProduct(ProductDetails(name: "Beans", salePrice: eur("9.00")))
        let milk = try await store.createProduct(ProductDetails(name: "Milk", salePrice: eur("1.50")))
        #expect(try await store.allMovements().isEmpty)
        #expect(try await store.saleFacts().isEmpty)
        _ = try await store.postPurchase(PurchaseDraft(effectiveAt: at(20260102), lines: [
            .init(productID: milk.id, quantity: qty(5), unitCost: eur("0.80")),
            .init(productID: beans.id, quantity: qty(5), unitCost: eur("4.00")),
        ]))
        let sale = try await store.postSale(SaleDraft(effectiveAt: at(20260103), lines: [.init(productID: beans.id, quantity: qty(2), unitPrice: eur("9.00"))],
                                                      tip: eur("1.25")))
        // Back-dated: first in the ledger though booked last.
        _ = try await store.postPurchase(PurchaseDraft(effectiveAt: at(20260101), lines: [.init(productID: beans.id, quantity: qty(1), unitCost: eur("3.00"))]))
        let card = try await store.postSale(SaleDraft(effectiveAt: at(20260104), lines: [.init(productID: milk.id, quantity: qty(1), unitPrice: eur("1.50"))],
                                                      paymentMethod: .card))

        // Every product's ledger, product by product, each in ledger order.
        let all = try await store.allMovements()
        let beansLedger = try await store.movements(productID: beans.id), milkLedger = try await store.movements(productID: milk.id)
        #expect(all == beansLedger + milkLedger)
        #expect(all.map(\.kind) == [.purchase, .purchase, .sale, .purchase, .sale])
        #expect(all.map(\.position.effectiveAt) == [20260101, 20260102, 20260103, 20260102, 20260104].map { at($0).milliseconds })
        let facts = try await store.saleFacts().sorted { $0.effectiveAt < $1.effectiveAt }
        #expect(facts == [SaleFact(effectiveAt: sale.effectiveAt.milliseconds, tip: eur("1.25")), SaleFact(effectiveAt: card.effectiveAt.milliseconds, tip: .zero)])
    }
}
