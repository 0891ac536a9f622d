import Foundation

/// Stock on hand at a moment: exactly what the ledger held then.
public struct InventorySnapshot: Sendable, Hashable {
    /// The moment.
    public var at: Instant
    /// Total stock quantity over all products (mixed units, as the seed app shows it).
    public var totalQuantity: Quantity
    /// Total stock value at cost.
    public var totalValue: Money
    /// One line per product that had stock history by then, by product id.
    public var lines: [Line]

    /// A product's stock at the moment.
    public struct Line: Sendable, Hashable {
        public var productID: ProductID
        public var name: String
        public var quantity: Quantity
        public var value: Money
        public var averageCost: UnitCost

        /// The product's balances at the moment (its average cost to show: ``LedgerBalance/roundedAverageCost``).
        public var balance: LedgerBalance { LedgerBalance(quantity: self.quantity, value: self.value, averageCost: self.averageCost) }

        /// Creates a line.
        public init(productID: ProductID, name: String, quantity: Quantity, value: Money, averageCost: UnitCost) {
            self.productID = productID
            self.name = name
            self.quantity = quantity
            self.value = value
            self.averageCost = averageCost
        }
    }

    /// Creates a snapshot, totalling the lines.
    public init(at: Instant, lines: [Line]) {
        self.at = at
        self.lines = lines
        self.totalQuantity = lines.reduce(.zero) { $0 + $1.quantity }
        self.totalValue = lines.reduce(.zero) { $0 + $1.value }
    }
}

/// Sales figures of one day in the shop's time zone.
public struct DailyPerformance: Sendable, Hashable {
    /// The day, `yyyymmdd`.
    public var day: Int
    /// Σ price × quantity of sale lines, before tax (where prices include tax, without the tax they contain).
    public var grossSales: Money
    /// Σ line discounts, before tax (``PricedSale/Line/bookedDiscount``).
    public var discounts: Money
    /// Refunds of customer returns (before tax).
    public var returns: Money
    /// Revenue: gross − discounts − returns, before tax.
    public var revenue: Money
    /// Tax collected (net of returns).
    public var tax: Money
    /// Tips.
    public var tips: Money
    /// Cost of goods sold, net of returned goods.
    public var costOfGoodsSold: Money
    /// Number of sales.
    public var salesCount: Int

    /// Adds one kind of the day's movements, summed (what each store's daily query gives per day and kind): sale lines
    /// count as gross sales with their discounts, customer returns as returns, a recipe's ingredient issues (`consumption`)
    /// only as cost; all of them as revenue, tax and cost of goods sold (the value they took out of stock).
    public mutating func add(kind: MovementKind, revenue: Money, discount: Money, tax: Money, valueChange: Money) {
        switch kind {
        case .sale:
            self.grossSales = self.grossSales + revenue + discount
            self.discounts = self.discounts + discount
        case .consumption:
            break   // a recipe's ingredients: cost of goods sold only
        default:
            self.returns = self.returns - revenue
        }
        self.revenue = self.revenue + revenue
        self.tax = self.tax + tax
        self.costOfGoodsSold = self.costOfGoodsSold - valueChange
    }

    /// Creates a day's figures.
    public init(day: Int, grossSales: Money = .zero, discounts: Money = .zero, returns: Money = .zero, revenue: Money = .zero,
                tax: Money = .zero, tips: Money = .zero, costOfGoodsSold: Money = .zero, salesCount: Int = 0) {
        self.day = day
        self.grossSales = grossSales
        self.discounts = discounts
        self.returns = returns
        self.revenue = revenue
        self.tax = tax
        self.tips = tips
        self.costOfGoodsSold = costOfGoodsSold
        self.salesCount = salesCount
    }

    /// Revenue − cost of goods sold.
    public var profit: Money { self.revenue - self.costOfGoodsSold }

    /// Revenue per sale, rounded to the minor unit (zero without sales).
    public var averageBasket: Money {
        guard self.salesCount > 0 else { return .zero }
        return Money(minorUnits: FixedPoint.clamp(FixedPoint.divideRounded(Int128(self.revenue.minorUnits), Int128(self.salesCount))))
    }

