import Foundation
import InventoryDomain
import PostgresNIO

// CSV export on PostgreSQL: the SQLite store's queries, the rows handed to the domain's ExportFormat, which writes the
// columns and their formatting for both backends.

extension InventoryPostgresRepository: DataTransferRepository {
    public func importProducts(_ plan: ProductImport) async throws -> (created: Int, updated: Int) {
        try await self.write { connection, settings, log in
            var categoryIDs: [String: Int64] = [:]
            if !plan.newCategories.isEmpty {
                try await connection.execute("SELECT pg_advisory_xact_lock(hashtext('stockroom-categories'))", logger: self.logger)
            }
            for name in plan.newCategories {
                let category = try Category(id: CategoryID(0), name: name).validated()
                if let existing = try await connection.query("SELECT id FROM category WHERE lower(name) = lower(\(category.name))", logger: self.logger)
                    .collect(Int64.self).first {
                    categoryIDs[name.lowercased()] = existing
                } else {
                    categoryIDs[name.lowercased()] = try await connection.query(
                        "INSERT INTO category (name, color) VALUES (\(category.name), \(category.color)) RETURNING id", logger: self.logger
                    ).collect(Int64.self)[0]
                }
            }
            var created = 0, updated = 0
            for row in plan.rows {
                var details = row.details
                if let name = row.categoryName { details.categoryID = categoryIDs[name.lowercased()].map(CategoryID.init(rawValue:)) }
                do {
                    if let id = row.productID {
                        // The same write as an edit through the API: a changed stock rule replays the ledger.
                        _ = try await self.replaceProduct(connection, settings, id, details, old: try await self.lockProduct(connection, id))
                        updated += 1
                    } else {
                        _ = try await self.insertProduct(connection, details)
                        created += 1
                    }
                } catch let error as InventoryError {
                    throw error.nested(under: "line \(row.line)")
                }
            }
            try await log.record(.productsImported, figures: .init(created: created, updated: updated))
            return (created, updated)
        }
    }

