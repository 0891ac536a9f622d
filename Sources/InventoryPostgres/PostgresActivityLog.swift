import Foundation
import InventoryDomain
import Logging
import PostgresNIO

/// The activities of one write, recorded inside its transaction: each goes to the audit log at once (so it is kept
/// exactly when the change is) and to the ``ActivityFeed`` once the transaction has committed. The audit row's stored
/// form is the domain's (``StoredAudit``), the same as on SQLite.
final class PostgresActivityLog: @unchecked Sendable {
    // Used by one write's task only, never shared between tasks (hence unchecked).
    let connection: PostgresConnection
    let agent: Agent
    let currency: Currency
    let logger: Logger
    private(set) var activities: [ShopActivity] = []
    /// The audit rows the activities went to, in the same order (what the write's notification names: ``LiveEvents``).
    private(set) var auditIDs: [Int64] = []

    init(_ connection: PostgresConnection, agent: Agent, currency: Currency, logger: Logger) {
        self.connection = connection
        self.agent = agent
        self.currency = currency
        self.logger = logger
    }

    /// Records an activity of this write, by its agent (or `agent`), now, in the shop's currency.
    func record(_ kind: ShopActivity.Kind, record: ShopActivity.Record? = nil, productIDs: [ProductID] = [], subject: String? = nil,
                party: String? = nil, figures: ShopActivity.Figures = ShopActivity.Figures(), changes: [ShopActivity.Change] = [],
                by agent: Agent? = nil) async throws {
        try await self.record(ShopActivity(kind, by: agent ?? self.agent, at: InventoryPostgresRepository.now, record: record,
                                           productIDs: productIDs, subject: subject, party: party, figures: figures, changes: changes,
                                           currency: self.currency))
    }

    /// Writes an activity to the audit log and keeps it, and its row's id, for the feed. An agent whose account does not exist is kept by
    /// name only. Texts are bound as SQLite receives them (``StoredText``: up to a NUL, which PostgreSQL refuses).
    func record(_ activity: ShopActivity) async throws {
        let stored = try StoredAudit(activity)
        let ids = try await self.connection.prepared("""
            INSERT INTO auditLog (at, userId, username, action, detail, recordKind, recordId, productIds, facts, feedGroup)
            VALUES (\(activity.at), (SELECT id FROM account WHERE id = \(activity.agent.userID?.rawValue)), \(StoredText.bound(activity.agent.username)),
                    \(activity.kind.rawValue), \(StoredText.bound(activity.sentence)), \(activity.record?.kind.rawValue), \(activity.record?.id),
                    \(stored.productIDs), \(StoredText.bound(stored.facts)), \(activity.feedGroup?.rawValue))
            RETURNING id
            """, logger: self.logger).collect(Int64.self)
        self.activities.append(activity)
        self.auditIDs.append(contentsOf: ids)
    }

    /// Records a sale just booked, from the record read back (``ShopActivity/sale(_:_:by:at:currency:)``).
    func recordSale(_ verb: ShopActivity.Kind.Verb, _ sale: SaleRecord) async throws {
        try await self.record(ShopActivity.sale(verb, sale, by: self.agent, at: InventoryPostgresRepository.now, currency: self.currency))
    }

