import Foundation
import GRDB
import InventoryDomain

// MARK: - TabRepository

extension InventorySQLiteRepository {
    public func parkSale(_ sale: ParkedSale) async throws -> ParkedSale {
        let sale = try sale.validated()
        return try await self.write { db, _, _ in
            if let customer = sale.customerID {
                try Self.requireRow(db, table: "customer", id: customer.rawValue, field: "customerId", label: "customer")
            }
            for (index, line) in sale.lines.enumerated() {
                try Self.requireUsableProduct(db, line.productID, field: "lines[\(index)].productId", editing: false)
            }
            try db.execute(sql: "INSERT INTO parkedSale (label, customerId, note, parkedBy, parkedAt) VALUES (?, ?, ?, ?, ?)",
                           arguments: [sale.label, sale.customerID?.rawValue, sale.note, sale.parkedBy, sale.parkedAt.milliseconds])
            let id = db.lastInsertedRowID
            let insert = try db.cachedStatement(sql: """
                INSERT INTO parkedSaleLine (parkedSaleId, lineNo, productId, quantity, unitPrice, discount, discountPercent, taxRate, options)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                """)
            for (index, line) in sale.lines.enumerated() {
                var amount: Int64?, percent: Int64?
                switch line.discount {
                case .amount(let money): amount = money.minorUnits
                case .percent(let share): percent = share.hundredths
                }
                try insert.execute(arguments: [id, index, line.productID.rawValue, line.quantity.thousandths, line.unitPrice?.minorUnits,
                                               amount, percent, line.taxRate?.hundredths,
                                               line.options.map { String($0.rawValue) }.joined(separator: ",")])
            }
            return try Self.fetchParkedSales(db, id: id).first ?? sale
        }
    }

    public func parkedSales() async throws -> [ParkedSale] {
        try await self.read { db in try Self.fetchParkedSales(db, id: nil) }
    }

    public func pickUpParkedSale(_ id: ParkedSaleID) async throws -> ParkedSale {
        try await self.write { db, _, _ in
            guard let sale = try Self.fetchParkedSales(db, id: id.rawValue).first else {
                throw InventoryError(.notFound, field: "id", "tab \(id) does not exist; another till may have picked it up")
            }
            try db.cachedStatement(sql: "DELETE FROM parkedSale WHERE id = ?").execute(arguments: [id.rawValue])
            return sale
        }
    }

    /// The parked sales (one, or all oldest first) with their lines.
    static func fetchParkedSales(_ db: Database, id: Int64?) throws -> [ParkedSale] {
        let filter = id == nil ? "" : "WHERE id = ?"
        let arguments: StatementArguments = id.map { [$0] } ?? []
        var lines: [Int64: [SaleDraft.Line]] = [:]
        for row in try Row.fetchAll(db.cachedStatement(sql: """
            SELECT parkedSaleId, productId, quantity, unitPrice, discount, discountPercent, taxRate, options FROM parkedSaleLine
            \(id == nil ? "" : "WHERE parkedSaleId = ?") ORDER BY parkedSaleId, lineNo
            """), arguments: arguments) {
            let price = (row[3] as Int64?).map(Money.init(minorUnits:)), rate = (row[6] as Int64?).map(Percent.init(hundredths:))
            var line = if let percent = row[5] as Int64? {
                SaleDraft.Line(productID: ProductID(row[1]), quantity: Quantity(thousandths: row[2]), unitPrice: price,
                               discountPercent: Percent(hundredths: percent), taxRate: rate)
            } else {
                SaleDraft.Line(productID: ProductID(row[1]), quantity: Quantity(thousandths: row[2]), unitPrice: price,
                               discount: Money(minorUnits: row[4] ?? 0), taxRate: rate)
            }
            line.options = (row[7] as String).split(separator: ",").compactMap { Int64($0) }.map(ModifierID.init(rawValue:))
            lines[row[0], default: []].append(line)
        }
        return try Row.fetchAll(db.cachedStatement(sql: "SELECT id, label, customerId, note, parkedBy, parkedAt FROM parkedSale \(filter) ORDER BY parkedAt, id"),
                                arguments: arguments).map { row in
            ParkedSale(id: ParkedSaleID(row[0]), label: row[1], lines: lines[row[0]] ?? [], customerID: (row[2] as Int64?).map(CustomerID.init(rawValue:)),
                       note: row[3], parkedBy: row[4], parkedAt: Instant(milliseconds: row[5]))
        }
    }
}
