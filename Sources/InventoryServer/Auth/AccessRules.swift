import HTTPTypes
import InventoryDomain

/// Which permission each API route needs: one table, read top to bottom, first match wins.
enum AccessRules {
    /// Routes anyone may call, signed in or not.
    static let open: Set<String> = ["/health", "/api/v1/auth/status", "/api/v1/auth/setup", "/api/v1/auth/login", "/api/openapi.json"]
    /// Whether anyone may call a path: the open routes, and the iOS client's `/api/public/…` (mounted only with
    /// `serve --public-api`).
    static func isOpen(_ path: String) -> Bool { self.open.contains(path) || path.hasPrefix("/api/public/") }

    /// Routes a locked till may still call.
    static let whileLocked: Set<String> = ["/api/v1/auth/pin", "/api/v1/auth/logout", "/api/v1/auth/me"]

    typealias Rule = (prefix: String, read: Permission?, write: Permission, delete: Permission)

    static let rules: [Rule] = [
        ("/api/v1/auth/", nil, .clockInOut, .clockInOut),
        ("/api/v1/products", .viewCatalogue, .editCatalogue, .editCatalogue),
        ("/api/v1/categories", .viewCatalogue, .editCatalogue, .editCatalogue),
        ("/api/v1/customers", .sell, .editCatalogue, .editCatalogue),
        ("/api/v1/suppliers", .purchase, .editCatalogue, .editCatalogue),
        ("/api/v1/purchases", .purchase, .purchase, .deleteTransactions),
        ("/api/v1/sales", .sell, .sell, .deleteTransactions),
        ("/api/v1/returns/customer", .refund, .refund, .deleteTransactions),
        ("/api/v1/returns/supplier", .purchase, .purchase, .deleteTransactions),
        ("/api/v1/adjustments", .adjustStock, .adjustStock, .deleteTransactions),
        ("/api/v1/reports/low-stock", .viewCatalogue, .viewReports, .viewReports),
        ("/api/v1/reports/expiring", .viewCatalogue, .viewReports, .viewReports),
        ("/api/v1/reports", .viewReports, .viewReports, .viewReports),
        ("/api/v1/export", .viewReports, .viewReports, .viewReports),
        ("/api/v1/import", .importData, .importData, .importData),
        ("/api/v1/settings", nil, .manageSettings, .manageSettings),
        ("/api/v1/barcodes", .scan, .scan, .scan),
        ("/api/v1/users", .manageUsers, .manageUsers, .manageUsers),
        ("/api/v1/tokens", .manageTokens, .manageTokens, .manageTokens),
        ("/api/v1/audit", .viewAudit, .viewAudit, .viewAudit),
        ("/api/v1/shifts", .clockInOut, .clockInOut, .clockInOut),
        // Live events (stock changed, low stock, a sale): every signed-in screen listens.
        ("/api/v1/events", nil, .manageSettings, .manageSettings),
        ("/api/v1/backup", .backup, .backup, .backup),
        ("/api/v1/restore", .backup, .backup, .backup),
    ]

    /// The permission a request needs; nil means any signed-in user.
    static func permission(method: HTTPRequest.Method, path: String) -> Permission? {
        for rule in self.rules where path == rule.prefix || path.hasPrefix(rule.prefix + "/") || (rule.prefix.hasSuffix("/") && path.hasPrefix(rule.prefix)) {
            switch method {
            case .get, .head: return rule.read
            case .delete: return rule.delete
            default:
                // Editing a sale after the fact is a refund-level change.
                if rule.prefix == "/api/v1/sales" && method == .put { return .refund }
                return rule.write
            }
        }
        return .manageSettings
    }
}
