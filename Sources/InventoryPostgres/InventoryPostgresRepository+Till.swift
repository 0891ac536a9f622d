import Foundation
import InventoryDomain
import PostgresNIO

// The counter on PostgreSQL: the cash drawer (``DrawerRepository``), tabs (``TabRepository``) and customer cards
// (``CustomerCardRepository``), as the SQLite store's `+Drawer`, `+Tabs` and `+CustomerCards`; the rules are the domain's
// (DrawerSession's checks, DrawerReport.fold, ParkedSale.validated, CustomerStanding).

// MARK: - Cash drawer

extension InventoryPostgresRepository: DrawerRepository {
    /// One drawer-changing write at a time across instances (opening, cash in or out, closing).
    static let drawerLock = "SELECT pg_advisory_xact_lock(hashtext('stockroom-drawer'))"

    public func openDrawer(float: Money, note: String, by: String, at: Int64) async throws -> DrawerSession {
        let note = note.trimmingCharacters(in: .whitespacesAndNewlines)
        return try await self.write { connection, settings, _ in
            try DrawerSession.checkOpening(float: float, note: note, currency: settings.currency)
            try await connection.execute(PostgresQuery(unsafeSQL: Self.drawerLock), logger: self.logger)
            if let open = try await self.openSessionID(connection) {
                throw InventoryError(.conflict, field: "openingFloat", "drawer session \(open) is still open; close it first")
            }
            let id = try await connection.query("""
                INSERT INTO drawerSession (openedAt, openedBy, openingFloat, note) VALUES (\(Instant(milliseconds: at)), \(by), \(float.minorUnits), \(note))
                RETURNING id
                """, logger: self.logger).collect(Int64.self)[0]
            return try await self.fetchDrawerSession(connection, DrawerSessionID(id))
        }
    }

    public func currentDrawer() async throws -> DrawerSession? {
        try await self.read { connection in
            try await self.openSessionID(connection).asyncMap { try await self.fetchDrawerSession(connection, $0) }
        }
    }

    public func moveCash(amount: Money, reason: String, by: String, at: Int64) async throws -> DrawerSession {
        let reason = reason.trimmingCharacters(in: .whitespacesAndNewlines)
        return try await self.write { connection, settings, _ in
            try await connection.execute(PostgresQuery(unsafeSQL: Self.drawerLock), logger: self.logger)
            let session = try await self.requireOpenSession(connection)
            let expected = try await self.report(connection, session, to: at).expectedCash
            try DrawerSession.checkCashMovement(amount: amount, reason: reason, expected: expected, currency: settings.currency)
            try await connection.execute("""
                INSERT INTO cashMovement (sessionId, at, amount, reason, byUser)
                VALUES (\(session.id.rawValue), \(Instant(milliseconds: at)), \(amount.minorUnits), \(reason), \(by))
                """, logger: self.logger)
            return try await self.fetchDrawerSession(connection, session.id)
        }
    }

    public func closeDrawer(counted: Money, by: String, at: Int64) async throws -> DrawerSession {
        try await self.write { connection, settings, log in
            try await connection.execute(PostgresQuery(unsafeSQL: Self.drawerLock), logger: self.logger)
            let session = try await self.requireOpenSession(connection)
            try DrawerSession.checkCounted(counted, currency: settings.currency)
            var report = try await self.report(connection, session, to: max(at, session.openedAt))
            report.countedCash = counted
            let json = String(decoding: try JSONEncoder().encode(report), as: UTF8.self)
            try await connection.execute("""
                UPDATE drawerSession SET closedAt = \(Instant(milliseconds: report.to)), closedBy = \(by), closingReport = \(json)
                WHERE id = \(session.id.rawValue)
                """, logger: self.logger)
            try await log.record(ShopActivity.drawerClosed(session.id.rawValue, counted: counted, expected: report.expectedCash, by: log.agent,
                                                           at: Self.now, currency: settings.currency))
            return try await self.fetchDrawerSession(connection, session.id)
        }
    }

