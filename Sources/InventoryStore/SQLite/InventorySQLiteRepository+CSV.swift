import Foundation
import GRDB
import InventoryDomain

// MARK: - DataTransferRepository

extension InventorySQLiteRepository {
    public func importProducts(_ plan: ProductImport) async throws -> (created: Int, updated: Int) {
        try await self.write { db, settings, log in
            var categoryIDs: [String: Int64] = [:]
            for name in plan.newCategories {
                let category = try Category(id: CategoryID(0), name: name).validated()
                if let existing = try Int64.fetchOne(db, sql: "SELECT id FROM category WHERE name = ? COLLATE NOCASE", arguments: [category.name]) {
                    categoryIDs[name.lowercased()] = existing
                } else {
                    try db.execute(sql: "INSERT INTO category (name, color) VALUES (?, ?)", arguments: [category.name, category.color])
                    categoryIDs[name.lowercased()] = db.lastInsertedRowID
                }
            }
            var created = 0, updated = 0
            for row in plan.rows {
                var details = row.details
                if let name = row.categoryName { details.categoryID = categoryIDs[name.lowercased()].map(CategoryID.init(rawValue:)) }
                do {
                    if let id = row.productID {
                        // The same write as an edit through the API: a changed stock rule replays the ledger.
                        _ = try Self.replaceProduct(db, settings, id, details, old: try Self.fetchProduct(db, id))
                        updated += 1
                    } else {
                        _ = try Self.insertProduct(db, details)
                        created += 1
                    }
                } catch let error as InventoryError {
                    throw error.nested(under: "line \(row.line)")
                }
            }
            try log.record(.productsImported, figures: .init(created: created, updated: updated))
            return (created, updated)
        }
    }

