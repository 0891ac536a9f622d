import Foundation
import GRDB
import InventoryDomain

// MARK: - CatalogueRepository

extension InventorySQLiteRepository {
    // MARK: - Categories

    public func createCategory(_ category: Category) async throws -> Category {
        let category = try category.validated()
        return try await self.write { db, _, log in
            try Self.requireUniqueCategoryName(db, category.name, except: nil)
            try db.execute(
                sql: "INSERT INTO category (name, color, lowStockThreshold, markup) VALUES (?, ?, ?, ?)",
                arguments: [category.name, category.color, category.lowStockThreshold?.thousandths, category.markup.hundredths])
            var created = category
            created.id = CategoryID(db.lastInsertedRowID)
            try log.record(.categoryCreated, record: .init(.category, created.id.rawValue), subject: created.name)
            return created
        }
    }

    public func updateCategory(_ category: Category) async throws -> Category {
        let category = try category.validated()
        return try await self.write { db, _, log in
            try Self.requireUniqueCategoryName(db, category.name, except: category.id)
            let old = try Row.fetchOne(db, sql: "SELECT id, name, color, lowStockThreshold, markup FROM category WHERE id = ?",
                                       arguments: [category.id.rawValue]).map(Self.category)
            try db.execute(
                sql: "UPDATE category SET name = ?, color = ?, lowStockThreshold = ?, markup = ? WHERE id = ?",
                arguments: [category.name, category.color, category.lowStockThreshold?.thousandths, category.markup.hundredths, category.id.rawValue])
            guard let old, db.changesCount == 1 else { throw InventoryError(.notFound, field: "id", "category \(category.id) does not exist") }
            try log.record(.categoryChanged, record: .init(.category, category.id.rawValue), subject: category.name,
                           changes: ShopActivity.Change.between(old, category))
            return category
        }
    }

    public func deleteCategory(_ id: CategoryID) async throws {
        try await self.write { db, _, log in
            let name = try String.fetchOne(db, sql: "SELECT name FROM category WHERE id = ?", arguments: [id.rawValue])
            try db.execute(sql: "DELETE FROM category WHERE id = ?", arguments: [id.rawValue])
            guard db.changesCount == 1 else { throw InventoryError(.notFound, field: "id", "category \(id) does not exist") }
            try log.record(.categoryDeleted, record: .init(.category, id.rawValue), subject: name)
        }
    }

    public func shelves() async throws -> [Shelf] {
        try await self.read { db in
            try Row.fetchAll(db, sql: """
                SELECT MIN(shelf), COUNT(*) FROM product WHERE shelf IS NOT NULL AND isArchived = 0 GROUP BY shelf ORDER BY shelf
                """).map { Shelf(name: $0[0], products: $0[1]) }
        }
    }

    /// Every category, by name. Each product's stock status needs its category's threshold, so the list is kept for up
    /// to a second (``categoryCache``); a committed change to the `category` table drops it at once.
    public func categories() async throws -> [Category] {
        try await self.categoryCache.value(for: 0) {
            try await self.read { db in
                try Row.fetchAll(db, sql: "SELECT id, name, color, lowStockThreshold, markup FROM category ORDER BY name COLLATE NOCASE")
                    .map(Self.category)
            }
        }!
    }

    static func category(_ row: Row) -> Category {
        Category(
            id: CategoryID(row[0]), name: row[1], color: row[2],
            lowStockThreshold: (row[3] as Int64?).map(Quantity.init(thousandths:)), markup: Percent(hundredths: row[4]))
    }

    static func requireUniqueCategoryName(_ db: Database, _ name: String, except id: CategoryID?) throws {
        if let owner = try Int64.fetchOne(db, sql: "SELECT id FROM category WHERE name = ? COLLATE NOCASE", arguments: [name]),
            owner != id?.rawValue
        {
            throw InventoryError(.duplicate, field: "name", "a category named '\(name)' already exists")
        }
    }

    // MARK: - Contacts

    public func createSupplier(_ supplier: Contact<Supplier>) async throws -> Contact<Supplier> {
        try await self.createContact(supplier, table: "supplier")
    }

    public func updateSupplier(_ supplier: Contact<Supplier>) async throws -> Contact<Supplier> {
        try await self.updateContact(supplier, table: "supplier")
    }

