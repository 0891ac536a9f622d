import Foundation
import InventoryDomain
import PostgresNIO

/// Products' option groups (size, milk, extras). The rules are the domain's (``ModifierGroup``).
extension InventoryPostgresRepository {
    public func optionGroups(of productID: ProductID) async throws -> [ModifierGroup] {
        try await self.read { connection in
            _ = try await self.fetchProduct(connection, productID)
            return try await self.optionGroups(connection, of: [productID])[productID] ?? []
        }
    }

    public func allOptionGroups() async throws -> [ProductID: [ModifierGroup]] {
        try await self.read { connection in try await self.optionGroups(connection, of: nil) }
    }

    public func setOptionGroups(_ groups: [ModifierGroup], of productID: ProductID) async throws -> [ModifierGroup] {
        try await self.write { connection, settings, log in
            let groups = try ModifierGroup.validated(groups, currency: settings.currency)
            let product = try await self.lockProduct(connection, productID)
            let old = try await self.optionGroups(connection, of: [productID])[productID] ?? []
            // Options keep their ids when they are sent with them (a parked tab names them); ids of another product's
            // options are refused; whatever is not sent any more goes.
            let (keptGroups, keptOptions) = try ModifierGroup.keptIDs(groups, of: old, productName: product.name)
            // As SQLite's `id NOT IN (NULL)`: when no id is kept, nothing is deleted by that statement (so options
            // sent all new leave the old ones in place, and no groups at all leave every group). A known defect of
            // SQLite's store, kept here so both stores answer alike until it is fixed in both.
            if !keptOptions.isEmpty {
                try await connection.execute("""
                    DELETE FROM productOption WHERE groupId IN (SELECT id FROM optionGroup WHERE productId = \(productID.rawValue))
                    AND NOT (id = ANY(\(keptOptions)))
                    """, logger: self.logger)
            }
            if !keptGroups.isEmpty {
                try await connection.execute("DELETE FROM optionGroup WHERE productId = \(productID.rawValue) AND NOT (id = ANY(\(keptGroups)))",
                                           logger: self.logger)
            }
            for (position, group) in groups.enumerated() {
                let groupID: Int64
                if let id = group.id {
                    try await connection.execute("""
                        UPDATE optionGroup SET position = \(position), name = \(StoredText.bound(group.name)), multiple = \(group.multiple), required = \(group.required)
                        WHERE id = \(id)
                        """, logger: self.logger)
                    groupID = id
                } else {
                    groupID = try await connection.query("""
                        INSERT INTO optionGroup (productId, position, name, multiple, required)
                        VALUES (\(productID.rawValue), \(position), \(StoredText.bound(group.name)), \(group.multiple), \(group.required)) RETURNING id
                        """, logger: self.logger).collect(Int64.self)[0]
                }
                for (optionPosition, option) in group.options.enumerated() {
                    if option.id.rawValue != 0 {
                        try await connection.execute("""
                            UPDATE productOption SET groupId = \(groupID), position = \(optionPosition), name = \(StoredText.bound(option.name)),
                            priceChange = \(option.priceChange.minorUnits), isDefault = \(option.isDefault) WHERE id = \(option.id.rawValue)
                            """, logger: self.logger)
                    } else {
                        try await connection.execute("""
                            INSERT INTO productOption (groupId, position, name, priceChange, isDefault)
                            VALUES (\(groupID), \(optionPosition), \(StoredText.bound(option.name)), \(option.priceChange.minorUnits), \(option.isDefault))
                            """, logger: self.logger)
                    }
                }
            }
            let stored = try await self.optionGroups(connection, of: [productID])[productID] ?? []
            let changes = ShopActivity.Change.between(options: old, stored, currency: settings.currency)
            if !changes.isEmpty {
                try await log.record(.productChanged, record: .init(.product, productID.rawValue), productIDs: [productID], subject: product.name,
                                     changes: changes)
            }
            return stored
        }
    }

    /// The groups with their options, in order, of the products named (nil: every product); a product without any is
    /// absent.
    func optionGroups(_ connection: PostgresConnection, of productIDs: [ProductID]?) async throws -> [ProductID: [ModifierGroup]] {
        var binds = PostgresBindings()
        var condition = ""
        if let productIDs {
            binds.append(productIDs.map(\.rawValue))
            condition = "WHERE g.productId = ANY($1)"
        }
        var all: [ProductID: [ModifierGroup]] = [:]
        for try await row in try await connection.query(PostgresQuery(unsafeSQL: """
            SELECT g.productId, g.id, g.name, g.multiple, g.required, o.id, o.name, o.priceChange, o.isDefault
            FROM optionGroup g JOIN productOption o ON o.groupId = g.id
            \(condition) ORDER BY g.productId, g.position, o.position
            """, binds: binds), logger: self.logger) {
            let (productID, groupID, groupName, multiple, required, optionID, optionName, priceChange, isDefault) =
                try row.decode((Int64, Int64, String, Bool, Bool, Int64, String, Int64, Bool).self)
            let option = Modifier(id: ModifierID(optionID), name: optionName, priceChange: Money(minorUnits: priceChange), isDefault: isDefault)
            var groups = all[ProductID(productID)] ?? []
            if let last = groups.last, last.id == groupID {
                groups[groups.count - 1].options.append(option)
            } else {
                groups.append(ModifierGroup(id: groupID, name: groupName, multiple: multiple, required: required, options: [option]))
            }
            all[ProductID(productID)] = groups
        }
        return all
    }
}
