import Foundation
import InventoryDomain
import Logging
import PostgresNIO

/// A movement about to be written: a document line before costing.
struct PendingMovement: Sendable {
    var documentID: Int64
    var kind: MovementKind
    var lineNo: Int
    var productID: ProductID
    var effectiveAt: Instant
    var day: Int
    var recordedAt: Instant
    var effect: MovementEffect
    var unitAmount: Money = .zero
    var discount: Money = .zero
    var taxRate: Percent = .zero
    var revenue: Money = .zero
    var tax: Money = .zero
    var lotCode: String?
    var expiryDate: String?
    var sourceMovementID: MovementID?
    /// Whether a manager approved this line going beyond the stock on record (``StockLedger/apply(_:beyondStock:)``).
    var beyondStock = false
    /// The input field to blame when this line is refused (`lines[2].quantity`).
    var field: String?

    var position: LedgerPosition { LedgerPosition(effectiveAt: self.effectiveAt.milliseconds, sequence: self.documentID, lineNo: self.lineNo) }
}

/// The ledger state of a product during one write transaction, read under its row lock.
struct ProductLedgerState: Sendable {
    var id: ProductID
    var name: String
    var tracksStock: Bool
    var allowsNegativeStock: Bool
    var balance: LedgerBalance
    var last: LedgerPosition?
    var dirty = false
}

/// Writes movements and re-costs ledgers inside one PostgreSQL transaction: the same algorithm as the SQLite store's
/// `LedgerWriter` (appending after a product's last movement costs each line from its balance; anything earlier —
/// back-dated, edited, deleted — replays the product's ledger from the earliest affected position), with the costing
/// rules in the domain (``StockLedger``, ``LedgerRefusal``).
///
/// **Per-product serialisation.** Every product a write touches is locked (`SELECT … FOR UPDATE` on its row, which
/// holds its balance) before its state is read, several at once in product-id order (``lock(_:)``), so instances
/// selling the same product queue on that row while sales of other products go on; two writers never wait on each
/// other in a cycle through these locks, and a deadlock through others is retried by
/// ``InventoryPostgresRepository/write(_:)``.
final class PostgresLedgerWriter: @unchecked Sendable {
    // Used by one write's task only (hence unchecked).
    private let connection: PostgresConnection
    private let calendar: ShopCalendar
    private let logger: Logger
    private var states: [ProductID: ProductLedgerState] = [:]
    private var requestFields: [Int64: [Int: String]] = [:]
    /// The document whose lines' movement ids and value changes are kept in ``watchedLines`` as they are written and
    /// re-costed (a sale just booked is answered from them instead of read back).
    var watchedDocument: Int64? {
        didSet { self.watchedLines = [:] }
    }
    /// Line number → movement id and value change, of ``watchedDocument``.
    private(set) var watchedLines: [Int: (id: Int64, valueChange: Money)] = [:]
    private var salesByMonth: [SalesMonth: (quantitySold: Int64, revenue: Int64)] = [:]

    private struct SalesMonth: Hashable {
        var productID: Int64
        var month: Int
    }

    init(_ connection: PostgresConnection, calendar: ShopCalendar, logger: Logger) {
        self.connection = connection
        self.calendar = calendar
        self.logger = logger
    }

    /// Locks the products (in id order) and reads the state of those not read yet.
    func lock(_ ids: [ProductID]) async throws {
        let missing = Set(ids).subtracting(self.states.keys).map(\.rawValue).sorted()
        guard !missing.isEmpty else { return }
        let rows = try await self.connection.prepared("""
            SELECT id, name, tracksStock, allowsNegativeStock, quantity, value, averageCost, lastEffectiveAt, lastSequence, lastLineNo
            FROM product WHERE id = ANY(\(missing)) ORDER BY id FOR UPDATE
            """, logger: self.logger)
        for try await (id, name, tracksStock, allowsNegative, quantity, value, averageCost, lastAt, lastSequence, lastLineNo) in rows.decode(
            (Int64, String, Bool, Bool, Int64, Int64, Int64, Instant?, Int64?, Int?).self)
        {
            var last: LedgerPosition?
            if let lastAt, let lastSequence, let lastLineNo {
                last = LedgerPosition(effectiveAt: lastAt.milliseconds, sequence: lastSequence, lineNo: lastLineNo)
            }
            self.states[ProductID(id)] = ProductLedgerState(
                id: ProductID(id), name: name, tracksStock: tracksStock, allowsNegativeStock: allowsNegative,
                balance: LedgerBalance(quantity: Quantity(thousandths: quantity), value: Money(minorUnits: value), averageCost: UnitCost(scaled: averageCost)),
                last: last)
        }
    }

