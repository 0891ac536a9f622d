import Foundation
import InventoryDomain
import InventoryStore
import PostgresNIO

// Reports on PostgreSQL (``ReportRepository``): the SQLite store's `+Reports.swift`, query by query, with the same
// indexes behind each and the shared SQL for the low-stock rule and the monthly summary.

extension InventoryPostgresRepository: ReportRepository {
    /// Stock at a moment: for each product, one indexed seek to its last movement at or before it.
    public func snapshot(at: Instant) async throws -> InventorySnapshot {
        try await self.read { connection in
            var lines: [InventorySnapshot.Line] = []
            for try await (id, name, quantity, value, averageCost) in try await connection.query("""
                SELECT p.id, p.name, m.quantityAfter, m.valueAfter, m.averageCostAfter
                FROM product p JOIN LATERAL (
                    SELECT quantityAfter, valueAfter, averageCostAfter FROM movement WHERE productId = p.id AND effectiveAt <= \(at)
                    ORDER BY effectiveAt DESC, documentId DESC, lineNo DESC LIMIT 1) m ON true
                ORDER BY p.id
                """, logger: self.logger).decode((Int64, String, Int64, Int64, Int64).self) {
                lines.append(InventorySnapshot.Line(productID: ProductID(id), name: name, quantity: Quantity(thousandths: quantity),
                                                   value: Money(minorUnits: value), averageCost: UnitCost(scaled: averageCost)))
            }
            return InventorySnapshot(at: at, lines: lines)
        }
    }

    public func daily(from: Int, to: Int) async throws -> [DailyPerformance] {
        guard from <= to else { throw InventoryError(.invalidValue, field: "from", "must not be after 'to'") }
        return try await self.read { connection in
            let calendar = try await Self.loadSettings(connection, logger: self.logger).calendar
            var byDay: [Int: DailyPerformance] = [:]
            for day in calendar.days(from: from, through: to) { byDay[day] = DailyPerformance(day: day) }
            // The covering index is ordered by time: bound the scan by the days' instants (with a day of margin for
            // the zone), then keep the exact days.
            let start = calendar.startOfDay(calendar.addingDays(-1, to: from))
            let end = calendar.startOfDay(calendar.addingDays(2, to: to))
            for try await (day, kind, revenueSum, discountSum, taxSum, valueChangeSum) in try await connection.query("""
                SELECT day, kind, SUM(revenue)::bigint, SUM(discount)::bigint, SUM(tax)::bigint, SUM(valueChange)::bigint FROM movement
                WHERE kind IN ('sale', 'customerReturn', 'consumption') AND effectiveAt >= \(start) AND effectiveAt < \(end)
                  AND day BETWEEN \(from) AND \(to)
                GROUP BY day, kind
                """, logger: self.logger).decode((Int, String, Int64, Int64, Int64, Int64).self) {
                guard var figures = byDay[day] else { continue }
                figures.add(kind: MovementKind(rawValue: kind) ?? .customerReturn, revenue: Money(minorUnits: revenueSum),
                            discount: Money(minorUnits: discountSum), tax: Money(minorUnits: taxSum), valueChange: Money(minorUnits: valueChangeSum))
                byDay[day] = figures
            }
            for try await (day, count, tips) in try await connection.query("""
                SELECT day, COUNT(*), SUM(tip)::bigint FROM document WHERE kind = 'sale' AND day BETWEEN \(from) AND \(to) GROUP BY day
                """, logger: self.logger).decode((Int, Int, Int64).self) {
                guard var figures = byDay[day] else { continue }
                figures.salesCount = count
                figures.tips = Money(minorUnits: tips)
                byDay[day] = figures
            }
            return byDay.values.sorted { $0.day < $1.day }
        }
    }

