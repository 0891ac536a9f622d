import Foundation
import Hummingbird
import InventoryDomain

/// `/api/v1/reports/…`: stock at an instant, daily figures, best sellers, low stock, valuation and expiring lots.
struct ReportController<Store: ReportRepository & SettingsRepository> {
    let store: Store

    func addRoutes(to reports: Routes) {
        reports.get("snapshot", .permission(.viewReports), use: self.snapshot)
        reports.get("daily", .permission(.viewReports), use: self.daily)
        reports.get("daily/total", .permission(.viewReports), use: self.dailyTotal)
        reports.get("taxes", .permission(.viewReports), use: self.taxes)
        reports.get("top", .permission(.viewReports), use: self.top)
        reports.get("low-stock", .permission(.viewCatalogue), use: self.lowStock)
        reports.get("valuation", .permission(.viewReports), use: self.valuation)
        reports.get("valuation/total", .permission(.viewReports)) { _, _ in JSON(try await self.valuationTotal()) }
        reports.get("expiring", .permission(.viewCatalogue), use: self.expiring)
        // The same reports as CSV files (``ReportSheet``: the command line's `--format csv` writes the same).
        reports.get("snapshot.csv", .permission(.viewReports)) { request, _ in
            CSVFile(try await self.snapshotSheet(at: request.query("at")), suffix: request.query("at"))
        }
        reports.get("daily.csv", .permission(.viewReports)) { request, _ in
            let (sheet, from, to) = try await self.dailySheet(date: request.query("date"), from: request.query("from"), to: request.query("to"))
            return CSVFile(sheet, suffix: from == to ? ShopCalendar.isoDate(from) : "\(ShopCalendar.isoDate(from))-to-\(ShopCalendar.isoDate(to))")
        }
        reports.get("top.csv", .permission(.viewReports)) { request, _ in
            CSVFile(try await self.topSheet(from: request.query("from"), to: request.query("to"),
                                            limit: try request.queryInt("limit", default: 10, range: 1...1000), by: request.query("by")))
        }
        reports.get("low-stock.csv", .permission(.viewCatalogue)) { _, _ in CSVFile(try await self.lowStockSheet()) }
        reports.get("valuation.csv", .permission(.viewReports)) { _, _ in CSVFile(try await self.valuationSheet()) }
    }

    @Sendable func snapshot(_ request: Request, context: some RequestContext) async throws -> JSON<SnapshotResponse> {
        JSON(try await self.snapshot(at: request.query("at")))
    }

    @Sendable func daily(_ request: Request, context: some RequestContext) async throws -> JSON<[DailyResponse]> {
        JSON(try await self.daily(date: request.query("date"), from: request.query("from"), to: request.query("to")))
    }

    @Sendable func dailyTotal(_ request: Request, context: some RequestContext) async throws -> JSON<PeriodResponse> {
        JSON(try await self.dailyTotal(date: request.query("date"), from: request.query("from"), to: request.query("to")))
    }

    /// `GET /reports/taxes?date=|from=&to=`: net, tax and gross per tax rate over the days, today when no day is given.
    @Sendable func taxes(_ request: Request, context: some RequestContext) async throws -> JSON<[TaxRateResponse]> {
        let (f, _) = try await self.store.formats()
        let (from, to) = try Self.days(date: request.query("date"), from: request.query("from"), to: request.query("to"), formats: f)
        return JSON(try await self.store.taxes(from: from, to: to).map { TaxRateResponse($0, formats: f) })
    }

    @Sendable func top(_ request: Request, context: some RequestContext) async throws -> JSON<[TopResponse]> {
        JSON(try await self.top(from: request.query("from"), to: request.query("to"), limit: try request.queryInt("limit", default: 10, range: 1...1000),
                                by: request.query("by")))
    }

    @Sendable func lowStock(_ request: Request, context: some RequestContext) async throws -> JSON<[LowStockResponse]> {
        JSON(try await self.lowStock())
    }

    @Sendable func valuation(_ request: Request, context: some RequestContext) async throws -> JSON<[ValuationResponse]> {
        JSON(try await self.valuation())
    }

    /// `GET /reports/expiring?days=`: lots in stock that expire within `days` shop days (3 by default).
    @Sendable func expiring(_ request: Request, context: some RequestContext) async throws -> JSON<[ExpiringResponse]> {
        let (f, _) = try await self.store.formats()
        let days = try request.queryInt("days", default: 3, range: 0...3650)
        let through = ShopCalendar.isoDate(f.calendar.addingDays(days, to: f.calendar.dayNumber(.now)))
        return JSON(try await self.store.expiringLots(through: through).map(ExpiringResponse.init))
    }

    // MARK: Reports (the routes and the command line's `report … --format json` answer these)

    /// `GET /reports/snapshot?at=`: stock at the end of a day or at an instant, now when `at` is nil.
    func snapshot(at text: String?) async throws -> SnapshotResponse {
        let (f, _) = try await self.store.formats()
        let at = try text.map { try f.calendar.parseDateTime($0, field: "at", endOfDay: true) } ?? Instant.now
        return SnapshotResponse(try await self.store.snapshot(at: at), at: at, formats: f)
    }

    /// `GET /reports/daily?date=|from=&to=`: one row a day, today when no day is given.
    func daily(date: String?, from: String?, to: String?) async throws -> [DailyResponse] {
        let (f, _) = try await self.store.formats()
        let (from, to) = try Self.days(date: date, from: from, to: to, formats: f)
        return try await self.store.daily(from: from, to: to).map { DailyResponse($0, formats: f) }
    }