    public func deleteSupplier(_ id: SupplierID) async throws {
        try await self.deleteContact(id.rawValue, table: "supplier", documentColumn: "supplierId")
    }

    public func suppliers(search: String?) async throws -> [Contact<Supplier>] {
        try await self.contacts(table: "supplier", search: search)
    }

    public func createCustomer(_ customer: Contact<Customer>) async throws -> Contact<Customer> {
        try await self.createContact(customer, table: "customer")
    }

    public func updateCustomer(_ customer: Contact<Customer>) async throws -> Contact<Customer> {
        try await self.updateContact(customer, table: "customer")
    }

    public func deleteCustomer(_ id: CustomerID) async throws {
        try await self.deleteContact(id.rawValue, table: "customer", documentColumn: "customerId")
    }

    public func customers(search: String?) async throws -> [Contact<Customer>] {
        try await self.contacts(table: "customer", search: search)
    }

    private func createContact<Kind>(_ contact: Contact<Kind>, table: String) async throws -> Contact<Kind> {
        let contact = try contact.validated()
        return try await self.write { db, _, log in
            try db.execute(
                sql: "INSERT INTO \(table) (name, location, phone, email, note, searchKey) VALUES (?, ?, ?, ?, ?, ?)",
                arguments: [contact.name, contact.location, contact.phone, contact.email, contact.note,
                            Self.searchKey(contact.name, contact.location, contact.phone, contact.email)])
            if table == "supplier" {
                try db.execute(sql: "UPDATE supplier SET leadTimeDays = ? WHERE id = ?", arguments: [contact.leadTimeDays, db.lastInsertedRowID])
            }
            var created = contact
            created.id = ID<Kind>(db.lastInsertedRowID)
            let supplier = table == "supplier"
            try log.record(supplier ? .supplierCreated : .customerCreated, record: .init(supplier ? .supplier : .customer, created.id.rawValue),
                           subject: created.name)
            return created
        }
    }

    private func updateContact<Kind>(_ contact: Contact<Kind>, table: String) async throws -> Contact<Kind> {
        let contact = try contact.validated()
        return try await self.write { db, _, log in
            let old = try Row.fetchOne(db, sql: "SELECT \(Self.contactColumns(table)) FROM \(table) WHERE id = ?",
                                       arguments: [contact.id.rawValue]).map(Self.contact(Kind.self))
            try db.execute(
                sql: "UPDATE \(table) SET name = ?, location = ?, phone = ?, email = ?, note = ?, searchKey = ? WHERE id = ?",
                arguments: [contact.name, contact.location, contact.phone, contact.email, contact.note,
                            Self.searchKey(contact.name, contact.location, contact.phone, contact.email), contact.id.rawValue])
            guard let old, db.changesCount == 1 else { throw InventoryError(.notFound, field: "id", "\(table) \(contact.id) does not exist") }
            if table == "supplier" {
                try db.execute(sql: "UPDATE supplier SET leadTimeDays = ? WHERE id = ?", arguments: [contact.leadTimeDays, contact.id.rawValue])
            }
            let supplier = table == "supplier"
            try log.record(supplier ? .supplierChanged : .customerChanged, record: .init(supplier ? .supplier : .customer, contact.id.rawValue),
                           subject: contact.name, changes: ShopActivity.Change.between(old, contact))
            return contact
        }
    }

    private func deleteContact(_ id: Int64, table: String, documentColumn: String) async throws {
        try await self.write { db, _, log in
            let uses = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM document WHERE \(documentColumn) = ?", arguments: [id]) ?? 0
            guard uses == 0 else {
                throw InventoryError(.inUse, field: "id", "this \(table) appears on \(uses) document(s) and cannot be deleted")
            }
            let name = try String.fetchOne(db, sql: "SELECT name FROM \(table) WHERE id = ?", arguments: [id])
            try db.execute(sql: "DELETE FROM \(table) WHERE id = ?", arguments: [id])
            guard db.changesCount == 1 else { throw InventoryError(.notFound, field: "id", "\(table) \(id) does not exist") }
            let supplier = table == "supplier"
            try log.record(supplier ? .supplierDeleted : .customerDeleted, record: .init(supplier ? .supplier : .customer, id), subject: name)
        }
    }

