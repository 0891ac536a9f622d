import Foundation
import InventoryDomain
import Testing

/// Every write's committed outcome (``ShopActivity``, issue 10 defect 7): one audit entry per command, written with the
/// change, attributed to ``Agent/current``, with the command's sentence and figures; handed to the ``ActivityFeed``
/// after the commit. A refused write, a dry run and an idempotent replay leave neither.
@Suite struct ActivityConformance {
    /// What the feed was told, in order.
    final class Heard: @unchecked Sendable {
        private let lock = NSLock()
        private var activities: [ShopActivity] = []
        private var missedCount = 0
        func add(_ new: [ShopActivity]) { self.lock.withLock { self.activities += new } }
        var all: [ShopActivity] { self.lock.withLock { self.activities } }
        /// The feed said activities may have been missed (``ActivityFeed/publishMissed()``).
        func miss() { self.lock.withLock { self.missedCount += 1 } }
        var missed: Int { self.lock.withLock { self.missedCount } }
    }

    /// A store, an account `ada` whose writes the tests make, and what its feed hears from then on.
    struct Shop {
        let store: any TestableRepository
        let ada: Agent
        let heard: Heard
        let observation: ActivityFeed.Observation

        /// The audit entries written after `count` entries, oldest first.
        func audit(after count: Int) async throws -> [AuditEntry] {
            Array(try await self.store.auditLog(limit: 1000, offset: 0).reversed().dropFirst(count))
        }

        var auditCount: Int { get async throws { try await self.store.auditLog(limit: 1000, offset: 0).count } }

        /// Runs `body` as ada.
        func asAda<T>(_ body: () async throws -> T) async rethrows -> T {
            try await Agent.$current.withValue(self.ada) { try await body() }
        }
    }

    static func shop(_ backend: Backend) async throws -> Shop {
        let store = try await backend.make()
        let account = try await store.createUser(StaffAccount(id: UserID(0), username: "ada", displayName: "Ada", role: .manager,
                                                              passwordHash: Self.hash, pinHash: nil))
        let heard = Heard()
        let observation = store.activityFeed.observe { heard.add($0) }
        return Shop(store: store, ada: Agent(account), heard: heard, observation: observation)
    }

    static let hash = "$2b$12$abcdefghijklmnopqrstuuOQ3oZJr9Yc0i7e5C4m1n2b3v4x5y6z7"

    static func account(_ username: String, _ role: Role = .staff) -> StaffAccount {
        StaffAccount(id: UserID(0), username: username, displayName: username, role: role, passwordHash: Self.hash, pinHash: nil)
    }

    // MARK: - One entry per command, with the change

    /// A sale's entry is made from the record the store read back (``ShopActivity/sale(_:_:by:at:currency:)``), a
    /// deleted sale's from its stored rows: the same sale gives both the same figures, products, subject and party —
    /// a recipe's ingredients in its cost, a tip and a customer among them, and again after an edit.
    @Test(arguments: Backend.ported)
    func aSalesEntryFromItsRecordIsWhatItsStoredRowsSay(backend: Backend) async throws {
        let shop = try await Self.shop(backend)
        let store = shop.store
        let customer = try await store.createCustomer(Contact(id: CustomerID(0), name: "Bea"))
        let beans = try await store.createProduct(ProductDetails(name: "Beans", unit: "kg", salePrice: eur("30.00")))
        let milk = try await store.createProduct(ProductDetails(name: "Milk", unit: "l", salePrice: eur("2.00")))
        let latte = try await store.createProduct(ProductDetails(name: "Latte", salePrice: eur("3.50"), tracksStock: false))
        _ = try await store.postPurchase(PurchaseDraft(effectiveAt: at(20260101), lines: [
            .init(productID: beans.id, quantity: qty(1), unitCost: eur("20.00")), .init(productID: milk.id, quantity: qty(10), unitCost: eur("1.30")),
        ]))
        _ = try await store.setRecipe([RecipeComponent(ingredientID: beans.id, quantity: Quantity(thousandths: 18)),
                                       RecipeComponent(ingredientID: milk.id, quantity: Quantity(thousandths: 200))], of: latte.id)
        let draft = SaleDraft(effectiveAt: at(20260105), customerID: customer.id, lines: [
            .init(productID: latte.id, quantity: qty(3), taxRate: Percent(hundredths: 700)), .init(productID: milk.id, quantity: Quantity(thousandths: 1500)),
        ], tip: eur("0.50"))
        let sale = try await shop.asAda { try await store.postSale(draft) }
        var edited = draft
        edited.lines = [.init(productID: latte.id, quantity: qty(2), unitPrice: eur("3.20"))]
        _ = try await shop.asAda { try await store.updateSale(sale.id, edited) }
        // Edited back, so that the deletion's rows are the first booking's again.
        _ = try await shop.asAda { try await store.updateSale(sale.id, draft) }
        try await shop.asAda { try await store.deleteSale(sale.id) }
        let entries = shop.heard.all.filter { $0.record == ShopActivity.Record(.sale, sale.id.rawValue) }
        #expect(entries.map(\.kind) == [.saleRecorded, .saleChanged, .saleChanged, .saleDeleted])
        guard entries.count == 4 else { return }
        let (recorded, changed, deleted) = (entries[0], entries[1], entries[3])
        // Figures, as the rows say: 3 lattes (0.054 kg beans at 20.00 = 1.08, 0.6 l milk at 1.30 = 0.78) and 1.5 l milk.
        #expect(deleted.figures.costOfGoodsSold == eur("3.81"))
        for (fromRecord, fromRows) in [(recorded, deleted), (entries[2], deleted)] {
            #expect(fromRecord.figures == fromRows.figures)
            #expect(fromRecord.productIDs == fromRows.productIDs && fromRecord.productIDs == [latte.id, milk.id])
            #expect(fromRecord.subject == fromRows.subject && fromRecord.party == "Bea" && fromRows.party == "Bea")
        }
        #expect(changed.subject == "Latte" && changed.figures.lines == 1 && changed.figures.costOfGoodsSold == eur("1.24"))
    }

