import Foundation
import InventoryDomain
import Testing

/// Whole-shop copies (``BackupRepository``): a backup restores to exactly the shop it was taken from — books,
/// reports and accounts — and the shop goes on from there; a file that is not a backup is refused and changes
/// nothing. (The checks an SQLite backup file must pass are in `SQLiteSpecificTests.Restore`.)
@Suite struct BackupConformance {
    /// Everything a restore must bring back, as values the protocols read: every row, the reports and the accounts.
    static func shopState(_ store: any TestableRepository) async throws -> [String] {
        [
            try await store.testOnly_dump(),
            "\(try await store.snapshot(at: at(20260110)))",
            "\(try await store.daily(from: 20260101, to: 20260110))",
            "\(try await store.valuation())",
            "\(try await store.users())",
            "\(try await store.settings())",
        ]
    }

    /// A dump without the audit log: a restore records itself there (``ShopActivity/Kind/backupRestored``), in the
    /// restored books (SQLite's dump leaves the audit log out; PostgreSQL's has it).
    static func withoutAudit(_ dump: String) -> String {
        var kept: [Substring] = []
        var inAudit = false
        for line in dump.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("== ") { inAudit = line == "== auditLog" }
            if !inAudit { kept.append(line) }
        }
        return kept.joined(separator: "\n")
    }

    @Test(arguments: Backend.ported)
    func aBackupRestoresAndTheShopGoesOn(backend: Backend) async throws {
        let store = try await backend.make()
        let product = try await Fixtures.liveShop(store)
        try await store.saveSettings(ShopSettings(shopName: "Corner Café", timeZoneIdentifier: "Europe/Berlin", lockMinutes: 12))
        let path = (store.scratchFolder as NSString).appendingPathComponent("good-\(UUID().uuidString).sqlite")
        defer { try? FileManager.default.removeItem(atPath: path) }
        try await store.backup(to: path)
        #expect(FileManager.default.fileExists(atPath: path))
        // The copy holds the whole shop: only the server's user may read it.
        #expect((try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        let snapshot = try await store.testOnly_dump()
        let state = try await Self.shopState(store)

        // The shop moves on: a sale, a category, a new account and other settings.
        _ = try await store.postSale(SaleDraft(effectiveAt: at(20260103), lines: [.init(productID: product.id, quantity: qty(1), unitPrice: eur("2.50"))]))
        _ = try await store.createCategory(Category(id: CategoryID(0), name: "Cakes"))
        _ = try await store.createUser(StaffAccount(id: UserID(0), username: "mia", displayName: "Mia", role: .staff, passwordHash: "x", pinHash: nil))
        try await store.saveSettings(ShopSettings(shopName: "Elsewhere"))
        #expect(try await store.testOnly_dump() != snapshot)

        try await store.restore(from: path)
        #expect(Self.withoutAudit(try await store.testOnly_dump()) == Self.withoutAudit(snapshot))
        #expect(try await Self.shopState(store).map(Self.withoutAudit) == state.map(Self.withoutAudit))
        #expect(try await store.auditLog(limit: 1, offset: 0).first?.action == "backupRestored")
        #expect(try await store.settings().shopName == "Corner Café")
        #expect(try await store.user(username: "mia") == nil)
        // The restored shop takes new documents where the copy left off.
        _ = try await store.postSale(SaleDraft(effectiveAt: at(20260104), lines: [.init(productID: product.id, quantity: qty(1), unitPrice: eur("2.50"))]))
        #expect(try await store.product(product.id).stock.quantity == qty(7))
    }

    /// A product's stock and its value sum many lines, each within a line's limit: a shop whose stock is worth more
    /// than one line may be still restores from its own backup (found by schemathesis: the automatic backup's check
    /// refused such a shop).
    @Test(arguments: Backend.ported)
    func aStockWorthMoreThanOneLineMayBeStillRestores(backend: Backend) async throws {
        let store = try await backend.make()
        _ = try await Fixtures.liveShop(store)
        let gold = try await store.createProduct(ProductDetails(name: "Gold bar", salePrice: eur("9000000.00")))
        for day in [20260101, 20260102] {
            _ = try await store.postPurchase(PurchaseDraft(effectiveAt: at(day), lines: [
                .init(productID: gold.id, quantity: Quantity(thousandths: 999_000_000), unitCost: eur("0.01")),
                .init(productID: gold.id, quantity: qty(1), unitCost: eur("9000000.00")),
            ]))
        }
        let stock = try await store.product(gold.id).stock
        #expect(stock.value > Money.maximum && stock.quantity > Quantity.maximum)
        let path = (store.scratchFolder as NSString).appendingPathComponent("rich-\(UUID().uuidString).sqlite")
        defer { try? FileManager.default.removeItem(atPath: path) }
        try await store.backup(to: path)
        let snapshot = try await store.testOnly_dump()
        try await store.restore(from: path)
        #expect(Self.withoutAudit(try await store.testOnly_dump()) == Self.withoutAudit(snapshot))
    }

    @Test(arguments: Backend.ported)
    func aFileThatIsNotABackupIsRefusedAndChangesNothing(backend: Backend) async throws {
        let store = try await backend.make()
        try await Fixtures.liveShop(store)
        try await store.saveSettings(ShopSettings(shopName: "Corner Café", lockMinutes: 12))
        let state = try await Self.shopState(store)
        let folder = store.scratchFolder
        var files: [String: Data] = [
            "junk": Data(repeating: 0x41, count: 8192),
            "empty": Data(),
            "text": Data("name,sku\nBeans,B1\n".utf8),
        ]
        let whole = (folder as NSString).appendingPathComponent("whole-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(atPath: whole) }
        try await store.backup(to: whole)
        let data = try Data(contentsOf: URL(fileURLWithPath: whole))
        files["half a backup"] = data.prefix(data.count / 2)
        for (name, contents) in files.sorted(by: { $0.key < $1.key }) {
            let path = (folder as NSString).appendingPathComponent("\(name.replacingOccurrences(of: " ", with: "-"))-\(UUID().uuidString)")
            FileManager.default.createFile(atPath: path, contents: contents)
            defer { try? FileManager.default.removeItem(atPath: path) }
            do {
                try await store.restore(from: path)
                Issue.record("\(name) was restored")
            } catch let error as InventoryError {
                #expect(error.code == .invalidValue, "\(name): \(error)")
                #expect(error.field == "file", "\(name): \(error)")
                #expect(!error.userMessage.isEmpty)
            }
            #expect(try await Self.shopState(store) == state, "\(name) changed the shop")
        }
        // Nor is a file that is not there.
        let missing = (folder as NSString).appendingPathComponent("missing-\(UUID().uuidString)")
        let error = await #expect(throws: InventoryError.self) { try await store.restore(from: missing) }
        #expect(error?.field == "file")
        #expect(try await Self.shopState(store) == state)
    }

    @Test(arguments: Backend.ported)
    func theScratchFolderAndTheSizeOfTheDatabase(backend: Backend) async throws {
        let store = try await backend.make()
        var isFolder: ObjCBool = false
        #expect(FileManager.default.fileExists(atPath: store.scratchFolder, isDirectory: &isFolder) && isFolder.boolValue)
        #expect(FileManager.default.isWritableFile(atPath: store.scratchFolder))
        let empty = try await store.databaseBytes()
        #expect(empty >= 0)
        try await Fixtures.liveShop(store)
        for index in 0..<200 { _ = try await store.createProduct(ProductDetails(name: "Product \(index) " + String(repeating: "x", count: 100))) }
        // The size never shrinks as the shop grows (an in-memory shop may report 0 throughout).
        #expect(try await store.databaseBytes() >= empty)
    }
}
