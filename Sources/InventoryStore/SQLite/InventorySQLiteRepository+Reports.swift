import Foundation
import GRDB
import InventoryDomain

// MARK: - ReportRepository

extension InventorySQLiteRepository {
    /// Stock at a moment: for each product, one indexed seek to its last movement at or before it.
    public func snapshot(at: Instant) async throws -> InventorySnapshot {
        try await self.read { db in
            let rows = try Row.fetchAll(db, sql: """
                SELECT p.id, p.name, m.quantityAfter, m.valueAfter, m.averageCostAfter
                FROM product p JOIN movement m ON m.id = (
                    SELECT id FROM movement WHERE productId = p.id AND effectiveAt <= ?
                    ORDER BY effectiveAt DESC, documentId DESC, lineNo DESC LIMIT 1)
                ORDER BY p.id
                """, arguments: [at.milliseconds])
            return InventorySnapshot(at: at, lines: rows.map {
                InventorySnapshot.Line(productID: ProductID($0[0]), name: $0[1], quantity: Quantity(thousandths: $0[2]),
                                       value: Money(minorUnits: $0[3]), averageCost: UnitCost(scaled: $0[4]))
            })
        }
    }

    public func daily(from: Int, to: Int) async throws -> [DailyPerformance] {
        guard from <= to else { throw InventoryError(.invalidValue, field: "from", "must not be after 'to'") }
        return try await self.read { db in
            let calendar = try Self.loadSettings(db).calendar
            var byDay: [Int: DailyPerformance] = [:]
            for day in calendar.days(from: from, through: to) { byDay[day] = DailyPerformance(day: day) }
            // The covering index is ordered by time: bound the scan by the days' instants (with a day of margin for
            // the zone), then keep the exact days.
            let start = calendar.startOfDay(calendar.addingDays(-1, to: from)).milliseconds
            let end = calendar.startOfDay(calendar.addingDays(2, to: to)).milliseconds
            let lines = try Row.fetchAll(db, sql: """
                SELECT day, kind, SUM(revenue), SUM(discount), SUM(tax), SUM(valueChange) FROM movement
                WHERE kind IN ('sale', 'customerReturn', 'consumption') AND effectiveAt >= ? AND effectiveAt < ? AND day BETWEEN ? AND ?
                GROUP BY day, kind
                """, arguments: [start, end, from, to])
            for row in lines {
                let day: Int = row[0]
                guard var figures = byDay[day] else { continue }
                figures.add(kind: MovementKind(rawValue: row[1]) ?? .customerReturn, revenue: Money(minorUnits: row[2]), discount: Money(minorUnits: row[3]),
                            tax: Money(minorUnits: row[4]), valueChange: Money(minorUnits: row[5]))
                byDay[day] = figures
            }
            let headers = try Row.fetchAll(db, sql: """
                SELECT day, COUNT(*), SUM(tip) FROM document WHERE kind = 'sale' AND day BETWEEN ? AND ? GROUP BY day
                """, arguments: [from, to])
            for row in headers {
                let day: Int = row[0]
                guard var figures = byDay[day] else { continue }
                figures.salesCount = row[1]
                figures.tips = Money(minorUnits: row[2])
                byDay[day] = figures
            }
            return byDay.values.sorted { $0.day < $1.day }
        }
    }

    public func taxes(from: Int, to: Int) async throws -> [SaleRecord.TaxShare] {
        guard from <= to else { throw InventoryError(.invalidValue, field: "from", "must not be after 'to'") }
        return try await self.read { db in
            let calendar = try Self.loadSettings(db).calendar
            let start = calendar.startOfDay(calendar.addingDays(-1, to: from)).milliseconds
            let end = calendar.startOfDay(calendar.addingDays(2, to: to)).milliseconds
            return try Row.fetchAll(db, sql: """
                SELECT taxRate, SUM(revenue), SUM(tax) FROM movement
                WHERE kind IN ('sale', 'customerReturn') AND effectiveAt >= ? AND effectiveAt < ? AND day BETWEEN ? AND ?
                GROUP BY taxRate ORDER BY taxRate
                """, arguments: [start, end, from, to]).map {
                SaleRecord.TaxShare(rate: Percent(hundredths: $0[0]), revenue: Money(minorUnits: $0[1]), tax: Money(minorUnits: $0[2]))
            }
        }
    }

    public func topProducts(from: Instant, to: Instant, by metric: TopProductMetric, limit: Int) async throws -> [TopProduct] {
        guard from <= to else { throw InventoryError(.invalidValue, field: "from", "must not be after 'to'") }
        guard (1...1000).contains(limit) else { throw InventoryError(.invalidValue, field: "limit", "must be between 1 and 1000") }
        return try await self.read { db in
            let calendar = try Self.loadSettings(db).calendar
            let order = metric == .quantity ? "t.quantity DESC, t.revenue DESC" : "t.revenue DESC, t.quantity DESC"
            // Whole calendar months inside the range come from the monthly summary; the partial months at either
            // end from the sale lines themselves.
            let fromMilliseconds = from.milliseconds, toMilliseconds = to.milliseconds
            var parts: [String] = []
            var arguments: StatementArguments = []
            let lines = "SELECT productId, -quantity AS quantity, revenue FROM movement WHERE kind IN ('sale', 'customerReturn') AND effectiveAt >= ? AND effectiveAt <= ?"
            if let whole = WholeMonths(from: from, to: to, calendar: calendar) {
                let (quantity, revenue) = SalesSummary.monthSums(first: whole.first, last: whole.last)
                parts.append("SELECT productId, \(quantity) AS quantity, \(revenue) AS revenue FROM productSalesYear WHERE year BETWEEN ? AND ?")
                arguments += [whole.first / 100, whole.last / 100]
                parts.append(lines)
                arguments += [fromMilliseconds, whole.start.milliseconds - 1]
                parts.append(lines)
                arguments += [whole.end.milliseconds, toMilliseconds]
            } else {
                parts.append(lines)
                arguments += [fromMilliseconds, toMilliseconds]
            }
            let rows = try Row.fetchAll(db, sql: """
                SELECT t.productId, p.name, t.quantity, t.revenue FROM (
                    SELECT productId, SUM(quantity) AS quantity, SUM(revenue) AS revenue
                    FROM (\(parts.joined(separator: " UNION ALL "))) GROUP BY productId
                    HAVING SUM(quantity) != 0 OR SUM(revenue) != 0) t
                JOIN product p ON p.id = t.productId
                ORDER BY \(order), t.productId LIMIT ?
                """, arguments: arguments + [limit])
            return rows.map {
                TopProduct(productID: ProductID($0[0]), name: $0[1], quantity: Quantity(thousandths: $0[2]), revenue: Money(minorUnits: $0[3]))
            }
        }
    }

