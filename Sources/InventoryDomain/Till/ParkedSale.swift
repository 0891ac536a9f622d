import Foundation

/// The identity of parked sales.
public enum ParkedSaleEntity: Sendable {}
public typealias ParkedSaleID = ID<ParkedSaleEntity>

/// An open tab (issue 12, point 9): a sale rung up and put aside under a name or a table ("Table 4", "Anna"), to be
/// picked up later from any till and charged then. A parked sale books nothing — no stock, no revenue, no receipt
/// number — until it is charged as an ordinary sale; it is kept in the database, so it survives a restart.
public struct ParkedSale: Sendable, Hashable, Identifiable {
    public var id: ParkedSaleID
    /// The name or table it is parked under.
    public var label: String
    /// The lines as rung up: products, quantities, prices and discounts as asked (priced when charged).
    public var lines: [SaleDraft.Line]
    public var customerID: CustomerID?
    public var note: String
    /// Who parked it (a username; empty when not known) and when.
    public var parkedBy: String
    public var parkedAt: Instant

    /// Creates a parked sale.
    public init(id: ParkedSaleID = ParkedSaleID(0), label: String, lines: [SaleDraft.Line], customerID: CustomerID? = nil, note: String = "",
                parkedBy: String = "", parkedAt: Instant = .now) {
        self.id = id
        self.label = label
        self.lines = lines
        self.customerID = customerID
        self.note = note
        self.parkedBy = parkedBy
        self.parkedAt = parkedAt
    }

    /// Trims and checks it: a label, at least one line (within the line limit) and a positive quantity on each; an
    /// amount discount and a price not negative, a percentage between 0 and 100. The product rules (price, minimum,
    /// stock) are the sale's, applied when it is charged.
    /// - Throws: ``InventoryError`` naming the field, e.g. `lines[0].quantity`.
    public func validated() throws -> ParkedSale {
        var copy = self
        copy.label = self.label.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !copy.label.isEmpty else { throw InventoryError(.missingValue, field: "label", "name the tab: a table or the customer's name") }
        try TextLimit.shortName.check(copy.label, field: "label")
        copy.note = self.note.trimmingCharacters(in: .whitespacesAndNewlines)
        try TextLimit.note.check(copy.note, field: "note")
        guard !self.lines.isEmpty else { throw InventoryError(.missingValue, field: "lines", "a tab needs at least one line") }
        try requireLineLimit(self.lines.count)
        for (index, line) in self.lines.enumerated() { try line.checkAsAsked(field: "lines[\(index)]") }
        return copy
    }
}
