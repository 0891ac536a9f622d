import Foundation
import GRDB
import InventoryDomain

// MARK: - DrawerRepository

extension InventorySQLiteRepository {
    public func openDrawer(float: Money, note: String, by: String, at: Int64) async throws -> DrawerSession {
        let note = note.trimmingCharacters(in: .whitespacesAndNewlines)
        return try await self.write { db, settings in
            try DrawerSession.checkOpening(float: float, note: note, currency: settings.currency)
            if let open = try Self.openSessionID(db) {
                throw InventoryError(.conflict, field: "openingFloat", "drawer session \(open) is still open; close it first")
            }
            try db.execute(sql: "INSERT INTO drawerSession (openedAt, openedBy, openingFloat, note) VALUES (?, ?, ?, ?)",
                           arguments: [at, by, float.minorUnits, note])
            return try Self.fetchDrawerSession(db, DrawerSessionID(db.lastInsertedRowID))
        }
    }

    public func currentDrawer() async throws -> DrawerSession? {
        try await self.read { db in try Self.openSessionID(db).map { try Self.fetchDrawerSession(db, $0) } }
    }

    public func moveCash(amount: Money, reason: String, by: String, at: Int64) async throws -> DrawerSession {
        let reason = reason.trimmingCharacters(in: .whitespacesAndNewlines)
        return try await self.write { db, settings in
            let session = try Self.requireOpenSession(db)
            let expected = try Self.report(db, session, to: at).expectedCash
            try DrawerSession.checkCashMovement(amount: amount, reason: reason, expected: expected, currency: settings.currency)
            try db.execute(sql: "INSERT INTO cashMovement (sessionId, at, amount, reason, byUser) VALUES (?, ?, ?, ?, ?)",
                           arguments: [session.id.rawValue, at, amount.minorUnits, reason, by])
            return try Self.fetchDrawerSession(db, session.id)
        }
    }

    public func closeDrawer(counted: Money, by: String, at: Int64) async throws -> DrawerSession {
        try await self.write { db, settings, log in
            let session = try Self.requireOpenSession(db)
            try DrawerSession.checkCounted(counted, currency: settings.currency)
            var report = try Self.report(db, session, to: max(at, session.openedAt))
            report.countedCash = counted
            let json = String(decoding: try JSONEncoder().encode(report), as: UTF8.self)
            try db.execute(sql: "UPDATE drawerSession SET closedAt = ?, closedBy = ?, closingReport = ? WHERE id = ?",
                           arguments: [report.to, by, json, session.id.rawValue])
            try log.record(ShopActivity.drawerClosed(session.id.rawValue, counted: counted, expected: report.expectedCash, by: log.agent,
                                                     at: Instant(milliseconds: Self.now), currency: settings.currency))
            return try Self.fetchDrawerSession(db, session.id)
        }
    }

    public func drawerSessions(limit: Int, offset: Int) async throws -> [DrawerSession] {
        try await self.read { db in
            try Int64.fetchAll(db, sql: "SELECT id FROM drawerSession ORDER BY id DESC LIMIT ? OFFSET ?", arguments: [limit, offset])
                .map { try Self.fetchDrawerSession(db, DrawerSessionID($0)) }
        }
    }

    public func drawerSession(_ id: DrawerSessionID) async throws -> DrawerSession {
        try await self.read { db in try Self.fetchDrawerSession(db, id) }
    }

    public func drawerReport(_ id: DrawerSessionID, now: Int64) async throws -> DrawerReport {
        try await self.read { db in
            let session = try Self.fetchDrawerSession(db, id)
            return try session.closingReport ?? Self.report(db, session, to: max(now, session.openedAt))
        }
    }

    public func shiftSummaries(_ shifts: [Shift], now: Int64) async throws -> [DrawerReport.StaffLine] {
        try await self.read { db in
            try shifts.map { shift in
                let to = max(shift.endedAt ?? now, shift.startedAt)
                let sales = try Int64.fetchAll(db, sql: "SELECT id FROM document WHERE kind = 'sale' AND soldBy = ? AND recordedAt BETWEEN ? AND ? ORDER BY id",
                                               arguments: [shift.username, shift.startedAt, to]).map { try Self.fetchSale(db, SaleID($0)) }
                let report = DrawerReport.fold(from: shift.startedAt, to: to, openingFloat: .zero, sales: sales, returns: [], cashMovements: [], shifts: [shift])
                return report.staff.first { $0.username == shift.username }
                    ?? DrawerReport.StaffLine(username: shift.username)
            }
        }
    }

