import Foundation
import GRDB
import InventoryDomain

/// The activities of one write, recorded inside its transaction: each goes to the audit log at once (in the write's
/// savepoint, so it is kept exactly when the change is) and is kept for the ``ActivityFeed`` once the transaction
/// has committed (``InventorySQLiteRepository/write(_:)-(Database,ShopSettings,ActivityLog)``).
final class ActivityLog {
    let db: Database
    /// Who submitted the write.
    let agent: Agent
    let currency: Currency
    private(set) var activities: [ShopActivity] = []

    init(_ db: Database, agent: Agent, currency: Currency) {
        self.db = db
        self.agent = agent
        self.currency = currency
    }

    /// Records an activity of this write, by its agent (or `agent`), now, in the shop's currency.
    func record(_ kind: ShopActivity.Kind, record: ShopActivity.Record? = nil, productIDs: [ProductID] = [], subject: String? = nil,
                party: String? = nil, figures: ShopActivity.Figures = ShopActivity.Figures(), changes: [ShopActivity.Change] = [],
                by agent: Agent? = nil) throws {
        try self.record(ShopActivity(kind, by: agent ?? self.agent, at: Instant(milliseconds: InventorySQLiteRepository.now), record: record,
                                     productIDs: productIDs, subject: subject, party: party, figures: figures, changes: changes,
                                     currency: self.currency))
    }

    /// Writes an activity to the audit log and keeps it for the feed.
    func record(_ activity: ShopActivity) throws {
        try InventorySQLiteRepository.insertAudit(self.db, activity)
        self.activities.append(activity)
    }

    /// Records a new product.
    func recordProductCreated(_ id: ProductID, _ details: ProductDetails) throws {
        try self.record(.productCreated, record: .init(.product, id.rawValue), productIDs: [id], subject: details.name,
                        figures: .init(price: details.salePrice))
    }

    /// After a write: for every product whose stock its activities moved, whether it has just gone low (recorded as
    /// ``ShopActivity/Kind/stockWentLow`` and noted) or is back above its threshold (the note forgotten), as
    /// ``LowStockCrossing`` decides. Runs inside the write's savepoint, so a refused write records nothing.
    func noteLowStock(_ settings: ShopSettings) throws {
        var seen = Set<ProductID>()
        let touched = self.activities.filter { $0.kind.movesStock }.flatMap(\.productIDs).filter { seen.insert($0).inserted }
        guard !touched.isEmpty else { return }
        let fetch = try self.db.cachedStatement(sql: """
            SELECT p.name, p.quantity, p.tracksStock, p.lowStockThreshold, c.lowStockThreshold, p.isArchived, p.lowNoted
            FROM product p LEFT JOIN category c ON c.id = p.categoryId WHERE p.id = ?
            """)
        let note = try self.db.cachedStatement(sql: "UPDATE product SET lowNoted = ? WHERE id = ?")
        for id in touched {
            // Read from the statement itself (no GRDB row): this runs on every sale, inside the serial write.
            guard let row = try fetch.firstRow(id: id.rawValue, { row in
                (name: row[0] as String, quantity: Quantity(thousandths: row[1]), tracksStock: row[2] as Bool,
                 own: (row[3] as Int64?).map(Quantity.init(thousandths:)), category: (row[4] as Int64?).map(Quantity.init(thousandths:)),
                 isArchived: row[5] as Bool, noted: row[6] as Bool)
            }) else { continue }
            let (quantity, own, category) = (row.quantity, row.own, row.category)
            let status = StockStatus.of(quantity: quantity, tracksStock: row.tracksStock, productThreshold: own, categoryThreshold: category,
                                        shopDefault: settings.lowStockDefault)
            switch LowStockCrossing.decide(status: status, isArchived: row.isArchived, noted: row.noted) {
            case .unchanged:
                continue
            case .wentLow:
                try note.execute(arguments: [true, id.rawValue])
                let threshold = StockStatus.effectiveThreshold(productThreshold: own, categoryThreshold: category,
                                                               shopDefault: settings.lowStockDefault)
                try self.record(ShopActivity.wentLow(id, name: row.name, stock: quantity, threshold: threshold, by: self.agent,
                                                     at: Instant(milliseconds: InventorySQLiteRepository.now)))
            case .recovered:
                try note.execute(arguments: [false, id.rawValue])
            }
        }
    }

    /// Records an edit of a product's fields (categories named as they are now).
    func recordProductChanged(old: Product, new: Product) throws {
        let lookup = try self.db.cachedStatement(sql: "SELECT name FROM category WHERE id = ?")
        let changes = ShopActivity.Change.between(old.details, new.details) { try? String.fetchOne(lookup, arguments: [$0.rawValue]) }
        try self.record(.productChanged, record: .init(.product, new.id.rawValue), productIDs: [new.id], subject: new.name, changes: changes)
    }