    /// The figures of several days taken together, as one period: every amount and count summed, the average basket
    /// over all their sales (not an average of the days' averages). Its ``day`` is `firstDay`.
    public static func total(of days: [DailyPerformance], firstDay: Int) -> DailyPerformance {
        days.reduce(DailyPerformance(day: firstDay)) { sum, day in
            DailyPerformance(day: firstDay, grossSales: sum.grossSales + day.grossSales, discounts: sum.discounts + day.discounts,
                             returns: sum.returns + day.returns, revenue: sum.revenue + day.revenue, tax: sum.tax + day.tax,
                             tips: sum.tips + day.tips, costOfGoodsSold: sum.costOfGoodsSold + day.costOfGoodsSold,
                             salesCount: sum.salesCount + day.salesCount)
        }
    }
}

/// What to rank top products by.
public enum TopProductMetric: String, Sendable, Codable, CaseIterable {
    case quantity, revenue
}

/// A product's sales over a range.
public struct TopProduct: Sendable, Hashable {
    public var productID: ProductID
    public var name: String
    public var quantity: Quantity
    public var revenue: Money

    /// Creates a row.
    public init(productID: ProductID, name: String, quantity: Quantity, revenue: Money) {
        self.productID = productID
        self.name = name
        self.quantity = quantity
        self.revenue = revenue
    }
}

/// A product at or below its low-stock threshold.
public struct LowStockItem: Sendable, Hashable {
    public var productID: ProductID
    public var name: String
    public var quantity: Quantity
    public var threshold: Quantity
    public var status: StockStatus
    public var unit: String

    /// Creates a row.
    public init(productID: ProductID, name: String, quantity: Quantity, threshold: Quantity, status: StockStatus, unit: String) {
        self.productID = productID
        self.name = name
        self.quantity = quantity
        self.threshold = threshold
        self.status = status
        self.unit = unit
    }
}

/// Stock value of one category.
public struct CategoryValuation: Sendable, Hashable {
    public var categoryID: CategoryID?
    public var name: String
    public var productCount: Int
    public var quantity: Quantity
    public var value: Money

    /// Creates a row.
    public init(categoryID: CategoryID?, name: String, productCount: Int, quantity: Quantity, value: Money) {
        self.categoryID = categoryID
        self.name = name
        self.productCount = productCount
        self.quantity = quantity
        self.value = value
    }

    /// Every category taken together (no category id, named "Total"): the products, quantities and values summed.
    public static func total(of categories: [CategoryValuation]) -> CategoryValuation {
        CategoryValuation(
            categoryID: nil, name: "Total", productCount: categories.reduce(0) { $0 + $1.productCount },
            quantity: categories.reduce(Quantity.zero) { $0 + $1.quantity }, value: categories.reduce(Money.zero) { $0 + $1.value })
    }
}

/// A lot that expires by a day and, counting stock first in, first out, may still be on the shelf.
public struct ExpiringLot: Sendable, Hashable {
    public var productID: ProductID
    public var name: String
    public var lotCode: String?
    public var expiryDate: String
    public var purchasedQuantity: Quantity
    /// How much of the lot is still in stock, first in, first out.
    public var stockQuantity: Quantity

    /// Creates a row.
    public init(productID: ProductID, name: String, lotCode: String?, expiryDate: String, purchasedQuantity: Quantity, stockQuantity: Quantity) {
        self.productID = productID
        self.name = name
        self.lotCode = lotCode
        self.expiryDate = expiryDate
        self.purchasedQuantity = purchasedQuantity
        self.stockQuantity = stockQuantity
    }
}

/// The facts of a sale header the daily report needs.
public struct SaleFact: Sendable, Hashable {
    public var effectiveAt: Int64
    public var tip: Money

    /// Creates a fact.
    public init(effectiveAt: Int64, tip: Money) {
        self.effectiveAt = effectiveAt
        self.tip = tip
    }
}

/// Reference implementations of every report as pure folds over the movements.
///
/// They load everything and are slow on purpose-free simplicity: the store's SQL reports are tested against them.
public enum ReportFolds {
    /// Stock of every product at `at`: the balance of its last movement at or before it.
    public static func snapshot(movements: [StockMovement], names: [ProductID: String], at: Instant) -> InventorySnapshot {
        let limit = at.milliseconds
        var last: [ProductID: StockMovement] = [:]
        for movement in movements where movement.position.effectiveAt <= limit {
            if let current = last[movement.productID], current.position > movement.position { continue }
            last[movement.productID] = movement
        }
        let lines = last.values.sorted { $0.productID < $1.productID }.map {
            InventorySnapshot.Line(
                productID: $0.productID, name: names[$0.productID] ?? "", quantity: $0.balance.quantity,
                value: $0.balance.value, averageCost: $0.balance.averageCost)
        }
        return InventorySnapshot(at: at, lines: lines)
    }

