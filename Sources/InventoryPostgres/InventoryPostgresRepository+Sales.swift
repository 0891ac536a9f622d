import Foundation
import InventoryDomain
import InventoryStore
import PostgresNIO

// Sales, their payments and chosen options, customer returns and lines sold beyond stock on PostgreSQL: the SQLite
// store's `+Documents.swift` sales sections, section by section; the pricing, payment and return rules are the domain's.

extension InventoryPostgresRepository {
    // MARK: - Sales

    public func postSale(_ draft: SaleDraft, idempotency: IdempotencyKey?) async throws -> Idempotent<SaleRecord> {
        try await self.writeOnce(idempotency, kind: .sale, book: { connection, settings, log in
            let record = try await self.bookSale(connection, settings, draft, replacing: nil)
            try await log.recordSale(.recorded, record)
            return (record.id.rawValue, record)
        }, replay: { connection, id in try await self.fetchSale(connection, SaleID(id)) }, afterCommit: { connection, booked in
            // A replayed sale whose first answer was lost may still be waiting for its number too.
            guard booked.record.receiptNumber == 0 else { return booked }
            var numbered = booked
            numbered.record.receiptNumber = await self.numberReceipts(on: connection, waitingFor: booked.record.id) ?? 0
            return numbered
        })
    }

    public func previewSale(_ draft: SaleDraft, replacing id: SaleID? = nil) async throws -> SaleRecord {
        try await self.dryRun { connection, settings in
            var sale = try await self.bookSale(connection, settings, draft, replacing: id)
            if sale.receiptNumber == 0 {
                // The number it would get: after the last one given and those of the sales waiting for theirs (this
                // one among them, uncommitted).
                sale.receiptNumber = try await connection.prepared("""
                    SELECT (SELECT COALESCE(MAX(receiptNumber), 0) FROM document WHERE receiptNumber IS NOT NULL)
                         + (SELECT COUNT(*) FROM document WHERE kind = 'sale' AND receiptNumber IS NULL)
                    """, logger: self.logger).collect(Int64.self).first ?? 0
            }
            return sale
        }
    }

    // MARK: - Receipt numbers

    /// Gives receipt numbers, without gaps across every instance, to the sales committed without one — in the order
    /// of their ids, after the last number given — and answers the number of sale `id` (nil when it could not be
    /// given: the connection lost; the next sale booked on any instance, or the next start, numbers it).
    ///
    /// A sale is numbered just after its own commit, on the same connection, rather than inside its transaction: the
    /// lock that makes numbers gapless (an advisory lock on the whole database) would otherwise be held until the
    /// sale's commit reached the disk, so sales would reach the disk one at a time whatever the number of instances
    /// and connections. Here one statement (`stockroom_number_receipts`, a function of the schema, in a transaction of
    /// its own) numbers every sale waiting, so one flush numbers many sales under load and the lock is never held over
    /// a round trip to this process; a sale already numbered by another's statement (visible, so on disk) skips the
    /// lock altogether. Refused sales and dry runs take no number, as they never commit.
    func numberReceipts(on connection: PostgresConnection, waitingFor id: SaleID?) async -> Int64? {
        do {
            return try await connection.prepared("SELECT stockroom_number_receipts(\(id?.rawValue))", logger: self.logger)
                .collect(Int64?.self).first ?? nil
        } catch {
            self.logger.warning("receipt numbers not given yet", metadata: ["error": "\(String(reflecting: error))"])
            return nil
        }
    }

    /// Books a sale (new, or replacing `id`) and reads it back: the one write path of posting, editing and previewing.
    func bookSale(_ connection: PostgresConnection, _ settings: ShopSettings, _ draft: SaleDraft, replacing id: SaleID?) async throws -> SaleRecord {
        let old = try await id.asyncMap { try await self.requireDocument(connection, $0.rawValue, kind: .sale) }
        if let id { try await self.requireNoReturns(connection, id) }
        let writer = PostgresLedgerWriter(connection, calendar: settings.calendar, logger: self.logger)
        let booked = try await self.insertSale(connection, settings, draft, writer: writer, replacing: old)
        try await writer.flush()
        if let record = booked.record { return record }
        return try await self.fetchSale(connection, SaleID(booked.id), justBooked: booked)
    }

