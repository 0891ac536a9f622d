import Foundation
import InventoryDomain
import InventoryStore
import Testing

extension CatalogueConformance {
    /// Issue 10, defect 9: a product keeps an ordered list of pictures, each change one transaction, and the store says
    /// which pictures no product shows any more (so their files can go).
    @Suite struct Pictures {
        static let a = "0123456789abcdef01234567.jpg", b = "89abcdef0123456789abcdef.png", c = "fedcba9876543210fedcba98.jpg"

        @Test(arguments: Backend.ported)
        func picturesAreKeptInOrderAndReadEverywhere(backend: Backend) async throws {
            let store = try await backend.make()
            let (a, b, c) = (Self.a, Self.b, Self.c)
            let mug = try await store.createProduct(ProductDetails(name: "Mug", sku: "MUG", barcode: "4006381333931"), pictures: [a, b])
            #expect(mug.pictures == [a, b] && mug.imageRef == a)
            _ = try await store.addPicture(mug.id, name: c)
            let outcome = try await store.setMainPicture(mug.id, name: c)
            #expect(outcome.changed && outcome.released.isEmpty)
            #expect(outcome.product.pictures == [c, a, b])
            // Every read carries the list: by id, barcode, SKU and in the list.
            #expect(try await store.product(mug.id).pictures == [c, a, b])
            #expect(try await store.product(barcode: "4006381333931")?.pictures == [c, a, b])
            #expect(try await store.product(sku: "MUG")?.pictures == [c, a, b])
            #expect(try await store.products(ProductQuery()).products.first?.pictures == [c, a, b])
            // An edit of the fields (PUT or PATCH) never touches the pictures.
            var details = try await store.product(mug.id).details
            details.name = "Big mug"
            #expect(try await store.updateProduct(mug.id, details).pictures == [c, a, b])
            var patch = ProductPatch()
            patch.salePrice = eur("4.00")
            #expect(try await store.updateProduct(mug.id, applying: patch).pictures == [c, a, b])
            // Ten products with pictures, none mixed up (the list is read per product in one query).
            var others: [ProductID: [String]] = [:]
            for index in 0..<10 {
                let names = (0...(index % 4)).map { String(format: "%08x%016x.png", index, $0) }
                others[try await store.createProduct(ProductDetails(name: "Item \(index)"), pictures: names).id] = names
            }
            for product in try await store.products(ProductQuery(limit: 100)).products where others[product.id] != nil {
                #expect(product.pictures == others[product.id])
            }
        }

        @Test(arguments: Backend.ported)
        func aPictureIsReleasedOnlyWhenNoProductShowsIt(backend: Backend) async throws {
            let store = try await backend.make()
            let (a, b, c) = (Self.a, Self.b, Self.c)
            let mug = try await store.createProduct(ProductDetails(name: "Mug"), pictures: [a, b])
            let cup = try await store.createProduct(ProductDetails(name: "Cup"), pictures: [b])
            // b is also the cup's: removing it from the mug releases nothing.
            #expect(try await store.removePicture(mug.id, name: b).released == [])
            // Replacing the main picture: the old main (a, nobody else's) is released.
            let replaced = try await store.changePictures(of: mug.id, .replaceMain(c))
            #expect(replaced.product.pictures == [c] && replaced.released == [a])
            #expect(try await store.changePictures(of: mug.id, .removeMain).released == [c])
            #expect(try await store.product(mug.id).pictures.isEmpty)
            // Nothing to change: nothing changes (not even the edit time).
            let before = try await store.product(cup.id)
            let same = try await store.addPicture(cup.id, name: b)
            #expect(!same.changed && same.released.isEmpty && same.product.updatedAt == before.updatedAt)
            // A deleted product's pictures: those no other product shows.
            #expect(try await store.unusedPictures(among: [a, b, c]) == [a, c])
            try await store.deleteProduct(cup.id)
            #expect(try await store.unusedPictures(among: [a, b, c]) == [a, b, c])
        }

        @Test(arguments: Backend.ported)
        func refusedChangesChangeNothing(backend: Backend) async throws {
            let store = try await backend.make()
            let (a, b) = (Self.a, Self.b)
            let mug = try await store.createProduct(ProductDetails(name: "Mug"), pictures: [a])
            try await expectRefusal(store, .notFound, field: "name") { _ = try await store.removePicture(mug.id, name: b) }
            try await expectRefusal(store, .notFound, field: "name") { _ = try await store.setMainPicture(mug.id, name: "../../stockroom.sqlite") }
            try await expectRefusal(store, .invalidValue, field: "name") { _ = try await store.addPicture(mug.id, name: "../evil.png") }
            try await expectRefusal(store, .notFound, field: "productId") { _ = try await store.addPicture(ProductID(999), name: b) }
            let full = (0..<ProductPictures.maximumCount).map { String(format: "%024x.jpg", $0) }
            let crowded = try await store.createProduct(ProductDetails(name: "Crowded"), pictures: full)
            try await expectRefusal(store, .conflict, field: "pictures") { _ = try await store.addPicture(crowded.id, name: b) }
            try await expectRefusal(store, .conflict, field: "pictures") {
                _ = try await store.createProduct(ProductDetails(name: "Too many"), pictures: full + [a])
            }
            try await expectRefusal(store, .invalidValue, field: "pictures") {
                _ = try await store.createProduct(ProductDetails(name: "Bad"), pictures: ["x.png"])
            }
            // A refused product is refused with its pictures.
            try await expectRefusal(store, .missingValue, field: "name") { _ = try await store.createProduct(ProductDetails(name: " "), pictures: [b]) }
        }

        /// Each change reads and writes the list in one transaction: changes at the same time all count.
        @Test(arguments: Backend.ported)
        func concurrentAddsAllCount(backend: Backend) async throws {
            let store = try await backend.make()
            let mug = try await store.createProduct(ProductDetails(name: "Mug"))
            let names = (0..<ProductPictures.maximumCount).map { String(format: "%024x.png", $0 + 100) }
            try await withThrowingTaskGroup(of: Void.self) { group in
                for name in names { group.addTask { _ = try await store.addPicture(mug.id, name: name) } }
                try await group.waitForAll()
            }
            #expect(Set(try await store.product(mug.id).pictures) == Set(names))
        }
    }
}
