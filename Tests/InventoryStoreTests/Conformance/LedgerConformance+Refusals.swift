import Foundation
import InventoryDomain
import InventoryStore
import Testing

/// Every kind of bad input is refused with a clear error naming the field, and the database is unchanged.
@Suite struct RefusalTests {
    struct Shop {
        let store: any TestableRepository
        let beans: Product
        let milk: Product
        let supplier: Contact<Supplier>
        let customer: Contact<Customer>
    }

    func shop(_ backend: Backend) async throws -> Shop {
        let store = try backend.make()
        let beans = try await store.createProduct(ProductDetails(name: "Beans", sku: "BEAN-1", barcode: "4006381333931", salePrice: eur("9.00"), minimumSalePrice: eur("8.00")))
        let milk = try await store.createProduct(ProductDetails(name: "Milk", salePrice: eur("1.50")))
        let supplier = try await store.createSupplier(Contact(id: SupplierID(0), name: "Bean Co"))
        let customer = try await store.createCustomer(Contact(id: CustomerID(0), name: "Ada"))
        _ = try await store.postPurchase(PurchaseDraft(effectiveAt: at(20260101), supplierID: supplier.id, lines: [.init(productID: beans.id, quantity: qty(5), unitCost: eur("4.00"))]))
        return Shop(store: store, beans: beans, milk: milk, supplier: supplier, customer: customer)
    }

    @Test(arguments: Backend.allCases)
    func zeroOrNegativeQuantities(backend: Backend) async throws {
        let shop = try await self.shop(backend)
        for bad in [Quantity.zero, qty(-2)] {
            try await expectRefusal(shop.store, .invalidValue, field: "lines[0].quantity") {
                _ = try await shop.store.postPurchase(PurchaseDraft(effectiveAt: at(20260102), lines: [.init(productID: shop.beans.id, quantity: bad, unitCost: eur("1.00"))]))
            }
            try await expectRefusal(shop.store, .invalidValue, field: "lines[0].quantity") {
                _ = try await shop.store.postSale(SaleDraft(effectiveAt: at(20260102), lines: [.init(productID: shop.beans.id, quantity: bad, unitPrice: eur("9.00"))]))
            }
        }
        try await expectRefusal(shop.store, .invalidValue, field: "quantityChange") {
            _ = try await shop.store.postAdjustment(AdjustmentDraft(effectiveAt: at(20260102), productID: shop.beans.id, quantityChange: .zero, reason: .count))
        }
    }

    @Test(arguments: Backend.allCases)
    func negativePricesAndCosts(backend: Backend) async throws {
        let shop = try await self.shop(backend)
        try await expectRefusal(shop.store, .invalidValue, field: "lines[0].unitCost") {
            _ = try await shop.store.postPurchase(PurchaseDraft(effectiveAt: at(20260102), lines: [.init(productID: shop.beans.id, quantity: qty(1), unitCost: eur("-1.00"))]))
        }
        try await expectRefusal(shop.store, .invalidValue, field: "salePrice") {
            _ = try await shop.store.createProduct(ProductDetails(name: "Bad", salePrice: eur("-1.00")))
        }
        try await expectRefusal(shop.store, .invalidValue, field: "lines[0].discount") {
            _ = try await shop.store.postSale(SaleDraft(effectiveAt: at(20260102), lines: [.init(productID: shop.beans.id, quantity: qty(1), unitPrice: eur("9.00"), discount: eur("10.00"))]))
        }
        try await expectRefusal(shop.store, .invalidValue, field: "lines[0].unitPrice") {
            _ = try await shop.store.postSale(SaleDraft(effectiveAt: at(20260102), lines: [.init(productID: shop.beans.id, quantity: qty(1), unitPrice: eur("7.00"))]))
        }
        // A manager may sell below the minimum.
        _ = try await shop.store.postSale(SaleDraft(effectiveAt: at(20260102), lines: [.init(productID: shop.beans.id, quantity: qty(1), unitPrice: eur("7.00"))], allowBelowMinimum: true))
    }

