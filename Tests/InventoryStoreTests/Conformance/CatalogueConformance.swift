import Foundation
import InventoryDomain
import Testing

/// Categories, suppliers, customers and products (``CatalogueRepository``): search, lookups by barcode and SKU,
/// filters, paging, edits and patches, and the refusals that name the field at fault and change nothing.
@Suite struct CatalogueConformance {
    @Test(arguments: Backend.ported)
    func searchIsCaseAndAccentInsensitiveBySubstring(backend: Backend) async throws {
        let store = try await backend.make()
        let cafe = try await store.createProduct(ProductDetails(name: "Café Crème", sku: "CC-01", barcode: "036000291452"))
        _ = try await store.createProduct(ProductDetails(name: "Green tea"))
        for text in ["cafe", "CRÈME", "creme", "afé c", "cc-0", "0036000291452", "036000291452"] {
            let found = try await store.products(ProductQuery(search: text))
            #expect(found.products.map(\.id) == [cafe.id], "search '\(text)'")
        }
        #expect(try await store.products(ProductQuery(search: "100%")).total == 0)
        // A word with a NUL or another control character is found by LIKE alone (FTS5 stops reading a query at a NUL:
        // schemathesis's "unterminated string" 500).
        #expect(try await store.products(ProductQuery(search: "caf\u{0}\"e")).total == 0)
        #expect(try await store.products(ProductQuery(search: "Café\u{1}")).total == 0)
        #expect(try await store.product(barcode: "0036000291452")?.id == cafe.id)
        #expect(try await store.product(barcode: "00036000291452")?.id == cafe.id)
        #expect(try await store.product(barcode: "999") == nil)
        #expect(try await store.product(sku: "CC-01")?.id == cafe.id)
    }

