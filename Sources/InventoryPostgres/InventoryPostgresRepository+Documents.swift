import Foundation
import InventoryDomain
import PostgresNIO

// The books on PostgreSQL (``LedgerRepository``): purchases, adjustments, supplier returns and deletions so far, with
// idempotency keys and previews. The structure follows the SQLite store's `+Documents.swift` section by section, so the
// two can be read side by side; the rules are the domain's.

extension InventoryPostgresRepository: LedgerRepository {
    // MARK: - Purchases

    public func postPurchase(_ draft: PurchaseDraft, idempotency: IdempotencyKey?) async throws -> Idempotent<PurchaseRecord> {
        try await self.writeOnce(idempotency, kind: .purchase, book: { connection, settings, log in
            let record = try await self.bookPurchase(connection, settings, draft, replacing: nil)
            try await log.recordDocument(.recorded, .purchase, id: record.id.rawValue)
            return (record.id.rawValue, record)
        }, replay: { connection, id in try await self.fetchPurchase(connection, PurchaseID(id)) })
    }

    public func previewPurchase(_ draft: PurchaseDraft, replacing id: PurchaseID? = nil) async throws -> PurchaseRecord {
        try await self.dryRun { connection, settings in try await self.bookPurchase(connection, settings, draft, replacing: id) }
    }

    /// Books a purchase (new, or replacing `id`) and reads it back: the one write path of posting, editing and previewing.
    func bookPurchase(_ connection: PostgresConnection, _ settings: ShopSettings, _ draft: PurchaseDraft, replacing id: PurchaseID?) async throws -> PurchaseRecord {
        let old = try await id.asyncMap { try await self.requireDocument(connection, $0.rawValue, kind: .purchase) }
        let writer = PostgresLedgerWriter(connection, calendar: settings.calendar, logger: self.logger)
        let documentID = try await self.insertPurchase(connection, settings, draft, writer: writer, replacing: old)
        try await writer.flush()
        return try await self.fetchPurchase(connection, PurchaseID(documentID))
    }

    public func postPurchases(_ drafts: [PurchaseDraft]) async throws {
        try await self.write { connection, settings, log in
            let writer = PostgresLedgerWriter(connection, calendar: settings.calendar, logger: self.logger)
            // The batch's products are read, and locked, once for all its purchases rather than purchase by purchase.
            let existing = Set(drafts.flatMap { $0.lines.compactMap { if case .existing(let id) = $0.product { id } else { nil } } })
            let known = try await self.productFacts(connection, Array(existing))
            try await writer.lock(Array(known.keys))
            var ids: [Int64] = []
            for (index, draft) in drafts.enumerated() {
                do {
                    ids.append(try await self.insertPurchase(connection, settings, draft, writer: writer, replacing: nil, known: known))
                } catch let error as InventoryError {
                    throw error.nested(under: "purchases[\(index)]")
                }
            }
            try await writer.flush()
            try await self.recordImported(connection, log, .purchase, ids: ids)
        }
    }

    public func updatePurchase(_ id: PurchaseID, _ draft: PurchaseDraft) async throws -> PurchaseRecord {
        try await self.write { connection, settings, log in
            let record = try await self.bookPurchase(connection, settings, draft, replacing: id)
            try await log.recordDocument(.changed, .purchase, id: id.rawValue)
            return record
        }
    }

    public func deletePurchase(_ id: PurchaseID) async throws {
        try await self.deleteDocument(id.rawValue, kind: .purchase)
    }

    public func purchase(_ id: PurchaseID) async throws -> PurchaseRecord {
        try await self.read { connection in try await self.fetchPurchase(connection, id) }
    }

    public func purchases(limit: Int, offset: Int) async throws -> [DocumentSummary] {
        try await self.read { connection in
            var summaries: [DocumentSummary] = []
            for try await (id, effectiveAt, supplier, lines, total, note) in try await connection.prepared("""
                SELECT d.id, d.effectiveAt, s.name, COUNT(m.id), COALESCE(SUM(div(m.quantity * m.unitAmount + 500, 1000)), 0)::bigint, d.note
                FROM document d LEFT JOIN supplier s ON s.id = d.supplierId LEFT JOIN movement m ON m.documentId = d.id
                WHERE d.kind = 'purchase' GROUP BY d.id, s.name ORDER BY d.effectiveAt DESC, d.id DESC LIMIT \(limit) OFFSET \(offset)
                """, logger: self.logger).decode((Int64, Instant, String?, Int, Int64, String).self) {
                summaries.append(DocumentSummary(id: id, effectiveAt: effectiveAt, partyName: supplier, lineCount: lines, total: Money(minorUnits: total), note: note))
            }
            return summaries
        }
    }

