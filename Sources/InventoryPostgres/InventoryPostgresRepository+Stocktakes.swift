import Foundation
import InventoryDomain
import PostgresNIO

// Count sheets and expired lots on PostgreSQL (``StocktakeRepository``), as the SQLite store's `+Stocktakes.swift`; the
// rules (scope, entries, variance, the count adjustment, the lot write-off) are the domain's.

extension InventoryPostgresRepository: StocktakeRepository {
    public func openStocktake(scope: StocktakeScope, note: String) async throws -> Stocktake {
        let agent = Agent.current.username
        let note = note.trimmingCharacters(in: .whitespacesAndNewlines)
        try TextLimit.note.check(note, field: "note")
        return try await self.write { connection, _, _ in
            if let category = scope.categoryID {
                try await self.requireRow(connection, table: "category", id: category.rawValue, field: "categoryId", label: "category")
            }
            var scope = scope
            if let shelf = scope.shelf {
                // The shelf as its products spell it (as the list of shelves shows it), whatever case was typed.
                guard let spelled = try await connection.query(
                    "SELECT MIN(shelf) FROM product WHERE upper(shelf) = upper(\(shelf)) AND NOT isArchived", logger: self.logger
                ).collect(String?.self).first ?? nil else {
                    throw InventoryError(.notFound, field: "shelf", "no product (not archived) is on the shelf \(shelf)")
                }
                scope = .shelf(spelled)
            }
            let id = try await connection.query("""
                INSERT INTO stocktake (scope, categoryId, shelf, status, note, createdAt, createdBy)
                VALUES (\(scope.kind), \(scope.categoryID?.rawValue), \(scope.shelf), 'open', \(note), \(Self.now), \(agent)) RETURNING id
                """, logger: self.logger).collect(Int64.self)[0]
            return try await self.fetchStocktake(connection, StocktakeID(id))
        }
    }

    public func stocktakes(limit: Int, offset: Int) async throws -> [StocktakeSummary] {
        try await self.read { connection in
            var sheets: [StocktakeSummary] = []
            for id in try await connection.query("SELECT id FROM stocktake ORDER BY id DESC LIMIT \(limit) OFFSET \(offset)", logger: self.logger)
                .collect(Int64.self) { sheets.append(StocktakeSummary(try await self.fetchStocktake(connection, StocktakeID(id)))) }
            return sheets
        }
    }

    public func stocktake(_ id: StocktakeID) async throws -> Stocktake {
        try await self.read { connection in try await self.fetchStocktake(connection, id) }
    }

    /// Counts a product on an open sheet: the sheet's row is locked, so two counts of one sheet at once (a scan adds
    /// one to the count before it) both count.
    public func countStocktake(_ id: StocktakeID, productID: ProductID, entry: StocktakeEntry) async throws -> Stocktake {
        let agent = Agent.current.username
        return try await self.write { connection, settings, _ in
            try await self.lockStocktake(connection, id)
            let sheet = try await self.fetchStocktake(connection, id)
            try sheet.requireOpen()
            guard let line = sheet.lines.first(where: { $0.productID == productID }) else {
                try await self.requireRow(connection, table: "product", id: productID.rawValue, field: "productId", label: "product")
                throw InventoryError(.invalidValue, field: "productId",
                                     "product \(productID) is not in this stocktake's scope (archived, not kept in stock, or in another category or on another shelf)")
            }
            let counted = try entry.counted(after: line.counted)
            let now = Self.now
            let held = try await PostgresLedgerWriter(connection, calendar: settings.calendar, logger: self.logger).balance(of: productID, at: now)
            try await connection.execute("""
                INSERT INTO stocktakeLine (stocktakeId, productId, counted, countedAt, stockAtCount, averageCostAtCount, countedBy)
                VALUES (\(id.rawValue), \(productID.rawValue), \(counted.thousandths), \(now), \(held.quantity.thousandths), \(held.averageCost.scaled), \(agent))
                ON CONFLICT (stocktakeId, productId) DO UPDATE SET counted = excluded.counted, countedAt = excluded.countedAt,
                    stockAtCount = excluded.stockAtCount, averageCostAtCount = excluded.averageCostAtCount, countedBy = excluded.countedBy
                """, logger: self.logger)
            return try await self.fetchStocktake(connection, id)
        }
    }

