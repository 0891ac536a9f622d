import Foundation

/// What a CSV export contains.
public enum ExportKind: String, Sendable, CaseIterable {
    case products, suppliers, customers, purchases, sales, movements

    /// Whether its rows are dated, so a ``DateRange`` can choose them (documents and movements); the others are lists
    /// as they stand now.
    public var isDated: Bool {
        switch self {
        case .purchases, .sales, .movements: true
        case .products, .suppliers, .customers: false
        }
    }

    /// Checks that `range` can apply to this export.
    /// - Throws: ``InventoryError`` naming `from` when a range is given for an export without dates.
    public func check(_ range: DateRange) throws {
        guard self.isDated || range.isAll else {
            throw InventoryError(.invalidValue, field: "from",
                                 "the \(self.rawValue) export lists them as they stand now; a date range applies to purchases, sales and movements")
        }
    }
}

/// CSV import and export.
public protocol DataTransferRepository: Sendable {
    /// Applies a validated product import in one transaction; returns how many products were created and updated.
    func importProducts(_ plan: ProductImport) async throws -> (created: Int, updated: Int)
    /// A CSV export (RFC 4180, UTF-8, header row, formula cells neutralised, times in the shop's time zone), of the
    /// rows dated inside `range` for a dated export (``ExportKind/isDated``).
    /// - Throws: ``InventoryError`` naming `from` for a range on an export without dates (``ExportKind/check(_:)``).
    func exportCSV(_ kind: ExportKind, range: DateRange) async throws -> String
}

extension DataTransferRepository {
    /// A whole CSV export.
    public func exportCSV(_ kind: ExportKind) async throws -> String { try await self.exportCSV(kind, range: .all) }
}