    public func taxes(from: Int, to: Int) async throws -> [SaleRecord.TaxShare] {
        guard from <= to else { throw InventoryError(.invalidValue, field: "from", "must not be after 'to'") }
        return try await self.read { connection in
            let calendar = try await Self.loadSettings(connection, logger: self.logger).calendar
            let start = calendar.startOfDay(calendar.addingDays(-1, to: from))
            let end = calendar.startOfDay(calendar.addingDays(2, to: to))
            var shares: [SaleRecord.TaxShare] = []
            for try await (rate, revenue, tax) in try await connection.query("""
                SELECT taxRate, SUM(revenue)::bigint, SUM(tax)::bigint FROM movement
                WHERE kind IN ('sale', 'customerReturn') AND effectiveAt >= \(start) AND effectiveAt < \(end) AND day BETWEEN \(from) AND \(to)
                GROUP BY taxRate ORDER BY taxRate
                """, logger: self.logger).decode((Int64, Int64, Int64).self) {
                shares.append(SaleRecord.TaxShare(rate: Percent(hundredths: rate), revenue: Money(minorUnits: revenue), tax: Money(minorUnits: tax)))
            }
            return shares
        }
    }

    public func topProducts(from: Instant, to: Instant, by metric: TopProductMetric, limit: Int) async throws -> [TopProduct] {
        guard from <= to else { throw InventoryError(.invalidValue, field: "from", "must not be after 'to'") }
        guard (1...1000).contains(limit) else { throw InventoryError(.invalidValue, field: "limit", "must be between 1 and 1000") }
        return try await self.read { connection in
            let calendar = try await Self.loadSettings(connection, logger: self.logger).calendar
            let order = metric == .quantity ? "t.quantity DESC, t.revenue DESC" : "t.revenue DESC, t.quantity DESC"
            // Whole calendar months inside the range come from the monthly summary; the partial months at either end
            // from the sale lines themselves.
            var binds = PostgresBindings()
            func lines(_ start: Instant, _ end: Instant) -> String {
                binds.append(start)
                binds.append(end)
                return """
                    SELECT productId, -quantity AS quantity, revenue FROM movement WHERE kind IN ('sale', 'customerReturn')
                    AND effectiveAt >= $\(binds.count - 1) AND effectiveAt <= $\(binds.count)
                    """
            }
            var parts: [String] = []
            if let whole = WholeMonths(from: from, to: to, calendar: calendar) {
                let (quantity, revenue) = SalesSummary.monthSums(first: whole.first, last: whole.last)
                parts.append("""
                    SELECT productId, \(quantity) AS quantity, \(revenue) AS revenue FROM productSalesYear
                    WHERE year BETWEEN \(whole.first / 100) AND \(whole.last / 100)
                    """)
                parts.append(lines(from, Instant(milliseconds: whole.start.milliseconds - 1)))
                parts.append(lines(whole.end, to))
            } else {
                parts.append(lines(from, to))
            }
            binds.append(limit)
            var top: [TopProduct] = []
            for try await (id, name, quantity, revenue) in try await connection.query(PostgresQuery(unsafeSQL: """
                SELECT t.productId, p.name, t.quantity, t.revenue FROM (
                    SELECT productId, SUM(quantity)::bigint AS quantity, SUM(revenue)::bigint AS revenue
                    FROM (\(parts.joined(separator: " UNION ALL "))) u GROUP BY productId
                    HAVING SUM(quantity) != 0 OR SUM(revenue) != 0) t
                JOIN product p ON p.id = t.productId
                ORDER BY \(order), t.productId LIMIT $\(binds.count)
                """, binds: binds), logger: self.logger).decode((Int64, String, Int64, Int64).self) {
                top.append(TopProduct(productID: ProductID(id), name: name, quantity: Quantity(thousandths: quantity), revenue: Money(minorUnits: revenue)))
            }
            return top
        }
    }

    public func lowStock() async throws -> [LowStockItem] {
        try await self.read { connection in
            let shopDefault = try await Self.loadSettings(connection, logger: self.logger).lowStockDefault
            var items: [LowStockItem] = []
            for try await (id, name, stock, ownThreshold, categoryThreshold, unit, tracksStock) in try await connection.query(PostgresQuery(unsafeSQL: """
                SELECT p.id, p.name, p.quantity, p.lowStockThreshold, c.lowStockThreshold, p.unit, p.tracksStock
                FROM product p LEFT JOIN category c ON c.id = p.categoryId
                WHERE NOT p.isArchived AND \(InventorySQLiteRepository.stockStatusSQL(shopDefault: shopDefault))
                      IN ('\(StockStatus.low.rawValue)', '\(StockStatus.out.rawValue)')
                ORDER BY p.quantity <= 0 DESC, p.quantity, lower(p.name), p.id
                """), logger: self.logger).decode((Int64, String, Int64, Int64?, Int64?, String, Bool).self) {
                let quantity = Quantity(thousandths: stock)
                let own = ownThreshold.map(Quantity.init(thousandths:)), category = categoryThreshold.map(Quantity.init(thousandths:))
                items.append(LowStockItem(
                    productID: ProductID(id), name: name, quantity: quantity,
                    threshold: StockStatus.effectiveThreshold(productThreshold: own, categoryThreshold: category, shopDefault: shopDefault),
                    status: StockStatus.of(quantity: quantity, tracksStock: tracksStock, productThreshold: own, categoryThreshold: category,
                                           shopDefault: shopDefault),
                    unit: unit))
            }
            return items
        }
    }

