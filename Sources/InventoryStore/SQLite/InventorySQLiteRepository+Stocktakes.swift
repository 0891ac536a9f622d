import Foundation
import GRDB
import InventoryDomain

// MARK: - StocktakeRepository

extension InventorySQLiteRepository: StocktakeRepository {
    public func openStocktake(scope: StocktakeScope, note: String) async throws -> Stocktake {
        let agent = Agent.current.username
        let note = note.trimmingCharacters(in: .whitespacesAndNewlines)
        try TextLimit.note.check(note, field: "note")
        return try await self.write { db, _ in
            if let category = scope.categoryID {
                try Self.requireRow(db, table: "category", id: category.rawValue, field: "categoryId", label: "category")
            }
            var scope = scope
            if let shelf = scope.shelf {
                // The shelf as its products spell it (as the list of shelves shows it), whatever case was typed.
                guard let spelled = try String.fetchOne(db, sql: "SELECT MIN(shelf) FROM product WHERE shelf = ? AND isArchived = 0",
                                                        arguments: [shelf]) else {
                    throw InventoryError(.notFound, field: "shelf", "no product (not archived) is on the shelf \(shelf)")
                }
                scope = .shelf(spelled)
            }
            try db.execute(sql: "INSERT INTO stocktake (scope, categoryId, shelf, status, note, createdAt, createdBy) VALUES (?, ?, ?, 'open', ?, ?, ?)",
                           arguments: [scope.kind, scope.categoryID?.rawValue, scope.shelf, note, Self.now, agent])
            return try Self.fetchStocktake(db, StocktakeID(db.lastInsertedRowID))
        }
    }

    public func stocktakes(limit: Int, offset: Int) async throws -> [StocktakeSummary] {
        try await self.read { db in
            try Int64.fetchAll(db, sql: "SELECT id FROM stocktake ORDER BY id DESC LIMIT ? OFFSET ?", arguments: [limit, offset])
                .map { StocktakeSummary(try Self.fetchStocktake(db, StocktakeID($0))) }
        }
    }

    public func stocktake(_ id: StocktakeID) async throws -> Stocktake {
        try await self.read { db in try Self.fetchStocktake(db, id) }
    }

    public func countStocktake(_ id: StocktakeID, productID: ProductID, entry: StocktakeEntry) async throws -> Stocktake {
        let agent = Agent.current.username
        return try await self.write { db, settings in
            let sheet = try Self.fetchStocktake(db, id)
            try sheet.requireOpen()
            guard let line = sheet.lines.first(where: { $0.productID == productID }) else {
                try Self.requireRow(db, table: "product", id: productID.rawValue, field: "productId", label: "product")
                throw InventoryError(.invalidValue, field: "productId",
                                     "product \(productID) is not in this stocktake's scope (archived, not kept in stock, or in another category or on another shelf)")
            }
            let counted = try entry.counted(after: line.counted)
            let now = Self.now
            let held = try LedgerWriter(db, calendar: settings.calendar).balance(of: productID, at: now)
            try db.execute(sql: """
                INSERT INTO stocktakeLine (stocktakeId, productId, counted, countedAt, stockAtCount, averageCostAtCount, countedBy)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (stocktakeId, productId) DO UPDATE SET counted = excluded.counted, countedAt = excluded.countedAt,
                    stockAtCount = excluded.stockAtCount, averageCostAtCount = excluded.averageCostAtCount, countedBy = excluded.countedBy
                """, arguments: [id.rawValue, productID.rawValue, counted.thousandths, now, held.quantity.thousandths, held.averageCost.scaled, agent])
            return try Self.fetchStocktake(db, id)
        }
    }

