import Foundation

/// An audit-log row's two JSON columns as every storage backend keeps them: `productIds` (the products an activity
/// touched) and `facts` (its figures, changed fields and related record: exact integers — minor units, thousandths —
/// never a password or a picture name; and the subject, party and reason its sentence names, so the activity can be
/// rebuilt whole). Written and read here once, for SQLite and PostgreSQL alike: ``entry(id:at:userID:username:action:detail:recordKind:recordID:productIDs:facts:)``
/// reads a row for the audit log and the activity feed, ``activity(at:userID:username:action:detail:recordKind:recordID:productIDs:facts:)``
/// rebuilds the ``ShopActivity`` it was written from (PostgreSQL's live events on other instances).
public struct StoredAudit: Sendable, Hashable {
    /// `[1, 2]`, or nil when the activity touched no product.
    public var productIDs: String?
    /// The facts as JSON, or nil when there are none.
    public var facts: String?

    /// The stored form of an activity's products and facts.
    public init(_ activity: ShopActivity) throws {
        let figures = activity.figures.stored
        let facts = Facts(
            figures: figures.isEmpty ? nil : figures,
            changes: activity.changes.isEmpty ? nil : activity.changes.map {
                Change(field: $0.field.rawValue, from: Value($0.old), to: Value($0.new))
            },
            related: activity.related, subject: activity.subject, party: activity.party, reason: activity.reason?.rawValue)
        self.productIDs = activity.productIDs.isEmpty ? nil : try Self.json(activity.productIDs.map(\.rawValue))
        let none = facts.figures == nil && facts.changes == nil && facts.related == nil && facts.subject == nil && facts.party == nil
            && facts.reason == nil
        self.facts = none ? nil : try Self.json(facts)
    }

    /// An audit entry from its stored columns; unreadable JSON (an older entry) reads as no facts.
    public static func entry(
        id: Int64, at: Int64, userID: Int64?, username: String, action: String, detail: String, recordKind: String?, recordID: Int64?,
        productIDs: String?, facts: String?
    ) -> AuditEntry {
        let read = Read(recordKind: recordKind, recordID: recordID, productIDs: productIDs, facts: facts)
        return AuditEntry(
            id: id, at: at, userID: userID.map(UserID.init(rawValue:)), username: username, action: action, detail: detail, record: read.record,
            related: read.facts?.related, productIDs: read.productIDs, figures: read.figures, changes: read.changes)
    }

    /// The activity an audit row was written from, with the sentence it was stored with; nil for a row that is not an
    /// activity's (an entry older than activities). A hidden value reads as hidden without its text (it was never
    /// stored); an entry written before the subject, party and reason were kept reads without them.
    public static func activity(
        at: Instant, userID: Int64?, username: String, action: String, detail: String, recordKind: String?, recordID: Int64?,
        productIDs: String?, facts: String?
    ) -> ShopActivity? {
        guard let kind = ShopActivity.Kind(rawValue: action) else { return nil }
        let read = Read(recordKind: recordKind, recordID: recordID, productIDs: productIDs, facts: facts)
        return ShopActivity(
            stored: kind, by: Agent(userID: userID.map(UserID.init(rawValue:)), username: username), at: at, record: read.record,
            related: read.facts?.related, productIDs: read.productIDs, subject: read.facts?.subject, party: read.facts?.party,
            reason: read.facts?.reason.flatMap(AdjustmentReason.init(rawValue:)), figures: read.figures, changes: read.changes, sentence: detail)
    }

    /// A row's stored columns decoded; unreadable JSON (an older entry) reads as none.
    private struct Read {
        var record: ShopActivity.Record?
        var facts: Facts?
        var productIDs: [ProductID]

        init(recordKind: String?, recordID: Int64?, productIDs: String?, facts: String?) {
            let decoder = JSONDecoder()
            self.facts = facts.flatMap { try? decoder.decode(Facts.self, from: Data($0.utf8)) }
            self.productIDs = (productIDs.flatMap { try? decoder.decode([Int64].self, from: Data($0.utf8)) } ?? []).map(ProductID.init(rawValue:))
            self.record = recordKind.flatMap(ShopActivity.Record.Kind.init(rawValue:)).flatMap { kind in recordID.map { ShopActivity.Record(kind, $0) } }
        }

