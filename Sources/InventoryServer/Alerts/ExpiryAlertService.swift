import Foundation
import InventoryDomain
import ServiceLifecycle

/// While serving: once per shop day (``ExpiryCheck``), looks for lots expiring within ``ShopAlert/expiryWindowDays``
/// days and, when there are any, records ``ShopActivity/Kind/lotsExpiring`` by `system` — in the audit log and the
/// activity feed, and an alert for the managers who opted in. It wakes every `interval` to see whether a new day began.
struct ExpiryAlertService<Store: ReportRepository & SettingsRepository & StaffRepository>: Service {
    let store: Store
    var interval: Duration = .seconds(600)

    func run() async throws {
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                try? await self.checkIfDue()
                do { try await Task.sleep(for: self.interval) } catch { return }
            }
        }
    }

    /// Records today's finding unless one was recorded today already; answers whether it recorded one.
    @discardableResult
    func checkIfDue(now: Instant = .now) async throws -> Bool {
        let calendar = try await self.store.settings().calendar
        let today = try calendar.range(from: ShopCalendar.isoDate(calendar.dayNumber(now)), to: nil)
        let recorded = try await self.store.activityFeed(ActivityFeedQuery(groups: [.alerts], range: today, limit: ActivityFeedQuery.limits.upperBound))
            .filter { $0.kind == .lotsExpiring }
        guard ExpiryCheck.isDue(lastRecorded: recorded.first.map { Instant(milliseconds: $0.at) }, now: now, calendar: calendar) else { return false }
        let lots = try await self.store.expiringLots(through: ExpiryCheck.through(now: now, calendar: calendar))
        guard !lots.isEmpty else { return false }
        try await self.store.recordAudit(.lotsExpiring(lots, by: .system, at: now))
        return true
    }
}