    /// `GET /reports/daily/total?date=|from=&to=`: the same days' figures taken together, today when no day is given.
    func dailyTotal(date: String?, from: String?, to: String?) async throws -> PeriodResponse {
        let (f, _) = try await self.store.formats()
        let (from, to) = try Self.days(date: date, from: from, to: to, formats: f)
        let days = try await self.store.daily(from: from, to: to)
        return PeriodResponse(DailyPerformance.total(of: days, firstDay: from), from: from, to: to, formats: f)
    }

    /// The shop days a daily report covers: `date`, or `from` through `to` (at most ten years), else today.
    static func days(date: String?, from: String?, to: String?, formats f: Formats) throws -> (from: Int, to: Int) {
        let today = f.calendar.dayNumber(.now)
        let single = try date.map { try f.day($0, field: "date") }
        let from = try single ?? from.map { try f.day($0, field: "from") } ?? today
        let to = try single ?? to.map { try f.day($0, field: "to") } ?? today
        // A range that ends before it starts is refused as every range is (``DateRange``), naming `to`.
        _ = try DateRange(from: f.calendar.startOfDay(from), to: f.calendar.startOfDay(to))
        guard f.calendar.days(from: from, through: to).count <= 3660 else {
            throw InventoryError(.invalidValue, field: "to", "a range may span at most ten years")
        }
        return (from, to)
    }

    /// `GET /reports/top?from=&to=&limit=&by=`: best sellers, the last 30 days by default.
    func top(from: String?, to: String?, limit: Int, by: String?) async throws -> [TopResponse] {
        let (f, _) = try await self.store.formats()
        return try await self.topProducts(from: from, to: to, limit: limit, by: by, formats: f).map { TopResponse($0, formats: f) }
    }

    /// The best sellers the top report lists: `from` through `to` (the 30 days up to `to`, or now, by default).
    func topProducts(from: String?, to: String?, limit: Int, by: String?, formats f: Formats) async throws -> [TopProduct] {
        let to = try to.map { try f.calendar.parseDateTime($0, field: "to", endOfDay: true) } ?? Instant.now
        let from = try from.map { try f.calendar.parseDateTime($0, field: "from") }
            ?? f.calendar.startOfDay(f.calendar.addingDays(-29, to: f.calendar.dayNumber(to)))
        _ = try DateRange(from: from, to: to)
        let metric = try by.map { text in
            guard let metric = TopProductMetric(rawValue: text) else { throw InventoryError(.invalidValue, field: "by", "must be quantity or revenue") }
            return metric
        } ?? .quantity
        return try await self.store.topProducts(from: from, to: to, by: metric, limit: limit)
    }

    /// `GET /reports/low-stock`.
    func lowStock() async throws -> [LowStockResponse] {
        try await self.store.lowStock().map(LowStockResponse.init)
    }

    /// `GET /reports/valuation`.
    func valuation() async throws -> [ValuationResponse] {
        let (f, _) = try await self.store.formats()
        return try await self.store.valuation().map { ValuationResponse($0, formats: f) }
    }

    /// `GET /reports/valuation/total`: every category taken together (``CategoryValuation/total(of:)``), the figures the
    /// valuation table's totals row shows.
    func valuationTotal() async throws -> ValuationResponse {
        let (f, _) = try await self.store.formats()
        return ValuationResponse(CategoryValuation.total(of: try await self.store.valuation()), formats: f)
    }

    // MARK: The same reports as sheets (the `.csv` routes and the command line's `--format table|csv`)

    /// `GET /reports/snapshot.csv?at=`.
    func snapshotSheet(at text: String?) async throws -> ReportSheet {
        let (f, _) = try await self.store.formats()
        let at = try text.map { try f.calendar.parseDateTime($0, field: "at", endOfDay: true) } ?? Instant.now
        return ReportSheet.snapshot(try await self.store.snapshot(at: at), currency: f.currency, calendar: f.calendar, showCosts: CostDisclosure.visible)
    }

    /// `GET /reports/daily.csv?date=|from=&to=`, with the days it covers.
    func dailySheet(date: String?, from: String?, to: String?) async throws -> (sheet: ReportSheet, from: Int, to: Int) {
        let (f, _) = try await self.store.formats()
        let (from, to) = try Self.days(date: date, from: from, to: to, formats: f)
        return (ReportSheet.daily(try await self.store.daily(from: from, to: to), currency: f.currency, showCosts: CostDisclosure.visible), from, to)
    }

    /// `GET /reports/top.csv?from=&to=&limit=&by=`.
    func topSheet(from: String?, to: String?, limit: Int, by: String?) async throws -> ReportSheet {
        let (f, _) = try await self.store.formats()
        return ReportSheet.top(try await self.topProducts(from: from, to: to, limit: limit, by: by, formats: f), currency: f.currency)
    }

    /// `GET /reports/low-stock.csv`.
    func lowStockSheet() async throws -> ReportSheet { ReportSheet.lowStock(try await self.store.lowStock()) }

    /// `GET /reports/valuation.csv`.
    func valuationSheet() async throws -> ReportSheet {
        let (f, _) = try await self.store.formats()
        return ReportSheet.valuation(try await self.store.valuation(), currency: f.currency, showCosts: CostDisclosure.visible)
    }
}
