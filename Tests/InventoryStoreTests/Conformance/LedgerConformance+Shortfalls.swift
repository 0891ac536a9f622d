import Foundation
import InventoryDomain
import Testing

extension LedgerConformance {
    /// A change that would leave a *stored* document short names that document, its line, its day in the shop's time
    /// zone and the shortfall — not a line of the request — and changes nothing; a request line that itself goes short
    /// is named by its field.
    @Suite struct Shortfalls {
        struct Shop {
            let store: any TestableRepository
            let beans: Product
            let milk: Product
            let purchase: PurchaseRecord
            /// Sells 1 milk (line 1) and 4 beans (line 2) at 23:30 UTC on 20 January: 21 January in Berlin.
            let later: SaleRecord
        }

        func shop(_ backend: Backend) async throws -> Shop {
            let store = try await backend.make()
            try await store.saveSettings(ShopSettings(timeZoneIdentifier: "Europe/Berlin"))
            let beans = try await store.createProduct(ProductDetails(name: "Espresso beans", salePrice: eur("9.00")))
            let milk = try await store.createProduct(ProductDetails(name: "Milk", salePrice: eur("1.50")))
            _ = try await store.postPurchase(PurchaseDraft(effectiveAt: at(20260101), lines: [.init(productID: milk.id, quantity: qty(10), unitCost: eur("0.80"))]))
            let purchase = try await store.postPurchase(PurchaseDraft(effectiveAt: at(20260102), lines: [.init(productID: beans.id, quantity: qty(5), unitCost: eur("4.00"))]))
            let later = try await store.postSale(SaleDraft(effectiveAt: at(20260120, minutes: 11 * 60 + 30), lines: [
                .init(productID: milk.id, quantity: qty(1), unitPrice: eur("1.50")),
                .init(productID: beans.id, quantity: qty(4), unitPrice: eur("9.00")),
            ]))
            return Shop(store: store, beans: beans, milk: milk, purchase: purchase, later: later)
        }

        /// The refusal `body` throws, checked to be `insufficientStock` with nothing changed.
        func shortfall(_ store: any TestableRepository, sourceLocation: SourceLocation = #_sourceLocation,
                       _ body: () async throws -> Void) async throws -> InventoryError? {
            var caught: InventoryError?
            try await expectRefusal(store, .insufficientStock, sourceLocation: sourceLocation) {
                do { try await body() } catch let error as InventoryError {
                    caught = error
                    throw error
                }
            }
            return caught
        }

