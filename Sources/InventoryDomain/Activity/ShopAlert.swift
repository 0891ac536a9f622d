import Foundation

/// Something a manager should hear about at once, whatever screen is open: a product gone low, lots about to expire,
/// a cash difference at close, a refused restore, a failed backup. An alert is an activity like any other (in the audit log and the
/// activity feed); ``ShopActivity/alert`` says which activities are alerts and words them for a system notification.
/// Managers and admins who opted in (``StaffRepository/setReceivesAlerts(_:_:)``) get them on their open pages.
public struct ShopAlert: Sendable, Hashable {
    public enum Kind: String, Sendable, Hashable, CaseIterable, Codable {
        case lowStock, expiringLots, cashDifference, restoreRefused, backupFailed
    }

    public var kind: Kind
    /// The notification's title: what happened, in a few words.
    public var title: String
    /// Its text: the figures.
    public var body: String
    /// The screen a click opens (a path of the web app).
    public var path: String

    /// Creates an alert.
    public init(_ kind: Kind, title: String, body: String, path: String) {
        self.kind = kind
        self.title = title
        self.body = body
        self.path = path
    }

    /// How many days ahead the daily check looks for expiring lots (the home screen's list looks as far).
    public static let expiryWindowDays = 7

    /// Who may receive alerts: the roles that may read the activity feed.
    public static func mayReceive(_ role: Role) -> Bool { role.allows(.viewActivity) }
}

extension ShopActivity {
    /// The alert this activity raises, nil for most: a product gone low, lots expiring, a drawer closed with a
    /// difference, a refused restore.
    public var alert: ShopAlert? {
        switch self.kind {
        case .stockWentLow:
            let stock = self.figures.stock ?? .zero
            let threshold = (self.figures.threshold ?? .zero).decimalString
            return ShopAlert(.lowStock, title: stock.thousandths <= 0 ? "Out of stock: \(self.subject ?? "a product")" : "Low stock: \(self.subject ?? "a product")",
                             body: "\(stock.decimalString) left, threshold \(threshold)",
                             path: self.record.map { "/app/products/\($0.id)" } ?? "/app/products")
        case .drawerClosed:
            guard let difference = self.figures.difference, difference != .zero else { return nil }
            return ShopAlert(.cashDifference, title: "Cash difference at close", body: self.sentence, path: "/app/drawer")
        case .lotsExpiring:
            return ShopAlert(.expiringLots, title: "Lots expiring soon", body: self.sentence, path: "/app/reports#expiring")
        case .restoreRefused:
            return ShopAlert(.restoreRefused, title: "Restore refused", body: self.sentence, path: "/app/backup")
        case .backupFailed:
            return ShopAlert(.backupFailed, title: "Backup failed", body: self.sentence, path: "/app/backup")
        default:
            return nil
        }
    }

    /// A drawer session closed: the counted cash against the expected (the Z report's figures).
    public static func drawerClosed(_ id: Int64, counted: Money, expected: Money, by agent: Agent, at: Instant = .now,
                                    currency: Currency) -> ShopActivity {
        ShopActivity(.drawerClosed, by: agent, at: at, record: Record(.drawerSession, id),
                     figures: Figures(total: counted, expected: expected, difference: counted - expected), currency: currency)
    }

    /// The daily check's finding: how many lots expire within the window, the first few products named.
    public static func lotsExpiring(_ lots: [ExpiringLot], by agent: Agent = .system, at: Instant = .now) -> ShopActivity {
        var seen = Set<ProductID>()
        let products = lots.filter { seen.insert($0.productID).inserted }
        let names = products.prefix(3).map(\.name).joined(separator: ", ") + (products.count > 3 ? " and \(products.count - 3) more" : "")
        return ShopActivity(.lotsExpiring, by: agent, at: at, productIDs: products.map(\.productID), subject: names,
                            figures: Figures(count: lots.count), currency: .eur)
    }

    /// A failed backup, with the reason (what could not be written, or what its check refused).
    public static func backupFailed(_ reason: String, at: Instant = .now) -> ShopActivity {
        ShopActivity(.backupFailed, by: .system, at: at, subject: String(reason.prefix(200)), currency: .eur)
    }

    /// A refused restore, with the refusal's reason.
    public static func restoreRefused(_ reason: String, by agent: Agent, at: Instant = .now) -> ShopActivity {
        ShopActivity(.restoreRefused, by: agent, at: at, subject: String(reason.prefix(200)), currency: .eur)
    }
}

/// When the server looks for expiring lots: once per shop day — at start and then whenever a new day has begun since
/// the last finding. A day with nothing expiring records nothing.
public enum ExpiryCheck {
    /// Whether a check is due at `now`, given when the last ``ShopActivity/Kind/lotsExpiring`` was recorded (nil:
    /// never).
    public static func isDue(lastRecorded: Instant?, now: Instant, calendar: ShopCalendar) -> Bool {
        guard let lastRecorded else { return true }
        return calendar.dayNumber(lastRecorded) < calendar.dayNumber(now)
    }

    /// The last day (YYYY-MM-DD) the check looks at from `now`.
    public static func through(now: Instant, calendar: ShopCalendar) -> String {
        ShopCalendar.isoDate(calendar.addingDays(ShopAlert.expiryWindowDays, to: calendar.dayNumber(now)))
    }
}
