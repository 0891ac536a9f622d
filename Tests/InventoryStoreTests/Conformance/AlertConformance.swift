import Foundation
import InventoryDomain
import Testing

/// Alerts (``ShopAlert``): a drawer closed with a difference is an activity in the feed's `alerts`; a manager's opt-in
/// is kept per account and audited; refused changes record nothing.
@Suite struct AlertConformance {
    @Test(arguments: Backend.ported)
    func aDrawerClosedShortIsAnAlertInTheFeed(backend: Backend) async throws {
        let shop = try await ActivityConformance.shop(backend)
        let store = shop.store
        let now = Instant.now.milliseconds
        let session = try await shop.asAda { try await store.openDrawer(float: eur("100.00"), note: "", by: "ada", at: now - 60_000) }
        await #expect(throws: InventoryError.self) { try await shop.asAda { _ = try await store.closeDrawer(counted: eur("-1"), by: "ada", at: now) } }
        #expect(try await store.activityFeed(ActivityFeedQuery(groups: [.alerts])).isEmpty)
        _ = try await shop.asAda { try await store.closeDrawer(counted: eur("95.00"), by: "ada", at: now) }
        let alerts = try await store.activityFeed(ActivityFeedQuery(groups: [.alerts]))
        #expect(alerts.map(\.sentence) == ["ada closed the drawer (drawer session #\(session.id.rawValue)): counted €95.00, expected €100.00, €5.00 short"])
        #expect(alerts.first?.figures == ShopActivity.Figures(total: eur("95.00"), expected: eur("100.00"), difference: eur("-5.00")))
        #expect(shop.heard.all.last?.alert?.kind == .cashDifference)

        // A drawer that adds up is audited but is no alert.
        _ = try await store.openDrawer(float: eur("50.00"), note: "", by: "ada", at: now + 1000)
        _ = try await shop.asAda { try await store.closeDrawer(counted: eur("50.00"), by: "ada", at: now + 2000) }
        #expect(try await store.activityFeed(ActivityFeedQuery(groups: [.alerts])).count == 1)
        #expect(try await store.auditLog(limit: 1, offset: 0).first?.kind == .drawerClosed)
    }

    @Test(arguments: Backend.ported)
    func aManagersOptInIsKeptAndAudited(backend: Backend) async throws {
        let shop = try await ActivityConformance.shop(backend)
        let store = shop.store
        let ada = try #require(shop.ada.userID)
        #expect(try await store.receivesAlerts(ada) == false)
        try await shop.asAda { try await store.setReceivesAlerts(ada, true) }
        #expect(try await store.receivesAlerts(ada) == true)
        #expect(try await store.auditLog(limit: 1, offset: 0).first?.sentence == "ada turned alerts on for ada")
        let count = try await shop.auditCount
        // The same choice again changes (and audits) nothing.
        try await shop.asAda { try await store.setReceivesAlerts(ada, true) }
        #expect(try await shop.auditCount == count)
        try await shop.asAda { try await store.setReceivesAlerts(ada, false) }
        #expect(try await store.receivesAlerts(ada) == false)
        // An unknown account is refused and nothing is written.
        await #expect(throws: InventoryError.self) { try await store.setReceivesAlerts(UserID(999), true) }
        await #expect(throws: InventoryError.self) { _ = try await store.receivesAlerts(UserID(999)) }
        #expect(try await shop.auditCount == count + 1)
    }
}
