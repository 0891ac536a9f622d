import Foundation
import InventoryDomain
import PostgresNIO

// What is not ported to PostgreSQL yet (issue 13): every requirement below answers `notYetPorted`, naming itself. This
// file shrinks as aggregates are ported, and the command line offers no PostgreSQL database while it exists. Nothing
// here is reachable from `stockroom serve`.

extension InventoryPostgresRepository {
    /// The refusal of a requirement not yet ported: `storage`, naming the function.
    static func notYetPorted(_ function: String) -> InventoryError {
        InventoryError(.storage, field: "database", "\(function) is not available on PostgreSQL yet (issue 13)")
    }
}

extension InventoryPostgresRepository: CatalogueRepository {
    public func createProduct(_ details: ProductDetails) async throws -> Product { throw Self.notYetPorted(#function) }
    public func updateProduct(_ id: ProductID, _ details: ProductDetails) async throws -> Product { throw Self.notYetPorted(#function) }
    public func updateProduct(_ id: ProductID, applying patch: ProductPatch) async throws -> Product { throw Self.notYetPorted(#function) }
    public func deleteProduct(_ id: ProductID) async throws { throw Self.notYetPorted(#function) }
    public func product(_ id: ProductID) async throws -> Product { throw Self.notYetPorted(#function) }
    public func product(barcode: String) async throws -> Product? { throw Self.notYetPorted(#function) }
    public func product(sku: String) async throws -> Product? { throw Self.notYetPorted(#function) }
    public func products(_ query: ProductQuery) async throws -> (products: [Product], total: Int) { throw Self.notYetPorted(#function) }
    public func shelves() async throws -> [Shelf] { throw Self.notYetPorted(#function) }
    public func movements(productID: ProductID) async throws -> [StockMovement] { throw Self.notYetPorted(#function) }
    public func optionGroups(of productID: ProductID) async throws -> [ModifierGroup] { throw Self.notYetPorted(#function) }
    public func allOptionGroups() async throws -> [ProductID: [ModifierGroup]] { throw Self.notYetPorted(#function) }
    public func setOptionGroups(_ groups: [ModifierGroup], of productID: ProductID) async throws -> [ModifierGroup] { throw Self.notYetPorted(#function) }
    public func recipe(of productID: ProductID) async throws -> [RecipeComponent] { throw Self.notYetPorted(#function) }
    public func setRecipe(_ components: [RecipeComponent], of productID: ProductID) async throws -> [RecipeComponent] { throw Self.notYetPorted(#function) }
    public func createProduct(_ details: ProductDetails, pictures: [String]) async throws -> Product { throw Self.notYetPorted(#function) }
    public func changePictures(of id: ProductID, _ command: PictureCommand) async throws -> PictureOutcome { throw Self.notYetPorted(#function) }
    public func unusedPictures(among names: [String]) async throws -> [String] { throw Self.notYetPorted(#function) }
}


extension InventoryPostgresRepository: DataTransferRepository {
    public func importProducts(_ plan: ProductImport) async throws -> (created: Int, updated: Int) { throw Self.notYetPorted(#function) }
}


extension InventoryPostgresRepository: LedgerRepository {
    public func createProduct(_ details: ProductDetails, openingStock: OpeningStock) async throws -> Product { throw Self.notYetPorted(#function) }
}

extension InventoryPostgresRepository: StaffRepository {
    public func deleteSessions(userID: UserID, except keptID: Int64?) async throws -> Int { throw Self.notYetPorted(#function) }
    public func userCount() async throws -> Int { throw Self.notYetPorted(#function) }
    public func createFirstAdmin(_ account: StaffAccount) async throws -> StaffAccount { throw Self.notYetPorted(#function) }
    public func createUser(_ account: StaffAccount) async throws -> StaffAccount { throw Self.notYetPorted(#function) }
    public func updateUser(_ account: StaffAccount) async throws -> StaffAccount { throw Self.notYetPorted(#function) }
    public func users() async throws -> [StaffAccount] { throw Self.notYetPorted(#function) }
    public func user(_ id: UserID) async throws -> StaffAccount { throw Self.notYetPorted(#function) }
    public func user(username: String) async throws -> StaffAccount? { throw Self.notYetPorted(#function) }
    public func createSession(userID: UserID, kind: StaffSession.Kind, name: String, tokenHash: String, csrfToken: String, expiresAt: Int64?) async throws -> Int64 { throw Self.notYetPorted(#function) }
    public func session(tokenHash: String) async throws -> (StaffSession, StaffAccount)? { throw Self.notYetPorted(#function) }
    public func updateSession(id: Int64, userID: UserID, lastSeenAt: Int64, isLocked: Bool) async throws { throw Self.notYetPorted(#function) }
    public func deleteSession(id: Int64) async throws { throw Self.notYetPorted(#function) }
    public func sessions(kind: StaffSession.Kind) async throws -> [StaffSession] { throw Self.notYetPorted(#function) }
    public func throttle(key: String) async throws -> LoginThrottle { throw Self.notYetPorted(#function) }
    public func saveThrottle(key: String, _ throttle: LoginThrottle?) async throws { throw Self.notYetPorted(#function) }
    public func reserveAttempt(keys: [String], at now: Int64) async throws -> LoginThrottle.Decision { throw Self.notYetPorted(#function) }
    public func settleAttempt(clear: [String], release: [String]) async throws { throw Self.notYetPorted(#function) }
    public func clockIn(_ userID: UserID, at: Int64) async throws -> Shift { throw Self.notYetPorted(#function) }
    public func clockOut(_ userID: UserID, at: Int64) async throws -> Shift { throw Self.notYetPorted(#function) }
    public func shifts(userID: UserID?, from: Int64, to: Int64) async throws -> [Shift] { throw Self.notYetPorted(#function) }
    public func recordAudit(_ activity: ShopActivity) async throws { throw Self.notYetPorted(#function) }
    public func auditLog(limit: Int, offset: Int) async throws -> [AuditEntry] { throw Self.notYetPorted(#function) }
    public func receivesAlerts(_ userID: UserID) async throws -> Bool { throw Self.notYetPorted(#function) }
    public func setReceivesAlerts(_ userID: UserID, _ on: Bool) async throws { throw Self.notYetPorted(#function) }
    public func activityFeed(_ query: ActivityFeedQuery) async throws -> [AuditEntry] { throw Self.notYetPorted(#function) }
}



extension InventoryPostgresRepository {
    // Purchases that create products inline (products are being ported).
    func insertProduct(_ connection: PostgresConnection, _ details: ProductDetails) async throws -> ProductID { throw Self.notYetPorted(#function) }
    func optionGroups(_ connection: PostgresConnection, _ id: ProductID) async throws -> [ModifierGroup] { throw Self.notYetPorted(#function) }
    func recipe(_ connection: PostgresConnection, _ id: ProductID) async throws -> [RecipeComponent] { throw Self.notYetPorted(#function) }

    // SettingsRepository: re-pricing converts every product's prices (products are not ported yet).
    public func reprice(pricesIncludeTax: Bool) async throws -> Int { throw Self.notYetPorted(#function) }
}

extension InventoryPostgresRepository: ActivitySource, InventoryRepository {}

extension InventoryPostgresRepository: BackupRepository {
    // The portable backup file from one consistent snapshot (issue 13, point 5) is not built yet.
    public func backup(to path: String) throws { throw Self.notYetPorted(#function) }
    public func restore(from path: String) throws { throw Self.notYetPorted(#function) }
    /// Not measured yet (the restore cap relative to it is not reachable either).
    public func databaseBytes() -> Int64 { 0 }
    public var scratchFolder: String { FileManager.default.temporaryDirectory.path }
}
