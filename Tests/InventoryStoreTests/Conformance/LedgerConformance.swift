import Foundation
import InventoryDomain
import InventoryStore
import Testing

@Suite struct BooksTests {
    @Test(arguments: Backend.allCases)
    func seedScenarioCostsSellsAndReports(backend: Backend) async throws {
        let store = try backend.make()
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

    @Test(arguments: Backend.allCases)
    func backDatedPurchaseChangesThePastNotToday(backend: Backend) async throws {
        let store = try backend.make()
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

    @Test(arguments: Backend.allCases)
    func editingAndDeletingRecostsEveryLaterMovement(backend: Backend) async throws {
        let store = try backend.make()
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

    @Test(arguments: Backend.allCases)
    func returnsAndAdjustments(backend: Backend) async throws {
        let store = try backend.make()
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

    @Test(arguments: Backend.allCases)
    func negativeStockWhenAllowedBooksACostAdjustment(backend: Backend) async throws {
        let store = try backend.make()
        let product = try await store.createProduct(ProductDetails(name: "Flour", unit: "kg", allowsNegativeStock: true))
        _ = try await store.postPurchase(PurchaseDraft(effectiveAt: at(20260101), lines: [.init(productID: product.id, quantity: qty(2), unitCost: eur("1.00"))]))
        _ = try await store.postSale(SaleDraft(effectiveAt: at(20260102), lines: [.init(productID: product.id, quantity: qty(5), unitPrice: eur("2.00"))]))
        #expect(try await store.product(product.id).stock.quantity == qty(-3))
        _ = try await store.postPurchase(PurchaseDraft(effectiveAt: at(20260103), lines: [.init(productID: product.id, quantity: qty(10), unitCost: eur("1.50"))]))
        let movements = try await store.movements(productID: product.id)
        #expect(movements.last?.costAdjustment == eur("1.50"))
        #expect(movements.last?.balance.value == eur("10.50"))
    }
}