    public func postSales(_ drafts: [SaleDraft]) async throws {
        try await self.write({ connection, settings, log in
            let writer = PostgresLedgerWriter(connection, calendar: settings.calendar, logger: self.logger)
            // The batch's products are read, and locked, once for all its sales rather than sale by sale.
            let known = try await self.productFacts(connection, Array(Set(drafts.flatMap { $0.lines.map(\.productID) })))
            try await writer.lock(Array(known.keys) + known.values.flatMap { $0.recipe.map(\.ingredientID) })
            var ids: [Int64] = []
            for (index, draft) in drafts.enumerated() {
                do {
                    ids.append(try await self.insertSale(connection, settings, draft, writer: writer, replacing: nil, known: known, answering: false).id)
                } catch let error as InventoryError {
                    throw error.nested(under: "sales[\(index)]")
                }
            }
            try await writer.flush()
            try await self.recordImported(connection, log, .sale, ids: ids)
        }, afterCommit: { connection, _ in _ = await self.numberReceipts(on: connection, waitingFor: nil) })
    }

    public func updateSale(_ id: SaleID, _ draft: SaleDraft) async throws -> SaleRecord {
        try await self.write { connection, settings, log in
            let record = try await self.bookSale(connection, settings, draft, replacing: id)
            try await log.recordSale(.changed, record)
            return record
        }
    }

    public func deleteSale(_ id: SaleID) async throws {
        try await self.deleteDocument(id.rawValue, kind: .sale)
    }

    public func sale(_ id: SaleID) async throws -> SaleRecord {
        try await self.read { connection in try await self.fetchSale(connection, id) }
    }

    public func sales(_ query: SaleQuery) async throws -> [DocumentSummary] {
        try query.check()
        var conditions = ["d.kind = 'sale'"]
        var binds = PostgresBindings()
        func bind(_ value: some PostgresNonThrowingEncodable & Sendable) -> String {
            binds.append(value)
            return "$\(binds.count)"
        }
        if let from = query.from { conditions.append("d.effectiveAt >= \(bind(from))") }
        if let to = query.to { conditions.append("d.effectiveAt <= \(bind(to))") }
        if let customer = query.customerID { conditions.append("d.customerId = \(bind(customer.rawValue))") }
        if let product = query.productID {
            conditions.append("EXISTS (SELECT 1 FROM movement x WHERE x.documentId = d.id AND x.kind = 'sale' AND x.productId = \(bind(product.rawValue)))")
        }
        for word in try query.words() {
            // The rule is SaleQuery's: receipt number (a number), customer, a line's product, or the note.
            var either: [String] = []
            if !word.receiptOnly {
                let pattern = bind(Self.likePattern(word.text))
                either = ["c.searchKey LIKE \(pattern)", "d.note LIKE \(pattern)",
                          "EXISTS (SELECT 1 FROM movement x JOIN product p ON p.id = x.productId WHERE x.documentId = d.id AND x.kind = 'sale' AND p.searchKey LIKE \(pattern))"]
            }
            if let number = word.receiptNumber { either.append("d.receiptNumber = \(bind(number))") }
            conditions.append("(" + either.joined(separator: " OR ") + ")")
        }
        let sql = """
            SELECT d.id, d.effectiveAt, c.name, COUNT(m.id), (COALESCE(SUM(m.revenue + m.tax), 0) + d.tip)::bigint, d.note, d.receiptNumber
            FROM document d LEFT JOIN customer c ON c.id = d.customerId LEFT JOIN movement m ON m.documentId = d.id AND m.kind = 'sale'
            WHERE \(conditions.joined(separator: " AND ")) GROUP BY d.id, c.name ORDER BY d.effectiveAt DESC, d.id DESC
            LIMIT \(bind(query.limit)) OFFSET \(bind(query.offset))
            """
        let bound = binds
        return try await self.read { connection in
            var summaries: [DocumentSummary] = []
            for try await (id, effectiveAt, customer, lines, total, note, receipt) in try await connection.query(
                PostgresQuery(unsafeSQL: sql, binds: bound), logger: self.logger
            ).decode((Int64, Instant, String?, Int, Int64, String, Int64?).self) {
                var summary = DocumentSummary(id: id, effectiveAt: effectiveAt, partyName: customer, lineCount: lines, total: Money(minorUnits: total), note: note)
                summary.receiptNumber = receipt
                summaries.append(summary)
            }
            return summaries
        }
    }

