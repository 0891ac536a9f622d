// How the store is tested, and how a new storage backend joins.
//
// `Conformance/` holds one suite per storage protocol — `SettingsConformance`, `CatalogueConformance`,
// `LedgerConformance` (with its nested suites, the books' property test among them), `ReportConformance`,
// `DataTransferConformance`, `StaffConformance` and `BackupConformance`. Every test there takes a ``Backend`` argument
// and reaches the store only through the protocols (those files do not import `InventoryStore`, so they cannot name
// the SQLite type). `SQLite/` holds `SQLiteSpecificTests`: migrations, PRAGMAs, the group-commit queue, file
// permissions and the checks `restore` makes on an SQLite file.
//
// A new backend joins in two steps:
// 1. conform its repository to ``TestableRepository`` — `InventoryRepository` (settings, catalogue, ledger, reports,
//    data transfer), `StaffRepository` and `BackupRepository`, plus `testOnly_dump()`: every row of the shop's tables
//    as text, so a refusal can be shown to change nothing;
// 2. add a case to ``Backend`` whose `make()` answers an empty, migrated shop of its own.
// Every conformance suite then runs on it unchanged; its own internals get a suite beside `SQLiteSpecificTests`.
//
// PostgreSQL (issue 13) is joining aggregate by aggregate: a test already passing on it takes `Backend.ported` (SQLite's
// two plus ``Backend/postgres``), the others still `Backend.allCases` (SQLite's two). When every test takes `ported`,
// `allCases` becomes all three. `postgres` runs against the server `STOCKROOM_TEST_POSTGRES` names (a URL; the test
// command starts a throwaway PostgreSQL 15 and sets it), each test in a schema of its own. Without that variable the
// PostgreSQL runs are left out, unless `STOCKROOM_REQUIRE_POSTGRES` is set (as the test command does), when they fail.

import Foundation
import InventoryDomain
import InventoryPostgres
import InventoryStore
import Testing

/// A repository the conformance suites can run on: every storage protocol plus a dump of every row, to prove
/// refusals change nothing.
protocol TestableRepository: InventoryRepository, StaffRepository, BackupRepository {
    /// Every row of the shop's tables (settings, catalogue, documents, movements, accounts) as text.
    func testOnly_dump() async throws -> String
}

extension InventorySQLiteRepository: TestableRepository {}
extension InventoryPostgresRepository: TestableRepository {}

/// The backends every conformance test runs on.
enum Backend: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case sqliteMemory, sqliteFile, postgres

    /// The backends every test runs on (PostgreSQL joins once every test is ported to it: see `ported`).
    static var allCases: [Backend] { [.sqliteMemory, .sqliteFile] }

    /// The backends of a test ported to PostgreSQL: SQLite's two, and PostgreSQL when a server is given or required.
    static var ported: [Backend] {
        let environment = ProcessInfo.processInfo.environment
        let postgres = environment["STOCKROOM_TEST_POSTGRES"] != nil || environment["STOCKROOM_REQUIRE_POSTGRES"] != nil
        return self.allCases + (postgres ? [.postgres] : [])
    }

    var testDescription: String { self.rawValue }

    /// An empty shop of its own.
    func make() async throws -> any TestableRepository {
        switch self {
        case .sqliteMemory:
            return try InventorySQLiteRepository.inMemory()
        case .sqliteFile:
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("stockroom-test-\(UUID().uuidString)").path
            return try InventorySQLiteRepository.open(dataFolder: folder)
        case .postgres:
            return try await InventoryPostgresRepository.open(try Self.postgresLocation(), maximumConnections: 4)
        }
    }

    /// The test server's database, in a new schema of its own (so tests running at once never see each other's rows).
    static func postgresLocation() throws -> PostgresLocation {
        guard let url = ProcessInfo.processInfo.environment["STOCKROOM_TEST_POSTGRES"] else {
            throw InventoryError(.storage, field: "database", "STOCKROOM_REQUIRE_POSTGRES is set but STOCKROOM_TEST_POSTGRES names no server")
        }
        let schema = "t" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "").prefix(20)
        return try PostgresLocation(url: url).inSchema(String(schema))
    }
}

/// Noon UTC of a `yyyymmdd` day plus minutes.
func at(_ day: Int, minutes: Int = 0) -> Instant {
    ShopCalendar(timeZone: TimeZone(identifier: "UTC") ?? .gmt).startOfDay(day).adding(seconds: Int64(12 * 3600 + minutes * 60))
}

func eur(_ text: String) -> Money {
    (try? Money.parse(text, currency: .eur, field: "test")) ?? Money(minorUnits: -999_999)
}

func qty(_ units: Int64) -> Quantity { Quantity(units) }

/// Expects `body` to throw an ``InventoryError`` with `code` (and `field` when given) and the database to be unchanged.
func expectRefusal(
    _ repository: any TestableRepository, _ code: InventoryError.Code, field: String? = nil,
    sourceLocation: SourceLocation = #_sourceLocation, _ body: () async throws -> Void
) async throws {
    let before = try await repository.testOnly_dump()
    do {
        try await body()
        Issue.record("expected a refusal with \(code)", sourceLocation: sourceLocation)
    } catch let error as InventoryError {
        #expect(error.code == code, "\(error)", sourceLocation: sourceLocation)
        if let field { #expect(error.field == field, "\(error)", sourceLocation: sourceLocation) }
        #expect(!error.userMessage.isEmpty, sourceLocation: sourceLocation)
    }
    let after = try await repository.testOnly_dump()
    #expect(before == after, "the database changed after a refusal", sourceLocation: sourceLocation)
}
