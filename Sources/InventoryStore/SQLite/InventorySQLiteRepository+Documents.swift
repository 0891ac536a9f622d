import Foundation
import GRDB
import InventoryDomain
import Synchronization

// MARK: - LedgerRepository

extension InventorySQLiteRepository {
    // MARK: - Purchases

    public func postPurchase(_ draft: PurchaseDraft, idempotency: IdempotencyKey?) async throws -> Idempotent<PurchaseRecord> {
        try await self.writeOnce(idempotency, kind: .purchase, book: { db, settings, log in
            let record = try Self.bookPurchase(db, settings, draft, replacing: nil)
            try log.recordDocument(.recorded, .purchase, id: record.id.rawValue)
            return (record.id.rawValue, record)
        }, replay: { db, id in try Self.fetchPurchase(db, PurchaseID(id)) })
    }

    public func previewPurchase(_ draft: PurchaseDraft, replacing id: PurchaseID? = nil) async throws -> PurchaseRecord {
        try await self.dryRun { db, settings in try Self.bookPurchase(db, settings, draft, replacing: id) }
    }

    /// Books a purchase (new, or replacing `id`) and reads it back: the one write path of posting, editing and previewing.
    static func bookPurchase(_ db: Database, _ settings: ShopSettings, _ draft: PurchaseDraft, replacing id: PurchaseID?) throws -> PurchaseRecord {
        let old = try id.map { try Self.requireDocument(db, $0.rawValue, kind: .purchase) }
        let writer = LedgerWriter(db, calendar: settings.calendar)
        let documentID = try Self.insertPurchase(db, settings, draft, writer: writer, replacing: old)
        try writer.flush()
        return try Self.fetchPurchase(db, PurchaseID(documentID))
    }

    public func postPurchases(_ drafts: [PurchaseDraft]) async throws {
        try await self.write { db, settings, log in
            let writer = LedgerWriter(db, calendar: settings.calendar)
            var ids: [Int64] = []
            for (index, draft) in drafts.enumerated() {
                do {
                    ids.append(try Self.insertPurchase(db, settings, draft, writer: writer, replacing: nil))
                } catch let error as InventoryError {
                    throw error.nested(under: "purchases[\(index)]")
                }
            }
            try writer.flush()
            try Self.recordImported(log, .purchase, ids: ids)
        }
    }

    public func updatePurchase(_ id: PurchaseID, _ draft: PurchaseDraft) async throws -> PurchaseRecord {
        try await self.write { db, settings, log in
            let record = try Self.bookPurchase(db, settings, draft, replacing: id)
            try log.recordDocument(.changed, .purchase, id: id.rawValue)
            return record
        }
    }

    public func deletePurchase(_ id: PurchaseID) async throws {
        try await self.deleteDocument(id.rawValue, kind: .purchase)
    }

    public func purchase(_ id: PurchaseID) async throws -> PurchaseRecord {
        try await self.read { db in try Self.fetchPurchase(db, id) }
    }

    public func purchases(limit: Int, offset: Int) async throws -> [DocumentSummary] {
        try await self.read { db in
            try Row.fetchAll(db, sql: """
                SELECT d.id, d.effectiveAt, s.name, COUNT(m.id), COALESCE(SUM((m.quantity * m.unitAmount + 500) / 1000), 0), d.note
                FROM document d LEFT JOIN supplier s ON s.id = d.supplierId LEFT JOIN movement m ON m.documentId = d.id
                WHERE d.kind = 'purchase' GROUP BY d.id ORDER BY d.effectiveAt DESC, d.id DESC LIMIT ? OFFSET ?
                """, arguments: [limit, offset]).map(Self.summary)
        }
    }

    static func summary(_ row: Row) -> DocumentSummary {
        DocumentSummary(id: row[0], effectiveAt: Instant(milliseconds: row[1]), partyName: row[2], lineCount: row[3],
                        total: Money(minorUnits: row[4]), note: row[5])
    }

    /// A document header: the old state of a document being replaced.
    struct DocumentHeader {
        var id: Int64
        var effectiveAt: Int64
        var recordedAt: Int64
        /// Each product's earliest movement in the document.
        var firstPositions: [ProductID: LedgerPosition]
    }

    static func requireDocument(_ db: Database, _ id: Int64, kind: MovementKind) throws -> DocumentHeader {
        guard let row = try Row.fetchOne(db.cachedStatement(sql: "SELECT effectiveAt, recordedAt FROM document WHERE id = ? AND kind = ?"),
                                         arguments: [id, kind.rawValue]) else {
            throw InventoryError(.notFound, field: "id", "\(kind.label) \(id) does not exist")
        }
        var positions: [ProductID: LedgerPosition] = [:]
        let movements = try db.cachedStatement(sql: "SELECT productId, effectiveAt, lineNo FROM movement WHERE documentId = ?")
        for movement in try Row.fetchAll(movements, arguments: [id]) {
            let product = ProductID(movement[0] as Int64)
            let position = LedgerPosition(effectiveAt: movement[1], sequence: id, lineNo: movement[2])
            if positions[product].map({ position < $0 }) ?? true { positions[product] = position }
        }
        return DocumentHeader(id: id, effectiveAt: row[0], recordedAt: row[1], firstPositions: positions)
    }

