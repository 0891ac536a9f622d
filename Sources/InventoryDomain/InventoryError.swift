/// An error from the inventory rules: a stable code, the field at fault, a message for the user, and an optional cause.
///
/// Equality compares only ``code`` and ``field``, which makes tests easy to write.
public struct InventoryError: Error, Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible {
    /// A stable error code; new codes can be added without breaking callers.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Wrapped: String, Sendable {
            case invalidValue, missingValue, notFound, duplicate, insufficientStock, inUse, conflict, storage, unavailable
        }
        private let wrapped: Wrapped
        private init(_ wrapped: Wrapped) { self.wrapped = wrapped }

        /// A value is malformed, out of range or over-precise.
        public static let invalidValue = Code(.invalidValue)
        /// A required value is missing or empty.
        public static let missingValue = Code(.missingValue)
        /// A referenced record does not exist.
        public static let notFound = Code(.notFound)
        /// A unique value (barcode, SKU, name) is already taken.
        public static let duplicate = Code(.duplicate)
        /// The operation would take stock below zero for a product that does not allow it.
        public static let insufficientStock = Code(.insufficientStock)
        /// The record is referenced by others and cannot be deleted.
        public static let inUse = Code(.inUse)
        /// The operation conflicts with the current state.
        public static let conflict = Code(.conflict)
        /// The storage failed; details are in ``InventoryError/cause``.
        public static let storage = Code(.storage)
        /// The database cannot be reached now (a PostgreSQL server restarting, a network between): nothing was done,
        /// and the same request may be sent again shortly.
        public static let unavailable = Code(.unavailable)

        /// The code's stable name, e.g. `invalidValue`.
        public var description: String { self.wrapped.rawValue }
    }

    /// What kind of failure this is.
    public var code: Code
    /// The input field at fault (`price`, `lines[2].quantity`), when one is.
    public var field: String?
    /// What happened and how to fix it, safe to show to a user.
    public var userMessage: String
    /// The underlying error, for logs only.
    public var cause: (any Error & Sendable)?
    /// The stored document line the refusal is about when it is not a line of the request itself — for example the
    /// later sale a back-dated sale, or a purchase's deletion, would leave short.
    public var document: AffectedLine?
    /// Whether a manager's approval lifts this refusal (a price or discount below a product's minimum, a sale line beyond
    /// the stock on record): the till then offers to ask for a manager's PIN.
    public var managerMayApprove = false

    /// Creates an error.
    public init(_ code: Code, field: String? = nil, _ userMessage: String, cause: (any Error & Sendable)? = nil) {
        self.code = code
        self.field = field
        self.userMessage = userMessage
        self.cause = cause
    }

    /// The message, prefixed with the field when there is one.
    public var description: String {
        if let field = self.field { return "\(field): \(self.userMessage)" }
        return self.userMessage
    }

    /// The message with the code and the underlying cause, for logs (never shown to users).
    public var debugDescription: String {
        "[\(self.code)] \(self.description)" + (self.cause.map { " — cause: \(String(reflecting: $0))" } ?? "")
    }

    public static func == (lhs: InventoryError, rhs: InventoryError) -> Bool {
        lhs.code == rhs.code && lhs.field == rhs.field
    }

    /// Returns a copy whose field is nested under `prefix` (`lines[1]` + `quantity` → `lines[1].quantity`).
    public func nested(under prefix: String) -> InventoryError {
        var copy = self
        copy.field = self.field.map { "\(prefix).\($0)" } ?? prefix
        return copy
    }
}

/// A line of a stored document that a change would break: which document, which line, on which day, and by how much.
public struct AffectedLine: Sendable, Hashable {
    /// The document's kind (`sale`, `supplierReturn`, `adjustment` …).
    public var kind: MovementKind
    /// The document's id.
    public var documentID: Int64
    /// The line's number, counted from 1 as on the document.
    public var line: Int
    /// The document's date in the shop's time zone (`YYYY-MM-DD`).
    public var date: String
    /// The line's product.
    public var productID: ProductID
    public var productName: String
    /// How much stock the line would be missing.
    public var missing: Quantity

    /// Creates a reference.
    public init(kind: MovementKind, documentID: Int64, line: Int, date: String, productID: ProductID, productName: String, missing: Quantity) {
        self.kind = kind
        self.documentID = documentID
        self.line = line
        self.date = date
        self.productID = productID
        self.productName = productName
        self.missing = missing
    }
}

extension InventoryError: LocalizedError {
    /// The user message with its field, as Foundation and command-line tools show errors.
    public var errorDescription: String? { self.description }
}

import Foundation