    private func contacts<Kind>(table: String, search: String?) async throws -> [Contact<Kind>] {
        _ = try SearchText.words(search)
        return try await self.read { db in
            var sql = "SELECT \(Self.contactColumns(table)) FROM \(table)"
            var arguments: StatementArguments = []
            if let search = search?.trimmingCharacters(in: .whitespaces).nilIfEmpty {
                sql += " WHERE searchKey LIKE ? ESCAPE '\\'"
                arguments = [Self.likePattern(search)]
            }
            sql += " ORDER BY name COLLATE NOCASE, id"
            return try Row.fetchAll(db, sql: sql, arguments: arguments).map(Self.contact(Kind.self))
        }
    }

    /// A contact table's columns: customers have no lead time (read as 0).
    static func contactColumns(_ table: String) -> String {
        "id, name, location, phone, email, note, \(table == "supplier" ? "leadTimeDays" : "0 AS leadTimeDays")"
    }

    /// Reads a row of ``contactColumns(_:)``.
    static func contact<Kind>(_ kind: Kind.Type) -> @Sendable (Row) -> Contact<Kind> {
        { row in
            Contact<Kind>(id: ID<Kind>(row["id"]), name: row["name"], location: row["location"], phone: row["phone"], email: row["email"],
                          note: row["note"], leadTimeDays: row["leadTimeDays"])
        }
    }

    // MARK: - Products

    static let productColumns = """
        p.id, p.name, p.sku, p.barcode, p.categoryId, p.unit, \(Self.pictureListColumn), p.salePrice, p.minimumSalePrice, p.taxRate,
        p.lowStockThreshold, p.tracksStock, p.allowsNegativeStock, p.iconEmoji, p.isArchived, p.createdAt, p.updatedAt,
        p.quantity, p.value, p.averageCost, p.preferredSupplierId, p.supplierCode, p.packSize, p.description, p.shelf
        """

    /// The barcode lookup's statement (one text, so it is neither built nor hashed anew beyond the statement cache's key).
    static let productByBarcodeSQL = "SELECT \(productColumns) FROM product p WHERE barcode = ?"
    static let productByIDSQL = "SELECT \(productColumns) FROM product p WHERE id = ?"
    static let productBySKUSQL = "SELECT \(productColumns) FROM product p WHERE sku = ?"

    /// A product from a row of ``productColumns``, read by position (GRDB finds a column by name by comparing it with
    /// every column's name, case-insensitively: a measurable part of a barcode lookup): a GRDB `Row`, or the current
    /// row of a statement (``StatementColumns``).
    static func product(_ row: some ColumnsByPosition) -> Product {
        let details = ProductDetails(
            name: row[1], sku: row[2], barcode: row[3], categoryID: (row[4] as Int64?).map(CategoryID.init(rawValue:)),
            unit: row[5], salePrice: Money(minorUnits: row[7]),
            minimumSalePrice: (row[8] as Int64?).map(Money.init(minorUnits:)), taxRate: Percent(hundredths: row[9]),
            lowStockThreshold: (row[10] as Int64?).map(Quantity.init(thousandths:)), tracksStock: row[11],
            allowsNegativeStock: row[12], iconEmoji: row[13], isArchived: row[14],
            preferredSupplierID: (row[20] as Int64?).map(SupplierID.init(rawValue:)), supplierCode: row[21],
            packSize: Quantity(thousandths: row[22]), description: row[23], shelf: row[24])
        return Product(
            id: ProductID(row[0]), details: details,
            stock: LedgerBalance(quantity: Quantity(thousandths: row[17]), value: Money(minorUnits: row[18]), averageCost: UnitCost(scaled: row[19])),
            createdAt: row[15], updatedAt: row[16], pictures: Self.pictureList(row[6]))
    }

    static func fetchProduct(_ db: Database, _ id: ProductID) throws -> Product {
        // Read from the statement's row, as the barcode lookup reads (every write of a product reads it back).
        guard let product = try db.cachedStatement(sql: Self.productByIDSQL).firstRow(id: id.rawValue, { Self.product($0) }) else {
            throw InventoryError(.notFound, field: "productId", "product \(id) does not exist")
        }
        return product
    }

