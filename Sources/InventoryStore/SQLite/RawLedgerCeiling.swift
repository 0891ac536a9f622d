import Foundation
import GRDB
import InventoryDomain

/// The ceiling of the books' write path on this machine: the three statements a one-line sale writes (its document,
/// its movement, the product's balance), prepared once and run on a file with the store's schema, indexes, triggers and
/// settings (WAL, `synchronous=FULL`), with none of the store's work around them (no pricing, costing, checks, audit,
/// group commit or async hops).
///
/// `stockroom bench` and `scripts/bench-wrk.sh` run it in the same run as the real thing, so that the ratio between the
/// two means something on a shared, noisy machine (issue 15: batch posting ≥ 50 % of it in transactions of a day's
/// lines, durable sales over HTTP ≥ its rate at one sale per transaction).
public enum RawLedgerCeiling {
    /// How long `sales` one-line sales take, `perTransaction` to a transaction, on a new database in `folder` (created,
    /// and removed afterwards) holding `products` products.
    public static func time(folder: String, sales: Int, perTransaction: Int, products: Int = 1_000) throws -> Duration {
        precondition(sales > 0 && perTransaction > 0 && products > 0)
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // A pool, as the store opens its file: WAL (a queue would keep SQLite's rollback journal).
        let queue = try DatabasePool(path: (folder as NSString).appendingPathComponent("ceiling.sqlite"),
                                     configuration: InventorySQLiteRepository.configuration())
        try SQLiteMigrations.migrator.migrate(queue)
        let now = Instant.now.milliseconds
        try queue.write { db in
            let insert = try db.makeStatement(sql: """
                INSERT INTO product (name, searchKey, unit, salePrice, taxRate, tracksStock, allowsNegativeStock, iconEmoji, createdAt, updatedAt)
                VALUES (?, ?, 'pcs', 250, 0, 1, 1, '', ?, ?)
                """)
            for index in 1...products { try insert.execute(arguments: ["Ceiling \(index)", "ceiling \(index)", now, now]) }
        }
        var quantity = [Int64](repeating: 0, count: products + 1)
        var value = [Int64](repeating: 0, count: products + 1)
        let clock = ContinuousClock()
        let start = clock.now
        var done = 0
        while done < sales {
            let count = min(perTransaction, sales - done)
            try queue.writeWithoutTransaction { db in try db.inTransaction(.immediate) {
                let document = try db.cachedStatement(sql: """
                    INSERT INTO document (kind, effectiveAt, day, recordedAt, receiptNumber, paymentMethod) VALUES ('sale', ?, ?, ?, ?, 'card')
                    """)
                let movement = try db.cachedStatement(sql: """
                    INSERT INTO movement (documentId, kind, lineNo, productId, effectiveAt, day, recordedAt, effect, quantity, unitAmount,
                        discount, taxRate, revenue, tax, lotCode, expiryDate, sourceMovementId, valueChange, costAdjustment,
                        quantityAfter, valueAfter, averageCostAfter, beyondStock)
                    VALUES (?, 'sale', 0, ?, ?, ?, ?, 'issue', -1000, 250, 0, 0, 250, 0, NULL, NULL, NULL, -70, 0, ?, ?, 700000, 0)
                    """)
                let balance = try db.cachedStatement(sql: """
                    UPDATE product SET quantity = ?, value = ?, averageCost = 700000, lastEffectiveAt = ?, lastSequence = ?, lastLineNo = 0
                    WHERE id = ?
                    """)
                for offset in 0..<count {
                    let sale = Int64(done + offset + 1)
                    let product = Int(sale % Int64(products)) + 1
                    let at = now + sale
                    try document.execute(arguments: [at, at / 86_400_000, now, sale])
                    let documentID = db.lastInsertedRowID
                    quantity[product] -= 1000
                    value[product] -= 70
                    try movement.execute(arguments: [documentID, product, at, at / 86_400_000, now, quantity[product], value[product]])
                    try balance.execute(arguments: [quantity[product], value[product], at, documentID, product])
                }
                return .commit
            } }
            done += count
        }
        let elapsed = clock.now - start
        try queue.close()
        return elapsed
    }
}
