import Foundation
import InventoryDomain
import PostgresNIO

/// Categories, suppliers and customers (``CatalogueRepository``; products: `InventoryPostgresRepository+Products.swift`).
extension InventoryPostgresRepository {
    // MARK: - Categories

    public func createCategory(_ category: Category) async throws -> Category {
        let category = try category.validated()
        return try await self.write { connection, _, log in
            try await self.requireUniqueCategoryName(connection, category.name, except: nil)
            let id = try await connection.query("""
                INSERT INTO category (name, color, lowStockThreshold, markup)
                VALUES (\(category.name), \(category.color), \(category.lowStockThreshold?.thousandths), \(category.markup.hundredths)) RETURNING id
                """, logger: self.logger).collect(Int64.self)[0]
            var created = category
            created.id = CategoryID(id)
            try await log.record(.categoryCreated, record: .init(.category, id), subject: created.name)
            return created
        }
    }

    public func updateCategory(_ category: Category) async throws -> Category {
        let category = try category.validated()
        return try await self.write { connection, _, log in
            try await self.requireUniqueCategoryName(connection, category.name, except: category.id)
            guard let old = try await self.categories(connection, where: "WHERE id = \(category.id.rawValue) FOR UPDATE").first else {
                throw InventoryError(.notFound, field: "id", "category \(category.id) does not exist")
            }
            try await connection.execute("""
                UPDATE category SET name = \(category.name), color = \(category.color), lowStockThreshold = \(category.lowStockThreshold?.thousandths),
                markup = \(category.markup.hundredths) WHERE id = \(category.id.rawValue)
                """, logger: self.logger)
            try await log.record(.categoryChanged, record: .init(.category, category.id.rawValue), subject: category.name,
                                 changes: ShopActivity.Change.between(old, category))
            return category
        }
    }

    public func deleteCategory(_ id: CategoryID) async throws {
        try await self.write { connection, _, log in
            guard let name = try await connection.query("DELETE FROM category WHERE id = \(id.rawValue) RETURNING name", logger: self.logger)
                .collect(String.self).first
            else { throw InventoryError(.notFound, field: "id", "category \(id) does not exist") }
            try await log.record(.categoryDeleted, record: .init(.category, id.rawValue), subject: name)
        }
    }

    /// Every category, by name (case-insensitively, then by id).
    public func categories() async throws -> [Category] {
        try await self.read { connection in try await self.categories(connection, where: "") }
    }

    /// The categories a condition (trusted text: never input) selects.
    func categories(_ connection: PostgresConnection, where condition: String) async throws -> [Category] {
        var categories: [Category] = []
        for try await (id, name, color, threshold, markup) in try await connection.query(PostgresQuery(unsafeSQL: """
            SELECT id, name, color, lowStockThreshold, markup FROM category \(condition) \(condition.isEmpty ? "ORDER BY lower(name), id" : "")
            """), logger: self.logger).decode((Int64, String, String, Int64?, Int64).self) {
            categories.append(Category(id: CategoryID(id), name: name, color: color, lowStockThreshold: threshold.map(Quantity.init(thousandths:)),
                                       markup: Percent(hundredths: markup)))
        }
        return categories
    }

    /// Refuses a name another category has (case-insensitively), naming `name`; the lock makes two instances naming
    /// categories at once take turns, so the second sees the first's name rather than a bare unique violation.
    func requireUniqueCategoryName(_ connection: PostgresConnection, _ name: String, except id: CategoryID?) async throws {
        try await connection.execute("SELECT pg_advisory_xact_lock(hashtext('stockroom-categories'))", logger: self.logger)
        let owners = try await connection.query("SELECT id FROM category WHERE lower(name) = lower(\(name))", logger: self.logger).collect(Int64.self)
        if let owner = owners.first, owner != id?.rawValue {
            throw InventoryError(.duplicate, field: "name", "a category named '\(name)' already exists")
        }
    }

    // MARK: - Contacts

    public func createSupplier(_ supplier: Contact<Supplier>) async throws -> Contact<Supplier> {
        try await self.createContact(supplier, table: .supplier)
    }

    public func updateSupplier(_ supplier: Contact<Supplier>) async throws -> Contact<Supplier> {
        try await self.updateContact(supplier, table: .supplier)
    }

    public func deleteSupplier(_ id: SupplierID) async throws {
        try await self.deleteContact(id.rawValue, table: .supplier)
    }

    public func suppliers(search: String?) async throws -> [Contact<Supplier>] {
        try await self.contacts(table: .supplier, search: search)
    }

    public func createCustomer(_ customer: Contact<Customer>) async throws -> Contact<Customer> {
        try await self.createContact(customer, table: .customer)
    }

    public func updateCustomer(_ customer: Contact<Customer>) async throws -> Contact<Customer> {
        try await self.updateContact(customer, table: .customer)
    }

    public func deleteCustomer(_ id: CustomerID) async throws {
        try await self.deleteContact(id.rawValue, table: .customer)
    }

    public func customers(search: String?) async throws -> [Contact<Customer>] {
        try await self.contacts(table: .customer, search: search)
    }

    /// The two contact tables: names and activity kinds are fixed here, never taken from input.
    enum ContactTable: String {
        case supplier, customer

        var documentColumn: String { self == .supplier ? "supplierId" : "customerId" }
        /// Customers have no lead time (read as 0).
        var columns: String { "id, name, location, phone, email, note, \(self == .supplier ? "leadTimeDays" : "0")" }
        var record: ShopActivity.Record.Kind { self == .supplier ? .supplier : .customer }
        var created: ShopActivity.Kind { self == .supplier ? .supplierCreated : .customerCreated }
        var changed: ShopActivity.Kind { self == .supplier ? .supplierChanged : .customerChanged }
        var deleted: ShopActivity.Kind { self == .supplier ? .supplierDeleted : .customerDeleted }
    }