    @Test(arguments: Backend.ported)
    func aPurchaseASaleAndAPriceChangeEachWriteOneEntry(backend: Backend) async throws {
        let shop = try await Self.shop(backend)
        let store = shop.store
        let supplier = try await shop.asAda { try await store.createSupplier(Contact(id: SupplierID(0), name: "Roastery Nord")) }
        let beans = try await shop.asAda { try await store.createProduct(ProductDetails(name: "Flat white beans", salePrice: eur("2.90"))) }
        var count = try await shop.auditCount

        let purchase = try await shop.asAda {
            try await store.postPurchase(PurchaseDraft(effectiveAt: at(20260301), supplierID: supplier.id,
                                                       lines: [.init(productID: beans.id, quantity: qty(24), unitCost: eur("2.75"))]))
        }
        var entries = try await shop.audit(after: count)
        #expect(entries.count == 1)
        #expect(entries.first?.kind == .purchaseRecorded)
        #expect(entries.first?.sentence == "ada received 24 × Flat white beans from Roastery Nord for €66.00 (purchase #\(purchase.id))")
        #expect(entries.first?.userID == shop.ada.userID && entries.first?.username == "ada")
        #expect(entries.first?.record == ShopActivity.Record(.purchase, purchase.id.rawValue))
        #expect(entries.first?.productIDs == [beans.id])
        #expect(entries.first?.figures == ShopActivity.Figures(lines: 1, items: qty(24), total: eur("66.00")))
        count += 1

        let sale = try await shop.asAda {
            try await store.postSale(SaleDraft(effectiveAt: at(20260302), lines: [.init(productID: beans.id, quantity: qty(3), unitPrice: eur("3.00"),
                                                                                        taxRate: Percent(hundredths: 1000))],
                                               tip: eur("0.40")))
        }
        entries = try await shop.audit(after: count)
        #expect(entries.map(\.sentence) == ["ada sold 3 × Flat white beans for €10.30 (sale #\(sale.id))"])
        #expect(entries.first?.figures == ShopActivity.Figures(lines: 1, items: qty(3), total: eur("10.30"), costOfGoodsSold: eur("8.25"), tax: eur("0.90")))
        #expect(entries.first?.figures.total == sale.lines.reduce(Money.zero) { $0 + $1.revenue + $1.tax } + sale.tip)
        count += 1

        var details = beans.details
        details.salePrice = eur("3.10")
        _ = try await shop.asAda { try await store.updateProduct(beans.id, details) }
        entries = try await shop.audit(after: count)
        #expect(entries.map(\.sentence) == ["ada changed the sale price of Flat white beans from €2.90 to €3.10"])
        #expect(entries.first?.changes == [ShopActivity.Change(.salePrice, from: .money(eur("2.90")), to: .money(eur("3.10")))])
        #expect(entries.first?.record == ShopActivity.Record(.product, beans.id.rawValue))
        count += 1

        var patch = ProductPatch()
        patch.barcode = .some("4006381333931")
        _ = try await shop.asAda { try await store.updateProduct(beans.id, applying: patch) }
        #expect(try await shop.audit(after: count).map(\.sentence) == ["ada set the barcode of Flat white beans to 4006381333931"])

        // The feed heard exactly what was audited, in order.
        let audited = try await shop.audit(after: 0).map(\.sentence)
        #expect(shop.heard.all.map(\.sentence) == Array(audited.dropFirst(1)))
        #expect(shop.heard.all.first { $0.kind == .saleRecorded }?.productIDs == [beans.id])
    }