    public func drawerSessions(limit: Int, offset: Int) async throws -> [DrawerSession] {
        try await self.read { connection in
            var sessions: [DrawerSession] = []
            for id in try await connection.query("SELECT id FROM drawerSession ORDER BY id DESC LIMIT \(limit) OFFSET \(offset)", logger: self.logger)
                .collect(Int64.self) { sessions.append(try await self.fetchDrawerSession(connection, DrawerSessionID(id))) }
            return sessions
        }
    }

    public func drawerSession(_ id: DrawerSessionID) async throws -> DrawerSession {
        try await self.read { connection in try await self.fetchDrawerSession(connection, id) }
    }

    public func drawerReport(_ id: DrawerSessionID, now: Int64) async throws -> DrawerReport {
        try await self.read { connection in
            let session = try await self.fetchDrawerSession(connection, id)
            if let closing = session.closingReport { return closing }
            return try await self.report(connection, session, to: max(now, session.openedAt))
        }
    }

    public func shiftSummaries(_ shifts: [Shift], now: Int64) async throws -> [DrawerReport.StaffLine] {
        try await self.read { connection in
            var lines: [DrawerReport.StaffLine] = []
            for shift in shifts {
                let to = max(shift.endedAt ?? now, shift.startedAt)
                var sales: [SaleRecord] = []
                for id in try await connection.query("""
                    SELECT id FROM document WHERE kind = 'sale' AND soldBy = \(shift.username)
                    AND recordedAt BETWEEN \(Instant(milliseconds: shift.startedAt)) AND \(Instant(milliseconds: to)) ORDER BY id
                    """, logger: self.logger).collect(Int64.self) { sales.append(try await self.fetchSale(connection, SaleID(id))) }
                let report = DrawerReport.fold(from: shift.startedAt, to: to, openingFloat: .zero, sales: sales, returns: [], cashMovements: [], shifts: [shift])
                lines.append(report.staff.first { $0.username == shift.username } ?? DrawerReport.StaffLine(username: shift.username))
            }
            return lines
        }
    }

    func openSessionID(_ connection: PostgresConnection) async throws -> DrawerSessionID? {
        try await connection.query("SELECT id FROM drawerSession WHERE closedAt IS NULL", logger: self.logger).collect(Int64.self).first
            .map(DrawerSessionID.init(rawValue:))
    }

    func requireOpenSession(_ connection: PostgresConnection) async throws -> DrawerSession {
        guard let id = try await self.openSessionID(connection) else {
            throw InventoryError(.conflict, field: "drawer", "no drawer session is open; open one with a float first")
        }
        return try await self.fetchDrawerSession(connection, id)
    }

    func fetchDrawerSession(_ connection: PostgresConnection, _ id: DrawerSessionID) async throws -> DrawerSession {
        var found: (Instant, String, Int64, String, Instant?, String?, String?)?
        for try await row in try await connection.query("""
            SELECT openedAt, openedBy, openingFloat, note, closedAt, closedBy, closingReport FROM drawerSession WHERE id = \(id.rawValue)
            """, logger: self.logger).decode((Instant, String, Int64, String, Instant?, String?, String?).self) { found = row }
        guard let row = found else { throw InventoryError(.notFound, field: "id", "drawer session \(id) does not exist") }
        var movements: [CashMovement] = []
        for try await (amount, reason, by, at) in try await connection.query(
            "SELECT amount, reason, byUser, at FROM cashMovement WHERE sessionId = \(id.rawValue) ORDER BY id", logger: self.logger
        ).decode((Int64, String, String, Instant).self) {
            movements.append(CashMovement(amount: Money(minorUnits: amount), reason: reason, by: by, at: at.milliseconds))
        }
        let report = try row.6.map { try JSONDecoder().decode(DrawerReport.self, from: Data($0.utf8)) }
        return DrawerSession(id: id, openedAt: row.0.milliseconds, openedBy: row.1, openingFloat: Money(minorUnits: row.2), note: row.3,
                             cashMovements: movements, closedAt: row.4?.milliseconds, closedBy: row.5, closingReport: report)
    }