    /// The product's state, read (and locked) once per transaction.
    func state(_ id: ProductID) async throws -> ProductLedgerState {
        if let state = self.states[id] { return state }
        try await self.lock([id])
        guard let state = self.states[id] else { throw InventoryError(.notFound, field: "productId", "product \(id) does not exist") }
        return state
    }

    /// The product's quantity on record at `effectiveAt`: after every stored movement dated at or before it.
    func quantity(of productID: ProductID, at effectiveAt: Instant) async throws -> Quantity {
        try await self.balance(of: productID, at: effectiveAt).quantity
    }

    /// The product's quantity and average cost on record at `effectiveAt` (nothing, at no cost, before its first movement).
    func balance(of productID: ProductID, at effectiveAt: Instant) async throws -> (quantity: Quantity, averageCost: UnitCost) {
        for try await (quantity, averageCost) in try await self.connection.prepared("""
            SELECT quantityAfter, averageCostAfter FROM movement WHERE productId = \(productID.rawValue) AND effectiveAt <= \(effectiveAt)
            ORDER BY effectiveAt DESC, documentId DESC, lineNo DESC LIMIT 1
            """, logger: self.logger).decode((Int64, Int64).self) {
            return (Quantity(thousandths: quantity), UnitCost(scaled: averageCost))
        }
        return (.zero, UnitCost(scaled: 0))
    }

    /// Writes new movements (of any products) and costs them.
    func write(_ movements: [PendingMovement]) async throws {
        self.register(movements)
        var byProduct: [ProductID: [PendingMovement]] = [:]
        var order: [ProductID] = []
        for movement in movements {
            if byProduct[movement.productID] == nil { order.append(movement.productID) }
            byProduct[movement.productID, default: []].append(movement)
        }
        try await self.lock(order)
        for productID in order {
            let lines = (byProduct[productID] ?? []).sorted { $0.position < $1.position }
            var state = try await self.state(productID)
            guard let first = lines.first else { continue }
            if state.last.map({ first.position > $0 }) ?? true {
                var ledger = StockLedger(balance: state.balance, allowsNegativeStock: state.allowsNegativeStock, tracksStock: state.tracksStock)
                for line in lines {
                    let outcome = try self.apply(line.effect, to: &ledger, state: state, at: line.position, kind: line.kind, beyondStock: line.beyondStock)
                    try await self.insert(line, outcome: outcome)
                    state.last = line.position
                }
                state.balance = ledger.balance
                state.dirty = true
                self.states[productID] = state
            } else {
                for line in lines {
                    try await self.insert(line, outcome: MovementOutcome(valueChange: .zero, costAdjustment: .zero, balance: .empty))
                }
                try await self.recost(productID, from: first.position)
            }
        }
    }

    /// Inserts movements without costing them; the caller replays each product afterwards.
    func insertUncosted(_ movements: [PendingMovement]) async throws {
        self.register(movements)
        try await self.lock(movements.map(\.productID))
        for movement in movements {
            _ = try await self.state(movement.productID)
            try await self.insert(movement, outcome: MovementOutcome(valueChange: .zero, costAdjustment: .zero, balance: .empty))
        }
    }

    private func register(_ movements: [PendingMovement]) {
        self.requestFields = [:]
        for movement in movements {
            if let field = movement.field { self.requestFields[movement.documentID, default: [:]][movement.lineNo] = field }
        }
    }