    public func exportCSV(_ kind: ExportKind, range: DateRange) async throws -> String {
        try kind.check(range)
        return try await self.read { db in
            let settings = try Self.loadSettings(db)
            let format = ExportFormat(currency: settings.currency, calendar: settings.calendar)
            var text = ""
            /// The range as a condition on a date column (its bounds are whole numbers, written into the SQL).
            func within(_ column: String) -> String {
                "\(column) BETWEEN \(range.from?.milliseconds ?? Int64.min) AND \(range.to?.milliseconds ?? Int64.max)"
            }
            func emit(_ header: [String], _ sql: String, _ cells: (Row) -> [String]) throws {
                text += CSV.line(header)
                let cursor = try Row.fetchCursor(db, sql: sql)
                while let next = try cursor.next() { text += CSV.line(cells(next)) }
            }
            switch kind {
            case .products:
                try emit(ExportFormat.productHeader, """
                    SELECT p.id, p.name, p.sku, p.barcode, c.name, p.unit, p.salePrice, p.minimumSalePrice, p.taxRate, p.lowStockThreshold,
                        p.tracksStock, p.allowsNegativeStock, p.iconEmoji, p.isArchived, p.averageCost, p.quantity, p.value,
                        p.supplierCode, p.packSize, p.description, p.shelf
                    FROM product p LEFT JOIN category c ON c.id = p.categoryId ORDER BY p.id
                    """
                ) { r in
                    format.cells(ExportFormat.ProductRow(
                        id: r[0], name: r[1], sku: r[2], barcode: r[3], category: r[4], unit: r[5], salePrice: r[6], minimumSalePrice: r[7],
                        taxRate: r[8], lowStockThreshold: r[9], tracksStock: r[10], allowsNegativeStock: r[11], icon: r[12], archived: r[13],
                        averageCost: r[14], quantity: r[15], value: r[16], supplierCode: r[17], packSize: r[18], description: r[19], shelf: r[20]))
                }
            case .suppliers, .customers:
                try emit(ExportFormat.contactHeader,
                         "SELECT id, name, location, phone, email, note FROM \(kind == .suppliers ? "supplier" : "customer") ORDER BY id") { r in
                    format.cells(contact: r[0], name: r[1], location: r[2], phone: r[3], email: r[4], note: r[5])
                }
            case .purchases:
                try emit(ExportFormat.purchaseHeader, """
                    SELECT d.id, d.effectiveAt, s.name, d.note, m.lineNo, m.productId, p.name, m.quantity, m.unitAmount, m.lotCode, m.expiryDate
                    FROM movement m JOIN document d ON d.id = m.documentId JOIN product p ON p.id = m.productId
                    LEFT JOIN supplier s ON s.id = d.supplierId WHERE d.kind = 'purchase' AND \(within("d.effectiveAt"))
                    ORDER BY d.effectiveAt, d.id, m.lineNo
                    """
                ) { r in
                    format.cells(ExportFormat.PurchaseLineRow(
                        documentID: r[0], effectiveAt: Instant(milliseconds: r[1]), supplier: r[2], note: r[3], lineNo: r[4], productID: r[5],
                        product: r[6], quantity: r[7], unitCost: r[8], lot: r[9], expiry: r[10]))
                }
            case .sales:
                // Each sale's payments ("cash 10.00; card 5.00 pending") and each return's refunds, by document.
                func payments(_ sql: String) throws -> [Int64: String] {
                    format.paymentTexts(try Row.fetchAll(db, sql: sql).map {
                        ExportFormat.PaymentRow(documentID: $0[0], method: $0[1], amount: $0[2], status: $0[3])
                    })
                }
                let taken = try payments("""
                    SELECT p.documentId, p.method, p.amount, p.status FROM salePayment p JOIN document d ON d.id = p.documentId
                    WHERE d.kind = 'sale' AND \(within("d.effectiveAt")) ORDER BY p.documentId, p.lineNo
                    """)
                let refunded = try payments("""
                    SELECT r.returnId, p.method, -r.amount, 'completed' FROM paymentRefund r JOIN salePayment p ON p.id = r.paymentId
                    JOIN document d ON d.id = r.returnId WHERE \(within("d.effectiveAt")) ORDER BY r.returnId, p.lineNo
                    """)
                // Sale lines, and customer returns as lines of their sale with the quantity, revenue, tax and cost of goods
                // sold going back (negative), dated when they were returned.
                try emit(ExportFormat.saleHeader, """
                    SELECT d.id, d.effectiveAt, c.name, d.paymentMethod, d.tip, d.note, m.lineNo, m.productId, p.name, m.quantity,
                        m.unitAmount, m.discount, m.revenue, m.taxRate, m.tax, \(RecipeSQL.lineValueChange("m")), d.pricesIncludeTax, 'sale', d.id
                    FROM movement m JOIN document d ON d.id = m.documentId JOIN product p ON p.id = m.productId
                    LEFT JOIN customer c ON c.id = d.customerId WHERE d.kind = 'sale' AND m.kind = 'sale' AND \(within("d.effectiveAt"))
                    UNION ALL
                    SELECT d.saleId, d.effectiveAt, c.name, s.paymentMethod, 0, d.note, m.lineNo, m.productId, p.name, m.quantity,
                        m.unitAmount, 0, m.revenue, m.taxRate, m.tax, m.valueChange, s.pricesIncludeTax, 'return', d.id
                    FROM movement m JOIN document d ON d.id = m.documentId JOIN document s ON s.id = d.saleId JOIN product p ON p.id = m.productId
                    LEFT JOIN customer c ON c.id = d.customerId
                    WHERE d.kind = 'customerReturn' AND m.kind = 'customerReturn' AND \(within("d.effectiveAt"))
                    ORDER BY 2, 19, 7
                    """
                ) { r in
                    format.cells(ExportFormat.SaleLineRow(
                        saleID: r[0], effectiveAt: Instant(milliseconds: r[1]), customer: r[2], paymentMethod: r[3], tip: r[4], note: r[5], lineNo: r[6],
                        productID: r[7], product: r[8], quantity: r[9], unitAmount: r[10], discount: r[11], revenue: r[12], taxRate: r[13], tax: r[14],
                        valueChange: r[15], pricesIncludeTax: r[16], isReturn: (r[17] as String) == "return", documentID: r[18]),
                        taken: taken, refunded: refunded)
                }
            case .movements:
                try emit(ExportFormat.movementHeader, """
                    SELECT m.id, m.effectiveAt, m.recordedAt, m.productId, p.name, m.kind, d.reason, m.documentId, m.quantity,
                        m.valueChange, m.costAdjustment, m.quantityAfter, m.valueAfter, m.averageCostAfter
                    FROM movement m JOIN document d ON d.id = m.documentId JOIN product p ON p.id = m.productId
                    WHERE \(within("m.effectiveAt"))
                    ORDER BY m.productId, m.effectiveAt, m.documentId, m.lineNo
                    """
                ) { r in
                    format.cells(ExportFormat.MovementRow(
                        id: r[0], effectiveAt: Instant(milliseconds: r[1]), recordedAt: Instant(milliseconds: r[2]), productID: r[3], product: r[4],
                        kind: r[5], reason: r[6], documentID: r[7], quantity: r[8], valueChange: r[9], costAdjustment: r[10], quantityAfter: r[11],
                        valueAfter: r[12], averageCostAfter: r[13]))
                }
            }
            return text
        }
    }
}