    /// The report of `session` from its opening to `to` (``DrawerReport/fold(from:to:openingFloat:sales:returns:cashMovements:shifts:countedCash:)``).
    func report(_ connection: PostgresConnection, _ session: DrawerSession, to: Int64) async throws -> DrawerReport {
        let from = Instant(milliseconds: session.openedAt), until = Instant(milliseconds: to)
        var sales: [SaleRecord] = []
        for id in try await connection.query(
            "SELECT id FROM document WHERE kind = 'sale' AND recordedAt BETWEEN \(from) AND \(until) ORDER BY id", logger: self.logger
        ).collect(Int64.self) { sales.append(try await self.fetchSale(connection, SaleID(id))) }
        var returns: [ReturnFact] = []
        var returnRows: [(Int64, Instant)] = []
        for try await row in try await connection.query(
            "SELECT id, recordedAt FROM document WHERE kind = 'customerReturn' AND recordedAt BETWEEN \(from) AND \(until) ORDER BY id", logger: self.logger
        ).decode((Int64, Instant).self) { returnRows.append(row) }
        for (id, recordedAt) in returnRows {
            var lines: [(rate: Percent, revenue: Money, tax: Money)] = []
            for try await (rate, revenue, tax) in try await connection.query(
                "SELECT taxRate, revenue, tax FROM movement WHERE documentId = \(id) ORDER BY lineNo", logger: self.logger
            ).decode((Int64, Int64, Int64).self) {
                lines.append((rate: Percent(hundredths: rate), revenue: Money(minorUnits: -revenue), tax: Money(minorUnits: -tax)))
            }
            var refunds: [(method: PaymentMethod, amount: Money)] = []
            for try await (method, amount) in try await connection.query("""
                SELECT p.method, r.amount FROM paymentRefund r JOIN salePayment p ON p.id = r.paymentId WHERE r.returnId = \(id) ORDER BY p.lineNo
                """, logger: self.logger).decode((String, Int64).self) {
                refunds.append((method: PaymentMethod(rawValue: method) ?? .other, amount: Money(minorUnits: amount)))
            }
            returns.append(ReturnFact(recordedAt: recordedAt.milliseconds, lines: lines, refunds: refunds))
        }
        var shifts: [Shift] = []
        for try await (id, userID, username, startedAt, endedAt) in try await connection.query("""
            SELECT s.id, s.userId, u.username, s.startedAt, s.endedAt FROM shift s JOIN account u ON u.id = s.userId
            WHERE s.startedAt <= \(until) AND (s.endedAt IS NULL OR s.endedAt >= \(from)) ORDER BY s.id
            """, logger: self.logger).decode((Int64, Int64, String, Instant, Instant?).self) {
            shifts.append(Shift(id: id, userID: UserID(userID), username: username, startedAt: startedAt.milliseconds, endedAt: endedAt?.milliseconds))
        }
        return DrawerReport.fold(from: session.openedAt, to: to, openingFloat: session.openingFloat, sales: sales, returns: returns,
                                 cashMovements: session.cashMovements, shifts: shifts)
    }
}

// MARK: - Tabs