    /// Inserts (or replaces, keeping the id and entry sequence) a purchase and costs its lines.
    static func insertPurchase(_ db: Database, _ settings: ShopSettings, _ draft: PurchaseDraft, writer: LedgerWriter,
                               replacing old: DocumentHeader?) throws -> Int64 {
        let draft = try draft.dated(bookedAt: .now).validated()
        if let supplier = draft.supplierID {
            try self.requireRow(db, table: "supplier", id: supplier.rawValue, field: "supplierId", label: "supplier")
        }
        var productIDs: [ProductID] = []
        for (index, line) in draft.lines.enumerated() {
            switch line.product {
            case .existing(let id):
                try self.requireUsableProduct(db, id, field: "lines[\(index)].productId", editing: old != nil)
                productIDs.append(id)
            case .new(let details):
                do {
                    productIDs.append(try self.insertProduct(db, details))
                } catch let error as InventoryError {
                    throw error.nested(under: "lines[\(index)].product")
                }
            }
        }
        let documentID = try self.saveHeader(
            db, settings, kind: .purchase, effectiveAt: draft.effectiveAt, replacing: old, writer: writer,
            columns: ["supplierId": draft.supplierID?.rawValue, "note": draft.note])
        let effectiveAt = draft.effectiveAt.milliseconds
        let day = settings.calendar.dayNumber(milliseconds: effectiveAt)
        let pending = draft.lines.enumerated().map { index, line in
            PendingMovement(
                documentID: documentID, kind: .purchase, lineNo: index, productID: productIDs[index], effectiveAt: effectiveAt,
                day: day, recordedAt: Self.now, effect: .receipt(quantity: line.quantity, unitCost: line.unitCost),
                unitAmount: line.unitCost, lotCode: line.lotCode, expiryDate: line.expiryDate, field: "lines[\(index)].quantity")
        }
        try self.writeMovements(writer, pending, replacing: old)
        return documentID
    }

    /// Writes a document header; an edit keeps the id (and so the entry sequence) and drops the old lines.
    static func saveHeader(_ db: Database, _ settings: ShopSettings, kind: MovementKind, effectiveAt: Instant, replacing old: DocumentHeader?,
                           writer: LedgerWriter, columns: [String: (any DatabaseValueConvertible)?], recordedAt: Int64 = Self.now) throws -> Int64 {
        let milliseconds = effectiveAt.milliseconds
        let day = settings.calendar.dayNumber(milliseconds: milliseconds)
        let names = columns.keys.sorted()
        if let old {
            try writer.deleteMovements(documentID: old.id)
            let assignments = (["effectiveAt", "day"] + names).map { "\($0) = ?" }.joined(separator: ", ")
            var arguments: StatementArguments = [milliseconds, day]
            for name in names { arguments += [columns[name] ?? nil] }
            arguments += [old.id]
            try db.cachedStatement(sql: "UPDATE document SET \(assignments) WHERE id = ?").execute(arguments: arguments)
            return old.id
        }
        var values: [(any DatabaseValueConvertible)?] = [kind.rawValue, milliseconds, day, recordedAt]
        values.reserveCapacity(4 + names.count)
        for name in names { values.append(columns[name] ?? nil) }
        try db.cachedStatement(sql: Self.headerInsertSQL(names)).execute(arguments: StatementArguments(values))
        return db.lastInsertedRowID
    }

    /// The `INSERT` of a document header with these columns besides its kind, date and time of recording, written once
    /// for each set of columns (the kinds of document use a handful).
    static func headerInsertSQL(_ names: [String]) -> String {
        if let sql = self.headerInserts.withLock({ $0[names] }) { return sql }
        let allNames = ["kind", "effectiveAt", "day", "recordedAt"] + names
        let sql = "INSERT INTO document (\(allNames.joined(separator: ", "))) VALUES (\(allNames.map { _ in "?" }.joined(separator: ", ")))"
        self.headerInserts.withLock { $0[names] = sql }
        return sql
    }

    private static let headerInserts = Mutex<[[String]: String]>([:])

    /// Costs new movements: appended ones directly, back-dated or replacing ones by replaying each product.
    static func writeMovements(_ writer: LedgerWriter, _ pending: [PendingMovement], replacing old: DocumentHeader?) throws {
        guard let old else {
            try writer.write(pending)
            return
        }
        var from = old.firstPositions
        for movement in pending where from[movement.productID].map({ movement.position < $0 }) ?? true {
            from[movement.productID] = movement.position
        }
        try writer.insertUncosted(pending)
        for (product, position) in from.sorted(by: { $0.key < $1.key }) {
            try writer.recost(product, from: position)
        }
    }

    static func requireRow(_ db: Database, table: String, id: Int64, field: String, label: String) throws {
        guard try Int.fetchOne(db.cachedStatement(sql: "SELECT COUNT(*) FROM \(table) WHERE id = ?"), arguments: [id]) == 1 else {
            throw InventoryError(.notFound, field: field, "\(label) \(id) does not exist")
        }
    }

    /// The facts a document needs about product `id`, read in the document's transaction.
    /// - Throws: ``InventoryError`` (`notFound`) on `field` when the product does not exist.
    static func productFacts(_ db: Database, _ id: ProductID, field: String) throws -> ProductFacts {
        let statement = try db.cachedStatement(sql: Self.productFactsSQL)
        guard let stored = try statement.firstRow(id: id.rawValue, { Self.storedProductFacts(id, $0, from: 1) }) else {
            throw Self.productNotFound(id, field: field)
        }
        return try stored.complete(db)
    }

    static func productNotFound(_ id: ProductID, field: String) -> InventoryError {
        InventoryError(.notFound, field: field, "product \(id) does not exist")
    }

    /// The columns of ``StoredProductFacts``. Whether the product has options or a recipe comes with its row: most
    /// products have neither, and then the two reads that would find nothing are skipped.
    static let productFactsColumns = """
        p.isArchived, p.salePrice, p.minimumSalePrice, p.taxRate, p.name,
        EXISTS (SELECT 1 FROM optionGroup WHERE productId = p.id), EXISTS (SELECT 1 FROM recipeComponent WHERE productId = p.id)
        """
    static let productFactsColumnCount = 7
    static let productFactsSQL = "SELECT p.id, \(productFactsColumns) FROM product p WHERE p.id = ?"

    /// A product's facts as its row states them, before its option groups and recipe are read.
    struct StoredProductFacts {
        var facts: ProductFacts
        var hasOptionGroups: Bool
        var hasRecipe: Bool

        /// The facts with the product's option groups and recipe, read when it has them.
        func complete(_ db: Database) throws -> ProductFacts {
            var facts = self.facts
            if self.hasOptionGroups { facts.optionGroups = try InventorySQLiteRepository.optionGroups(db, facts.id) }
            if self.hasRecipe { facts.recipe = try InventorySQLiteRepository.recipe(db, facts.id) }
            return facts
        }
    }

