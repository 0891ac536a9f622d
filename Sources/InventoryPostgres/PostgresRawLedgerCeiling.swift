import Foundation
import InventoryDomain
import PostgresNIO

/// The ceiling of the books' write path on a PostgreSQL server: the three statements a one-line sale writes (its
/// document, its movement, the product's balance), one round trip each on one connection, on a schema of its own with
/// the store's tables, indexes and constraints, and none of the store's work around them (no pricing, costing, checks,
/// audit, month totals, receipt numbers or async hops beyond PostgresNIO's own).
///
/// `stockroom bench --database` runs it in the same run as the real thing, beside the store's batch posting and one
/// sale per transaction, so that the ratio between the two means something on a shared, noisy machine (issue 13:
/// batch posting ≥ 50 % of it in transactions of a day's lines). `scripts/bench-postgres.py` measures the
/// concurrent case with `pgbench` instead.
public enum PostgresRawLedgerCeiling {
    /// How long `sales` one-line sales take, `perTransaction` to a transaction, on `location`'s server in a new schema
    /// (created, and dropped afterwards) holding `products` products.
    public static func time(location: PostgresLocation, sales: Int, perTransaction: Int, products: Int = 1_000) async throws -> Duration {
        precondition(sales > 0 && perTransaction > 0 && products > 0)
        let schema = "stockroom_ceiling_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "").prefix(12)
        let repository = try await InventoryPostgresRepository.open(location.inSchema(schema), maximumConnections: 1)
        let logger = repository.logger
        do {
            let elapsed = try await repository.lease(timeout: .seconds(60)) { connection -> Duration in
                try await connection.execute("""
                    INSERT INTO product (name, searchKey, unit, salePrice, taxRate, tracksStock, allowsNegativeStock, iconEmoji, createdAt, updatedAt)
                    SELECT 'Ceiling ' || g, 'ceiling ' || g, 'pcs', 250, 0, true, true, '', now(), now() FROM generate_series(1, \(products)) g
                    """, logger: logger)
                let ids = try await connection.query("SELECT id FROM product ORDER BY id", logger: logger).collect(Int64.self)
                var quantity = [Int64](repeating: 0, count: ids.count)
                var value = [Int64](repeating: 0, count: ids.count)
                let now = Instant.now
                let clock = ContinuousClock()
                let start = clock.now
                var done = 0
                while done < sales {
                    let count = min(perTransaction, sales - done)
                    try await connection.execute("BEGIN", logger: logger)
                    for offset in 0..<count {
                        let sale = Int64(done + offset + 1)
                        let index = Int(sale % Int64(ids.count))
                        let at = Instant(milliseconds: now.milliseconds + sale)
                        let day = Int(at.milliseconds / 86_400_000)
                        let document = try await connection.query("""
                            INSERT INTO document (kind, effectiveAt, day, recordedAt, receiptNumber, paymentMethod)
                            VALUES ('sale', \(at), \(day), \(now), \(sale), 'card') RETURNING id
                            """, logger: logger).collect(Int64.self).first ?? 0
                        quantity[index] -= 1000
                        value[index] -= 70
                        try await connection.execute("""
                            INSERT INTO movement (documentId, kind, lineNo, productId, effectiveAt, day, recordedAt, effect, quantity, unitAmount,
                                discount, taxRate, revenue, tax, valueChange, costAdjustment, quantityAfter, valueAfter, averageCostAfter, beyondStock)
                            VALUES (\(document), 'sale', 0, \(ids[index]), \(at), \(day), \(now), 'issue', -1000, 250, 0, 0, 250, 0, -70, 0,
                                \(quantity[index]), \(value[index]), 700000, false)
                            """, logger: logger)
                        try await connection.execute("""
                            UPDATE product SET quantity = \(quantity[index]), value = \(value[index]), averageCost = 700000, lastEffectiveAt = \(at),
                                lastSequence = \(document), lastLineNo = 0
                            WHERE id = \(ids[index])
                            """, logger: logger)
                    }
                    try await connection.execute("COMMIT", logger: logger)
                    done += count
                }
                return clock.now - start
            }
            try await Self.drop(schema, repository)
            return elapsed
        } catch {
            try? await Self.drop(schema, repository)
            throw InventoryPostgresRepository.translate(error)
        }
    }

    private static func drop(_ schema: String, _ repository: InventoryPostgresRepository) async throws {
        _ = try await repository.lease { connection in
            try await connection.execute(PostgresQuery(unsafeSQL: "DROP SCHEMA \(schema) CASCADE"), logger: repository.logger)
        }
    }
}
