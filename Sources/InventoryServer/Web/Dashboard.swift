import Foundation
import Hummingbird
import InventoryDomain

/// The home screen's figures, drawn on the server: the stock on a chosen day, that day's takings, a 30-day
/// revenue and profit chart (SVG), the best sellers over a range, and the stock alerts (with, for managers, the sales
/// sold beyond the stock on record that wait for review).
struct Dashboard<Repository: ReportRepository & SettingsRepository & LedgerRepository> {
    let repository: Repository
    let identity: Identity

    func context(_ request: Request) async throws -> [String: Any] {
        let settings = try await self.repository.settings()
        let f = Formats(currency: settings.currency, calendar: settings.calendar)
        let today = f.calendar.dayNumber(.now)
        var values: [String: Any] = [:]
        var errors: [String] = []

        func day(_ name: String, default fallback: Int) -> Int {
            guard let text = request.query(name), !text.isEmpty else { return fallback }
            guard let day = ShopCalendar.dayNumber(isoDate: text) else {
                errors.append("\(name): “\(text)” is not a date (use YYYY-MM-DD)")
                return fallback
            }
            return day
        }
        let date = day("date", default: today)
        values["date"] = ShopCalendar.isoDate(date)
        values["today"] = ShopCalendar.isoDate(today)
        values["isToday"] = date == today
        let endOfDay = f.calendar.endOfDay(date)
        let snapshot = try await self.repository.snapshot(at: endOfDay)
        values["stockQuantity"] = snapshot.totalQuantity.decimalString
        // What the stock cost is shown only to who may see costs (decided for the request, ``CostDisclosure``).
        values["stockValue"] = CostDisclosure.reveal(f.string(snapshot.totalValue))
        values["productsInStock"] = snapshot.lines.filter { $0.quantity.thousandths > 0 }.count

        if self.identity.allows(.viewReports) {
            let days = try await self.repository.daily(from: f.calendar.addingDays(-29, to: date), to: date)
            let selected = days.last { $0.day == date }
            values["revenue"] = f.string(selected?.revenue ?? .zero)
            values["profit"] = CostDisclosure.reveal(f.string(selected?.profit ?? .zero))
            values["salesCount"] = selected?.salesCount ?? 0
            let chartDays = f.calendar.days(from: f.calendar.addingDays(-29, to: date), through: date)
            values["chart"] = Self.chart(days: chartDays, figures: days, formats: f)
            values["chartFrom"] = chartDays.first.map(ShopCalendar.isoDate) ?? ""
            values["chartTo"] = chartDays.last.map(ShopCalendar.isoDate) ?? ""
            values["chartMax"] = f.string(days.map(\.revenue).max() ?? .zero)

            let from = day("from", default: f.calendar.addingDays(-29, to: date))
            let to = day("to", default: date)
            if from > to { errors.append("from: must be on or before “to”") }
            let metric = TopProductMetric(rawValue: request.query("by") ?? "quantity") ?? .quantity
            let top = from > to ? [] : try await self.repository.topProducts(
                from: f.calendar.startOfDay(from), to: f.calendar.startOfDay(f.calendar.nextDay(to)), by: metric, limit: 10)
            values["top"] = [
                "from": ShopCalendar.isoDate(from), "to": ShopCalendar.isoDate(to), "byRevenue": metric == .revenue,
                "items": top.enumerated().map { index, item in
                    ["rank": index + 1, "productId": item.productID.rawValue, "name": item.name,
                     "quantity": item.quantity.decimalString, "revenue": f.string(item.revenue)] as [String: Any]
                },
            ] as [String: Any]
        }
        values["lowStock"] = try await self.repository.lowStock().prefix(20).map {
            ["productId": $0.productID.rawValue, "name": $0.name, "quantity": $0.quantity.decimalString, "threshold": $0.threshold.decimalString,
             "unit": $0.unit, "out": $0.status == .out] as [String: Any]
        }
        values["expiring"] = try await self.repository.expiringLots(through: ShopCalendar.isoDate(f.calendar.addingDays(7, to: today))).prefix(20).map {
            ["productId": $0.productID.rawValue, "name": $0.name, "lot": $0.lotCode ?? "", "expiryDate": $0.expiryDate,
             "quantity": $0.stockQuantity.decimalString, "expired": $0.expiryDate < ShopCalendar.isoDate(today)] as [String: Any]
        }
        if self.identity.allows(.viewReports) {
            values["beyondStock"] = try await self.repository.soldBeyondStock(includeReviewed: false).prefix(20).map {
                ["saleId": $0.saleID.rawValue, "receiptNumber": $0.receiptNumber, "productId": $0.productID.rawValue, "name": $0.productName,
                 "quantity": $0.quantity.decimalString, "shortBy": $0.shortBy.decimalString, "stockNow": $0.stockNow.decimalString,
                 "approvedBy": $0.approvedBy, "date": ShopCalendar.isoDate(f.calendar.dayNumber($0.effectiveAt))] as [String: Any]
            }
            values["canReview"] = self.identity.allows(.sellBelowMinimum)
        }
        values["errors"] = errors
        return values
    }