    /// A document header: the old state of a document being replaced.
    struct DocumentHeader: Sendable {
        var id: Int64
        var effectiveAt: Instant
        /// Each product's earliest movement in the document.
        var firstPositions: [ProductID: LedgerPosition]
    }

    /// The document, locked for this write, with each product's earliest movement in it.
    func requireDocument(_ connection: PostgresConnection, _ id: Int64, kind: MovementKind) async throws -> DocumentHeader {
        guard let effectiveAt = try await connection.prepared(
            "SELECT effectiveAt FROM document WHERE id = \(id) AND kind = \(kind.rawValue) FOR UPDATE", logger: self.logger
        ).collect(Instant.self).first else {
            throw InventoryError(.notFound, field: "id", "\(kind.label) \(id) does not exist")
        }
        var positions: [ProductID: LedgerPosition] = [:]
        for try await (productID, at, lineNo) in try await connection.prepared(
            "SELECT productId, effectiveAt, lineNo FROM movement WHERE documentId = \(id)", logger: self.logger
        ).decode((Int64, Instant, Int).self) {
            let product = ProductID(productID)
            let position = LedgerPosition(effectiveAt: at.milliseconds, sequence: id, lineNo: lineNo)
            if positions[product].map({ position < $0 }) ?? true { positions[product] = position }
        }
        return DocumentHeader(id: id, effectiveAt: effectiveAt, firstPositions: positions)
    }

    /// Inserts (or replaces, keeping the id and entry sequence) a purchase and costs its lines. The products are locked
    /// before the purchase is dated, so a purchase dated when booked is booked in its products' ledger order. `known`
    /// holds facts already read (a batch reads all its products' at once).
    func insertPurchase(_ connection: PostgresConnection, _ settings: ShopSettings, _ draft: PurchaseDraft, writer: PostgresLedgerWriter,
                        replacing old: DocumentHeader?, known: [ProductID: ProductFacts] = [:]) async throws -> Int64 {
        var draft = try draft.validated()
        if let supplier = draft.supplierID {
            try await self.requireRow(connection, table: "supplier", id: supplier.rawValue, field: "supplierId", label: "supplier")
        }
        var productIDs: [ProductID] = []
        for (index, line) in draft.lines.enumerated() {
            switch line.product {
            case .existing(let id):
                if let facts = known[id] {
                    try facts.requireUsable(field: "lines[\(index)].productId", editing: old != nil)
                } else {
                    try await self.requireUsableProduct(connection, id, field: "lines[\(index)].productId", editing: old != nil)
                }
                productIDs.append(id)
            case .new(let details):
                do {
                    productIDs.append(try await self.insertProduct(connection, details))
                } catch let error as InventoryError {
                    throw error.nested(under: "lines[\(index)].product")
                }
            }
        }
        try await writer.lock(productIDs + (old?.firstPositions.keys.map { $0 } ?? []))
        draft = draft.dated(bookedAt: .now)
        let documentID = try await self.saveHeader(
            connection, settings, kind: .purchase, effectiveAt: draft.effectiveAt, replacing: old, writer: writer,
            columns: [("supplierId", .number(draft.supplierID?.rawValue)), ("note", .text(draft.note))])
        let day = settings.calendar.dayNumber(milliseconds: draft.effectiveAt.milliseconds)
        let now = Self.now
        let pending = draft.lines.enumerated().map { index, line in
            PendingMovement(
                documentID: documentID, kind: .purchase, lineNo: index, productID: productIDs[index], effectiveAt: draft.effectiveAt,
                day: day, recordedAt: now, effect: .receipt(quantity: line.quantity, unitCost: line.unitCost),
                unitAmount: line.unitCost, lotCode: line.lotCode, expiryDate: line.expiryDate, field: "lines[\(index)].quantity")
        }
        try await self.writeMovements(writer, pending, replacing: old)
        return documentID
    }

    /// A column of a document header and its value (bound, never spliced into the SQL).
    typealias HeaderColumn = (name: String, value: HeaderValue)

    /// A document header's value.
    enum HeaderValue {
        case number(Int64?), text(String?), flag(Bool)

        func bind(to statement: inout PreparedSQL) {
            switch self {
            case .number(let value): statement.bind(value)
            case .text(let value): statement.bind(value)
            case .flag(let value): statement.bind(value)
            }
        }
    }