    @Test(arguments: Backend.allCases)
    func unknownReferences(backend: Backend) async throws {
        let shop = try await self.shop(backend)
        try await expectRefusal(shop.store, .notFound, field: "lines[0].productId") {
            _ = try await shop.store.postSale(SaleDraft(effectiveAt: at(20260102), lines: [.init(productID: ProductID(999), quantity: qty(1), unitPrice: eur("1.00"))]))
        }
        try await expectRefusal(shop.store, .notFound, field: "lines[1].productId") {
            _ = try await shop.store.postPurchase(PurchaseDraft(effectiveAt: at(20260102), lines: [
                .init(productID: shop.milk.id, quantity: qty(1), unitCost: eur("1.00")),
                .init(productID: ProductID(999), quantity: qty(1), unitCost: eur("1.00")),
            ]))
        }
        try await expectRefusal(shop.store, .notFound, field: "supplierId") {
            _ = try await shop.store.postPurchase(PurchaseDraft(effectiveAt: at(20260102), supplierID: SupplierID(999), lines: [.init(productID: shop.milk.id, quantity: qty(1), unitCost: eur("1.00"))]))
        }
        try await expectRefusal(shop.store, .notFound, field: "customerId") {
            _ = try await shop.store.postSale(SaleDraft(effectiveAt: at(20260102), customerID: CustomerID(999), lines: [.init(productID: shop.beans.id, quantity: qty(1), unitPrice: eur("9.00"))]))
        }
        try await expectRefusal(shop.store, .notFound, field: "categoryId") {
            _ = try await shop.store.createProduct(ProductDetails(name: "X", categoryID: CategoryID(42)))
        }
        try await expectRefusal(shop.store, .notFound, field: "id") { try await shop.store.deletePurchase(PurchaseID(12345)) }
        try await expectRefusal(shop.store, .notFound, field: "id") { try await shop.store.deleteSale(SaleID(1)) }  // 1 is a purchase
    }

    @Test(arguments: Backend.allCases)
    func duplicateBarcodeOrSkuNamesTheOwner(backend: Backend) async throws {
        let shop = try await self.shop(backend)
        let before = try await shop.store.testOnly_dump()
        do {
            _ = try await shop.store.createProduct(ProductDetails(name: "Other", barcode: "4006381333931"))
            Issue.record("duplicate barcode accepted")
        } catch let error as InventoryError {
            #expect(error.code == .duplicate)
            #expect(error.field == "barcode")
            #expect(error.userMessage.contains("'Beans'"))
        }
        #expect(try await shop.store.testOnly_dump() == before)
        try await expectRefusal(shop.store, .duplicate, field: "sku") {
            _ = try await shop.store.createProduct(ProductDetails(name: "Other", sku: "BEAN-1"))
        }
        try await expectRefusal(shop.store, .duplicate, field: "barcode") {
            _ = try await shop.store.updateProduct(shop.milk.id, ProductDetails(name: "Milk", barcode: "4006381333931"))
        }
        // An inline product in a purchase with a taken barcode: the whole purchase is refused.
        try await expectRefusal(shop.store, .duplicate, field: "lines[1].product.barcode") {
            _ = try await shop.store.postPurchase(PurchaseDraft(effectiveAt: at(20260102), lines: [
                .init(productID: shop.milk.id, quantity: qty(1), unitCost: eur("1.00")),
                .init(product: .new(ProductDetails(name: "Copy", barcode: "4006381333931")), quantity: qty(1), unitCost: eur("1.00")),
            ]))
        }
        _ = try await shop.store.createCategory(Category(id: CategoryID(0), name: "Coffee"))
        try await expectRefusal(shop.store, .duplicate, field: "name") {
            _ = try await shop.store.createCategory(Category(id: CategoryID(0), name: "coffee"))
        }
    }

    @Test(arguments: Backend.allCases)
    func invalidCheckDigitAndBadText(backend: Backend) async throws {
        let shop = try await self.shop(backend)
        try await expectRefusal(shop.store, .invalidValue, field: "barcode") {
            _ = try await shop.store.createProduct(ProductDetails(name: "X", barcode: "4006381333932"))
        }
        try await expectRefusal(shop.store, .missingValue, field: "name") {
            _ = try await shop.store.createProduct(ProductDetails(name: "   "))
        }
        try await expectRefusal(shop.store, .invalidValue, field: "email") {
            _ = try await shop.store.createCustomer(Contact(id: CustomerID(0), name: "Bob", email: "not-an-email"))
        }
        try await expectRefusal(shop.store, .invalidValue, field: "color") {
            _ = try await shop.store.createCategory(Category(id: CategoryID(0), name: "Tea", color: "blue"))
        }
        try await expectRefusal(shop.store, .invalidValue, field: "lines[0].expiryDate") {
            _ = try await shop.store.postPurchase(PurchaseDraft(effectiveAt: at(20260102), lines: [.init(productID: shop.milk.id, quantity: qty(1), unitCost: eur("1.00"), expiryDate: "2026-02-30")]))
        }
        try await expectRefusal(shop.store, .invalidValue, field: "timeZone") {
            try await shop.store.saveSettings(ShopSettings(timeZoneIdentifier: "Mars/Olympus"))
        }
    }