    /// Replays a product's ledger from `position` onwards, updating every movement whose costing changed. A stored
    /// line the replay leaves short is refused naming that document; `field` is the setting to blame for it.
    func recost(_ productID: ProductID, from position: LedgerPosition, blame field: String? = nil) async throws {
        var state = try await self.state(productID)
        let at = Instant(milliseconds: position.effectiveAt)
        var startBalance = LedgerBalance.empty
        for try await (quantity, value, averageCost) in try await self.connection.prepared("""
            SELECT quantityAfter, valueAfter, averageCostAfter FROM movement
            WHERE productId = \(productID.rawValue) AND (effectiveAt, documentId, lineNo) < (\(at), \(position.sequence), \(position.lineNo))
            ORDER BY effectiveAt DESC, documentId DESC, lineNo DESC LIMIT 1
            """, logger: self.logger).decode((Int64, Int64, Int64).self) {
            startBalance = LedgerBalance(quantity: Quantity(thousandths: quantity), value: Money(minorUnits: value), averageCost: UnitCost(scaled: averageCost))
        }
        var ledger = StockLedger(balance: startBalance, allowsNegativeStock: state.allowsNegativeStock, tracksStock: state.tracksStock)
        typealias Stored = (Int64, String, Int64, Int64, Int64?, Int64, Int64, Int64, Int64, Int64, Instant, Int64, Int, String, Bool)
        var rows: [Stored] = []
        for try await row in try await self.connection.prepared("""
            SELECT id, effect, quantity, unitAmount, sourceMovementId, valueChange, costAdjustment,
                   quantityAfter, valueAfter, averageCostAfter, effectiveAt, documentId, lineNo, kind, beyondStock
            FROM movement
            WHERE productId = \(productID.rawValue) AND (effectiveAt, documentId, lineNo) >= (\(at), \(position.sequence), \(position.lineNo))
            ORDER BY effectiveAt, documentId, lineNo
            """, logger: self.logger).decode(Stored.self) { rows.append(row) }
        var booked: [Int64: (cost: Money, quantity: Quantity)] = [:]
        var last: LedgerPosition?
        var changed = ChangedMovements()
        for row in rows {
            let id = row.0
            let quantity = Quantity(thousandths: row.2)
            var source: (cost: Money, quantity: Quantity)?
            if MovementEffect.needsSource(storedName: row.1) {
                let sourceID = row.4 ?? 0
                source = try await booked[sourceID].asyncOr { try await self.bookedCost(of: MovementID(sourceID)) }
            }
            let effect = MovementEffect(storedName: row.1, quantity: quantity, unitAmount: Money(minorUnits: row.3), source: source)
            let linePosition = LedgerPosition(effectiveAt: row.10.milliseconds, sequence: row.11, lineNo: row.12)
            let outcome = try self.apply(effect, to: &ledger, state: state, at: linePosition, kind: MovementKind(rawValue: row.13) ?? .adjustment,
                                         beyondStock: row.14, blame: field)
            if case .issue(let issued) = effect { booked[id] = (-outcome.valueChange, issued) }
            if let watched = self.watchedDocument, watched == row.11 { self.watchedLines[row.12] = (id, outcome.valueChange) }
            let stored = (row.5, row.6, row.7, row.8, row.9)
            let fresh = (
                outcome.valueChange.minorUnits, outcome.costAdjustment.minorUnits, outcome.balance.quantity.thousandths,
                outcome.balance.value.minorUnits, outcome.balance.averageCost.scaled
            )
            if stored != fresh { changed.append(id, fresh) }
            last = linePosition
        }
        // Written before any other product is replayed: its returns may read these movements' costs.
        try await changed.write(on: self.connection, logger: self.logger)
        if last == nil {
            // Nothing at or after the position: the ledger ends before it.
            for try await (lastAt, sequence, lineNo) in try await self.connection.prepared("""
                SELECT effectiveAt, documentId, lineNo FROM movement WHERE productId = \(productID.rawValue)
                ORDER BY effectiveAt DESC, documentId DESC, lineNo DESC LIMIT 1
                """, logger: self.logger).decode((Instant, Int64, Int).self) {
                last = LedgerPosition(effectiveAt: lastAt.milliseconds, sequence: sequence, lineNo: lineNo)
            }
        }
        state.balance = ledger.balance
        state.last = last
        state.dirty = true
        self.states[productID] = state
    }

