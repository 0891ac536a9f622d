import Foundation
import GRDB
import InventoryDomain

/// Sale lines sold beyond the stock on record with a manager's approval, and their review.
extension InventorySQLiteRepository {
    public func soldBeyondStock(includeReviewed: Bool) async throws -> [SoldBeyondStock] {
        try await self.read { db in try Self.soldBeyondStock(db, sale: nil, includeReviewed: includeReviewed) }
    }

    public func markBeyondStockReviewed(_ saleID: SaleID, by manager: String) async throws -> [SoldBeyondStock] {
        try await self.write { db, _, log in
            guard try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM document WHERE id = ? AND kind = 'sale'", arguments: [saleID.rawValue]) == 1 else {
                throw InventoryError(.notFound, field: "id", "sale \(saleID) does not exist")
            }
            let lines = try Self.soldBeyondStock(db, sale: saleID, includeReviewed: true)
            guard !lines.isEmpty else {
                throw InventoryError(.invalidValue, field: "id", "sale \(saleID) sold nothing beyond the stock on record")
            }
            try db.execute(sql: "UPDATE document SET stockReviewedBy = ?, stockReviewedAt = ? WHERE id = ?",
                           arguments: [manager, Self.now, saleID.rawValue])
            try log.recordDocument(.changed, .sale, id: saleID.rawValue)
            return try Self.soldBeyondStock(db, sale: saleID, includeReviewed: true)
        }
    }

    /// The lines of `sale` (or of every sale) still below zero after an approved sale line, newest first.
    static func soldBeyondStock(_ db: Database, sale: SaleID?, includeReviewed: Bool) throws -> [SoldBeyondStock] {
        var conditions = ["m.beyondStock = 1", "m.quantityAfter < 0"]
        var arguments: StatementArguments = []
        if let sale {
            conditions.append("m.documentId = ?")
            arguments += [sale.rawValue]
        }
        if !includeReviewed { conditions.append("d.stockReviewedBy = ''") }
        return try Row.fetchAll(db, sql: """
            SELECT d.id, d.receiptNumber, d.effectiveAt, m.id, m.productId, p.name, m.quantity, m.quantityAfter, p.quantity,
                   d.soldBy, d.stockApprovedBy, d.stockReviewedBy, d.stockReviewedAt
            FROM movement m JOIN document d ON d.id = m.documentId JOIN product p ON p.id = m.productId
            WHERE \(conditions.joined(separator: " AND "))
            ORDER BY d.effectiveAt DESC, d.id DESC, m.lineNo
            """, arguments: arguments).map { row in
            SoldBeyondStock(
                saleID: SaleID(row[0]), receiptNumber: row[1] ?? 0, effectiveAt: Instant(milliseconds: row[2]), movementID: MovementID(row[3]),
                productID: ProductID(row[4]), productName: row[5], quantity: Quantity(thousandths: row[6]).magnitude,
                stockAfter: Quantity(thousandths: row[7]), stockNow: Quantity(thousandths: row[8]), soldBy: row[9] ?? "",
                approvedBy: row[10], reviewedBy: row[11], reviewedAt: (row[12] as Int64?).map(Instant.init(milliseconds:)))
        }
    }
}