    /// A product's facts from a row holding ``productFactsColumns`` from column `first` on.
    static func storedProductFacts(_ id: ProductID, _ row: StatementColumns, from first: Int) -> StoredProductFacts {
        StoredProductFacts(
            facts: ProductFacts(id: id, isArchived: row[first], salePrice: Money(minorUnits: row[first + 1]),
                                minimumSalePrice: (row[first + 2] as Int64?).map(Money.init(minorUnits:)), taxRate: Percent(hundredths: row[first + 3]),
                                name: row[first + 4]),
            hasOptionGroups: row[first + 5], hasRecipe: row[first + 6])
    }

    /// Requires product `id` to exist and to be usable in a document (``ProductFacts/requireUsable(field:editing:)``).
    static func requireUsableProduct(_ db: Database, _ id: ProductID, field: String, editing: Bool) throws {
        try self.productFacts(db, id, field: field).requireUsable(field: field, editing: editing)
    }

    static func fetchPurchase(_ db: Database, _ id: PurchaseID) throws -> PurchaseRecord {
        guard let header = try Row.fetchOne(db.cachedStatement(sql: """
            SELECT d.effectiveAt, d.recordedAt, d.supplierId, s.name, d.note FROM document d LEFT JOIN supplier s ON s.id = d.supplierId
            WHERE d.id = ? AND d.kind = 'purchase'
            """), arguments: [id.rawValue]) else {
            throw InventoryError(.notFound, field: "id", "purchase \(id) does not exist")
        }
        let lines = try Row.fetchAll(db.cachedStatement(sql: """
            SELECT m.id, m.productId, p.name, m.quantity, m.unitAmount, m.lotCode, m.expiryDate, m.averageCostAfter,
                   m.quantityAfter, m.valueAfter
            FROM movement m JOIN product p ON p.id = m.productId WHERE m.documentId = ? ORDER BY m.lineNo
            """), arguments: [id.rawValue]).map { row in
            let quantity = Quantity(thousandths: row[3])
            let unitCost = Money(minorUnits: row[4])
            return PurchaseRecord.Line(
                movementID: MovementID(row[0]), productID: ProductID(row[1]), productName: row[2], quantity: quantity,
                unitCost: unitCost, lotCode: row[5], expiryDate: row[6], amount: Money.extended(unitCost, by: quantity),
                balanceAfter: LedgerBalance(quantity: Quantity(thousandths: row[8]), value: Money(minorUnits: row[9]), averageCost: UnitCost(scaled: row[7])))
        }
        return PurchaseRecord(
            id: id, sequence: id.rawValue, effectiveAt: Instant(milliseconds: header[0]), recordedAt: Instant(milliseconds: header[1]),
            supplierID: (header[2] as Int64?).map(SupplierID.init(rawValue:)), supplierName: header[3], note: header[4], lines: lines)
    }

    // MARK: - Sales

    public func postSale(_ draft: SaleDraft, idempotency: IdempotencyKey?) async throws -> Idempotent<SaleRecord> {
        try await self.writeOnce(idempotency, kind: .sale, book: { db, settings, log in
            let record = try Self.bookSale(db, settings, draft, replacing: nil)
            try log.recordSale(.recorded, record)
            return (record.id.rawValue, record)
        }, replay: { db, id in try Self.fetchSale(db, SaleID(id)) })
    }

    public func previewSale(_ draft: SaleDraft, replacing id: SaleID? = nil) async throws -> SaleRecord {
        try await self.dryRun { db, settings in try Self.bookSale(db, settings, draft, replacing: id) }
    }

    /// Books a sale (new, or replacing `id`) and reads it back: the one write path of posting, editing and previewing.
    static func bookSale(_ db: Database, _ settings: ShopSettings, _ draft: SaleDraft, replacing id: SaleID?) throws -> SaleRecord {
        let old = try id.map { try Self.requireDocument(db, $0.rawValue, kind: .sale) }
        if let id { try Self.requireNoReturns(db, id) }
        let writer = LedgerWriter(db, calendar: settings.calendar)
        let booked = try Self.insertSale(db, settings, draft, writer: writer, replacing: old)
        try writer.flush()
        if let record = booked.record { return record }
        return try Self.fetchSale(db, SaleID(booked.id), justBooked: booked)
    }

    public func postSales(_ drafts: [SaleDraft]) async throws {
        try await self.write { db, settings, log in
            let writer = LedgerWriter(db, calendar: settings.calendar)
            var ids: [Int64] = []
            for (index, draft) in drafts.enumerated() {
                do {
                    ids.append(try Self.insertSale(db, settings, draft, writer: writer, replacing: nil, answering: false).id)
                } catch let error as InventoryError {
                    throw error.nested(under: "sales[\(index)]")
                }
            }
            try writer.flush()
            try Self.recordImported(log, .sale, ids: ids)
        }
    }

    public func updateSale(_ id: SaleID, _ draft: SaleDraft) async throws -> SaleRecord {
        try await self.write { db, settings, log in
            let record = try Self.bookSale(db, settings, draft, replacing: id)
            try log.recordSale(.changed, record)
            return record
        }
    }

    public func deleteSale(_ id: SaleID) async throws {
        try await self.deleteDocument(id.rawValue, kind: .sale)
    }

    public func sale(_ id: SaleID) async throws -> SaleRecord {
        try await self.read { db in try Self.fetchSale(db, id) }
    }