    /// Revenue bars and a profit line for each day, as an SVG with a text alternative.
    static func chart(days: [Int], figures: [DailyPerformance], formats f: Formats) -> String {
        let byDay = Dictionary(figures.map { ($0.day, $0) }, uniquingKeysWith: { first, _ in first })
        let revenue = days.map { byDay[$0]?.revenue.minorUnits ?? 0 }
        let profit = days.map { byDay[$0]?.profit.minorUnits ?? 0 }
        let top = max(1, (revenue + profit).max() ?? 1)
        let bottom = min(0, (revenue + profit).min() ?? 0)
        let width = 600.0, height = 200.0, left = 4.0, plotTop = 12.0, plotBottom = 176.0
        let slot = (width - left * 2) / Double(max(days.count, 1))
        func y(_ value: Int64) -> Double {
            plotBottom - (Double(value - bottom) / Double(top - bottom)) * (plotBottom - plotTop)
        }
        let zero = y(0)
        var svg = """
        <svg class="chart" viewBox="0 0 \(Int(width)) \(Int(height))" role="img" aria-labelledby="chart-title chart-desc" preserveAspectRatio="none">
        <title id="chart-title">Revenue and profit, last \(days.count) days</title>
        <desc id="chart-desc">Bars show each day's revenue, the line its profit. Highest revenue \(f.string(Money(minorUnits: revenue.max() ?? 0))).</desc>
        <line class="chart-axis" x1="\(left)" y1="\(Self.n(zero))" x2="\(width - left)" y2="\(Self.n(zero))"/>
        """
        for (index, value) in revenue.enumerated() {
            let x = left + Double(index) * slot + slot * 0.15
            let top = min(y(value), zero), barHeight = abs(zero - y(value))
            let label = "\(ShopCalendar.isoDate(days[index])): revenue \(f.string(Money(minorUnits: value))), profit \(f.string(Money(minorUnits: profit[index])))"
            svg += "<rect class=\"chart-revenue\" x=\"\(Self.n(x))\" y=\"\(Self.n(top))\" width=\"\(Self.n(slot * 0.7))\" height=\"\(Self.n(max(barHeight, value == 0 ? 0 : 1)))\"><title>\(Self.escape(label))</title></rect>"
        }
        let points = profit.enumerated().map { index, value in "\(Self.n(left + (Double(index) + 0.5) * slot)),\(Self.n(y(value)))" }
        svg += "<polyline class=\"chart-profit\" fill=\"none\" points=\"\(points.joined(separator: " "))\"/>"
        return svg + "</svg>"
    }

    static func n(_ value: Double) -> String { String(format: "%.1f", value) }

    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}
