import Foundation
import GRDB
import InventoryDomain

/// Products' option groups (size, milk, extras) and the options a booked sale line or a parked one chose.
extension InventorySQLiteRepository {
    public func optionGroups(of productID: ProductID) async throws -> [ModifierGroup] {
        try await self.read { db in
            _ = try Self.fetchProduct(db, productID)
            return try Self.optionGroups(db, productID)
        }
    }

    public func allOptionGroups() async throws -> [ProductID: [ModifierGroup]] {
        try await self.read { db in
            let ids = try Int64.fetchAll(db, sql: "SELECT DISTINCT productId FROM optionGroup ORDER BY productId")
            var all: [ProductID: [ModifierGroup]] = [:]
            for id in ids { all[ProductID(id)] = try Self.optionGroups(db, ProductID(id)) }
            return all
        }
    }

    public func setOptionGroups(_ groups: [ModifierGroup], of productID: ProductID) async throws -> [ModifierGroup] {
        try await self.write { db, settings, log in
            let groups = try ModifierGroup.validated(groups, currency: settings.currency)
            let product = try Self.fetchProduct(db, productID)
            let old = try Self.optionGroups(db, productID)
            // Options keep their ids when they are sent with them (a parked tab names them); ids of another product's
            // options are refused; whatever is not sent any more goes.
            let (keptGroups, keptOptions) = try ModifierGroup.keptIDs(groups, of: old, productName: product.name)
            try db.execute(sql: "DELETE FROM productOption WHERE groupId IN (SELECT id FROM optionGroup WHERE productId = ?) AND id NOT IN \(Self.list(keptOptions))",
                           arguments: [productID.rawValue])
            try db.execute(sql: "DELETE FROM optionGroup WHERE productId = ? AND id NOT IN \(Self.list(keptGroups))", arguments: [productID.rawValue])
            for (position, group) in groups.enumerated() {
                let groupID: Int64
                if let id = group.id {
                    try db.execute(sql: "UPDATE optionGroup SET position = ?, name = ?, multiple = ?, required = ? WHERE id = ?",
                                   arguments: [position, group.name, group.multiple, group.required, id])
                    groupID = id
                } else {
                    try db.execute(sql: "INSERT INTO optionGroup (productId, position, name, multiple, required) VALUES (?, ?, ?, ?, ?)",
                                   arguments: [productID.rawValue, position, group.name, group.multiple, group.required])
                    groupID = db.lastInsertedRowID
                }
                for (optionPosition, option) in group.options.enumerated() {
                    if option.id.rawValue != 0 {
                        try db.execute(sql: "UPDATE productOption SET groupId = ?, position = ?, name = ?, priceChange = ?, isDefault = ? WHERE id = ?",
                                       arguments: [groupID, optionPosition, option.name, option.priceChange.minorUnits, option.isDefault, option.id.rawValue])
                    } else {
                        try db.execute(sql: "INSERT INTO productOption (groupId, position, name, priceChange, isDefault) VALUES (?, ?, ?, ?, ?)",
                                       arguments: [groupID, optionPosition, option.name, option.priceChange.minorUnits, option.isDefault])
                    }
                }
            }
            let stored = try Self.optionGroups(db, productID)
            let changes = ShopActivity.Change.between(options: old, stored, currency: settings.currency)
            if !changes.isEmpty {
                try log.record(.productChanged, record: .init(.product, productID.rawValue), productIDs: [productID], subject: product.name,
                               changes: changes)
            }
            return stored
        }
    }

    /// `(1, 2, 3)` for an SQL `IN`, `(NULL)` for none (ids are integers the store made, never user text).
    static func list(_ ids: [Int64]) -> String { ids.isEmpty ? "(NULL)" : "(\(ids.map(String.init).joined(separator: ", ")))" }

    /// A product's groups with their options, in order.
    static func optionGroups(_ db: Database, _ productID: ProductID) throws -> [ModifierGroup] {
        var groups: [ModifierGroup] = []
        for row in try Row.fetchAll(db.cachedStatement(sql: """
            SELECT g.id, g.name, g.multiple, g.required, o.id, o.name, o.priceChange, o.isDefault
            FROM optionGroup g JOIN productOption o ON o.groupId = g.id
            WHERE g.productId = ? ORDER BY g.position, o.position
            """), arguments: [productID.rawValue]) {
            let option = Modifier(id: ModifierID(row[4]), name: row[5], priceChange: Money(minorUnits: row[6]), isDefault: row[7])
            if let last = groups.last, last.id == row[0] {
                groups[groups.count - 1].options.append(option)
            } else {
                groups.append(ModifierGroup(id: row[0], name: row[1], multiple: row[2], required: row[3], options: [option]))
            }
        }
        return groups
    }

    /// Keeps a copy of each booked line's chosen options (the document's sale movements, by line); whether there were any.
    static func writeChosenOptions(_ db: Database, documentID: Int64, _ lines: [PricedSale.Line]) throws -> Bool {
        guard lines.contains(where: { !$0.options.isEmpty }) else { return false }
        let ids = try Row.fetchAll(db.cachedStatement(sql: "SELECT lineNo, id FROM movement WHERE documentId = ? AND kind = 'sale'"), arguments: [documentID])
        let movementByLine = Dictionary(ids.map { ($0[0] as Int, $0[1] as Int64) }, uniquingKeysWith: { first, _ in first })
        let insert = try db.cachedStatement(sql: """
            INSERT INTO saleLineOption (movementId, position, optionId, groupName, name, priceChange) VALUES (?, ?, ?, ?, ?, ?)
            """)
        for (lineNo, line) in lines.enumerated() {
            guard let movementID = movementByLine[lineNo] else { continue }
            for (position, option) in line.options.enumerated() {
                try insert.execute(arguments: [movementID, position, option.optionID.rawValue, option.group, option.name, option.priceChange.minorUnits])
            }
        }
        return true
    }

    /// The chosen options of a sale's lines, by movement id.
    static func chosenOptions(_ db: Database, documentID: Int64) throws -> [Int64: [ChosenModifier]] {
        var result: [Int64: [ChosenModifier]] = [:]
        for row in try Row.fetchAll(db.cachedStatement(sql: """
            SELECT o.movementId, o.optionId, o.groupName, o.name, o.priceChange FROM saleLineOption o
            JOIN movement m ON m.id = o.movementId WHERE m.documentId = ? ORDER BY o.movementId, o.position
            """), arguments: [documentID]) {
            result[row[0], default: []].append(ChosenModifier(optionID: ModifierID(row[1]), group: row[2], name: row[3], priceChange: Money(minorUnits: row[4])))
        }
        return result
    }
}
