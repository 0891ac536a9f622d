import Foundation
import InventoryDomain
import Testing

extension LedgerConformance {
    /// Selling beyond the stock on record with a manager's approval (issue 12, point 5): booked with the negative-stock
    /// costing, only on the approved lines that need it, honoured whenever the ledger re-costs, and listed for review.
    @Suite struct BeyondStock {
        struct Shop {
            let store: any TestableRepository
            let beans: Product
            let milk: Product
        }

        /// 2 beans at 4.00 on 1 January, 10 milk at 0.80.
        func shop(_ backend: Backend) async throws -> Shop {
            let store = try await backend.make()
            let beans = try await store.createProduct(ProductDetails(name: "Espresso beans", salePrice: eur("9.00")))
            let milk = try await store.createProduct(ProductDetails(name: "Milk", salePrice: eur("1.50")))
            _ = try await store.postPurchase(PurchaseDraft(effectiveAt: at(20260101), lines: [
                .init(productID: beans.id, quantity: qty(2), unitCost: eur("4.00")),
                .init(productID: milk.id, quantity: qty(10), unitCost: eur("0.80")),
            ]))
            return Shop(store: store, beans: beans, milk: milk)
        }

        func sale(_ shop: Shop, beans: Int64, milk: Int64 = 1, on day: Int = 20260110, approvedBy: String = "") -> SaleDraft {
            var draft = SaleDraft(effectiveAt: at(day), lines: [
                .init(productID: shop.milk.id, quantity: qty(milk), unitPrice: eur("1.50")),
                .init(productID: shop.beans.id, quantity: qty(beans), unitPrice: eur("9.00")),
            ])
            draft.soldBy = "sam"
            draft.stockApprovedBy = approvedBy
            return draft
        }

        @Test(arguments: Backend.ported)
        func withoutApprovalTheSaleIsRefusedNamingTheLineAndOfferingApproval(backend: Backend) async throws {
            let shop = try await self.shop(backend)
            var caught: InventoryError?
            try await expectRefusal(shop.store, .insufficientStock, field: "lines[1].quantity") {
                do { _ = try await shop.store.postSale(self.sale(shop, beans: 5)) } catch let error as InventoryError {
                    caught = error
                    throw error
                }
            }
            #expect(caught?.managerMayApprove == true)
            #expect(caught?.userMessage.contains("a manager may approve selling beyond the stock on record") == true, "\(String(describing: caught))")
        }

        @Test(arguments: Backend.ported)
        func anApprovedSaleIsBookedAsNegativeStockAndListedForReview(backend: Backend) async throws {
            let shop = try await self.shop(backend)
            let sale = try await shop.store.postSale(self.sale(shop, beans: 5, approvedBy: "maria"))
            // 2 on hand at 4.00 take their 8.00; the 3 beyond are costed at the last average, as for negative stock.
            #expect(sale.lines[1].costOfGoodsSold == eur("20.00"))
            #expect(sale.stockApprovedBy == "maria")
            #expect(sale.lines.map(\.soldBeyondStock) == [.zero, qty(3)])
            let beans = try await shop.store.product(shop.beans.id)
            #expect(beans.stock.quantity == qty(-3))
            let movements = try await shop.store.movements(productID: shop.milk.id)
            #expect(movements.allSatisfy { !$0.beyondStock }, "the milk line did not need the approval")

            let listed = try await shop.store.soldBeyondStock(includeReviewed: false)
            #expect(listed.count == 1)
            let line = try #require(listed.first)
            #expect(line.saleID == sale.id && line.receiptNumber == sale.receiptNumber && line.productName == "Espresso beans")
            #expect(line.quantity == qty(5) && line.shortBy == qty(3) && line.stockNow == qty(-3))
            #expect(line.soldBy == "sam" && line.approvedBy == "maria" && line.reviewedBy.isEmpty && line.reviewedAt == nil)

            // A later sale without an approval may not take it further below zero.
            try await expectRefusal(shop.store, .insufficientStock, field: "lines[1].quantity") {
                _ = try await shop.store.postSale(self.sale(shop, beans: 1, on: 20260111))
            }

            // Reviewed: off the waiting list, still on the full one.
            let reviewed = try await shop.store.markBeyondStockReviewed(sale.id, by: "maria")
            #expect(reviewed.first?.reviewedBy == "maria" && reviewed.first?.reviewedAt != nil)
            #expect(try await shop.store.soldBeyondStock(includeReviewed: false).isEmpty)
            #expect(try await shop.store.soldBeyondStock(includeReviewed: true).map(\.saleID) == [sale.id])
        }

