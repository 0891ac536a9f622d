import InventoryDomain

/// `GET /api/v1/reorder`: the suggestions per supplier, with the terms and the window they were computed for.
struct ReorderResponse: Codable, Sendable, Equatable {
    /// Days of sales the pace was learnt from, today included.
    var window: Int
    /// Days of stock asked for beyond each supplier's lead time.
    var cover: Int
    /// The window's first and last shop day (`YYYY-MM-DD`).
    var from: String
    var through: String
    /// One group a supplier (by name), then the products without a preferred supplier (`supplierId` null).
    var groups: [ReorderGroupResponse]

    init(_ groups: [ReorderGroup], terms: ReorderTerms, days: (first: Int, last: Int), formats: Formats) {
        self.window = terms.windowDays
        self.cover = terms.coverDays
        self.from = ShopCalendar.isoDate(days.first)
        self.through = ShopCalendar.isoDate(days.last)
        self.groups = groups.map { ReorderGroupResponse($0, formats: formats) }
    }
}

/// One supplier's suggestion.
struct ReorderGroupResponse: Codable, Sendable, Equatable {
    /// nil: the products without a preferred supplier.
    var supplierId: Int64?
    var supplierName: String?
    var leadTimeDays: Int
    var lines: [ReorderLineResponse]
    /// The lines' estimated cost at today's average costs (only for callers who may see costs).
    @Cost var cost: String

    init(_ group: ReorderGroup, formats: Formats) {
        self.supplierId = group.supplier?.id.rawValue
        self.supplierName = group.supplier?.name
        self.leadTimeDays = group.supplier?.leadTimeDays ?? 0
        self.lines = group.lines.map { ReorderLineResponse($0, formats: formats) }
        self.cost = formats.string(group.cost)
    }

}

/// One product's suggestion and the figures behind it (``ReorderRule``). Quantities are decimal strings in the
/// product's unit; the costs are only in answers to callers who may see costs.
struct ReorderLineResponse: Codable, Sendable, Equatable {
    var productId: Int64
    var name: String
    var unit: String
    var sku: String?
    var supplierCode: String?
    var packSize: String
    /// Units sold in the window, net of customer returns.
    var sold: String
    /// Units sold a day (sold ÷ window).
    var velocity: String
    /// Stock on record now.
    var stock: String
    var leadTimeDays: Int
    /// Units expected to sell over lead time + cover.
    var need: String
    /// The effective low-stock threshold (the floor of the target).
    var threshold: String
    /// What stock should be once the delivery arrives.
    var target: String
    var packs: Int64
    /// Units to buy (packs × pack size).
    var quantity: String
    /// The average cost of one unit now.
    @Cost var averageCost: String
    /// `quantity` at the average cost.
    @Cost var cost: String

    init(_ line: ReorderLine, formats: Formats) {
        let c = line.candidate
        self.productId = c.productID.rawValue
        self.name = c.name
        self.unit = c.unit
        self.sku = c.sku
        self.supplierCode = c.supplierCode
        self.packSize = c.packSize.decimalString
        self.sold = c.sold.decimalString
        self.velocity = line.velocity.decimalString
        self.stock = c.stock.decimalString
        self.leadTimeDays = line.leadTimeDays
        self.need = line.need.decimalString
        self.threshold = c.threshold.decimalString
        self.target = line.target.decimalString
        self.packs = line.packs
        self.quantity = line.quantity.decimalString
        self.averageCost = formats.string(c.averageCost.rounded)
        self.cost = formats.string(line.cost)
    }

}
