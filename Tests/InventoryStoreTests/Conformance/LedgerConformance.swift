import Foundation
import InventoryDomain
import Testing

/// The books (``LedgerRepository``): posting, editing, previewing and deleting every kind of document, re-costing
/// on back-dating, refusals, idempotency, naming the document a change would leave short, and concurrent writes.
///
/// The suite is this type and its nested suites, one file each: ``Previews``, ``Idempotency``, ``Shortfalls``,
/// ``Refusals`` and ``BooksPropertyTests`` (random histories checked against the books' invariants and the report
/// folds). `swift test --filter LedgerConformance` runs them all.
@Suite struct LedgerConformance {
    @Test(arguments: Backend.ported)
    func seedScenarioCostsSellsAndReports(backend: Backend) async throws {
        let store = try await backend.make()
        let supplier = try await store.createSupplier(Contact(id: SupplierID(0), name: "Bean Co", location: "Berlin", phone: "+49 30 1234"))
        let first = try await store.postPurchase(PurchaseDraft(
            effectiveAt: at(20260301), supplierID: supplier.id,
            lines: [.init(product: .new(ProductDetails(name: "Espresso beans", salePrice: eur("4.00"))), quantity: qty(10), unitCost: eur("2.00"))]))
        let productID = try #require(first.lines.first?.productID)
        #expect(first.total == eur("20.00"))
        #expect(first.supplierName == "Bean Co")
        _ = try await store.postPurchase(PurchaseDraft(effectiveAt: at(20260302), lines: [.init(productID: productID, quantity: qty(30), unitCost: eur("3.00"))]))
        var product = try await store.product(productID)
        #expect(product.costPrice == eur("2.75"))
        #expect(product.details.iconEmoji == "☕")

        let sale = try await store.postSale(SaleDraft(effectiveAt: at(20260303), lines: [.init(productID: productID, quantity: qty(5), unitPrice: eur("4.00"))]))
        #expect(sale.costOfGoodsSold == eur("13.75"))
        product = try await store.product(productID)
        #expect(product.stock.quantity == qty(35))
        #expect(product.stock.value == eur("96.25"))

        let day = try #require(try await store.daily(from: 20260303, to: 20260303).first)
        #expect(day.revenue == eur("20.00"))
        #expect(day.costOfGoodsSold == eur("13.75"))
        #expect(day.profit == eur("6.25"))
        #expect(day.salesCount == 1)
        let top = try await store.topProducts(from: at(20260301), to: at(20260331), by: .quantity, limit: 10)
        #expect(top.map(\.productID) == [productID])
        #expect(top.first?.quantity == qty(5))
    }

