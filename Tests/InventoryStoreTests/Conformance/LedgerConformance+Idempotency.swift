import Foundation
import InventoryDomain
import Testing

extension LedgerConformance {
    /// A document POST retried with the same idempotency key books once: the retry answers the document booked the first
    /// time; the same key with another request is refused; a refused booking keeps no key.
    @Suite struct Idempotency {
        static func key(_ key: String, user: Int64 = 1, fingerprint: String = "f1") throws -> IdempotencyKey {
            try IdempotencyKey(userID: UserID(user), key: key, fingerprint: fingerprint)
        }

        @Test(arguments: Backend.ported)
        func aRetriedSaleIsBookedOnce(backend: Backend) async throws {
            let store = try await backend.make()
            let beans = try await store.createProduct(ProductDetails(name: "Beans", salePrice: eur("4.00")))
            _ = try await store.postPurchase(PurchaseDraft(effectiveAt: at(20260101), lines: [.init(productID: beans.id, quantity: qty(10), unitCost: eur("2.00"))]))
            let sale = SaleDraft(effectiveAt: at(20260102), lines: [.init(productID: beans.id, quantity: qty(3), unitPrice: eur("4.00"))])
            let first = try await store.postSale(sale, idempotency: try Self.key("till-1-0001"))
            #expect(!first.replayed)
            let again = try await store.postSale(sale, idempotency: try Self.key("till-1-0001"))
            #expect(again.replayed)
            #expect(again.record.id == first.record.id)
            #expect(try await store.sales(limit: 10, offset: 0).count == 1)
            #expect(try await store.product(beans.id).stock.quantity == qty(7))

            // The same key from another user is that user's own key; a new key books a new sale.
            let other = try await store.postSale(sale, idempotency: try Self.key("till-1-0001", user: 2))
            #expect(!other.replayed && other.record.id != first.record.id)
            let next = try await store.postSale(sale, idempotency: try Self.key("till-1-0002"))
            #expect(!next.replayed)
            #expect(try await store.product(beans.id).stock.quantity == qty(1))

            // The same key with another request is refused, and nothing changes.
            try await expectRefusal(store, .conflict, field: "Idempotency-Key") {
                _ = try await store.postSale(sale, idempotency: try Self.key("till-1-0001", fingerprint: "other body"))
            }
            try await expectRefusal(store, .conflict, field: "Idempotency-Key") {
                _ = try await store.postPurchase(PurchaseDraft(effectiveAt: at(20260103), lines: [.init(productID: beans.id, quantity: qty(1), unitCost: eur("2.00"))]),
                                                 idempotency: try Self.key("till-1-0001"))
            }

            // A sale deleted since is not booked again by its old key: the client is told to use a new one.
            try await store.deleteSale(next.record.id)
            try await expectRefusal(store, .conflict, field: "Idempotency-Key") { _ = try await store.postSale(sale, idempotency: try Self.key("till-1-0002")) }
        }

        @Test(arguments: Backend.ported)
        func aRefusedBookingKeepsNoKeySoTheRetryCanSucceed(backend: Backend) async throws {
            let store = try await backend.make()
            let milk = try await store.createProduct(ProductDetails(name: "Milk", salePrice: eur("1.20")))
            let sale = SaleDraft(effectiveAt: at(20260105), lines: [.init(productID: milk.id, quantity: qty(2), unitPrice: eur("1.20"))])
            try await expectRefusal(store, .insufficientStock) { _ = try await store.postSale(sale, idempotency: try Self.key("k")) }
            _ = try await store.postPurchase(PurchaseDraft(effectiveAt: at(20260101), lines: [.init(productID: milk.id, quantity: qty(5), unitCost: eur("0.50"))]))
            let booked = try await store.postSale(sale, idempotency: try Self.key("k"))
            #expect(!booked.replayed)
            #expect(try await store.product(milk.id).stock.quantity == qty(3))
        }

        @Test(arguments: Backend.ported)
        func everyDocumentKindReplays(backend: Backend) async throws {
            let store = try await backend.make()
            let tea = try await store.createProduct(ProductDetails(name: "Tea", salePrice: eur("3.00")))
            let purchase = PurchaseDraft(effectiveAt: at(20260101), lines: [.init(productID: tea.id, quantity: qty(10), unitCost: eur("1.00"))])
            let p1 = try await store.postPurchase(purchase, idempotency: try Self.key("p"))
            let p2 = try await store.postPurchase(purchase, idempotency: try Self.key("p"))
            #expect(p2.replayed && p2.record.id == p1.record.id)
            let sale = try await store.postSale(SaleDraft(effectiveAt: at(20260102), lines: [.init(productID: tea.id, quantity: qty(4), unitPrice: eur("3.00"))]))
            let adjustment = AdjustmentDraft(effectiveAt: at(20260103), productID: tea.id, quantityChange: qty(-1), reason: .damage)
            let a1 = try await store.postAdjustment(adjustment, idempotency: try Self.key("a"))
            #expect(try await store.postAdjustment(adjustment, idempotency: try Self.key("a")).record == a1.record)
            let back = CustomerReturnDraft(effectiveAt: at(20260104), saleID: sale.id, lines: [.init(saleLineID: sale.lines[0].movementID, quantity: qty(1))])
            let c1 = try await store.postCustomerReturn(back, idempotency: try Self.key("c"))
            #expect(try await store.postCustomerReturn(back, idempotency: try Self.key("c")).record == c1.record)
            let out = SupplierReturnDraft(effectiveAt: at(20260105), lines: [.init(productID: tea.id, quantity: qty(2))])
            let s1 = try await store.postSupplierReturn(out, idempotency: try Self.key("s"))
            #expect(try await store.postSupplierReturn(out, idempotency: try Self.key("s")).record == s1.record)
            // 10 bought, 4 sold, 1 damaged, 1 back from the customer, 2 back to the supplier: each booked once.
            #expect(try await store.product(tea.id).stock.quantity == qty(4))
        }

        @Test func keysMustBeVisibleASCII() {
            for bad in ["", " ", "tab\there", "é", String(repeating: "k", count: 256)] {
                #expect(throws: InventoryError.self) { _ = try IdempotencyKey(userID: UserID(1), key: bad, fingerprint: "f") }
            }
            #expect(throws: Never.self) { _ = try IdempotencyKey(userID: UserID(1), key: "3F2504E0-4F89-11D3-9A0C-0305E82C3301", fingerprint: "f") }
            #expect(IdempotencyKey.mismatch("sale").field == "Idempotency-Key")
        }
    }
}
