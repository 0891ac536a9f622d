import InventoryDomain

/// `GET /api/v1/reports/snapshot`: stock at an instant, each product's line and the totals.
struct SnapshotResponse: Encodable, Sendable {
    var at: String
    var totalQuantity: String
    @Cost var totalValue: String
    var lines: [Line]

    struct Line: Encodable, Sendable {
        var productId: Int64
        var name: String
        var quantity: String
        @Cost var value: String
        /// The average cost, value ÷ quantity rounded once (``LedgerBalance/roundedAverageCost``).
        @Cost var averageCost: String
        /// The same at full precision.
        @Cost var averageCostExact: String
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

/// A shop day's or a period's sales figures, as the daily reports answer them (inside the day's or period's object).
struct SalesFigures: Encodable, Sendable {
    var grossSales: String
    var discounts: String
    var returns: String
    var revenue: String
    var tax: String
    var tips: String
    @Cost var costOfGoodsSold: String
    @Cost var profit: String
    var salesCount: Int
    var averageBasket: String

    init(_ figures: DailyPerformance, formats f: Formats) {
        self.grossSales = f.string(figures.grossSales)
        self.discounts = f.string(figures.discounts)
        self.returns = f.string(figures.returns)
        self.revenue = f.string(figures.revenue)
        self.tax = f.string(figures.tax)
        self.tips = f.string(figures.tips)
        self.costOfGoodsSold = f.string(figures.costOfGoodsSold)
        self.profit = f.string(figures.profit)
        self.salesCount = figures.salesCount
        self.averageBasket = f.string(figures.averageBasket)
    }
}

/// One row of `GET /api/v1/reports/daily`: a shop day's sales figures.
struct DailyResponse: Encodable, Sendable {
    var date: String
    var figures: SalesFigures

    init(_ day: DailyPerformance, formats f: Formats) {
        self.date = ShopCalendar.isoDate(day.day)
        self.figures = SalesFigures(day, formats: f)
    }

    enum CodingKeys: String, CodingKey { case date }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(self.date, forKey: .date)
        try self.figures.encode(to: encoder)
    }
}

/// `GET /api/v1/reports/daily/total`: a period's sales figures taken together (the average basket over all its sales).
struct PeriodResponse: Encodable, Sendable {
    var from: String
    var to: String
    var figures: SalesFigures

    init(_ period: DailyPerformance, from: Int, to: Int, formats f: Formats) {
        self.from = ShopCalendar.isoDate(from)
        self.to = ShopCalendar.isoDate(to)
        self.figures = SalesFigures(period, formats: f)
    }

    enum CodingKeys: String, CodingKey { case from, to }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(self.from, forKey: .from)
        try container.encode(self.to, forKey: .to)
        try self.figures.encode(to: encoder)
    }
}

/// One row of `GET /api/v1/reports/taxes`: a tax rate's net, tax and gross.
struct TaxRateResponse: Encodable, Sendable {
    var taxRate: String
    var net: String
    var tax: String
    var gross: String

    init(_ share: SaleRecord.TaxShare, formats f: Formats) {
        self.taxRate = share.rate.decimalString
        self.net = f.string(share.revenue)
        self.tax = f.string(share.tax)
        self.gross = f.string(share.gross)
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
    @Cost var value: String

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