    @Test(arguments: Backend.ported)
    func editsDeletesReturnsAndAdjustmentsAreAuditedAsWhatTheyDid(backend: Backend) async throws {
        let shop = try await Self.shop(backend)
        let store = shop.store
        let mug = try await store.createProduct(ProductDetails(name: "Mug", salePrice: eur("8.00")))
        let bob = try await store.createCustomer(Contact(id: CustomerID(0), name: "Bob"))
        let count = try await shop.auditCount
        try await shop.asAda {
            let purchase = try await store.postPurchase(PurchaseDraft(effectiveAt: at(20260301), lines: [.init(productID: mug.id, quantity: qty(10), unitCost: eur("3.00"))]))
            _ = try await store.updatePurchase(purchase.id, PurchaseDraft(effectiveAt: at(20260301), lines: [.init(productID: mug.id, quantity: qty(12), unitCost: eur("3.00"))]))
            let sale = try await store.postSale(SaleDraft(effectiveAt: at(20260302), customerID: bob.id, lines: [.init(productID: mug.id, quantity: qty(2), unitPrice: eur("8.00"))]))
            _ = try await store.updateSale(sale.id, SaleDraft(effectiveAt: at(20260302), customerID: bob.id, lines: [.init(productID: mug.id, quantity: qty(1), unitPrice: eur("8.00"))]))
            let giveBack = try await store.postCustomerReturn(CustomerReturnDraft(effectiveAt: at(20260303), saleID: sale.id, lines: [.init(saleLineID: try #require(try await store.sale(sale.id).lines.first?.movementID), quantity: qty(1))]))
            let broken = try await store.postAdjustment(AdjustmentDraft(effectiveAt: at(20260304), productID: mug.id, quantityChange: qty(-2), reason: .damage))
            let sentBack = try await store.postSupplierReturn(SupplierReturnDraft(effectiveAt: at(20260305), lines: [.init(productID: mug.id, quantity: qty(1))]))
            try await store.deleteSupplierReturn(sentBack)
            try await store.deleteAdjustment(broken)
            try await store.deleteCustomerReturn(giveBack)
            try await store.deleteSale(sale.id)
            try await store.deletePurchase(purchase.id)
            try await store.deleteProduct(try await store.createProduct(ProductDetails(name: "Spare")).id)
        }
        let entries = try await shop.audit(after: count)
        let p = entries[0].record?.id ?? 0, s = entries[2].record?.id ?? 0, r = entries[4].record?.id ?? 0
        let a = entries[5].record?.id ?? 0, x = entries[6].record?.id ?? 0
        #expect(entries.map(\.sentence) == [
            "ada received 10 × Mug for €30.00 (purchase #\(p))",
            "ada changed purchase #\(p): now 12 × Mug for €36.00",
            "ada sold 2 × Mug to Bob for €16.00 (sale #\(s))",
            "ada changed sale #\(s): now 1 × Mug to Bob for €8.00",
            "ada took back 1 × Mug from sale #\(s), refunding €8.00 (customer return #\(r))",
            "ada adjusted the stock of Mug by -2 for damage (adjustment #\(a))",
            "ada sent 1 × Mug back worth €3.00 (supplier return #\(x))",
            "ada deleted supplier return #\(x) (1 × Mug sent back worth €3.00)",
            "ada deleted adjustment #\(a) (Mug -2 for damage)",
            "ada deleted customer return #\(r) (1 × Mug from sale #\(s), €8.00 refunded)",
            "ada deleted sale #\(s) (1 × Mug to Bob for €8.00)",
            "ada deleted purchase #\(p) (12 × Mug for €36.00)",
            // With its purchase deleted the mug has nothing left: it went out (LowStockCrossing), by the same write.
            "Mug ran out: 0 left, threshold 5",
            "ada added the product Spare at €0.00",
            "ada deleted the product Spare",
        ])
        #expect(entries[4].related == ShopActivity.Record(.sale, s))
        #expect(entries[2].figures.costOfGoodsSold == eur("6.00"))
        #expect(entries.allSatisfy { $0.userID == shop.ada.userID })
    }

    @Test(arguments: Backend.ported)
    func theCatalogueSettingsAndImportsAreAudited(backend: Backend) async throws {
        let shop = try await Self.shop(backend)
        let store = shop.store
        let count = try await shop.auditCount
        try await shop.asAda {
            var coffee = try await store.createCategory(Category(id: CategoryID(0), name: "Coffee", color: "#111111"))
            coffee.color = "#222222"
            _ = try await store.updateCategory(coffee)
            var nord = try await store.createSupplier(Contact(id: SupplierID(0), name: "Roastery Nord"))
            nord.phone = "+49 40 123"
            _ = try await store.updateSupplier(nord)
            try await store.deleteSupplier(nord.id)
            let bob = try await store.createCustomer(Contact(id: CustomerID(0), name: "Bob"))
            try await store.deleteCustomer(bob.id)
            try await store.deleteCategory(coffee.id)
            var settings = try await store.settings()
            settings.shopName = "Corner Café"
            try await store.saveSettings(settings)
            let plan = try ProductImport.plan(csv: "name,sale_price,category\nTea,2.00,Drinks\n", currency: .eur, existing: [], categories: []).get()
            _ = try await store.importProducts(plan)
            let tea = try #require(try await store.products(ProductQuery(search: "Tea")).products.first)
            try await store.postPurchases([PurchaseDraft(effectiveAt: at(20260228), lines: [.init(productID: tea.id, quantity: qty(3), unitCost: eur("0.75"))])])
            try await store.postSales([SaleDraft(effectiveAt: at(20260301), lines: [.init(productID: tea.id, quantity: qty(1), unitPrice: eur("2.00"))]),
                                       SaleDraft(effectiveAt: at(20260301), lines: [.init(productID: tea.id, quantity: qty(2), unitPrice: eur("2.00"))],
                                                 tip: eur("0.50"))])
        }
        #expect(try await shop.audit(after: count).map(\.sentence) == [
            "ada added the category Coffee",
            "ada changed the colour of the category Coffee from #111111 to #222222",
            "ada added the supplier Roastery Nord",
            "ada set the phone of the supplier Roastery Nord to +49 40 123",
            "ada deleted the supplier Roastery Nord",
            "ada added the customer Bob",
            "ada deleted the customer Bob",
            "ada deleted the category Coffee",
            "ada changed the shop name from My shop to Corner Café",
            "ada imported products: 1 added, 0 updated",
            "ada imported 1 purchase for €2.25",
            "ada imported 2 sales for €6.50",
        ])
    }