    @Test(arguments: Backend.ported)
    func backDatedPurchaseChangesThePastNotToday(backend: Backend) async throws {
        let store = try await backend.make()
        let product = try await store.createProduct(ProductDetails(name: "Milk", salePrice: eur("1.50")))
        _ = try await store.postPurchase(PurchaseDraft(effectiveAt: at(20260310), lines: [.init(productID: product.id, quantity: qty(10), unitCost: eur("1.00"))]))
        _ = try await store.postSale(SaleDraft(effectiveAt: at(20260315), lines: [.init(productID: product.id, quantity: qty(10), unitPrice: eur("1.50"))]))
        let todayBefore = try await store.snapshot(at: at(20260320))
        #expect(try await store.snapshot(at: at(20260305)).totalQuantity == .zero)

        _ = try await store.postPurchase(PurchaseDraft(effectiveAt: at(20260301), lines: [.init(productID: product.id, quantity: qty(4), unitCost: eur("2.00"))]))
        let past = try await store.snapshot(at: at(20260305))
        #expect(past.totalQuantity == qty(4))
        #expect(past.totalValue == eur("8.00"))
        // The later sale is re-costed at the new average: 14 units worth 18.00, 10 sold → COGS 12.86.
        let sale = try await store.sales(limit: 10, offset: 0)
        let saleRecord = try await store.sale(SaleID(try #require(sale.first?.id)))
        #expect(saleRecord.costOfGoodsSold == eur("12.86"))
        let today = try await store.snapshot(at: at(20260320))
        #expect(today.totalQuantity == todayBefore.totalQuantity + qty(4))
        #expect(today.totalValue == eur("5.14"))
    }

    @Test(arguments: Backend.ported)
    func editingAndDeletingRecostsEveryLaterMovement(backend: Backend) async throws {
        let store = try await backend.make()
        let product = try await store.createProduct(ProductDetails(name: "Croissant"))
        let purchase = try await store.postPurchase(PurchaseDraft(effectiveAt: at(20260101), lines: [.init(productID: product.id, quantity: qty(10), unitCost: eur("1.00"))]))
        _ = try await store.postPurchase(PurchaseDraft(effectiveAt: at(20260102), lines: [.init(productID: product.id, quantity: qty(10), unitCost: eur("2.00"))]))
        let sale = try await store.postSale(SaleDraft(effectiveAt: at(20260103), lines: [.init(productID: product.id, quantity: qty(5), unitPrice: eur("3.00"))]))
        #expect(sale.costOfGoodsSold == eur("7.50"))

        _ = try await store.updatePurchase(purchase.id, PurchaseDraft(effectiveAt: at(20260101), lines: [.init(productID: product.id, quantity: qty(10), unitCost: eur("3.00"))]))
        #expect(try await store.sale(sale.id).costOfGoodsSold == eur("12.50"))

        // Deleting the other purchase would leave 10 − 5 = 5: allowed. Deleting both would oversell.
        let second = try await store.purchases(limit: 10, offset: 0).first { $0.id != purchase.id.rawValue }
        try await store.deletePurchase(PurchaseID(try #require(second?.id)))
        #expect(try await store.sale(sale.id).costOfGoodsSold == eur("15.00"))
        #expect(try await store.product(product.id).stock.quantity == qty(5))
        try await expectRefusal(store, .insufficientStock) { try await store.deletePurchase(purchase.id) }

        try await store.deleteSale(sale.id)
        let after = try await store.product(product.id)
        #expect(after.stock.quantity == qty(10))
        #expect(after.stock.value == eur("30.00"))
    }

    @Test(arguments: Backend.ported)
    func returnsAndAdjustments(backend: Backend) async throws {
        let store = try await backend.make()
        let product = try await store.createProduct(ProductDetails(name: "Mug", salePrice: eur("9.00"), taxRate: Percent(hundredths: 1900)))
        _ = try await store.postPurchase(PurchaseDraft(effectiveAt: at(20260101), lines: [.init(productID: product.id, quantity: qty(4), unitCost: eur("3.00"))]))
        let sale = try await store.postSale(SaleDraft(effectiveAt: at(20260102), lines: [.init(productID: product.id, quantity: qty(2), unitPrice: eur("9.00"))], tip: eur("1.00")))
        #expect(sale.tax == eur("3.42"))
        #expect(sale.total == eur("22.42"))
        _ = try await store.postPurchase(PurchaseDraft(effectiveAt: at(20260103), lines: [.init(productID: product.id, quantity: qty(2), unitCost: eur("6.00"))]))
        let line = try #require(sale.lines.first)
        _ = try await store.postCustomerReturn(CustomerReturnDraft(effectiveAt: at(20260104), saleID: sale.id, lines: [.init(saleLineID: line.movementID, quantity: qty(1))]))
        var current = try await store.product(product.id)
        #expect(current.stock.quantity == qty(5))
        #expect(current.stock.value == eur("21.00"))  // 6.00 + 12.00 + 3.00 restocked at the sale's cost
        #expect(try await store.sale(sale.id).lines.first?.returnedQuantity == qty(1))
        try await expectRefusal(store, .invalidValue, field: "lines[0].quantity") {
            _ = try await store.postCustomerReturn(CustomerReturnDraft(effectiveAt: at(20260105), saleID: sale.id, lines: [.init(saleLineID: line.movementID, quantity: qty(2))]))
        }
        try await expectRefusal(store, .inUse) { try await store.deleteSale(sale.id) }

        _ = try await store.postSupplierReturn(SupplierReturnDraft(effectiveAt: at(20260105), lines: [.init(productID: product.id, quantity: qty(1))]))
        current = try await store.product(product.id)
        #expect(current.stock.quantity == qty(4))
        #expect(current.stock.value == eur("16.80"))
        let damage = try await store.postAdjustment(AdjustmentDraft(effectiveAt: at(20260106), productID: product.id, quantityChange: qty(-1), reason: .damage))
        #expect(try await store.product(product.id).stock.quantity == qty(3))
        let history = try await store.movements(productID: product.id)
        #expect(history.last?.reason == .damage)
        try await store.deleteAdjustment(damage)
        #expect(try await store.product(product.id).stock.quantity == qty(4))

        let day = try #require(try await store.daily(from: 20260104, to: 20260104).first)
        #expect(day.returns == eur("9.00"))
        #expect(day.revenue == eur("-9.00"))
        #expect(day.costOfGoodsSold == eur("-3.00"))
    }

    @Test(arguments: Backend.ported)
    func negativeStockWhenAllowedBooksACostAdjustment(backend: Backend) async throws {
        let store = try await backend.make()
        let product = try await store.createProduct(ProductDetails(name: "Flour", unit: "kg", allowsNegativeStock: true))
        _ = try await store.postPurchase(PurchaseDraft(effectiveAt: at(20260101), lines: [.init(productID: product.id, quantity: qty(2), unitCost: eur("1.00"))]))
        _ = try await store.postSale(SaleDraft(effectiveAt: at(20260102), lines: [.init(productID: product.id, quantity: qty(5), unitPrice: eur("2.00"))]))
        #expect(try await store.product(product.id).stock.quantity == qty(-3))
        _ = try await store.postPurchase(PurchaseDraft(effectiveAt: at(20260103), lines: [.init(productID: product.id, quantity: qty(10), unitCost: eur("1.50"))]))
        let movements = try await store.movements(productID: product.id)
        #expect(movements.last?.costAdjustment == eur("1.50"))
        #expect(movements.last?.balance.value == eur("10.50"))
    }

    @Test(arguments: Backend.ported)
    func documentsReadBackAsBookedAndListNewestFirst(backend: Backend) async throws {
        let store = try await backend.make()
        let supplier = try await store.createSupplier(Contact(id: SupplierID(0), name: "Bean Co"))
        let customer = try await store.createCustomer(Contact(id: CustomerID(0), name: "Ada"))
        let beans = try await store.createProduct(ProductDetails(name: "Beans", salePrice: eur("9.00"), taxRate: Percent(hundredths: 700)))
        let first = try await store.postPurchase(PurchaseDraft(effectiveAt: at(20260101), supplierID: supplier.id, note: "first", lines: [
            .init(productID: beans.id, quantity: qty(4), unitCost: eur("2.50"), lotCode: "L1", expiryDate: "2026-06-30"),
            .init(productID: beans.id, quantity: Quantity(thousandths: 1500), unitCost: eur("3.00")),
        ]))
        // 4 × 2.50 + 1.5 × 3.00 = 14.50 for 5.5 units.
        #expect(first.total == eur("14.50"))
        #expect(first.supplierName == "Bean Co" && first.note == "first")
        #expect(first.lines.map(\.lotCode) == ["L1", nil] && first.lines.map(\.expiryDate) == ["2026-06-30", nil])
        #expect(first.lines.last?.balanceAfter.quantity == Quantity(thousandths: 5500))
        #expect(first.lines.last?.balanceAfter.value == eur("14.50"))
        #expect(try await store.purchase(first.id) == first)
        let second = try await store.postPurchase(PurchaseDraft(effectiveAt: at(20260103), lines: [.init(productID: beans.id, quantity: qty(2), unitCost: eur("3.25"))]))
        #expect(try await store.purchase(second.id) == second)

        let purchases = try await store.purchases(limit: 10, offset: 0)
        #expect(purchases == [
            DocumentSummary(id: second.id.rawValue, effectiveAt: at(20260103), partyName: nil, lineCount: 1, total: eur("6.50"), note: ""),
            DocumentSummary(id: first.id.rawValue, effectiveAt: at(20260101), partyName: "Bean Co", lineCount: 2, total: eur("14.50"), note: "first"),
        ])
        #expect(try await store.purchases(limit: 1, offset: 1) == [purchases[1]])

        let sale = try await store.postSale(SaleDraft(effectiveAt: at(20260104), customerID: customer.id, note: "table 4", lines: [
            .init(productID: beans.id, quantity: qty(2), unitPrice: eur("9.00"), discount: eur("1.00")),
        ], tip: eur("0.50")))
        #expect(try await store.sale(sale.id) == sale)
        #expect(sale.customerName == "Ada" && sale.note == "table 4")
        // 18.00 − 1.00 = 17.00 revenue, 7 % tax 1.19, tip 0.50.
        #expect(sale.revenue == eur("17.00") && sale.tax == eur("1.19") && sale.total == eur("18.69"))
        let older = try await store.postSale(SaleDraft(effectiveAt: at(20260102), lines: [.init(productID: beans.id, quantity: qty(1), unitPrice: eur("9.00"))]))
        let sales = try await store.sales(limit: 10, offset: 0)
        #expect(sales == [
            DocumentSummary(id: sale.id.rawValue, effectiveAt: at(20260104), partyName: "Ada", lineCount: 1, total: eur("18.69"), note: "table 4",
                            receiptNumber: 1),
            DocumentSummary(id: older.id.rawValue, effectiveAt: at(20260102), partyName: nil, lineCount: 1, total: eur("9.63"), note: "", receiptNumber: 2),
        ])
        #expect(try await store.sales(limit: 5, offset: 2).isEmpty)

        // A document is found only as what it is.
        try await expectRefusal(store, .notFound) { _ = try await store.purchase(PurchaseID(999)) }
        try await expectRefusal(store, .notFound) { _ = try await store.purchase(PurchaseID(sale.id.rawValue)) }
        try await expectRefusal(store, .notFound) { _ = try await store.sale(SaleID(first.id.rawValue)) }
    }

