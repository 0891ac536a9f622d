import InventoryDomain
import Testing

/// The cash drawer's rules and its X/Z report (issue 12, point 10): every figure is a sum over the sales, returns and
/// cash movements of the session; expected cash = float + cash taken − cash refunded + cash in − cash out.
@Suite struct DrawerTests {
    static let euro = PricingTests.euro
    static func cents(_ value: Int64) -> Money { Money(minorUnits: value) }

    static func sale(_ id: Int64, by: String, lines: [(Int64, Int64, Int64)], tip: Int64 = 0, payments: [PaymentRecord]) -> SaleRecord {
        var record = SaleRecord(id: SaleID(id), sequence: id, effectiveAt: Instant(milliseconds: 0), recordedAt: Instant(milliseconds: 0), customerID: nil,
                                customerName: nil, note: "", tip: cents(tip), paymentMethod: .cash,
                                lines: lines.enumerated().map { index, line in
                                    SaleRecord.Line(movementID: MovementID(Int64(index)), productID: ProductID(1), productName: "Tea", quantity: Quantity(1),
                                                    unitPrice: cents(line.1 + line.2), discount: cents(line.2), taxRate: Percent(hundredths: line.0),
                                                    tax: cents(line.1 * line.0 / 10_000), revenue: cents(line.1), costOfGoodsSold: .zero)
                                }, soldBy: by)
        record.payments = payments
        return record
    }

    @Test func theReportSumsTheSessionExactly() {
        // Anna: 10.00 at 7 % (tax 0.70) + 0.50 tip, paid 5.00 cash and 6.20 card. Ben: 20.00 at 19 % (3.80) with a 2.00
        // discount, paid 23.80 cash; a 1.00 pending card payment aside.
        let anna = Self.sale(1, by: "anna", lines: [(700, 1000, 0)], tip: 50, payments: [
            PaymentRecord(id: PaymentID(1), method: .cash, amount: Self.cents(500), tendered: Self.cents(1000)),
            PaymentRecord(id: PaymentID(2), method: .card, amount: Self.cents(620))])
        let ben = Self.sale(2, by: "ben", lines: [(1900, 2000, 200)], payments: [
            PaymentRecord(id: PaymentID(3), method: .cash, amount: Self.cents(2380)),
            PaymentRecord(id: PaymentID(4), method: .card, amount: Self.cents(100), takenStatus: .pending)])
        let refund = ReturnFact(recordedAt: 5, lines: [(Percent(hundredths: 1900), Self.cents(1000), Self.cents(190))], refunds: [(.cash, Self.cents(1190))])
        let movements = [CashMovement(amount: Self.cents(2000), reason: "change from the bank", by: "anna", at: 2),
                         CashMovement(amount: Self.cents(-1500), reason: "window cleaner", by: "ben", at: 3)]
        let hour: Int64 = 3_600_000
        let shifts = [Shift(id: 1, userID: UserID(1), username: "anna", startedAt: -hour, endedAt: 2 * hour),   // 2 h inside
                      Shift(id: 2, userID: UserID(2), username: "carla", startedAt: hour, endedAt: nil)]        // open: to the end
        let report = DrawerReport.fold(from: 0, to: 3 * hour, openingFloat: Self.cents(10000), sales: [anna, ben], returns: [refund],
                                       cashMovements: movements, shifts: shifts, countedCash: Self.cents(12_189))
        #expect(report.salesCount == 2 && report.refundsCount == 1)
        #expect(report.grossSales == Self.cents(3200) && report.discounts == Self.cents(200))
        #expect(report.revenue == Self.cents(3000) && report.tax == Self.cents(450) && report.tips == Self.cents(50))
        #expect(report.takings == Self.cents(3500))
        #expect(report.refunds == Self.cents(1190))
        #expect(report.taxes.map(\.rate) == [Percent(hundredths: 700), Percent(hundredths: 1900)])
        #expect(report.taxes.map(\.revenue) == [Self.cents(1000), Self.cents(1000)] && report.taxes.map(\.tax) == [Self.cents(70), Self.cents(190)])
        #expect(report.methods.map(\.method) == [.cash, .card])
        #expect(report.methods.map(\.taken) == [Self.cents(2880), Self.cents(620)] && report.methods.map(\.net) == [Self.cents(1690), Self.cents(620)])
        #expect(report.pending == Self.cents(100))
        #expect(report.cashIn == Self.cents(2000) && report.cashOut == Self.cents(1500))
        #expect(report.expectedCash == Self.cents(10000 + 1690 + 2000 - 1500))
        #expect(report.difference == Self.cents(-1))
        #expect(report.staff.map(\.username) == ["anna", "ben", "carla"])
        #expect(report.staff.map(\.salesCount) == [1, 1, 0])
        #expect(report.staff.map(\.revenue) == [Self.cents(1000), Self.cents(2000), .zero] && report.staff[0].tips == Self.cents(50))
        #expect(report.staff.map(\.minutesWorked) == [120, 0, 120])
        let csv = report.csv(currency: Self.euro)
        #expect(csv.contains("cash,expected,,121.90") && csv.contains("cash,difference,,-0.01") && csv.contains("staff anna,minutes worked,120,"))
        #expect(csv.contains("tax 19 %,net,,10.00") && csv.contains("payments card,net,,6.20"))
    }

    @Test func theDrawerRulesNameTheirField() {
        #expect(throws: InventoryError(.invalidValue, field: "openingFloat", "")) { try DrawerSession.checkOpening(float: Self.cents(-1), note: "", currency: Self.euro) }
        #expect(throws: InventoryError(.invalidValue, field: "note", "")) {
            try DrawerSession.checkOpening(float: .zero, note: String(repeating: "x", count: 2001), currency: Self.euro)
        }
        #expect(throws: InventoryError(.invalidValue, field: "amount", "")) {
            try DrawerSession.checkCashMovement(amount: .zero, reason: "x", expected: Self.cents(100), currency: Self.euro)
        }
        #expect(throws: InventoryError(.missingValue, field: "reason", "")) {
            try DrawerSession.checkCashMovement(amount: Self.cents(100), reason: "  ", expected: Self.cents(100), currency: Self.euro)
        }
        #expect(throws: InventoryError(.invalidValue, field: "amount", "")) {
            try DrawerSession.checkCashMovement(amount: Self.cents(-101), reason: "safe drop", expected: Self.cents(100), currency: Self.euro)
        }
        #expect(throws: Never.self) { try DrawerSession.checkCashMovement(amount: Self.cents(-100), reason: "safe drop", expected: Self.cents(100), currency: Self.euro) }
        #expect(throws: InventoryError(.invalidValue, field: "countedCash", "")) { try DrawerSession.checkCounted(Self.cents(-1), currency: Self.euro) }
    }
}
