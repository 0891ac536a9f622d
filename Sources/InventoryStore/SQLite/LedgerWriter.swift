import Foundation
import GRDB
import InventoryDomain

/// A movement about to be written: a document line before costing.
struct PendingMovement {
    var documentID: Int64
    var kind: MovementKind
    var lineNo: Int
    var productID: ProductID
    var effectiveAt: Int64
    var day: Int
    var recordedAt: Int64
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

    var position: LedgerPosition { LedgerPosition(effectiveAt: self.effectiveAt, sequence: self.documentID, lineNo: self.lineNo) }
}

/// The cached ledger state of a product during one write transaction.
struct ProductLedgerState {
    var id: ProductID
    var name: String
    var tracksStock: Bool
    var allowsNegativeStock: Bool
    var balance: LedgerBalance
    var last: LedgerPosition?
    var dirty = false
}

/// Writes movements and re-costs ledgers inside one database transaction.
///
/// Appending after a product's last movement costs each line directly from the cached balance; anything
/// earlier (back-dated, edited, deleted) replays the product's ledger from the earliest affected position, so
/// the result always equals entering every document in ledger order.
final class LedgerWriter {
    private let db: Database
    private let calendar: ShopCalendar
    private var states: [ProductID: ProductLedgerState] = [:]
    /// Products' facts as read by ``productFacts(_:field:)``.
    private var facts: [ProductID: ProductFacts] = [:]
    /// The last receipt number this writer gave (``nextReceiptNumber()``).
    private var lastReceiptNumber: Int64?
    /// The input field of each line of the document being written (document id → line number → field): a refusal
    /// names the field when the line going short is one of these, and the stored document otherwise.
    private var requestFields: [Int64: [Int: String]] = [:]
    /// Net sales by product and month (`yyyymm`) written or deleted in this transaction and not yet added to the
    /// monthly sales summary: ``flush()`` adds each once, rather than one summary write per sale line.
    private var salesByMonth: [SalesMonth: (quantitySold: Int64, revenue: Int64)] = [:]

    /// The document whose lines' movement ids and value changes are kept in ``watchedLines`` as they are written and
    /// re-costed (a sale just booked is answered from them instead of read back).
    var watchedDocument: Int64? {
        didSet { self.watchedLines = [:] }
    }
    /// Line number → movement id and value change, of ``watchedDocument``.
    private(set) var watchedLines: [Int: (id: Int64, valueChange: Money)] = [:]

    private struct SalesMonth: Hashable {
        var productID: Int64
        var month: Int
    }

    init(_ db: Database, calendar: ShopCalendar) {
        self.db = db
        self.calendar = calendar
    }

    /// The product's state, loaded once per transaction.
    func state(_ id: ProductID) throws -> ProductLedgerState {
        if let state = self.states[id] { return state }
        let statement = try self.db.cachedStatement(sql: Self.stateSQL)
        guard let state = try statement.firstRow(id: id.rawValue, { Self.state(id, $0, from: 1) }) else {
            throw InventorySQLiteRepository.productNotFound(id, field: "productId")
        }
        self.states[id] = state
        return state
    }

    /// The facts a document needs about product `id` (``InventorySQLiteRepository/productFacts(_:_:field:)``), read
    /// once per writer, in the same statement as the product's ledger state (which the document's lines need next).
    /// A product that does not exist is refused naming `field`.
    func productFacts(_ id: ProductID, field: @autoclosure () -> String) throws -> ProductFacts {
        if let facts = self.facts[id] { return facts }
        let statement = try self.db.cachedStatement(sql: Self.factsAndStateSQL)
        guard let (stored, state) = try statement.firstRow(id: id.rawValue, { row in
            (InventorySQLiteRepository.storedProductFacts(id, row, from: 1), Self.state(id, row, from: 1 + InventorySQLiteRepository.productFactsColumnCount))
        }) else {
            throw InventorySQLiteRepository.productNotFound(id, field: field())
        }
        let facts = try stored.complete(self.db)
        self.facts[id] = facts
        if self.states[id] == nil { self.states[id] = state }
        return facts
    }

    /// The next receipt number: one more than the highest given, read once per writer and counted on from there (a
    /// sale takes its number in its own transaction, so a refused sale takes none, and only sales booked through a
    /// writer take numbers).
    func nextReceiptNumber() throws -> Int64 {
        let last = try self.lastReceiptNumber
            ?? Int64.fetchOne(self.db.cachedStatement(sql: "SELECT MAX(receiptNumber) FROM document WHERE receiptNumber IS NOT NULL")) ?? 0
        self.lastReceiptNumber = last + 1
        return last + 1
    }