    /// Refuses a barcode or SKU another product owns, naming that product, and a category or supplier that does not
    /// exist (the rule: ``ProductDetails/checkReferences(of:barcodeOwner:skuOwner:categoryExists:supplierExists:)``).
    static func requireUnique(_ db: Database, _ details: ProductDetails, except id: ProductID?) throws {
        func owner(_ column: String, _ value: String?) throws -> ProductCodeOwner? {
            guard let value,
                  let row = try Row.fetchOne(db.cachedStatement(sql: "SELECT id, name FROM product WHERE \(column) = ?"), arguments: [value])
            else { return nil }
            return ProductCodeOwner(id: ProductID(row[0]), name: row[1])
        }
        func exists(_ table: String, _ id: Int64?) throws -> Bool {
            guard let id else { return true }
            return try Int.fetchOne(db.cachedStatement(sql: "SELECT COUNT(*) FROM \(table) WHERE id = ?"), arguments: [id]) != 0
        }
        try details.checkReferences(of: id, barcodeOwner: try owner("barcode", details.barcode), skuOwner: try owner("sku", details.sku),
                                    categoryExists: try exists("category", details.categoryID?.rawValue),
                                    supplierExists: try exists("supplier", details.preferredSupplierID?.rawValue))
    }

    /// Inserts a validated product inside a transaction.
    static func insertProduct(_ db: Database, _ details: ProductDetails) throws -> ProductID {
        try self.requireUnique(db, details, except: nil)
        let now = Self.now
        try db.cachedStatement(sql: """
            INSERT INTO product (name, searchKey, sku, barcode, categoryId, unit, salePrice, minimumSalePrice, taxRate,
                lowStockThreshold, tracksStock, allowsNegativeStock, iconEmoji, isArchived,
                preferredSupplierId, supplierCode, packSize, description, shelf, createdAt, updatedAt)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """).execute(arguments: self.productArguments(details) + [now, now])
        return ProductID(db.lastInsertedRowID)
    }

    static func productArguments(_ details: ProductDetails) -> StatementArguments {
        [
            details.name, self.searchKey(details.name, details.sku, details.barcode), details.sku, details.barcode,
            details.categoryID?.rawValue, details.unit, details.salePrice.minorUnits,
            details.minimumSalePrice?.minorUnits, details.taxRate.hundredths, details.lowStockThreshold?.thousandths,
            details.tracksStock, details.allowsNegativeStock, details.iconEmoji, details.isArchived,
            details.preferredSupplierID?.rawValue, details.supplierCode, details.packSize.thousandths, details.description, details.shelf,
        ]
    }

    public func createProduct(_ details: ProductDetails) async throws -> Product {
        let details = try details.validated()
        return try await self.write { db, _, log in
            let id = try Self.insertProduct(db, details)
            try log.recordProductCreated(id, details)
            return try Self.fetchProduct(db, id)
        }
    }

    public func updateProduct(_ id: ProductID, _ details: ProductDetails) async throws -> Product {
        let details = try details.validated()
        return try await self.write { db, settings, log in
            let old = try Self.fetchProduct(db, id)
            let product = try Self.replaceProduct(db, settings, id, details, old: old)
            try log.recordProductChanged(old: old, new: product)
            return product
        }
    }

    public func updateProduct(_ id: ProductID, applying patch: ProductPatch) async throws -> Product {
        try await self.write { db, settings, log in
            let old = try Self.fetchProduct(db, id)
            let product = try Self.replaceProduct(db, settings, id, try patch.applied(to: old.details).validated(), old: old)
            try log.recordProductChanged(old: old, new: product)
            return product
        }
    }