    public func sales(_ query: SaleQuery) async throws -> [DocumentSummary] {
        try query.check()
        var conditions = ["d.kind = 'sale'"]
        var arguments: StatementArguments = []
        if let from = query.from {
            conditions.append("d.effectiveAt >= ?")
            arguments += [from.milliseconds]
        }
        if let to = query.to {
            conditions.append("d.effectiveAt <= ?")
            arguments += [to.milliseconds]
        }
        if let customer = query.customerID {
            conditions.append("d.customerId = ?")
            arguments += [customer.rawValue]
        }
        if let product = query.productID {
            conditions.append("EXISTS (SELECT 1 FROM movement x WHERE x.documentId = d.id AND x.kind = 'sale' AND x.productId = ?)")
            arguments += [product.rawValue]
        }
        for word in try query.words() {
            // The rule is SaleQuery's: receipt number (a number), customer, a line's product, or the note.
            var either: [String] = []
            if !word.receiptOnly {
                let pattern = Self.likePattern(word.text)
                either = ["c.searchKey LIKE ? ESCAPE '\\'", "d.note LIKE ? ESCAPE '\\'",
                          "EXISTS (SELECT 1 FROM movement x JOIN product p ON p.id = x.productId WHERE x.documentId = d.id AND x.kind = 'sale' AND p.searchKey LIKE ? ESCAPE '\\')"]
                arguments += [pattern, pattern, pattern]
            }
            if let number = word.receiptNumber {
                either.append("d.receiptNumber = ?")
                arguments += [number]
            }
            conditions.append("(" + either.joined(separator: " OR ") + ")")
        }
        arguments += [query.limit, query.offset]
        let bound = arguments
        let sql = """
            SELECT d.id, d.effectiveAt, c.name, COUNT(m.id), COALESCE(SUM(m.revenue + m.tax), 0) + d.tip, d.note, d.receiptNumber
            FROM document d LEFT JOIN customer c ON c.id = d.customerId LEFT JOIN movement m ON m.documentId = d.id AND m.kind = 'sale'
            WHERE \(conditions.joined(separator: " AND ")) GROUP BY d.id ORDER BY d.effectiveAt DESC, d.id DESC LIMIT ? OFFSET ?
            """
        return try await self.read { db in
            try Row.fetchAll(db, sql: sql, arguments: bound).map { row in
                var summary = Self.summary(row)
                summary.receiptNumber = row[6]
                return summary
            }
        }
    }

    static func requireNoReturns(_ db: Database, _ id: SaleID) throws {
        let returns = try Int.fetchOne(db.cachedStatement(sql: "SELECT COUNT(*) FROM document WHERE saleId = ?"), arguments: [id.rawValue]) ?? 0
        guard returns == 0 else {
            throw InventoryError(.inUse, field: "id", "sale \(id) has \(returns) return(s); delete them first")
        }
    }

    /// Writes a sale (new, or replacing `old`). `answering`: the sale is to be answered, so a new one is made from what
    /// is written here (``BookedSale/record``) where it can be; a batch answers none.
    static func insertSale(_ db: Database, _ settings: ShopSettings, _ draft: SaleDraft, writer: LedgerWriter,
                           replacing old: DocumentHeader?, answering: Bool = true) throws -> BookedSale {
        let draft = draft.dated(bookedAt: .now)
        var customerName: String?
        if let customer = draft.customerID {
            customerName = try String.fetchOne(db.cachedStatement(sql: "SELECT name FROM customer WHERE id = ?"), arguments: [customer.rawValue])
            guard customerName != nil else { throw InventoryError(.notFound, field: "customerId", "customer \(customer) does not exist") }
        }
        var products: [ProductID: ProductFacts] = [:]
        for (index, line) in draft.lines.enumerated() where products[line.productID] == nil {
            products[line.productID] = try writer.productFacts(line.productID, field: "lines[\(index)].productId")
        }
        // A new sale takes the shop's meaning of prices; an edit keeps the one its sale was booked with.
        let includeTax = try old.map {
            try Bool.fetchOne(db.cachedStatement(sql: "SELECT pricesIncludeTax FROM document WHERE id = ?"), arguments: [$0.id]) ?? false
        } ?? settings.pricesIncludeTax
        let sale = try draft.priced(products: products, editing: old != nil, currency: settings.currency, pricesIncludeTax: includeTax)
        let header = sale.draft
        // The header keeps the first payment that counts as the sale's method (lists and the CSV show it) and the cash
        // handed over in all; the payments themselves are in salePayment.
        var columns: [String: (any DatabaseValueConvertible)?] = [
            "customerId": header.customerID?.rawValue, "note": header.note, "tip": header.tip.minorUnits,
            "paymentMethod": sale.headerPaymentMethod.rawValue, "cashTendered": sale.headerCashTendered?.minorUnits,
            "pricesIncludeTax": includeTax, "approvedBy": header.approvedBy, "stockApprovedBy": header.stockApprovedBy]
        // An edit keeps who rang the sale up and its receipt number; a new sale takes the next number, inside this
        // transaction, so a refused sale takes none.
        var receiptNumber: Int64 = 0
        if old == nil {
            receiptNumber = try writer.nextReceiptNumber()
            columns["soldBy"] = header.soldBy
            columns["receiptNumber"] = receiptNumber
        }
        let recordedAt = Self.now
        let documentID = try self.saveHeader(db, settings, kind: .sale, effectiveAt: header.effectiveAt, replacing: old, writer: writer,
                                             columns: columns, recordedAt: recordedAt)
        // A new sale is answered from what is written here (``PricedSale/record(id:recordedAt:receiptNumber:productNames:booked:payments:customerName:customerVisit:)``):
        // the ledger keeps its lines' movement ids and costs as it writes them.
        let answeredAsWritten = answering && old == nil && header.stockApprovedBy.isEmpty
        if answeredAsWritten { writer.watchedDocument = documentID }
        defer { writer.watchedDocument = nil }
        let effectiveAt = header.effectiveAt.milliseconds
        let day = settings.calendar.dayNumber(milliseconds: effectiveAt)
        let pending = sale.lines.enumerated().map { index, line in
            PendingMovement(
                documentID: documentID, kind: .sale, lineNo: index, productID: line.productID, effectiveAt: effectiveAt, day: day,
                recordedAt: Self.now, effect: .issue(quantity: line.quantity), unitAmount: line.unitPrice, discount: line.bookedDiscount,
                taxRate: line.taxRate, revenue: line.revenue, tax: line.tax, beyondStock: !header.stockApprovedBy.isEmpty,
                field: "lines[\(index)].quantity")
        } + sale.lines.enumerated().flatMap { index, line in
            // A recipe product's line issues its ingredients (``Recipe``); a shortfall names the line's quantity.
            Recipe.consumption(of: line.quantity, products[line.productID]?.recipe ?? []).enumerated().map { component, used in
                PendingMovement(
                    documentID: documentID, kind: .consumption, lineNo: RecipeSQL.lineNo(line: index, component: component),
                    productID: used.ingredientID, effectiveAt: effectiveAt, day: day, recordedAt: Self.now, effect: .issue(quantity: used.quantity),
                    beyondStock: !header.stockApprovedBy.isEmpty, field: "lines[\(index)].quantity")
            }
        }
        try self.writeMovements(writer, pending, replacing: old)
        let withOptions = try self.writeChosenOptions(db, documentID: documentID, sale.lines)
        if !header.stockApprovedBy.isEmpty {
            // The approval covers the lines that needed it: a line the stock on record covered, or of a product that allows
            // negative stock anyway, keeps the ordinary rule; a sale none of whose lines went beyond stock keeps no approver.
            try db.cachedStatement(sql: """
                UPDATE movement SET beyondStock = 0
                WHERE documentId = ? AND beyondStock = 1
                  AND (quantityAfter >= 0 OR productId IN (SELECT id FROM product WHERE allowsNegativeStock = 1 OR tracksStock = 0))
                """).execute(arguments: [documentID])
            let beyond = try db.cachedStatement(sql: "SELECT COUNT(*) FROM movement WHERE documentId = ? AND beyondStock = 1")
            if try Int.fetchOne(beyond, arguments: [documentID]) == 0 {
                try db.cachedStatement(sql: "UPDATE document SET stockApprovedBy = '' WHERE id = ?").execute(arguments: [documentID])
            }
        }
        let payments = try self.writePayments(db, sale.payments, documentID: documentID, replacing: old != nil)
        var booked = BookedSale(id: documentID, withOptions: withOptions, payments: payments)
        if answeredAsWritten {
            booked.record = try Self.bookedRecord(db, sale, id: documentID, recordedAt: recordedAt, receiptNumber: receiptNumber, products: products,
                                                  written: writer.watchedLines, payments: payments, customerName: customerName)
        }
        return booked
    }