    static let stateColumns = "name, tracksStock, allowsNegativeStock, quantity, value, averageCost, lastEffectiveAt, lastSequence, lastLineNo"
    static let stateSQL = "SELECT id, \(stateColumns) FROM product WHERE id = ?"
    static let factsAndStateSQL = "SELECT p.id, \(InventorySQLiteRepository.productFactsColumns), \(stateColumns) FROM product p WHERE p.id = ?"

    /// A product's ledger state from a row holding ``stateColumns`` from column `first` on.
    static func state(_ id: ProductID, _ row: StatementColumns, from first: Int) -> ProductLedgerState {
        var last: LedgerPosition?
        if let effectiveAt: Int64 = row[first + 6], let sequence: Int64 = row[first + 7], let lineNo: Int = row[first + 8] {
            last = LedgerPosition(effectiveAt: effectiveAt, sequence: sequence, lineNo: lineNo)
        }
        return ProductLedgerState(
            id: id, name: row[first], tracksStock: row[first + 1], allowsNegativeStock: row[first + 2],
            balance: LedgerBalance(quantity: Quantity(thousandths: row[first + 3]), value: Money(minorUnits: row[first + 4]),
                                   averageCost: UnitCost(scaled: row[first + 5])),
            last: last)
    }

    /// The product's quantity on record at `effectiveAt`: after every stored movement dated at or before it.
    func quantity(of productID: ProductID, at effectiveAt: Int64) throws -> Quantity {
        let statement = try self.db.cachedStatement(sql: """
            SELECT quantityAfter FROM movement WHERE productId = ? AND effectiveAt <= ?
            ORDER BY effectiveAt DESC, documentId DESC, lineNo DESC LIMIT 1
            """)
        return Quantity(thousandths: try Int64.fetchOne(statement, arguments: [productID.rawValue, effectiveAt]) ?? 0)
    }

    /// The product's quantity and average cost on record at `effectiveAt`: after every stored movement dated at or
    /// before it (nothing, at no cost, before its first movement).
    func balance(of productID: ProductID, at effectiveAt: Int64) throws -> (quantity: Quantity, averageCost: UnitCost) {
        let statement = try self.db.cachedStatement(sql: """
            SELECT quantityAfter, averageCostAfter FROM movement WHERE productId = ? AND effectiveAt <= ?
            ORDER BY effectiveAt DESC, documentId DESC, lineNo DESC LIMIT 1
            """)
        guard let row = try Row.fetchOne(statement, arguments: [productID.rawValue, effectiveAt]) else { return (.zero, UnitCost(scaled: 0)) }
        return (Quantity(thousandths: row[0]), UnitCost(scaled: row[1]))
    }

    /// Writes new movements (of any products) and costs them.
    func write(_ movements: [PendingMovement]) throws {
        self.register(movements)
        var byProduct: [ProductID: [PendingMovement]] = [:]
        var order: [ProductID] = []
        for movement in movements {
            if byProduct[movement.productID] == nil { order.append(movement.productID) }
            byProduct[movement.productID, default: []].append(movement)
        }
        for productID in order {
            let lines = (byProduct[productID] ?? []).sorted { $0.position < $1.position }
            var state = try self.state(productID)
            guard let first = lines.first else { continue }
            if state.last.map({ first.position > $0 }) ?? true {
                var ledger = StockLedger(balance: state.balance, allowsNegativeStock: state.allowsNegativeStock, tracksStock: state.tracksStock)
                for line in lines {
                    let outcome = try self.apply(line.effect, to: &ledger, state: state, at: line.position, kind: line.kind,
                                                 beyondStock: line.beyondStock)
                    try self.insert(line, outcome: outcome)
                    state.last = line.position
                }
                state.balance = ledger.balance
                state.dirty = true
                self.states[productID] = state
            } else {
                for line in lines {
                    try self.insert(line, outcome: MovementOutcome(valueChange: .zero, costAdjustment: .zero, balance: .empty))
                }
                try self.recost(productID, from: first.position)
            }
        }
    }

    /// Inserts movements without costing them; the caller replays each product afterwards.
    func insertUncosted(_ movements: [PendingMovement]) throws {
        self.register(movements)
        for movement in movements {
            _ = try self.state(movement.productID)
            try self.insert(movement, outcome: MovementOutcome(valueChange: .zero, costAdjustment: .zero, balance: .empty))
        }
    }

