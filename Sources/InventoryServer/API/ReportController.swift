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
        reports.get("expiring", .permission(.viewCatalogue), use: self.expiring)
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
        guard f.calendar.days(from: from, through: to).count <= 3660 else {
            throw InventoryError(.invalidValue, field: "to", "a range may span at most ten years")
        }
        return (from, to)
    }

    /// `GET /reports/top?from=&to=&limit=&by=`: best sellers, the last 30 days by default.
    func top(from: String?, to: String?, limit: Int, by: String?) async throws -> [TopResponse] {
        let (f, _) = try await self.store.formats()
        let to = try to.map { try f.calendar.parseDateTime($0, field: "to", endOfDay: true) } ?? Instant.now
        let from = try from.map { try f.calendar.parseDateTime($0, field: "from") }
            ?? f.calendar.startOfDay(f.calendar.addingDays(-29, to: f.calendar.dayNumber(to)))
        let metric = try by.map { text in
            guard let metric = TopProductMetric(rawValue: text) else { throw InventoryError(.invalidValue, field: "by", "must be quantity or revenue") }
            return metric
        } ?? .quantity
        return try await self.store.topProducts(from: from, to: to, by: metric, limit: limit).map { TopResponse($0, formats: f) }
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
}