    public func postStocktake(_ id: StocktakeID, by manager: String) async throws -> Stocktake {
        try await self.write { connection, settings, log in
            try await self.lockStocktake(connection, id)
            var sheet = try await self.fetchStocktake(connection, id)
            try sheet.requireOpen()
            let writer = PostgresLedgerWriter(connection, calendar: settings.calendar, logger: self.logger)
            try await writer.lock(sheet.lines.filter(\.isCounted).map(\.productID))
            // The books may have changed at a counted instant since (a back-dated document): re-read them.
            for index in sheet.lines.indices {
                guard let countedAt = sheet.lines[index].countedAt else { continue }
                let held = try await writer.balance(of: sheet.lines[index].productID, at: countedAt)
                sheet.lines[index].stockAtCount = held.quantity
                sheet.lines[index].averageCostAtCount = held.averageCost
            }
            let drafts = try sheet.countAdjustment()
            var adjustmentID: Int64?
            if let last = drafts.map(\.effectiveAt).max() {
                let documentID = try await self.saveHeader(
                    connection, settings, kind: .adjustment, effectiveAt: last, replacing: nil, writer: writer,
                    columns: [("reason", .text(AdjustmentReason.count.rawValue)), ("note", .text(drafts[0].note))])
                let now = Self.now
                let pending = drafts.enumerated().map { lineNo, draft in
                    let index = sheet.lines.firstIndex { $0.productID == draft.productID } ?? lineNo
                    return PendingMovement(
                        documentID: documentID, kind: .adjustment, lineNo: lineNo, productID: draft.productID, effectiveAt: draft.effectiveAt,
                        day: settings.calendar.dayNumber(milliseconds: draft.effectiveAt.milliseconds), recordedAt: now, effect: draft.effect,
                        field: "lines[\(index)].counted")
                }
                try await writer.write(pending)
                try await writer.flush()
                try await log.recordDocument(.recorded, .adjustment, id: documentID)
                adjustmentID = documentID
            }
            for item in sheet.lines {
                try await connection.execute("""
                    INSERT INTO stocktakeLine (stocktakeId, productId, counted, countedAt, stockAtCount, averageCostAtCount)
                    VALUES (\(id.rawValue), \(item.productID.rawValue), \(item.counted?.thousandths), \(item.countedAt), \(item.stockAtCount?.thousandths),
                            \(item.averageCostAtCount?.scaled))
                    ON CONFLICT (stocktakeId, productId) DO UPDATE SET stockAtCount = excluded.stockAtCount, averageCostAtCount = excluded.averageCostAtCount
                    """, logger: self.logger)
            }
            try await connection.execute("""
                UPDATE stocktake SET status = 'posted', closedAt = \(Self.now), closedBy = \(manager), adjustmentId = \(adjustmentID) WHERE id = \(id.rawValue)
                """, logger: self.logger)
            return try await self.fetchStocktake(connection, id)
        }
    }

    public func cancelStocktake(_ id: StocktakeID, by manager: String) async throws -> Stocktake {
        try await self.write { connection, _, _ in
            try await self.lockStocktake(connection, id)
            let sheet = try await self.fetchStocktake(connection, id)
            try sheet.requireOpen()
            for item in sheet.lines where !item.isCounted {
                try await connection.execute("""
                    INSERT INTO stocktakeLine (stocktakeId, productId) VALUES (\(id.rawValue), \(item.productID.rawValue)) ON CONFLICT DO NOTHING
                    """, logger: self.logger)
            }
            try await connection.execute("UPDATE stocktake SET status = 'cancelled', closedAt = \(Self.now), closedBy = \(manager) WHERE id = \(id.rawValue)",
                                         logger: self.logger)
            return try await self.fetchStocktake(connection, id)
        }
    }

    public func writeOffLot(productID: ProductID, lotCode: String, expiryDate: String?) async throws -> AdjustmentID {
        let lotCode = lotCode.trimmingCharacters(in: .whitespaces)
        return try await self.write { connection, settings, log in
            try await self.requireUsableProduct(connection, productID, field: "productId", editing: false)
            let writer = PostgresLedgerWriter(connection, calendar: settings.calendar, logger: self.logger)
            try await writer.lock([productID])
            let remaining = try await self.lotRemaining(connection, productID: productID, lotCode: lotCode, expiryDate: expiryDate)
            let draft = try ExpiredLot(productID: productID, lotCode: lotCode, expiryDate: expiryDate, remaining: remaining).writeOff(at: Self.now)
            let documentID = try await self.saveHeader(
                connection, settings, kind: .adjustment, effectiveAt: draft.effectiveAt, replacing: nil, writer: writer,
                columns: [("reason", .text(draft.reason.rawValue)), ("note", .text(draft.note))])
            try await writer.write([
                PendingMovement(
                    documentID: documentID, kind: .adjustment, lineNo: 0, productID: productID, effectiveAt: draft.effectiveAt,
                    day: settings.calendar.dayNumber(milliseconds: draft.effectiveAt.milliseconds), recordedAt: Self.now, effect: draft.effect,
                    field: "lotCode")
            ])
            try await writer.flush()
            try await log.recordDocument(.recorded, .adjustment, id: documentID)
            return AdjustmentID(documentID)
        }
    }

