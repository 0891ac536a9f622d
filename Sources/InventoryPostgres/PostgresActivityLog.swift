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

    /// Writes an activity to the audit log and keeps it for the feed. An agent whose account does not exist is kept by
    /// name only.
    func record(_ activity: ShopActivity) async throws {
        let stored = try StoredAudit(activity)
        try await self.connection.query("""
            INSERT INTO auditLog (at, userId, username, action, detail, recordKind, recordId, productIds, facts, feedGroup)
            VALUES (\(activity.at), (SELECT id FROM account WHERE id = \(activity.agent.userID?.rawValue)), \(activity.agent.username),
                    \(activity.kind.rawValue), \(activity.sentence), \(activity.record?.kind.rawValue), \(activity.record?.id),
                    \(stored.productIDs), \(stored.facts), \(activity.feedGroup?.rawValue))
            """, logger: self.logger)
        self.activities.append(activity)
    }
}