    /// The cost a sale line was booked at, for returns.
    func bookedCost(of movementID: MovementID) async throws -> (cost: Money, quantity: Quantity) {
        for try await (valueChange, quantity) in try await self.connection.prepared(
            "SELECT valueChange, quantity FROM movement WHERE id = \(movementID.rawValue)", logger: self.logger
        ).decode((Int64, Int64).self) {
            return (Money(minorUnits: -valueChange), Quantity(thousandths: quantity).magnitude)
        }
        throw InventoryError(.notFound, field: "saleLineId", "sale line \(movementID) does not exist")
    }

    /// Writes every changed product balance back to its row, and the sales counted since the last flush to the monthly
    /// sales summary: one statement for each, whatever the number of products (a round trip per product was a third of
    /// a batch's statements). Every writer is flushed before its transaction commits.
    func flush() async throws {
        var balances = ChangedBalances()
        for state in self.states.values where state.dirty { balances.append(state) }
        try await balances.write(on: self.connection, logger: self.logger)
        for key in Array(self.states.keys) { self.states[key]?.dirty = false }
        var sales = CountedSales()
        for (key, sum) in self.salesByMonth {
            sales.append(month: key.month, productID: key.productID, quantitySold: sum.quantitySold, revenue: sum.revenue)
        }
        try await sales.write(on: self.connection, logger: self.logger)
        self.salesByMonth = [:]
    }

    private func countSales(productID: Int64, day: Int, quantitySold: Int64, revenue: Int64) {
        let key = SalesMonth(productID: productID, month: day / 100)
        let sum = self.salesByMonth[key] ?? (0, 0)
        self.salesByMonth[key] = (sum.quantitySold + quantitySold, sum.revenue + revenue)
    }

    /// Applies one line; a refusal is reworded by ``LedgerRefusal`` (the request's field, or the stored line it would
    /// leave short).
    private func apply(_ effect: MovementEffect, to ledger: inout StockLedger, state: ProductLedgerState, at position: LedgerPosition,
                       kind: MovementKind, beyondStock: Bool = false, blame: String? = nil) throws -> MovementOutcome {
        let before = ledger.balance.quantity
        do {
            return try ledger.apply(effect, beyondStock: beyondStock)
        } catch let error as InventoryError where error.code == .insufficientStock {
            throw LedgerRefusal.reword(
                error, effect: effect, quantityBefore: before, at: position, kind: kind, productID: state.id, productName: state.name,
                requestField: self.requestFields[position.sequence]?[position.lineNo], blame: blame, calendar: self.calendar)
        }
    }

    /// Deletes a document's movements, taking its sales out of the monthly sales summary.
    func deleteMovements(documentID: Int64) async throws {
        var rows: [(Int64, Int, Int64, Int64)] = []
        for try await row in try await self.connection.prepared("""
            SELECT productId, day, quantity, revenue FROM movement WHERE documentId = \(documentID) AND kind IN ('sale', 'customerReturn')
            """, logger: self.logger).decode((Int64, Int, Int64, Int64).self) { rows.append(row) }
        for (productID, day, quantity, revenue) in rows {
            self.countSales(productID: productID, day: day, quantitySold: quantity, revenue: -revenue)
        }
        try await self.connection.run("DELETE FROM movement WHERE documentId = \(documentID)", logger: self.logger)
    }