    /// What is left of a lot (its receipts with that code, and that expiry when given), first in, first out, as the
    /// expiring report counts it; nil when the product has no such lot.
    func lotRemaining(_ connection: PostgresConnection, productID: ProductID, lotCode: String, expiryDate: String?) async throws -> Quantity? {
        for try await (count, remaining) in try await connection.query("""
            SELECT COUNT(*), COALESCE(SUM(GREATEST(0, remaining)), 0)::bigint FROM (
                SELECT LEAST(m.quantity, p.quantity - COALESCE((
                    SELECT SUM(later.quantity) FROM movement later
                    WHERE later.productId = m.productId AND later.quantity > 0
                      AND (later.effectiveAt, later.documentId, later.lineNo) > (m.effectiveAt, m.documentId, m.lineNo)), 0)) AS remaining
                FROM movement m JOIN product p ON p.id = m.productId
                WHERE m.productId = \(productID.rawValue) AND m.quantity > 0 AND COALESCE(m.lotCode, '') = \(lotCode)
                  AND (\(expiryDate)::text IS NULL OR m.expiryDate = \(expiryDate))) lots
            """, logger: self.logger).decode((Int, Int64).self) {
            return count > 0 ? Quantity(thousandths: remaining) : nil
        }
        return nil
    }

    func lockStocktake(_ connection: PostgresConnection, _ id: StocktakeID) async throws {
        try await connection.execute("SELECT id FROM stocktake WHERE id = \(id.rawValue) FOR UPDATE", logger: self.logger)
    }

    /// A count sheet: its header, and its lines — while open every product in scope (counted or not) and every
    /// product counted; once closed, the lines it kept.
    func fetchStocktake(_ connection: PostgresConnection, _ id: StocktakeID) async throws -> Stocktake {
        typealias Header = (String, Int64?, String?, String, String, Instant, String, Instant?, String, Int64?, String?)
        var found: Header?
        for try await row in try await connection.query("""
            SELECT s.scope, s.categoryId, s.shelf, s.status, s.note, s.createdAt, s.createdBy, s.closedAt, s.closedBy, s.adjustmentId, c.name
            FROM stocktake s LEFT JOIN category c ON c.id = s.categoryId WHERE s.id = \(id.rawValue)
            """, logger: self.logger).decode(Header.self) { found = row }
        guard let header = found else { throw InventoryError(.notFound, field: "id", "stocktake \(id) does not exist") }
        let (scopeKind, categoryID, shelf) = (header.0, header.1.map(CategoryID.init(rawValue:)), header.2)
        let scope: StocktakeScope = switch scopeKind {
        case "category": .category(categoryID)
        case "shelf": .shelf(shelf ?? "")
        default: .all
        }
        let status = StocktakeStatus(rawValue: header.3) ?? .open
        var lines: [StocktakeLine] = []
        for try await row in try await connection.query("""
            SELECT p.id, p.name, p.unit, l.counted, l.countedAt, l.stockAtCount, l.averageCostAtCount
            FROM product p LEFT JOIN stocktakeLine l ON l.productId = p.id AND l.stocktakeId = \(id.rawValue)
            WHERE l.productId IS NOT NULL
               OR (\(status.rawValue) = 'open' AND p.tracksStock AND NOT p.isArchived
                   AND (\(scopeKind) = 'all' OR (\(scopeKind) = 'category' AND p.categoryId = \(categoryID?.rawValue))
                        OR (\(scopeKind) = 'shelf' AND upper(p.shelf) = upper(\(shelf)))))
            ORDER BY lower(p.name), p.id
            """, logger: self.logger).decode((Int64, String, String, Int64?, Instant?, Int64?, Int64?).self) {
            lines.append(StocktakeLine(
                productID: ProductID(row.0), productName: row.1, unit: row.2, counted: row.3.map(Quantity.init(thousandths:)),
                countedAt: row.4, stockAtCount: row.5.map(Quantity.init(thousandths:)), averageCostAtCount: row.6.map(UnitCost.init(scaled:))))
        }
        return Stocktake(
            id: id, scope: scope, scopeName: scope.name(categoryName: header.10), status: status, note: header.4, createdAt: header.5,
            createdBy: header.6, closedAt: header.7, closedBy: header.8, adjustmentID: header.9.map(AdjustmentID.init(rawValue:)), lines: lines)
    }
}