    /// Writes a document header; an edit keeps the id (and so the entry sequence) and drops the old lines.
    func saveHeader(_ connection: PostgresConnection, _ settings: ShopSettings, kind: MovementKind, effectiveAt: Instant,
                    replacing old: DocumentHeader?, writer: PostgresLedgerWriter, columns: [HeaderColumn], recordedAt: Instant = InventoryPostgresRepository.now) async throws -> Int64 {
        let day = settings.calendar.dayNumber(milliseconds: effectiveAt.milliseconds)
        // The columns are a document kind's own (a few fixed lists), so each kind prepares one statement of each.
        if let old {
            try await writer.deleteMovements(documentID: old.id)
            let assignments = (["effectiveAt", "day"] + columns.map(\.name)).enumerated().map { "\($1) = $\($0 + 1)" }.joined(separator: ", ")
            var statement = PreparedSQL(shape: "UPDATE document SET \(assignments) WHERE id = $\(columns.count + 3)")
            statement.bind(effectiveAt)
            statement.bind(day)
            for column in columns { column.value.bind(to: &statement) }
            statement.bind(old.id)
            try await connection.run(statement, logger: self.logger)
            return old.id
        }
        let names = ["effectiveAt", "day"] + columns.map(\.name) + ["kind", "recordedAt"]
        var statement = PreparedSQL(shape: """
            INSERT INTO document (\(names.joined(separator: ", "))) VALUES (\((1...names.count).map { "$\($0)" }.joined(separator: ", "))) RETURNING id
            """)
        statement.bind(effectiveAt)
        statement.bind(day)
        for column in columns { column.value.bind(to: &statement) }
        statement.bind(kind.rawValue)
        statement.bind(recordedAt)
        return try await connection.prepared(statement, logger: self.logger).collect(Int64.self)[0]
    }

    /// Costs new movements: appended ones directly, back-dated or replacing ones by replaying each product.
    func writeMovements(_ writer: PostgresLedgerWriter, _ pending: [PendingMovement], replacing old: DocumentHeader?) async throws {
        guard let old else {
            try await writer.write(pending)
            return
        }
        var from = old.firstPositions
        for movement in pending where from[movement.productID].map({ movement.position < $0 }) ?? true {
            from[movement.productID] = movement.position
        }
        try await writer.insertUncosted(pending)
        for (product, position) in from.sorted(by: { $0.key < $1.key }) {
            try await writer.recost(product, from: position)
        }
    }

    /// Requires a row of a table (a fixed name, never input) to exist, locking it against deletion for this write.
    func requireRow(_ connection: PostgresConnection, table: String, id: Int64, field: String, label: String) async throws {
        var statement = PreparedSQL(shape: "SELECT id FROM \(table) WHERE id = $1 FOR KEY SHARE")
        statement.bind(id)
        let found = try await connection.prepared(statement, logger: self.logger).collect(Int64.self)
        guard !found.isEmpty else { throw InventoryError(.notFound, field: field, "\(label) \(id) does not exist") }
    }

    /// Requires product `id` to exist and to be usable in a document (``ProductFacts/requireUsable(field:editing:)``).
    func requireUsableProduct(_ connection: PostgresConnection, _ id: ProductID, field: String, editing: Bool) async throws {
        guard let archived = try await connection.prepared("SELECT isArchived FROM product WHERE id = \(id.rawValue)", logger: self.logger)
            .collect(Bool.self).first
        else { throw InventoryError(.notFound, field: field, "product \(id) does not exist") }
        try ProductFacts(id: id, isArchived: archived, salePrice: .zero, minimumSalePrice: nil, taxRate: .zero, name: "", optionGroups: [], recipe: [])
            .requireUsable(field: field, editing: editing)
    }

