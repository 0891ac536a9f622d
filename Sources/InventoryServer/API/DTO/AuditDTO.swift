import InventoryDomain

/// An entry of `GET /api/v1/audit`: its sentence (``ShopActivity/sentence``), who, when, what kind, which record,
/// which products and the figures, amounts and quantities as exact decimal strings.
struct AuditEntryResponse: Encodable, Sendable {
    var id: Int64
    var at: String
    var userId: Int64?
    var username: String
    /// The activity's kind (`saleRecorded`), or an older entry's `METHOD path`.
    var action: String
    var detail: String
    var sentence: String
    var kind: String?
    var record: Record?
    var related: Record?
    var productIds: [Int64]
    var figures: Figures
    var changes: [Change]

    struct Record: Encodable, Sendable {
        var kind: String
        var id: Int64
    }

    struct Figures: Encodable, Sendable {
        var lines: Int?
        var items: String?
        var total: String?
        @Cost var costOfGoodsSold: String?
        var tax: String?
        var quantityChange: String?
        var price: String?
        var count: Int?
        var created: Int?
        var updated: Int?
        var stock: String?
        var threshold: String?
        var expected: String?
        var difference: String?
    }

    struct Change: Encodable, Sendable {
        var field: String
        var from: String?
        var to: String?
    }

    init(_ entry: AuditEntry, currency: Currency) {
        let record = { (record: ShopActivity.Record?) in record.map { Record(kind: $0.kind.rawValue, id: $0.id) } }
        let money = { (money: Money?) in money?.decimalString(currency) }
        let figures = entry.figures
        self.id = entry.id
        self.at = Instant(milliseconds: entry.at).iso8601
        self.userId = entry.userID?.rawValue
        self.username = entry.username
        self.action = entry.action
        self.detail = entry.detail
        self.sentence = entry.sentence
        self.kind = entry.kind?.rawValue
        self.record = record(entry.record)
        self.related = record(entry.related)
        self.productIds = entry.productIDs.map(\.rawValue)
        self.figures = Figures(
            lines: figures.lines, items: figures.items?.decimalString, total: money(figures.total), costOfGoodsSold: money(figures.costOfGoodsSold),
            tax: money(figures.tax), quantityChange: figures.quantityChange?.decimalString, price: money(figures.price), count: figures.count,
            created: figures.created, updated: figures.updated, stock: figures.stock?.decimalString,
            threshold: figures.threshold?.decimalString, expected: money(figures.expected), difference: money(figures.difference))
        self.changes = entry.changes.map {
            Change(field: $0.field.rawValue, from: $0.old.plainText(currency), to: $0.new.plainText(currency))
        }
    }
}

/// A page of `GET /api/v1/activity`: the entries, newest first, and the `before` of the next (older) page.
struct ActivityFeedResponse: Encodable, Sendable {
    var entries: [ActivityEntryResponse]
    /// Absent on the last page.
    var nextBefore: Int64?
}

/// An entry of the activity feed: its group (``ActivityGroup``), its sentence, who and when, what record, which
/// products and its figures (amounts and quantities as exact decimal strings).
struct ActivityEntryResponse: Encodable, Sendable {
    var id: Int64
    var at: String
    var group: String
    var kind: String
    var userId: Int64?
    var username: String
    var sentence: String
    var record: AuditEntryResponse.Record?
    var productIds: [Int64]
    var figures: AuditEntryResponse.Figures
    var changes: [AuditEntryResponse.Change]

    init(_ entry: AuditEntry, currency: Currency) {
        let audit = AuditEntryResponse(entry, currency: currency)
        self.id = audit.id
        self.at = audit.at
        self.group = entry.feedGroup?.rawValue ?? ""
        self.kind = audit.kind ?? audit.action
        self.userId = audit.userId
        self.username = audit.username
        self.sentence = audit.sentence
        self.record = audit.record
        self.productIds = audit.productIds
        self.figures = audit.figures
        self.changes = audit.changes
    }
}
