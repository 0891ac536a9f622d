import Foundation

/// The groups of the activity feed (DESIGN.md's "activity feed"): what a manager follows of the shop's day. Every other
/// activity stays in the admin's audit log only.
public enum ActivityGroup: String, Sendable, Hashable, CaseIterable, Codable {
    /// Sales recorded at the till or by hand.
    case sales
    /// Customer returns (refunds).
    case refunds
    /// Clocking in and out.
    case shifts
    /// A product edit that changed its sale price or minimum price.
    case priceChanges
    /// A product going low or running out (``LowStockCrossing``).
    case lowStock
    /// The other alerts (``ShopAlert``): a cash difference at close, lots expiring soon, a refused restore, a failed
    /// backup.
    case alerts

    /// The group an activity belongs to; nil when the feed leaves it out. A product edit counts as a price change
    /// only when one of its changes is a price; a drawer closed is an alert only with a difference.
    public static func of(_ kind: ShopActivity.Kind, changes: [ShopActivity.Change],
                          figures: ShopActivity.Figures = ShopActivity.Figures()) -> ActivityGroup? {
        switch kind {
        case .drawerClosed: (figures.difference ?? .zero) == .zero ? nil : .alerts
        case .lotsExpiring, .restoreRefused, .backupFailed: .alerts
        case .saleRecorded: .sales
        case .customerReturnRecorded: .refunds
        case .clockedIn, .clockedOut: .shifts
        case .productChanged: changes.contains { $0.field == .salePrice || $0.field == .minimumSalePrice } ? .priceChanges : nil
        case .stockWentLow: .lowStock
        default: nil
        }
    }
}

extension ShopActivity {
    /// The feed group of this activity, nil when the feed leaves it out.
    public var feedGroup: ActivityGroup? { ActivityGroup.of(self.kind, changes: self.changes, figures: self.figures) }
}

extension AuditEntry {
    /// The feed group of this entry, nil when the feed leaves it out (and for entries older than activities).
    public var feedGroup: ActivityGroup? { self.kind.flatMap { ActivityGroup.of($0, changes: self.changes, figures: self.figures) } }
}

/// One page of the activity feed: which groups, whose, when, how many, and older than which entry.
public struct ActivityFeedQuery: Sendable, Hashable {
    /// How many entries a page may ask for.
    public static let limits = 1...200
    /// A page's size when none is asked.
    public static let defaultLimit = 50

    /// The groups shown, in ``ActivityGroup`` order; never empty (all of them when none is asked).
    public let groups: [ActivityGroup]
    /// Only this staff member's activities.
    public let userID: UserID?
    /// Only activities inside this range.
    public let range: DateRange
    /// At most this many entries.
    public let limit: Int
    /// Only entries older than this one (the audit entry id the previous page ended with).
    public let before: Int64?

    /// A checked query.
    /// - Throws: ``InventoryError`` naming `limit` or `before` when out of range.
    public init(groups: Set<ActivityGroup> = [], userID: UserID? = nil, range: DateRange = .all, limit: Int = Self.defaultLimit,
                before: Int64? = nil) throws {
        guard Self.limits.contains(limit) else {
            throw InventoryError(.invalidValue, field: "limit", "must be a whole number from \(Self.limits.lowerBound) to \(Self.limits.upperBound)")
        }
        if let before, before < 1 { throw InventoryError(.invalidValue, field: "before", "must be an entry id (1 or more)") }
        self.groups = groups.isEmpty ? ActivityGroup.allCases : ActivityGroup.allCases.filter(groups.contains)
        self.userID = userID
        self.range = range
        self.limit = limit
        self.before = before
    }

