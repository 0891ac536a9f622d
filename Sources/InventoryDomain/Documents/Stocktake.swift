import Foundation

/// Marker for stocktake (count sheet) ids.
public enum StocktakeMarker: Sendable {}
public typealias StocktakeID = ID<StocktakeMarker>

/// Which products a count sheet covers.
public enum StocktakeScope: Sendable, Hashable {
    /// Every product that keeps stock.
    case all
    /// The products of one category (nil once that category is deleted: the sheet keeps what it counted).
    case category(CategoryID?)
    /// The products on one shelf (``ProductDetails/shelf``, matched ignoring the case of A–Z).
    case shelf(String)

    /// The scope's name on the wire and in the database.
    public var kind: String {
        switch self {
        case .all: "all"
        case .category: "category"
        case .shelf: "shelf"
        }
    }

    /// The category of a category scope.
    public var categoryID: CategoryID? {
        if case .category(let id) = self { return id }
        return nil
    }

    /// The shelf of a shelf scope.
    public var shelf: String? {
        if case .shelf(let shelf) = self { return shelf }
        return nil
    }

    /// How a person reads the scope: "All products", the category's name (`categoryName`, nil once it is deleted) or
    /// "Shelf A3".
    public func name(categoryName: String?) -> String {
        switch self {
        case .all: "All products"
        case .category: categoryName ?? "Deleted category"
        case .shelf(let shelf): "Shelf \(shelf)"
        }
    }

    /// The scope named `kind` (with `categoryID` for a category, `shelf` for a shelf).
    /// - Throws: ``InventoryError`` on `scope` for an unknown kind, on `categoryId` or `shelf` when the scope needs it
    ///   and has none, or has one it does not use.
    public static func parse(_ kind: String?, categoryID: CategoryID?, shelf: String? = nil) throws -> StocktakeScope {
        let kind = kind ?? "all"
        guard ["all", "category", "shelf"].contains(kind) else {
            throw InventoryError(.invalidValue, field: "scope", "must be one of all, category, shelf")
        }
        if categoryID != nil, kind != "category" {
            throw InventoryError(.invalidValue, field: "categoryId", "applies only to the scope category")
        }
        if shelf != nil, kind != "shelf" {
            throw InventoryError(.invalidValue, field: "shelf", "applies only to the scope shelf")
        }
        switch kind {
        case "all":
            return .all
        case "category":
            guard let categoryID else { throw InventoryError(.missingValue, field: "categoryId", "a category count needs its category") }
            return .category(categoryID)
        case "shelf":
            guard let name = ProductDetails.shelfName(shelf) else {
                throw InventoryError(.missingValue, field: "shelf", "a shelf count needs its shelf")
            }
            try TextLimit.shelf.check(name, field: "shelf")
            return .shelf(name)
        default:
            preconditionFailure("checked above")
        }
    }
}

/// Where a count sheet stands: counting, posted to the books, or given up.
public enum StocktakeStatus: String, Sendable, Codable, CaseIterable {
    case open, posted, cancelled
}

/// One entry on a count sheet: a scan adds one to the product's count, a typed figure replaces it.
public enum StocktakeEntry: Sendable, Hashable {
    /// A scan (camera, scanner, or a tap): one more of the product found.
    case scanned
    /// A typed count: the quantity found.
    case typed(Quantity)

    /// The product's count after this entry, given its count so far (nil when not yet counted).
    /// - Throws: ``InventoryError`` on `quantity` for a negative or too large count.
    public func counted(after previous: Quantity?) throws -> Quantity {
        let counted: Quantity
        switch self {
        case .scanned: counted = (previous ?? .zero) + Quantity(1)
        case .typed(let quantity):
            guard quantity >= .zero else { throw InventoryError(.invalidValue, field: "quantity", "must not be negative") }
            counted = quantity
        }
        try counted.requireWithinLimit(field: "quantity")
        return counted
    }
}

