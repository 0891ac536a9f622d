import Foundation
import InventoryDomain
import Testing

extension ReportConformance {
    /// The store's low-stock queries (the products filter `?status=` and the low-stock report) answer exactly what the
    /// domain's rule, ``StockStatus/of(quantity:tracksStock:productThreshold:categoryThreshold:shopDefault:)``, says —
    /// for random shops, categories, thresholds (0, fractional, absent) and quantities (on, just below and just above
    /// the threshold, zero and negative).
    @Suite struct LowStockRule {
        static let runs = Int(ProcessInfo.processInfo.environment["LOW_STOCK_RUNS"] ?? "") ?? 40

        @Test(arguments: Backend.ported)
        func queriesAgreeWithTheDomainRule(backend: Backend) async throws {
            for seed in 0..<UInt64(backend == .sqliteMemory ? Self.runs : max(1, Self.runs / 10)) {
                try await self.run(seed: seed, backend: backend)
            }
        }

        func run(seed: UInt64, backend: Backend) async throws {
            var random = SeededRandom(seed: seed &+ 4_000)
            func threshold(_ nilChance: Int) -> Quantity? {
                let roll = Int.random(in: 0..<100, using: &random)
                if roll < nilChance { return nil }
                if roll < nilChance + 10 { return .zero }
                return Quantity(thousandths: Int64.random(in: 0...12, using: &random) * 1000 + (Bool.random(using: &random) ? 0 : Int64.random(in: 1...999, using: &random)))
            }
            let store = try await backend.make()
            let shopDefault = threshold(0) ?? .zero
            try await store.saveSettings(ShopSettings(lowStockDefault: shopDefault))
            var categoryThresholds: [CategoryID: Quantity?] = [:]
            for index in 0..<Int.random(in: 0...4, using: &random) {
                let category = try await store.createCategory(Category(id: CategoryID(0), name: "Category \(index)", lowStockThreshold: threshold(40)))
                categoryThresholds[category.id] = category.lowStockThreshold
            }
            let categoryIDs = Array(categoryThresholds.keys)
            for index in 0..<Int.random(in: 5...30, using: &random) {
                let categoryID = Bool.random(using: &random) ? categoryIDs.randomElement(using: &random) : nil
                let own = threshold(50)
                let tracks = Int.random(in: 0..<10, using: &random) > 0
                let negative = tracks && Int.random(in: 0..<4, using: &random) == 0
                let product = try await store.createProduct(ProductDetails(
                    name: "Product \(index)", categoryID: categoryID, salePrice: eur("2.00"), lowStockThreshold: own, tracksStock: tracks,
                    allowsNegativeStock: negative))
                let effective = own ?? categoryID.flatMap { categoryThresholds[$0] ?? nil } ?? shopDefault
                let quantity: Int64 = switch Int.random(in: 0..<7, using: &random) {
                case 0: 0
                case 1: effective.thousandths
                case 2: effective.thousandths - 1
                case 3: effective.thousandths + 1
                case 4: negative ? -Int64.random(in: 1...5_000, using: &random) : 1
                default: Int64.random(in: 1...20_000, using: &random)
                }
                if quantity != 0 && (quantity > 0 || negative) {
                    _ = try await store.postAdjustment(AdjustmentDraft(
                        effectiveAt: at(20260105), productID: product.id, quantityChange: Quantity(thousandths: quantity), reason: .count,
                        unitCost: quantity > 0 ? eur("1.00") : nil))
                }
                if Int.random(in: 0..<6, using: &random) == 0 {
                    var details = product.details
                    details.isArchived = true
                    _ = try await store.updateProduct(product.id, details)
                }
            }

            // The domain's answer for every product, from the thresholds as generated (not as the store reports them).
            let all = try await store.products(ProductQuery(includeArchived: true, limit: 1000)).products
            let expected = Dictionary(uniqueKeysWithValues: all.map { product in
                (product.id, StockStatus.of(
                    quantity: product.stock.quantity, tracksStock: product.details.tracksStock, productThreshold: product.details.lowStockThreshold,
                    categoryThreshold: product.details.categoryID.flatMap { categoryThresholds[$0] ?? nil }, shopDefault: shopDefault))
            })
            let thresholds = try await store.stockThresholds()
            for product in all {
                #expect(thresholds.status(of: product) == expected[product.id], "seed \(seed): \(product.name)")
            }
            for status in StockStatus.allCases {
                for includeArchived in [false, true] {
                    let found = try await store.products(ProductQuery(status: status, includeArchived: includeArchived, limit: 1000))
                    let want = Set(all.filter { expected[$0.id] == status && (includeArchived || !$0.details.isArchived) }.map(\.id))
                    #expect(Set(found.products.map(\.id)) == want, "seed \(seed): ?status=\(status.rawValue) archived=\(includeArchived)")
                    #expect(found.total == want.count, "seed \(seed)")
                }
            }
            let report = try await store.lowStock()
            let want = Set(all.filter { !$0.details.isArchived && expected[$0.id]?.needsRestocking == true }.map(\.id))
            #expect(Set(report.map(\.productID)) == want, "seed \(seed): low-stock report")
            for item in report {
                let product = try #require(all.first { $0.id == item.productID })
                #expect(item.status == expected[item.productID], "seed \(seed): \(item.name)")
                #expect(item.threshold == thresholds.threshold(for: product.details), "seed \(seed): \(item.name)")
                #expect(item.quantity == product.stock.quantity)
            }
        }
    }
}