    /// A new sale as just written (``PricedSale/record(id:recordedAt:receiptNumber:productNames:booked:payments:customerName:customerVisit:)``),
    /// its lines' costs with their ingredients' (a recipe's issues are lines `RecipeLines.lineNo(line:component:)`).
    static func bookedRecord(_ db: Database, _ sale: PricedSale, id documentID: Int64, recordedAt: Int64, receiptNumber: Int64,
                             products: [ProductID: ProductFacts], written: [Int: (id: Int64, valueChange: Money)], payments: [PaymentRecord],
                             customerName: String?) throws -> SaleRecord {
        let id = SaleID(documentID)
        let visit = try sale.draft.customerID.map { try Self.visitNumber(db, sale: id, customer: $0) }
        return sale.record(id: id, recordedAt: Instant(milliseconds: recordedAt), receiptNumber: receiptNumber,
                           productNames: products.mapValues(\.name), booked: BookedSale.lines(of: sale, written: written), payments: payments,
                           customerName: customerName, customerVisit: visit)
    }

    /// Writes a sale's payments, replacing those it had (an edit; a sale with returns, so refunds, is not editable);
    /// answers them as booked.
    static func writePayments(_ db: Database, _ payments: [PaymentDraft], documentID: Int64, replacing: Bool) throws -> [PaymentRecord] {
        if replacing { try db.cachedStatement(sql: "DELETE FROM salePayment WHERE documentId = ?").execute(arguments: [documentID]) }
        let insert = try db.cachedStatement(sql: """
            INSERT INTO salePayment (documentId, lineNo, method, amount, tendered, status, reference) VALUES (?, ?, ?, ?, ?, ?, ?)
            """)
        return try payments.enumerated().map { index, payment in
            try insert.execute(arguments: [documentID, index, payment.method.rawValue, payment.amount.minorUnits, payment.tendered?.minorUnits,
                                           payment.status.rawValue, payment.reference])
            return payment.booked(as: PaymentID(db.lastInsertedRowID))
        }
    }

    /// A sale's payments in the order they were taken, each with what returns refunded to it.
    static func fetchPayments(_ db: Database, _ id: SaleID) throws -> [PaymentRecord] {
        try Row.fetchAll(db.cachedStatement(sql: """
            SELECT p.id, p.method, p.amount, p.tendered, p.status, p.reference,
                   (SELECT COALESCE(SUM(r.amount), 0) FROM paymentRefund r WHERE r.paymentId = p.id)
            FROM salePayment p WHERE p.documentId = ? ORDER BY p.lineNo
            """), arguments: [id.rawValue]).map { row in
            PaymentRecord(id: PaymentID(row[0]), method: PaymentMethod(rawValue: row[1]) ?? .other, amount: Money(minorUnits: row[2]),
                          tendered: (row[3] as Int64?).map(Money.init(minorUnits:)), takenStatus: PaymentStatus(rawValue: row[4]) ?? .completed,
                          reference: row[5], refunded: Money(minorUnits: row[6]))
        }
    }

    public func settlePayment(_ id: PaymentID, of saleID: SaleID, to status: PaymentStatus) async throws -> SaleRecord {
        try await self.write { db, _, log in
            let sale = try Self.fetchSale(db, saleID)
            guard let payment = sale.payments.first(where: { $0.id == id }) else {
                throw InventoryError(.notFound, field: "paymentId", "payment \(id) is not a payment of sale \(saleID)")
            }
            let settled = try payment.settled(to: status)
            try db.cachedStatement(sql: "UPDATE salePayment SET status = ? WHERE id = ?")
                .execute(arguments: [settled.takenStatus.rawValue, id.rawValue])
            try log.recordDocument(.changed, .sale, id: saleID.rawValue)
            return try Self.fetchSale(db, saleID)
        }
    }

