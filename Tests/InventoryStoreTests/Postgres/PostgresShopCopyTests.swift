import Foundation
import GRDB
import InventoryDomain
import InventoryPostgres
import InventoryStore
import Testing

/// A whole shop moved between SQLite and PostgreSQL (`stockroom migrate`, the portable backup): every row, id and
/// sequence arrives, every report is equal on both sides (``ShopCopyProof``), a target that holds a shop is refused,
/// the copy keeps working, and a file that is not a backup changes nothing.
@Suite struct PostgresShopCopyTests {
    static let postgres = Backend.ported.contains(.postgres)

    /// Two pictures, as the picture store names them.
    static let pictures = [String(repeating: "ab", count: 32) + ".jpg", String(repeating: "0f", count: 32) + ".png"]

    /// A shop with a bit of everything: settings, a logo, categories, suppliers, customers with a card, products with
    /// options, a recipe, pictures, an archived one; purchases (with lots), sales (split payments, options, a tip,
    /// back-dated, with an idempotency key), customer and supplier returns, adjustments, a deleted document; a parked
    /// tab, a drawer session with cash moved and closed; a posted and an open stocktake; staff with sessions, shifts
    /// and the audit log all of it wrote.
    static func richShop(_ store: any TestableRepository) async throws {
        var settings = ShopSettings(shopName: "Corner Café", timeZoneIdentifier: "Europe/Berlin", lockMinutes: 12)
        settings.pricesIncludeTax = true
        try await store.saveSettings(settings)
        _ = try await store.setShopLogo([0x89, 0x50, 0x4E, 0x47, 0, 1, 2, 3], contentType: "image/png")
        let owner = try await store.createFirstAdmin(StaffAccount(id: UserID(0), username: "owner", displayName: "Owner", role: .admin,
                                                                  passwordHash: "$2b$12$abcdefghijklmnopqrstuuOQ3oZJr9Yc0i7e5C4m1n2b3v4x5y6z7", pinHash: nil))
        let mia = try await store.createUser(StaffAccount(id: UserID(0), username: "mia", displayName: "Mia", role: .staff,
                                                          passwordHash: "$2b$12$abcdefghijklmnopqrstuuOQ3oZJr9Yc0i7e5C4m1n2b3v4x5y6z7", pinHash: nil))
        _ = try await store.createSession(userID: mia.id, kind: .web, name: "till", tokenHash: "mia-web", csrfToken: "c1", expiresAt: nil)
        _ = try await store.createSession(userID: owner.id, kind: .api, name: "sync", tokenHash: "owner-api", csrfToken: "c2", expiresAt: 1_900_000_000_000)
        let dayStart = at(20260105).milliseconds
        _ = try await store.clockIn(mia.id, at: dayStart)
        _ = try await store.clockOut(mia.id, at: dayStart + 3_600_000)

        let drinks = try await store.createCategory(Category(id: CategoryID(0), name: "Drinks", color: "#2563EB", lowStockThreshold: qty(10), markup: Percent(hundredths: 5000)))
        let food = try await store.createCategory(Category(id: CategoryID(0), name: "Food"))
        let roastery = try await store.createSupplier(Contact(id: SupplierID(0), name: "Roastery", location: "Hamburg", leadTimeDays: 3))
        let ada = try await store.createCustomer(Contact(id: CustomerID(0), name: "Ada", email: "ada@example.com"))
        _ = try await store.setCustomerCard(ada.id, number: "CARD-1")
        let beans = try await store.createProduct(ProductDetails(name: "Beans", sku: "B-1", barcode: "4006381333931", categoryID: drinks.id, unit: "kg",
                                                                 salePrice: eur("12.00"), minimumSalePrice: eur("10.00"), taxRate: Percent(hundredths: 700),
                                                                 preferredSupplierID: roastery.id, description: "Whole beans", shelf: "A1"),
                                                  pictures: Self.pictures)
        let milk = try await store.createProduct(ProductDetails(name: "Milk", categoryID: drinks.id, unit: "l", salePrice: eur("1.50"), allowsNegativeStock: true))
        let latte = try await store.createProduct(ProductDetails(name: "Latte", categoryID: drinks.id, salePrice: eur("3.50"), tracksStock: false),
                                                  pictures: [Self.pictures[1]])
        let cake = try await store.createProduct(ProductDetails(name: "Cake", categoryID: food.id, salePrice: eur("4.00"), shelf: "B2"))
        let old = try await store.createProduct(ProductDetails(name: "Old mug", salePrice: eur("9.00")))
        let groups = try await store.setOptionGroups([
            ModifierGroup(name: "Size", required: true, options: [Modifier(name: "Regular", isDefault: true), Modifier(name: "Large", priceChange: eur("0.50"))]),
            ModifierGroup(name: "Extras", multiple: true, options: [Modifier(name: "Shot", priceChange: eur("0.60")), Modifier(name: "Syrup", priceChange: eur("0.40"))]),
        ], of: latte.id)
        _ = try await store.setRecipe([RecipeComponent(ingredientID: beans.id, quantity: Quantity(thousandths: 18)),
                                       RecipeComponent(ingredientID: milk.id, quantity: Quantity(thousandths: 200))], of: latte.id)

        _ = try await store.postPurchase(PurchaseDraft(effectiveAt: at(20260101), supplierID: roastery.id, note: "first delivery", lines: [
            .init(productID: beans.id, quantity: qty(20), unitCost: eur("6.00")),
            .init(productID: milk.id, quantity: qty(30), unitCost: eur("0.70")),
            .init(productID: cake.id, quantity: qty(10), unitCost: eur("1.20"), lotCode: "L1", expiryDate: "2026-01-09"),
            .init(productID: old.id, quantity: qty(2), unitCost: eur("3.00")),
        ]))
        var archived = old.details
        archived.isArchived = true
        _ = try await store.updateProduct(old.id, archived)
        var sale = SaleDraft(effectiveAt: at(20260102, minutes: 30), customerID: ada.id, note: "table 3", lines: [
            .init(productID: beans.id, quantity: Quantity(thousandths: 1500), unitPrice: eur("12.00"), discount: eur("0.50")),
            .init(productID: cake.id, quantity: qty(2)),
        ], tip: eur("1.00"), paymentMethod: .card)
        sale.payments = [PaymentDraft(method: .cash, amount: eur("10.00"), tendered: eur("20.00")), PaymentDraft(method: .card, amount: eur("16.50"), reference: "T-77")]
        let split = try await store.postSale(sale)
        var withOptions = SaleDraft.Line(productID: latte.id, quantity: qty(2))
        withOptions.options = [groups[0].options[1].id, groups[1].options[0].id]
        let idempotency = try IdempotencyKey(userID: mia.id, key: "sale-1", fingerprint: "f1")
        _ = try await store.postSale(SaleDraft(effectiveAt: at(20260103), lines: [withOptions], soldBy: "mia"), idempotency: idempotency)
        // Entered late: dated before the sales already booked.
        _ = try await store.postPurchase(PurchaseDraft(effectiveAt: at(20260101, minutes: -60), lines: [.init(productID: beans.id, quantity: qty(5), unitCost: eur("7.00"))]))
        _ = try await store.postCustomerReturn(CustomerReturnDraft(effectiveAt: at(20260104), saleID: split.id, lines: [
            .init(saleLineID: split.lines[1].movementID, quantity: qty(1)),
        ]))
        _ = try await store.postSupplierReturn(SupplierReturnDraft(effectiveAt: at(20260104, minutes: 5), supplierID: roastery.id,
                                                                   lines: [.init(productID: beans.id, quantity: qty(1))]))
        _ = try await store.postAdjustment(AdjustmentDraft(effectiveAt: at(20260105), productID: milk.id, quantityChange: qty(-2), reason: .count))
        let doomed = try await store.postAdjustment(AdjustmentDraft(effectiveAt: at(20260105, minutes: 1), productID: cake.id, quantityChange: qty(-1), reason: .count))
        try await store.deleteAdjustment(doomed)
        for day in [20260106, 20260107, 20260108] {
            _ = try await store.postSale(SaleDraft(effectiveAt: at(day), lines: [.init(productID: cake.id, quantity: qty(1)), .init(productID: milk.id, quantity: qty(3))]))
        }
        _ = try await store.parkSale(ParkedSale(label: "Table 4", lines: [withOptions], customerID: ada.id, note: "later"))

        let now = Instant.now.milliseconds
        _ = try await store.openDrawer(float: eur("100.00"), note: "morning", by: "mia", at: now - 120_000)
        _ = try await store.moveCash(amount: eur("-20.00"), reason: "change", by: "mia", at: now - 60_000)
        _ = try await store.closeDrawer(counted: eur("80.00"), by: "owner", at: now - 30_000)

        let sheet = try await store.openStocktake(scope: .category(food.id), note: "weekly")
        _ = try await store.countStocktake(sheet.id, productID: cake.id, entry: .typed(qty(3)))
        _ = try await store.postStocktake(sheet.id, by: "owner")
        let open = try await store.openStocktake(scope: .shelf("A1"), note: "")
        _ = try await store.countStocktake(open.id, productID: beans.id, entry: .scanned)
    }