    func fetchPurchase(_ connection: PostgresConnection, _ id: PurchaseID) async throws -> PurchaseRecord {
        var header: (Instant, Instant, Int64?, String?, String)?
        for try await row in try await connection.prepared("""
            SELECT d.effectiveAt, d.recordedAt, d.supplierId, s.name, d.note FROM document d LEFT JOIN supplier s ON s.id = d.supplierId
            WHERE d.id = \(id.rawValue) AND d.kind = 'purchase'
            """, logger: self.logger).decode((Instant, Instant, Int64?, String?, String).self) { header = row }
        guard let header else { throw InventoryError(.notFound, field: "id", "purchase \(id) does not exist") }
        var lines: [PurchaseRecord.Line] = []
        for try await (movementID, productID, name, quantity, unitAmount, lotCode, expiryDate, averageCost, quantityAfter, valueAfter) in try await connection.prepared("""
            SELECT m.id, m.productId, p.name, m.quantity, m.unitAmount, m.lotCode, m.expiryDate, m.averageCostAfter, m.quantityAfter, m.valueAfter
            FROM movement m JOIN product p ON p.id = m.productId WHERE m.documentId = \(id.rawValue) ORDER BY m.lineNo
            """, logger: self.logger).decode((Int64, Int64, String, Int64, Int64, String?, String?, Int64, Int64, Int64).self) {
            let quantity = Quantity(thousandths: quantity)
            let unitCost = Money(minorUnits: unitAmount)
            lines.append(PurchaseRecord.Line(
                movementID: MovementID(movementID), productID: ProductID(productID), productName: name, quantity: quantity,
                unitCost: unitCost, lotCode: lotCode, expiryDate: expiryDate, amount: Money.extended(unitCost, by: quantity),
                balanceAfter: LedgerBalance(quantity: Quantity(thousandths: quantityAfter), value: Money(minorUnits: valueAfter),
                                            averageCost: UnitCost(scaled: averageCost))))
        }
        return PurchaseRecord(
            id: id, sequence: id.rawValue, effectiveAt: header.0, recordedAt: header.1, supplierID: header.2.map(SupplierID.init(rawValue:)),
            supplierName: header.3, note: header.4, lines: lines)
    }

    // MARK: - Adjustments

    public func postAdjustment(_ draft: AdjustmentDraft, idempotency: IdempotencyKey?) async throws -> Idempotent<AdjustmentID> {
        let asked = try draft.validated()
        return try await self.writeOnce(idempotency, kind: .adjustment, book: { connection, settings, log in
            let documentID = try await self.bookAdjustment(connection, settings, asked, field: "quantityChange")
            try await log.recordDocument(.recorded, .adjustment, id: documentID)
            return (documentID, AdjustmentID(documentID))
        }, replay: { _, id in AdjustmentID(id) })
    }

    /// Books a validated adjustment inside a transaction; answers its document id. `field` names the quantity in a
    /// refusal of the ledger (stock would go below zero).
    func bookAdjustment(_ connection: PostgresConnection, _ settings: ShopSettings, _ asked: AdjustmentDraft, field: String) async throws -> Int64 {
        try await self.requireUsableProduct(connection, asked.productID, field: "productId", editing: false)
        let writer = PostgresLedgerWriter(connection, calendar: settings.calendar, logger: self.logger)
        try await writer.lock([asked.productID])
        let asked = asked.dated(bookedAt: .now)
        // A count becomes a change against the stock on record at its instant, read under the product's lock.
        let onRecord = asked.countedQuantity == nil ? Quantity.zero : try await writer.quantity(of: asked.productID, at: asked.effectiveAt)
        let draft = try asked.resolvingCount(stockOnRecord: onRecord).validated()
        let documentID = try await self.saveHeader(
            connection, settings, kind: .adjustment, effectiveAt: draft.effectiveAt, replacing: nil, writer: writer,
            columns: [("reason", .text(draft.reason.rawValue)), ("note", .text(draft.note))])
        try await writer.write([
            PendingMovement(
                documentID: documentID, kind: .adjustment, lineNo: 0, productID: draft.productID, effectiveAt: draft.effectiveAt,
                day: settings.calendar.dayNumber(milliseconds: draft.effectiveAt.milliseconds), recordedAt: Self.now, effect: draft.effect,
                unitAmount: draft.unitCost ?? .zero, field: field)
        ])
        try await writer.flush()
        return documentID
    }

    public func createProduct(_ details: ProductDetails, openingStock: OpeningStock) async throws -> Product {
        let details = try details.validated()
        let opening = try openingStock.validated(for: details)
        let askedAt = Instant.now
        return try await self.write { connection, settings, log in
            let id = try await self.insertProduct(connection, details)
            try await log.recordProductCreated(id, details)
            let documentID = try await self.bookAdjustment(connection, settings, opening.adjustment(of: id, askedAt: askedAt), field: "openingStock.quantity")
            try await log.recordDocument(.recorded, .adjustment, id: documentID)
            return try await self.fetchProduct(connection, id)
        }
    }

    public func deleteAdjustment(_ id: AdjustmentID) async throws {
        try await self.deleteDocument(id.rawValue, kind: .adjustment)
    }

    // MARK: - Supplier returns

