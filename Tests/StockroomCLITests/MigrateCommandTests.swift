import Foundation
import InventoryDomain
import InventoryStore
import Testing
@testable import StockroomCLI

/// `stockroom migrate`, in process: a demo café to PostgreSQL and back into a new data folder, proven on each way;
/// a target that holds a shop is refused. Runs when `STOCKROOM_TEST_POSTGRES` names a server (the test command starts one).
@Suite struct MigrateCommandTests {
    static let server = ProcessInfo.processInfo.environment["STOCKROOM_TEST_POSTGRES"]

    @Test(.enabled(if: server != nil))
    func aShopMovesToPostgresAndBackThroughTheCommandLine() async throws {
        let url = try #require(Self.server) + "?schema=m" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "").prefix(20)
        let data = temporaryFolder()
        try await stockroom(["demo", "--data", data, "--days", "10", "--today", "2026-01-10"])
        try await stockroom(["migrate", "--from", data, "--to", url])
        // The target now holds a shop: refused, exit status 1.
        await #expect(throws: (any Error).self) { try await stockroom(["migrate", "--from", data, "--to", url]) }
        let back = temporaryFolder()
        try await stockroom(["migrate", "--from", url, "--to", back])
        let (original, copy) = (try InventorySQLiteRepository.open(dataFolder: data), try InventorySQLiteRepository.open(dataFolder: back))
        let proof = try await ShopCopyProof.compare(original, copy)
        #expect(proof.differences == [] && proof.products == 60, "\(proof.differences)")
        await #expect(throws: (any Error).self) { try await stockroom(["migrate", "--from", url, "--to", back]) }
    }

    /// `stockroom bench --database` runs the core benchmark on PostgreSQL (its raw ceiling in a schema of its own, dropped
    /// afterwards), and refuses a schema that holds a shop.
    @Test(.enabled(if: server != nil))
    func theBenchmarkRunsOnPostgresAndRefusesAShop() async throws {
        let url = try #require(Self.server) + "?schema=b" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "").prefix(20)
        try await stockroom(["bench", "--database", url, "--products", "20", "--sale-lines", "400", "--purchase-lines", "60", "--days", "40", "--busy", "30"])
        await #expect(throws: InventoryError.self) {
            try await stockroom(["bench", "--database", url, "--products", "20", "--sale-lines", "400", "--purchase-lines", "60", "--days", "40", "--busy", "30"])
        }
        #expect(throws: (any Error).self) { try StockroomCommand.parseAsRoot(["bench", "--database", url, "--data", "/tmp/x"]) }
    }
}