    /// Records a sale just booked, from the record read back (``ShopActivity/sale(_:_:by:at:currency:)``).
    func recordSale(_ verb: ShopActivity.Kind.Verb, _ sale: SaleRecord) throws {
        try self.record(ShopActivity.sale(verb, sale, by: self.agent, at: Instant(milliseconds: InventorySQLiteRepository.now), currency: self.currency))
    }

    /// Records a document of the books as they hold it now: after booking (`recorded`, `changed`) or before
    /// deleting it.
    func recordDocument(_ verb: ShopActivity.Kind.Verb, _ kind: MovementKind, id: Int64) throws {
        let header = try Row.fetchOne(self.db.cachedStatement(sql: """
            SELECT d.tip, d.reason, d.saleId, COALESCE(s.name, c.name) FROM document d
            LEFT JOIN supplier s ON s.id = d.supplierId LEFT JOIN customer c ON c.id = d.customerId WHERE d.id = ?
            """), arguments: [id])
        let lines = try Row.fetchAll(self.db.cachedStatement(sql: """
            SELECT m.productId, p.name, m.quantity, m.unitAmount, m.revenue, m.tax, \(RecipeSQL.lineValueChange("m"))
            FROM movement m JOIN product p ON p.id = m.productId WHERE m.documentId = ? AND m.kind != 'consumption' ORDER BY m.lineNo
            """), arguments: [id]).map { row in
            ShopActivity.DocumentLine(
                productID: ProductID(row[0]), productName: row[1], quantity: Quantity(thousandths: row[2]), unitAmount: Money(minorUnits: row[3]),
                revenue: Money(minorUnits: row[4]), tax: Money(minorUnits: row[5]), valueChange: Money(minorUnits: row[6]))
        }
        try self.record(ShopActivity.document(
            verb, kind, id: id, lines: lines, tip: Money(minorUnits: header?[0] ?? 0), party: header?[3],
            reason: (header?[1] as String?).flatMap(AdjustmentReason.init(rawValue:)), saleID: (header?[2] as Int64?).map(SaleID.init(rawValue:)),
            by: self.agent, at: Instant(milliseconds: InventorySQLiteRepository.now), currency: self.currency))
    }
}

extension InventorySQLiteRepository {
    /// Appends an activity to the audit log (its kind as `action`, its sentence as `detail`, its facts as
    /// ``StoredAudit``). An agent whose account does not exist is kept by name only.
    static func insertAudit(_ db: Database, _ activity: ShopActivity) throws {
        let stored = try StoredAudit(activity)
        try db.cachedStatement(sql: """
            INSERT INTO auditLog (at, userId, username, action, detail, recordKind, recordId, productIds, facts, feedGroup)
            VALUES (?, (SELECT id FROM user WHERE id = ?), ?, ?, ?, ?, ?, ?, ?, ?)
            """).execute(arguments: [
                activity.at.milliseconds, activity.agent.userID?.rawValue, activity.agent.username, activity.kind.rawValue, activity.sentence,
                activity.record?.kind.rawValue, activity.record?.id, stored.productIDs, stored.facts, activity.feedGroup?.rawValue,
            ])
    }

    static func auditEntry(_ row: Row) -> AuditEntry {
        StoredAudit.entry(
            id: row["id"], at: row["at"], userID: row["userId"], username: row["username"], action: row["action"], detail: row["detail"],
            recordKind: row["recordKind"], recordID: row["recordId"], productIDs: row["productIds"], facts: row["facts"])
    }

    public func recordAudit(_ activity: ShopActivity) async throws {
        try await self.write { _, _, log in try log.record(activity) }
    }

    public func activityFeed(_ query: ActivityFeedQuery) async throws -> [AuditEntry] {
        try await self.read { db in
            var sql = """
                SELECT id, at, userId, username, action, detail, recordKind, recordId, productIds, facts FROM auditLog
                WHERE feedGroup IN (\(query.groups.map { _ in "?" }.joined(separator: ", ")))
                """
            var arguments = StatementArguments(query.groups.map(\.rawValue))
            if let userID = query.userID {
                sql += " AND userId = ?"
                arguments += [userID.rawValue]
            }
            if let from = query.range.from {
                sql += " AND at >= ?"
                arguments += [from.milliseconds]
            }
            if let to = query.range.to {
                sql += " AND at <= ?"
                arguments += [to.milliseconds]
            }
            if let before = query.before {
                sql += " AND id < ?"
                arguments += [before]
            }
            arguments += [query.limit]
            return try Row.fetchAll(db, sql: sql + " ORDER BY id DESC LIMIT ?", arguments: arguments).map(Self.auditEntry)
        }
    }

    public func auditLog(limit: Int, offset: Int) async throws -> [AuditEntry] {
        try await self.read { db in
            try Row.fetchAll(db, sql: """
                SELECT id, at, userId, username, action, detail, recordKind, recordId, productIds, facts FROM auditLog
                ORDER BY id DESC LIMIT ? OFFSET ?
                """, arguments: [limit, offset]).map(Self.auditEntry)
        }
    }
}