        @Test(arguments: Backend.ported)
        func anApprovalNobodyNeededIsNotKept(backend: Backend) async throws {
            let shop = try await self.shop(backend)
            let sale = try await shop.store.postSale(self.sale(shop, beans: 2, approvedBy: "maria"))
            #expect(sale.stockApprovedBy.isEmpty)
            #expect(sale.lines.allSatisfy { $0.soldBeyondStock == .zero })
            #expect(try await shop.store.soldBeyondStock(includeReviewed: true).isEmpty)
            try await expectRefusal(shop.store, .invalidValue, field: "id") {
                _ = try await shop.store.markBeyondStockReviewed(sale.id, by: "maria")
            }
            try await expectRefusal(shop.store, .notFound, field: "id") {
                _ = try await shop.store.markBeyondStockReviewed(SaleID(9_999), by: "maria")
            }
        }

        @Test(arguments: Backend.ported)
        func theApprovalHoldsWhenTheLedgerIsReCostedAndABackDatedDeliveryTakesTheLineOffTheList(backend: Backend) async throws {
            let shop = try await self.shop(backend)
            let sale = try await shop.store.postSale(self.sale(shop, beans: 5, on: 20260110, approvedBy: "maria"))
            // A back-dated write-off before the sale re-costs the beans ledger: the approved line stays allowed, now 4 short.
            _ = try await shop.store.postAdjustment(AdjustmentDraft(effectiveAt: at(20260105), productID: shop.beans.id,
                                                                    quantityChange: qty(-1), reason: .damage))
            var listed = try await shop.store.soldBeyondStock(includeReviewed: false)
            #expect(listed.map(\.shortBy) == [qty(4)])
            // The delivery that was not booked yet arrives, back-dated before the sale: nothing was sold beyond stock.
            _ = try await shop.store.postPurchase(PurchaseDraft(effectiveAt: at(20260108), lines: [
                .init(productID: shop.beans.id, quantity: qty(6), unitCost: eur("5.00")),
            ]))
            listed = try await shop.store.soldBeyondStock(includeReviewed: false)
            #expect(listed.isEmpty)
            let booked = try await shop.store.sale(sale.id)
            #expect(booked.lines[1].soldBeyondStock == .zero)
            // 1 bean at 4.00 + 6 at 5.00 = 34.00 over 7; 5 sold cost 24.29 (5 × 34.00 / 7 rounded).
            #expect(booked.lines[1].costOfGoodsSold == eur("24.29"))
            #expect(try await shop.store.product(shop.beans.id).stock.quantity == qty(2))
        }

        @Test(arguments: Backend.ported)
        func anEditWithoutTheApprovalIsRefusedAndChangesNothing(backend: Backend) async throws {
            let shop = try await self.shop(backend)
            let sale = try await shop.store.postSale(self.sale(shop, beans: 5, approvedBy: "maria"))
            try await expectRefusal(shop.store, .insufficientStock, field: "lines[1].quantity") {
                _ = try await shop.store.updateSale(sale.id, self.sale(shop, beans: 4))
            }
            let edited = try await shop.store.updateSale(sale.id, self.sale(shop, beans: 4, approvedBy: "lee"))
            #expect(edited.stockApprovedBy == "lee" && edited.lines[1].soldBeyondStock == qty(2))
        }
    }
}
