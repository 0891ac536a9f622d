import Foundation

/// Marker for drawer-session ids.
public enum DrawerSessionMarker: Sendable {}
public typealias DrawerSessionID = ID<DrawerSessionMarker>

/// Cash put into the drawer or taken out of it during a session, with the reason (change from the bank, paying the
/// window cleaner, a safe drop).
public struct CashMovement: Sendable, Hashable, Codable {
    /// Positive: cash in; negative: cash out.
    public var amount: Money
    public var reason: String
    public var by: String
    /// Milliseconds since 1970.
    public var at: Int64

    /// Creates a value.
    public init(amount: Money, reason: String, by: String, at: Int64) {
        self.amount = amount
        self.reason = reason
        self.by = by
        self.at = at
    }
}

/// A session of the cash drawer: opened with a counted float, cash in and out with reasons, closed with the counted
/// cash. Its report (``DrawerReport``) is the X report while it is open and the Z report, kept unchanged, once closed.
public struct DrawerSession: Sendable, Hashable {
    public var id: DrawerSessionID
    public var openedAt: Int64
    public var openedBy: String
    public var openingFloat: Money
    public var note: String
    public var cashMovements: [CashMovement]
    public var closedAt: Int64?
    public var closedBy: String?
    /// The Z report, as it was when the session closed.
    public var closingReport: DrawerReport?

    /// Creates a value.
    public init(id: DrawerSessionID, openedAt: Int64, openedBy: String, openingFloat: Money, note: String = "", cashMovements: [CashMovement] = [],
                closedAt: Int64? = nil, closedBy: String? = nil, closingReport: DrawerReport? = nil) {
        self.id = id
        self.openedAt = openedAt
        self.openedBy = openedBy
        self.openingFloat = openingFloat
        self.note = note
        self.cashMovements = cashMovements
        self.closedAt = closedAt
        self.closedBy = closedBy
        self.closingReport = closingReport
    }

    public var isOpen: Bool { self.closedAt == nil }

    /// Checks a float to open with: counted money, not negative, within the limits; the note within its limit.
    /// - Throws: ``InventoryError`` on `openingFloat` or `note`.
    public static func checkOpening(float: Money, note: String, currency: Currency) throws {
        guard float >= .zero else { throw InventoryError(.invalidValue, field: "openingFloat", "must not be negative") }
        try float.requireWithinLimit(field: "openingFloat", currency: currency)
        try TextLimit.note.check(note, field: "note")
    }

    /// Checks cash in or out against the drawer: a positive amount within the limits, a reason, and no more taken out
    /// than the drawer should hold (`expected`).
    /// - Parameter amount: positive for cash in, negative for cash out.
    /// - Throws: ``InventoryError`` on `amount` or `reason`.
    public static func checkCashMovement(amount: Money, reason: String, expected: Money, currency: Currency) throws {
        guard amount != .zero else { throw InventoryError(.invalidValue, field: "amount", "must be more than zero") }
        try (amount < .zero ? Money.zero - amount : amount).requireWithinLimit(field: "amount", currency: currency)
        let reason = reason.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !reason.isEmpty else { throw InventoryError(.missingValue, field: "reason", "say why the cash goes in or out") }
        try TextLimit.line.check(reason, field: "reason")
        if amount < .zero, Money.zero - amount > expected {
            throw InventoryError(.invalidValue, field: "amount", "is more than the \(expected.decimalString(currency)) the drawer should hold")
        }
    }

    /// Checks the cash counted at closing: not negative, within the limits.
    /// - Throws: ``InventoryError`` on `countedCash`.
    public static func checkCounted(_ counted: Money, currency: Currency) throws {
        guard counted >= .zero else { throw InventoryError(.invalidValue, field: "countedCash", "must not be negative") }
        try counted.requireWithinLimit(field: "countedCash", currency: currency)
    }
}

/// What a customer return gave back, as a drawer report needs it.
public struct ReturnFact: Sendable {
    public var recordedAt: Int64
    /// Each line's tax rate, revenue and tax given back (positive).
    public var lines: [(rate: Percent, revenue: Money, tax: Money)]
    /// Money back per payment method.
    public var refunds: [(method: PaymentMethod, amount: Money)]

    /// Creates a value.
    public init(recordedAt: Int64, lines: [(rate: Percent, revenue: Money, tax: Money)], refunds: [(method: PaymentMethod, amount: Money)]) {
        self.recordedAt = recordedAt
        self.lines = lines
        self.refunds = refunds
    }
}