    public func lowStock() async throws -> [LowStockItem] {
        try await self.read { db in
            let shopDefault = try Self.loadSettings(db).lowStockDefault
            let rows = try Row.fetchAll(db, sql: """
                SELECT p.id, p.name, p.quantity, p.lowStockThreshold, c.lowStockThreshold, p.unit, p.tracksStock
                FROM product p LEFT JOIN category c ON c.id = p.categoryId
                WHERE p.isArchived = 0 AND \(Self.stockStatusSQL(shopDefault: shopDefault)) IN (?, ?)
                ORDER BY p.quantity <= 0 DESC, p.quantity, p.name COLLATE NOCASE, p.id
                """, arguments: [StockStatus.low.rawValue, StockStatus.out.rawValue])
            return rows.map {
                let quantity = Quantity(thousandths: $0[2])
                let own = ($0[3] as Int64?).map(Quantity.init(thousandths:)), category = ($0[4] as Int64?).map(Quantity.init(thousandths:))
                return LowStockItem(
                    productID: ProductID($0[0]), name: $0[1], quantity: quantity,
                    threshold: StockStatus.effectiveThreshold(productThreshold: own, categoryThreshold: category, shopDefault: shopDefault),
                    status: StockStatus.of(quantity: quantity, tracksStock: $0[6], productThreshold: own, categoryThreshold: category,
                                           shopDefault: shopDefault),
                    unit: $0[5])
            }
        }
    }

    public func valuation() async throws -> [CategoryValuation] {
        try await self.read { db in
            try Row.fetchAll(db, sql: """
                SELECT c.id, COALESCE(c.name, 'Uncategorised'), COUNT(p.id), COALESCE(SUM(p.quantity), 0), COALESCE(SUM(p.value), 0)
                FROM product p LEFT JOIN category c ON c.id = p.categoryId
                WHERE p.tracksStock = 1 AND (p.isArchived = 0 OR p.quantity != 0)
                GROUP BY c.id ORDER BY c.id IS NULL, c.name COLLATE NOCASE
                """).map {
                CategoryValuation(categoryID: ($0[0] as Int64?).map(CategoryID.init(rawValue:)), name: $0[1], productCount: $0[2],
                                  quantity: Quantity(thousandths: $0[3]), value: Money(minorUnits: $0[4]))
            }
        }
    }

    public func expiringLots(through day: String) async throws -> [ExpiringLot] {
        guard ShopCalendar.dayNumber(isoDate: day) != nil else {
            throw InventoryError(.invalidValue, field: "through", "'\(day)' is not a date (write YYYY-MM-DD)")
        }
        return try await self.read { db in
            // First in, first out: a lot is still on the shelf for the part of the stock not covered by later receipts.
            try Row.fetchAll(db, sql: """
                SELECT * FROM (
                    SELECT m.productId, p.name, m.lotCode, m.expiryDate, m.quantity,
                        MIN(m.quantity, p.quantity - COALESCE((
                            SELECT SUM(later.quantity) FROM movement later
                            WHERE later.productId = m.productId AND later.quantity > 0
                              AND (later.effectiveAt, later.documentId, later.lineNo) > (m.effectiveAt, m.documentId, m.lineNo)), 0)) AS remaining
                    FROM movement m JOIN product p ON p.id = m.productId
                    WHERE m.expiryDate IS NOT NULL AND m.expiryDate <= ? AND p.quantity > 0 AND p.isArchived = 0)
                WHERE remaining > 0
                ORDER BY expiryDate, name COLLATE NOCASE, productId
                """, arguments: [day]).map {
                ExpiringLot(productID: ProductID($0[0]), name: $0[1], lotCode: $0[2], expiryDate: $0[3],
                            purchasedQuantity: Quantity(thousandths: $0[4]), stockQuantity: Quantity(thousandths: $0[5]))
            }
        }
    }

    public func allMovements() async throws -> [StockMovement] {
        try await self.read { db in
            try Row.fetchAll(db, sql: """
                SELECT \(Self.movementColumns) FROM movement m JOIN document d ON d.id = m.documentId
                ORDER BY m.productId, m.effectiveAt, m.documentId, m.lineNo
                """).map(Self.movement)
        }
    }

    public func saleFacts() async throws -> [SaleFact] {
        try await self.read { db in
            try Row.fetchAll(db, sql: "SELECT effectiveAt, tip FROM document WHERE kind = 'sale' ORDER BY id").map {
                SaleFact(effectiveAt: $0[0], tip: Money(minorUnits: $0[1]))
            }
        }
    }
}