    private func insert(_ line: PendingMovement, outcome: MovementOutcome) async throws {
        if line.kind == .sale || line.kind == .customerReturn {
            self.countSales(productID: line.productID.rawValue, day: line.day,
                            quantitySold: -line.effect.quantityChange.thousandths, revenue: line.revenue.minorUnits)
        }
        let id = try await self.connection.prepared("""
            INSERT INTO movement (documentId, kind, lineNo, productId, effectiveAt, day, recordedAt, effect, quantity, unitAmount,
                discount, taxRate, revenue, tax, lotCode, expiryDate, sourceMovementId, valueChange, costAdjustment,
                quantityAfter, valueAfter, averageCostAfter, beyondStock)
            VALUES (\(line.documentID), \(line.kind.rawValue), \(line.lineNo), \(line.productID.rawValue), \(line.effectiveAt), \(line.day),
                \(line.recordedAt), \(MovementKind.storedName(of: line.effect)), \(line.effect.quantityChange.thousandths), \(line.unitAmount.minorUnits),
                \(line.discount.minorUnits), \(line.taxRate.hundredths), \(line.revenue.minorUnits), \(line.tax.minorUnits), \(line.lotCode),
                \(line.expiryDate), \(line.sourceMovementID?.rawValue), \(outcome.valueChange.minorUnits), \(outcome.costAdjustment.minorUnits),
                \(outcome.balance.quantity.thousandths), \(outcome.balance.value.minorUnits), \(outcome.balance.averageCost.scaled), \(line.beyondStock))
            RETURNING id
            """, logger: self.logger).collect(Int64.self).first
        if line.documentID == self.watchedDocument, let id { self.watchedLines[line.lineNo] = (id, outcome.valueChange) }
    }
}

extension Optional {
    /// The value, or what `fallback` computes.
    func asyncOr(_ fallback: () async throws -> Wrapped) async rethrows -> Wrapped {
        if let value = self { return value }
        return try await fallback()
    }
}

/// The movements a replay re-costed, written back in one statement per 5,000 (a round trip each was most of a long
/// replay's time: 1.6 s for 5,000 later movements).
struct ChangedMovements {
    private var ids: [Int64] = [], valueChanges: [Int64] = [], costAdjustments: [Int64] = []
    private var quantities: [Int64] = [], values: [Int64] = [], averageCosts: [Int64] = []

    mutating func append(_ id: Int64, _ fresh: (Int64, Int64, Int64, Int64, Int64)) {
        self.ids.append(id)
        self.valueChanges.append(fresh.0)
        self.costAdjustments.append(fresh.1)
        self.quantities.append(fresh.2)
        self.values.append(fresh.3)
        self.averageCosts.append(fresh.4)
    }

    func write(on connection: PostgresConnection, logger: Logger) async throws {
        for start in stride(from: 0, to: self.ids.count, by: 5_000) {
            let slice = start..<min(self.ids.count, start + 5_000)
            try await connection.run("""
                UPDATE movement m SET valueChange = u.valueChange, costAdjustment = u.costAdjustment, quantityAfter = u.quantityAfter,
                    valueAfter = u.valueAfter, averageCostAfter = u.averageCostAfter
                FROM unnest(\(Array(self.ids[slice]))::bigint[], \(Array(self.valueChanges[slice]))::bigint[], \(Array(self.costAdjustments[slice]))::bigint[],
                            \(Array(self.quantities[slice]))::bigint[], \(Array(self.values[slice]))::bigint[], \(Array(self.averageCosts[slice]))::bigint[])
                     AS u(id, valueChange, costAdjustment, quantityAfter, valueAfter, averageCostAfter)
                WHERE m.id = u.id
                """, logger: logger)
        }
    }
}

/// Product balances changed by a write, written back in one `UPDATE … FROM unnest(…)`.
struct ChangedBalances {
    private var ids: [Int64] = [], quantities: [Int64] = [], values: [Int64] = [], averageCosts: [Int64] = []
    // A product whose ledger is now empty (its last movement deleted) has no last position: `hasLast` false, and
    // placeholders in the three arrays beside it (arrays of PostgreSQL cannot be bound with nulls here).
    private var hasLast: [Bool] = [], lastAts: [Instant] = [], lastSequences: [Int64] = [], lastLineNos: [Int64] = []

