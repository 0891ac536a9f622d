import Foundation
import GRDB
import InventoryDomain
@testable import InventoryStore
import Testing

extension SQLiteSpecificTests {
    /// `v10-sale-payments` gives every sale booked before it one completed payment of its total, by its method and with
    /// its cash tendered, and its customer returns' refunds: the same payments a sale booked today without a split has.
    @Suite struct PaymentMigration {
        @Test func earlierSalesGetOnePaymentOfTheirTotalAndTheirRefunds() async throws {
            let queue = try DatabaseQueue(configuration: InventorySQLiteRepository.configuration())
            let store = try InventorySQLiteRepository(queue)
            let tea = try await store.createProduct(ProductDetails(name: "Tea", salePrice: eur("2.50"), taxRate: Percent(hundredths: 700), tracksStock: false))
            let card = try await store.postSale(SaleDraft(effectiveAt: at(20260301), lines: [.init(productID: tea.id, quantity: qty(3))],
                                                          tip: eur("0.40"), paymentMethod: .card))
            let cash = try await store.postSale(SaleDraft(effectiveAt: at(20260301), lines: [.init(productID: tea.id, quantity: qty(1))],
                                                          paymentMethod: .cash, cashTendered: eur("5.00")))
            _ = try await store.postCustomerReturn(CustomerReturnDraft(effectiveAt: at(20260302), saleID: card.id,
                                                                       lines: [.init(saleLineID: card.lines[0].movementID, quantity: qty(1))]))
            let before = [try await store.sale(card.id), try await store.sale(cash.id)]
            #expect(before[0].payments.map(\.status) == [.partlyRefunded])
            #expect(before[0].payments[0].refunded == eur("2.68"))   // 2.50 + 0.175 → 0.18 tax
            // The same books as they were before v10: no payment tables, the migration not run.
            try await queue.write { db in
                try db.execute(sql: "DROP TABLE paymentRefund; DROP TABLE salePayment; DELETE FROM grdb_migrations WHERE identifier = 'v10-sale-payments'")
            }
            let migrated = try InventorySQLiteRepository(queue)
            let after = [try await migrated.sale(card.id), try await migrated.sale(cash.id)]
            #expect(after == before)
            #expect(after[1].payments == [PaymentRecord(id: after[1].payments[0].id, method: .cash, amount: eur("2.68"), tendered: eur("5.00"))])
            #expect(after[1].change == eur("2.32"))
        }
    }
}
