import Foundation
import InventoryDomain
import Testing

extension LedgerConformance {
    /// Previews (`previewPurchase`, `previewSale`): the real posting code run in a transaction that is rolled back. The
    /// preview is exactly what posting then books, and the database is unchanged. (Issue 10, defect 5: the purchase form
    /// previewed 0.12 where the books said 0.13.)
    @Suite struct Previews {
        /// A record as previewed, with what a preview cannot know taken from `other` (as posted): the moment it was
        /// written (a few ms later) and, on PostgreSQL, its ids (drawn from sequences that a rolled-back preview does not
        /// give back; on SQLite they must agree already).
        static func aligned(_ record: PurchaseRecord, to other: PurchaseRecord, _ backend: Backend) -> PurchaseRecord {
            var copy = record
            copy.recordedAt = other.recordedAt
            guard backend == .postgres, copy.lines.count == other.lines.count else { return copy }
            (copy.id, copy.sequence) = (other.id, other.sequence)
            for index in copy.lines.indices {
                copy.lines[index].movementID = other.lines[index].movementID
                copy.lines[index].productID = other.lines[index].productID
            }
            return copy
        }

        static func aligned(_ record: SaleRecord, to other: SaleRecord, _ backend: Backend) -> SaleRecord {
            var copy = record
            copy.recordedAt = other.recordedAt
            guard backend == .postgres, copy.lines.count == other.lines.count, copy.payments.count == other.payments.count else { return copy }
            (copy.id, copy.sequence) = (other.id, other.sequence)
            for index in copy.lines.indices { copy.lines[index].movementID = other.lines[index].movementID }
            for index in copy.payments.indices { copy.payments[index].id = other.payments[index].id }
            return copy
        }

        /// 7 units worth 1.00 in all (1 @ 1.00, then 6 @ 0.00).
        static func sevenUnitsWorthOneEuro(_ store: any TestableRepository) async throws -> Product {
            let product = try await store.createProduct(ProductDetails(name: "Sticker", salePrice: eur("0.50"), taxRate: Percent(hundredths: 1900)))
            _ = try await store.postPurchase(PurchaseDraft(effectiveAt: at(20260301), lines: [.init(productID: product.id, quantity: qty(1), unitCost: eur("1.00"))]))
            _ = try await store.postPurchase(PurchaseDraft(effectiveAt: at(20260301, minutes: 1), lines: [.init(productID: product.id, quantity: qty(6), unitCost: eur("0.00"))]))
            return product
        }

        @Test(arguments: Backend.ported)
        func aPurchasePreviewIsWhatPostingBooksAndStoresNothing(backend: Backend) async throws {
            let store = try await backend.make()
            let product = try await Self.sevenUnitsWorthOneEuro(store)
            // The example: receive 1 at 0.00 → 1.00 / 8 = 0.125, which the books round to 0.13.
            let draft = PurchaseDraft(effectiveAt: at(20260302), note: "preview", lines: [
                .init(productID: product.id, quantity: qty(1), unitCost: eur("0.00")),
                .init(product: .new(ProductDetails(name: "Badge", barcode: "4006381333931", salePrice: eur("1.00"))), quantity: qty(3), unitCost: eur("0.40")),
            ])
            let before = try await store.testOnly_dump()
            let preview = try await store.previewPurchase(draft, replacing: nil)
            #expect(try await store.testOnly_dump() == before, "a preview stored something")
            #expect(preview.lines[0].averageCostAfter.rounded == eur("0.13"))
            #expect(preview.lines[1].averageCostAfter.rounded == eur("0.40"))
            #expect(preview.total == eur("1.20"))
            let posted = try await store.postPurchase(draft)
            #expect(Self.aligned(preview, to: posted, backend) == posted)
        }

        @Test(arguments: Backend.ported)
        func aSalePreviewIsWhatPostingBooksAndStoresNothing(backend: Backend) async throws {
            let store = try await backend.make()
            let product = try await Self.sevenUnitsWorthOneEuro(store)
            let other = try await store.createProduct(ProductDetails(name: "Pen", salePrice: eur("1.99"), taxRate: Percent(hundredths: 700)))
            _ = try await store.postPurchase(PurchaseDraft(effectiveAt: at(20260301), lines: [.init(productID: other.id, quantity: qty(3), unitCost: eur("0.33"))]))
            let draft = SaleDraft(effectiveAt: at(20260303), note: "till 1", lines: [
                .init(productID: product.id, quantity: qty(3), unitPrice: eur("0.50"), discount: eur("0.01")),
                .init(productID: other.id, quantity: Quantity(thousandths: 1500), unitPrice: eur("1.99")),
            ], tip: eur("0.25"), paymentMethod: .card)
            let before = try await store.testOnly_dump()
            let preview = try await store.previewSale(draft, replacing: nil)
            #expect(try await store.testOnly_dump() == before, "a preview stored something")
            let posted = try await store.postSale(draft)
            #expect(Self.aligned(preview, to: posted, backend) == posted)
            #expect(preview.total == posted.total && preview.tax == posted.tax && preview.revenue == posted.revenue)
        }