    public func valuation() async throws -> [CategoryValuation] {
        try await self.read { connection in
            var rows: [CategoryValuation] = []
            for try await (id, name, count, quantity, value) in try await connection.query("""
                SELECT c.id, COALESCE(c.name, 'Uncategorised'), COUNT(p.id), COALESCE(SUM(p.quantity), 0)::bigint, COALESCE(SUM(p.value), 0)::bigint
                FROM product p LEFT JOIN category c ON c.id = p.categoryId
                WHERE p.tracksStock AND (NOT p.isArchived OR p.quantity != 0)
                GROUP BY c.id, c.name ORDER BY c.id IS NULL, lower(c.name)
                """, logger: self.logger).decode((Int64?, String, Int, Int64, Int64).self) {
                rows.append(CategoryValuation(categoryID: id.map(CategoryID.init(rawValue:)), name: name, productCount: count,
                                              quantity: Quantity(thousandths: quantity), value: Money(minorUnits: value)))
            }
            return rows
        }
    }

    public func expiringLots(through day: String) async throws -> [ExpiringLot] {
        guard ShopCalendar.dayNumber(isoDate: day) != nil else {
            throw InventoryError(.invalidValue, field: "through", "'\(day)' is not a date (write YYYY-MM-DD)")
        }
        return try await self.read { connection in
            var lots: [ExpiringLot] = []
            // First in, first out: a lot is still on the shelf for the part of the stock not covered by later receipts.
            for try await (id, name, lotCode, expiryDate, purchased, remaining) in try await connection.query("""
                SELECT * FROM (
                    SELECT m.productId, p.name, m.lotCode, m.expiryDate, m.quantity,
                        LEAST(m.quantity, p.quantity - COALESCE((
                            SELECT SUM(later.quantity) FROM movement later
                            WHERE later.productId = m.productId AND later.quantity > 0
                              AND (later.effectiveAt, later.documentId, later.lineNo) > (m.effectiveAt, m.documentId, m.lineNo)), 0))::bigint AS remaining
                    FROM movement m JOIN product p ON p.id = m.productId
                    WHERE m.expiryDate IS NOT NULL AND m.expiryDate <= \(day) AND p.quantity > 0 AND NOT p.isArchived) lots
                WHERE remaining > 0
                ORDER BY expiryDate, lower(name), productId
                """, logger: self.logger).decode((Int64, String, String?, String, Int64, Int64).self) {
                lots.append(ExpiringLot(productID: ProductID(id), name: name, lotCode: lotCode, expiryDate: expiryDate,
                                        purchasedQuantity: Quantity(thousandths: purchased), stockQuantity: Quantity(thousandths: remaining)))
            }
            return lots
        }
    }

    public func allMovements() async throws -> [StockMovement] {
        try await self.read { connection in
            try await self.movements(connection, where: "TRUE", order: "m.productId, m.effectiveAt, m.documentId, m.lineNo")
        }
    }

