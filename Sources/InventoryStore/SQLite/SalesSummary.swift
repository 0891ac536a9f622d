import GRDB
import InventoryDomain

/// Net sales per product and calendar month (shop time zone), one row per product and year, kept in step with
/// every sale and customer-return movement in the same transaction.
package enum SalesSummary {
    /// Adds sold quantity (thousandths; negative for returns) and revenue to the month of `day` (`yyyymmdd`).
    static func add(_ db: Database, productID: Int64, day: Int, quantitySold: Int64, revenue: Int64) throws {
        let month = day / 100 % 100
        guard (1...12).contains(month) else { return }
        let statement = try db.cachedStatement(sql: Self.addSQL[month - 1])
        try statement.execute(arguments: [day / 10_000, productID, quantitySold, revenue])
    }

    /// ``add(_:productID:day:quantitySold:revenue:)``'s statement for each month, written once.
    private static let addSQL = (1...12).map { month in
        """
        INSERT INTO productSalesYear (year, productId, q\(month), r\(month)) VALUES (?, ?, ?, ?)
        ON CONFLICT(year, productId) DO UPDATE SET q\(month) = q\(month) + excluded.q\(month), r\(month) = r\(month) + excluded.r\(month)
        """
    }

    /// Rebuilds the summary from the movements (after the shop's time zone changed).
    static func rebuild(_ db: Database) throws {
        try db.execute(sql: "DELETE FROM productSalesYear")
        let rows = try Row.fetchAll(db, sql: """
            SELECT productId, day / 100 * 100 + 1, -SUM(quantity), SUM(revenue) FROM movement
            WHERE kind IN ('sale', 'customerReturn') GROUP BY productId, day / 100
            """)
        for row in rows {
            try self.add(db, productID: row[0], day: row[1], quantitySold: row[2], revenue: row[3])
        }
    }

    /// SQL summing the months `first…last` (`yyyymm`, inclusive) of rows whose years lie in that range, as
    /// `(quantityExpression, revenueExpression)` (plain SQL: the PostgreSQL store uses it too).
    package static func monthSums(first: Int, last: Int) -> (String, String) {
        var quantityCases: [String] = []
        var revenueCases: [String] = []
        for year in (first / 100)...(last / 100) {
            let from = year == first / 100 ? first % 100 : 1
            let to = year == last / 100 ? last % 100 : 12
            guard from <= to else { continue }
            quantityCases.append("WHEN \(year) THEN " + (from...to).map { "q\($0)" }.joined(separator: " + "))
            revenueCases.append("WHEN \(year) THEN " + (from...to).map { "r\($0)" }.joined(separator: " + "))
        }
        return ("CASE year \(quantityCases.joined(separator: " ")) ELSE 0 END", "CASE year \(revenueCases.joined(separator: " ")) ELSE 0 END")
    }
}