    mutating func append(_ state: ProductLedgerState) {
        self.ids.append(state.id.rawValue)
        self.quantities.append(state.balance.quantity.thousandths)
        self.values.append(state.balance.value.minorUnits)
        self.averageCosts.append(state.balance.averageCost.scaled)
        self.hasLast.append(state.last != nil)
        self.lastAts.append(Instant(milliseconds: state.last?.effectiveAt ?? 0))
        self.lastSequences.append(state.last?.sequence ?? 0)
        self.lastLineNos.append(Int64(state.last?.lineNo ?? 0))
    }

    func write(on connection: PostgresConnection, logger: Logger) async throws {
        guard !self.ids.isEmpty else { return }
        try await connection.run("""
            UPDATE product p SET quantity = u.quantity, value = u.value, averageCost = u.averageCost,
                lastEffectiveAt = CASE WHEN u.hasLast THEN u.lastAt END, lastSequence = CASE WHEN u.hasLast THEN u.lastSequence END,
                lastLineNo = CASE WHEN u.hasLast THEN u.lastLineNo END
            FROM unnest(\(self.ids)::bigint[], \(self.quantities)::bigint[], \(self.values)::bigint[], \(self.averageCosts)::bigint[],
                        \(self.hasLast)::boolean[], \(self.lastAts)::timestamptz[], \(self.lastSequences)::bigint[], \(self.lastLineNos)::bigint[])
                 AS u(id, quantity, value, averageCost, hasLast, lastAt, lastSequence, lastLineNo)
            WHERE p.id = u.id
            """, logger: logger)
    }
}

/// Sales counted by product and month (`yyyymm`), added to the monthly sales summary (one row per product and year,
/// a quantity and a revenue column per month) in one `INSERT … SELECT … ON CONFLICT DO UPDATE`.
struct CountedSales {
    private var years: [Int64] = [], months: [Int64] = [], productIDs: [Int64] = [], quantities: [Int64] = [], revenues: [Int64] = []

    mutating func append(month: Int, productID: Int64, quantitySold: Int64, revenue: Int64) {
        guard (1...12).contains(month % 100) else { return }
        self.years.append(Int64(month / 100))
        self.months.append(Int64(month % 100))
        self.productIDs.append(productID)
        self.quantities.append(quantitySold)
        self.revenues.append(revenue)
    }

    /// The statement, the same text every time.
    private static let upsert: String = {
        let columns = (1...12).map { "q\($0), r\($0)" }.joined(separator: ", ")
        let sums = (1...12).map {
            "COALESCE(SUM(s.quantity) FILTER (WHERE s.month = \($0)), 0)::bigint, COALESCE(SUM(s.revenue) FILTER (WHERE s.month = \($0)), 0)::bigint"
        }.joined(separator: ", ")
        let additions = (1...12).map { "q\($0) = productSalesYear.q\($0) + excluded.q\($0), r\($0) = productSalesYear.r\($0) + excluded.r\($0)" }
            .joined(separator: ", ")
        return """
            INSERT INTO productSalesYear (year, productId, \(columns))
            SELECT s.year, s.productId, \(sums)
            FROM unnest($1::bigint[], $2::bigint[], $3::bigint[], $4::bigint[], $5::bigint[]) AS s(year, month, productId, quantity, revenue)
            GROUP BY s.year, s.productId ORDER BY s.productId, s.year
            ON CONFLICT (year, productId) DO UPDATE SET \(additions)
            """
    }()

    func write(on connection: PostgresConnection, logger: Logger) async throws {
        guard !self.years.isEmpty else { return }
        var statement = PreparedSQL(shape: Self.upsert)
        statement.bind(self.years)
        statement.bind(self.months)
        statement.bind(self.productIDs)
        statement.bind(self.quantities)
        statement.bind(self.revenues)
        try await connection.run(statement, logger: logger)
    }
}
