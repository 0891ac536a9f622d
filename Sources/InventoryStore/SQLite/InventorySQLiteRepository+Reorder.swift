import Foundation
import GRDB
import InventoryDomain

// MARK: - ReportRepository: what a reorder starts from

extension InventorySQLiteRepository {
    public func reorderFacts(soldWithin window: ClosedRange<Instant>) async throws -> ReorderFacts {
        try await self.read { db in
            let shopDefault = try Self.loadSettings(db).lowStockDefault
            // Sales and recipe consumption are stored as negative quantities, customer returns as positive ones: the
            // negated sum is what left the shelf net of what came back.
            let rows = try Row.fetchAll(db, sql: """
                SELECT p.id, p.name, p.unit, p.sku, p.supplierCode, p.preferredSupplierId, p.packSize, p.quantity,
                    p.lowStockThreshold AS own, c.lowStockThreshold AS category, p.averageCost,
                    COALESCE((SELECT -SUM(m.quantity) FROM movement m
                              WHERE m.productId = p.id AND m.kind IN ('sale', 'consumption', 'customerReturn')
                                AND m.effectiveAt >= ? AND m.effectiveAt <= ?), 0) AS sold
                FROM product p LEFT JOIN category c ON c.id = p.categoryId
                WHERE p.tracksStock = 1 AND p.isArchived = 0
                ORDER BY p.id
                """, arguments: [window.lowerBound.milliseconds, window.upperBound.milliseconds])
            let candidates = rows.map { row in
                ReorderCandidate(
                    productID: ProductID(row["id"]), name: row["name"], unit: row["unit"], sku: row["sku"], supplierCode: row["supplierCode"],
                    supplierID: (row["preferredSupplierId"] as Int64?).map(SupplierID.init(rawValue:)),
                    packSize: Quantity(thousandths: row["packSize"]), stock: Quantity(thousandths: row["quantity"]),
                    threshold: StockStatus.effectiveThreshold(
                        productThreshold: (row["own"] as Int64?).map(Quantity.init(thousandths:)),
                        categoryThreshold: (row["category"] as Int64?).map(Quantity.init(thousandths:)), shopDefault: shopDefault),
                    averageCost: UnitCost(scaled: row["averageCost"]), sold: Quantity(thousandths: row["sold"]))
            }
            let suppliers = try Row.fetchAll(db, sql: "SELECT id, name, leadTimeDays FROM supplier ORDER BY id").map {
                ReorderSupplier(id: SupplierID($0["id"]), name: $0["name"], leadTimeDays: $0["leadTimeDays"])
            }
            return ReorderFacts(candidates: candidates, suppliers: suppliers)
        }
    }
}
