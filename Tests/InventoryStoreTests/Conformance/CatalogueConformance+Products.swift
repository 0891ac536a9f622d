import Foundation
import InventoryDomain
import Testing

extension CatalogueConformance {
    /// The parts of a product that need no books: option groups, recipes, shelves, re-pricing, the list's order and its
    /// lookups' edges, and the activities product writes record. (The books' suites cover the same parts with sales.)
    @Suite struct ProductParts {
        /// What the feed was told, in order.
        final class Heard: @unchecked Sendable {
            private let lock = NSLock()
            private var activities: [ShopActivity] = []
            func add(_ new: [ShopActivity]) { self.lock.withLock { self.activities += new } }
            var all: [ShopActivity] { self.lock.withLock { self.activities } }
        }

        @Test(arguments: Backend.ported)
        func optionGroupsAreReplacedKeepingTheIdsSentAndRefusingAnotherProducts(backend: Backend) async throws {
            let store = try await backend.make()
            let heard = Heard()
            let observation = store.activityFeed.observe { heard.add($0) }
            defer { _ = observation }
            let latte = try await store.createProduct(ProductDetails(name: "Latte", salePrice: eur("3.00")))
            let tea = try await store.createProduct(ProductDetails(name: "Tea"))
            #expect(try await store.optionGroups(of: latte.id).isEmpty)
            #expect(try await store.allOptionGroups().isEmpty)
            let stored = try await store.setOptionGroups([
                ModifierGroup(name: " Size ", required: true, options: [Modifier(name: "Regular"), Modifier(name: "Large", priceChange: eur("0.50"), isDefault: true)]),
                ModifierGroup(name: "Milk", options: [Modifier(name: "Whole"), Modifier(name: "Oat", priceChange: eur("0.40"))]),
            ], of: latte.id)
            #expect(stored.map(\.name) == ["Size", "Milk"] && stored.allSatisfy { $0.id != nil })
            #expect(stored[0].options.map(\.name) == ["Regular", "Large"] && stored[0].options[1].isDefault && stored[0].required)
            #expect(try await store.optionGroups(of: latte.id) == stored)
            let teaGroups = try await store.setOptionGroups([ModifierGroup(name: "Lemon", multiple: true, options: [Modifier(name: "Slice")])], of: tea.id)
            #expect(try await store.allOptionGroups() == [latte.id: stored, tea.id: teaGroups])

            // Sent with their ids, groups and options keep them (renamed, reordered, an option moved to another kept group);
            // new ones are added.
            var size = stored[0]
            size.options = [Modifier(id: stored[0].options[1].id, name: "Big", priceChange: eur("0.60"), isDefault: true),
                            Modifier(id: stored[1].options[1].id, name: "Oat", priceChange: eur("0.40")), Modifier(name: "Small")]
            var milk = stored[1]
            milk.name = "Milk type"
            milk.options = [Modifier(id: stored[1].options[0].id, name: "Whole milk")]
            let extras = ModifierGroup(name: "Extras", multiple: true, options: [Modifier(name: "Shot", priceChange: eur("0.30"))])
            let changed = try await store.setOptionGroups([extras, size, milk], of: latte.id)
            #expect(changed.map(\.name) == ["Extras", "Size", "Milk type"])
            #expect(changed[1].id == stored[0].id && changed[2].id == stored[1].id && changed[0].id.map { ![stored[0].id, stored[1].id].contains($0) } == true)
            #expect(Array(changed[1].options.map(\.id).prefix(2)) == [stored[0].options[1].id, stored[1].options[1].id])
            #expect(changed[1].options.map(\.name) == ["Big", "Oat", "Small"] && changed[2].options.map(\.name) == ["Whole milk"])
            #expect(try await store.optionGroups(of: latte.id) == changed)

            // Another product's group or option is refused by name, and nothing changes.
            try await expectRefusal(store, .invalidValue, field: "groups[0].id") {
                _ = try await store.setOptionGroups([ModifierGroup(id: teaGroups[0].id, name: "Size", options: [Modifier(name: "X")])], of: latte.id)
            }
            try await expectRefusal(store, .invalidValue, field: "groups[1].options[0].id") {
                _ = try await store.setOptionGroups([changed[0], ModifierGroup(name: "Lemon", options: [Modifier(id: teaGroups[0].options[0].id, name: "Slice")])],
                                                    of: latte.id)
            }
            try await expectRefusal(store, .duplicate, field: "groups[1].name") {
                _ = try await store.setOptionGroups([changed[0], ModifierGroup(name: "extras", options: [Modifier(name: "X")])], of: latte.id)
            }
            try await expectRefusal(store, .notFound, field: "productId") {
                _ = try await store.setOptionGroups([], of: ProductID(999))
            }
            try await expectRefusal(store, .notFound, field: "productId") { _ = try await store.optionGroups(of: ProductID(999)) }
            // Setting the same groups again records nothing; a group not sent goes with its options.
            let before = heard.all.count
            _ = try await store.setOptionGroups(changed, of: latte.id)
            #expect(heard.all.count == before)
            let kept = try await store.setOptionGroups([changed[1]], of: latte.id)
            #expect(kept == [changed[1]])
            #expect(try await store.allOptionGroups() == [latte.id: kept, tea.id: teaGroups])
            let edits = heard.all.filter { $0.kind == .productChanged && $0.productIDs == [latte.id] }
            #expect(edits.count == 3 && edits.allSatisfy { $0.changes.map(\.field) == [.options] })
            #expect(edits.first?.changes.first?.new == .text("Size: Regular, Large +0.50; Milk: Whole, Oat +0.40"))
            #expect(edits.last?.changes.first?.new == .text("Size: Big +0.60, Oat +0.40, Small"))
        }

