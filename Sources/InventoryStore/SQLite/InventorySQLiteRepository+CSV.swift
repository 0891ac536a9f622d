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
            let currency = settings.currency, calendar = settings.calendar
            func money(_ value: Int64?) -> String { value.map { Money(minorUnits: $0).decimalString(currency) } ?? "" }
            func quantity(_ value: Int64?) -> String { value.map { Quantity(thousandths: $0).decimalString } ?? "" }
            /// The average cost of a balance, rounded once (``LedgerBalance/roundedAverageCost``).
            func average(_ quantity: Int64, _ value: Int64, _ kept: Int64) -> String {
                LedgerBalance(quantity: Quantity(thousandths: quantity), value: Money(minorUnits: value), averageCost: UnitCost(scaled: kept))
                    .roundedAverageCost.decimalString(currency)
            }
            func time(_ value: Int64) -> String { calendar.localISO8601(Instant(milliseconds: value)) }
            var text = ""
            /// The range as a condition on a date column (its bounds are whole numbers, written into the SQL).
            func within(_ column: String) -> String {
                "\(column) BETWEEN \(range.from?.milliseconds ?? Int64.min) AND \(range.to?.milliseconds ?? Int64.max)"
            }
            func emit(_ header: [String], _ sql: String, _ row: (Row) -> [String]) throws {
                text += CSV.line(header)
                let cursor = try Row.fetchCursor(db, sql: sql)
                while let next = try cursor.next() { text += CSV.line(row(next)) }
            }
            switch kind {
            case .products:
                try emit(
                    ["id", "name", "sku", "barcode", "category", "unit", "sale_price", "minimum_sale_price", "tax_rate",
                     "low_stock_threshold", "track_stock", "allow_negative_stock", "icon", "archived", "cost_price", "quantity", "stock_value",
                     "supplier_code", "pack_size", "description", "shelf"],
                    """
                    SELECT p.id, p.name, p.sku, p.barcode, c.name, p.unit, p.salePrice, p.minimumSalePrice, p.taxRate, p.lowStockThreshold,
                        p.tracksStock, p.allowsNegativeStock, p.iconEmoji, p.isArchived, p.averageCost, p.quantity, p.value,
                        p.supplierCode, p.packSize, p.description, p.shelf
                    FROM product p LEFT JOIN category c ON c.id = p.categoryId ORDER BY p.id
                    """
                ) { r in
                    [String(r[0] as Int64), r[1], r[2] ?? "", r[3] ?? "", r[4] ?? "", r[5], money(r[6]), money(r[7]),
                     Percent(hundredths: r[8]).decimalString, quantity(r[9]), (r[10] as Bool) ? "true" : "false",
                     (r[11] as Bool) ? "true" : "false", r[12], (r[13] as Bool) ? "true" : "false",
                     average(r[15], r[16], r[14]), quantity(r[15]), money(r[16]), r[17] ?? "", quantity(r[18]), r[19], r[20] ?? ""]
                }
            case .suppliers, .customers:
                try emit(["id", "name", "location", "phone", "email", "note"],
                         "SELECT id, name, location, phone, email, note FROM \(kind == .suppliers ? "supplier" : "customer") ORDER BY id") { r in
                    [String(r[0] as Int64), r[1], r[2], r[3], r[4], r[5]]
                }
            case .purchases:
                try emit(
                    ["purchase_id", "date", "supplier", "note", "line", "product_id", "product", "quantity", "unit_cost", "amount", "lot", "expiry"],
                    """
                    SELECT d.id, d.effectiveAt, s.name, d.note, m.lineNo, m.productId, p.name, m.quantity, m.unitAmount, m.lotCode, m.expiryDate
                    FROM movement m JOIN document d ON d.id = m.documentId JOIN product p ON p.id = m.productId
                    LEFT JOIN supplier s ON s.id = d.supplierId WHERE d.kind = 'purchase' AND \(within("d.effectiveAt"))
                    ORDER BY d.effectiveAt, d.id, m.lineNo
                    """
                ) { r in
                    let q = Quantity(thousandths: r[7]), cost = Money(minorUnits: r[8])
                    return [String(r[0] as Int64), time(r[1]), r[2] ?? "", r[3], String((r[4] as Int) + 1), String(r[5] as Int64), r[6],
                            q.decimalString, cost.decimalString(currency), Money.extended(cost, by: q).decimalString(currency), r[9] ?? "", r[10] ?? ""]
                }
            case .sales:
                // Each sale's payments ("cash 10.00; card 5.00 pending") and each return's refunds, by document.
                func payments(_ sql: String) throws -> [Int64: String] {
                    var texts: [Int64: [String]] = [:]
                    for row in try Row.fetchAll(db, sql: sql) {
                        let status: String = row[3]
                        texts[row[0], default: []].append("\(row[1] as String) \(money(row[2]))" + (status == "completed" ? "" : " \(status)"))
                    }
                    return texts.mapValues { $0.joined(separator: "; ") }
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
                try emit(
                    ["sale_id", "date", "customer", "payment", "tip", "note", "line", "product_id", "product", "quantity", "unit_price",
                     "discount", "revenue", "tax_rate", "tax", "cogs", "profit", "prices_include_tax", "type", "return_id", "payments"],
                    """
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
                    let revenue = r[12] as Int64, cogs = -(r[15] as Int64), included: Bool = r[16], document = r[18] as Int64
                    let quantity = Quantity(thousandths: -(r[9] as Int64))
                    guard (r[17] as String) == "sale" else {
                        return [String(r[0] as Int64), time(r[1]), r[2] ?? "", r[3] ?? "", "", r[5], String((r[6] as Int) + 1),
                                String(r[7] as Int64), r[8], quantity.decimalString, money(r[10]), "", money(revenue), Percent(hundredths: r[13]).decimalString,
                                money(r[14]), money(cogs), money(revenue - cogs), included ? "true" : "false", "return", String(document),
                                refunded[document] ?? ""]
                    }
                    // The price and the discount as the receipt shows them (with tax where the sale's prices include it).
                    let line = SaleRecord.Line(
                        movementID: MovementID(0), productID: ProductID(r[7]), productName: r[8], quantity: quantity,
                        unitPrice: Money(minorUnits: r[10]), discount: Money(minorUnits: r[11]), taxRate: Percent(hundredths: r[13]),
                        tax: Money(minorUnits: r[14]), revenue: Money(minorUnits: revenue), costOfGoodsSold: Money(minorUnits: cogs), taxIncluded: included)
                    return [String(r[0] as Int64), time(r[1]), r[2] ?? "", r[3] ?? "", money(r[4]), r[5], String((r[6] as Int) + 1),
                            String(r[7] as Int64), r[8], line.quantity.decimalString, money(r[10]), line.discount.decimalString(currency),
                            money(revenue), line.taxRate.decimalString, money(r[14]), money(cogs), money(revenue - cogs), included ? "true" : "false",
                            "sale", "", taken[document] ?? ""]
                }
            case .movements:
                try emit(
                    ["movement_id", "date", "recorded_at", "product_id", "product", "kind", "reason", "document_id", "quantity",
                     "value_change", "cost_adjustment", "quantity_after", "value_after", "average_cost_after"],
                    """
                    SELECT m.id, m.effectiveAt, m.recordedAt, m.productId, p.name, m.kind, d.reason, m.documentId, m.quantity,
                        m.valueChange, m.costAdjustment, m.quantityAfter, m.valueAfter, m.averageCostAfter
                    FROM movement m JOIN document d ON d.id = m.documentId JOIN product p ON p.id = m.productId
                    WHERE \(within("m.effectiveAt"))
                    ORDER BY m.productId, m.effectiveAt, m.documentId, m.lineNo
                    """
                ) { r in
                    [String(r[0] as Int64), time(r[1]), time(r[2]), String(r[3] as Int64), r[4], r[5], r[6] ?? "", String(r[7] as Int64),
                     quantity(r[8]), money(r[9]), money(r[10]), quantity(r[11]), money(r[12]), average(r[11], r[12], r[13])]
                }
            }
            return text
        }
    }
}
