import InventoryDomain

/// `GET /api/v1/reports/snapshot`: stock at an instant, each product's line and the totals.
struct SnapshotResponse: Encodable, Sendable {
    var at: String
    var totalQuantity: String
    var totalValue: String
    var lines: [Line]

    struct Line: Encodable, Sendable {
        var productId: Int64
        var name: String
        var quantity: String
        var value: String
        /// The average cost, value ÷ quantity rounded once (``LedgerBalance/roundedAverageCost``).
        var averageCost: String
        /// The same at full precision.
        var averageCostExact: String
    }

    init(_ snapshot: InventorySnapshot, at: Instant, formats f: Formats) {
        self.at = f.string(at)
        self.totalQuantity = snapshot.totalQuantity.decimalString
        self.totalValue = f.string(snapshot.totalValue)
        self.lines = snapshot.lines.map {
            Line(productId: $0.productID.rawValue, name: $0.name, quantity: $0.quantity.decimalString, value: f.string($0.value),
                 averageCost: f.string($0.balance.roundedAverageCost), averageCostExact: f.exactString($0.averageCost))
        }
    }
}

/// One row of `GET /api/v1/reports/daily`: a shop day's sales figures.
struct DailyResponse: Encodable, Sendable {
    var date: String
    var grossSales: String
    var discounts: String
    var returns: String
    var revenue: String
    var tax: String
    var tips: String
    var costOfGoodsSold: String
    var profit: String
    var salesCount: Int
    var averageBasket: String

    init(_ day: DailyPerformance, formats f: Formats) {
        self.date = ShopCalendar.isoDate(day.day)
        self.grossSales = f.string(day.grossSales)
        self.discounts = f.string(day.discounts)
        self.returns = f.string(day.returns)
        self.revenue = f.string(day.revenue)
        self.tax = f.string(day.tax)
        self.tips = f.string(day.tips)
        self.costOfGoodsSold = f.string(day.costOfGoodsSold)
        self.profit = f.string(day.profit)
        self.salesCount = day.salesCount
        self.averageBasket = f.string(day.averageBasket)
    }
}

/// One row of `GET /api/v1/reports/top`: a best seller.
struct TopResponse: Encodable, Sendable {
    var productId: Int64
    var name: String
    var quantity: String
    var revenue: String

    init(_ top: TopProduct, formats f: Formats) {
        self.productId = top.productID.rawValue
        self.name = top.name
        self.quantity = top.quantity.decimalString
        self.revenue = f.string(top.revenue)
    }
}

/// One row of `GET /api/v1/reports/low-stock`.
struct LowStockResponse: Encodable, Sendable {
    var productId: Int64
    var name: String
    var quantity: String
    var threshold: String
    var unit: String
    var status: String

    init(_ item: LowStockItem) {
        self.productId = item.productID.rawValue
        self.name = item.name
        self.quantity = item.quantity.decimalString
        self.threshold = item.threshold.decimalString
        self.unit = item.unit
        self.status = item.status.rawValue
    }
}

/// One row of `GET /api/v1/reports/valuation`: a category's stock and its value.
struct ValuationResponse: Encodable, Sendable {
    var categoryId: Int64?
    var name: String
    var productCount: Int
    var quantity: String
    var value: String

    init(_ valuation: CategoryValuation, formats f: Formats) {
        self.categoryId = valuation.categoryID?.rawValue
        self.name = valuation.name
        self.productCount = valuation.productCount
        self.quantity = valuation.quantity.decimalString
        self.value = f.string(valuation.value)
    }
}

/// One row of `GET /api/v1/reports/expiring`: a lot in stock that expires soon.
struct ExpiringResponse: Encodable, Sendable {
    var productId: Int64
    var name: String
    var lotCode: String?
    var expiryDate: String
    var stockQuantity: String

    init(_ lot: ExpiringLot) {
        self.productId = lot.productID.rawValue
        self.name = lot.name
        self.lotCode = lot.lotCode
        self.expiryDate = lot.expiryDate
        self.stockQuantity = lot.stockQuantity.decimalString
    }
}