/// One product on a count sheet. A product in scope that nobody counted yet has no count, and is not adjusted.
public struct StocktakeLine: Sendable, Hashable {
    public var productID: ProductID
    public var productName: String
    public var unit: String
    /// The quantity found; nil when not counted.
    public var counted: Quantity?
    /// When the count was last entered: the count stands for the shelf at this instant.
    public var countedAt: Instant?
    /// The stock the ledger held at ``countedAt`` (after every movement dated at or before it).
    public var stockAtCount: Quantity?
    /// The average cost the ledger held at ``countedAt``.
    public var averageCostAtCount: UnitCost?

    /// Creates a line.
    public init(productID: ProductID, productName: String, unit: String = "", counted: Quantity? = nil, countedAt: Instant? = nil,
                stockAtCount: Quantity? = nil, averageCostAtCount: UnitCost? = nil) {
        self.productID = productID
        self.productName = productName
        self.unit = unit
        self.counted = counted
        self.countedAt = countedAt
        self.stockAtCount = stockAtCount
        self.averageCostAtCount = averageCostAtCount
    }

    /// Whether the product has been counted.
    public var isCounted: Bool { self.counted != nil }

    /// Counted less the stock at the counted instant: positive is a surplus, negative a shortage; nil when uncounted.
    public var variance: Quantity? {
        guard let counted = self.counted, let stock = self.stockAtCount else { return nil }
        return counted - stock
    }

    /// The variance valued at the average cost at the counted instant, rounded to the minor unit.
    public var varianceValue: Money? {
        guard let variance = self.variance else { return nil }
        return (self.averageCostAtCount ?? UnitCost(scaled: 0)).value(of: variance)
    }
}

/// A count sheet: the products of a scope, their counts and what the books held when each was counted.
public struct Stocktake: Sendable, Hashable {
    public var id: StocktakeID
    public var scope: StocktakeScope
    /// How a person reads the scope (``StocktakeScope/name(categoryName:)``).
    public var scopeName: String
    public var status: StocktakeStatus
    public var note: String
    public var createdAt: Instant
    public var createdBy: String
    /// When it was posted or cancelled, and by whom.
    public var closedAt: Instant?
    public var closedBy: String
    /// The adjustment posted from it (nil when open, cancelled, or when no count differed from the books).
    public var adjustmentID: AdjustmentID?
    /// Every product in scope (counted or not) and every product counted, by name.
    public var lines: [StocktakeLine]

    /// Creates a sheet.
    public init(id: StocktakeID, scope: StocktakeScope, scopeName: String = "", status: StocktakeStatus = .open, note: String = "",
                createdAt: Instant, createdBy: String = "", closedAt: Instant? = nil, closedBy: String = "",
                adjustmentID: AdjustmentID? = nil, lines: [StocktakeLine] = []) {
        self.id = id
        self.scope = scope
        self.scopeName = scopeName
        self.status = status
        self.note = note
        self.createdAt = createdAt
        self.createdBy = createdBy
        self.closedAt = closedAt
        self.closedBy = closedBy
        self.adjustmentID = adjustmentID
        self.lines = lines
    }

    /// The sheet's totals, as a report shows them.
    public struct Totals: Sendable, Hashable {
        public var counted: Int
        public var uncounted: Int
        /// Counted lines whose count differs from the books.
        public var differing: Int
        /// The value of the surpluses (≥ 0), of the shortages (≤ 0), and both together.
        public var surplusValue: Money
        public var shortageValue: Money
        public var varianceValue: Money
    }

    /// Counted and uncounted lines, and the variance values summed line by line (each already rounded).
    public var totals: Totals {
        var totals = Totals(counted: 0, uncounted: 0, differing: 0, surplusValue: .zero, shortageValue: .zero, varianceValue: .zero)
        for line in self.lines {
            guard line.isCounted else {
                totals.uncounted += 1
                continue
            }
            totals.counted += 1
            if let variance = line.variance, variance != .zero { totals.differing += 1 }
            let value = line.varianceValue ?? .zero
            if value > .zero { totals.surplusValue += value } else { totals.shortageValue += value }
            totals.varianceValue += value
        }
        return totals
    }