    /// Stores a product's validated fields over `old`, replaying its ledger when the costing rules changed.
    static func replaceProduct(_ db: Database, _ settings: ShopSettings, _ id: ProductID, _ details: ProductDetails, old: Product) throws -> Product {
        try Self.requireUnique(db, details, except: id)
        try details.checkStockKeeping(from: old.details, isRecipe: !Self.recipe(db, id).isEmpty)
        try db.cachedStatement(sql: """
            UPDATE product SET name = ?, searchKey = ?, sku = ?, barcode = ?, categoryId = ?, unit = ?,
                salePrice = ?, minimumSalePrice = ?, taxRate = ?, lowStockThreshold = ?, tracksStock = ?,
                allowsNegativeStock = ?, iconEmoji = ?, isArchived = ?,
                preferredSupplierId = ?, supplierCode = ?, packSize = ?, description = ?, shelf = ?, updatedAt = ?
            WHERE id = ?
            """).execute(arguments: Self.productArguments(details) + [Self.now, id.rawValue])
        if details.changesCosting(from: old.details),
            let first = try Row.fetchOne(db.cachedStatement(sql: """
                SELECT effectiveAt, documentId, lineNo FROM movement WHERE productId = ?
                ORDER BY effectiveAt, documentId, lineNo LIMIT 1
                """), arguments: [id.rawValue])
        {
            // The costing rules changed: replay the whole ledger (refused if stock would now go negative).
            let writer = LedgerWriter(db, calendar: settings.calendar)
            try writer.recost(id, from: LedgerPosition(effectiveAt: first[0], sequence: first[1], lineNo: first[2]),
                              blame: "allowsNegativeStock")
            try writer.flush()
        }
        return try Self.fetchProduct(db, id)
    }

    public func deleteProduct(_ id: ProductID) async throws {
        try await self.write { db, _, log in
            let product = try Self.fetchProduct(db, id)
            let uses = try Int.fetchOne(db.cachedStatement(sql: "SELECT COUNT(*) FROM movement WHERE productId = ?"), arguments: [id.rawValue]) ?? 0
            try product.checkDeletable(movements: uses)
            try db.cachedStatement(sql: "DELETE FROM product WHERE id = ?").execute(arguments: [id.rawValue])
            try log.record(.productDeleted, record: .init(.product, id.rawValue), productIDs: [id], subject: product.name)
        }
    }

    public func product(_ id: ProductID) async throws -> Product {
        try await self.read { db in try Self.fetchProduct(db, id) }
    }

    public func product(barcode: String) async throws -> Product? {
        let candidates = Barcode.lookupCandidates(barcode)
        guard !candidates.isEmpty else { return nil }
        return try self.readHere { db in
            let statement = try db.cachedStatement(sql: Self.productByBarcodeSQL)
            for candidate in candidates {
                // The product is read from the statement's current row: a cursor of GRDB rows would first build a
                // table of the 25 columns' lower-cased names for each lookup, about a tenth of a lookup's instructions.
                if let product = try statement.firstRow(text: candidate, { Self.product($0) }) { return product }
            }
            return nil
        }
    }

    public func product(sku: String) async throws -> Product? {
        let sku = ProductQuery.skuLookup(sku)
        return try await self.read { db in
            try Row.fetchOne(db.cachedStatement(sql: Self.productBySKUSQL), arguments: [sku]).map(Self.product)
        }
    }

    public func products(_ query: ProductQuery) async throws -> (products: [Product], total: Int) {
        let words = try query.searchWords()
        let search = Self.indexedSearch(query)
        // A search the index answers, with an index at hand that needs no check: the page's rows are point reads, on a
        // point reader, on a thread of Dispatch's pool (``readElsewhere(_:)``): one hop out and one back. Never on
        // the calling thread, an event loop: a page read there made lookups wait behind searches, p99 5 ms -> 12 ms
        // (BENCHMARKS.md).
        if let search, self.pointReaders != nil, let index = self.searchIndex.fresh() {
            return try await self.readElsewhere { db in try Self.indexedPage(db, index, query, search: search, words: words) }
        }
        return try await self.read { db in
            // Otherwise the index is checked or read in GRDB's read transaction, or, while another search reads it, the
            // database answers.
            if let search, let index = try self.searchIndex.index(db) {
                return try Self.indexedPage(db, index, query, search: search, words: words)
            }
            return try Self.productsBySQL(db, query, words: words)
        }
    }

    /// The search text when the index in memory answers `query`: a search listed by name. (Control characters, which
    /// SQLite's LIKE reads only up to a NUL, and the stock filter go to SQL.)
    static func indexedSearch(_ query: ProductQuery) -> String? {
        guard query.sort == .name, query.status == nil, let search = query.searchText,
            !search.unicodeScalars.contains(where: { $0.value < 0x20 })
        else { return nil }
        return search
    }