    public func exportCSV(_ kind: ExportKind, range: DateRange) async throws -> String {
        try kind.check(range)
        return try await self.read { connection in
            let settings = try await Self.loadSettings(connection, logger: self.logger)
            let format = ExportFormat(currency: settings.currency, calendar: settings.calendar)
            let from = range.from ?? Instant.range.lowerBound, to = range.to ?? Instant.range.upperBound
            var text = ""
            switch kind {
            case .products:
                text += CSV.line(ExportFormat.productHeader)
                typealias Row = (Int64, String, String?, String?, String?, String, Int64, Int64?, Int64, Int64?, Bool, Bool, String, Bool, Int64, Int64,
                                 Int64, String?, Int64, String, String?)
                for try await r in try await connection.query("""
                    SELECT p.id, p.name, p.sku, p.barcode, c.name, p.unit, p.salePrice, p.minimumSalePrice, p.taxRate, p.lowStockThreshold,
                        p.tracksStock, p.allowsNegativeStock, p.iconEmoji, p.isArchived, p.averageCost, p.quantity, p.value,
                        p.supplierCode, p.packSize, p.description, p.shelf
                    FROM product p LEFT JOIN category c ON c.id = p.categoryId ORDER BY p.id
                    """, logger: self.logger).decode(Row.self) {
                    text += CSV.line(format.cells(ExportFormat.ProductRow(
                        id: r.0, name: r.1, sku: r.2, barcode: r.3, category: r.4, unit: r.5, salePrice: r.6, minimumSalePrice: r.7, taxRate: r.8,
                        lowStockThreshold: r.9, tracksStock: r.10, allowsNegativeStock: r.11, icon: r.12, archived: r.13, averageCost: r.14,
                        quantity: r.15, value: r.16, supplierCode: r.17, packSize: r.18, description: r.19, shelf: r.20)))
                }
            case .suppliers, .customers:
                text += CSV.line(ExportFormat.contactHeader)
                for try await (id, name, location, phone, email, note) in try await connection.query(PostgresQuery(unsafeSQL: """
                    SELECT id, name, location, phone, email, note FROM \(kind == .suppliers ? "supplier" : "customer") ORDER BY id
                    """), logger: self.logger).decode((Int64, String, String, String, String, String).self) {
                    text += CSV.line(format.cells(contact: id, name: name, location: location, phone: phone, email: email, note: note))
                }
            case .purchases:
                text += CSV.line(ExportFormat.purchaseHeader)
                for try await r in try await connection.query("""
                    SELECT d.id, d.effectiveAt, s.name, d.note, m.lineNo, m.productId, p.name, m.quantity, m.unitAmount, m.lotCode, m.expiryDate
                    FROM movement m JOIN document d ON d.id = m.documentId JOIN product p ON p.id = m.productId
                    LEFT JOIN supplier s ON s.id = d.supplierId WHERE d.kind = 'purchase' AND d.effectiveAt BETWEEN \(from) AND \(to)
                    ORDER BY d.effectiveAt, d.id, m.lineNo
                    """, logger: self.logger).decode((Int64, Instant, String?, String, Int, Int64, String, Int64, Int64, String?, String?).self) {
                    text += CSV.line(format.cells(ExportFormat.PurchaseLineRow(
                        documentID: r.0, effectiveAt: r.1, supplier: r.2, note: r.3, lineNo: r.4, productID: r.5, product: r.6, quantity: r.7,
                        unitCost: r.8, lot: r.9, expiry: r.10)))
                }
            case .sales:
                // Each sale's payments ("cash 10.00; card 5.00 pending") and each return's refunds, by document.
                func payments(_ query: PostgresQuery) async throws -> [Int64: String] {
                    var rows: [ExportFormat.PaymentRow] = []
                    for try await (document, method, amount, status) in try await connection.query(query, logger: self.logger)
                        .decode((Int64, String, Int64, String).self) {
                        rows.append(ExportFormat.PaymentRow(documentID: document, method: method, amount: amount, status: status))
                    }
                    return format.paymentTexts(rows)
                }
                let taken = try await payments("""
                    SELECT p.documentId, p.method, p.amount, p.status FROM salePayment p JOIN document d ON d.id = p.documentId
                    WHERE d.kind = 'sale' AND d.effectiveAt BETWEEN \(from) AND \(to) ORDER BY p.documentId, p.lineNo
                    """)
                let refunded = try await payments("""
                    SELECT r.returnId, p.method, -r.amount, 'completed' FROM paymentRefund r JOIN salePayment p ON p.id = r.paymentId
                    JOIN document d ON d.id = r.returnId WHERE d.effectiveAt BETWEEN \(from) AND \(to) ORDER BY r.returnId, p.lineNo
                    """)
                text += CSV.line(ExportFormat.saleHeader)
                typealias Row = (Int64, Instant, String?, String?, Int64, String, Int, Int64, String, Int64, Int64, Int64, Int64, Int64, Int64, Int64, Bool,
                                 String, Int64)
                // Sale lines, and customer returns as lines of their sale (dated when they were returned).
                for try await r in try await connection.query("""
                    SELECT d.id, d.effectiveAt, c.name, d.paymentMethod, d.tip, d.note, m.lineNo, m.productId, p.name, m.quantity,
                        m.unitAmount, m.discount, m.revenue, m.taxRate, m.tax,
                        (m.valueChange + (SELECT COALESCE(SUM(x.valueChange), 0) FROM movement x
                            WHERE x.documentId = m.documentId AND x.kind = 'consumption' AND x.lineNo / 1000 - 1000 = m.lineNo))::bigint,
                        d.pricesIncludeTax, 'sale', d.id
                    FROM movement m JOIN document d ON d.id = m.documentId JOIN product p ON p.id = m.productId
                    LEFT JOIN customer c ON c.id = d.customerId WHERE d.kind = 'sale' AND m.kind = 'sale' AND d.effectiveAt BETWEEN \(from) AND \(to)
                    UNION ALL
                    SELECT d.saleId, d.effectiveAt, c.name, s.paymentMethod, 0, d.note, m.lineNo, m.productId, p.name, m.quantity,
                        m.unitAmount, 0, m.revenue, m.taxRate, m.tax, m.valueChange, s.pricesIncludeTax, 'return', d.id
                    FROM movement m JOIN document d ON d.id = m.documentId JOIN document s ON s.id = d.saleId JOIN product p ON p.id = m.productId
                    LEFT JOIN customer c ON c.id = d.customerId
                    WHERE d.kind = 'customerReturn' AND m.kind = 'customerReturn' AND d.effectiveAt BETWEEN \(from) AND \(to)
                    ORDER BY 2, 19, 7
                    """, logger: self.logger).decode(Row.self) {
                    text += CSV.line(format.cells(ExportFormat.SaleLineRow(
                        saleID: r.0, effectiveAt: r.1, customer: r.2, paymentMethod: r.3, tip: r.4, note: r.5, lineNo: r.6, productID: r.7, product: r.8,
                        quantity: r.9, unitAmount: r.10, discount: r.11, revenue: r.12, taxRate: r.13, tax: r.14, valueChange: r.15,
                        pricesIncludeTax: r.16, isReturn: r.17 == "return", documentID: r.18), taken: taken, refunded: refunded))
                }
            case .movements:
                text += CSV.line(ExportFormat.movementHeader)
                typealias Row = (Int64, Instant, Instant, Int64, String, String, String?, Int64, Int64, Int64, Int64, Int64, Int64, Int64)
                for try await r in try await connection.query("""
                    SELECT m.id, m.effectiveAt, m.recordedAt, m.productId, p.name, m.kind, d.reason, m.documentId, m.quantity,
                        m.valueChange, m.costAdjustment, m.quantityAfter, m.valueAfter, m.averageCostAfter
                    FROM movement m JOIN document d ON d.id = m.documentId JOIN product p ON p.id = m.productId
                    WHERE m.effectiveAt BETWEEN \(from) AND \(to)
                    ORDER BY m.productId, m.effectiveAt, m.documentId, m.lineNo
                    """, logger: self.logger).decode(Row.self) {
                    text += CSV.line(format.cells(ExportFormat.MovementRow(
                        id: r.0, effectiveAt: r.1, recordedAt: r.2, productID: r.3, product: r.4, kind: r.5, reason: r.6, documentID: r.7,
                        quantity: r.8, valueChange: r.9, costAdjustment: r.10, quantityAfter: r.11, valueAfter: r.12, averageCostAfter: r.13)))
                }
            }
            return text
        }
    }
}