    /// Every row of every table of an SQLite shop file (AUTOINCREMENT's record included; the derived search index left
    /// out), as text.
    static func sqliteDump(_ path: String) throws -> String {
        let queue = try DatabaseQueue(path: path)
        defer { try? queue.close() }
        return try queue.read { db in
            var text = ""
            for table in try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'productSearch%' ORDER BY name") {
                text += "== \(table)\n"
                // Sorted as text: a copy inserts in key order, the shop inserted in its own.
                text += try Row.fetchAll(db, sql: "SELECT * FROM \"\(table)\"").map(\.description).sorted().joined(separator: "\n") + "\n"
            }
            return text
        }
    }

    /// A rich SQLite shop in a data folder with its two pictures, and a snapshot of its database to copy from.
    static func sqliteShop() async throws -> (store: InventorySQLiteRepository, folder: String, snapshot: String) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("stockroom-copy-\(UUID().uuidString)").path
        let store = try InventorySQLiteRepository.open(dataFolder: folder)
        try await Self.richShop(store)
        let images = (folder as NSString).appendingPathComponent("images")
        try FileManager.default.createDirectory(atPath: images, withIntermediateDirectories: true)
        for (index, name) in Self.pictures.enumerated() {
            FileManager.default.createFile(atPath: (images as NSString).appendingPathComponent(name), contents: Data([0xFF, 0xD8, UInt8(index), 0x42]))
        }
        // Not a picture: never copied.
        FileManager.default.createFile(atPath: (images as NSString).appendingPathComponent("notes.txt"), contents: Data("x".utf8))
        let snapshot = (folder as NSString).appendingPathComponent("snapshot.sqlite")
        try store.backup(to: snapshot)
        return (store, folder, snapshot)
    }

    static func expectProven(_ source: some ShopCopyProof.Shop, _ target: some ShopCopyProof.Shop, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let proof = try await ShopCopyProof.compare(source, target)
        #expect(proof.differences == [], sourceLocation: sourceLocation)
        #expect(proof.compared.count >= 20 && proof.products == 5 && proof.users == 2 && proof.documents >= 10, "\(proof)", sourceLocation: sourceLocation)
    }

    @Test(.enabled(if: postgres))
    func aShopMovesToPostgresAndBackWithEveryRowIdAndSequence() async throws {
        let (sqlite, folder, snapshot) = try await Self.sqliteShop()
        let postgres = try await InventoryPostgresRepository.open(try Backend.postgresLocation(), maximumConnections: 4)
        let copied = try await postgres.copyShop(fromShopFile: snapshot, pictures: (folder as NSString).appendingPathComponent("images"))
        #expect(copied.products == 5 && copied.users == 2 && copied.pictures == 2 && copied.rows.count == 29, "\(copied)")
        try await Self.expectProven(sqlite, postgres)

        // And back, into a new file and pictures folder: the same rows, byte for byte, in every table.
        let back = FileManager.default.temporaryDirectory.appendingPathComponent("stockroom-copy-\(UUID().uuidString)").path
        let pictures = (back as NSString).appendingPathComponent("images")
        try FileManager.default.createDirectory(atPath: back, withIntermediateDirectories: true)
        let returned = try await postgres.writeShopFile(to: (back as NSString).appendingPathComponent("stockroom.sqlite"), pictures: pictures)
        #expect(returned.rows == copied.rows && returned.pictures == 2)
        #expect(try Self.sqliteDump(snapshot) == Self.sqliteDump((back as NSString).appendingPathComponent("stockroom.sqlite")))
        for name in Self.pictures {
            #expect(FileManager.default.contents(atPath: (pictures as NSString).appendingPathComponent(name))
                    == FileManager.default.contents(atPath: (folder as NSString).appendingPathComponent("images/\(name)")))
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: pictures).sorted() == Self.pictures.sorted())
        // The file is the one SQLite's store opens and a restore accepts.
        let contents = try InventorySQLiteRepository.verifyBackup(at: (back as NSString).appendingPathComponent("stockroom.sqlite"),
                                                                  scratchFolder: FileManager.default.temporaryDirectory.path)
        #expect(contents.products == 5 && contents.shopName == "Corner Café")
        let reopened = try InventorySQLiteRepository.open(dataFolder: back)
        try await Self.expectProven(sqlite, reopened)

        // The copied shop keeps working: the next ids and receipt numbers are the ones SQLite gives.
        let next = SaleDraft(effectiveAt: at(20260109), lines: [.init(productID: ProductID(4), quantity: qty(1))])
        let onSQLite = try await sqlite.postSale(next)
        let onPostgres = try await postgres.postSale(next)
        #expect(onPostgres.id == onSQLite.id && onPostgres.receiptNumber == onSQLite.receiptNumber && onPostgres.lines.map(\.movementID) == onSQLite.lines.map(\.movementID))
        #expect(onPostgres.receiptNumber == 6)
        let product = try await postgres.createProduct(ProductDetails(name: "Tea", salePrice: eur("2.00")))
        let same = try await sqlite.createProduct(ProductDetails(name: "Tea", salePrice: eur("2.00")))
        #expect(product.id == same.id)
        // The same figures on both (the new rows' own write instants differ, which the proof rightly reports).
        let (sqliteDaily, postgresDaily) = (try await sqlite.daily(from: 20260101, to: 20260109), try await postgres.daily(from: 20260101, to: 20260109))
        #expect(sqliteDaily == postgresDaily)
        let now = Instant.now
        let (sqliteStock, postgresStock) = (try await sqlite.snapshot(at: now), try await postgres.snapshot(at: now))
        #expect(sqliteStock == postgresStock)
    }

    @Test(.enabled(if: postgres))
    func aTargetThatHoldsAShopIsRefusedAndUnchanged() async throws {
        let (_, folder, snapshot) = try await Self.sqliteShop()
        let postgres = try await InventoryPostgresRepository.open(try Backend.postgresLocation(), maximumConnections: 4)
        _ = try await postgres.createProduct(ProductDetails(name: "Already here"))
        try await expectRefusal(postgres, .conflict, field: "to") {
            _ = try await postgres.copyShop(fromShopFile: snapshot, pictures: (folder as NSString).appendingPathComponent("images"))
        }
        // A copy refused halfway (a value PostgreSQL's column cannot hold) leaves nothing behind either.
        let empty = try await InventoryPostgresRepository.open(try Backend.postgresLocation(), maximumConnections: 4)
        let broken = (folder as NSString).appendingPathComponent("broken.sqlite")
        try FileManager.default.copyItem(atPath: snapshot, toPath: broken)
        let queue = try DatabaseQueue(path: broken)
        // Near the end of the copy: every table before it has been filled when it is refused.
        try await queue.write { db in try db.execute(sql: "UPDATE recipeComponent SET position = 3000000000 WHERE position = 1") }
        try queue.close()
        try await expectRefusal(empty, .invalidValue, field: "from") {
            _ = try await empty.copyShop(fromShopFile: broken, pictures: (folder as NSString).appendingPathComponent("images"))
        }
        #expect(try await empty.products(ProductQuery(includeArchived: true)).total == 0)
    }

    @Test(.enabled(if: postgres))
    func aPostgresBackupRestoresIntoAnotherSchemaKeepingItsPictures() async throws {
        let (sqlite, folder, snapshot) = try await Self.sqliteShop()
        let first = try await InventoryPostgresRepository.open(try Backend.postgresLocation(), maximumConnections: 4)
        try await first.copyShop(fromShopFile: snapshot)
        let file = (folder as NSString).appendingPathComponent("pg-backup.sqlite")
        try await first.backup(to: file)
        #expect((try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? NSNumber)?.intValue == 0o600)

        // Another shop, with pictures of its own: replaced by the backup, its pictures kept.
        let second = try await InventoryPostgresRepository.open(try Backend.postgresLocation(), maximumConnections: 4)
        let other = try await Backend.sqliteMemory.make()
        _ = try await other.createProduct(ProductDetails(name: "Elsewhere"))
        let otherFile = FileManager.default.temporaryDirectory.appendingPathComponent("stockroom-other-\(UUID().uuidString).sqlite").path
        defer { try? FileManager.default.removeItem(atPath: otherFile) }
        try await other.backup(to: otherFile)
        try await second.copyShop(fromShopFile: otherFile, pictures: (folder as NSString).appendingPathComponent("images"))
        try await second.restore(from: file)
        try await Self.expectProven(first, second)
        try await Self.expectProven(sqlite, second)
        #expect(try await second.auditLog(limit: 1, offset: 0).first?.action == "backupRestored")
        let dump = try await second.testOnly_dump()
        let original = try await first.testOnly_dump()
        #expect(!Self.pictureRows(dump).isEmpty && Self.pictureRows(original).isEmpty)
        #expect(BackupConformance.withoutAudit(dump)
                == BackupConformance.withoutAudit(original).replacingOccurrences(of: "== pictureFile\n", with: "== pictureFile\n" + Self.pictureRows(dump)))
        // A restore given pictures replaces them too.
        let empty = FileManager.default.temporaryDirectory.appendingPathComponent("stockroom-none-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
        try await second.restore(from: file, pictures: empty)
        #expect(Self.pictureRows(try await second.testOnly_dump()).isEmpty)
    }

    /// The `pictureFile` rows of a PostgreSQL dump.
    static func pictureRows(_ dump: String) -> String {
        guard let start = dump.range(of: "== pictureFile\n") else { return "" }
        let rest = dump[start.upperBound...]
        return String(rest[..<(rest.range(of: "== ")?.lowerBound ?? rest.endIndex)])
    }

    @Test(.enabled(if: postgres))
    func aFileThatIsNotABackupIsRefusedAndThePostgresShopIsUnchanged() async throws {
        let (_, folder, snapshot) = try await Self.sqliteShop()
        let postgres = try await InventoryPostgresRepository.open(try Backend.postgresLocation(), maximumConnections: 4)
        try await postgres.copyShop(fromShopFile: snapshot, pictures: (folder as NSString).appendingPathComponent("images"))
        let whole = try Data(contentsOf: URL(fileURLWithPath: snapshot))
        var damaged = whole
        for offset in stride(from: 4096, to: min(whole.count, 40_000), by: 97) { damaged[offset] ^= 0x5A }
        let foreign = (folder as NSString).appendingPathComponent("foreign.sqlite")
        let queue = try DatabaseQueue(path: foreign)
        try await queue.write { db in try db.execute(sql: "CREATE TABLE product (id INTEGER PRIMARY KEY, name TEXT); INSERT INTO product VALUES (1, 'x')") }
        try queue.close()
        // A shop without an active admin: a restore would lock everyone out.
        let noAdmin = (folder as NSString).appendingPathComponent("no-admin.sqlite")
        try FileManager.default.copyItem(atPath: snapshot, toPath: noAdmin)
        let admin = try DatabaseQueue(path: noAdmin)
        try await admin.write { db in try db.execute(sql: "UPDATE user SET isActive = 0") }
        try admin.close()
        var files: [(String, String)] = [("foreign", foreign), ("no admin", noAdmin)]
        for (name, data) in [("junk", Data(repeating: 0x41, count: 8192)), ("half", whole.prefix(whole.count / 2)), ("damaged", damaged)] {
            let path = (folder as NSString).appendingPathComponent(name)
            FileManager.default.createFile(atPath: path, contents: data)
            files.append((name, path))
        }
        for (name, path) in files {
            let before = try await postgres.testOnly_dump()
            do {
                try await postgres.restore(from: path)
                Issue.record("\(name) was restored")
            } catch let error as InventoryError {
                #expect(error.field == "file" && !error.userMessage.isEmpty, "\(name): \(error)")
            }
            #expect(try await postgres.testOnly_dump() == before, "\(name) changed the shop")
        }
    }
}
