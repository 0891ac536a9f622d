import Foundation
import Hummingbird
import InventoryDomain

/// `GET /api/v1/activity`: the activity feed (``ActivityFeedQuery``), newest first, a page at a time; and
/// `GET /api/v1/audit`: the audit log, newest first, each entry a sentence (``ShopActivity/sentence``) with who, when,
/// what kind, which record, which products and the figures — amounts and quantities as exact decimal strings.
struct AuditController<Store: StaffRepository & SettingsRepository> {
    let store: Store

    func addRoutes(to api: Routes) {
        api.get("audit", .permission(.viewAudit)) { request, _ in
            let limit = try request.queryInt("limit", default: 100, range: 1...1000)
            let offset = try request.queryInt("offset", default: 0, range: 0...Int(Int32.max))
            let currency = try await self.store.settings().currency
            return JSON(try await self.store.auditLog(limit: limit, offset: offset).map { AuditEntryResponse($0, currency: currency) })
        }
        api.get("activity", .permission(.viewActivity), use: self.activity)
    }

    /// A page of the feed; bad filters are a 422 naming the parameter (`kind`, `userId`, `from`, `to`, `limit`,
    /// `before`). `nextBefore` is the `before` of the next (older) page, absent on the last one.
    @Sendable func activity(_ request: Request, context: some RequestContext) async throws -> JSON<ActivityFeedResponse> {
        let settings = try await self.store.settings()
        let query = try ActivityFeedQuery.parse(
            kind: request.query("kind"), userID: request.query("userId"), from: request.query("from"), to: request.query("to"),
            limit: request.query("limit"), before: request.query("before"), calendar: settings.calendar)
        let entries = try await self.store.activityFeed(query)
        return JSON(ActivityFeedResponse(
            entries: entries.map { ActivityEntryResponse($0, currency: settings.currency) },
            nextBefore: entries.count == query.limit ? entries.last?.id : nil))
    }
}