    /// Movements (with their document's reason) a trusted condition selects, in `order`.
    func movements(_ connection: PostgresConnection, where condition: String, order: String) async throws -> [StockMovement] {
        typealias Row = (Int64, Int64, String, Int64, Instant, Int, Instant, Int64, Int64, Int64, Int64, Int64, Int64, Int64, Int64, Int64, String?, Int64, Int64, Bool)
        var movements: [StockMovement] = []
        for try await row in try await connection.query(PostgresQuery(unsafeSQL: """
            SELECT m.id, m.productId, m.kind, m.documentId, m.effectiveAt, m.lineNo, m.recordedAt, m.quantity, m.unitAmount, m.revenue,
                   m.tax, m.valueChange, m.costAdjustment, m.quantityAfter, m.valueAfter, m.averageCostAfter, d.reason, m.discount, m.taxRate, m.beyondStock
            FROM movement m JOIN document d ON d.id = m.documentId WHERE \(condition) ORDER BY \(order)
            """), logger: self.logger).decode(Row.self) {
            movements.append(StockMovement(
                id: MovementID(row.0), productID: ProductID(row.1), kind: MovementKind(rawValue: row.2) ?? .adjustment,
                documentID: row.3, position: LedgerPosition(effectiveAt: row.4.milliseconds, sequence: row.3, lineNo: row.5),
                recordedAt: row.6.milliseconds, quantity: Quantity(thousandths: row.7), unitAmount: Money(minorUnits: row.8),
                revenue: Money(minorUnits: row.9), tax: Money(minorUnits: row.10), valueChange: Money(minorUnits: row.11),
                costAdjustment: Money(minorUnits: row.12),
                balance: LedgerBalance(quantity: Quantity(thousandths: row.13), value: Money(minorUnits: row.14), averageCost: UnitCost(scaled: row.15)),
                reason: row.16.flatMap(AdjustmentReason.init(rawValue:)), discount: Money(minorUnits: row.17),
                taxRate: Percent(hundredths: row.18), beyondStock: row.19))
        }
        return movements
    }

    public func reorderFacts(soldWithin window: ClosedRange<Instant>) async throws -> ReorderFacts {
        try await self.read { connection in
            let shopDefault = try await Self.loadSettings(connection, logger: self.logger).lowStockDefault
            var candidates: [ReorderCandidate] = []
            typealias Row = (Int64, String, String, String?, String?, Int64?, Int64, Int64, Int64?, Int64?, Int64, Int64)
            // Sales and recipe consumption are stored as negative quantities, customer returns as positive ones: the
            // negated sum is what left the shelf net of what came back.
            for try await row in try await connection.query("""
                SELECT p.id, p.name, p.unit, p.sku, p.supplierCode, p.preferredSupplierId, p.packSize, p.quantity,
                    p.lowStockThreshold, c.lowStockThreshold, p.averageCost,
                    COALESCE((SELECT -SUM(m.quantity) FROM movement m
                              WHERE m.productId = p.id AND m.kind IN ('sale', 'consumption', 'customerReturn')
                                AND m.effectiveAt >= \(window.lowerBound) AND m.effectiveAt <= \(window.upperBound)), 0)::bigint
                FROM product p LEFT JOIN category c ON c.id = p.categoryId
                WHERE p.tracksStock AND NOT p.isArchived
                ORDER BY p.id
                """, logger: self.logger).decode(Row.self) {
                candidates.append(ReorderCandidate(
                    productID: ProductID(row.0), name: row.1, unit: row.2, sku: row.3, supplierCode: row.4,
                    supplierID: row.5.map(SupplierID.init(rawValue:)), packSize: Quantity(thousandths: row.6), stock: Quantity(thousandths: row.7),
                    threshold: StockStatus.effectiveThreshold(
                        productThreshold: row.8.map(Quantity.init(thousandths:)), categoryThreshold: row.9.map(Quantity.init(thousandths:)),
                        shopDefault: shopDefault),
                    averageCost: UnitCost(scaled: row.10), sold: Quantity(thousandths: row.11)))
            }
            var suppliers: [ReorderSupplier] = []
            for try await (id, name, leadTime) in try await connection.query("SELECT id, name, leadTimeDays FROM supplier ORDER BY id", logger: self.logger)
                .decode((Int64, String, Int).self) {
                suppliers.append(ReorderSupplier(id: SupplierID(id), name: name, leadTimeDays: leadTime))
            }
            return ReorderFacts(candidates: candidates, suppliers: suppliers)
        }
    }

    public func saleFacts() async throws -> [SaleFact] {
        try await self.read { connection in
            var facts: [SaleFact] = []
            for try await (effectiveAt, tip) in try await connection.query(
                "SELECT effectiveAt, tip FROM document WHERE kind = 'sale' ORDER BY id", logger: self.logger
            ).decode((Instant, Int64).self) {
                facts.append(SaleFact(effectiveAt: effectiveAt.milliseconds, tip: Money(minorUnits: tip)))
            }
            return facts
        }
    }
}