        @Test(arguments: Backend.ported)
        func previewsOfEditsAreWhatTheEditBooks(backend: Backend) async throws {
            let store = try await backend.make()
            let product = try await Self.sevenUnitsWorthOneEuro(store)
            let purchase = try await store.postPurchase(PurchaseDraft(effectiveAt: at(20260302), lines: [.init(productID: product.id, quantity: qty(1), unitCost: eur("0.00"))]))
            let sale = try await store.postSale(SaleDraft(effectiveAt: at(20260303), lines: [.init(productID: product.id, quantity: qty(2), unitPrice: eur("0.50"))]))
            // Back-dated edits re-cost what follows: the preview sees the same replay.
            let purchaseEdit = PurchaseDraft(effectiveAt: at(20260301, minutes: 5), lines: [.init(productID: product.id, quantity: qty(5), unitCost: eur("0.10"))])
            let saleEdit = SaleDraft(effectiveAt: at(20260303), lines: [.init(productID: product.id, quantity: qty(4), unitPrice: eur("0.45"))])
            var before = try await store.testOnly_dump()
            let purchasePreview = try await store.previewPurchase(purchaseEdit, replacing: purchase.id)
            #expect(try await store.testOnly_dump() == before)
            let edited = try await store.updatePurchase(purchase.id, purchaseEdit)
            #expect(Self.aligned(purchasePreview, to: edited, backend) == edited)
            before = try await store.testOnly_dump()
            let salePreview = try await store.previewSale(saleEdit, replacing: sale.id)
            #expect(try await store.testOnly_dump() == before)
            let editedSale = try await store.updateSale(sale.id, saleEdit)
            #expect(Self.aligned(salePreview, to: editedSale, backend) == editedSale)
        }

        @Test(arguments: Backend.ported)
        func aPreviewIsRefusedAsPostingWouldBeAndStoresNothing(backend: Backend) async throws {
            let store = try await backend.make()
            let product = try await Self.sevenUnitsWorthOneEuro(store)
            let oversell = SaleDraft(effectiveAt: at(20260303), lines: [.init(productID: product.id, quantity: qty(8), unitPrice: eur("0.50"))])
            try await expectRefusal(store, .insufficientStock) { _ = try await store.previewSale(oversell, replacing: nil) }
            try await expectRefusal(store, .insufficientStock) { _ = try await store.postSale(oversell) }
            let unknown = PurchaseDraft(effectiveAt: at(20260303), lines: [.init(productID: ProductID(999), quantity: qty(1), unitCost: eur("1.00"))])
            try await expectRefusal(store, .notFound, field: "lines[0].productId") { _ = try await store.previewPurchase(unknown, replacing: nil) }
            try await expectRefusal(store, .notFound) { _ = try await store.previewSale(oversell, replacing: SaleID(999)) }
        }

        /// Dry runs among concurrent sales (which share group-commit transactions) never undo or disturb a real write.
        @Test(arguments: Backend.ported)
        func previewsAmongConcurrentWritesLeaveEveryWriteAlone(backend: Backend) async throws {
            let store = try await backend.make()
            let product = try await store.createProduct(ProductDetails(name: "Croissant", salePrice: eur("2.40")))
            _ = try await store.postPurchase(PurchaseDraft(effectiveAt: at(20260301), lines: [.init(productID: product.id, quantity: qty(100), unitCost: eur("0.70"))]))
            let sold = try await withThrowingTaskGroup(of: Int.self) { group in
                for index in 0..<60 {
                    group.addTask {
                        let draft = SaleDraft(effectiveAt: at(20260302, minutes: index), lines: [.init(productID: product.id, quantity: qty(1), unitPrice: eur("2.40"))])
                        if index % 2 == 0 {
                            _ = try await store.postSale(draft)
                            return 1
                        }
                        let preview = try await store.previewSale(draft, replacing: nil)
                        #expect(preview.costOfGoodsSold == eur("0.70"))
                        return 0
                    }
                }
                return try await group.reduce(0, +)
            }
            #expect(sold == 30)
            #expect(try await store.sales(limit: 100, offset: 0).count == 30)
            #expect(try await store.product(product.id).stock.quantity == qty(70))
        }
    }
}