    /// A query from the feed's typed parameters: `kind` a comma-separated list of groups (`sales,refunds`), `userId`,
    /// `from` and `to` days or times in the shop's calendar (a day in `to` means its end), `limit`, `before`.
    /// - Throws: ``InventoryError`` naming the parameter at fault: an unknown group, a malformed id, a range that
    ///   ends before it starts, a limit out of range.
    public static func parse(kind: String?, userID: String?, from: String?, to: String?, limit: String?, before: String?,
                             calendar: ShopCalendar) throws -> ActivityFeedQuery {
        var groups = Set<ActivityGroup>()
        for name in (kind ?? "").split(separator: ",", omittingEmptySubsequences: true) {
            let name = name.trimmingCharacters(in: .whitespaces)
            guard let group = ActivityGroup(rawValue: name) else {
                throw InventoryError(.invalidValue, field: "kind",
                                     "'\(name)' is not a kind of activity (one of \(ActivityGroup.allCases.map(\.rawValue).joined(separator: ", ")))")
            }
            groups.insert(group)
        }
        func whole(_ text: String?, _ field: String) throws -> Int64? {
            guard let text, !text.isEmpty else { return nil }
            guard let number = Int64(text) else { throw InventoryError(.invalidValue, field: field, "'\(text)' is not a whole number") }
            return number
        }
        let user = try whole(userID, "userId")
        if let user, user < 1 { throw InventoryError(.invalidValue, field: "userId", "must be a staff member's id (1 or more)") }
        let range = try calendar.range(from: from.flatMap { $0.isEmpty ? nil : $0 }, to: to.flatMap { $0.isEmpty ? nil : $0 })
        let size = try whole(limit, "limit")
        guard size.map({ Int64(Self.limits.lowerBound)...Int64(Self.limits.upperBound) ~= $0 }) ?? true else {
            throw InventoryError(.invalidValue, field: "limit", "must be a whole number from \(Self.limits.lowerBound) to \(Self.limits.upperBound)")
        }
        return try ActivityFeedQuery(groups: groups, userID: user.map(UserID.init(rawValue:)), range: range,
                                     limit: size.map { Int($0) } ?? Self.defaultLimit, before: try whole(before, "before"))
    }

    /// Whether an entry belongs on a page of this query (what a store's query must answer, in the same order: newest
    /// first).
    public func includes(_ entry: AuditEntry) -> Bool {
        guard let group = entry.feedGroup, self.groups.contains(group) else { return false }
        if let userID, entry.userID != userID { return false }
        if let before, entry.id >= before { return false }
        return self.range.contains(Instant(milliseconds: entry.at))
    }
}

/// When a product "goes low": the moment a write leaves a tracked product needing restocking
/// (``StockStatus/needsRestocking``) when it did not before. The store keeps, per product, whether it has been told
/// (`noted`); after each write that moved stock (``ShopActivity/Kind/movesStock``) it asks
/// ``decide(status:isArchived:noted:)`` for every product the write moved. An
/// archived product is never news (the low-stock report leaves it out too).
public enum LowStockCrossing: Sendable, Hashable {
    /// Nothing to record or change.
    case unchanged
    /// The product has just gone low: record ``ShopActivity/Kind/stockWentLow`` and note it.
    case wentLow
    /// The product is back above its threshold (or no longer tracked): forget the note, so the next fall is news.
    case recovered

    /// What a product's status after a write means, given whether its going low was already noted.
    public static func decide(status: StockStatus, isArchived: Bool = false, noted: Bool) -> LowStockCrossing {
        switch (status.needsRestocking && !isArchived, noted) {
        case (true, false): .wentLow
        case (false, true): .recovered
        default: .unchanged
        }
    }
}

extension ShopActivity.Kind {
    /// Whether the activity moved stock: a document of the books recorded, changed or deleted. Only such a write can
    /// make a product go low (a new product with nothing in stock yet is no news).
    public var movesStock: Bool {
        switch self {
        case .saleRecorded, .saleChanged, .saleDeleted, .purchaseRecorded, .purchaseChanged, .purchaseDeleted, .adjustmentRecorded,
            .adjustmentDeleted, .customerReturnRecorded, .customerReturnDeleted, .supplierReturnRecorded, .supplierReturnDeleted:
            true
        default:
            false
        }
    }
}

extension ShopActivity {
    /// A product gone low or out, with its stock and the threshold that applies.
    public static func wentLow(_ productID: ProductID, name: String, stock: Quantity, threshold: Quantity, by agent: Agent,
                               at: Instant = .now) -> ShopActivity {
        ShopActivity(.stockWentLow, by: agent, at: at, record: Record(.product, productID.rawValue), productIDs: [productID], subject: name,
                     figures: Figures(stock: stock, threshold: threshold), currency: .eur)
    }
}