        func expectNamesLaterSale(_ error: InventoryError?, _ shop: Shop, missing: Int64, sourceLocation: SourceLocation = #_sourceLocation) {
            #expect(error?.field == nil, "\(String(describing: error))", sourceLocation: sourceLocation)
            #expect(error?.document == AffectedLine(kind: .sale, documentID: shop.later.id.rawValue, line: 2, date: "2026-01-21",
                                                    productID: shop.beans.id, productName: "Espresso beans", missing: qty(missing)),
                    "\(String(describing: error?.document))", sourceLocation: sourceLocation)
            #expect(error?.userMessage == "this would leave sale \(shop.later.id.rawValue) (line 2, Espresso beans, 2026-01-21) \(missing) short",
                    sourceLocation: sourceLocation)
        }

        @Test(arguments: Backend.ported)
        func aNewSaleThatLeavesALaterSaleShortNamesTheLaterSale(backend: Backend) async throws {
            let shop = try await self.shop(backend)
            // 2 of the 5 beans on the 10th is fine for this sale, but leaves the sale on the 21st (4) one short.
            let error = try await self.shortfall(shop.store) {
                _ = try await shop.store.postSale(SaleDraft(effectiveAt: at(20260110), lines: [.init(productID: shop.beans.id, quantity: qty(2), unitPrice: eur("9.00"))]))
            }
            self.expectNamesLaterSale(error, shop, missing: 1)
        }

        @Test(arguments: Backend.ported)
        func aBackDatedLineThatIsItselfShortIsNamedByItsField(backend: Backend) async throws {
            let shop = try await self.shop(backend)
            let error = try await self.shortfall(shop.store) {
                _ = try await shop.store.postSale(SaleDraft(effectiveAt: at(20260110), lines: [
                    .init(productID: shop.milk.id, quantity: qty(1), unitPrice: eur("1.50")),
                    .init(productID: shop.beans.id, quantity: qty(6), unitPrice: eur("9.00")),
                ]))
            }
            #expect(error?.field == "lines[1].quantity")
            #expect(error?.document == nil)
            #expect(error?.userMessage.contains("2026-01-10") == true, "\(String(describing: error))")
        }

        @Test(arguments: Backend.ported)
        func deletingThePurchaseNamesTheSaleLeftShort(backend: Backend) async throws {
            let shop = try await self.shop(backend)
            let error = try await self.shortfall(shop.store) { try await shop.store.deletePurchase(shop.purchase.id) }
            self.expectNamesLaterSale(error, shop, missing: 4)
        }

        @Test(arguments: Backend.ported)
        func loweringThePurchaseNamesTheSaleLeftShort(backend: Backend) async throws {
            let shop = try await self.shop(backend)
            let error = try await self.shortfall(shop.store) {
                _ = try await shop.store.updatePurchase(shop.purchase.id, PurchaseDraft(
                    effectiveAt: at(20260102), lines: [.init(productID: shop.beans.id, quantity: qty(3), unitCost: eur("4.00"))]))
            }
            self.expectNamesLaterSale(error, shop, missing: 1)
        }

        @Test(arguments: Backend.ported)
        func backDatingASaleNamesTheSaleLeftShort(backend: Backend) async throws {
            let shop = try await self.shop(backend)
            // 3 more beans arrive on the 22nd and a second sale takes 2 on the 25th: fine. Moved to the 10th, it leaves
            // the sale on the 21st one short.
            _ = try await shop.store.postPurchase(PurchaseDraft(effectiveAt: at(20260122), lines: [.init(productID: shop.beans.id, quantity: qty(3), unitCost: eur("4.00"))]))
            let second = try await shop.store.postSale(SaleDraft(effectiveAt: at(20260125), lines: [.init(productID: shop.beans.id, quantity: qty(2), unitPrice: eur("9.00"))]))
            let error = try await self.shortfall(shop.store) {
                _ = try await shop.store.updateSale(second.id, SaleDraft(effectiveAt: at(20260110), lines: [.init(productID: shop.beans.id, quantity: qty(2), unitPrice: eur("9.00"))]))
            }
            self.expectNamesLaterSale(error, shop, missing: 1)
        }

        @Test(arguments: Backend.ported)
        func raisingASaleLineNamesThatLine(backend: Backend) async throws {
            let shop = try await self.shop(backend)
            let error = try await self.shortfall(shop.store) {
                _ = try await shop.store.updateSale(shop.later.id, SaleDraft(effectiveAt: at(20260120, minutes: 11 * 60 + 30), lines: [
                    .init(productID: shop.milk.id, quantity: qty(1), unitPrice: eur("1.50")),
                    .init(productID: shop.beans.id, quantity: qty(6), unitPrice: eur("9.00")),
                ]))
            }
            #expect(error?.field == "lines[1].quantity", "\(String(describing: error))")
            #expect(error?.document == nil)
        }

        @Test(arguments: Backend.ported)
        func forbiddingNegativeStockNamesTheSettingAndTheDocument(backend: Backend) async throws {
            let shop = try await self.shop(backend)
            let flour = try await shop.store.createProduct(ProductDetails(name: "Flour", allowsNegativeStock: true))
            let sale = try await shop.store.postSale(SaleDraft(effectiveAt: at(20260103), lines: [.init(productID: flour.id, quantity: qty(2), unitPrice: eur("1.00"))]))
            let error = try await self.shortfall(shop.store) {
                _ = try await shop.store.updateProduct(flour.id, ProductDetails(name: "Flour", allowsNegativeStock: false))
            }
            #expect(error?.field == "allowsNegativeStock")
            #expect(error?.document?.documentID == sale.id.rawValue)
            #expect(error?.document?.line == 1)
            #expect(error?.document?.missing == qty(2))
        }
    }
}