    /// A page of a search from the index, its products read by id.
    static func indexedPage(
        _ db: Database, _ index: ProductSearchIndex, _ query: ProductQuery, search: String, words: [String]
    ) throws -> (products: [Product], total: Int) {
        let page = index.search(
            search, words: words, includeArchived: query.includeArchived, categoryID: query.categoryID?.rawValue,
            offset: query.pageOffset, limit: query.pageLimit)
        return (try Self.fetchProducts(db, page.ids), page.total)
    }

    /// The products with these ids, in this order (an id no longer there is left out).
    static func fetchProducts(_ db: Database, _ ids: [Int64]) throws -> [Product] {
        // On a point reader (``readElsewhere(_:)``: no transaction around the body) the page is read in one snapshot,
        // in a deferred transaction on cached statements: otherwise each point read opens a snapshot of its own (on a
        // page of 50, about 100,000 more instructions than the two statements).
        if !db.isInsideTransaction && ids.count > 1 {
            try db.cachedStatement(sql: "BEGIN DEFERRED TRANSACTION").execute()
            defer {
                do { try db.cachedStatement(sql: "COMMIT TRANSACTION").execute() } catch { try? db.rollback() }
            }
            return try Self.fetchProducts(db, ids)
        }
        // One point read per id on one cached statement, each row read from the statement itself (as the barcode
        // lookup reads): `IN (?, …)` built an ephemeral index of the ids, and a cursor of GRDB rows a table of the
        // columns' names, for a page of 8 about twice the instructions.
        let statement = try db.cachedStatement(sql: Self.productByIDSQL)
        var products: [Product] = []
        products.reserveCapacity(ids.count)
        for id in ids {
            if let product = try statement.firstRow(id: id, { Self.product($0) }) { products.append(product) }
        }
        return products
    }

    /// ``products(_:)`` in SQL alone: the answer for every query the search index does not take, and what
    /// `SQLiteSpecificTests.theSearchIndexAnswersWhatTheSQLAnswers` holds the index to.
    static func productsBySQL(_ db: Database, _ query: ProductQuery, words: [String]) throws -> (products: [Product], total: Int) {
        do {
            var conditions: [String] = []
            var arguments: StatementArguments = []
            if !query.includeArchived { conditions.append("p.isArchived = 0") }
            if let search = query.searchText {
                for word in words {
                    // Three characters or more, without LIKE's wildcards: the trigram index finds the candidates, as a
                    // phrase (with the trigram tokenizer a phrase of 3+ characters matches every text containing it;
                    // MATCH reads only the index, where LIKE on the FTS table re-reads each candidate's text: 0.85 ms
                    // against 3.9 ms for 400 hits in 10,000 names). The same LIKE on the product row confirms each, so
                    // the answer never depends on the index.
                    let folded = Self.searchKey(word)
                    // (FTS5 reads a query only up to a NUL: a word with control characters is left to LIKE alone.)
                    if folded.count >= 3 && !folded.contains(where: { "%_\\".contains($0) })
                        && !folded.unicodeScalars.contains(where: { $0.value < 0x20 }) {
                        conditions.append("p.id IN (SELECT rowid FROM productSearch WHERE productSearch MATCH ?)")
                        arguments += ["\"" + folded.replacingOccurrences(of: "\"", with: "\"\"") + "\""]
                    }
                    conditions.append("p.searchKey LIKE ? ESCAPE '\\'")
                    arguments += [Self.likePattern(word)]
                }
                let candidates = Barcode.lookupCandidates(search)
                if !candidates.isEmpty {
                    let placeholders = candidates.map { _ in "?" }.joined(separator: ", ")
                    let matchAll = conditions.joined(separator: " AND ")
                    conditions = ["((\(matchAll)) OR p.barcode IN (\(placeholders)))"]
                    arguments += StatementArguments(candidates)
                }
            }
            if let category = query.categoryID {
                conditions.append("p.categoryId = ?")
                arguments += [category.rawValue]
            }
            if let status = query.status {
                let settings = try Self.loadSettings(db)
                conditions.append("\(Self.stockStatusSQL(shopDefault: settings.lowStockDefault)) = ?")
                arguments += [status.rawValue]
            }
            let whereClause = conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ")
            let from = "FROM product p LEFT JOIN category c ON c.id = p.categoryId \(whereClause)"
            var order: String
            var orderArguments: StatementArguments = []
            switch query.sort {
            case .name: order = "p.name COLLATE NOCASE, p.id"
            case .quantity: order = "p.quantity DESC, p.id"
            case .value: order = "p.value DESC, p.id"
            case .salePrice: order = "p.salePrice DESC, p.id"
            case .updated: order = "p.updatedAt DESC, p.id"
            }
            // A search listed by name puts the best matches first: the exact barcode or SKU, then names that start with
            // the search, then names with a word that starts with it, then the rest (each group by name).
            if query.sort == .name, let search = query.searchText {
                let escaped = Self.likeEscaped(search)
                let candidates = Barcode.lookupCandidates(search)
                let barcode = candidates.isEmpty ? "0" : "p.barcode IN (\(candidates.map { _ in "?" }.joined(separator: ", ")))"
                order = """
                    CASE WHEN \(barcode) OR p.sku = ? COLLATE NOCASE THEN 0 WHEN p.searchKey LIKE ? ESCAPE '\\' THEN 1
                    WHEN ' ' || p.searchKey LIKE ? ESCAPE '\\' THEN 2 ELSE 3 END, \(order)
                    """
                orderArguments = StatementArguments(candidates) + [search, escaped + "%", "% " + escaped + "%"]
            }
            // The page and the number of matches in one pass (a window over every match, taken before LIMIT): the
            // search's conditions are evaluated once, not once for the count and again for the page.
            let rows = try Row.fetchAll(
                db, sql: "SELECT \(Self.productColumns), COUNT(*) OVER () AS matches \(from) ORDER BY \(order) LIMIT ? OFFSET ?",
                arguments: arguments + orderArguments + [query.pageLimit, query.pageOffset])
            // A page past the end has no row to carry the count.
            let total = try rows.first.map { $0["matches"] as Int }
                ?? Int.fetchOne(db, sql: "SELECT COUNT(*) \(from)", arguments: arguments) ?? 0
            return (rows.map(Self.product), total)
        }
    }

