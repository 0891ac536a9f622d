import InventoryDomain
@testable import InventoryServer
import Testing

/// Problem codes are part of the API: clients match on the strings, so they are pinned here.
@Suite struct ProblemCodeTests {
    @Test func rawValuesAreTheWireStrings() {
        #expect(ProblemCode.allCases.map(\.rawValue).sorted() == [
            "badRequest", "conflict", "crossSite", "csrf", "duplicate", "forbidden", "inUse", "insufficientStock", "internal", "invalidImport",
            "invalidValue", "locked", "lockedOut", "malformedJSON", "missingValue", "nonCanonicalPath", "notFound", "slowDown", "storage",
            "tooLarge", "unauthenticated", "unavailable", "unsupportedMediaType", "wrongCredentials",
        ])
    }

    /// A domain refusal keeps its code's name on the wire.
    @Test(arguments: [InventoryError.Code.invalidValue, .missingValue, .notFound, .duplicate, .insufficientStock, .inUse, .conflict, .storage, .unavailable])
    func domainCodesKeepTheirNames(_ code: InventoryError.Code) {
        #expect(ProblemCode(code).rawValue == code.description)
    }

    /// The database being out of reach is a 503 that tells the client when to ask again, not a 500.
    @Test func unavailableIsA503WithRetryAfter() {
        let problem = Problem(InventoryError(.unavailable, field: "database", "the database cannot be reached now"))
        #expect(problem.status == .serviceUnavailable)
        #expect(problem.code == .unavailable)
    }
}