/// The X report (a session still open) or Z report (closed) of a drawer session: every figure a sum over the sales,
/// returns and cash movements booked while it was open.
public struct DrawerReport: Sendable, Hashable, Codable {
    /// From when to when (milliseconds since 1970): the session's opening to its closing, or to now for an X report.
    public var from: Int64
    public var to: Int64
    public var openingFloat: Money

    public var salesCount: Int
    /// Price × quantity before discounts, with the sales' meaning of prices (``SaleRecord/Line/amount``).
    public var grossSales: Money
    public var discounts: Money
    /// Revenue before tax of the sales.
    public var revenue: Money
    public var tax: Money
    public var tips: Money
    /// What customers paid: revenue + tax + tips.
    public var takings: Money
    public var refundsCount: Int
    /// What customer returns gave back (revenue and tax).
    public var refunds: Money
    /// Net, tax and gross per rate: the sales' less the returns'.
    public var taxes: [TaxLine]
    public var methods: [MethodLine]
    /// Payments still pending (not yet money in hand), by all methods.
    public var pending: Money
    public var cashIn: Money
    public var cashOut: Money
    public var cashMovements: [CashMovement]
    /// Float + cash taken − cash refunded + cash in − cash out.
    public var expectedCash: Money
    /// The cash counted at closing (Z report only).
    public var countedCash: Money?
    /// Counted − expected: positive is more cash than expected (Z report only).
    public var difference: Money? { self.countedCash.map { $0 - self.expectedCash } }
    public var staff: [StaffLine]

    /// One tax rate's net, tax and gross.
    public struct TaxLine: Sendable, Hashable, Codable {
        public var rate: Percent
        public var revenue: Money
        public var tax: Money
        public var gross: Money { self.revenue + self.tax }
    }

    /// One payment method's money: completed payments taken, refunds given back, and the difference.
    public struct MethodLine: Sendable, Hashable, Codable {
        public var method: PaymentMethod
        public var taken: Money
        public var refunded: Money
        public var net: Money { self.taken - self.refunded }
    }

    /// One staff member's sales in the session and the time they were clocked in during it.
    public struct StaffLine: Sendable, Hashable, Codable {
        public var username: String
        public var salesCount: Int
        public var revenue: Money
        public var tips: Money
        /// Minutes clocked in within the session.
        public var minutesWorked: Int64

        /// Creates a value.
        public init(username: String, salesCount: Int = 0, revenue: Money = .zero, tips: Money = .zero, minutesWorked: Int64 = 0) {
            self.username = username
            self.salesCount = salesCount
            self.revenue = revenue
            self.tips = tips
            self.minutesWorked = minutesWorked
        }
    }

