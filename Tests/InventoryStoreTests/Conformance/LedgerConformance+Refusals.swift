import Foundation
import InventoryDomain
import Testing

extension LedgerConformance {
    /// Every kind of bad document is refused with a clear error naming the field, and the database is unchanged. (The
    /// catalogue's refusals are in ``CatalogueConformance``, the settings' in ``SettingsConformance``.)
    @Suite struct Refusals {
        func shop(_ backend: Backend) async throws -> Fixtures.RefusalShop { try await Fixtures.refusalShop(backend) }

        @Test(arguments: Backend.ported)
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

        /// A line without a price sells at the product's price and tax rate as they are when the sale is booked (read in
        /// the sale's own transaction); a percentage discount is taken of that price.
        @Test(arguments: Backend.ported)
        func aLineWithoutAPriceSellsAtTheProductsCurrentPrice(backend: Backend) async throws {
            let shop = try await self.shop(backend)
            var details = shop.beans.details
            details.salePrice = eur("9.50")
            details.taxRate = Percent(hundredths: 700)
            _ = try await shop.store.updateProduct(shop.beans.id, details)
            // 2 × 9.50 = 19.00, less 10 % = 1.90: 17.10; tax 7 % = 1.197 → 1.20.
            let sale = try await shop.store.postSale(SaleDraft(effectiveAt: at(20260102), lines: [
                .init(productID: shop.beans.id, quantity: qty(2), discountPercent: Percent(hundredths: 1000)),
            ]))
            #expect(sale.lines[0].unitPrice == eur("9.50") && sale.lines[0].taxRate == Percent(hundredths: 700))
            #expect(sale.lines[0].discount == eur("1.90") && sale.revenue == eur("17.10") && sale.tax == eur("1.20"))
        }

        @Test(arguments: Backend.ported)
        func negativePricesAndCosts(backend: Backend) async throws {
            let shop = try await self.shop(backend)
            try await expectRefusal(shop.store, .invalidValue, field: "lines[0].unitCost") {
                _ = try await shop.store.postPurchase(PurchaseDraft(effectiveAt: at(20260102), lines: [.init(productID: shop.beans.id, quantity: qty(1), unitCost: eur("-1.00"))]))
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

        @Test(arguments: Backend.ported)
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
            try await expectRefusal(shop.store, .notFound, field: "id") { try await shop.store.deletePurchase(PurchaseID(12345)) }
            try await expectRefusal(shop.store, .notFound, field: "id") { try await shop.store.deleteSale(SaleID(1)) }  // 1 is a purchase
        }

        @Test(arguments: Backend.ported)
        func anImpossibleExpiryDate(backend: Backend) async throws {
            let shop = try await self.shop(backend)
            try await expectRefusal(shop.store, .invalidValue, field: "lines[0].expiryDate") {
                _ = try await shop.store.postPurchase(PurchaseDraft(effectiveAt: at(20260102), lines: [.init(productID: shop.milk.id, quantity: qty(1), unitCost: eur("1.00"), expiryDate: "2026-02-30")]))
            }
        }

        @Test(arguments: Backend.ported)
        func returnsAndArchivedProductsAreRefusedByName(backend: Backend) async throws {
            let shop = try await self.shop(backend)
            let sale = try await shop.store.postSale(SaleDraft(effectiveAt: at(20260103), lines: [.init(productID: shop.beans.id, quantity: qty(2), unitPrice: eur("9.00"))]))
            let purchase = try await shop.store.purchases(limit: 1, offset: 0)[0]
            try await expectRefusal(shop.store, .invalidValue, field: "effectiveAt") {
                _ = try await shop.store.postCustomerReturn(CustomerReturnDraft(effectiveAt: at(20260102), saleID: sale.id, lines: [
                    .init(saleLineID: sale.lines[0].movementID, quantity: qty(1)),
                ]))
            }
            // A line of another document is not a line of this sale.
            let purchaseLine = try await shop.store.purchase(PurchaseID(purchase.id)).lines[0].movementID
            try await expectRefusal(shop.store, .notFound, field: "lines[0].saleLineId") {
                _ = try await shop.store.postCustomerReturn(CustomerReturnDraft(effectiveAt: at(20260104), saleID: sale.id, lines: [
                    .init(saleLineID: purchaseLine, quantity: qty(1)),
                ]))
            }
            try await expectRefusal(shop.store, .notFound) {
                _ = try await shop.store.postCustomerReturn(CustomerReturnDraft(effectiveAt: at(20260104), saleID: SaleID(purchase.id), lines: [
                    .init(saleLineID: sale.lines[0].movementID, quantity: qty(1)),
                ]))
            }
            try await expectRefusal(shop.store, .notFound, field: "supplierId") {
                _ = try await shop.store.postSupplierReturn(SupplierReturnDraft(effectiveAt: at(20260104), supplierID: SupplierID(999), lines: [
                    .init(productID: shop.beans.id, quantity: qty(1)),
                ]))
            }
            // An archived product is sold no more; a batch names the document at fault.
            var archived = shop.milk.details
            archived.isArchived = true
            _ = try await shop.store.updateProduct(shop.milk.id, archived)
            try await expectRefusal(shop.store, .conflict, field: "lines[0].productId") {
                _ = try await shop.store.postSale(SaleDraft(effectiveAt: at(20260104), lines: [.init(productID: shop.milk.id, quantity: qty(1), unitPrice: eur("1.50"))]))
            }
            try await expectRefusal(shop.store, .notFound, field: "purchases[1].lines[0].productId") {
                try await shop.store.postPurchases([
                    PurchaseDraft(effectiveAt: at(20260104), lines: [.init(productID: shop.beans.id, quantity: qty(1), unitCost: eur("4.00"))]),
                    PurchaseDraft(effectiveAt: at(20260104), lines: [.init(productID: ProductID(999), quantity: qty(1), unitCost: eur("4.00"))]),
                ])
            }
        }

        @Test(arguments: Backend.ported)
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

        @Test(arguments: Backend.ported)
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
            // An edit, by whoever makes it, keeps who rang the sale up.
            let edited = try await shop.store.updateSale(sale.id, SaleDraft(effectiveAt: at(20260102), lines: [line], soldBy: "sam"))
            #expect(edited.soldBy == "mia")
            // A sale without a cash amount has no change; an unknown seller is empty.
            let card = try await shop.store.postSale(SaleDraft(effectiveAt: at(20260102), lines: [line], paymentMethod: .card))
            #expect(card.change == nil && card.soldBy.isEmpty)
        }
    }
}
