import Foundation
import InventoryDomain
import Testing

extension ReportConformance {
    /// What a reorder starts from: the products' supplier fields as stored, the units sold inside the window net of
    /// returns, the effective thresholds, the suppliers' lead times; and what deleting a supplier does to its products.
    @Suite struct Reorder {
        @Test(arguments: Backend.ported)
        func factsByHand(backend: Backend) async throws {
            let store = try await backend.make()
            try await store.saveSettings(ShopSettings(lowStockDefault: Quantity(2)))
            let dairy = try await store.createSupplier(Contact(id: SupplierID(0), name: "Dairy", leadTimeDays: 3))
            let category = try await store.createCategory(Category(id: CategoryID(0), name: "Chilled", lowStockThreshold: Quantity(4)))
            let milk = try await store.createProduct(ProductDetails(
                name: "Milk", categoryID: category.id, salePrice: eur("1.50"), preferredSupplierID: dairy.id, supplierCode: " M-1 ",
                packSize: Quantity(6)))
            #expect(milk.details.preferredSupplierID == dairy.id && milk.details.supplierCode == "M-1" && milk.details.packSize == Quantity(6))
            let loose = try await store.createProduct(ProductDetails(name: "Loose tea", salePrice: eur("3.00")))
            #expect(loose.details.packSize == Quantity(1) && loose.details.preferredSupplierID == nil)
            _ = try await store.createProduct(ProductDetails(name: "Service", salePrice: eur("5.00"), tracksStock: false))
            let old = try await store.createProduct(ProductDetails(name: "Old", salePrice: eur("1.00"), isArchived: true))

            _ = try await store.postPurchase(PurchaseDraft(effectiveAt: at(20260101), supplierID: dairy.id, lines: [
                .init(productID: milk.id, quantity: qty(20), unitCost: eur("0.80")),
                .init(productID: loose.id, quantity: qty(5), unitCost: eur("1.00")),
            ]))
            // Before the window: 5; inside: 3, of which 1 comes back; after: 4.
            _ = try await store.postSale(SaleDraft(effectiveAt: at(20260110), lines: [.init(productID: milk.id, quantity: qty(5), unitPrice: eur("1.50"))]))
            let inside = try await store.postSale(SaleDraft(effectiveAt: at(20260120), lines: [
                .init(productID: milk.id, quantity: qty(3), unitPrice: eur("1.50")),
            ]))
            _ = try await store.postCustomerReturn(CustomerReturnDraft(effectiveAt: at(20260121), saleID: inside.id, lines: [
                .init(saleLineID: inside.lines[0].movementID, quantity: qty(1)),
            ]))
            _ = try await store.postSale(SaleDraft(effectiveAt: at(20260201), lines: [.init(productID: milk.id, quantity: qty(4), unitPrice: eur("1.50"))]))

            let utc = try await store.settings().calendar
            let facts = try await store.reorderFacts(soldWithin: utc.startOfDay(20260115)...utc.endOfDay(20260131))
            #expect(facts.suppliers == [ReorderSupplier(id: dairy.id, name: "Dairy", leadTimeDays: 3)])
            #expect(facts.candidates.map(\.name) == ["Milk", "Loose tea"])
            let milkFacts = try #require(facts.candidates.first)
            #expect(milkFacts.sold == qty(2))
            #expect(milkFacts.stock == qty(9))
            #expect(milkFacts.threshold == qty(4))
            #expect(milkFacts.supplierID == dairy.id && milkFacts.supplierCode == "M-1" && milkFacts.packSize == qty(6))
            #expect(milkFacts.averageCost.rounded == eur("0.80"))
            #expect(facts.candidates.last?.sold == .zero && facts.candidates.last?.threshold == qty(2))
            #expect(!facts.candidates.contains { $0.productID == old.id })

            // Deleting a supplier leaves its products without one (and their history intact).
            let gone = try await store.createSupplier(Contact(id: SupplierID(0), name: "Gone"))
            var details = loose.details
            details.preferredSupplierID = gone.id
            #expect(try await store.updateProduct(loose.id, details).details.preferredSupplierID == gone.id)
            try await store.deleteSupplier(gone.id)
            #expect(try await store.product(loose.id).details.preferredSupplierID == nil)
        }

        @Test(arguments: Backend.ported)
        func leadTimesAndRefusals(backend: Backend) async throws {
            let store = try await backend.make()
            var supplier = try await store.createSupplier(Contact(id: SupplierID(0), name: "Bakery", leadTimeDays: 2))
            supplier.leadTimeDays = 5
            _ = try await store.updateSupplier(supplier)
            #expect(try await store.suppliers(search: nil).map(\.leadTimeDays) == [5])
            let customer = try await store.createCustomer(Contact(id: CustomerID(0), name: "Ann", leadTimeDays: 9))
            #expect(try await store.customers(search: nil).first { $0.id == customer.id }?.leadTimeDays == 0)

            try await expectRefusal(store, .notFound, field: "preferredSupplierId") {
                _ = try await store.createProduct(ProductDetails(name: "Bread", preferredSupplierID: SupplierID(999)))
            }
            try await expectRefusal(store, .invalidValue, field: "packSize") {
                _ = try await store.createProduct(ProductDetails(name: "Bread", packSize: .zero))
            }
            try await expectRefusal(store, .invalidValue, field: "leadTimeDays") {
                supplier.leadTimeDays = 366
                _ = try await store.updateSupplier(supplier)
            }
            let bread = try await store.createProduct(ProductDetails(name: "Bread", preferredSupplierID: supplier.id))
            var patch = ProductPatch()
            patch.packSize = Quantity(10)
            patch.supplierCode = .some("B-7")
            let patched = try await store.updateProduct(bread.id, applying: patch)
            #expect(patched.details.packSize == Quantity(10) && patched.details.supplierCode == "B-7" && patched.details.preferredSupplierID == supplier.id)
            patch = ProductPatch()
            patch.preferredSupplierID = .some(nil)
            #expect(try await store.updateProduct(bread.id, applying: patch).details.preferredSupplierID == nil)
        }
    }
}
