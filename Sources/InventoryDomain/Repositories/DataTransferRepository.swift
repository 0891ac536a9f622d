import Foundation

/// What a CSV export contains.
public enum ExportKind: String, Sendable, CaseIterable {
    case products, suppliers, customers, purchases, sales, movements
}

/// CSV import and export.
public protocol DataTransferRepository: Sendable {
    /// Applies a validated product import in one transaction; returns how many products were created and updated.
    func importProducts(_ plan: ProductImport) async throws -> (created: Int, updated: Int)
    /// A CSV export (RFC 4180, UTF-8, header row, formula cells neutralised).
    func exportCSV(_ kind: ExportKind) async throws -> String
}