        @Test(arguments: Backend.ported)
        func aRecipeIsSetReadAuditedAndItsRulesHold(backend: Backend) async throws {
            let store = try await backend.make()
            let heard = Heard()
            let observation = store.activityFeed.observe { heard.add($0) }
            defer { _ = observation }
            let beans = try await store.createProduct(ProductDetails(name: "Beans", unit: "kg"))
            let milk = try await store.createProduct(ProductDetails(name: "Milk", unit: "l"))
            let latte = try await store.createProduct(ProductDetails(name: "Latte", tracksStock: false))
            let syrup = try await store.createProduct(ProductDetails(name: "Syrup", tracksStock: false))
            #expect(try await store.recipe(of: latte.id).isEmpty)
            let recipe = [RecipeComponent(ingredientID: beans.id, quantity: Quantity(thousandths: 18)),
                          RecipeComponent(ingredientID: milk.id, quantity: Quantity(thousandths: 200)),
                          RecipeComponent(ingredientID: syrup.id, quantity: Quantity(thousandths: 1500))]
            #expect(try await store.setRecipe(recipe, of: latte.id) == recipe)
            #expect(try await store.recipe(of: latte.id) == recipe)
            let audited = heard.all.last
            #expect(audited?.kind == .productChanged && audited?.subject == "Latte")
            #expect(audited?.changes == [ShopActivity.Change(.recipe, from: .none, to: .text("0.018 Beans, 0.2 Milk, 1.5 Syrup"))])

            // The product keeps stock; an ingredient is a recipe; an ingredient does not exist; the product is an ingredient.
            try await expectRefusal(store, .invalidValue, field: "components") {
                _ = try await store.setRecipe([RecipeComponent(ingredientID: milk.id, quantity: qty(1))], of: beans.id)
            }
            let mocha = try await store.createProduct(ProductDetails(name: "Mocha", tracksStock: false))
            try await expectRefusal(store, .invalidValue, field: "components[1].productId") {
                _ = try await store.setRecipe([RecipeComponent(ingredientID: milk.id, quantity: qty(1)), RecipeComponent(ingredientID: latte.id, quantity: qty(1))],
                                              of: mocha.id)
            }
            try await expectRefusal(store, .notFound, field: "components[0].productId") {
                _ = try await store.setRecipe([RecipeComponent(ingredientID: ProductID(9_999), quantity: qty(1))], of: mocha.id)
            }
            try await expectRefusal(store, .invalidValue, field: "components") {
                _ = try await store.setRecipe([RecipeComponent(ingredientID: milk.id, quantity: qty(1))], of: syrup.id)
            }
            try await expectRefusal(store, .duplicate, field: "components[1].productId") {
                _ = try await store.setRecipe([RecipeComponent(ingredientID: milk.id, quantity: qty(1)), RecipeComponent(ingredientID: milk.id, quantity: qty(2))],
                                              of: mocha.id)
            }
            try await expectRefusal(store, .notFound, field: "productId") { _ = try await store.setRecipe([], of: ProductID(999)) }
            try await expectRefusal(store, .notFound, field: "productId") { _ = try await store.recipe(of: ProductID(999)) }
            // A recipe product cannot start keeping stock, by an edit or a patch.
            var tracking = latte.details
            tracking.tracksStock = true
            try await expectRefusal(store, .invalidValue, field: "tracksStock") { _ = try await store.updateProduct(latte.id, tracking) }
            var patch = ProductPatch()
            patch.tracksStock = true
            try await expectRefusal(store, .invalidValue, field: "tracksStock") { _ = try await store.updateProduct(latte.id, applying: patch) }
            // An ingredient in a recipe cannot be deleted.
            try await expectRefusal(store, .inUse) { try await store.deleteProduct(milk.id) }

            // Replaced, then cleared: audited each time; the same recipe again is not.
            let count = heard.all.count
            _ = try await store.setRecipe(recipe, of: latte.id)
            #expect(heard.all.count == count)
            let shorter = [RecipeComponent(ingredientID: milk.id, quantity: Quantity(thousandths: 250))]
            #expect(try await store.setRecipe(shorter, of: latte.id) == shorter)
            #expect(heard.all.last?.changes == [ShopActivity.Change(.recipe, from: .text("0.018 Beans, 0.2 Milk, 1.5 Syrup"), to: .text("0.25 Milk"))])
            #expect(try await store.setRecipe([], of: latte.id).isEmpty)
            #expect(heard.all.last?.changes == [ShopActivity.Change(.recipe, from: .text("0.25 Milk"), to: .none)])
            // No recipe any more: the product may keep stock, and the syrup may have a recipe of its own.
            #expect(try await store.updateProduct(latte.id, applying: patch).details.tracksStock)
            #expect(try await store.setRecipe([RecipeComponent(ingredientID: milk.id, quantity: qty(1))], of: syrup.id).count == 1)
        }