    @Test(arguments: Backend.ported)
    func accountsAndTokensAreAuditedWithoutTheirSecrets(backend: Backend) async throws {
        let shop = try await Self.shop(backend)
        let store = shop.store
        _ = try await store.createUser(Self.account("owner", .admin))
        let count = try await shop.auditCount
        try await shop.asAda {
            var clerk = try await store.createUser(Self.account("clerk"))
            clerk.role = .manager
            clerk.pinHash = "$2b$12$pinpinpinpinpinpinpinpuOQ3oZJr9Yc0i7e5C4m1n2b3v4x5y6z7"
            clerk = try await store.updateUser(clerk)
            let mine = try await store.createSession(userID: try #require(shop.ada.userID), kind: .api, name: "laptop", tokenHash: "h1", csrfToken: "",
                                                     expiresAt: nil)
            let theirs = try await store.createSession(userID: clerk.id, kind: .api, name: "till", tokenHash: "h2", csrfToken: "", expiresAt: nil)
            let browser = try await store.createSession(userID: clerk.id, kind: .web, name: "browser", tokenHash: "h3", csrfToken: "c", expiresAt: nil)
            try await store.deleteSession(id: theirs)
            try await store.deleteSession(id: browser)
            _ = mine
        }
        let entries = try await shop.audit(after: count)
        let tokens = entries.filter { $0.record?.kind == .token }.map { $0.record?.id ?? 0 }
        #expect(entries.map(\.sentence) == [
            "ada added the account clerk as staff",
            "ada changed clerk: role staff → manager, new PIN",
            "ada created API token #\(tokens[0]) 'laptop'",
            "ada created API token #\(tokens[1]) 'till' for clerk",
            "ada revoked API token #\(tokens[1]) 'till' of clerk",
        ])
        #expect(!entries.contains { $0.sentence.contains("$2b") || $0.changes.contains { $0.new.plainText(.eur)?.contains("$2b") == true } })
        #expect(entries[1].changes.map(\.field) == [.role, .pin])
    }

    @Test(arguments: Backend.ported)
    func theFirstAdminIsAuditedAsThemselves(backend: Backend) async throws {
        let store = try await backend.make()
        let owner = try await store.createFirstAdmin(Self.account("owner", .admin))
        let entries = try await store.auditLog(limit: 10, offset: 0)
        #expect(entries.map(\.sentence) == ["owner set up the shop as its first admin"])
        #expect(entries.first?.userID == owner.id)
    }

    @Test(arguments: Backend.ported)
    func withoutAnAgentTheSystemIsNamed(backend: Backend) async throws {
        let store = try await backend.make()
        let tea = try await store.createProduct(ProductDetails(name: "Tea", salePrice: eur("2.00")))
        let entries = try await store.auditLog(limit: 10, offset: 0)
        #expect(entries.map(\.sentence) == ["system added the product Tea at €2.00"])
        #expect(entries.first?.userID == nil && entries.first?.productIDs == [tea.id])
        // An agent whose account is unknown is kept by name.
        _ = try await Agent.$current.withValue(Agent(userID: UserID(999), username: "ghost")) {
            try await store.deleteProduct(tea.id)
        }
        let ghost = try await store.auditLog(limit: 1, offset: 0).first
        #expect(ghost?.username == "ghost" && ghost?.userID == nil)
    }

    // MARK: - Nothing for what did not happen

    @Test(arguments: Backend.ported)
    func aRefusedWriteADryRunAndAReplayAuditNothingAndTellNoOne(backend: Backend) async throws {
        let shop = try await Self.shop(backend)
        let store = shop.store
        let bun = try await store.createProduct(ProductDetails(name: "Bun", salePrice: eur("1.00")))
        _ = try await store.postPurchase(PurchaseDraft(effectiveAt: at(20260301), lines: [.init(productID: bun.id, quantity: qty(2), unitCost: eur("0.40"))]))
        let key = try IdempotencyKey(userID: try #require(shop.ada.userID), key: "3F2504E0-4F89-11D3-9A0C-0305E82C3301", fingerprint: "f")
        let draft = SaleDraft(effectiveAt: at(20260302), lines: [.init(productID: bun.id, quantity: qty(1), unitPrice: eur("1.00"))])
        _ = try await shop.asAda { try await store.postSale(draft, idempotency: key) }
        let before = try await store.auditLog(limit: 1000, offset: 0)
        let heard = shop.heard.all.count
        try await shop.asAda {
            try await expectRefusal(store, .insufficientStock) {
                _ = try await store.postSale(SaleDraft(effectiveAt: at(20260302), lines: [.init(productID: bun.id, quantity: qty(5), unitPrice: eur("1.00"))]))
            }
            _ = try await store.createProduct(ProductDetails(name: "Bun 2", sku: "X"))
            try await expectRefusal(store, .duplicate) {
                _ = try await store.createProduct(ProductDetails(name: "Bun 3", sku: "X"))
            }
            _ = try await store.previewSale(draft, replacing: nil)
            _ = try await store.previewPurchase(PurchaseDraft(effectiveAt: at(20260302), lines: [.init(productID: bun.id, quantity: qty(1), unitCost: eur("0.50"))]),
                                                replacing: nil)
            let replay = try await store.postSale(draft, idempotency: key)
            #expect(replay.replayed)
        }
        let after = try await store.auditLog(limit: 1000, offset: 0)
        // Only "Bun 2" was made: one entry, and the feed heard only it.
        #expect(after.count == before.count + 1)
        #expect(after.first?.sentence == "ada added the product Bun 2 at €0.00")
        #expect(Array(after.dropFirst()) == before)
        #expect(shop.heard.all.dropFirst(heard).map(\.kind) == [.productCreated])
    }
}