    private func createContact<Kind>(_ contact: Contact<Kind>, table: ContactTable) async throws -> Contact<Kind> {
        let contact = try contact.validated()
        return try await self.write { connection, _, log in
            var binds = PostgresBindings()
            for text in [contact.name, contact.location, contact.phone, contact.email, contact.note,
                         SearchText.key(contact.name, contact.location, contact.phone, contact.email)] { binds.append(text) }
            if table == .supplier { binds.append(contact.leadTimeDays) }
            let leadTime = table == .supplier ? ", leadTimeDays" : ""
            let id = try await connection.query(PostgresQuery(unsafeSQL: """
                INSERT INTO \(table.rawValue) (name, location, phone, email, note, searchKey\(leadTime))
                VALUES ($1, $2, $3, $4, $5, $6\(table == .supplier ? ", $7" : "")) RETURNING id
                """, binds: binds), logger: self.logger).collect(Int64.self)[0]
            var created = contact
            created.id = ID<Kind>(id)
            try await log.record(table.created, record: .init(table.record, id), subject: created.name)
            return created
        }
    }

    private func updateContact<Kind>(_ contact: Contact<Kind>, table: ContactTable) async throws -> Contact<Kind> {
        let contact = try contact.validated()
        return try await self.write { connection, _, log in
            let found: [Contact<Kind>] = try await self.contacts(connection, table: table, where: "WHERE id = $1 FOR UPDATE", binds: [contact.id.rawValue])
            guard let old = found.first else { throw InventoryError(.notFound, field: "id", "\(table.rawValue) \(contact.id) does not exist") }
            var binds = PostgresBindings()
            for text in [contact.name, contact.location, contact.phone, contact.email, contact.note,
                         SearchText.key(contact.name, contact.location, contact.phone, contact.email)] { binds.append(text) }
            binds.append(contact.id.rawValue)
            if table == .supplier { binds.append(contact.leadTimeDays) }
            try await connection.execute(PostgresQuery(unsafeSQL: """
                UPDATE \(table.rawValue) SET name = $1, location = $2, phone = $3, email = $4, note = $5, searchKey = $6
                \(table == .supplier ? ", leadTimeDays = $8" : "") WHERE id = $7
                """, binds: binds), logger: self.logger)
            try await log.record(table.changed, record: .init(table.record, contact.id.rawValue), subject: contact.name,
                                 changes: ShopActivity.Change.between(old, contact))
            return contact
        }
    }

    private func deleteContact(_ id: Int64, table: ContactTable) async throws {
        try await self.write { connection, _, log in
            var binds = PostgresBindings()
            binds.append(id)
            // The row lock keeps a document from naming the contact between the count and the delete.
            guard let name = try await connection.query(PostgresQuery(unsafeSQL: "SELECT name FROM \(table.rawValue) WHERE id = $1 FOR UPDATE", binds: binds),
                                                        logger: self.logger).collect(String.self).first
            else { throw InventoryError(.notFound, field: "id", "\(table.rawValue) \(id) does not exist") }
            let uses = try await connection.query(PostgresQuery(unsafeSQL: "SELECT COUNT(*) FROM document WHERE \(table.documentColumn) = $1", binds: binds),
                                                  logger: self.logger).collect(Int64.self).first ?? 0
            guard uses == 0 else {
                throw InventoryError(.inUse, field: "id", "this \(table.rawValue) appears on \(uses) document(s) and cannot be deleted")
            }
            try await connection.execute(PostgresQuery(unsafeSQL: "DELETE FROM \(table.rawValue) WHERE id = $1", binds: binds), logger: self.logger)
            try await log.record(table.deleted, record: .init(table.record, id), subject: name)
        }
    }

    private func contacts<Kind>(table: ContactTable, search: String?) async throws -> [Contact<Kind>] {
        _ = try SearchText.words(search)
        return try await self.read { connection in
            guard let search = search?.trimmingCharacters(in: .whitespaces).nilIfEmpty else {
                return try await self.contacts(connection, table: table, where: "ORDER BY lower(name), id", binds: [])
            }
            // The folded key holds the search as a substring: strpos, not LIKE, so no character of it is a pattern.
            var binds = PostgresBindings()
            binds.append(StoredText.bound(SearchText.key(search)))
            return try await self.contacts(connection, table: table, where: "WHERE strpos(searchKey, $1) > 0 ORDER BY lower(name), id", binds: binds)
        }
    }

    private func contacts<Kind>(_ connection: PostgresConnection, table: ContactTable, where tail: String, binds ids: [Int64]) async throws -> [Contact<Kind>] {
        var binds = PostgresBindings()
        for id in ids { binds.append(id) }
        return try await self.contacts(connection, table: table, where: tail, binds: binds)
    }

    private func contacts<Kind>(_ connection: PostgresConnection, table: ContactTable, where tail: String, binds: PostgresBindings) async throws -> [Contact<Kind>] {
        var contacts: [Contact<Kind>] = []
        for try await (id, name, location, phone, email, note, leadTimeDays) in try await connection.query(
            PostgresQuery(unsafeSQL: "SELECT \(table.columns) FROM \(table.rawValue) \(tail)", binds: binds), logger: self.logger
        ).decode((Int64, String, String, String, String, String, Int).self) {
            contacts.append(Contact<Kind>(id: ID<Kind>(id), name: name, location: location, phone: phone, email: email, note: note,
                                          leadTimeDays: leadTimeDays))
        }
        return contacts
    }
}
