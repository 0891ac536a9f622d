import Foundation
import InventoryDomain
import Testing

extension LedgerConformance {
    /// Recipes (issue 12, point 6): selling a latte issues 18 g of beans and 200 ml of milk; its cost of goods sold is
    /// the exact sum of the ingredients' weighted-average costs at the time of sale; a back-dated purchase of an
    /// ingredient re-costs the lattes sold after it; shortfalls and bad recipes are refused with nothing changed.
    @Suite struct Recipes {
        struct Shop {
            let store: any TestableRepository
            let beans: Product
            let milk: Product
            let latte: Product
        }

        /// 1 kg of beans at 20.00 and 10 l of milk at 1.00 on 1 January; a latte (3.50) of 0.018 kg beans + 0.2 l milk.
        func shop(_ backend: Backend) async throws -> Shop {
            let store = try await backend.make()
            let beans = try await store.createProduct(ProductDetails(name: "Beans", unit: "kg", salePrice: eur("30.00")))
            let milk = try await store.createProduct(ProductDetails(name: "Milk", unit: "l", salePrice: eur("2.00")))
            let latte = try await store.createProduct(ProductDetails(name: "Latte", salePrice: eur("3.50"), tracksStock: false))
            _ = try await store.postPurchase(PurchaseDraft(effectiveAt: at(20260101), lines: [
                .init(productID: beans.id, quantity: qty(1), unitCost: eur("20.00")),
                .init(productID: milk.id, quantity: qty(10), unitCost: eur("1.00")),
            ]))
            let recipe = try await store.setRecipe([
                RecipeComponent(ingredientID: beans.id, quantity: Quantity(thousandths: 18)),
                RecipeComponent(ingredientID: milk.id, quantity: Quantity(thousandths: 200)),
            ], of: latte.id)
            #expect(recipe.count == 2)
            return Shop(store: store, beans: beans, milk: milk, latte: latte)
        }

        func lattes(_ shop: Shop, _ count: Int64, on day: Int, plus other: [SaleDraft.Line] = []) -> SaleDraft {
            SaleDraft(effectiveAt: at(day), lines: [.init(productID: shop.latte.id, quantity: qty(count))] + other)
        }

        @Test(arguments: Backend.ported)
        func aRecipeLineCostsItsIngredientsAndIssuesThem(backend: Backend) async throws {
            let shop = try await self.shop(backend)
            let sale = try await shop.store.postSale(self.lattes(shop, 3, on: 20260105, plus: [.init(productID: shop.milk.id, quantity: qty(1))]))
            // 3 lattes: 0.054 kg beans at 20.00 = 1.08, 0.6 l milk at 1.00 = 0.60: 1.68. The milk line: 1 l = 1.00.
            #expect(sale.lines.count == 2, "the ingredient issues are not lines of the sale")
            #expect(sale.lines.map(\.costOfGoodsSold) == [eur("1.68"), eur("1.00")])
            #expect(sale.costOfGoodsSold == eur("2.68"))
            #expect(try await shop.store.product(shop.beans.id).stock.quantity == Quantity(thousandths: 946))
            #expect(try await shop.store.product(shop.milk.id).stock.quantity == Quantity(thousandths: 8_400))
            let kinds = try await shop.store.movements(productID: shop.beans.id).map(\.kind)
            #expect(kinds == [.purchase, .consumption])
            // The day's cost of goods sold takes the ingredients in; the latte sells 3 (the top list), the beans nothing.
            let day = try #require(try await shop.store.daily(from: 20260105, to: 20260105).first)
            #expect(day.costOfGoodsSold == eur("2.68") && day.revenue == eur("12.50"))
            let top = try await shop.store.topProducts(from: at(20260101), to: at(20260131), by: .quantity, limit: 10)
            #expect(Set(top.map(\.productID)) == [shop.latte.id, shop.milk.id])
            #expect(try await shop.store.sales(limit: 10, offset: 0).first?.lineCount == 2)
        }