        @Test(arguments: Backend.ported)
        func repricingConvertsEveryPriceOnceAndAuditsEachProduct(backend: Backend) async throws {
            let store = try await backend.make()
            let heard = Heard()
            let observation = store.activityFeed.observe { heard.add($0) }
            defer { _ = observation }
            let latte = try await store.createProduct(ProductDetails(name: "Latte", salePrice: eur("3.00"), minimumSalePrice: eur("2.50"),
                                                                     taxRate: Percent(hundredths: 2000)))
            let card = try await store.createProduct(ProductDetails(name: "Gift card", salePrice: eur("10.00"), tracksStock: false))
            let cake = try await store.createProduct(ProductDetails(name: "Cake", salePrice: eur("2.99"), taxRate: Percent(hundredths: 700)))
            #expect(try await store.reprice(pricesIncludeTax: false) == 0)
            #expect(heard.all.count == 3)
            #expect(try await store.reprice(pricesIncludeTax: true) == 3)
            #expect(try await store.settings().pricesIncludeTax)
            #expect(try await store.product(latte.id).details.salePrice == eur("3.60"))
            #expect(try await store.product(latte.id).details.minimumSalePrice == eur("3.00"))
            #expect(try await store.product(card.id).details.salePrice == eur("10.00"))  // no tax: unchanged, not audited
            #expect(try await store.product(cake.id).details.salePrice == eur("3.20"))
            let activities = heard.all.dropFirst(3)
            #expect(activities.map(\.kind) == [.productChanged, .productChanged, .settingsChanged])
            #expect(activities.first?.changes.map(\.field) == [.salePrice, .minimumSalePrice])
            #expect(activities.last?.changes == [ShopActivity.Change(.pricesIncludeTax, from: .flag(false), to: .flag(true))])
            #expect(try await store.reprice(pricesIncludeTax: true) == 0)
            #expect(try await store.reprice(pricesIncludeTax: false) == 3)
            #expect(try await store.product(latte.id).details.salePrice == eur("3.00"))
            #expect(try await store.settings().pricesIncludeTax == false)
        }