extension InventoryPostgresRepository: TabRepository {
    public func parkSale(_ sale: ParkedSale) async throws -> ParkedSale {
        let sale = try sale.validated()
        return try await self.write { connection, _, _ in
            if let customer = sale.customerID {
                try await self.requireRow(connection, table: "customer", id: customer.rawValue, field: "customerId", label: "customer")
            }
            for (index, line) in sale.lines.enumerated() {
                try await self.requireUsableProduct(connection, line.productID, field: "lines[\(index)].productId", editing: false)
            }
            let id = try await connection.query("""
                INSERT INTO parkedSale (label, customerId, note, parkedBy, parkedAt)
                VALUES (\(sale.label), \(sale.customerID?.rawValue), \(sale.note), \(sale.parkedBy), \(sale.parkedAt)) RETURNING id
                """, logger: self.logger).collect(Int64.self)[0]
            for (index, line) in sale.lines.enumerated() {
                var amount: Int64?, percent: Int64?
                switch line.discount {
                case .amount(let money): amount = money.minorUnits
                case .percent(let share): percent = share.hundredths
                }
                let options = line.options.map { String($0.rawValue) }.joined(separator: ",")
                try await connection.execute("""
                    INSERT INTO parkedSaleLine (parkedSaleId, lineNo, productId, quantity, unitPrice, discount, discountPercent, taxRate, options)
                    VALUES (\(id), \(index), \(line.productID.rawValue), \(line.quantity.thousandths), \(line.unitPrice?.minorUnits), \(amount), \(percent),
                            \(line.taxRate?.hundredths), \(options))
                    """, logger: self.logger)
            }
            return try await self.fetchParkedSales(connection, id: id).first ?? sale
        }
    }

    public func parkedSales() async throws -> [ParkedSale] {
        try await self.read { connection in try await self.fetchParkedSales(connection, id: nil) }
    }

    /// Takes a tab off the list: the row lock makes a second till picking up the same tab wait, then find it gone.
    public func pickUpParkedSale(_ id: ParkedSaleID) async throws -> ParkedSale {
        try await self.write { connection, _, _ in
            guard try await !connection.query("SELECT id FROM parkedSale WHERE id = \(id.rawValue) FOR UPDATE", logger: self.logger)
                .collect(Int64.self).isEmpty,
                let sale = try await self.fetchParkedSales(connection, id: id.rawValue).first
            else { throw InventoryError(.notFound, field: "id", "tab \(id) does not exist; another till may have picked it up") }
            try await connection.execute("DELETE FROM parkedSale WHERE id = \(id.rawValue)", logger: self.logger)
            return sale
        }
    }

    /// The parked sales (one, or all oldest first) with their lines.
    func fetchParkedSales(_ connection: PostgresConnection, id: Int64?) async throws -> [ParkedSale] {
        let filter = id.map { "WHERE parkedSaleId = \($0)" } ?? ""
        var lines: [Int64: [SaleDraft.Line]] = [:]
        for try await row in try await connection.query(PostgresQuery(unsafeSQL: """
            SELECT parkedSaleId, productId, quantity, unitPrice, discount, discountPercent, taxRate, options FROM parkedSaleLine
            \(filter) ORDER BY parkedSaleId, lineNo
            """), logger: self.logger).decode((Int64, Int64, Int64, Int64?, Int64?, Int64?, Int64?, String).self) {
            let price = row.3.map(Money.init(minorUnits:)), rate = row.6.map(Percent.init(hundredths:))
            var line = if let percent = row.5 {
                SaleDraft.Line(productID: ProductID(row.1), quantity: Quantity(thousandths: row.2), unitPrice: price,
                               discountPercent: Percent(hundredths: percent), taxRate: rate)
            } else {
                SaleDraft.Line(productID: ProductID(row.1), quantity: Quantity(thousandths: row.2), unitPrice: price,
                               discount: Money(minorUnits: row.4 ?? 0), taxRate: rate)
            }
            line.options = row.7.split(separator: ",").compactMap { Int64($0) }.map(ModifierID.init(rawValue:))
            lines[row.0, default: []].append(line)
        }
        var sales: [ParkedSale] = []
        for try await (saleID, label, customerID, note, parkedBy, parkedAt) in try await connection.query(PostgresQuery(unsafeSQL: """
            SELECT id, label, customerId, note, parkedBy, parkedAt FROM parkedSale \(id.map { "WHERE id = \($0)" } ?? "") ORDER BY parkedAt, id
            """), logger: self.logger).decode((Int64, String, Int64?, String, String, Instant).self) {
            sales.append(ParkedSale(id: ParkedSaleID(saleID), label: label, lines: lines[saleID] ?? [], customerID: customerID.map(CustomerID.init(rawValue:)),
                                    note: note, parkedBy: parkedBy, parkedAt: parkedAt))
        }
        return sales
    }
}

