import Foundation
import InventoryDomain
import InventoryStore
import Testing

/// A repository the conformance suite can run on: the protocol plus a dump of every row, to prove refusals change
/// nothing. A new backend (PostgreSQL) conforms and adds a case to ``Backend``.
protocol TestableRepository: InventoryRepository {
    func testOnly_dump() async throws -> String
}

extension InventorySQLiteRepository: TestableRepository {}

/// The backends every conformance test runs on.
enum Backend: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case sqliteMemory, sqliteFile

    var testDescription: String { self.rawValue }

    func make() throws -> any TestableRepository {
        switch self {
        case .sqliteMemory:
            return try InventorySQLiteRepository.inMemory()
        case .sqliteFile:
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("stockroom-test-\(UUID().uuidString)").path
            return try InventorySQLiteRepository.open(dataFolder: folder)
        }
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