    /// A search listed by name ranks: the exact barcode or SKU, then names starting with the search, then names with a
    /// word starting with it, then any other match; the trigram index follows every rename and delete.
    @Test(arguments: Backend.ported)
    func searchRanksExactThenPrefixThenWordThenSubstringAndFollowsEdits(backend: Backend) async throws {
        let store = try await backend.make()
        let goat = try await store.createProduct(ProductDetails(name: "Goat cheese"))
        let milkOat = try await store.createProduct(ProductDetails(name: "Milk oat", barcode: "4006381333931"))
        let oatcake = try await store.createProduct(ProductDetails(name: "Oatcake"))
        let almond = try await store.createProduct(ProductDetails(name: "Almond & oat bar"))
        let barista = try await store.createProduct(ProductDetails(name: "Oat milk barista"))
        let tin = try await store.createProduct(ProductDetails(name: "Tin of flakes", sku: "OAT"))
        _ = try await store.createProduct(ProductDetails(name: "Green tea"))
        func search(_ text: String, sort: ProductQuery.Sort = .name) async throws -> [ProductID] {
            try await store.products(ProductQuery(search: text, sort: sort)).products.map(\.id)
        }
        #expect(try await search("oat") == [tin.id, barista.id, oatcake.id, almond.id, milkOat.id, goat.id])
        #expect(try await search("OAT MILK") == [barista.id, milkOat.id])
        #expect(try await search("4006381333931") == [milkOat.id])
        // Two letters (below the index's three): the same rule without the index; the SKU is no longer exact.
        #expect(try await search("oa") == [barista.id, oatcake.id, almond.id, milkOat.id, tin.id, goat.id])
        // Another order asked for is kept.
        #expect(try await search("oat", sort: .updated).count == 6)

        var renamed = goat.details
        renamed.name = "Feta"
        _ = try await store.updateProduct(goat.id, renamed)
        #expect(try await search("goat").isEmpty)
        #expect(try await search("feta") == [goat.id])
        try await store.deleteProduct(oatcake.id)
        #expect(try await search("oatcake").isEmpty)
        #expect(try await search("oat") == [tin.id, barista.id, almond.id, milkOat.id])
        // Characters the index's query language gives a meaning to are only text in a search word.
        let hose = try await store.createProduct(ProductDetails(name: #"Hose 3/4" "garden" * NEAR(x)"#))
        for text in [#"3/4""#, #""garden""#, "* near(x)", #"4" "gar"#] {
            #expect(try await search(text) == [hose.id], "\(text)")
        }
        #expect(try await search(#"3/4""""#).isEmpty)
    }

    @Test(arguments: Backend.ported)
    func upcEScanFindsProductSavedWithUpcA(backend: Backend) async throws {
        let store = try await backend.make()
        let product = try await store.createProduct(ProductDetails(name: "Gum", barcode: "012345000065"))
        #expect(try await store.product(barcode: "01234565")?.id == product.id)
        #expect(try await store.product(barcode: "0012345000065")?.id == product.id)
    }

    @Test(arguments: Backend.ported)
    func filtersSortsPagesAndStatuses(backend: Backend) async throws {
        let store = try await backend.make()
        let (drinks, ids) = try await Fixtures.drinksShop(store)
        #expect(drinks.color == "#2563eb")
        #expect(drinks.suggestedSalePrice(cost: eur("2.00")) == eur("3.00"))
        #expect(try await store.products(ProductQuery(status: .low)).products.map(\.name) == ["Lemonade", "Water"])
        #expect(try await store.products(ProductQuery(status: .out)).products.map(\.name) == ["Juice"])
        #expect(try await store.products(ProductQuery(status: .inStock)).products.map(\.name) == ["Cola"])
        #expect(try await store.products(ProductQuery(categoryID: drinks.id)).total == 3)
        let page = try await store.products(ProductQuery(sort: .quantity, limit: 2, offset: 1))
        #expect(page.total == 4)
        #expect(page.products.map(\.name) == ["Water", "Lemonade"])
        let pastTheEnd = try await store.products(ProductQuery(sort: .quantity, limit: 2, offset: 10))
        #expect(pastTheEnd.products.isEmpty && pastTheEnd.total == 4, "a page past the end still counts the matches")
        #expect(try await store.products(ProductQuery(search: "a", limit: 1)).total == 3, "the count is of every match, not the page")

        var archived = try await store.product(ids[2]).details
        archived.isArchived = true
        _ = try await store.updateProduct(ids[2], archived)
        #expect(try await store.products(ProductQuery()).total == 3)
        #expect(try await store.products(ProductQuery(includeArchived: true)).total == 4)
        try await expectRefusal(store, .conflict, field: "lines[0].productId") {
            _ = try await store.postPurchase(PurchaseDraft(effectiveAt: at(20260102), lines: [.init(productID: ids[2], quantity: qty(1), unitCost: eur("1"))]))
        }
        try await store.deleteCategory(drinks.id)
        #expect(try await store.product(ids[0]).details.categoryID == nil)
    }

    @Test(arguments: Backend.ported)
    func contactsCrud(backend: Backend) async throws {
        let store = try await backend.make()
        var supplier = try await store.createSupplier(Contact(id: SupplierID(0), name: " Bäckerei Schmidt ", location: "Köln", phone: "+49 221 123"))
        #expect(supplier.name == "Bäckerei Schmidt")
        supplier.email = "info@schmidt.de"
        supplier = try await store.updateSupplier(supplier)
        #expect(try await store.suppliers(search: "backerei").map(\.id) == [supplier.id])
        #expect(try await store.suppliers(search: "koln").count == 1)
        #expect(try await store.suppliers(search: nil).count == 1)
        try await store.deleteSupplier(supplier.id)
        #expect(try await store.suppliers(search: nil).isEmpty)
        let customer = try await store.createCustomer(Contact(id: CustomerID(0), name: "Ada", note: "regular"))
        #expect(try await store.customers(search: "ad").first?.note == "regular")
        try await store.deleteCustomer(customer.id)
        await #expect(throws: InventoryError(.notFound, field: "id", "")) { try await store.deleteCustomer(customer.id) }
    }

    @Test(arguments: Backend.ported)
    func categoriesAreEditedAndListedByName(backend: Backend) async throws {
        let store = try await backend.make()
        let tea = try await store.createCategory(Category(id: CategoryID(0), name: " tea ", lowStockThreshold: qty(3)))
        #expect(tea.name == "tea" && tea.color == "#64748b" && tea.lowStockThreshold == qty(3))
        let cakes = try await store.createCategory(Category(id: CategoryID(0), name: "Cakes", color: "#ABCDEF", markup: Percent(hundredths: 2500)))
        #expect(try await store.categories() == [cakes, tea])

        var renamed = tea
        renamed.name = "Black tea"
        renamed.color = "#112233"
        renamed.lowStockThreshold = nil
        renamed.markup = Percent(hundredths: 1000)
        #expect(try await store.updateCategory(renamed) == renamed)
        #expect(try await store.categories() == [renamed, cakes])
        // Its own name in another case is no clash; another category's is.
        var recased = cakes
        recased.name = "cakes"
        #expect(try await store.updateCategory(recased).name == "cakes")
        var clash = renamed
        clash.name = "CAKES"
        try await expectRefusal(store, .duplicate, field: "name") { _ = try await store.updateCategory(clash) }
        var pink = renamed
        pink.color = "pink"
        try await expectRefusal(store, .invalidValue, field: "color") { _ = try await store.updateCategory(pink) }
        try await expectRefusal(store, .notFound, field: "id") { _ = try await store.updateCategory(Category(id: CategoryID(999), name: "Ghost")) }

        try await store.deleteCategory(cakes.id)
        try await expectRefusal(store, .notFound, field: "id") { try await store.deleteCategory(cakes.id) }
        #expect(try await store.categories() == [renamed])
    }

    @Test(arguments: Backend.ported)
    func contactsAreUpdatedAndListedByName(backend: Backend) async throws {
        let store = try await backend.make()
        var zoe = try await store.createCustomer(Contact(id: CustomerID(0), name: "Zoe"))
        let ada = try await store.createCustomer(Contact(id: CustomerID(0), name: "ada", location: "Leeds"))
        #expect(try await store.customers(search: nil) == [ada, zoe])
        zoe.name = " Abe "
        zoe.phone = "+44 113 496 0000"
        zoe.email = "abe@example.com"
        zoe.note = "pays by card"
        let saved = try await store.updateCustomer(zoe)
        #expect(saved.name == "Abe" && saved.phone == "+44 113 496 0000" && saved.email == "abe@example.com" && saved.note == "pays by card")
        #expect(try await store.customers(search: nil) == [saved, ada])
        #expect(try await store.customers(search: "496") == [saved])
        #expect(try await store.customers(search: "leeds") == [ada])
        var broken = saved
        broken.phone = "call me"
        try await expectRefusal(store, .invalidValue, field: "phone") { _ = try await store.updateCustomer(broken) }
        try await expectRefusal(store, .notFound, field: "id") { _ = try await store.updateCustomer(Contact(id: CustomerID(999), name: "Ghost")) }
        try await expectRefusal(store, .notFound, field: "id") { _ = try await store.updateSupplier(Contact(id: SupplierID(999), name: "Ghost")) }
        try await expectRefusal(store, .notFound, field: "id") { try await store.deleteSupplier(SupplierID(999)) }

        // A customer on a sale stays.
        let milk = try await store.createProduct(ProductDetails(name: "Milk", salePrice: eur("1.50"), allowsNegativeStock: true))
        _ = try await store.postSale(SaleDraft(effectiveAt: at(20260102), customerID: ada.id, lines: [.init(productID: milk.id, quantity: qty(1), unitPrice: eur("1.50"))]))
        try await expectRefusal(store, .inUse, field: "id") { try await store.deleteCustomer(ada.id) }
    }

    @Test(arguments: Backend.ported)
    func aPatchChangesOnlyTheFieldsItNames(backend: Backend) async throws {
        let store = try await backend.make()
        let tea = try await store.createCategory(Category(id: CategoryID(0), name: "Tea"))
        let product = try await store.createProduct(ProductDetails(
            name: "Green tea", sku: "GT-1", barcode: "4006381333931", categoryID: tea.id, unit: "box", salePrice: eur("3.00"),
            minimumSalePrice: eur("2.50"), taxRate: Percent(hundredths: 700), lowStockThreshold: qty(4)))
        var price = ProductPatch()
        price.salePrice = eur("3.50")
        var expected = product.details
        expected.salePrice = eur("3.50")
        #expect(try await store.updateProduct(product.id, applying: price).details == expected)
        #expect(try await store.product(product.id).details == expected)

        // A field set to nil is cleared; an absent one is kept.
        var clear = ProductPatch()
        clear.sku = .some(nil)
        clear.categoryID = .some(nil)
        clear.lowStockThreshold = .some(nil)
        clear.name = "Sencha"
        expected.sku = nil
        expected.categoryID = nil
        expected.lowStockThreshold = nil
        expected.name = "Sencha"
        // The icon stays the one the product had (a patch changes no field it does not name).
        #expect(try await store.updateProduct(product.id, applying: clear).details == expected)
        #expect(try await store.product(product.id).details == expected)
        #expect(try await store.product(sku: "GT-1") == nil)
        #expect(try await store.product(barcode: "4006381333931")?.name == "Sencha")

        // The patched product is checked as a whole; a refused patch changes nothing.
        var cheap = ProductPatch()
        cheap.salePrice = eur("2.00")
        try await expectRefusal(store, .invalidValue, field: "minimumSalePrice") { _ = try await store.updateProduct(product.id, applying: cheap) }
        let other = try await store.createProduct(ProductDetails(name: "Black tea"))
        var steal = ProductPatch()
        steal.barcode = .some("4006381333931")
        try await expectRefusal(store, .duplicate, field: "barcode") { _ = try await store.updateProduct(other.id, applying: steal) }
        try await expectRefusal(store, .notFound) { _ = try await store.updateProduct(ProductID(999), applying: price) }

        // Changing the stock rule replays the ledger, as an edit does.
        let flour = try await store.createProduct(ProductDetails(name: "Flour", allowsNegativeStock: true))
        _ = try await store.postSale(SaleDraft(effectiveAt: at(20260103), lines: [.init(productID: flour.id, quantity: qty(2), unitPrice: eur("1.00"))]))
        var strict = ProductPatch()
        strict.allowsNegativeStock = false
        try await expectRefusal(store, .insufficientStock, field: "allowsNegativeStock") { _ = try await store.updateProduct(flour.id, applying: strict) }
        _ = try await store.postPurchase(PurchaseDraft(effectiveAt: at(20260102), lines: [.init(productID: flour.id, quantity: qty(5), unitCost: eur("0.40"))]))
        #expect(try await store.updateProduct(flour.id, applying: strict).details.allowsNegativeStock == false)
    }

    @Test(arguments: Backend.ported)
    func productsAreFoundDeletedAndTheirLedgersRead(backend: Backend) async throws {
        let store = try await backend.make()
        let cup = try await store.createProduct(ProductDetails(name: "Cup", sku: " CUP-1 ", salePrice: eur("4.00")))
        #expect(cup.details.sku == "CUP-1" && cup.stock == .empty)
        #expect(try await store.product(cup.id) == cup)
        #expect(try await store.product(sku: "CUP-1") == cup)
        #expect(try await store.movements(productID: cup.id).isEmpty)
        let purchase = try await store.postPurchase(PurchaseDraft(effectiveAt: at(20260101), lines: [.init(productID: cup.id, quantity: qty(3), unitCost: eur("1.50"))]))
        let sale = try await store.postSale(SaleDraft(effectiveAt: at(20260102), lines: [.init(productID: cup.id, quantity: qty(1), unitPrice: eur("4.00"))]))
        let ledger = try await store.movements(productID: cup.id)
        #expect(ledger.map(\.kind) == [.purchase, .sale])
        #expect(ledger.map(\.documentID) == [purchase.id.rawValue, sale.id.rawValue])
        #expect(ledger.map(\.balance.quantity) == [qty(3), qty(2)])
        #expect(ledger.map(\.balance.value) == [eur("4.50"), eur("3.00")])

        let spare = try await store.createProduct(ProductDetails(name: "Spare"))
        try await store.deleteProduct(spare.id)
        try await expectRefusal(store, .notFound) { _ = try await store.product(spare.id) }
        try await expectRefusal(store, .notFound) { try await store.deleteProduct(spare.id) }
        #expect(try await store.products(ProductQuery()).products.map(\.id) == [cup.id])
    }

    // MARK: - Refusals

    @Test(arguments: Backend.ported)
    func duplicateBarcodeOrSkuNamesTheOwner(backend: Backend) async throws {
        let shop = try await Fixtures.refusalShop(backend)
        let before = try await shop.store.testOnly_dump()
        do {
            _ = try await shop.store.createProduct(ProductDetails(name: "Other", barcode: "4006381333931"))
            Issue.record("duplicate barcode accepted")
        } catch let error as InventoryError {
            #expect(error.code == .duplicate)
            #expect(error.field == "barcode")
            #expect(error.userMessage.contains("'Beans'"))
        }
        #expect(try await shop.store.testOnly_dump() == before)
        try await expectRefusal(shop.store, .duplicate, field: "sku") {
            _ = try await shop.store.createProduct(ProductDetails(name: "Other", sku: "BEAN-1"))
        }
        try await expectRefusal(shop.store, .duplicate, field: "barcode") {
            _ = try await shop.store.updateProduct(shop.milk.id, ProductDetails(name: "Milk", barcode: "4006381333931"))
        }
        // An inline product in a purchase with a taken barcode: the whole purchase is refused.
        try await expectRefusal(shop.store, .duplicate, field: "lines[1].product.barcode") {
            _ = try await shop.store.postPurchase(PurchaseDraft(effectiveAt: at(20260102), lines: [
                .init(productID: shop.milk.id, quantity: qty(1), unitCost: eur("1.00")),
                .init(product: .new(ProductDetails(name: "Copy", barcode: "4006381333931")), quantity: qty(1), unitCost: eur("1.00")),
            ]))
        }
        _ = try await shop.store.createCategory(Category(id: CategoryID(0), name: "Coffee"))
        try await expectRefusal(shop.store, .duplicate, field: "name") {
            _ = try await shop.store.createCategory(Category(id: CategoryID(0), name: "coffee"))
        }
    }

    @Test(arguments: Backend.ported)
    func invalidFieldsAreRefusedByName(backend: Backend) async throws {
        let shop = try await Fixtures.refusalShop(backend)
        try await expectRefusal(shop.store, .invalidValue, field: "barcode") {
            _ = try await shop.store.createProduct(ProductDetails(name: "X", barcode: "4006381333932"))
        }
        try await expectRefusal(shop.store, .missingValue, field: "name") {
            _ = try await shop.store.createProduct(ProductDetails(name: "   "))
        }
        try await expectRefusal(shop.store, .invalidValue, field: "email") {
            _ = try await shop.store.createCustomer(Contact(id: CustomerID(0), name: "Bob", email: "not-an-email"))
        }
        try await expectRefusal(shop.store, .invalidValue, field: "color") {
            _ = try await shop.store.createCategory(Category(id: CategoryID(0), name: "Tea", color: "blue"))
        }
        try await expectRefusal(shop.store, .invalidValue, field: "salePrice") {
            _ = try await shop.store.createProduct(ProductDetails(name: "Bad", salePrice: eur("-1.00")))
        }
        try await expectRefusal(shop.store, .notFound, field: "categoryId") {
            _ = try await shop.store.createProduct(ProductDetails(name: "X", categoryID: CategoryID(42)))
        }
    }

    @Test(arguments: Backend.ported)
    func deletingWhatIsInUse(backend: Backend) async throws {
        let shop = try await Fixtures.refusalShop(backend)
        try await expectRefusal(shop.store, .inUse, field: "id") { try await shop.store.deleteProduct(shop.beans.id) }
        try await expectRefusal(shop.store, .inUse, field: "id") { try await shop.store.deleteSupplier(shop.supplier.id) }
        try await shop.store.deleteProduct(shop.milk.id)
        await #expect(throws: InventoryError(.notFound, field: "productId", "")) { try await shop.store.product(shop.milk.id) }
    }

    @Test(arguments: Backend.ported)
    func searchesAreCappedAtEightWords(backend: Backend) async throws {
        let store = try await backend.make()
        let eight = Array(repeating: "a", count: 8).joined(separator: " ")
        #expect(try await store.products(ProductQuery(search: eight)).total == 0)
        for search in [Array(repeating: "a", count: 999).joined(separator: " "), String(repeating: "x", count: 201)] {
            await #expect(throws: InventoryError.self) { try await store.products(ProductQuery(search: search)) }
            await #expect(throws: InventoryError.self) { try await store.customers(search: search) }
        }
    }
}