    /// Remembers the input fields of the request's lines (and forgets an earlier document's).
    private func register(_ movements: [PendingMovement]) {
        self.requestFields = [:]
        for movement in movements {
            if let field = movement.field { self.requestFields[movement.documentID, default: [:]][movement.lineNo] = field }
        }
    }

    /// Replays a product's ledger from `position` onwards, updating every movement whose costing changed.
    /// A stored line the replay leaves short is refused naming that document; `field` is the setting to blame for it.
    func recost(_ productID: ProductID, from position: LedgerPosition, blame field: String? = nil) throws {
        var state = try self.state(productID)
        let before = try Row.fetchOne(self.db.cachedStatement(sql: """
            SELECT quantityAfter, valueAfter, averageCostAfter FROM movement
            WHERE productId = ? AND (effectiveAt, documentId, lineNo) < (?, ?, ?)
            ORDER BY effectiveAt DESC, documentId DESC, lineNo DESC LIMIT 1
            """), arguments: [productID.rawValue, position.effectiveAt, position.sequence, position.lineNo])
        let startBalance = before.map {
            LedgerBalance(quantity: Quantity(thousandths: $0[0]), value: Money(minorUnits: $0[1]), averageCost: UnitCost(scaled: $0[2]))
        } ?? .empty
        var ledger = StockLedger(balance: startBalance, allowsNegativeStock: state.allowsNegativeStock, tracksStock: state.tracksStock)
        let rows = try Row.fetchAll(self.db.cachedStatement(sql: """
            SELECT id, effect, quantity, unitAmount, sourceMovementId, valueChange, costAdjustment,
                   quantityAfter, valueAfter, averageCostAfter, effectiveAt, documentId, lineNo, kind, beyondStock
            FROM movement
            WHERE productId = ? AND (effectiveAt, documentId, lineNo) >= (?, ?, ?)
            ORDER BY effectiveAt, documentId, lineNo
            """), arguments: [productID.rawValue, position.effectiveAt, position.sequence, position.lineNo])
        var booked: [Int64: (cost: Money, quantity: Quantity)] = [:]
        let update = try self.db.cachedStatement(sql: """
            UPDATE movement SET valueChange = ?, costAdjustment = ?, quantityAfter = ?, valueAfter = ?, averageCostAfter = ?
            WHERE id = ?
            """)
        var last: LedgerPosition?
        for row in rows {
            let id: Int64 = row[0]
            let quantity = Quantity(thousandths: row[2])
            let name: String = row[1]
            var source: (cost: Money, quantity: Quantity)?
            if MovementEffect.needsSource(storedName: name) {
                let sourceID: Int64 = row[4]
                source = try booked[sourceID] ?? self.bookedCost(of: MovementID(sourceID))
            }
            let effect = MovementEffect(storedName: name, quantity: quantity, unitAmount: Money(minorUnits: row[3]), source: source)
            let effectiveAt: Int64 = row[10]
            let outcome = try self.apply(effect, to: &ledger, state: state, at: LedgerPosition(effectiveAt: effectiveAt, sequence: row[11], lineNo: row[12]),
                                         kind: MovementKind(rawValue: row[13]) ?? .adjustment, beyondStock: row[14], blame: field)
            if case .issue(let issued) = effect { booked[id] = (-outcome.valueChange, issued) }
            if let watched = self.watchedDocument, watched == row[11] as Int64 { self.watchedLines[row[12]] = (id, outcome.valueChange) }
            let stored = (row[5] as Int64, row[6] as Int64, row[7] as Int64, row[8] as Int64, row[9] as Int64)
            let fresh = (
                outcome.valueChange.minorUnits, outcome.costAdjustment.minorUnits, outcome.balance.quantity.thousandths,
                outcome.balance.value.minorUnits, outcome.balance.averageCost.scaled
            )
            if stored != fresh {
                try update.execute(arguments: [fresh.0, fresh.1, fresh.2, fresh.3, fresh.4, id])
            }
            last = LedgerPosition(effectiveAt: effectiveAt, sequence: row[11], lineNo: row[12])
        }
        if last == nil {
            // Nothing at or after the position: the ledger ends before it.
            let previous = try Row.fetchOne(self.db.cachedStatement(sql: """
                SELECT effectiveAt, documentId, lineNo FROM movement WHERE productId = ?
                ORDER BY effectiveAt DESC, documentId DESC, lineNo DESC LIMIT 1
                """), arguments: [productID.rawValue])
            last = previous.map { LedgerPosition(effectiveAt: $0[0], sequence: $0[1], lineNo: $0[2]) }
        }
        state.balance = ledger.balance
        state.last = last
        state.dirty = true
        self.states[productID] = state
    }

