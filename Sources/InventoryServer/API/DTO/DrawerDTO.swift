import InventoryDomain

/// `POST /api/v1/drawer/open`.
struct DrawerOpenRequest: Decodable, Sendable, KnownFields {
    var openingFloat: String
    var note: String?
    static var fields: [String] { ["openingFloat", "note"] }
}

/// `POST /api/v1/drawer/cash`: cash put in or taken out, with the reason.
struct DrawerCashRequest: Decodable, Sendable, KnownFields {
    var direction: String
    var amount: String
    var reason: String
    static var fields: [String] { ["direction", "amount", "reason"] }
}

/// `POST /api/v1/drawer/close`.
struct DrawerCloseRequest: Decodable, Sendable, KnownFields {
    var countedCash: String
    static var fields: [String] { ["countedCash"] }
}

/// A drawer session with its report (X while open, Z once closed).
struct DrawerResponse: Encodable, Sendable {
    var id: Int64
    var isOpen: Bool
    var openedAt: String
    var openedBy: String
    var openingFloat: String
    var note: String
    var closedAt: String?
    var closedBy: String?
    var cashMovements: [CashMovementResponse]
    var report: ReportResponse

    struct CashMovementResponse: Encodable, Sendable {
        var at: String
        var direction: String
        var amount: String
        var reason: String
        var by: String
    }

    struct ReportResponse: Encodable, Sendable {
        /// "X" while the session is open, "Z" once closed.
        var kind: String
        var from: String
        var to: String
        var salesCount: Int
        var grossSales: String
        var discounts: String
        var revenue: String
        var tax: String
        var tips: String
        var takings: String
        var refundsCount: Int
        var refunds: String
        var taxes: [Tax]
        var methods: [Method]
        var pending: String
        var cashIn: String
        var cashOut: String
        var expectedCash: String
        var countedCash: String?
        var difference: String?
        var staff: [Staff]

        struct Tax: Encodable, Sendable { var taxRate: String, revenue: String, tax: String, gross: String }
        struct Method: Encodable, Sendable { var method: String, taken: String, refunded: String, net: String }
        struct Staff: Encodable, Sendable { var username: String, salesCount: Int, revenue: String, tips: String, minutesWorked: Int64 }
    }

    init(_ s: DrawerSession, report r: DrawerReport, _ f: Formats) {
        self.id = s.id.rawValue
        self.isOpen = s.isOpen
        self.openedAt = Instant(milliseconds: s.openedAt).iso8601
        self.openedBy = s.openedBy
        self.openingFloat = f.string(s.openingFloat)
        self.note = s.note
        self.closedAt = s.closedAt.map { Instant(milliseconds: $0).iso8601 }
        self.closedBy = s.closedBy
        self.cashMovements = s.cashMovements.map {
            CashMovementResponse(at: Instant(milliseconds: $0.at).iso8601, direction: $0.amount > .zero ? "in" : "out",
                                 amount: f.string($0.amount > .zero ? $0.amount : Money.zero - $0.amount), reason: $0.reason, by: $0.by)
        }
        self.report = ReportResponse(
            kind: s.isOpen ? "X" : "Z", from: Instant(milliseconds: r.from).iso8601, to: Instant(milliseconds: r.to).iso8601, salesCount: r.salesCount,
            grossSales: f.string(r.grossSales), discounts: f.string(r.discounts), revenue: f.string(r.revenue), tax: f.string(r.tax), tips: f.string(r.tips),
            takings: f.string(r.takings), refundsCount: r.refundsCount, refunds: f.string(r.refunds),
            taxes: r.taxes.map { .init(taxRate: $0.rate.decimalString, revenue: f.string($0.revenue), tax: f.string($0.tax), gross: f.string($0.gross)) },
            methods: r.methods.map { .init(method: $0.method.rawValue, taken: f.string($0.taken), refunded: f.string($0.refunded), net: f.string($0.net)) },
            pending: f.string(r.pending), cashIn: f.string(r.cashIn), cashOut: f.string(r.cashOut), expectedCash: f.string(r.expectedCash),
            countedCash: r.countedCash.map(f.string), difference: r.difference.map(f.string),
            staff: r.staff.map { .init(username: $0.username, salesCount: $0.salesCount, revenue: f.string($0.revenue), tips: f.string($0.tips), minutesWorked: $0.minutesWorked) })
    }
}

/// `GET /api/v1/drawer`: the open session, or none.
struct CurrentDrawerResponse: Encodable, Sendable {
    var session: DrawerResponse?
}
