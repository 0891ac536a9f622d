import Foundation
import Hummingbird
import InventoryDomain

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
    }
}