    /// Refuses a change to a sheet that is no longer open.
    /// - Throws: ``InventoryError`` (`conflict`) on `status`.
    public func requireOpen() throws {
        guard self.status == .open else {
            throw InventoryError(.conflict, field: "status", "stocktake \(self.id) is \(self.status.rawValue): only an open stocktake can change")
        }
    }

    /// The adjustment posting books: one count line per counted product whose count differs from the stock at its
    /// counted instant, each dated at that instant, so a sale made after the product was counted still counts.
    /// Products counted at the books' figure, and uncounted ones, are not adjusted.
    /// - Throws: ``InventoryError`` on `status` when the sheet is not open, on `lines` when nothing was counted.
    public func countAdjustment() throws -> [AdjustmentDraft] {
        try self.requireOpen()
        guard self.lines.contains(where: \.isCounted) else {
            throw InventoryError(.missingValue, field: "lines", "nothing has been counted: count at least one product before posting")
        }
        let note = "Stocktake \(self.id)" + (self.note.isEmpty ? "" : ": \(self.note)")
        return try self.lines.compactMap { line in
            guard let variance = line.variance, variance != .zero, let countedAt = line.countedAt else { return nil }
            return try AdjustmentDraft(effectiveAt: countedAt, productID: line.productID, quantityChange: variance, reason: .count,
                                       note: String(note.prefix(TextLimit.note.characters))).validated()
        }
    }
}

/// A count sheet in a list: its header and totals.
public struct StocktakeSummary: Sendable, Hashable {
    public var id: StocktakeID
    public var scope: StocktakeScope
    public var scopeName: String
    public var status: StocktakeStatus
    public var note: String
    public var createdAt: Instant
    public var closedAt: Instant?
    public var adjustmentID: AdjustmentID?
    public var totals: Stocktake.Totals

    /// The summary of `sheet`.
    public init(_ sheet: Stocktake) {
        self.id = sheet.id
        self.scope = sheet.scope
        self.scopeName = sheet.scopeName
        self.status = sheet.status
        self.note = sheet.note
        self.createdAt = sheet.createdAt
        self.closedAt = sheet.closedAt
        self.adjustmentID = sheet.adjustmentID
        self.totals = sheet.totals
    }
}

/// A lot on the expiring list (``ExpiringLot``) to write off: what is left of it leaves the books with reason
/// `expired`.
public struct ExpiredLot: Sendable, Hashable {
    public var productID: ProductID
    /// The lot's code (empty for a receipt booked with an expiry date but no code).
    public var lotCode: String
    public var expiryDate: String?
    /// What is left of the lot, first in, first out; nil when the product has no such lot.
    public var remaining: Quantity?

    /// Creates a lot to write off.
    public init(productID: ProductID, lotCode: String, expiryDate: String?, remaining: Quantity?) {
        self.productID = productID
        self.lotCode = lotCode
        self.expiryDate = expiryDate
        self.remaining = remaining
    }

    /// The adjustment that writes off what is left, dated `at`.
    /// - Throws: ``InventoryError`` on `lotCode`: `notFound` when there is no such lot, `invalidValue` when nothing of it
    ///   is left.
    public func writeOff(at instant: Instant) throws -> AdjustmentDraft {
        let name = self.lotCode.isEmpty ? "the lot" : "lot '\(self.lotCode)'"
        guard let remaining = self.remaining else {
            throw InventoryError(.notFound, field: "lotCode", "product \(self.productID) has no \(name)\(self.expiryDate.map { " expiring \($0)" } ?? "")")
        }
        guard remaining > .zero else {
            throw InventoryError(.invalidValue, field: "lotCode", "nothing of \(name) is left to write off")
        }
        let note = "Expired: \(name)\(self.expiryDate.map { ", best before \($0)" } ?? "")"
        return try AdjustmentDraft(effectiveAt: instant, productID: self.productID, quantityChange: .zero - remaining, reason: .expired,
                                   note: String(note.prefix(TextLimit.note.characters))).validated()
    }
}