    /// The report of a session from `from` to `to`: the sales and returns recorded in that time (already chosen by the
    /// caller), the session's cash movements, and the staff's clocked shifts (clipped to the session).
    public static func fold(from: Int64, to: Int64, openingFloat: Money, sales: [SaleRecord], returns: [ReturnFact], cashMovements: [CashMovement],
                            shifts: [Shift], countedCash: Money? = nil) -> DrawerReport {
        var report = DrawerReport(from: from, to: to, openingFloat: openingFloat, salesCount: sales.count, grossSales: .zero, discounts: .zero, revenue: .zero,
                                  tax: .zero, tips: .zero, takings: .zero, refundsCount: returns.count, refunds: .zero, taxes: [], methods: [], pending: .zero,
                                  cashIn: .zero, cashOut: .zero, cashMovements: cashMovements, expectedCash: .zero, countedCash: countedCash, staff: [])
        var taken: [PaymentMethod: Money] = [:], refunded: [PaymentMethod: Money] = [:]
        var staff: [String: StaffLine] = [:]
        var taxLines: [(rate: Percent, revenue: Money, tax: Money)] = []
        for sale in sales {
            report.grossSales += sale.lines.reduce(.zero) { $0 + $1.amount }
            report.discounts += sale.discount
            report.revenue += sale.revenue
            report.tax += sale.tax
            report.tips += sale.tip
            taxLines += sale.lines.map { ($0.taxRate, $0.revenue, $0.tax) }
            for payment in sale.payments {
                switch payment.takenStatus {
                case .completed: taken[payment.method, default: .zero] += payment.amount
                case .pending: report.pending += payment.amount
                default: break
                }
            }
            var line = staff[sale.soldBy] ?? StaffLine(username: sale.soldBy, salesCount: 0, revenue: .zero, tips: .zero, minutesWorked: 0)
            line.salesCount += 1
            line.revenue += sale.revenue
            line.tips += sale.tip
            staff[sale.soldBy] = line
        }
        report.takings = report.revenue + report.tax + report.tips
        for fact in returns {
            for line in fact.lines {
                report.refunds += line.revenue + line.tax
                taxLines.append((line.rate, Money.zero - line.revenue, Money.zero - line.tax))
            }
            for refund in fact.refunds { refunded[refund.method, default: .zero] += refund.amount }
        }
        report.taxes = SaleRecord.TaxShare.byRate(taxLines).map { TaxLine(rate: $0.rate, revenue: $0.revenue, tax: $0.tax) }
        report.methods = PaymentMethod.allCases.compactMap { method in
            let line = MethodLine(method: method, taken: taken[method] ?? .zero, refunded: refunded[method] ?? .zero)
            return line.taken == .zero && line.refunded == .zero ? nil : line
        }
        for movement in cashMovements {
            if movement.amount > .zero { report.cashIn += movement.amount } else { report.cashOut += Money.zero - movement.amount }
        }
        let cash = report.methods.first { $0.method == .cash }?.net ?? .zero
        report.expectedCash = openingFloat + cash + report.cashIn - report.cashOut
        var worked: [String: Int64] = [:]
        for shift in shifts {
            let start = max(shift.startedAt, from), end = min(shift.endedAt ?? to, to)
            guard end > start else { continue }
            worked[shift.username, default: 0] += end - start
        }
        for (username, milliseconds) in worked {
            var line = staff[username] ?? StaffLine(username: username, salesCount: 0, revenue: .zero, tips: .zero, minutesWorked: 0)
            line.minutesWorked = milliseconds / 60_000
            staff[username] = line
        }
        report.staff = staff.values.sorted { $0.username < $1.username }
        return report
    }
}

extension DrawerReport {
    /// The report as a CSV file: one row per figure (section, item, count, amount), amounts with the currency's
    /// decimals, times in UTC (ISO 8601), minutes worked as a count.
    public func csv(currency: Currency) -> String {
        let amount = { (money: Money) in money.decimalString(currency) }
        var rows: [[String]] = [
            ["session", "from", "", Instant(milliseconds: self.from).iso8601],
            ["session", "to", "", Instant(milliseconds: self.to).iso8601],
            ["session", "opening float", "", amount(self.openingFloat)],
            ["sales", "gross sales", String(self.salesCount), amount(self.grossSales)],
            ["sales", "discounts", "", amount(self.discounts)],
            ["sales", "revenue before tax", "", amount(self.revenue)],
            ["sales", "tax", "", amount(self.tax)],
            ["sales", "tips", "", amount(self.tips)],
            ["sales", "takings", "", amount(self.takings)],
            ["refunds", "refunds", String(self.refundsCount), amount(self.refunds)],
        ]
        for line in self.taxes {
            rows += [["tax \(line.rate.decimalString) %", "net", "", amount(line.revenue)], ["tax \(line.rate.decimalString) %", "tax", "", amount(line.tax)],
                     ["tax \(line.rate.decimalString) %", "gross", "", amount(line.gross)]]
        }
        for line in self.methods {
            rows += [["payments \(line.method.rawValue)", "taken", "", amount(line.taken)], ["payments \(line.method.rawValue)", "refunded", "", amount(line.refunded)],
                     ["payments \(line.method.rawValue)", "net", "", amount(line.net)]]
        }
        rows += [["payments", "pending", "", amount(self.pending)], ["cash", "cash in", "", amount(self.cashIn)], ["cash", "cash out", "", amount(self.cashOut)],
                 ["cash", "expected", "", amount(self.expectedCash)]]
        if let counted = self.countedCash, let difference = self.difference {
            rows += [["cash", "counted", "", amount(counted)], ["cash", "difference", "", amount(difference)]]
        }
        for movement in self.cashMovements {
            rows.append(["cash movement", movement.reason, "", amount(movement.amount)])
        }
        for line in self.staff {
            rows += [["staff \(line.username)", "sales", String(line.salesCount), amount(line.revenue)], ["staff \(line.username)", "tips", "", amount(line.tips)],
                     ["staff \(line.username)", "minutes worked", String(line.minutesWorked), ""]]
        }
        return CSV.document(header: ["section", "item", "count", "amount"], rows: rows)
    }
}
