import InventoryDomain

/// `POST /api/v1/stocktakes`: open a count sheet for all products, one category or one shelf.
struct StocktakeOpenRequest: Decodable, Sendable, KnownFields {
    /// `all`, `category` or `shelf`.
    var scope: String
    var categoryId: Int64?
    var shelf: String?
    var note: String?
    static var fields: [String] { ["scope", "categoryId", "shelf", "note"] }

    func scopeValue() throws -> StocktakeScope {
        try StocktakeScope.parse(self.scope, categoryID: self.categoryId.map(CategoryID.init(rawValue:)), shelf: self.shelf)
    }
}

/// `POST /api/v1/stocktakes/{id}/counts`: a product (by id or barcode) and, typed, the quantity found; without a
/// quantity it is a scan, one more than counted so far.
struct StocktakeCountRequest: Decodable, Sendable, KnownFields {
    var productId: Int64?
    var barcode: String?
    var quantity: String?
    static var fields: [String] { ["productId", "barcode", "quantity"] }

    func entry() throws -> StocktakeEntry {
        guard let text = self.quantity else { return .scanned }
        return .typed(try Quantity.parse(text, field: "quantity"))
    }
}

/// `POST /api/v1/adjustments/expired-lot`: write off what is left of a lot on the expiring list.
struct ExpiredLotRequest: Decodable, Sendable, KnownFields {
    var productId: Int64
    /// The lot's code; absent (or empty) for a receipt booked with an expiry date only.
    var lotCode: String?
    /// The lot's expiry day, `YYYY-MM-DD`, to tell apart receipts with the same code.
    var expiryDate: String?
    static var fields: [String] { ["productId", "lotCode", "expiryDate"] }
}

/// A count sheet's totals, as the domain sums them (``Stocktake/totals``).
struct StocktakeTotalsResponse: Encodable, Sendable {
    var counted: Int
    var uncounted: Int
    var differing: Int
    @Cost var surplusValue: String
    @Cost var shortageValue: String
    @Cost var varianceValue: String

    init(_ totals: Stocktake.Totals, _ f: Formats) {
        self.counted = totals.counted
        self.uncounted = totals.uncounted
        self.differing = totals.differing
        self.surplusValue = f.string(totals.surplusValue)
        self.shortageValue = f.string(totals.shortageValue)
        self.varianceValue = f.string(totals.varianceValue)
    }
}

/// A count sheet in the list.
struct StocktakeSummaryResponse: Encodable, Sendable {
    var id: Int64
    var scope: String
    var categoryId: Int64?
    var shelf: String?
    var scopeName: String
    var status: String
    var note: String
    var createdAt: String
    var closedAt: String?
    var adjustmentId: Int64?
    var totals: StocktakeTotalsResponse

    init(_ summary: StocktakeSummary, _ f: Formats) {
        self.id = summary.id.rawValue
        self.scope = summary.scope.kind
        self.categoryId = summary.scope.categoryID?.rawValue
        self.shelf = summary.scope.shelf
        self.scopeName = summary.scopeName
        self.status = summary.status.rawValue
        self.note = summary.note
        self.createdAt = f.string(summary.createdAt)
        self.closedAt = summary.closedAt.map(f.string)
        self.adjustmentId = summary.adjustmentID?.rawValue
        self.totals = StocktakeTotalsResponse(summary.totals, f)
    }
}

/// A count sheet with its lines: its summary's members (``StocktakeSummaryResponse``), who opened and closed it, and
/// each product in scope, counted or not, with its variance as the domain computes it.
struct StocktakeResponse: Encodable, Sendable {
    var summary: StocktakeSummaryResponse
    var createdBy: String
    var closedBy: String
    var lines: [Line]

    struct Line: Encodable, Sendable {
        var productId: Int64
        var name: String
        var unit: String
        var counted: String?
        var countedAt: String?
        var stockAtCount: String?
        var variance: String?
        @Cost var averageCost: String?
        @Cost var varianceValue: String?
    }

    enum CodingKeys: String, CodingKey { case createdBy, closedBy, lines }

    func encode(to encoder: any Encoder) throws {
        try self.summary.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(self.createdBy, forKey: .createdBy)
        try container.encode(self.closedBy, forKey: .closedBy)
        try container.encode(self.lines, forKey: .lines)
    }

    init(_ sheet: Stocktake, _ f: Formats) {
        self.summary = StocktakeSummaryResponse(StocktakeSummary(sheet), f)
        self.createdBy = sheet.createdBy
        self.closedBy = sheet.closedBy
        self.lines = sheet.lines.map { line in
            Line(productId: line.productID.rawValue, name: line.productName, unit: line.unit, counted: line.counted?.decimalString,
                 countedAt: line.countedAt.map(f.string), stockAtCount: line.stockAtCount?.decimalString,
                 variance: line.variance?.decimalString,
                 averageCost: line.isCounted ? line.averageCostAtCount.map { f.string($0.rounded) } : nil,
                 varianceValue: line.varianceValue.map(f.string))
        }
    }
}