    /// ``products(_:)`` answered by SQL alone, for tests that compare it with the search index.
    public func testOnly_productsBySQL(_ query: ProductQuery) async throws -> (products: [Product], total: Int) {
        let words = try query.searchWords()
        return try await self.read { db in try Self.productsBySQL(db, query, words: words) }
    }

    public func movements(productID: ProductID) async throws -> [StockMovement] {
        try await self.read { db in
            _ = try Self.fetchProduct(db, productID)
            return try Row.fetchAll(
                db, sql: "SELECT \(Self.movementColumns) FROM movement m JOIN document d ON d.id = m.documentId WHERE m.productId = ? ORDER BY m.effectiveAt, m.documentId, m.lineNo",
                arguments: [productID.rawValue]
            ).map(Self.movement)
        }
    }

    static let movementColumns = """
        m.id, m.productId, m.kind, m.documentId, m.effectiveAt, m.lineNo, m.recordedAt, m.quantity, m.unitAmount, m.revenue,
        m.tax, m.valueChange, m.costAdjustment, m.quantityAfter, m.valueAfter, m.averageCostAfter, d.reason, m.discount, m.taxRate, m.beyondStock
        """

    static func movement(_ row: Row) -> StockMovement {
        StockMovement(
            id: MovementID(row[0]), productID: ProductID(row[1]), kind: MovementKind(rawValue: row[2]) ?? .adjustment,
            documentID: row[3], position: LedgerPosition(effectiveAt: row[4], sequence: row[3], lineNo: row[5]),
            recordedAt: row[6], quantity: Quantity(thousandths: row[7]), unitAmount: Money(minorUnits: row[8]),
            revenue: Money(minorUnits: row[9]), tax: Money(minorUnits: row[10]), valueChange: Money(minorUnits: row[11]),
            costAdjustment: Money(minorUnits: row[12]),
            balance: LedgerBalance(quantity: Quantity(thousandths: row[13]), value: Money(minorUnits: row[14]), averageCost: UnitCost(scaled: row[15])),
            reason: (row[16] as String?).flatMap(AdjustmentReason.init(rawValue:)), discount: Money(minorUnits: row[17]),
            taxRate: Percent(hundredths: row[18]), beyondStock: row[19])
    }
}
