import Foundation
import GRDB
import InventoryDomain
@testable import InventoryStore
import Synchronization
import Testing

/// The reads that run on the calling thread (``InventorySQLiteRepository/readHere(_:)``: a product by barcode, the
/// caller's session, the settings) beside the ones that run on GRDB's queues (searches, reports).
extension SQLiteSpecificTests {
    /// Many barcode lookups and session reads, which block a thread of the Swift concurrency pool while they wait for a
    /// reader, at the same time as many searches, which hold a reader while they read: every one answers. A read that
    /// held its reader while it waited for a pool thread (GRDB's own `async` read does, between taking the reader and
    /// running the body) would wait for ever behind the lookups blocking those threads, and the lookups for it.
    ///
    /// Such a wait blocks every thread of the pool, so no time limit of the test library (which needs one) could end
    /// it: a watchdog on a thread of its own stops the run with a message after two minutes instead.
    @Test func lookupsOnTheCallingThreadAndSearchesOnGRDBsQueuesAllAnswer() async throws {
        let finished = Atomic(false)
        Thread.detachNewThread {
            let deadline = Date().addingTimeInterval(120)
            while Date() < deadline {
                if finished.load(ordering: .acquiring) { return }
                Thread.sleep(forTimeInterval: 0.1)
            }
            fatalError("lookupsOnTheCallingThreadAndSearchesOnGRDBsQueuesAllAnswer: the reads waited on each other for two minutes (deadlock)")
        }
        defer { finished.store(true, ordering: .releasing) }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("stockroom-readhere-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let store = try InventorySQLiteRepository.open(dataFolder: folder)
        let codes = ["4006381333931", "5012345678900", "9780201379624", "4000417025005", "0012345678905"]
        for (index, code) in codes.enumerated() {
            _ = try await store.createProduct(ProductDetails(name: "Oat milk \(index)", barcode: code))
        }
        for index in 0..<300 { _ = try await store.createProduct(ProductDetails(name: "Rice milk \(index)")) }
        _ = try await store.createFirstAdmin(StaffAccount(id: UserID(0), username: "owner", displayName: "", role: .admin, passwordHash: "x", pinHash: nil))
        let owner = try #require(try await store.users().first)
        _ = try await store.createSession(userID: owner.id, kind: .api, name: "till", tokenHash: "till", csrfToken: "c", expiresAt: nil)

        for round in 0..<5 {
            let answered = try await withThrowingTaskGroup(of: Int.self) { group in
                for index in 0..<120 {
                    switch index % 3 {
                    case 0:
                        group.addTask { try await store.products(ProductQuery(search: "milk \(index % 50)", limit: 20)).products.isEmpty ? 0 : 1 }
                    case 1:
                        group.addTask { try await store.product(barcode: codes[index % codes.count]) == nil ? 0 : 1 }
                    default:
                        group.addTask {
                            store.sessionCache.invalidate()  // so each asks the database
                            return try await store.session(tokenHash: "till") == nil ? 0 : 1
                        }
                    }
                }
                return try await group.reduce(0, +)
            }
            #expect(answered == 120, "round \(round): every search, lookup and session read found what it looked for")
        }
        // The reads on the calling thread answer what the database holds, and nothing when it holds nothing.
        #expect(try await store.product(barcode: "4006381333931")?.name == "Oat milk 0")
        #expect(try await store.product(barcode: "4012345678901") == nil)
        #expect(try await store.session(tokenHash: "nobody") == nil)
    }

    /// The barcode lookup reads the product from the statement's current row (``StatementColumns``); every other read
    /// of a product reads a GRDB `Row`: both give the same product, with every optional column set and with none, with
    /// stock and pictures, and a UPC-A found by its EAN-13 spelling.
    @Test func aProductReadFromTheStatementIsTheProductReadFromARow() async throws {
        let store = try InventorySQLiteRepository.inMemory()
        let tea = try await store.createCategory(Category(id: CategoryID(0), name: "Tea", lowStockThreshold: qty(3)))
        let supplier = try await store.createSupplier(Contact(id: SupplierID(0), name: "Teahouse"))
        let full = try await store.createProduct(
            ProductDetails(name: "Crème de thé", sku: "TEA-1", barcode: "4006381333931", categoryID: tea.id, unit: "g", salePrice: eur("4.50"),
                           minimumSalePrice: eur("4.00"), taxRate: Percent(hundredths: 700), lowStockThreshold: qty(5), allowsNegativeStock: true,
                           iconEmoji: "🍵", preferredSupplierID: supplier.id, supplierCode: "T-77", packSize: qty(12), description: "Loose leaf",
                           shelf: "B2"),
            openingStock: OpeningStock(quantity: qty(7), unitCost: eur("1.25")))
        let bare = try await store.createProduct(ProductDetails(name: "Plain", barcode: "012345678905", tracksStock: false))
        _ = try await store.addPicture(full.id, name: "0123456789abcdef01234567.jpg")
        _ = try await store.addPicture(full.id, name: "89abcdef0123456789abcdef.png")
        for (product, codes) in [(full, ["4006381333931"]), (bare, ["012345678905", "0012345678905"])] {
            let expected = try await store.product(product.id)
            for code in codes {
                #expect(try await store.product(barcode: code) == expected, "\(code)")
            }
        }
        let read = try await store.product(full.id)
        #expect(read.pictures.count == 2 && read.details.supplierCode == "T-77" && read.stock.quantity == qty(7))
    }
}

