/// A stretch of time, both ends inclusive and either open: what a report, a search or an export covers.
public struct DateRange: Sendable, Hashable {
    /// The first instant covered (nil: from the beginning).
    public let from: Instant?
    /// The last instant covered (nil: up to now and beyond).
    public let to: Instant?

    /// All time.
    public static let all = DateRange(checkedFrom: nil, to: nil)

    private init(checkedFrom from: Instant?, to: Instant?) {
        self.from = from
        self.to = to
    }

    /// A range.
    /// - Throws: ``InventoryError`` naming `to` when it ends before it starts.
    public init(from: Instant?, to: Instant?) throws {
        if let from, let to, to < from {
            throw InventoryError(.invalidValue, field: "to", "must not be before the start of the range (from)")
        }
        self.init(checkedFrom: from, to: to)
    }

    /// Whether the range leaves nothing out.
    public var isAll: Bool { self.from == nil && self.to == nil }

    /// Whether `instant` is inside the range.
    public func contains(_ instant: Instant) -> Bool {
        (self.from.map { instant >= $0 } ?? true) && (self.to.map { instant <= $0 } ?? true)
    }
}

extension ShopCalendar {
    /// The range two typed bounds name (``parseDateTime(_:field:endOfDay:)``: a day in `to` means its end), checked.
    /// - Throws: ``InventoryError`` naming `from` or `to`.
    public func range(from: String?, to: String?) throws -> DateRange {
        try DateRange(from: try from.map { try self.parseDateTime($0, field: "from") },
                      to: try to.map { try self.parseDateTime($0, field: "to", endOfDay: true) })
    }
}