        var figures: ShopActivity.Figures { ShopActivity.Figures(stored: self.facts?.figures ?? [:]) }

        var changes: [ShopActivity.Change] {
            (self.facts?.changes ?? []).compactMap { change in
                ShopActivity.Change.Field(rawValue: change.field).map {
                    ShopActivity.Change($0, from: Value.value(change.from), to: Value.value(change.to))
                }
            }
        }
    }

    static func json<T: Encodable>(_ value: T) throws -> String {
        String(decoding: try APIJSON.encode(value), as: UTF8.self)
    }

    struct Facts: Codable {
        var figures: [String: Int64]?
        var changes: [Change]?
        var related: ShopActivity.Record?
        /// What the sentence names (``ShopActivity/subject``, ``ShopActivity/party``, ``ShopActivity/reason``).
        var subject: String?
        var party: String?
        var reason: String?
    }

    struct Change: Codable {
        var field: String
        var from: Value?
        var to: Value?
    }

    struct Value: Codable {
        var text: String?
        var money: Int64?
        var percent: Int64?
        var quantity: Int64?
        var number: Int?
        var flag: Bool?
        var hidden: Bool?

        init?(_ value: ShopActivity.Change.Value) {
            switch value {
            case .none: return nil
            case .text(let text): self.text = text
            case .money(let money): self.money = money.minorUnits
            case .percent(let percent): self.percent = percent.hundredths
            case .quantity(let quantity): self.quantity = quantity.thousandths
            case .number(let number): self.number = number
            case .flag(let flag): self.flag = flag
            case .hidden: self.hidden = true
            }
        }

        static func value(_ stored: Value?) -> ShopActivity.Change.Value {
            guard let stored else { return .none }
            if let text = stored.text { return .text(text) }
            if let money = stored.money { return .money(Money(minorUnits: money)) }
            if let percent = stored.percent { return .percent(Percent(hundredths: percent)) }
            if let quantity = stored.quantity { return .quantity(Quantity(thousandths: quantity)) }
            if let number = stored.number { return .number(number) }
            if let flag = stored.flag { return .flag(flag) }
            return stored.hidden == true ? .hidden("") : .none
        }
    }
}

// The facts write their own JSON (``SortedJSONWritable``): every sale, purchase and change writes an audit row inside
// its write transaction, and the general encoder's tree of values was half of the row's cost (BENCHMARKS.md, issue 15
// point 3). Members in the order of their keys' bytes; debug builds compare every encoding with `JSONEncoder`'s.

extension StoredAudit.Facts: SortedJSONWritable {
    func writeSortedJSON(to object: inout SortedJSONObject) {
        if let changes = self.changes { object.objects("changes", changes) }
        object.integers("figures", self.figures)
        object.string("party", self.party)
        object.string("reason", self.reason)
        object.object("related", self.related)
        object.string("subject", self.subject)
    }
}

extension StoredAudit.Change: SortedJSONWritable {
    func writeSortedJSON(to object: inout SortedJSONObject) {
        object.string("field", self.field)
        object.object("from", self.from)
        object.object("to", self.to)
    }
}

extension StoredAudit.Value: SortedJSONWritable {
    func writeSortedJSON(to object: inout SortedJSONObject) {
        object.bool("flag", self.flag)
        object.bool("hidden", self.hidden)
        object.integer("money", self.money)
        object.integer("number", self.number.map(Int64.init))
        object.integer("percent", self.percent)
        object.integer("quantity", self.quantity)
        object.string("text", self.text)
    }
}

extension ShopActivity.Record: SortedJSONWritable {
    public func writeSortedJSON(to object: inout SortedJSONObject) {
        object.integer("id", self.id)
        object.string("kind", self.kind.rawValue)
    }
}
