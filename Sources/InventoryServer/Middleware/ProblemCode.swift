import HTTPTypes
import InventoryDomain

/// The stable `code` of a problem document (and the last part of its `type` URL). Clients and tests match on these
/// strings, so a raw value never changes; a new kind of refusal gets a new case (and a line in the API document's
/// `Problem.code`).
public enum ProblemCode: String, Sendable, Hashable, CaseIterable, Codable {
    // Refused input (also the domain's ``InventoryError/Code``s, see ``init(_:)``).
    /// A value is malformed, out of range or of the wrong type.
    case invalidValue
    /// A required value is missing, empty or null.
    case missingValue
    /// No such record, route or picture.
    case notFound
    /// A unique value (barcode, SKU, name) is already taken.
    case duplicate
    /// The record is still referenced and cannot be deleted.
    case inUse
    /// The change conflicts with the current state (or an idempotency key was used for another request).
    case conflict
    /// The change would take stock below zero for a product that does not allow it.
    case insufficientStock
    /// The storage failed (the log has the cause).
    case storage
    /// The database cannot be reached now; nothing was done and the request may be sent again (see `Retry-After`).
    case unavailable

    // Refused requests.
    /// The body is not JSON, or not a JSON object.
    case malformedJSON
    /// The body is not sent as JSON.
    case unsupportedMediaType
    /// The body is larger than the route takes.
    case tooLarge
    /// A CSV import with bad rows (each in `errors`); nothing was written.
    case invalidImport
    /// The request target is not a canonical path.
    case nonCanonicalPath
    /// A request the server cannot read, or an HTTP error without a more precise code.
    case badRequest
    /// Anything unexpected on the server (the log has the details).
    case `internal`

    // Who may call.
    /// Not signed in, or the session or token is no longer valid.
    case unauthenticated
    /// The caller's role lacks the route's permission.
    case forbidden
    /// A browser change without the session's CSRF token.
    case csrf
    /// A browser change from another site.
    case crossSite
    /// The till is locked; a PIN unlocks it.
    case locked
    /// Wrong username, password or PIN.
    case wrongCredentials
    /// Too many wrong tries in a short time.
    case slowDown
    /// Too many wrong tries: locked out for a while.
    case lockedOut

    /// The problem code of a refused domain command. A domain code added later is answered as ``invalidValue``
    /// until it gets a case here.
    public init(_ code: InventoryError.Code) {
        switch code {
        case .invalidValue: self = .invalidValue
        case .missingValue: self = .missingValue
        case .notFound: self = .notFound
        case .duplicate: self = .duplicate
        case .insufficientStock: self = .insufficientStock
        case .inUse: self = .inUse
        case .conflict: self = .conflict
        case .storage: self = .storage
        case .unavailable: self = .unavailable
        default: self = .invalidValue
        }
    }

    /// How a refused domain command with this code is answered: its status and title.
    var domainRefusal: (status: HTTPResponse.Status, title: String) {
        switch self {
        case .notFound: (.notFound, "Not found")
        case .duplicate: (.conflict, "Already taken")
        case .inUse: (.conflict, "Still in use")
        case .conflict: (.conflict, "Conflict")
        case .insufficientStock: (.unprocessableContent, "Not enough stock")
        case .missingValue: (.unprocessableContent, "Missing value")
        case .storage: (.internalServerError, "Internal error")
        case .unavailable: (.serviceUnavailable, "Database unavailable")
        default: (.unprocessableContent, "Invalid value")
        }
    }
}
