import InventoryDomain
@testable import InventoryServer
import Testing

/// Problem codes are part of the API: clients match on the strings, so they are pinned here.
@Suite struct ProblemCodeTests {
    @Test func rawValuesAreTheWireStrings() {
        #expect(ProblemCode.allCases.map(\.rawValue).sorted() == [
            "badRequest", "conflict", "crossSite", "csrf", "duplicate", "forbidden", "inUse", "insufficientStock", "internal", "invalidImport",
            "invalidValue", "locked", "lockedOut", "malformedJSON", "missingValue", "nonCanonicalPath", "notFound", "slowDown", "storage",
            "tooLarge", "unauthenticated", "unsupportedMediaType", "wrongCredentials",
        ])
    }

    /// A domain refusal keeps its code's name on the wire.
    @Test(arguments: [InventoryError.Code.invalidValue, .missingValue, .notFound, .duplicate, .insufficientStock, .inUse, .conflict, .storage])
    func domainCodesKeepTheirNames(_ code: InventoryError.Code) {
        #expect(ProblemCode(code).rawValue == code.description)
    }
}