    /// Sale `id` as stored. A sale `justBooked` in this transaction is read without what its booking already knows:
    /// its payments as written, no options unless it chose some, and no returns (a new sale has none; an edit is
    /// refused when it has some).
    static func fetchSale(_ db: Database, _ id: SaleID, justBooked: BookedSale? = nil) throws -> SaleRecord {
        guard let header = try Row.fetchOne(db.cachedStatement(sql: """
            SELECT d.effectiveAt, d.recordedAt, d.customerId, c.name, d.note, d.tip, d.paymentMethod, d.soldBy, d.cashTendered, d.receiptNumber,
                   d.pricesIncludeTax, d.approvedBy, d.stockApprovedBy
            FROM document d LEFT JOIN customer c ON c.id = d.customerId WHERE d.id = ? AND d.kind = 'sale'
            """), arguments: [id.rawValue]) else {
            throw InventoryError(.notFound, field: "id", "sale \(id) does not exist")
        }
        let rows = try Row.fetchAll(db.cachedStatement(sql: """
            SELECT m.id, m.productId, p.name, m.quantity, m.unitAmount, m.discount, m.taxRate, m.tax, m.revenue, \(RecipeSQL.lineValueChange("m")),
                   (SELECT COALESCE(SUM(r.quantity), 0) FROM movement r WHERE r.sourceMovementId = m.id AND r.kind = 'customerReturn'),
                   m.beyondStock, m.quantityAfter
            FROM movement m JOIN product p ON p.id = m.productId WHERE m.documentId = ? AND m.kind = 'sale' ORDER BY m.lineNo
            """), arguments: [id.rawValue])
        let options = justBooked?.withOptions == false ? [:] : try Self.chosenOptions(db, documentID: id.rawValue)
        let lines = rows.map { row in
            var line = SaleRecord.Line(
                movementID: MovementID(row[0]), productID: ProductID(row[1]), productName: row[2],
                quantity: Quantity(thousandths: row[3]).magnitude, unitPrice: Money(minorUnits: row[4]),
                discount: Money(minorUnits: row[5]), taxRate: Percent(hundredths: row[6]), tax: Money(minorUnits: row[7]),
                revenue: Money(minorUnits: row[8]), costOfGoodsSold: Money(minorUnits: -(row[9] as Int64)),
                returnedQuantity: Quantity(thousandths: row[10]).magnitude, taxIncluded: header[10])
            line.options = options[row[0]] ?? []
            if row[11] as Bool {
                line.soldBeyondStock = SoldBeyondStock.shortBy(quantity: line.quantity, stockAfter: Quantity(thousandths: row[12]))
            }
            return line
        }
        var record = SaleRecord(
            id: id, sequence: id.rawValue, effectiveAt: Instant(milliseconds: header[0]), recordedAt: Instant(milliseconds: header[1]),
            customerID: (header[2] as Int64?).map(CustomerID.init(rawValue:)), customerName: header[3], note: header[4],
            tip: Money(minorUnits: header[5]), paymentMethod: PaymentMethod(rawValue: header[6] ?? "cash") ?? .cash, lines: lines,
            soldBy: header[7], cashTendered: (header[8] as Int64?).map(Money.init(minorUnits:)), receiptNumber: header[9] ?? 0)
        record.approvedBy = header[11] ?? ""
        record.stockApprovedBy = header[12] ?? ""
        if let justBooked {
            record.payments = justBooked.payments
        } else {
            record.payments = try Self.fetchPayments(db, id)
            record.returns = try Self.fetchReturns(db, of: id)
        }
        record.customerVisit = try record.customerID.map { try Self.visitNumber(db, sale: id, customer: $0) }
        return record
    }

    /// The customer returns booked against sale `id`, oldest first, each with its lines and what it refunded.
    static func fetchReturns(_ db: Database, of id: SaleID) throws -> [SaleRecord.Return] {
        let rows = try Row.fetchAll(db.cachedStatement(sql: """
            SELECT r.documentId, d.effectiveAt, d.note,
                   (SELECT COALESCE(SUM(f.amount), 0) FROM paymentRefund f WHERE f.returnId = r.documentId),
                   r.sourceMovementId, r.productId, p.name, r.quantity,
                   NOT EXISTS (SELECT 1 FROM movement w WHERE w.documentId = r.documentId AND w.sourceMovementId = r.sourceMovementId
                                                          AND w.effect = 'writeOffReturned')
            FROM movement s JOIN movement r ON r.sourceMovementId = s.id
            JOIN document d ON d.id = r.documentId JOIN product p ON p.id = r.productId
            WHERE s.documentId = ? AND s.kind = 'sale' AND r.kind = 'customerReturn'
            ORDER BY d.effectiveAt, r.documentId, r.lineNo
            """), arguments: [id.rawValue])
        var returns: [SaleRecord.Return] = []
        for row in rows {
            let returnID = CustomerReturnID(row[0])
            let line = SaleRecord.Return.Line(saleLineID: MovementID(row[4]), productID: ProductID(row[5]), productName: row[6],
                                              quantity: Quantity(thousandths: row[7]).magnitude, restocked: row[8])
            if returns.last?.id == returnID {
                returns[returns.count - 1].lines.append(line)
            } else {
                returns.append(SaleRecord.Return(id: returnID, effectiveAt: Instant(milliseconds: row[1]), note: row[2] ?? "",
                                                 refunded: Money(minorUnits: row[3]), lines: [line]))
            }
        }
        return returns
    }

    // MARK: - Adjustments and returns

    public func postAdjustment(_ draft: AdjustmentDraft, idempotency: IdempotencyKey?) async throws -> Idempotent<AdjustmentID> {
        let asked = try draft.validated()
        return try await self.writeOnce(idempotency, kind: .adjustment, book: { db, settings, log in
            let documentID = try Self.bookAdjustment(db, settings, asked, field: "quantityChange")
            try log.recordDocument(.recorded, .adjustment, id: documentID)
            return (documentID, AdjustmentID(documentID))
        }, replay: { _, id in AdjustmentID(id) })
    }