    /// A LIKE pattern (with the default escape character `\`) matching the folded text anywhere (up to a NUL, as SQLite
    /// reads it: ``StoredText``).
    static func likePattern(_ text: String) -> String {
        "%" + StoredText.bound(SearchText.key(text.trimmingCharacters(in: .whitespaces)))
            .replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "%", with: "\\%").replacingOccurrences(of: "_", with: "\\_") + "%"
    }

    /// The facts a sale needs about product `id` (its options and recipe read only when it has any).
    func productFacts(_ connection: PostgresConnection, _ id: ProductID, field: String) async throws -> ProductFacts {
        guard let facts = try await self.productFacts(connection, [id])[id] else {
            throw InventoryError(.notFound, field: field, "product \(id) does not exist")
        }
        return facts
    }

    /// The facts a sale needs about each of the products that exist among `ids`, in one statement (plus one for the
    /// options of those that have any, and one per recipe).
    func productFacts(_ connection: PostgresConnection, _ ids: [ProductID]) async throws -> [ProductID: ProductFacts] {
        var found: [ProductID: ProductFacts] = [:]
        var withOptions: [ProductID] = []
        var withRecipe: [ProductID] = []
        for try await row in try await connection.prepared("""
            SELECT id, isArchived, salePrice, minimumSalePrice, taxRate, name,
                   EXISTS (SELECT 1 FROM optionGroup WHERE productId = p.id), EXISTS (SELECT 1 FROM recipeComponent WHERE productId = p.id)
            FROM product p WHERE id = ANY(\(ids.map(\.rawValue)))
            """, logger: self.logger).decode((Int64, Bool, Int64, Int64?, Int64, String, Bool, Bool).self) {
            let id = ProductID(row.0)
            found[id] = ProductFacts(
                id: id, isArchived: row.1, salePrice: Money(minorUnits: row.2), minimumSalePrice: row.3.map(Money.init(minorUnits:)),
                taxRate: Percent(hundredths: row.4), name: row.5, optionGroups: [], recipe: [])
            if row.6 { withOptions.append(id) }
            if row.7 { withRecipe.append(id) }
        }
        if !withOptions.isEmpty {
            for (id, groups) in try await self.optionGroups(connection, of: withOptions) { found[id]?.optionGroups = groups }
        }
        for id in withRecipe { found[id]?.recipe = try await self.recipe(connection, id) }
        return found
    }

    /// Inserts (or replaces) a sale and costs its lines. Its products (and its recipes' ingredients) are locked before
    /// it is dated, so a sale dated when booked is booked in each product's ledger order whichever instance books it;
    /// a new sale takes the next receipt number last, under a lock held to the commit, so numbers stay gapless
    /// across instances and a refused sale takes none.
    /// `known` holds facts already read (a batch reads all its products' at once).
    func insertSale(_ connection: PostgresConnection, _ settings: ShopSettings, _ draft: SaleDraft, writer: PostgresLedgerWriter,
                    replacing old: DocumentHeader?, known: [ProductID: ProductFacts] = [:], answering: Bool = true) async throws -> BookedSale {
        var customerName: String?
        if let customer = draft.customerID {
            // Locked against deletion for this write, as ``requireRow(_:table:id:field:label:)`` locks.
            customerName = try await connection.prepared("SELECT name FROM customer WHERE id = \(customer.rawValue) FOR KEY SHARE", logger: self.logger)
                .collect(String.self).first
            guard customerName != nil else { throw InventoryError(.notFound, field: "customerId", "customer \(customer) does not exist") }
        }
        var products: [ProductID: ProductFacts] = [:]
        for (index, line) in draft.lines.enumerated() where products[line.productID] == nil {
            products[line.productID] = try await known[line.productID].asyncOr {
                try await self.productFacts(connection, line.productID, field: "lines[\(index)].productId")
            }
        }
        let ingredients = products.values.flatMap { $0.recipe.map(\.ingredientID) }
        try await writer.lock(Array(products.keys) + ingredients + (old?.firstPositions.keys.map { $0 } ?? []))
        let draft = draft.dated(bookedAt: .now)
        // A new sale takes the shop's meaning of prices; an edit keeps the one its sale was booked with.
        var includeTax = settings.pricesIncludeTax
        if let old {
            includeTax = try await connection.prepared("SELECT pricesIncludeTax FROM document WHERE id = \(old.id)", logger: self.logger)
                .collect(Bool.self).first ?? false
        }
        let sale = try draft.priced(products: products, editing: old != nil, currency: settings.currency, pricesIncludeTax: includeTax)
        let header = sale.draft
        // The header keeps the first payment that counts as the sale's method (lists and the CSV show it) and the cash
        // handed over in all; the payments themselves are in salePayment.
        var columns: [HeaderColumn] = [
            ("customerId", .number(header.customerID?.rawValue)), ("note", .text(header.note)), ("tip", .number(header.tip.minorUnits)),
            ("paymentMethod", .text(sale.headerPaymentMethod.rawValue)), ("cashTendered", .number(sale.headerCashTendered?.minorUnits)),
            ("pricesIncludeTax", .flag(includeTax)), ("approvedBy", .text(header.approvedBy)), ("stockApprovedBy", .text(header.stockApprovedBy)),
        ]
        // An edit keeps who rang the sale up and its receipt number.
        if old == nil { columns.append(("soldBy", .text(header.soldBy))) }
        let recordedAt = Self.now
        let documentID = try await self.saveHeader(connection, settings, kind: .sale, effectiveAt: header.effectiveAt, replacing: old, writer: writer,
                                                   columns: columns, recordedAt: recordedAt)
        // A new sale is answered from what is written here (``PricedSale/record(id:recordedAt:receiptNumber:productNames:booked:payments:customerName:customerVisit:)``):
        // the ledger keeps its lines' movement ids and costs as it writes them. Its number is given after the commit.
        let answeredAsWritten = answering && old == nil && header.stockApprovedBy.isEmpty
        if answeredAsWritten { writer.watchedDocument = documentID }
        defer { writer.watchedDocument = nil }
        let day = settings.calendar.dayNumber(milliseconds: header.effectiveAt.milliseconds)
        let now = Self.now
        let pending = sale.lines.enumerated().map { index, line in
            PendingMovement(
                documentID: documentID, kind: .sale, lineNo: index, productID: line.productID, effectiveAt: header.effectiveAt, day: day,
                recordedAt: now, effect: .issue(quantity: line.quantity), unitAmount: line.unitPrice, discount: line.bookedDiscount,
                taxRate: line.taxRate, revenue: line.revenue, tax: line.tax, beyondStock: !header.stockApprovedBy.isEmpty,
                field: "lines[\(index)].quantity")
        } + sale.lines.enumerated().flatMap { index, line in
            // A recipe product's line issues its ingredients (``Recipe``); a shortfall names the line's quantity.
            Recipe.consumption(of: line.quantity, products[line.productID]?.recipe ?? []).enumerated().map { component, used in
                PendingMovement(
                    documentID: documentID, kind: .consumption, lineNo: RecipeLines.lineNo(line: index, component: component),
                    productID: used.ingredientID, effectiveAt: header.effectiveAt, day: day, recordedAt: now, effect: .issue(quantity: used.quantity),
                    beyondStock: !header.stockApprovedBy.isEmpty, field: "lines[\(index)].quantity")
            }
        }
        try await self.writeMovements(writer, pending, replacing: old)
        let withOptions = try await self.writeChosenOptions(connection, documentID: documentID, sale.lines)
        if !header.stockApprovedBy.isEmpty {
            // The approval covers the lines that needed it: a line the stock on record covered, or of a product that allows
            // negative stock anyway, keeps the ordinary rule; a sale none of whose lines went beyond stock keeps no approver.
            try await connection.run("""
                UPDATE movement SET beyondStock = false
                WHERE documentId = \(documentID) AND beyondStock
                  AND (quantityAfter >= 0 OR productId IN (SELECT id FROM product WHERE allowsNegativeStock OR NOT tracksStock))
                """, logger: self.logger)
            if try await !self.exists("SELECT 1 FROM movement WHERE documentId = \(documentID) AND beyondStock", connection) {
                try await connection.run("UPDATE document SET stockApprovedBy = '' WHERE id = \(documentID)", logger: self.logger)
            }
        }
        let payments = try await self.writePayments(connection, sale.payments, documentID: documentID, replacing: old != nil)
        // A new sale is numbered just after it commits (``numberReceipts(on:waitingFor:)``).
        var booked = BookedSale(id: documentID, withOptions: withOptions, payments: payments)
        if answeredAsWritten {
            let id = SaleID(documentID)
            var visit: Int?
            if let customer = header.customerID { visit = try await self.visitNumber(connection, sale: id, customer: customer) }
            booked.record = sale.record(id: id, recordedAt: recordedAt, receiptNumber: 0, productNames: products.mapValues(\.name),
                                        booked: BookedSale.lines(of: sale, written: writer.watchedLines), payments: payments,
                                        customerName: customerName, customerVisit: visit)
        }
        return booked
    }

    /// Which of `customer`'s visits sale `id` is.
    func visitNumber(_ connection: PostgresConnection, sale id: SaleID, customer: CustomerID) async throws -> Int {
        Int(try await connection.prepared("""
            SELECT COUNT(*) FROM document WHERE customerId = \(customer.rawValue) AND kind = 'sale' AND id <= \(id.rawValue)
            """, logger: self.logger).collect(Int64.self).first ?? 0)
    }

    /// Writes a sale's payments, replacing those it had (an edit; a sale with returns, so refunds, is not editable);
    /// answers them as booked.
    func writePayments(_ connection: PostgresConnection, _ payments: [PaymentDraft], documentID: Int64, replacing: Bool) async throws -> [PaymentRecord] {
        if replacing { try await connection.run("DELETE FROM salePayment WHERE documentId = \(documentID)", logger: self.logger) }
        var booked: [PaymentRecord] = []
        for (index, payment) in payments.enumerated() {
            let id = try await connection.prepared("""
                INSERT INTO salePayment (documentId, lineNo, method, amount, tendered, status, reference)
                VALUES (\(documentID), \(index), \(payment.method.rawValue), \(payment.amount.minorUnits), \(payment.tendered?.minorUnits),
                        \(payment.status.rawValue), \(payment.reference)) RETURNING id
                """, logger: self.logger).collect(Int64.self).first
            guard let id else { throw InventoryError(.storage, field: "payments", "payment \(index) was not stored") }
            booked.append(payment.booked(as: PaymentID(id)))
        }
        return booked
    }

    /// Stores the options chosen on a sale's lines (a copy: later edits of the product's options leave them alone);
    /// whether there were any.
    func writeChosenOptions(_ connection: PostgresConnection, documentID: Int64, _ lines: [PricedSale.Line]) async throws -> Bool {
        guard lines.contains(where: { !$0.options.isEmpty }) else { return false }
        var movementByLine: [Int: Int64] = [:]
        for try await (lineNo, id) in try await connection.prepared(
            "SELECT lineNo, id FROM movement WHERE documentId = \(documentID) AND kind = 'sale'", logger: self.logger
        ).decode((Int, Int64).self) where movementByLine[lineNo] == nil { movementByLine[lineNo] = id }
        for (lineNo, line) in lines.enumerated() {
            guard let movementID = movementByLine[lineNo] else { continue }
            for (position, option) in line.options.enumerated() {
                try await connection.run("""
                    INSERT INTO saleLineOption (movementId, position, optionId, groupName, name, priceChange)
                    VALUES (\(movementID), \(position), \(option.optionID.rawValue), \(option.group), \(option.name), \(option.priceChange.minorUnits))
                    """, logger: self.logger)
            }
        }
        return true
    }

    /// A sale's payments in the order they were taken, each with what returns refunded to it.
    func fetchPayments(_ connection: PostgresConnection, _ id: SaleID) async throws -> [PaymentRecord] {
        var payments: [PaymentRecord] = []
        for try await (paymentID, method, amount, tendered, status, reference, refunded) in try await connection.prepared("""
            SELECT p.id, p.method, p.amount, p.tendered, p.status, p.reference,
                   (SELECT COALESCE(SUM(r.amount), 0) FROM paymentRefund r WHERE r.paymentId = p.id)::bigint
            FROM salePayment p WHERE p.documentId = \(id.rawValue) ORDER BY p.lineNo
            """, logger: self.logger).decode((Int64, String, Int64, Int64?, String, String, Int64).self) {
            payments.append(PaymentRecord(
                id: PaymentID(paymentID), method: PaymentMethod(rawValue: method) ?? .other, amount: Money(minorUnits: amount),
                tendered: tendered.map(Money.init(minorUnits:)), takenStatus: PaymentStatus(rawValue: status) ?? .completed,
                reference: reference, refunded: Money(minorUnits: refunded)))
        }
        return payments
    }

    public func settlePayment(_ id: PaymentID, of saleID: SaleID, to status: PaymentStatus) async throws -> SaleRecord {
        try await self.write { connection, _, log in
            _ = try await self.requireDocument(connection, saleID.rawValue, kind: .sale)
            let sale = try await self.fetchSale(connection, saleID)
            guard let payment = sale.payments.first(where: { $0.id == id }) else {
                throw InventoryError(.notFound, field: "paymentId", "payment \(id) is not a payment of sale \(saleID)")
            }
            let settled = try payment.settled(to: status)
            try await connection.run("UPDATE salePayment SET status = \(settled.takenStatus.rawValue) WHERE id = \(id.rawValue)", logger: self.logger)
            try await log.recordDocument(.changed, .sale, id: saleID.rawValue)
            return try await self.fetchSale(connection, saleID)
        }
    }

    /// Sale `id` as stored. A sale `justBooked` in this transaction is read without what its booking already knows:
    /// its payments as written, no options unless it chose some, and no returns (a new sale has none; an edit is
    /// refused when it has some).
    func fetchSale(_ connection: PostgresConnection, _ id: SaleID, justBooked: BookedSale? = nil) async throws -> SaleRecord {
        typealias Header = (Instant, Instant, Int64?, String?, String, Int64, String?, String, Int64?, Int64?, Bool, String, String)
        var found: Header?
        for try await row in try await connection.prepared("""
            SELECT d.effectiveAt, d.recordedAt, d.customerId, c.name, d.note, d.tip, d.paymentMethod, d.soldBy, d.cashTendered, d.receiptNumber,
                   d.pricesIncludeTax, d.approvedBy, d.stockApprovedBy
            FROM document d LEFT JOIN customer c ON c.id = d.customerId WHERE d.id = \(id.rawValue) AND d.kind = 'sale'
            """, logger: self.logger).decode(Header.self) { found = row }
        guard let header = found else { throw InventoryError(.notFound, field: "id", "sale \(id) does not exist") }
        let options = justBooked?.withOptions == false ? [:] : try await self.chosenOptions(connection, documentID: id.rawValue)
        var lines: [SaleRecord.Line] = []
        for try await row in try await connection.prepared("""
            SELECT m.id, m.productId, p.name, m.quantity, m.unitAmount, m.discount, m.taxRate, m.tax, m.revenue,
                   (m.valueChange + (SELECT COALESCE(SUM(c.valueChange), 0) FROM movement c
                       WHERE c.documentId = m.documentId AND c.kind = 'consumption' AND c.lineNo / 1000 - 1000 = m.lineNo))::bigint,
                   (SELECT COALESCE(SUM(r.quantity), 0) FROM movement r WHERE r.sourceMovementId = m.id AND r.kind = 'customerReturn')::bigint,
                   m.beyondStock, m.quantityAfter
            FROM movement m JOIN product p ON p.id = m.productId WHERE m.documentId = \(id.rawValue) AND m.kind = 'sale' ORDER BY m.lineNo
            """, logger: self.logger).decode((Int64, Int64, String, Int64, Int64, Int64, Int64, Int64, Int64, Int64, Int64, Bool, Int64).self) {
            var line = SaleRecord.Line(
                movementID: MovementID(row.0), productID: ProductID(row.1), productName: row.2,
                quantity: Quantity(thousandths: row.3).magnitude, unitPrice: Money(minorUnits: row.4),
                discount: Money(minorUnits: row.5), taxRate: Percent(hundredths: row.6), tax: Money(minorUnits: row.7),
                revenue: Money(minorUnits: row.8), costOfGoodsSold: Money(minorUnits: -row.9),
                returnedQuantity: Quantity(thousandths: row.10).magnitude, taxIncluded: header.10)
            line.options = options[row.0] ?? []
            if row.11 {
                line.soldBeyondStock = SoldBeyondStock.shortBy(quantity: line.quantity, stockAfter: Quantity(thousandths: row.12))
            }
            lines.append(line)
        }
        var record = SaleRecord(
            id: id, sequence: id.rawValue, effectiveAt: header.0, recordedAt: header.1,
            customerID: header.2.map(CustomerID.init(rawValue:)), customerName: header.3, note: header.4,
            tip: Money(minorUnits: header.5), paymentMethod: PaymentMethod(rawValue: header.6 ?? "cash") ?? .cash, lines: lines,
            soldBy: header.7, cashTendered: header.8.map(Money.init(minorUnits:)), receiptNumber: header.9 ?? 0)
        record.approvedBy = header.11
        record.stockApprovedBy = header.12
        if let justBooked {
            record.payments = justBooked.payments
        } else {
            record.payments = try await self.fetchPayments(connection, id)
            record.returns = try await self.fetchReturns(connection, of: id)
        }
        if let customer = record.customerID { record.customerVisit = try await self.visitNumber(connection, sale: id, customer: customer) }
        return record
    }

    /// The chosen options of a sale's lines, by movement id.
    func chosenOptions(_ connection: PostgresConnection, documentID: Int64) async throws -> [Int64: [ChosenModifier]] {
        var result: [Int64: [ChosenModifier]] = [:]
        for try await (movementID, optionID, group, name, priceChange) in try await connection.prepared("""
            SELECT o.movementId, o.optionId, o.groupName, o.name, o.priceChange FROM saleLineOption o
            JOIN movement m ON m.id = o.movementId WHERE m.documentId = \(documentID) ORDER BY o.movementId, o.position
            """, logger: self.logger).decode((Int64, Int64, String, String, Int64).self) {
            result[movementID, default: []].append(ChosenModifier(optionID: ModifierID(optionID), group: group, name: name, priceChange: Money(minorUnits: priceChange)))
        }
        return result
    }

    /// The customer returns booked against sale `id`, oldest first, each with its lines and what it refunded.
    func fetchReturns(_ connection: PostgresConnection, of id: SaleID) async throws -> [SaleRecord.Return] {
        var returns: [SaleRecord.Return] = []
        for try await row in try await connection.prepared("""
            SELECT r.documentId, d.effectiveAt, d.note,
                   (SELECT COALESCE(SUM(f.amount), 0) FROM paymentRefund f WHERE f.returnId = r.documentId)::bigint,
                   r.sourceMovementId, r.productId, p.name, r.quantity,
                   NOT EXISTS (SELECT 1 FROM movement w WHERE w.documentId = r.documentId AND w.sourceMovementId = r.sourceMovementId
                                                          AND w.effect = 'writeOffReturned')
            FROM movement s JOIN movement r ON r.sourceMovementId = s.id
            JOIN document d ON d.id = r.documentId JOIN product p ON p.id = r.productId
            WHERE s.documentId = \(id.rawValue) AND s.kind = 'sale' AND r.kind = 'customerReturn'
            ORDER BY d.effectiveAt, r.documentId, r.lineNo
            """, logger: self.logger).decode((Int64, Instant, String, Int64, Int64, Int64, String, Int64, Bool).self) {
            let returnID = CustomerReturnID(row.0)
            let line = SaleRecord.Return.Line(saleLineID: MovementID(row.4), productID: ProductID(row.5), productName: row.6,
                                              quantity: Quantity(thousandths: row.7).magnitude, restocked: row.8)
            if returns.last?.id == returnID {
                returns[returns.count - 1].lines.append(line)
            } else {
                returns.append(SaleRecord.Return(id: returnID, effectiveAt: row.1, note: row.2, refunded: Money(minorUnits: row.3), lines: [line]))
            }
        }
        return returns
    }

    // MARK: - Customer returns

    public func postCustomerReturn(_ draft: CustomerReturnDraft, idempotency: IdempotencyKey?) async throws -> Idempotent<CustomerReturnID> {
        try await self.writeOnce(idempotency, kind: .customerReturn, book: { connection, settings, log in
            let (documentID, _) = try await self.bookCustomerReturn(connection, settings, draft)
            try await log.recordDocument(.recorded, .customerReturn, id: documentID)
            return (documentID, CustomerReturnID(documentID))
        }, replay: { _, id in CustomerReturnID(id) })
    }

    public func previewCustomerReturn(_ draft: CustomerReturnDraft) async throws -> PricedCustomerReturn {
        try await self.dryRun { connection, settings in try await self.bookCustomerReturn(connection, settings, draft).1 }
    }

    /// Books a customer return: its lines back into stock at the cost they left with, its refund to the sale's payments.
    /// The sale is locked first, so two returns of the same line at once cannot both take what is left to return.
    func bookCustomerReturn(_ connection: PostgresConnection, _ settings: ShopSettings, _ draft: CustomerReturnDraft) async throws -> (Int64, PricedCustomerReturn) {
        _ = try await self.requireDocument(connection, draft.saleID.rawValue, kind: .sale)
        let writer = PostgresLedgerWriter(connection, calendar: settings.calendar, logger: self.logger)
        var sale = try await self.fetchSale(connection, draft.saleID)
        try await writer.lock(sale.lines.map(\.productID))
        sale = try await self.fetchSale(connection, draft.saleID)
        let draft = draft.dated(bookedAt: .now)
        let priced = try draft.refunded(against: sale, currency: settings.currency)
        let lines = priced.lines
        let documentID = try await self.saveHeader(
            connection, settings, kind: .customerReturn, effectiveAt: draft.effectiveAt, replacing: nil, writer: writer,
            columns: [("saleId", .number(draft.saleID.rawValue)), ("customerId", .number(sale.customerID?.rawValue)), ("note", .text(draft.note))])
        let day = settings.calendar.dayNumber(milliseconds: draft.effectiveAt.milliseconds)
        let now = Self.now
        var pending: [PendingMovement] = []
        for (index, line) in lines.enumerated() {
            let booked = try await writer.bookedCost(of: line.saleLine.movementID)
            pending.append(PendingMovement(
                documentID: documentID, kind: .customerReturn, lineNo: index, productID: line.saleLine.productID, effectiveAt: draft.effectiveAt,
                day: day, recordedAt: now,
                effect: .returnToStock(quantity: line.quantity, bookedCost: booked.cost, bookedQuantity: booked.quantity),
                unitAmount: line.saleLine.unitPrice, taxRate: line.saleLine.taxRate, revenue: -line.revenue, tax: -line.tax,
                sourceMovementID: line.saleLine.movementID, field: "lines[\(index)].quantity"))
        }
        // A line that goes back on no shelf (damaged) is written off as it came in, after every returned line.
        for (index, line) in lines.enumerated() where !draft.lines[index].restock {
            let booked = try await writer.bookedCost(of: line.saleLine.movementID)
            pending.append(PendingMovement(
                documentID: documentID, kind: .adjustment, lineNo: lines.count + index, productID: line.saleLine.productID,
                effectiveAt: draft.effectiveAt, day: day, recordedAt: now,
                effect: .writeOffReturned(quantity: line.quantity, bookedCost: booked.cost, bookedQuantity: booked.quantity),
                sourceMovementID: line.saleLine.movementID, field: "lines[\(index)].restock"))
        }
        try await writer.write(pending)
        try await writer.flush()
        for line in priced.refunds {
            try await connection.run(
                "INSERT INTO paymentRefund (returnId, paymentId, amount) VALUES (\(documentID), \(line.payment.id.rawValue), \(line.amount.minorUnits))",
                logger: self.logger)
        }
        return (documentID, priced)
    }

    public func deleteCustomerReturn(_ id: CustomerReturnID) async throws {
        try await self.deleteDocument(id.rawValue, kind: .customerReturn)
    }

    // MARK: - Sold beyond stock

    public func soldBeyondStock(includeReviewed: Bool) async throws -> [SoldBeyondStock] {
        try await self.read { connection in try await self.soldBeyondStock(connection, sale: nil, includeReviewed: includeReviewed) }
    }

    public func markBeyondStockReviewed(_ saleID: SaleID, by manager: String) async throws -> [SoldBeyondStock] {
        try await self.write { connection, _, log in
            _ = try await self.requireDocument(connection, saleID.rawValue, kind: .sale)
            let lines = try await self.soldBeyondStock(connection, sale: saleID, includeReviewed: true)
            guard !lines.isEmpty else {
                throw InventoryError(.invalidValue, field: "id", "sale \(saleID) sold nothing beyond the stock on record")
            }
            try await connection.run(
                "UPDATE document SET stockReviewedBy = \(manager), stockReviewedAt = \(Self.now) WHERE id = \(saleID.rawValue)", logger: self.logger)
            try await log.recordDocument(.changed, .sale, id: saleID.rawValue)
            return try await self.soldBeyondStock(connection, sale: saleID, includeReviewed: true)
        }
    }

    /// The lines of `sale` (or of every sale) still below zero after an approved sale line, newest first.
    func soldBeyondStock(_ connection: PostgresConnection, sale: SaleID?, includeReviewed: Bool) async throws -> [SoldBeyondStock] {
        var conditions = ["m.beyondStock", "m.quantityAfter < 0"]
        if let sale { conditions.append("m.documentId = \(sale.rawValue)") }
        if !includeReviewed { conditions.append("d.stockReviewedBy = ''") }
        typealias Row = (Int64, Int64?, Instant, Int64, Int64, String, Int64, Int64, Int64, String, String, String, Instant?)
        var lines: [SoldBeyondStock] = []
        for try await row in try await connection.query(PostgresQuery(unsafeSQL: """
            SELECT d.id, d.receiptNumber, d.effectiveAt, m.id, m.productId, p.name, m.quantity, m.quantityAfter, p.quantity,
                   d.soldBy, d.stockApprovedBy, d.stockReviewedBy, d.stockReviewedAt
            FROM movement m JOIN document d ON d.id = m.documentId JOIN product p ON p.id = m.productId
            WHERE \(conditions.joined(separator: " AND "))
            ORDER BY d.effectiveAt DESC, d.id DESC, m.lineNo
            """), logger: self.logger).decode(Row.self) {
            lines.append(SoldBeyondStock(
                saleID: SaleID(row.0), receiptNumber: row.1 ?? 0, effectiveAt: row.2, movementID: MovementID(row.3),
                productID: ProductID(row.4), productName: row.5, quantity: Quantity(thousandths: row.6).magnitude,
                stockAfter: Quantity(thousandths: row.7), stockNow: Quantity(thousandths: row.8), soldBy: row.9,
                approvedBy: row.10, reviewedBy: row.11, reviewedAt: row.12))
        }
        return lines
    }
}