// MARK: - Customer cards

extension InventoryPostgresRepository: CustomerCardRepository {
    public func setCustomerCard(_ id: CustomerID, number: String) async throws -> CustomerStanding {
        let number = try CustomerStanding.checkCardNumber(number)
        return try await self.write { connection, _, _ in
            try await self.requireRow(connection, table: "customer", id: id.rawValue, field: "id", label: "customer")
            // Cards are unique case-insensitively (an index on lower(number)); the lock makes two cards given at once wait.
            try await connection.execute("SELECT pg_advisory_xact_lock(hashtext('stockroom-card:' || lower(\(number))))", logger: self.logger)
            for try await (owner, name) in try await connection.query("""
                SELECT c.id, c.name FROM customerCard k JOIN customer c ON c.id = k.customerId WHERE lower(k.number) = lower(\(number))
                """, logger: self.logger).decode((Int64, String).self) where owner != id.rawValue {
                throw InventoryError(.conflict, field: "cardNumber", "card \(number) belongs to \(name)")
            }
            try await connection.execute("""
                INSERT INTO customerCard (customerId, number) VALUES (\(id.rawValue), \(number)) ON CONFLICT (customerId) DO UPDATE SET number = excluded.number
                """, logger: self.logger)
            return try await self.standing(connection, id)
        }
    }

    public func removeCustomerCard(_ id: CustomerID) async throws {
        try await self.write { connection, _, _ in
            try await self.requireRow(connection, table: "customer", id: id.rawValue, field: "id", label: "customer")
            try await connection.execute("DELETE FROM customerCard WHERE customerId = \(id.rawValue)", logger: self.logger)
        }
    }

    public func customer(cardNumber: String) async throws -> CustomerStanding {
        let number = cardNumber.trimmingCharacters(in: .whitespacesAndNewlines)
        return try await self.read { connection in
            guard let id = try await connection.query("SELECT customerId FROM customerCard WHERE lower(number) = lower(\(number))", logger: self.logger)
                .collect(Int64.self).first
            else { throw InventoryError(.notFound, field: "cardNumber", "no customer has card \(number.prefix(64))") }
            return try await self.standing(connection, CustomerID(id))
        }
    }

    public func customerStanding(_ id: CustomerID) async throws -> CustomerStanding {
        try await self.read { connection in try await self.standing(connection, id) }
    }

    /// Visits are the customer's sales; spend is what those sales charged with tax and tips, less what their returns gave back.
    func standing(_ connection: PostgresConnection, _ id: CustomerID) async throws -> CustomerStanding {
        var found: (String, String?)?
        for try await row in try await connection.query("""
            SELECT c.name, k.number FROM customer c LEFT JOIN customerCard k ON k.customerId = c.id WHERE c.id = \(id.rawValue)
            """, logger: self.logger).decode((String, String?).self) { found = row }
        guard let customer = found else { throw InventoryError(.notFound, field: "id", "customer \(id) does not exist") }
        var sales: (Int, Int64, Instant?) = (0, 0, nil)
        for try await row in try await connection.query("""
            SELECT COUNT(*), COALESCE(SUM(tip), 0)::bigint, MAX(effectiveAt) FROM document WHERE customerId = \(id.rawValue) AND kind = 'sale'
            """, logger: self.logger).decode((Int, Int64, Instant?).self) { sales = row }
        let charged = try await connection.query("""
            SELECT COALESCE(SUM(m.revenue + m.tax), 0)::bigint FROM document d JOIN movement m ON m.documentId = d.id
            WHERE d.customerId = \(id.rawValue) AND d.kind IN ('sale', 'customerReturn')
            """, logger: self.logger).collect(Int64.self).first ?? 0
        return CustomerStanding(customerID: id, name: customer.0, cardNumber: customer.1, visits: sales.0,
                                spend: Money(minorUnits: charged + sales.1), lastVisit: sales.2?.milliseconds)
    }
}