        @Test(arguments: Backend.ported)
        func aBackDatedIngredientPurchaseReCostsTheLattesSoldAfterIt(backend: Backend) async throws {
            let shop = try await self.shop(backend)
            let sale = try await shop.store.postSale(self.lattes(shop, 10, on: 20260110))
            #expect(sale.costOfGoodsSold == eur("5.60"))   // 0.18 kg × 20.00 = 3.60 + 2 l × 1.00 = 2.00
            // Beans bought on the 5th at 38.00: 2 kg worth 58.00, an average of 29.00 — the 0.18 kg now cost 5.22.
            _ = try await shop.store.postPurchase(PurchaseDraft(effectiveAt: at(20260105), lines: [
                .init(productID: shop.beans.id, quantity: qty(1), unitCost: eur("38.00")),
            ]))
            let recosted = try await shop.store.sale(sale.id)
            #expect(recosted.lines[0].costOfGoodsSold == eur("7.22"))
            #expect(try await shop.store.daily(from: 20260110, to: 20260110).first?.costOfGoodsSold == eur("7.22"))
        }

        @Test(arguments: Backend.ported)
        func anIngredientShortfallIsRefusedOnTheLineAndAStoredLatteIsNamedByItsSaleLine(backend: Backend) async throws {
            let shop = try await self.shop(backend)
            // 60 lattes need 1.08 kg of beans; there is 1 kg.
            var caught: InventoryError?
            try await expectRefusal(shop.store, .insufficientStock, field: "lines[0].quantity") {
                do { _ = try await shop.store.postSale(self.lattes(shop, 60, on: 20260110)) } catch let error as InventoryError {
                    caught = error
                    throw error
                }
            }
            #expect(caught?.managerMayApprove == true && caught?.userMessage.contains("Beans") == true, "\(String(describing: caught))")
            // 50 lattes (0.9 kg) are fine; a write-off of 0.2 kg before them would leave that sale's line 1 short.
            let sale = try await shop.store.postSale(self.lattes(shop, 50, on: 20260110))
            var shortfall: InventoryError?
            try await expectRefusal(shop.store, .insufficientStock) {
                do {
                    _ = try await shop.store.postAdjustment(AdjustmentDraft(effectiveAt: at(20260105), productID: shop.beans.id,
                                                                            quantityChange: Quantity(thousandths: -200), reason: .damage))
                } catch let error as InventoryError {
                    shortfall = error
                    throw error
                }
            }
            #expect(shortfall?.document?.kind == .sale && shortfall?.document?.documentID == sale.id.rawValue && shortfall?.document?.line == 1,
                    "\(String(describing: shortfall?.document))")
        }

        @Test(arguments: Backend.ported)
        func badRecipesAreRefusedAndChangeNothing(backend: Backend) async throws {
            let shop = try await self.shop(backend)
            let mocha = try await shop.store.createProduct(ProductDetails(name: "Mocha", salePrice: eur("4.00"), tracksStock: false))
            try await expectRefusal(shop.store, .invalidValue, field: "components[0].productId") {
                _ = try await shop.store.setRecipe([RecipeComponent(ingredientID: mocha.id, quantity: qty(1))], of: mocha.id)
            }
            try await expectRefusal(shop.store, .invalidValue, field: "components[0].productId") {
                _ = try await shop.store.setRecipe([RecipeComponent(ingredientID: shop.latte.id, quantity: qty(1))], of: mocha.id)
            }
            try await expectRefusal(shop.store, .invalidValue, field: "components") {
                _ = try await shop.store.setRecipe([RecipeComponent(ingredientID: shop.milk.id, quantity: qty(1))], of: shop.beans.id)
            }
            try await expectRefusal(shop.store, .notFound, field: "components[0].productId") {
                _ = try await shop.store.setRecipe([RecipeComponent(ingredientID: ProductID(9_999), quantity: qty(1))], of: mocha.id)
            }
            var tracked = shop.latte.details
            tracked.tracksStock = true
            try await expectRefusal(shop.store, .invalidValue, field: "tracksStock") {
                _ = try await shop.store.updateProduct(shop.latte.id, tracked)
            }
            // No components: no recipe.
            #expect(try await shop.store.setRecipe([], of: shop.latte.id).isEmpty)
            #expect(try await shop.store.recipe(of: shop.latte.id).isEmpty)
        }
    }
}