    // MARK: - Reading

    static func openSessionID(_ db: Database) throws -> DrawerSessionID? {
        try Int64.fetchOne(db.cachedStatement(sql: "SELECT id FROM drawerSession WHERE closedAt IS NULL")).map(DrawerSessionID.init(rawValue:))
    }

    static func requireOpenSession(_ db: Database) throws -> DrawerSession {
        guard let id = try self.openSessionID(db) else {
            throw InventoryError(.conflict, field: "drawer", "no drawer session is open; open one with a float first")
        }
        return try self.fetchDrawerSession(db, id)
    }

    static func fetchDrawerSession(_ db: Database, _ id: DrawerSessionID) throws -> DrawerSession {
        guard let row = try Row.fetchOne(db.cachedStatement(sql: """
            SELECT openedAt, openedBy, openingFloat, note, closedAt, closedBy, closingReport FROM drawerSession WHERE id = ?
            """), arguments: [id.rawValue]) else {
            throw InventoryError(.notFound, field: "id", "drawer session \(id) does not exist")
        }
        let movements = try Row.fetchAll(db.cachedStatement(sql: "SELECT amount, reason, byUser, at FROM cashMovement WHERE sessionId = ? ORDER BY id"),
                                         arguments: [id.rawValue]).map {
            CashMovement(amount: Money(minorUnits: $0[0]), reason: $0[1], by: $0[2], at: $0[3])
        }
        let report = try (row[6] as String?).map { try JSONDecoder().decode(DrawerReport.self, from: Data($0.utf8)) }
        return DrawerSession(id: id, openedAt: row[0], openedBy: row[1], openingFloat: Money(minorUnits: row[2]), note: row[3], cashMovements: movements,
                             closedAt: row[4], closedBy: row[5], closingReport: report)
    }

    /// The report of `session` from its opening to `to`: the sales and customer returns recorded in that time, its cash
    /// movements, and the staff's clocked shifts that overlap it (``DrawerReport/fold(from:to:openingFloat:sales:returns:cashMovements:shifts:countedCash:)``).
    static func report(_ db: Database, _ session: DrawerSession, to: Int64) throws -> DrawerReport {
        let from = session.openedAt
        let sales = try Int64.fetchAll(db.cachedStatement(sql: "SELECT id FROM document WHERE kind = 'sale' AND recordedAt BETWEEN ? AND ? ORDER BY id"),
                                       arguments: [from, to]).map { try Self.fetchSale(db, SaleID($0)) }
        let returns = try Row.fetchAll(db.cachedStatement(sql: "SELECT id, recordedAt FROM document WHERE kind = 'customerReturn' AND recordedAt BETWEEN ? AND ? ORDER BY id"),
                                       arguments: [from, to]).map { row in
            let id: Int64 = row[0]
            let lines = try Row.fetchAll(db.cachedStatement(sql: "SELECT taxRate, revenue, tax FROM movement WHERE documentId = ? ORDER BY lineNo"), arguments: [id]).map {
                (rate: Percent(hundredths: $0[0]), revenue: Money(minorUnits: -($0[1] as Int64)), tax: Money(minorUnits: -($0[2] as Int64)))
            }
            let refunds = try Row.fetchAll(db.cachedStatement(sql: """
                SELECT p.method, r.amount FROM paymentRefund r JOIN salePayment p ON p.id = r.paymentId WHERE r.returnId = ? ORDER BY p.lineNo
                """), arguments: [id]).map { (method: PaymentMethod(rawValue: $0[0]) ?? .other, amount: Money(minorUnits: $0[1])) }
            return ReturnFact(recordedAt: row[1], lines: lines, refunds: refunds)
        }
        let shifts = try Row.fetchAll(db.cachedStatement(sql: """
            SELECT s.id, s.userId, u.username, s.startedAt, s.endedAt FROM shift s JOIN user u ON u.id = s.userId
            WHERE s.startedAt <= ? AND (s.endedAt IS NULL OR s.endedAt >= ?) ORDER BY s.id
            """), arguments: [to, from]).map(Self.shift)
        return DrawerReport.fold(from: from, to: to, openingFloat: session.openingFloat, sales: sales, returns: returns,
                                 cashMovements: session.cashMovements, shifts: shifts)
    }
}
