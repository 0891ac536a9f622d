import Foundation
import InventoryDomain
import Testing

extension LedgerConformance {
    /// A product created with its opening stock (issue 14, point 5): both in one transaction, the stock booked as an
    /// opening adjustment at its unit cost; a refusal of either leaves neither.
    @Suite struct OpeningBalance {
        @Test(arguments: Backend.ported)
        func theOpeningStockIsAnInitialAdjustmentAtItsUnitCost(backend: Backend) async throws {
            let store = try await backend.make()
            let mug = try await store.createProduct(ProductDetails(name: "Mug", salePrice: eur("9.00")),
                                                    openingStock: OpeningStock(quantity: qty(12), unitCost: eur("3.50")))
            #expect(mug.stock.quantity == qty(12))
            #expect(mug.stock.value == eur("42.00"))
            #expect(mug.costPrice == eur("3.50"))
            let movements = try await store.movements(productID: mug.id)
            #expect(movements.map(\.kind) == [.adjustment])
            #expect(movements.first?.reason == .initial)
            #expect(movements.first?.unitAmount == eur("3.50"))
            // Later receipts average with it as with any other stock.
            _ = try await store.postPurchase(PurchaseDraft(effectiveAt: .now, lines: [.init(productID: mug.id, quantity: qty(4), unitCost: eur("5.50"))]))
            #expect(try await store.product(mug.id).costPrice == eur("4.00"))
        }

        @Test(arguments: Backend.ported)
        func aRefusalCreatesNeitherTheProductNorItsStock(backend: Backend) async throws {
            let store = try await backend.make()
            let taken = try await store.createProduct(ProductDetails(name: "Cup", barcode: "4006381333931"))
            try await expectRefusal(store, .invalidValue, field: "openingStock.quantity") {
                _ = try await store.createProduct(ProductDetails(name: "Mug"), openingStock: .init(quantity: qty(-1), unitCost: eur("1.00")))
            }
            try await expectRefusal(store, .missingValue, field: "openingStock.unitCost") {
                _ = try await store.createProduct(ProductDetails(name: "Mug"), openingStock: .init(quantity: qty(1), unitCost: nil))
            }
            try await expectRefusal(store, .invalidValue, field: "openingStock") {
                _ = try await store.createProduct(ProductDetails(name: "Mug", tracksStock: false), openingStock: .init(quantity: qty(1), unitCost: eur("1.00")))
            }
            // The product itself refused inside the write (a barcode another product has): no stock booked either.
            try await expectRefusal(store, .duplicate, field: "barcode") {
                _ = try await store.createProduct(ProductDetails(name: "Mug", barcode: taken.details.barcode),
                                                  openingStock: .init(quantity: qty(1), unitCost: eur("1.00")))
            }
        }
    }
}