    public func postSupplierReturn(_ draft: SupplierReturnDraft, idempotency: IdempotencyKey?) async throws -> Idempotent<SupplierReturnID> {
        let draft = try draft.validated()
        return try await self.writeOnce(idempotency, kind: .supplierReturn, book: { connection, settings, log in
            if let supplier = draft.supplierID {
                try await self.requireRow(connection, table: "supplier", id: supplier.rawValue, field: "supplierId", label: "supplier")
            }
            for (index, line) in draft.lines.enumerated() {
                try await self.requireUsableProduct(connection, line.productID, field: "lines[\(index)].productId", editing: false)
            }
            let writer = PostgresLedgerWriter(connection, calendar: settings.calendar, logger: self.logger)
            try await writer.lock(draft.lines.map(\.productID))
            let draft = draft.dated(bookedAt: .now)
            let documentID = try await self.saveHeader(
                connection, settings, kind: .supplierReturn, effectiveAt: draft.effectiveAt, replacing: nil, writer: writer,
                columns: [("supplierId", .number(draft.supplierID?.rawValue)), ("note", .text(draft.note))])
            let now = Self.now
            try await writer.write(draft.lines.enumerated().map { index, line in
                PendingMovement(
                    documentID: documentID, kind: .supplierReturn, lineNo: index, productID: line.productID, effectiveAt: draft.effectiveAt,
                    day: settings.calendar.dayNumber(milliseconds: draft.effectiveAt.milliseconds), recordedAt: now,
                    effect: .issue(quantity: line.quantity), field: "lines[\(index)].quantity")
            })
            try await writer.flush()
            try await log.recordDocument(.recorded, .supplierReturn, id: documentID)
            return (documentID, SupplierReturnID(documentID))
        }, replay: { _, id in SupplierReturnID(id) })
    }

    public func deleteSupplierReturn(_ id: SupplierReturnID) async throws {
        try await self.deleteDocument(id.rawValue, kind: .supplierReturn)
    }

    // MARK: - Deleting

    /// Deletes a document and replays every product it touched.
    func deleteDocument(_ id: Int64, kind: MovementKind) async throws {
        try await self.write { connection, settings, log in
            let old = try await self.requireDocument(connection, id, kind: kind)
            if kind == .sale { try await self.requireNoReturns(connection, SaleID(id)) }
            let writer = PostgresLedgerWriter(connection, calendar: settings.calendar, logger: self.logger)
            try await writer.lock(Array(old.firstPositions.keys))
            try await log.recordDocument(.deleted, kind, id: id)
            try await writer.deleteMovements(documentID: id)
            try await connection.run("DELETE FROM document WHERE id = \(id)", logger: self.logger)
            for (product, position) in old.firstPositions.sorted(by: { $0.key < $1.key }) {
                try await writer.recost(product, from: position)
            }
            try await writer.flush()
        }
    }

    func requireNoReturns(_ connection: PostgresConnection, _ id: SaleID) async throws {
        let returns = try await connection.prepared("SELECT COUNT(*) FROM document WHERE saleId = \(id.rawValue)", logger: self.logger)
            .collect(Int64.self).first ?? 0
        guard returns == 0 else {
            throw InventoryError(.inUse, field: "id", "sale \(id) has \(returns) return(s); delete them first")
        }
    }

    /// Records a batch of sales or purchases (`ids`, booked by this write) as one import: how many and their total.
    func recordImported(_ connection: PostgresConnection, _ log: PostgresActivityLog, _ kind: MovementKind, ids: [Int64]) async throws {
        guard let first = ids.min(), let last = ids.max() else { return }
        var total = Money.zero
        if kind == .sale {
            let sum = try await connection.prepared("""
                SELECT ((SELECT COALESCE(SUM(revenue + tax), 0) FROM movement WHERE documentId BETWEEN \(first) AND \(last) AND kind = 'sale')
                     + (SELECT COALESCE(SUM(tip), 0) FROM document WHERE id BETWEEN \(first) AND \(last) AND kind = 'sale'))::bigint
                """, logger: self.logger).collect(Int64.self).first ?? 0
            total = Money(minorUnits: sum)
        } else {
            for try await (quantity, unitAmount) in try await connection.prepared("""
                SELECT quantity, unitAmount FROM movement WHERE documentId BETWEEN \(first) AND \(last) AND kind = 'purchase'
                """, logger: self.logger).decode((Int64, Int64).self) {
                total = total + Money.extended(Money(minorUnits: unitAmount), by: Quantity(thousandths: quantity))
            }
        }
        try await log.record(kind == .sale ? .salesImported : .purchasesImported, figures: .init(total: total, count: ids.count))
    }
}

extension Optional {
    /// The wrapped value transformed by an async function.
    func asyncMap<T>(_ transform: (Wrapped) async throws -> T) async rethrows -> T? {
        guard let value = self else { return nil }
        return try await transform(value)
    }
}
