import Foundation
import InventoryDomain
import InventoryStore
import Testing

extension CatalogueConformance {
    /// A product's description (issue 14, point 5): stored, replaced, patched, audited, exported and imported.
    @Suite struct Description {
        @Test(arguments: Backend.ported)
        func aDescriptionIsKeptTrimmedChangedAndCleared(backend: Backend) async throws {
            let store = try await backend.make()
            let mug = try await store.createProduct(ProductDetails(name: "Mug", description: "  Stoneware, 300 ml.\nDishwasher safe.  "))
            #expect(mug.details.description == "Stoneware, 300 ml.\nDishwasher safe.")
            #expect(try await store.product(mug.id).details.description == "Stoneware, 300 ml.\nDishwasher safe.")
            var details = mug.details
            details.description = "Porcelain"
            #expect(try await store.updateProduct(mug.id, details).details.description == "Porcelain")
            var patch = ProductPatch()
            patch.salePrice = eur("4.00")
            #expect(try await store.updateProduct(mug.id, applying: patch).details.description == "Porcelain")  // kept
            patch.description = ""
            #expect(try await store.updateProduct(mug.id, applying: patch).details.description == "")
            // Listed and found like any other field.
            let listed = try await store.products(ProductQuery()).products
            #expect(listed.map(\.details.description) == [""])
        }

        @Test(arguments: Backend.ported)
        func aTooLongDescriptionIsRefusedNamingItAndNothingChanges(backend: Backend) async throws {
            let store = try await backend.make()
            let mug = try await store.createProduct(ProductDetails(name: "Mug"))
            let long = String(repeating: "x", count: 2001)
            try await expectRefusal(store, .invalidValue, field: "description") {
                _ = try await store.createProduct(ProductDetails(name: "Cup", description: long))
            }
            var patch = ProductPatch()
            patch.description = long
            try await expectRefusal(store, .invalidValue, field: "description") {
                _ = try await store.updateProduct(mug.id, applying: patch)
            }
        }

        @Test(arguments: Backend.ported)
        func theDescriptionTravelsThroughTheProductsCSV(backend: Backend) async throws {
            let store = try await backend.make()
            _ = try await store.createProduct(ProductDetails(name: "Mug", sku: "M1", description: "Stoneware, \"300 ml\""))
            let exported = try CSV.parse(try await store.exportCSV(.products))
            let column = try #require(exported.first?.cells.firstIndex(of: "description"))
            #expect(exported[1].cells[column] == "Stoneware, \"300 ml\"")
            // Imported: a changed description is a change of that field; an export imports back with nothing to change.
            let csv = "name,sku,description\r\nMug,M1,Porcelain\r\nCup,C1,Tall\r\n"
            let plan = try ProductImport.plan(csv: csv, currency: .eur, existing: try await store.products(ProductQuery()).products,
                                              categories: []).get()
            #expect(plan.rows.first?.changedFields == ["description"])
            #expect(plan.rows.last?.changedFields.contains("description") == true)
            _ = try await store.importProducts(plan)
            #expect(try await store.products(ProductQuery()).products.map(\.details.description).sorted() == ["Porcelain", "Tall"])
            let again = try ProductImport.plan(csv: try await store.exportCSV(.products), currency: .eur,
                                               existing: try await store.products(ProductQuery()).products, categories: []).get()
            #expect(again.rows.isEmpty)
        }
    }
}