        @Test(arguments: Backend.ported)
        func shelvesAndTheListAreInSQLitesCaseInsensitiveOrder(backend: Backend) async throws {
            let store = try await backend.make()
            var ids: [String: ProductID] = [:]
            for (name, shelf) in [("b", "b1"), ("A", "a3"), ("a", " A3 "), ("_c", "Back  room"), ("Éclair", "_top"), ("eclair", nil), ("Zed", "B1")] {
                ids[name] = try await store.createProduct(ProductDetails(name: name, shelf: shelf)).id
            }
            _ = try await store.createProduct(ProductDetails(name: "Old", isArchived: true, shelf: "Attic"))
            let shelves = try await store.shelves()
            #expect(shelves == [Shelf(name: "_top", products: 1), Shelf(name: "a3", products: 2), Shelf(name: "b1", products: 2),
                                Shelf(name: "Back room", products: 1)])
            let listed = try await store.products(ProductQuery()).products.map(\.name)
            #expect(listed == ["_c", "A", "a", "b", "eclair", "Zed", "Éclair"])
            let page = try await store.products(ProductQuery(sort: .name, limit: 2, offset: 2))
            #expect(page.products.map(\.name) == ["a", "b"] && page.total == 7)
            #expect(try await store.products(ProductQuery(limit: -5, offset: -3)).products.isEmpty)
            #expect(try await store.products(ProductQuery(limit: 5_000)).products.count == 7)
            #expect(try await store.products(ProductQuery(includeArchived: true)).total == 8)
        }

        @Test(arguments: Backend.ported)
        func lookupsAndSearchesAtTheirEdges(backend: Backend) async throws {
            let store = try await backend.make()
            let old = try await store.createProduct(ProductDetails(name: "Old jam", barcode: "4006381333931", isArchived: true))
            let under = try await store.createProduct(ProductDetails(name: "Fifty_fifty 100% juice", sku: "ff-1"))
            _ = try await store.createProduct(ProductDetails(name: "Fiftyxfifty 1000 juice"))
            // An exact barcode finds an archived product, its name does not.
            #expect(try await store.products(ProductQuery(search: "4006381333931")).products.map(\.id) == [old.id])
            #expect(try await store.products(ProductQuery(search: "old jam")).total == 0)
            #expect(try await store.products(ProductQuery(search: "old jam", includeArchived: true)).products.map(\.id) == [old.id])
            // LIKE's wildcards and its escape are only text.
            #expect(try await store.products(ProductQuery(search: "y_f")).products.map(\.id) == [under.id])
            #expect(try await store.products(ProductQuery(search: "100%")).products.map(\.id) == [under.id])
            #expect(try await store.products(ProductQuery(search: #"y\_f"#)).total == 0)
            // The SKU ranks first whatever the case of its letters; lookups with a NUL find nothing.
            #expect(try await store.products(ProductQuery(search: "FF-1")).products.map(\.id) == [under.id])
            #expect(try await store.product(sku: " ff-1 ")?.id == under.id)
            // Every text reaches SQLite up to its first NUL (GRDB binds C strings), PostgreSQL likewise.
            #expect(try await store.product(sku: "ff-1\u{0}x")?.id == under.id)
            #expect(try await store.product(sku: "FF-1") == nil)
            // A search word likewise: "\u{0}" is an empty word, found in every name.
            #expect(try await store.products(ProductQuery(search: "fifty \u{0}")).total == 2)
            #expect(try await store.products(ProductQuery(search: "fifty j\u{0}x")).total == 0)
            // A product's ledger is empty until the books name it; an unknown product has none.
            #expect(try await store.movements(productID: under.id).isEmpty)
            try await expectRefusal(store, .notFound, field: "productId") { _ = try await store.movements(productID: ProductID(999)) }
            try await expectRefusal(store, .notFound, field: "productId") { _ = try await store.updateProduct(ProductID(999), ProductDetails(name: "Ghost")) }
            try await expectRefusal(store, .notFound, field: "preferredSupplierId") {
                _ = try await store.createProduct(ProductDetails(name: "X", preferredSupplierID: SupplierID(42)))
            }
        }

        @Test(arguments: Backend.ported)
        func productWritesRecordTheirActivities(backend: Backend) async throws {
            let store = try await backend.make()
            let heard = Heard()
            let observation = store.activityFeed.observe { heard.add($0) }
            defer { _ = observation }
            let tea = try await store.createCategory(Category(id: CategoryID(0), name: "Tea"))
            let coffee = try await store.createCategory(Category(id: CategoryID(0), name: "Coffee"))
            let cup = try await store.createProduct(ProductDetails(name: "Cup", categoryID: tea.id, salePrice: eur("4.00")))
            var details = cup.details
            details.categoryID = coffee.id
            details.shelf = "A1"
            let moved = try await store.updateProduct(cup.id, details)
            #expect(moved.updatedAt >= cup.updatedAt && moved.createdAt == cup.createdAt)
            var patch = ProductPatch()
            patch.tracksStock = false
            #expect(try await store.updateProduct(cup.id, applying: patch).details.tracksStock == false)
            try await store.deleteProduct(cup.id)
            let activities = heard.all.dropFirst(2)
            #expect(activities.map(\.kind) == [.productCreated, .productChanged, .productChanged, .productDeleted])
            #expect(activities.allSatisfy { $0.productIDs == [cup.id] && $0.subject == "Cup" && $0.record == .init(.product, cup.id.rawValue) })
            #expect(activities.first?.figures.price == eur("4.00"))
            let changes = Array(activities)[1].changes
            #expect(changes == [ShopActivity.Change(.category, from: .text("Tea"), to: .text("Coffee")), ShopActivity.Change(.shelf, from: .none, to: .text("A1"))])
            #expect(Array(activities)[2].changes.map(\.field) == [.tracksStock])
        }

        /// Two products given one barcode (or SKU) at once: one is stored, the other refused naming it.
        @Test(arguments: Backend.ported)
        func aCodeGivenTwiceAtOnceIsRefusedOnceNamingTheOwner(backend: Backend) async throws {
            let store = try await backend.make()
            let outcomes = try await withThrowingTaskGroup(of: InventoryError?.self) { group in
                for index in 0..<6 {
                    group.addTask {
                        do {
                            _ = try await store.createProduct(ProductDetails(name: "Jam \(index)", sku: index % 2 == 0 ? "JAM" : nil,
                                                                             barcode: index % 2 == 1 ? "4006381333931" : nil))
                            return nil
                        } catch let error as InventoryError { return error }
                    }
                }
                return try await group.reduce(into: [InventoryError?]()) { $0.append($1) }
            }
            let refusals = outcomes.compactMap { $0 }
            #expect(outcomes.count == 6 && refusals.count == 4)
            #expect(refusals.allSatisfy { $0.code == .duplicate && ($0.field == "barcode" || $0.field == "sku") && $0.userMessage.contains("'Jam ") })
            #expect(try await store.products(ProductQuery()).total == 2)
        }
    }
}