    public func postStocktake(_ id: StocktakeID, by manager: String) async throws -> Stocktake {
        try await self.write { db, settings, log in
            var sheet = try Self.fetchStocktake(db, id)
            try sheet.requireOpen()
            let writer = LedgerWriter(db, calendar: settings.calendar)
            // The books may have changed at a counted instant since (a back-dated document): re-read them.
            for index in sheet.lines.indices {
                guard let countedAt = sheet.lines[index].countedAt else { continue }
                let held = try writer.balance(of: sheet.lines[index].productID, at: countedAt.milliseconds)
                sheet.lines[index].stockAtCount = held.quantity
                sheet.lines[index].averageCostAtCount = held.averageCost
            }
            let drafts = try sheet.countAdjustment()
            var adjustmentID: Int64?
            if let last = drafts.map(\.effectiveAt).max() {
                let documentID = try Self.saveHeader(
                    db, settings, kind: .adjustment, effectiveAt: last, replacing: nil, writer: writer,
                    columns: ["reason": AdjustmentReason.count.rawValue, "note": drafts[0].note])
                let pending = drafts.enumerated().map { lineNo, draft in
                    let index = sheet.lines.firstIndex { $0.productID == draft.productID } ?? lineNo
                    let effectiveAt = draft.effectiveAt.milliseconds
                    return PendingMovement(
                        documentID: documentID, kind: .adjustment, lineNo: lineNo, productID: draft.productID, effectiveAt: effectiveAt,
                        day: settings.calendar.dayNumber(milliseconds: effectiveAt), recordedAt: Self.now, effect: draft.effect,
                        field: "lines[\(index)].counted")
                }
                try writer.write(pending)
                try writer.flush()
                try log.recordDocument(.recorded, .adjustment, id: documentID)
                adjustmentID = documentID
            }
            let line = try db.cachedStatement(sql: """
                INSERT INTO stocktakeLine (stocktakeId, productId, counted, countedAt, stockAtCount, averageCostAtCount)
                VALUES (?, ?, ?, ?, ?, ?)
                ON CONFLICT (stocktakeId, productId) DO UPDATE SET stockAtCount = excluded.stockAtCount,
                    averageCostAtCount = excluded.averageCostAtCount
                """)
            for item in sheet.lines {
                try line.execute(arguments: [id.rawValue, item.productID.rawValue, item.counted?.thousandths, item.countedAt?.milliseconds,
                                             item.stockAtCount?.thousandths, item.averageCostAtCount?.scaled])
            }
            try db.execute(sql: "UPDATE stocktake SET status = 'posted', closedAt = ?, closedBy = ?, adjustmentId = ? WHERE id = ?",
                           arguments: [Self.now, manager, adjustmentID, id.rawValue])
            return try Self.fetchStocktake(db, id)
        }
    }

    public func cancelStocktake(_ id: StocktakeID, by manager: String) async throws -> Stocktake {
        try await self.write { db, _ in
            let sheet = try Self.fetchStocktake(db, id)
            try sheet.requireOpen()
            let line = try db.cachedStatement(sql: "INSERT OR IGNORE INTO stocktakeLine (stocktakeId, productId) VALUES (?, ?)")
            for item in sheet.lines where !item.isCounted {
                try line.execute(arguments: [id.rawValue, item.productID.rawValue])
            }
            try db.execute(sql: "UPDATE stocktake SET status = 'cancelled', closedAt = ?, closedBy = ? WHERE id = ?",
                           arguments: [Self.now, manager, id.rawValue])
            return try Self.fetchStocktake(db, id)
        }
    }

    public func writeOffLot(productID: ProductID, lotCode: String, expiryDate: String?) async throws -> AdjustmentID {
        let lotCode = lotCode.trimmingCharacters(in: .whitespaces)
        return try await self.write { db, settings, log in
            try Self.requireUsableProduct(db, productID, field: "productId", editing: false)
            let remaining = try Self.lotRemaining(db, productID: productID, lotCode: lotCode, expiryDate: expiryDate)
            let draft = try ExpiredLot(productID: productID, lotCode: lotCode, expiryDate: expiryDate, remaining: remaining)
                .writeOff(at: Instant(milliseconds: Self.now))
            let writer = LedgerWriter(db, calendar: settings.calendar)
            let documentID = try Self.saveHeader(
                db, settings, kind: .adjustment, effectiveAt: draft.effectiveAt, replacing: nil, writer: writer,
                columns: ["reason": draft.reason.rawValue, "note": draft.note])
            let effectiveAt = draft.effectiveAt.milliseconds
            try writer.write([
                PendingMovement(
                    documentID: documentID, kind: .adjustment, lineNo: 0, productID: productID, effectiveAt: effectiveAt,
                    day: settings.calendar.dayNumber(milliseconds: effectiveAt), recordedAt: Self.now, effect: draft.effect,
                    field: "lotCode")
            ])
            try writer.flush()
            try log.recordDocument(.recorded, .adjustment, id: documentID)
            return AdjustmentID(documentID)
        }
    }

