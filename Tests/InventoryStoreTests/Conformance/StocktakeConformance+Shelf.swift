import Foundation
import InventoryDomain
import InventoryStore
import Testing

extension StocktakeConformance {
    /// A product's shelf (issue 14, point 1: a stocktake of one shelf): stored, listed, matched ignoring case, audited,
    /// exported and imported.
    @Suite struct ShelfScope {
        @Test(arguments: Backend.ported)
        func aShelfSheetCoversTheProductsOnThatShelfWhateverTheCase(backend: Backend) async throws {
            let store = try await backend.make()
            let cola = try await store.createProduct(ProductDetails(name: "Cola", shelf: " A3 "))
            let water = try await store.createProduct(ProductDetails(name: "Water", shelf: "a3"))
            let juice = try await store.createProduct(ProductDetails(name: "Juice", shelf: "B1"))
            _ = try await store.createProduct(ProductDetails(name: "Old cola", isArchived: true, shelf: "A3"))
            _ = try await store.createProduct(ProductDetails(name: "Gift card", tracksStock: false, shelf: "A3"))
            _ = try await store.createProduct(ProductDetails(name: "Lemonade"))
            #expect(try await store.product(cola.id).details.shelf == "A3")
            // Listed once per shelf (one spelling), counting the products not archived.
            let shelves = try await store.shelves()
            #expect(shelves.map(\.name).map { $0.uppercased() } == ["A3", "B1"] && shelves.map(\.products) == [3, 1])

            let sheet = try await store.openStocktake(scope: .shelf("a3"), note: "")
            #expect(sheet.scope == .shelf("A3") && sheet.scopeName == "Shelf A3")  // as the shelves list spells it
            #expect(sheet.lines.map(\.productID) == [cola.id, water.id])  // stock kept, not archived, on A3 or a3
            try await expectRefusal(store, .invalidValue, field: "productId") {
                _ = try await store.countStocktake(sheet.id, productID: juice.id, entry: .scanned)
            }
            _ = try await store.countStocktake(sheet.id, productID: water.id, entry: .typed(qty(2)))
            let posted = try await store.postStocktake(sheet.id, by: "manager")
            #expect(posted.totals.counted == 1 && posted.totals.uncounted == 1 && posted.adjustmentID != nil)
            #expect(try await store.product(water.id).stock.quantity == qty(2))
            // A product moved to another shelf later leaves the posted sheet as it was.
            var moved = try await store.product(cola.id).details
            moved.shelf = "C9"
            _ = try await store.updateProduct(cola.id, moved)
            let report = try await store.stocktake(sheet.id)
            #expect(report == posted && report.scopeName == "Shelf A3")
            #expect(try await store.stocktakes(limit: 5, offset: 0).first?.scope == .shelf("A3"))
        }

        @Test(arguments: Backend.ported)
        func aShelfNoProductIsOnIsRefusedAndNothingIsOpened(backend: Backend) async throws {
            let store = try await backend.make()
            _ = try await store.createProduct(ProductDetails(name: "Old cola", isArchived: true, shelf: "A3"))
            try await expectRefusal(store, .notFound, field: "shelf") {
                _ = try await store.openStocktake(scope: .shelf("A3"), note: "")
            }
            try await expectRefusal(store, .notFound, field: "shelf") {
                _ = try await store.openStocktake(scope: .shelf("Z1"), note: "")
            }
            #expect(try await store.stocktakes(limit: 5, offset: 0).isEmpty)
            #expect(try await store.shelves().isEmpty)
        }

        @Test(arguments: Backend.ported)
        func aShelfIsReplacedPatchedClearedAndRefusedWhenTooLong(backend: Backend) async throws {
            let store = try await backend.make()
            let mug = try await store.createProduct(ProductDetails(name: "Mug", shelf: "A3"))
            var patch = ProductPatch()
            patch.salePrice = eur("4.00")
            #expect(try await store.updateProduct(mug.id, applying: patch).details.shelf == "A3")  // kept
            patch.shelf = .some("  Back   room ")
            #expect(try await store.updateProduct(mug.id, applying: patch).details.shelf == "Back room")
            patch.shelf = .some(String(repeating: "x", count: 41))
            try await expectRefusal(store, .invalidValue, field: "shelf") {
                _ = try await store.updateProduct(mug.id, applying: patch)
            }
            #expect(try await store.product(mug.id).details.shelf == "Back room")
            patch.shelf = .some(nil)
            #expect(try await store.updateProduct(mug.id, applying: patch).details.shelf == nil)
        }

        @Test(arguments: Backend.ported)
        func theShelfTravelsThroughTheProductsCSV(backend: Backend) async throws {
            let store = try await backend.make()
            _ = try await store.createProduct(ProductDetails(name: "Mug", sku: "M1", shelf: "A3"))
            let exported = try CSV.parse(try await store.exportCSV(.products))
            let column = try #require(exported.first?.cells.firstIndex(of: "shelf"))
            #expect(exported[1].cells[column] == "A3")
            let csv = "name,sku,shelf\r\nMug,M1,B1\r\nCup,C1,\r\n"
            let plan = try ProductImport.plan(csv: csv, currency: .eur, existing: try await store.products(ProductQuery()).products,
                                              categories: []).get()
            #expect(plan.rows.first?.changedFields == ["shelf"])
            _ = try await store.importProducts(plan)
            let shelves = try await store.products(ProductQuery()).products.map { "\($0.name): \($0.details.shelf ?? "none")" }
            #expect(shelves.sorted() == ["Cup: none", "Mug: B1"])
            let again = try ProductImport.plan(csv: try await store.exportCSV(.products), currency: .eur,
                                               existing: try await store.products(ProductQuery()).products, categories: []).get()
            #expect(again.rows.isEmpty)
        }
    }
}