    /// Books a validated adjustment inside a transaction; answers its document id. `field` names the quantity in a
    /// refusal of the ledger (stock would go below zero).
    static func bookAdjustment(_ db: Database, _ settings: ShopSettings, _ asked: AdjustmentDraft, field: String) throws -> Int64 {
        try Self.requireUsableProduct(db, asked.productID, field: "productId", editing: false)
        let writer = LedgerWriter(db, calendar: settings.calendar)
        let asked = asked.dated(bookedAt: .now)
        // A count becomes a change against the stock on record at its instant, read in this transaction.
        let onRecord = asked.countedQuantity == nil ? Quantity.zero : try writer.quantity(of: asked.productID, at: asked.effectiveAt.milliseconds)
        let draft = try asked.resolvingCount(stockOnRecord: onRecord).validated()
        let documentID = try Self.saveHeader(
            db, settings, kind: .adjustment, effectiveAt: draft.effectiveAt, replacing: nil, writer: writer,
            columns: ["reason": draft.reason.rawValue, "note": draft.note])
        let effectiveAt = draft.effectiveAt.milliseconds
        try writer.write([
            PendingMovement(
                documentID: documentID, kind: .adjustment, lineNo: 0, productID: draft.productID, effectiveAt: effectiveAt,
                day: settings.calendar.dayNumber(milliseconds: effectiveAt), recordedAt: Self.now, effect: draft.effect,
                unitAmount: draft.unitCost ?? .zero, field: field)
        ])
        try writer.flush()
        return documentID
    }

    public func createProduct(_ details: ProductDetails, openingStock: OpeningStock) async throws -> Product {
        let details = try details.validated()
        let opening = try openingStock.validated(for: details)
        let askedAt = Instant.now
        return try await self.write { db, settings, log in
            let id = try Self.insertProduct(db, details)
            try log.recordProductCreated(id, details)
            let documentID = try Self.bookAdjustment(db, settings, opening.adjustment(of: id, askedAt: askedAt), field: "openingStock.quantity")
            try log.recordDocument(.recorded, .adjustment, id: documentID)
            return try Self.fetchProduct(db, id)
        }
    }

    public func deleteAdjustment(_ id: AdjustmentID) async throws {
        try await self.deleteDocument(id.rawValue, kind: .adjustment)
    }

    public func postCustomerReturn(_ draft: CustomerReturnDraft, idempotency: IdempotencyKey?) async throws -> Idempotent<CustomerReturnID> {
        try await self.writeOnce(idempotency, kind: .customerReturn, book: { db, settings, log in
            let (documentID, _) = try Self.bookCustomerReturn(db, settings, draft)
            try log.recordDocument(.recorded, .customerReturn, id: documentID)
            return (documentID, CustomerReturnID(documentID))
        }, replay: { _, id in CustomerReturnID(id) })
    }

    public func previewCustomerReturn(_ draft: CustomerReturnDraft) async throws -> PricedCustomerReturn {
        try await self.dryRun { db, settings in try Self.bookCustomerReturn(db, settings, draft).1 }
    }

    /// Books a customer return: its lines back into stock at the cost they left with, its refund to the sale's payments.
    static func bookCustomerReturn(_ db: Database, _ settings: ShopSettings, _ draft: CustomerReturnDraft) throws -> (Int64, PricedCustomerReturn) {
        let draft = draft.dated(bookedAt: .now)
        let sale = try Self.fetchSale(db, draft.saleID)
        let priced = try draft.refunded(against: sale, currency: settings.currency)
        let lines = priced.lines
        let writer = LedgerWriter(db, calendar: settings.calendar)
        let documentID = try Self.saveHeader(
            db, settings, kind: .customerReturn, effectiveAt: draft.effectiveAt, replacing: nil, writer: writer,
            columns: ["saleId": draft.saleID.rawValue, "customerId": sale.customerID?.rawValue, "note": draft.note])
        let effectiveAt = draft.effectiveAt.milliseconds
        let day = settings.calendar.dayNumber(milliseconds: effectiveAt)
        var pending: [PendingMovement] = []
        for (index, line) in lines.enumerated() {
            let booked = try writer.bookedCost(of: line.saleLine.movementID)
            pending.append(PendingMovement(
                documentID: documentID, kind: .customerReturn, lineNo: index, productID: line.saleLine.productID, effectiveAt: effectiveAt,
                day: day, recordedAt: Self.now,
                effect: .returnToStock(quantity: line.quantity, bookedCost: booked.cost, bookedQuantity: booked.quantity),
                unitAmount: line.saleLine.unitPrice, taxRate: line.saleLine.taxRate, revenue: -line.revenue, tax: -line.tax,
                sourceMovementID: line.saleLine.movementID, field: "lines[\(index)].quantity"))
        }
        // A line that goes back on no shelf (damaged) is written off as it came in, after every returned line: the
        // stock's quantity and value are what they were, and the loss is the cost the sale was booked at.
        for (index, line) in lines.enumerated() where !draft.lines[index].restock {
            let booked = try writer.bookedCost(of: line.saleLine.movementID)
            pending.append(PendingMovement(
                documentID: documentID, kind: .adjustment, lineNo: lines.count + index, productID: line.saleLine.productID,
                effectiveAt: effectiveAt, day: day, recordedAt: Self.now,
                effect: .writeOffReturned(quantity: line.quantity, bookedCost: booked.cost, bookedQuantity: booked.quantity),
                sourceMovementID: line.saleLine.movementID, field: "lines[\(index)].restock"))
        }
        try writer.write(pending)
        try writer.flush()
        let refund = try db.cachedStatement(sql: "INSERT INTO paymentRefund (returnId, paymentId, amount) VALUES (?, ?, ?)")
        for line in priced.refunds {
            try refund.execute(arguments: [documentID, line.payment.id.rawValue, line.amount.minorUnits])
        }
        return (documentID, priced)
    }

    public func deleteCustomerReturn(_ id: CustomerReturnID) async throws {
        try await self.deleteDocument(id.rawValue, kind: .customerReturn)
    }