    @Test(arguments: Backend.ported)
    func batchesBookEveryDocumentOrNone(backend: Backend) async throws {
        let store = try await backend.make()
        let tea = try await store.createProduct(ProductDetails(name: "Tea", salePrice: eur("3.00")))
        try await store.postPurchases([
            PurchaseDraft(effectiveAt: at(20260101), lines: [.init(productID: tea.id, quantity: qty(10), unitCost: eur("1.00"))]),
            PurchaseDraft(effectiveAt: at(20260102), lines: [.init(productID: tea.id, quantity: qty(10), unitCost: eur("2.00"))]),
        ])
        #expect(try await store.purchases(limit: 10, offset: 0).map(\.total) == [eur("20.00"), eur("10.00")])
        try await store.postSales([
            SaleDraft(effectiveAt: at(20260103), lines: [.init(productID: tea.id, quantity: qty(5), unitPrice: eur("3.00"))]),
            SaleDraft(effectiveAt: at(20260104), lines: [.init(productID: tea.id, quantity: qty(5), unitPrice: eur("3.00"))]),
        ])
        let sales = try await store.sales(limit: 10, offset: 0)
        #expect(sales.count == 2)
        for summary in sales { #expect(try await store.sale(SaleID(summary.id)).costOfGoodsSold == eur("7.50")) }
        var product = try await store.product(tea.id)
        #expect(product.stock.quantity == qty(10) && product.stock.value == eur("15.00"))

        // One bad document refuses the whole batch, named by its place in it.
        try await expectRefusal(store, .insufficientStock, field: "sales[1].lines[0].quantity") {
            try await store.postSales([
                SaleDraft(effectiveAt: at(20260105), lines: [.init(productID: tea.id, quantity: qty(1), unitPrice: eur("3.00"))]),
                SaleDraft(effectiveAt: at(20260105), lines: [.init(productID: tea.id, quantity: qty(20), unitPrice: eur("3.00"))]),
            ])
        }
        try await expectRefusal(store, .invalidValue, field: "purchases[1].lines[0].quantity") {
            try await store.postPurchases([
                PurchaseDraft(effectiveAt: at(20260105), lines: [.init(productID: tea.id, quantity: qty(1), unitCost: eur("1.00"))]),
                PurchaseDraft(effectiveAt: at(20260105), lines: [.init(productID: tea.id, quantity: .zero, unitCost: eur("1.00"))]),
            ])
        }
        product = try await store.product(tea.id)
        #expect(product.stock.quantity == qty(10) && product.stock.value == eur("15.00"))
    }

    @Test(arguments: Backend.ported)
    func deletingReturnsAndAdjustmentsReplaysTheBooks(backend: Backend) async throws {
        let store = try await backend.make()
        let mug = try await store.createProduct(ProductDetails(name: "Mug", salePrice: eur("9.00")))
        let purchase = try await store.postPurchase(PurchaseDraft(effectiveAt: at(20260101), lines: [.init(productID: mug.id, quantity: qty(4), unitCost: eur("3.00"))]))
        let sale = try await store.postSale(SaleDraft(effectiveAt: at(20260102), lines: [.init(productID: mug.id, quantity: qty(2), unitPrice: eur("9.00"))]))
        let back = try await store.postCustomerReturn(CustomerReturnDraft(effectiveAt: at(20260103), saleID: sale.id, lines: [
            .init(saleLineID: sale.lines[0].movementID, quantity: qty(1)),
        ]))
        let out = try await store.postSupplierReturn(SupplierReturnDraft(effectiveAt: at(20260104), lines: [.init(productID: mug.id, quantity: qty(1))]))
        let found = try await store.postAdjustment(AdjustmentDraft(effectiveAt: at(20260105), productID: mug.id, quantityChange: qty(1), reason: .count,
                                                                   unitCost: eur("3.00")))
        func expectStock(_ quantity: Int64, _ value: String, sourceLocation: SourceLocation = #_sourceLocation) async throws {
            let stock = try await store.product(mug.id).stock
            #expect(stock.quantity == qty(quantity) && stock.value == eur(value), "\(stock)", sourceLocation: sourceLocation)
        }
        // 4 − 2 + 1 − 1 + 1 = 3 units at 3.00.
        try await expectStock(3, "9.00")

        // Unknown ids, and ids of another kind of document, are not found; nothing changes.
        try await expectRefusal(store, .notFound) { try await store.deleteCustomerReturn(CustomerReturnID(999)) }
        try await expectRefusal(store, .notFound) { try await store.deleteCustomerReturn(CustomerReturnID(purchase.id.rawValue)) }
        try await expectRefusal(store, .notFound) { try await store.deleteSupplierReturn(SupplierReturnID(999)) }
        try await expectRefusal(store, .notFound) { try await store.deleteSupplierReturn(SupplierReturnID(back.rawValue)) }
        try await expectRefusal(store, .notFound) { try await store.deleteAdjustment(AdjustmentID(999)) }
        try await expectRefusal(store, .notFound) { try await store.deleteAdjustment(AdjustmentID(out.rawValue)) }

        try await store.deleteAdjustment(found)
        try await expectStock(2, "6.00")
        try await store.deleteCustomerReturn(back)
        try await expectStock(1, "3.00")
        #expect(try await store.sale(sale.id).lines[0].returnedQuantity == .zero)
        try await store.deleteSupplierReturn(out)
        try await expectStock(2, "6.00")
        // Without its return the sale may go.
        try await store.deleteSale(sale.id)
        try await expectStock(4, "12.00")
        #expect(try await store.movements(productID: mug.id).map(\.kind) == [.purchase])
    }

    @Test(arguments: Backend.ported)
    func deletingAReturnThatALaterSaleUsedNamesThatSale(backend: Backend) async throws {
        let store = try await backend.make()
        let mug = try await store.createProduct(ProductDetails(name: "Mug", salePrice: eur("9.00")))
        _ = try await store.postPurchase(PurchaseDraft(effectiveAt: at(20260101), lines: [.init(productID: mug.id, quantity: qty(2), unitCost: eur("3.00"))]))
        let sale = try await store.postSale(SaleDraft(effectiveAt: at(20260102), lines: [.init(productID: mug.id, quantity: qty(2), unitPrice: eur("9.00"))]))
        let back = try await store.postCustomerReturn(CustomerReturnDraft(effectiveAt: at(20260103), saleID: sale.id, lines: [
            .init(saleLineID: sale.lines[0].movementID, quantity: qty(1)),
        ]))
        let resold = try await store.postSale(SaleDraft(effectiveAt: at(20260104), lines: [.init(productID: mug.id, quantity: qty(1), unitPrice: eur("9.00"))]))
        var refusal: InventoryError?
        try await expectRefusal(store, .insufficientStock) {
            do { try await store.deleteCustomerReturn(back) } catch let error as InventoryError {
                refusal = error
                throw error
            }
        }
        #expect(refusal?.document?.documentID == resold.id.rawValue)
        #expect(refusal?.document?.missing == qty(1))
    }

    /// 80 tills selling at once share group-commit transactions, yet each sale is refused or booked on its own.
    @Test(arguments: Backend.ported)
    func concurrentSalesOfOneProductEndWithExactStock(backend: Backend) async throws {
        let store = try await backend.make()
        let product = try await store.createProduct(ProductDetails(name: "Croissant", salePrice: eur("2.40")))
        _ = try await store.postPurchase(PurchaseDraft(effectiveAt: at(20260301), lines: [
            .init(productID: product.id, quantity: qty(30), unitCost: eur("0.70")),
        ]))
        _ = try await store.postPurchase(PurchaseDraft(effectiveAt: at(20260301, minutes: 1), lines: [
            .init(productID: product.id, quantity: qty(20), unitCost: eur("0.95")),
        ]))
        // 80 tills sell one croissant each at once: 50 are in stock, so exactly 30 sales must be refused.
        let outcomes = await withTaskGroup(of: Result<SaleRecord, InventoryError>.self) { group in
            for index in 0..<80 {
                group.addTask {
                    do {
                        return .success(try await store.postSale(SaleDraft(
                            effectiveAt: at(20260302, minutes: index % 60), note: "till \(index)",
                            lines: [.init(productID: product.id, quantity: qty(1), unitPrice: eur("2.40"))])))
                    } catch let error as InventoryError {
                        return .failure(error)
                    } catch {
                        return .failure(InventoryError(.storage, "\(error)"))
                    }
                }
            }
            var all: [Result<SaleRecord, InventoryError>] = []
            for await outcome in group { all.append(outcome) }
            return all
        }
        let sold = outcomes.compactMap { try? $0.get() }
        let refused = outcomes.compactMap { if case .failure(let error) = $0 { error } else { nil } }
        #expect(sold.count == 50)
        #expect(refused.count == 30)
        #expect(refused.allSatisfy { $0.code == .insufficientStock }, "\(refused.map(\.code))")

        let after = try await store.product(product.id)
        #expect(after.stock.quantity == .zero)
        #expect(after.stock.value == .zero)
        // Σ purchase cost = Σ COGS + stock value: 30 × 0.70 + 20 × 0.95 = 40.00, all of it now sold.
        let cogs = sold.reduce(Money.zero) { $0 + $1.costOfGoodsSold }
        #expect(cogs == eur("40.00"))
        // Every acknowledged sale is on disk, each once.
        let stored = try await store.sales(limit: 500, offset: 0)
        #expect(Set(stored.map(\.id)) == Set(sold.map(\.id.rawValue)))
    }
}
