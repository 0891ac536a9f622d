import Foundation

/// Read-only figures folded from the books.
public protocol ReportRepository: Sendable {
    /// Stock of every product at a moment.
    func snapshot(at: Instant) async throws -> InventorySnapshot
    /// Sales figures per day from `from` through `to` (`yyyymmdd`, shop time zone).
    func daily(from: Int, to: Int) async throws -> [DailyPerformance]
    /// Net, tax and gross per tax rate of the sales and customer returns from `from` through `to` (`yyyymmdd`, shop time
    /// zone; returns count negative), lowest rate first; rates without sales are left out.
    func taxes(from: Int, to: Int) async throws -> [SaleRecord.TaxShare]
    /// Best sellers between two moments.
    func topProducts(from: Instant, to: Instant, by metric: TopProductMetric, limit: Int) async throws -> [TopProduct]
    /// Products at or below their threshold (and out of stock).
    func lowStock() async throws -> [LowStockItem]
    /// What a reorder starts from (``ReorderRule``): every product that tracks stock and is not archived, with its
    /// effective low-stock threshold and its units sold within `window` (sale lines and recipe consumption, less
    /// customer returns), and every supplier with its lead time.
    func reorderFacts(soldWithin window: ClosedRange<Instant>) async throws -> ReorderFacts
    /// Stock value by category.
    func valuation() async throws -> [CategoryValuation]
    /// Lots expiring on or before a day that, first in, first out, may still be in stock.
    func expiringLots(through day: String) async throws -> [ExpiringLot]
    /// Every movement in ledger order (exports, oracles).
    func allMovements() async throws -> [StockMovement]
    /// Every sale header's facts (oracles).
    func saleFacts() async throws -> [SaleFact]
}