    public func postSupplierReturn(_ draft: SupplierReturnDraft, idempotency: IdempotencyKey?) async throws -> Idempotent<SupplierReturnID> {
        let draft = try draft.validated()
        return try await self.writeOnce(idempotency, kind: .supplierReturn, book: { db, settings, log in
            if let supplier = draft.supplierID {
                try Self.requireRow(db, table: "supplier", id: supplier.rawValue, field: "supplierId", label: "supplier")
            }
            for (index, line) in draft.lines.enumerated() {
                try Self.requireUsableProduct(db, line.productID, field: "lines[\(index)].productId", editing: false)
            }
            let writer = LedgerWriter(db, calendar: settings.calendar)
            let draft = draft.dated(bookedAt: .now)
            let documentID = try Self.saveHeader(
                db, settings, kind: .supplierReturn, effectiveAt: draft.effectiveAt, replacing: nil, writer: writer,
                columns: ["supplierId": draft.supplierID?.rawValue, "note": draft.note])
            let effectiveAt = draft.effectiveAt.milliseconds
            try writer.write(draft.lines.enumerated().map { index, line in
                PendingMovement(
                    documentID: documentID, kind: .supplierReturn, lineNo: index, productID: line.productID, effectiveAt: effectiveAt,
                    day: settings.calendar.dayNumber(milliseconds: effectiveAt), recordedAt: Self.now,
                    effect: .issue(quantity: line.quantity), field: "lines[\(index)].quantity")
            })
            try writer.flush()
            try log.recordDocument(.recorded, .supplierReturn, id: documentID)
            return (documentID, SupplierReturnID(documentID))
        }, replay: { _, id in SupplierReturnID(id) })
    }

    public func deleteSupplierReturn(_ id: SupplierReturnID) async throws {
        try await self.deleteDocument(id.rawValue, kind: .supplierReturn)
    }

    /// Deletes a document and replays every product it touched.
    func deleteDocument(_ id: Int64, kind: MovementKind) async throws {
        try await self.write { db, settings, log in
            let old = try Self.requireDocument(db, id, kind: kind)
            if kind == .sale { try Self.requireNoReturns(db, SaleID(id)) }
            try log.recordDocument(.deleted, kind, id: id)
            let writer = LedgerWriter(db, calendar: settings.calendar)
            try writer.deleteMovements(documentID: id)
            try db.cachedStatement(sql: "DELETE FROM document WHERE id = ?").execute(arguments: [id])
            for (product, position) in old.firstPositions.sorted(by: { $0.key < $1.key }) {
                try writer.recost(product, from: position)
            }
            try writer.flush()
        }
    }
}

extension InventorySQLiteRepository {
    /// Records a batch of sales or purchases (`ids`, booked by this write) as one import: how many and their total.
    /// The total of imported sales `?1`…`?2` (their lines' revenue and tax, and their tips).
    ///
    /// `+kind`: the documents' range must choose the index (movement_document, the rowid). Without statistics SQLite
    /// took movement_sales for `kind = ?` and read every sale line ever booked on each import: batch posting slowed
    /// with the shop's size (2,489 lines/s on the 1,000,000-line benchmark shop instead of ~15,000).
    static let importedSalesTotalSQL = """
        SELECT (SELECT COALESCE(SUM(revenue + tax), 0) FROM movement WHERE documentId BETWEEN ?1 AND ?2 AND +kind = 'sale')
             + (SELECT COALESCE(SUM(tip), 0) FROM document WHERE id BETWEEN ?1 AND ?2 AND +kind = 'sale')
        """
    /// The lines of imported purchases `?1`…`?2` (see ``importedSalesTotalSQL`` for `+kind`).
    static let importedPurchaseLinesSQL = "SELECT quantity, unitAmount FROM movement WHERE documentId BETWEEN ?1 AND ?2 AND +kind = 'purchase'"

    static func recordImported(_ log: ActivityLog, _ kind: MovementKind, ids: [Int64]) throws {
        guard let first = ids.min(), let last = ids.max() else { return }
        let total: Int64
        if kind == .sale {
            total = try Int64.fetchOne(log.db, sql: Self.importedSalesTotalSQL, arguments: [first, last]) ?? 0
        } else {
            total = try Row.fetchAll(log.db, sql: Self.importedPurchaseLinesSQL, arguments: [first, last])
                .reduce(Money.zero) { $0 + Money.extended(Money(minorUnits: $1[1]), by: Quantity(thousandths: $1[0])) }.minorUnits
        }
        try log.record(kind == .sale ? .salesImported : .purchasesImported, figures: .init(total: Money(minorUnits: total), count: ids.count))
    }
}

/// What booking a sale wrote that reading it back in the same transaction need not read again (both stores).
package struct BookedSale: Sendable {
    package var id: Int64
    /// Whether any line chose options (else there are none to read: an edit's old ones went with its old lines).
    package var withOptions: Bool
    /// The payments as written (``PaymentDraft/booked(as:)``).
    package var payments: [PaymentRecord]
    /// The whole sale as written, when the store could answer it without reading it back.
    package var record: SaleRecord?

    /// Each line of `sale` as the ledger wrote it (`written`: line number → movement id and value change), its cost
    /// with its ingredients' (a recipe's issues are lines `RecipeLines.lineNo(line:component:)`).
    package static func lines(of sale: PricedSale, written: [Int: (id: Int64, valueChange: Money)]) -> [PricedSale.BookedLine] {
        var booked = sale.lines.indices.map { index in
            PricedSale.BookedLine(movementID: MovementID(written[index]?.id ?? 0), valueChange: written[index]?.valueChange ?? .zero)
        }
        for (lineNo, line) in written where lineNo >= RecipeLines.lineNo(line: 0, component: 0) {
            let saleLine = RecipeLines.saleLine(of: lineNo)
            if booked.indices.contains(saleLine) { booked[saleLine].valueChange += line.valueChange }
        }
        return booked
    }

    package init(id: Int64, withOptions: Bool, payments: [PaymentRecord]) {
        self.id = id
        self.withOptions = withOptions
        self.payments = payments
    }
}