    /// Records a document of the books as they hold it now: after booking (`recorded`, `changed`) or before deleting it.
    func recordDocument(_ verb: ShopActivity.Kind.Verb, _ kind: MovementKind, id: Int64) async throws {
        var header: (Int64, String?, Int64?, String?) = (0, nil, nil, nil)
        for try await row in try await self.connection.prepared("""
            SELECT d.tip, d.reason, d.saleId, COALESCE(s.name, c.name) FROM document d
            LEFT JOIN supplier s ON s.id = d.supplierId LEFT JOIN customer c ON c.id = d.customerId WHERE d.id = \(id)
            """, logger: self.logger).decode((Int64, String?, Int64?, String?).self) { header = row }
        var lines: [ShopActivity.DocumentLine] = []
        // A sale line's value change takes in its recipe's ingredient issues (their line numbers: RecipeLines).
        for try await (productID, name, quantity, unitAmount, revenue, tax, valueChange) in try await self.connection.prepared("""
            SELECT m.productId, p.name, m.quantity, m.unitAmount, m.revenue, m.tax,
                   (m.valueChange + (SELECT COALESCE(SUM(c.valueChange), 0) FROM movement c
                       WHERE c.documentId = m.documentId AND c.kind = 'consumption' AND c.lineNo / 1000 - 1000 = m.lineNo))::bigint
            FROM movement m JOIN product p ON p.id = m.productId WHERE m.documentId = \(id) AND m.kind != 'consumption' ORDER BY m.lineNo
            """, logger: self.logger).decode((Int64, String, Int64, Int64, Int64, Int64, Int64).self) {
            lines.append(ShopActivity.DocumentLine(
                productID: ProductID(productID), productName: name, quantity: Quantity(thousandths: quantity), unitAmount: Money(minorUnits: unitAmount),
                revenue: Money(minorUnits: revenue), tax: Money(minorUnits: tax), valueChange: Money(minorUnits: valueChange)))
        }
        try await self.record(ShopActivity.document(
            verb, kind, id: id, lines: lines, tip: Money(minorUnits: header.0), party: header.3,
            reason: header.1.flatMap(AdjustmentReason.init(rawValue:)), saleID: header.2.map(SaleID.init(rawValue:)),
            by: self.agent, at: InventoryPostgresRepository.now, currency: self.currency))
    }

    /// After a write: for every product whose stock its activities moved, whether it has just gone low (recorded as
    /// ``ShopActivity/Kind/stockWentLow`` and noted) or is back above its threshold (the note forgotten), as
    /// ``LowStockCrossing`` decides. Runs inside the write's transaction, so a refused write records nothing.
    func noteLowStock(_ settings: ShopSettings) async throws {
        var seen = Set<ProductID>()
        let touched = self.activities.filter { $0.kind.movesStock }.flatMap(\.productIDs).filter { seen.insert($0).inserted }
        for id in touched {
            var found: (String, Int64, Bool, Int64?, Int64?, Bool, Bool)?
            for try await row in try await self.connection.prepared("""
                SELECT p.name, p.quantity, p.tracksStock, p.lowStockThreshold, c.lowStockThreshold, p.isArchived, p.lowNoted
                FROM product p LEFT JOIN category c ON c.id = p.categoryId WHERE p.id = \(id.rawValue)
                """, logger: self.logger).decode((String, Int64, Bool, Int64?, Int64?, Bool, Bool).self) { found = row }
            guard let (name, stock, tracksStock, ownThreshold, categoryThreshold, isArchived, noted) = found else { continue }
            let quantity = Quantity(thousandths: stock)
            let own = ownThreshold.map(Quantity.init(thousandths:)), category = categoryThreshold.map(Quantity.init(thousandths:))
            let status = StockStatus.of(quantity: quantity, tracksStock: tracksStock, productThreshold: own, categoryThreshold: category,
                                        shopDefault: settings.lowStockDefault)
            switch LowStockCrossing.decide(status: status, isArchived: isArchived, noted: noted) {
            case .unchanged:
                continue
            case .wentLow:
                try await self.connection.run("UPDATE product SET lowNoted = true WHERE id = \(id.rawValue)", logger: self.logger)
                let threshold = StockStatus.effectiveThreshold(productThreshold: own, categoryThreshold: category, shopDefault: settings.lowStockDefault)
                try await self.record(ShopActivity.wentLow(id, name: name, stock: quantity, threshold: threshold, by: self.agent,
                                                           at: InventoryPostgresRepository.now))
            case .recovered:
                try await self.connection.run("UPDATE product SET lowNoted = false WHERE id = \(id.rawValue)", logger: self.logger)
            }
        }
    }
}