    /// The cost a sale line was booked at, for returns.
    func bookedCost(of movementID: MovementID) throws -> (cost: Money, quantity: Quantity) {
        guard let row = try Row.fetchOne(self.db.cachedStatement(sql: "SELECT valueChange, quantity FROM movement WHERE id = ?"),
                                         arguments: [movementID.rawValue]) else {
            throw InventoryError(.notFound, field: "saleLineId", "sale line \(movementID) does not exist")
        }
        return (Money(minorUnits: -(row[0] as Int64)), Quantity(thousandths: row[1]).magnitude)
    }

    /// Writes every changed product balance back to the product table, and the sales counted since the last flush to
    /// the monthly sales summary. Every writer is flushed before its transaction commits.
    func flush() throws {
        let statement = try self.db.cachedStatement(sql: """
            UPDATE product SET quantity = ?, value = ?, averageCost = ?, lastEffectiveAt = ?, lastSequence = ?, lastLineNo = ?
            WHERE id = ?
            """)
        for state in self.states.values where state.dirty {
            try statement.execute(arguments: [
                state.balance.quantity.thousandths, state.balance.value.minorUnits, state.balance.averageCost.scaled,
                state.last?.effectiveAt, state.last?.sequence, state.last?.lineNo, state.id.rawValue,
            ])
        }
        for key in Array(self.states.keys) { self.states[key]?.dirty = false }
        for (key, sales) in self.salesByMonth {
            try SalesSummary.add(self.db, productID: key.productID, day: key.month * 100 + 1, quantitySold: sales.quantitySold, revenue: sales.revenue)
        }
        self.salesByMonth = [:]
    }

    /// Counts sold quantity (thousandths; negative for returns) and revenue towards the month of `day` (`yyyymmdd`),
    /// for ``flush()`` to add to the summary.
    private func countSales(productID: Int64, day: Int, quantitySold: Int64, revenue: Int64) {
        let key = SalesMonth(productID: productID, month: day / 100)
        let sum = self.salesByMonth[key] ?? (0, 0)
        self.salesByMonth[key] = (sum.quantitySold + quantitySold, sum.revenue + revenue)
    }

    /// Applies one line; a line that would go short is refused naming the request's field when the line is the
    /// request's own, and otherwise the stored document, line, day and shortfall (with `blame` as the field, if any).
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
    func deleteMovements(documentID: Int64) throws {
        let rows = try Row.fetchAll(self.db.cachedStatement(sql: """
            SELECT productId, day, quantity, revenue FROM movement WHERE documentId = ? AND kind IN ('sale', 'customerReturn')
            """), arguments: [documentID])
        for row in rows {
            self.countSales(productID: row[0], day: row[1], quantitySold: row[2] as Int64, revenue: -(row[3] as Int64))
        }
        try self.db.cachedStatement(sql: "DELETE FROM movement WHERE documentId = ?").execute(arguments: [documentID])
    }

    private func insert(_ line: PendingMovement, outcome: MovementOutcome) throws {
        if line.kind == .sale || line.kind == .customerReturn {
            self.countSales(productID: line.productID.rawValue, day: line.day,
                            quantitySold: -line.effect.quantityChange.thousandths, revenue: line.revenue.minorUnits)
        }
        let effectName = MovementKind.storedName(of: line.effect)
        let statement = try self.db.cachedStatement(sql: """
            INSERT INTO movement (documentId, kind, lineNo, productId, effectiveAt, day, recordedAt, effect, quantity, unitAmount,
                discount, taxRate, revenue, tax, lotCode, expiryDate, sourceMovementId, valueChange, costAdjustment,
                quantityAfter, valueAfter, averageCostAfter, beyondStock)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        try statement.execute(arguments: [
            line.documentID, line.kind.rawValue, line.lineNo, line.productID.rawValue, line.effectiveAt, line.day, line.recordedAt,
            effectName, line.effect.quantityChange.thousandths, line.unitAmount.minorUnits, line.discount.minorUnits,
            line.taxRate.hundredths, line.revenue.minorUnits, line.tax.minorUnits, line.lotCode, line.expiryDate,
            line.sourceMovementID?.rawValue, outcome.valueChange.minorUnits, outcome.costAdjustment.minorUnits,
            outcome.balance.quantity.thousandths, outcome.balance.value.minorUnits, outcome.balance.averageCost.scaled, line.beyondStock,
        ])
        if line.documentID == self.watchedDocument { self.watchedLines[line.lineNo] = (self.db.lastInsertedRowID, outcome.valueChange) }
    }
}