    @Test(arguments: Backend.allCases)
    func overselling(backend: Backend) async throws {
        let shop = try await self.shop(backend)
        try await expectRefusal(shop.store, .insufficientStock, field: "lines[1].quantity") {
            _ = try await shop.store.postSale(SaleDraft(effectiveAt: at(20260102), lines: [
                .init(productID: shop.beans.id, quantity: qty(3), unitPrice: eur("9.00")),
                .init(productID: shop.beans.id, quantity: qty(3), unitPrice: eur("9.00")),
            ]))
        }
        // Back-dated before the stock arrived.
        try await expectRefusal(shop.store, .insufficientStock) {
            _ = try await shop.store.postSale(SaleDraft(effectiveAt: at(20251231), lines: [.init(productID: shop.beans.id, quantity: qty(1), unitPrice: eur("9.00"))]))
        }
        try await expectRefusal(shop.store, .insufficientStock) {
            _ = try await shop.store.postAdjustment(AdjustmentDraft(effectiveAt: at(20260102), productID: shop.beans.id, quantityChange: qty(-6), reason: .damage))
        }
        // Editing a sale up past the stock.
        let sale = try await shop.store.postSale(SaleDraft(effectiveAt: at(20260103), lines: [.init(productID: shop.beans.id, quantity: qty(5), unitPrice: eur("9.00"))]))
        try await expectRefusal(shop.store, .insufficientStock) {
            _ = try await shop.store.updateSale(sale.id, SaleDraft(effectiveAt: at(20260103), lines: [.init(productID: shop.beans.id, quantity: qty(6), unitPrice: eur("9.00"))]))
        }
        // Turning off negative stock is fine here; a product that went negative cannot lose the permission.
        let flour = try await shop.store.createProduct(ProductDetails(name: "Flour", allowsNegativeStock: true))
        _ = try await shop.store.postSale(SaleDraft(effectiveAt: at(20260103), lines: [.init(productID: flour.id, quantity: qty(1), unitPrice: eur("1.00"))]))
        try await expectRefusal(shop.store, .insufficientStock, field: "allowsNegativeStock") {
            _ = try await shop.store.updateProduct(flour.id, ProductDetails(name: "Flour", allowsNegativeStock: false))
        }
    }

    @Test(arguments: Backend.allCases)
    func deletingWhatIsInUse(backend: Backend) async throws {
        let shop = try await self.shop(backend)
        try await expectRefusal(shop.store, .inUse, field: "id") { try await shop.store.deleteProduct(shop.beans.id) }
        try await expectRefusal(shop.store, .inUse, field: "id") { try await shop.store.deleteSupplier(shop.supplier.id) }
        try await shop.store.deleteProduct(shop.milk.id)
        await #expect(throws: InventoryError(.notFound, field: "productId", "")) { try await shop.store.product(shop.milk.id) }
    }

    @Test(arguments: Backend.allCases)
    func cashTenderedBelowTheTotalOrOnACardSale(backend: Backend) async throws {
        let shop = try await self.shop(backend)
        let line = SaleDraft.Line(productID: shop.beans.id, quantity: qty(2), unitPrice: eur("9.00"))
        // 2 × 9.00 + 0.50 tip = 18.50.
        try await expectRefusal(shop.store, .invalidValue, field: "cashTendered") {
            _ = try await shop.store.postSale(SaleDraft(effectiveAt: at(20260102), lines: [line], tip: eur("0.50"), cashTendered: eur("18.49")))
        }
        try await expectRefusal(shop.store, .invalidValue, field: "cashTendered") {
            _ = try await shop.store.postSale(SaleDraft(effectiveAt: at(20260102), lines: [line], paymentMethod: .card, cashTendered: eur("20.00")))
        }
        let sale = try await shop.store.postSale(SaleDraft(effectiveAt: at(20260102), lines: [line], tip: eur("0.50"), soldBy: "mia", cashTendered: eur("20.00")))
        #expect(sale.soldBy == "mia")
        #expect(sale.cashTendered == eur("20.00"))
        #expect(sale.change == eur("1.50"))
        let again = try await shop.store.sale(sale.id)
        #expect(again.soldBy == "mia" && again.change == eur("1.50"))
        // A sale without a cash amount has no change; an unknown seller is empty.
        let card = try await shop.store.postSale(SaleDraft(effectiveAt: at(20260102), lines: [line], paymentMethod: .card))
        #expect(card.change == nil && card.soldBy.isEmpty)
    }
}
