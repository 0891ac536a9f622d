import Foundation
import InventoryDomain
import Testing

/// ``ReportSheet``: the rows both the CSV download and the command line's tables print.
@Suite struct ReportSheetTests {
    let eur = Currency(code: "EUR", minorUnits: 2)

    @Test func dailyRowsAndTheColumnsACallerWithoutCostsDoesNotGet() throws {
        var day = DailyPerformance(day: 20260301)
        day.grossSales = Money(minorUnits: 1000)
        day.revenue = Money(minorUnits: 1000)
        day.costOfGoodsSold = Money(minorUnits: 400)
        day.salesCount = 2
        let sheet = ReportSheet.daily([day], currency: self.eur, showCosts: true)
        #expect(sheet.columns.count == 10 && sheet.rows == [["2026-03-01", "2", "10.00", "0.00", "0.00", "0.00", "0.00", "4.00", "6.00", "5.00"]])
        #expect(sheet.csv.hasPrefix("day,sales,revenue,"))
        let hidden = ReportSheet.daily([day], currency: self.eur, showCosts: false)
        #expect(hidden.columns == ["day", "sales", "revenue", "discounts", "returns", "tax", "tips", "average_basket"])
        #expect(hidden.rows == [["2026-03-01", "2", "10.00", "0.00", "0.00", "0.00", "0.00", "5.00"]])
        #expect(hidden.numericColumns == Set(1...7))
    }

    @Test func valuationHasTotalsForATableButNotInTheCSV() {
        let rows = [CategoryValuation(categoryID: nil, name: "=SUM(A1)", productCount: 2, quantity: Quantity(3), value: Money(minorUnits: 450)),
                    CategoryValuation(categoryID: CategoryID(4), name: "Tea", productCount: 1, quantity: Quantity(1), value: Money(minorUnits: 50))]
        let sheet = ReportSheet.valuation(rows, currency: self.eur, showCosts: true)
        #expect(sheet.totals == ["TOTAL", "3", "4", "5.00"])
        #expect(sheet.csv == "category,products,quantity,value\r\n'=SUM(A1),2,3,4.50\r\nTea,1,1,0.50\r\n")
        let hidden = ReportSheet.valuation(rows, currency: self.eur, showCosts: false)
        #expect(hidden.columns == ["category", "products", "quantity"] && hidden.totals == ["TOTAL", "3", "4"])
    }

    @Test func theValuationTotalSumsEveryCategory() {
        let rows = [CategoryValuation(categoryID: nil, name: "", productCount: 2, quantity: Quantity(thousandths: 2_500), value: Money(minorUnits: 451)),
                    CategoryValuation(categoryID: CategoryID(4), name: "Tea", productCount: 1, quantity: Quantity(1), value: Money(minorUnits: -50))]
        let total = CategoryValuation.total(of: rows)
        #expect(total == CategoryValuation(categoryID: nil, name: "Total", productCount: 3, quantity: Quantity(thousandths: 3_500),
                                           value: Money(minorUnits: 401)))
        #expect(CategoryValuation.total(of: []) == CategoryValuation(categoryID: nil, name: "Total", productCount: 0, quantity: .zero, value: .zero))
    }
}
