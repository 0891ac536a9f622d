import Foundation
import InventoryDomain
import Testing

extension LedgerConformance {
    /// Batches (imports, the benchmark's days): a batch reads and locks all its products at once and writes the
    /// balances and the monthly sales summary once at the end, so it must book exactly what the same documents book one
    /// by one: the same movements, balances and reports, recipes and options included; a refusal still names the
    /// document and line at fault and changes nothing.
    @Suite struct Batches {
        struct Shop {
            let store: any TestableRepository
            let beans: Product, milk: Product, latte: Product, mug: Product
            let large: ModifierID
        }

        func shop(_ backend: Backend) async throws -> Shop {
            let store = try await backend.make()
            let beans = try await store.createProduct(ProductDetails(name: "Beans", unit: "kg", salePrice: eur("30.00")))
            let milk = try await store.createProduct(ProductDetails(name: "Milk", unit: "l", salePrice: eur("2.00")))
            let latte = try await store.createProduct(ProductDetails(name: "Latte", salePrice: eur("3.50"), tracksStock: false))
            let mug = try await store.createProduct(ProductDetails(name: "Mug", salePrice: eur("9.00")))
            _ = try await store.setRecipe([
                RecipeComponent(ingredientID: beans.id, quantity: Quantity(thousandths: 18)),
                RecipeComponent(ingredientID: milk.id, quantity: Quantity(thousandths: 200)),
            ], of: latte.id)
            let groups = try await store.setOptionGroups([
                ModifierGroup(name: "Size", options: [Modifier(name: "Regular"), Modifier(name: "Large", priceChange: eur("0.50"))]),
            ], of: latte.id)
            return Shop(store: store, beans: beans, milk: milk, latte: latte, mug: mug, large: try #require(groups[0].options[1].id))
        }

        /// Purchases and sales over December and January (two years of the monthly summary), products sold in several
        /// sales of one batch, a recipe with an option, and a purchase that creates its product.
        func documents(_ shop: Shop) -> (purchases: [PurchaseDraft], sales: [SaleDraft]) {
            var large = SaleDraft.Line(productID: shop.latte.id, quantity: qty(2))
            large.options = [shop.large]
            let purchases = [
                PurchaseDraft(effectiveAt: at(20251201), lines: [
                    .init(productID: shop.beans.id, quantity: qty(2), unitCost: eur("20.00")),
                    .init(productID: shop.milk.id, quantity: qty(20), unitCost: eur("1.00")),
                    .init(productID: shop.mug.id, quantity: qty(5), unitCost: eur("3.00")),
                ]),
                PurchaseDraft(effectiveAt: at(20251215), lines: [
                    .init(productID: shop.mug.id, quantity: qty(5), unitCost: eur("4.00")),
                    .init(product: .new(ProductDetails(name: "Teapot", salePrice: eur("25.00"))), quantity: qty(3), unitCost: eur("11.00")),
                    .init(productID: shop.milk.id, quantity: qty(10), unitCost: eur("1.30")),
                ]),
            ]
            let sales = [
                SaleDraft(effectiveAt: at(20251220), lines: [.init(productID: shop.mug.id, quantity: qty(3)), large]),
                SaleDraft(effectiveAt: at(20251231), lines: [.init(productID: shop.latte.id, quantity: qty(4)), .init(productID: shop.milk.id, quantity: qty(1))]),
                SaleDraft(effectiveAt: at(20260102), lines: [.init(productID: shop.mug.id, quantity: qty(2), unitPrice: eur("8.00")), large]),
                SaleDraft(effectiveAt: at(20260115), lines: [.init(productID: shop.mug.id, quantity: qty(1))]),
            ]
            return (purchases, sales)
        }

        /// What a shop's books hold, compared between the two ways of booking.
        struct Books: Equatable {
            var movements: [[String]]
            var stock: [String]
            var top: [String]
            var daily: [String]
        }

        /// Ranges of whole months (2025; December 2025 and January 2026), which the top list reads from the monthly summary.
        static let wholeMonths = [(20250101, 20260101), (20251201, 20260201)].map { from, to in
            (at(from).adding(seconds: -12 * 3600), at(to).adding(milliseconds: -12 * 3_600_000 - 1))
        }

        func books(_ store: any TestableRepository) async throws -> Books {
            var movements: [[String]] = []
            var stock: [String] = []
            for product in try await store.products(ProductQuery(limit: 100)).products {
                movements.append(try await store.movements(productID: product.id).map {
                    "\($0.kind) \($0.position.effectiveAt) \($0.quantity) \($0.revenue) \($0.valueChange) \($0.balance.quantity) \($0.balance.value)"
                })
                stock.append("\(product.name) \(product.stock.quantity.thousandths) \(product.stock.value.minorUnits)")
            }
            var top: [String] = []
            for (from, to) in Self.wholeMonths {
                for metric in [TopProductMetric.quantity, .revenue] {
                    top += try await store.topProducts(from: from, to: to, by: metric, limit: 10).map { "\($0.productID) \($0.quantity) \($0.revenue)" }
                }
            }
            let daily = try await store.daily(from: 20251201, to: 20260131).map { "\($0.day) \($0.revenue) \($0.costOfGoodsSold) \($0.salesCount)" }
            return Books(movements: movements, stock: stock, top: top, daily: daily)
        }

        @Test(arguments: Backend.ported)
        func aBatchBooksWhatTheSameDocumentsBookOneByOne(backend: Backend) async throws {
            let batched = try await self.shop(backend)
            let single = try await self.shop(backend)
            let (purchases, sales) = self.documents(batched)
            try await batched.store.postPurchases(purchases)
            try await batched.store.postSales(sales)
            for purchase in purchases { _ = try await single.store.postPurchase(purchase) }
            for sale in sales { _ = try await single.store.postSale(sale) }
            let books = try await self.books(batched.store)
            #expect(books == (try await self.books(single.store)))
            // The books hold what was sent: 6 mugs of 10 sold (10 at 3.50 on average), 8 lattes of 0.018 kg beans and 0.2 l
            // milk each, and the teapot the second purchase created.
            #expect(books.stock == ["Beans 1856 3712", "Latte 0 0", "Milk 27400 3014", "Mug 4000 1400", "Teapot 3000 3300"], "\(books.stock)")
            #expect(books.movements.count == 5 && books.daily.contains { $0.hasPrefix("20260102") })
            // The monthly summary the batch wrote agrees with its sale lines: the same ranges a millisecond short of whole
            // months are read from the lines.
            for (from, to) in Self.wholeMonths {
                for metric in [TopProductMetric.quantity, .revenue] {
                    let summary = try await batched.store.topProducts(from: from, to: to, by: metric, limit: 10)
                    let lines = try await batched.store.topProducts(from: from.adding(seconds: 1), to: to, by: metric, limit: 10)
                    #expect(!summary.isEmpty && summary == lines, "\(metric) from \(from)")
                }
            }
        }

        @Test(arguments: Backend.ported)
        func aBatchRefusalNamesItsDocumentAndChangesNothing(backend: Backend) async throws {
            let shop = try await self.shop(backend)
            let (purchases, sales) = self.documents(shop)
            try await shop.store.postPurchases(purchases)
            try await expectRefusal(shop.store, .notFound, field: "sales[1].lines[1].productId") {
                try await shop.store.postSales([sales[0], SaleDraft(effectiveAt: at(20251222), lines: [
                    .init(productID: shop.mug.id, quantity: qty(1)), .init(productID: ProductID(999), quantity: qty(1)),
                ])])
            }
            var archived = shop.mug.details
            archived.isArchived = true
            _ = try await shop.store.updateProduct(shop.mug.id, archived)
            try await expectRefusal(shop.store, .conflict, field: "sales[1].lines[0].productId") {
                try await shop.store.postSales([sales[1], sales[2]])
            }
            try await expectRefusal(shop.store, .conflict, field: "purchases[0].lines[0].productId") {
                try await shop.store.postPurchases([PurchaseDraft(effectiveAt: at(20260103), lines: [.init(productID: shop.mug.id, quantity: qty(1), unitCost: eur("1.00"))])])
            }
            // A recipe's ingredient short of stock names the recipe line's quantity.
            try await expectRefusal(shop.store, .insufficientStock, field: "sales[1].lines[0].quantity") {
                try await shop.store.postSales([sales[1], SaleDraft(effectiveAt: at(20260103), lines: [.init(productID: shop.latte.id, quantity: qty(500))])])
            }
        }
    }
}
