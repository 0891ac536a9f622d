import Foundation

/// A report as rows of text: the columns and cells that the CSV download (`GET /api/v1/reports/…?format=csv`) and the
/// command line's `stockroom report … --format table|csv` both write, so the two never disagree.
///
/// Built once per report from its figures (``daily(_:currency:showCosts:)`` and the others). Amounts are written with
/// the shop's currency digits and a point, quantities exactly, days as `YYYY-MM-DD`. Without `showCosts` the columns
/// that tell what things cost the shop (cost of goods, profit, average cost, stock value) are left out, as the JSON
/// answers leave them out for a caller who may not view costs.
public struct ReportSheet: Sendable, Hashable {
    /// The header row.
    public var columns: [String]
    /// One row of cells per line of the report (each as long as ``columns``).
    public var rows: [[String]]
    /// The columns holding numbers (a table aligns them to the right).
    public var numericColumns: Set<Int>
    /// A closing "TOTAL" row for a printed table, when the report has one (CSV leaves it out: a spreadsheet sums).
    public var totals: [String]?
    /// The short name used for a downloaded file (`stockroom-<name>.csv`).
    public var name: String
    /// A line a printed table starts with, when the report needs one (the moment a snapshot is taken at).
    public var title: String?

    public init(name: String, title: String? = nil, columns: [String], rows: [[String]], numericColumns: Set<Int> = [], totals: [String]? = nil) {
        self.name = name
        self.title = title
        self.columns = columns
        self.rows = rows
        self.numericColumns = numericColumns
        self.totals = totals
    }

    /// The sheet as a CSV file (RFC 4180, header row, formula cells neutralised; no totals row).
    public var csv: String { CSV.document(header: self.columns, rows: self.rows) }

    /// A sheet keeping only the columns `keep` says yes to (cells, numbers and totals follow their column).
    func keeping(_ keep: (String) -> Bool) -> ReportSheet {
        let kept = self.columns.indices.filter { keep(self.columns[$0]) }
        func pick(_ row: [String]) -> [String] { kept.map { $0 < row.count ? row[$0] : "" } }
        return ReportSheet(name: self.name, title: self.title, columns: pick(self.columns), rows: self.rows.map(pick),
                           numericColumns: Set(kept.enumerated().compactMap { self.numericColumns.contains($1) ? $0 : nil }),
                           totals: self.totals.map(pick))
    }

    /// The columns that tell what things cost the shop.
    static let costColumns: Set<String> = ["cost_of_goods_sold", "profit", "average_cost", "value"]

    /// Leaves out the cost columns unless `showCosts`.
    func disclosing(costs showCosts: Bool) -> ReportSheet {
        showCosts ? self : self.keeping { !Self.costColumns.contains($0) }
    }

    // MARK: The reports

    /// Sales figures a day: `GET /api/v1/reports/daily`.
    public static func daily(_ days: [DailyPerformance], currency: Currency, showCosts: Bool) -> ReportSheet {
        func money(_ amount: Money) -> String { amount.decimalString(currency) }
        return ReportSheet(
            name: "daily",
            columns: ["day", "sales", "revenue", "discounts", "returns", "tax", "tips", "cost_of_goods_sold", "profit", "average_basket"],
            rows: days.map {
                [ShopCalendar.isoDate($0.day), String($0.salesCount), money($0.revenue), money($0.discounts), money($0.returns), money($0.tax),
                 money($0.tips), money($0.costOfGoodsSold), money($0.profit), money($0.averageBasket)]
            },
            numericColumns: Set(1...9)
        ).disclosing(costs: showCosts)
    }

    /// Best sellers: `GET /api/v1/reports/top`.
    public static func top(_ products: [TopProduct], currency: Currency) -> ReportSheet {
        ReportSheet(
            name: "top",
            columns: ["rank", "product_id", "product", "quantity", "revenue"],
            rows: products.enumerated().map { [String($0 + 1), $1.productID.description, $1.name, $1.quantity.decimalString, $1.revenue.decimalString(currency)] },
            numericColumns: [0, 1, 3, 4])
    }

    /// Stock value by category: `GET /api/v1/reports/valuation`.
    public static func valuation(_ categories: [CategoryValuation], currency: Currency, showCosts: Bool) -> ReportSheet {
        let total = CategoryValuation.total(of: categories)
        return ReportSheet(
            name: "valuation",
            columns: ["category", "products", "quantity", "value"],
            rows: categories.map { [$0.name, String($0.productCount), $0.quantity.decimalString, $0.value.decimalString(currency)] },
            numericColumns: [1, 2, 3],
            totals: ["TOTAL", String(total.productCount), total.quantity.decimalString, total.value.decimalString(currency)]
        ).disclosing(costs: showCosts)
    }

    /// Stock and its value at an instant, products holding stock or value: `GET /api/v1/reports/snapshot`.
    public static func snapshot(_ snapshot: InventorySnapshot, currency: Currency, calendar: ShopCalendar, showCosts: Bool) -> ReportSheet {
        ReportSheet(
            name: "snapshot", title: "Stock at \(calendar.localISO8601(snapshot.at)) (\(calendar.timeZone.identifier))",
            columns: ["product_id", "product", "quantity", "average_cost", "value"],
            rows: snapshot.lines.filter { $0.quantity != .zero || $0.value != .zero }.map {
                [$0.productID.description, $0.name, $0.quantity.decimalString, $0.balance.roundedAverageCost.decimalString(currency),
                 $0.value.decimalString(currency)]
            },
            numericColumns: [0, 2, 3, 4],
            totals: ["", "TOTAL", snapshot.totalQuantity.decimalString, "", snapshot.totalValue.decimalString(currency)]
        ).disclosing(costs: showCosts)
    }

    /// Products at or under their low-stock threshold: `GET /api/v1/reports/low-stock`.
    public static func lowStock(_ items: [LowStockItem]) -> ReportSheet {
        ReportSheet(
            name: "low-stock",
            columns: ["product_id", "product", "quantity", "threshold", "unit", "status"],
            rows: items.map { [$0.productID.description, $0.name, $0.quantity.decimalString, $0.threshold.decimalString, $0.unit, $0.status.rawValue] },
            numericColumns: [0, 2, 3])
    }
}