    /// Net, tax and gross per tax rate of the sale and customer-return lines from `from` through `to` (`yyyymmdd`, shop
    /// time zone), lowest rate first: the sum of the lines' own revenue and tax, so it matches the receipts exactly.
    public static func taxes(movements: [StockMovement], calendar: ShopCalendar, from: Int, to: Int) -> [SaleRecord.TaxShare] {
        SaleRecord.TaxShare.byRate(movements.lazy.filter { movement in
            let day = calendar.dayNumber(milliseconds: movement.position.effectiveAt)
            return (movement.kind == .sale || movement.kind == .customerReturn) && day >= from && day <= to
        }.map { ($0.taxRate, $0.revenue, $0.tax) })
    }

    /// Sales figures of each day from `from` through `to` (`yyyymmdd`, shop time zone).
    public static func daily(movements: [StockMovement], sales: [SaleFact], calendar: ShopCalendar, from: Int, to: Int) -> [DailyPerformance] {
        var byDay: [Int: DailyPerformance] = [:]
        for day in calendar.days(from: from, through: to) { byDay[day] = DailyPerformance(day: day) }
        // A recipe's ingredient issues (consumption) add their cost to the cost of goods sold, nothing else.
        for movement in movements where movement.kind == .sale || movement.kind == .customerReturn || movement.kind == .consumption {
            let day = calendar.dayNumber(milliseconds: movement.position.effectiveAt)
            guard var figures = byDay[day] else { continue }
            switch movement.kind {
            case .sale:
                figures.grossSales = figures.grossSales + movement.revenue + movement.discount
                figures.discounts = figures.discounts + movement.discount
            case .customerReturn:
                figures.returns = figures.returns - movement.revenue
            default:
                break
            }
            figures.revenue = figures.revenue + movement.revenue
            figures.tax = figures.tax + movement.tax
            figures.costOfGoodsSold = figures.costOfGoodsSold + movement.costOfGoodsSold
            byDay[day] = figures
        }
        for sale in sales {
            let day = calendar.dayNumber(milliseconds: sale.effectiveAt)
            guard var figures = byDay[day] else { continue }
            figures.tips = figures.tips + sale.tip
            figures.salesCount += 1
            byDay[day] = figures
        }
        return byDay.values.sorted { $0.day < $1.day }
    }

    /// The best-selling products between two instants (inclusive), net of returns, leaving out products whose sales
    /// net to nothing; ties as in ``rank(_:by:limit:)``.
    public static func top(movements: [StockMovement], names: [ProductID: String], from: Instant, to: Instant, by metric: TopProductMetric, limit: Int) -> [TopProduct] {
        var rows: [ProductID: TopProduct] = [:]
        let range = from.milliseconds...to.milliseconds
        for movement in movements where (movement.kind == .sale || movement.kind == .customerReturn) && range.contains(movement.position.effectiveAt) {
            var row = rows[movement.productID] ?? TopProduct(productID: movement.productID, name: names[movement.productID] ?? "", quantity: .zero, revenue: .zero)
            row.quantity = row.quantity - movement.quantity
            row.revenue = row.revenue + movement.revenue
            rows[movement.productID] = row
        }
        return self.rank(rows.values.filter { $0.quantity != .zero || $0.revenue != .zero }, by: metric, limit: limit)
    }

    /// Orders rows by the metric, descending, then by the other metric, descending, then by product id; keeps `limit`.
    public static func rank(_ rows: [TopProduct], by metric: TopProductMetric, limit: Int) -> [TopProduct] {
        let sorted = rows.sorted { lhs, rhs in
            if metric == .quantity, lhs.quantity != rhs.quantity { return lhs.quantity > rhs.quantity }
            if lhs.revenue != rhs.revenue { return lhs.revenue > rhs.revenue }
            if lhs.quantity != rhs.quantity { return lhs.quantity > rhs.quantity }
            return lhs.productID < rhs.productID
        }
        return Array(sorted.prefix(max(0, limit)))
    }
}