    /// What is left of a lot (its receipts with that code, and that expiry when given), first in, first out, as the
    /// expiring report counts it; nil when the product has no such lot.
    static func lotRemaining(_ db: Database, productID: ProductID, lotCode: String, expiryDate: String?) throws -> Quantity? {
        let row = try Row.fetchOne(db, sql: """
            SELECT COUNT(*), COALESCE(SUM(MAX(0, remaining)), 0) FROM (
                SELECT MIN(m.quantity, p.quantity - COALESCE((
                    SELECT SUM(later.quantity) FROM movement later
                    WHERE later.productId = m.productId AND later.quantity > 0
                      AND (later.effectiveAt, later.documentId, later.lineNo) > (m.effectiveAt, m.documentId, m.lineNo)), 0)) AS remaining
                FROM movement m JOIN product p ON p.id = m.productId
                WHERE m.productId = ? AND m.quantity > 0 AND COALESCE(m.lotCode, '') = ? AND (? IS NULL OR m.expiryDate = ?))
            """, arguments: [productID.rawValue, lotCode, expiryDate, expiryDate])
        guard let row, (row[0] as Int) > 0 else { return nil }
        return Quantity(thousandths: row[1])
    }

    /// A count sheet: its header, and its lines — while open every product in scope (counted or not) and every
    /// product counted; once closed, the lines it kept.
    static func fetchStocktake(_ db: Database, _ id: StocktakeID) throws -> Stocktake {
        guard let header = try Row.fetchOne(db, sql: """
            SELECT s.scope, s.categoryId, s.shelf, s.status, s.note, s.createdAt, s.createdBy, s.closedAt, s.closedBy, s.adjustmentId, c.name
            FROM stocktake s LEFT JOIN category c ON c.id = s.categoryId WHERE s.id = ?
            """, arguments: [id.rawValue]) else {
            throw InventoryError(.notFound, field: "id", "stocktake \(id) does not exist")
        }
        let scopeKind: String = header["scope"]
        let categoryID = (header["categoryId"] as Int64?).map(CategoryID.init(rawValue:))
        let shelf: String? = header["shelf"]
        let scope: StocktakeScope = switch scopeKind {
        case "category": .category(categoryID)
        case "shelf": .shelf(shelf ?? "")
        default: .all
        }
        let status = StocktakeStatus(rawValue: header["status"]) ?? .open
        let lines = try Row.fetchAll(db, sql: """
            SELECT p.id, p.name, p.unit, l.counted, l.countedAt, l.stockAtCount, l.averageCostAtCount
            FROM product p LEFT JOIN stocktakeLine l ON l.productId = p.id AND l.stocktakeId = ?1
            WHERE l.productId IS NOT NULL
               OR (?2 = 'open' AND p.tracksStock = 1 AND p.isArchived = 0
                   AND (?3 = 'all' OR (?3 = 'category' AND p.categoryId = ?4) OR (?3 = 'shelf' AND p.shelf = ?5)))
            ORDER BY p.name COLLATE NOCASE, p.id
            """, arguments: [id.rawValue, status.rawValue, scopeKind, categoryID?.rawValue, shelf]).map { row in
            StocktakeLine(
                productID: ProductID(row["id"] as Int64), productName: row["name"], unit: row["unit"],
                counted: (row["counted"] as Int64?).map(Quantity.init(thousandths:)),
                countedAt: (row["countedAt"] as Int64?).map(Instant.init(milliseconds:)),
                stockAtCount: (row["stockAtCount"] as Int64?).map(Quantity.init(thousandths:)),
                averageCostAtCount: (row["averageCostAtCount"] as Int64?).map(UnitCost.init(scaled:)))
        }
        return Stocktake(
            id: id, scope: scope, scopeName: scope.name(categoryName: header["name"]), status: status,
            note: header["note"], createdAt: Instant(milliseconds: header["createdAt"]), createdBy: header["createdBy"],
            closedAt: (header["closedAt"] as Int64?).map(Instant.init(milliseconds:)), closedBy: header["closedBy"],
            adjustmentID: (header["adjustmentId"] as Int64?).map(AdjustmentID.init(rawValue:)), lines: lines)
    }
}
