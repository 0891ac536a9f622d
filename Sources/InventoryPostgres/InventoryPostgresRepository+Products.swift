import Foundation
import InventoryDomain
import InventoryStore
import PostgresNIO

/// Products (``CatalogueRepository``): create, edit, patch, delete, the lookups by id, barcode and SKU, the product list
/// with its search, the shelves, a product's ledger, and re-pricing when the prices' meaning changes. The rules are
/// the domain's (`CatalogueRules.swift`); this file reads, locks and writes.
///
/// Locking: a write that reads a product and writes from what it read locks the product's row first (`FOR UPDATE`, in
/// a statement of its own, so the read after it sees whatever committed before the lock was granted); a barcode or a
/// SKU being given is locked by value (an advisory lock), so two instances cannot both find it free; a category or
/// supplier a product is given is share-locked until the commit, so it cannot go between the check and the write.
extension InventoryPostgresRepository: CatalogueRepository {
    /// The columns ``product(_:)`` reads, over `product p`: the pictures as one array in their order.
    static let productColumns: StaticString = """
        p.id, p.name, p.sku, p.barcode, p.categoryId, p.unit,
        (SELECT array_agg(pp.name ORDER BY pp.position) FROM productPicture pp WHERE pp.productId = p.id),
        p.salePrice, p.minimumSalePrice, p.taxRate, p.lowStockThreshold, p.tracksStock, p.allowsNegativeStock, p.iconEmoji, p.isArchived,
        p.createdAt, p.updatedAt, p.quantity, p.value, p.averageCost, p.preferredSupplierId, p.supplierCode, p.packSize, p.description, p.shelf
        """

    /// A product from a row starting with ``productColumns``.
    static func product(_ row: PostgresRow) throws -> Product {
        let row = row.makeRandomAccess()
        let details = ProductDetails(
            name: try row[1].decode(String.self), sku: try row[2].decode(String?.self), barcode: try row[3].decode(String?.self),
            categoryID: try row[4].decode(Int64?.self).map(CategoryID.init(rawValue:)), unit: try row[5].decode(String.self),
            salePrice: Money(minorUnits: try row[7].decode(Int64.self)),
            minimumSalePrice: try row[8].decode(Int64?.self).map(Money.init(minorUnits:)), taxRate: Percent(hundredths: try row[9].decode(Int64.self)),
            lowStockThreshold: try row[10].decode(Int64?.self).map(Quantity.init(thousandths:)), tracksStock: try row[11].decode(Bool.self),
            allowsNegativeStock: try row[12].decode(Bool.self), iconEmoji: try row[13].decode(String.self), isArchived: try row[14].decode(Bool.self),
            preferredSupplierID: try row[20].decode(Int64?.self).map(SupplierID.init(rawValue:)), supplierCode: try row[21].decode(String?.self),
            packSize: Quantity(thousandths: try row[22].decode(Int64.self)), description: try row[23].decode(String.self),
            shelf: try row[24].decode(String?.self))
        return Product(
            id: ProductID(try row[0].decode(Int64.self)), details: details,
            stock: LedgerBalance(quantity: Quantity(thousandths: try row[17].decode(Int64.self)), value: Money(minorUnits: try row[18].decode(Int64.self)),
                                 averageCost: UnitCost(scaled: try row[19].decode(Int64.self))),
            createdAt: try row[15].decode(Instant.self).milliseconds, updatedAt: try row[16].decode(Instant.self).milliseconds,
            pictures: try row[6].decode([String]?.self) ?? [])
    }

    /// The products a query of ``productColumns`` answers, in its order.
    func products(_ connection: PostgresConnection, _ statement: PreparedSQL) async throws -> [Product] {
        var products: [Product] = []
        for try await row in try await connection.prepared(statement, logger: self.logger) { products.append(try Self.product(row)) }
        return products
    }

    /// One product. - Throws: `notFound` on `productId`.
    func fetchProduct(_ connection: PostgresConnection, _ id: ProductID) async throws -> Product {
        guard let product = try await self.products(connection, "SELECT \(constant: Self.productColumns) FROM product p WHERE p.id = \(id.rawValue)").first
        else { throw InventoryError(.notFound, field: "productId", "product \(id) does not exist") }
        return product
    }

    /// Locks a product's row until the commit, then reads it (in a statement of its own, so it is read as it is once
    /// the lock is granted). - Throws: `notFound` on `productId`.
    func lockProduct(_ connection: PostgresConnection, _ id: ProductID) async throws -> Product {
        let locked = try await connection.prepared("SELECT id FROM product WHERE id = \(id.rawValue) FOR UPDATE", logger: self.logger).collect(Int64.self)
        guard !locked.isEmpty else { throw InventoryError(.notFound, field: "productId", "product \(id) does not exist") }
        return try await self.fetchProduct(connection, id)
    }

    /// Holds an advisory lock on `key` until the commit (one key per value: a barcode, a SKU).
    func lockValue(_ connection: PostgresConnection, _ key: String) async throws {
        try await connection.run("SELECT pg_advisory_xact_lock(hashtext(\(key)))", logger: self.logger)
    }

    /// Checks a product's barcode, SKU, category and supplier (the rule:
    /// ``ProductDetails/checkReferences(of:barcodeOwner:skuOwner:categoryExists:supplierExists:)``), holding what it
    /// found until the commit: the codes by value, the category and supplier rows against deletion.
    func checkReferences(_ connection: PostgresConnection, _ details: ProductDetails, of id: ProductID?) async throws {
        func owner(_ column: String, _ value: String?) async throws -> ProductCodeOwner? {
            guard let value = StoredText.bound(value) else { return nil }
            try await self.lockValue(connection, "stockroom-product-\(column):" + value)
            var statement = PreparedSQL(shape: "SELECT id, name FROM product WHERE \(column) = $1")
            statement.bind(value)
            for try await (id, name) in try await connection.prepared(statement, logger: self.logger).decode((Int64, String).self) {
                return ProductCodeOwner(id: ProductID(id), name: name)
            }
            return nil
        }
        func exists(_ table: String, _ id: Int64?) async throws -> Bool {
            guard let id else { return true }
            var statement = PreparedSQL(shape: "SELECT id FROM \(table) WHERE id = $1 FOR KEY SHARE")
            statement.bind(id)
            let found = try await connection.prepared(statement, logger: self.logger).collect(Int64.self)
            return !found.isEmpty
        }
        try details.checkReferences(of: id, barcodeOwner: try await owner("barcode", details.barcode), skuOwner: try await owner("sku", details.sku),
                                    categoryExists: try await exists("category", details.categoryID?.rawValue),
                                    supplierExists: try await exists("supplier", details.preferredSupplierID?.rawValue))
    }

    /// Binds the editable columns' values (each text as SQLite receives it: ``StoredText/bound(_:)-(String)``), in the order of ``insertProduct(_:_:)``'s and ``replaceProduct(_:_:_:old:)``'s columns.
    static func bindProduct(_ details: ProductDetails, to statement: inout PreparedSQL) {
        statement.bind(StoredText.bound(details.name))
        statement.bind(StoredText.bound(SearchText.key(details.name, details.sku, details.barcode)))
        statement.bind(StoredText.bound(details.sku))
        statement.bind(StoredText.bound(details.barcode))
        statement.bind(details.categoryID?.rawValue)
        statement.bind(StoredText.bound(details.unit))
        statement.bind(details.salePrice.minorUnits)
        statement.bind(details.minimumSalePrice?.minorUnits)
        statement.bind(details.taxRate.hundredths)
        statement.bind(details.lowStockThreshold?.thousandths)
        statement.bind(details.tracksStock)
        statement.bind(details.allowsNegativeStock)
        statement.bind(StoredText.bound(details.iconEmoji))
        statement.bind(details.isArchived)
        statement.bind(details.preferredSupplierID?.rawValue)
        statement.bind(StoredText.bound(details.supplierCode))
        statement.bind(details.packSize.thousandths)
        statement.bind(StoredText.bound(details.description))
        statement.bind(StoredText.bound(details.shelf))
    }

    /// Inserts validated details (checked and locked first) and answers the new product's id.
    func insertProduct(_ connection: PostgresConnection, _ details: ProductDetails) async throws -> ProductID {
        try await self.checkReferences(connection, details, of: nil)
        var statement = PreparedSQL(shape: """
            INSERT INTO product (name, searchKey, sku, barcode, categoryId, unit, salePrice, minimumSalePrice, taxRate,
                lowStockThreshold, tracksStock, allowsNegativeStock, iconEmoji, isArchived,
                preferredSupplierId, supplierCode, packSize, description, shelf, createdAt, updatedAt)
            VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $20) RETURNING id
            """)
        Self.bindProduct(details, to: &statement)
        statement.bind(Self.now)
        let id = try await connection.prepared(statement, logger: self.logger).collect(Int64.self)[0]
        return ProductID(id)
    }

    public func createProduct(_ details: ProductDetails) async throws -> Product {
        let details = try details.validated()
        return try await self.write { connection, _, log in
            let id = try await self.insertProduct(connection, details)
            try await log.recordProductCreated(id, details)
            return try await self.fetchProduct(connection, id)
        }
    }

    public func updateProduct(_ id: ProductID, _ details: ProductDetails) async throws -> Product {
        let details = try details.validated()
        return try await self.write { connection, settings, log in
            let old = try await self.lockProduct(connection, id)
            let product = try await self.replaceProduct(connection, settings, id, details, old: old)
            try await log.recordProductChanged(old: old, new: product)
            return product
        }
    }

    public func updateProduct(_ id: ProductID, applying patch: ProductPatch) async throws -> Product {
        try await self.write { connection, settings, log in
            let old = try await self.lockProduct(connection, id)
            let product = try await self.replaceProduct(connection, settings, id, try patch.applied(to: old.details).validated(), old: old)
            try await log.recordProductChanged(old: old, new: product)
            return product
        }
    }

    /// Stores a locked product's validated fields over `old`, replaying its ledger when the costing rules changed.
    func replaceProduct(_ connection: PostgresConnection, _ settings: ShopSettings, _ id: ProductID, _ details: ProductDetails, old: Product) async throws -> Product {
        try await self.checkReferences(connection, details, of: id)
        let isRecipe = try await connection.prepared("SELECT EXISTS (SELECT 1 FROM recipeComponent WHERE productId = \(id.rawValue))", logger: self.logger)
            .collect(Bool.self).first ?? false
        try details.checkStockKeeping(from: old.details, isRecipe: isRecipe)
        var statement = PreparedSQL(shape: """
            UPDATE product SET name = $1, searchKey = $2, sku = $3, barcode = $4, categoryId = $5, unit = $6,
                salePrice = $7, minimumSalePrice = $8, taxRate = $9, lowStockThreshold = $10, tracksStock = $11,
                allowsNegativeStock = $12, iconEmoji = $13, isArchived = $14,
                preferredSupplierId = $15, supplierCode = $16, packSize = $17, description = $18, shelf = $19, updatedAt = $20
            WHERE id = $21
            """)
        Self.bindProduct(details, to: &statement)
        statement.bind(Self.now)
        statement.bind(id.rawValue)
        try await connection.run(statement, logger: self.logger)
        if details.changesCosting(from: old.details) {
            var first: (Instant, Int64, Int)?
            for try await row in try await connection.prepared("""
                SELECT effectiveAt, documentId, lineNo FROM movement WHERE productId = \(id.rawValue)
                ORDER BY effectiveAt, documentId, lineNo LIMIT 1
                """, logger: self.logger).decode((Instant, Int64, Int).self) { first = row }
            if let first {
                // The costing rules changed: replay the whole ledger (refused if stock would now go negative).
                let writer = PostgresLedgerWriter(connection, calendar: settings.calendar, logger: self.logger)
                try await writer.recost(id, from: LedgerPosition(effectiveAt: first.0.milliseconds, sequence: first.1, lineNo: first.2),
                                        blame: "allowsNegativeStock")
                try await writer.flush()
            }
        }
        return try await self.fetchProduct(connection, id)
    }

    public func deleteProduct(_ id: ProductID) async throws {
        try await self.write { connection, _, log in
            // The row lock keeps a document from booking the product between the count and the delete.
            let product = try await self.lockProduct(connection, id)
            let uses = try await connection.prepared("SELECT COUNT(*) FROM movement WHERE productId = \(id.rawValue)", logger: self.logger)
                .collect(Int64.self).first ?? 0
            try product.checkDeletable(movements: Int(uses))
            try await connection.run("DELETE FROM product WHERE id = \(id.rawValue)", logger: self.logger)
            try await log.record(.productDeleted, record: .init(.product, id.rawValue), productIDs: [id], subject: product.name)
        }
    }

    // The lookups are one statement each, so one snapshot without a transaction around it: a round trip instead of three.

    public func product(_ id: ProductID) async throws -> Product {
        try await self.statement { connection in try await self.fetchProduct(connection, id) }
    }

    public func product(barcode: String) async throws -> Product? {
        let candidates = Barcode.lookupCandidates(barcode)
        guard !candidates.isEmpty else { return nil }
        return try await self.statement { connection in
            // The first candidate a product holds, as SQLite tries them in turn.
            try await self.products(connection, """
                SELECT \(constant: Self.productColumns) FROM product p WHERE p.barcode = ANY(\(candidates))
                ORDER BY array_position(\(candidates), p.barcode) LIMIT 1
                """).first
        }
    }

    public func product(sku: String) async throws -> Product? {
        let sku = StoredText.bound(ProductQuery.skuLookup(sku))
        return try await self.statement { connection in
            try await self.products(connection, "SELECT \(constant: Self.productColumns) FROM product p WHERE p.sku = \(sku)").first
        }
    }

    /// SQLite's `COLLATE NOCASE` on an expression: only A–Z folded, then compared byte by byte (`COLLATE "C"`), so
    /// lists come in SQLite's order whatever the database's collation.
    static func nocase(_ expression: String) -> String {
        "translate(\(expression), 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'abcdefghijklmnopqrstuvwxyz') COLLATE \"C\""
    }

    public func products(_ query: ProductQuery) async throws -> (products: [Product], total: Int) {
        let words = try query.searchWords()
        return try await self.read { connection in
            var binds = PostgresBindings()
            func bind(_ text: String) -> String {
                binds.append(text)
                return "$\(binds.count)"
            }
            func bindList(_ texts: [String]) -> String {
                binds.append(texts)
                return "$\(binds.count)"
            }
            /// `LIKE` with the pattern as SQLite receives it: up to its first NUL, if any ("%caf\0e%" is "%caf").
            func like(_ expression: String, _ pattern: String) -> String {
                "\(expression) LIKE \(bind(StoredText.bound(pattern))) ESCAPE '\\'"
            }
            var conditions: [String] = []
            if !query.includeArchived { conditions.append("NOT p.isArchived") }
            if let search = query.searchText {
                // Each word a substring of the folded key: LIKE with the wildcards escaped, which the trigram index
                // (product_search, gin_trgm_ops) answers for a word of three characters or more.
                for word in words { conditions.append(like("p.searchKey", SearchText.likePattern(word))) }
                let candidates = Barcode.lookupCandidates(search)
                if !candidates.isEmpty {
                    // The exact barcode finds its product whatever else the list asks (archived too), as on SQLite.
                    let matchAll = conditions.isEmpty ? "true" : conditions.joined(separator: " AND ")
                    conditions = ["((\(matchAll)) OR p.barcode = ANY(\(bindList(candidates))))"]
                }
            }
            if let category = query.categoryID {
                binds.append(category.rawValue)
                conditions.append("p.categoryId = $\(binds.count)")
            }
            if let status = query.status {
                let settings = try await Self.loadSettings(connection, logger: self.logger)
                conditions.append("\(InventorySQLiteRepository.stockStatusSQL(shopDefault: settings.lowStockDefault)) = \(bind(status.rawValue))")
            }
            let whereClause = conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ")
            let from = "FROM product p LEFT JOIN category c ON c.id = p.categoryId \(whereClause)"
            let filterBinds = binds
            var order: String
            switch query.sort {
            case .name: order = "\(Self.nocase("p.name")), p.id"
            case .quantity: order = "p.quantity DESC, p.id"
            case .value: order = "p.value DESC, p.id"
            case .salePrice: order = "p.salePrice DESC, p.id"
            case .updated: order = "p.updatedAt DESC, p.id"
            }
            // A search listed by name puts the best matches first: the exact barcode or SKU, then names that start with
            // the search, then names with a word that starts with it, then the rest (each group by name).
            if query.sort == .name, let search = query.searchText {
                let escaped = SearchText.likeEscaped(search)
                let candidates = Barcode.lookupCandidates(search)
                let barcode = candidates.isEmpty ? "false" : "p.barcode = ANY(\(bindList(candidates)))"
                let sku = "\(Self.nocase("p.sku")) = \(Self.nocase(bind(StoredText.bound(search))))"
                order = """
                    CASE WHEN \(barcode) OR \(sku) THEN 0 WHEN \(like("p.searchKey", escaped + "%")) THEN 1
                    WHEN \(like("(' ' || p.searchKey)", "% " + escaped + "%")) THEN 2 ELSE 3 END, \(order)
                    """
            }
            binds.append(query.pageLimit)
            binds.append(query.pageOffset)
            // The page and the number of matches in one pass (a window over every match, taken before LIMIT).
            var products: [Product] = []
            var total: Int?
            for try await row in try await connection.query(PostgresQuery(unsafeSQL: """
                SELECT \(Self.productColumns), COUNT(*) OVER () \(from) ORDER BY \(order) LIMIT $\(binds.count - 1) OFFSET $\(binds.count)
                """, binds: binds), logger: self.logger) {
                products.append(try Self.product(row))
                if total == nil { total = Int(try row.makeRandomAccess()[25].decode(Int64.self)) }
            }
            // A page past the end has no row to carry the count.
            if total == nil {
                total = Int(try await connection.query(PostgresQuery(unsafeSQL: "SELECT COUNT(*) \(from)", binds: filterBinds), logger: self.logger)
                    .collect(Int64.self).first ?? 0)
            }
            return (products, total ?? 0)
        }
    }

    /// The shelves of the products not archived, by name ignoring A–Z's case (as SQLite's `COLLATE NOCASE` column
    /// groups them), each spelt as its first product spells it.
    public func shelves() async throws -> [Shelf] {
        try await self.read { connection in
            var shelves: [Shelf] = []
            for try await (name, count) in try await connection.query(PostgresQuery(unsafeSQL: """
                SELECT (array_agg(shelf ORDER BY id))[1], COUNT(*) FROM product WHERE shelf IS NOT NULL AND NOT isArchived
                GROUP BY \(Self.nocase("shelf")) ORDER BY \(Self.nocase("shelf"))
                """), logger: self.logger).decode((String, Int64).self) {
                shelves.append(Shelf(name: name, products: Int(count)))
            }
            return shelves
        }
    }

    public func movements(productID: ProductID) async throws -> [StockMovement] {
        try await self.read { connection in
            _ = try await self.fetchProduct(connection, productID)
            var movements: [StockMovement] = []
            for try await row in try await connection.query("""
                SELECT \(unescaped: Self.movementColumns) FROM movement m JOIN document d ON d.id = m.documentId WHERE m.productId = \(productID.rawValue)
                ORDER BY m.effectiveAt, m.documentId, m.lineNo
                """, logger: self.logger) {
                movements.append(try Self.movement(row))
            }
            return movements
        }
    }

    /// The columns ``movement(_:)`` reads, over `movement m JOIN document d`.
    static let movementColumns = """
        m.id, m.productId, m.kind, m.documentId, m.effectiveAt, m.lineNo, m.recordedAt, m.quantity, m.unitAmount, m.revenue,
        m.tax, m.valueChange, m.costAdjustment, m.quantityAfter, m.valueAfter, m.averageCostAfter, d.reason, m.discount, m.taxRate, m.beyondStock
        """

    /// A movement from a row of ``movementColumns``.
    static func movement(_ row: PostgresRow) throws -> StockMovement {
        let row = row.makeRandomAccess()
        let documentID = try row[3].decode(Int64.self)
        return StockMovement(
            id: MovementID(try row[0].decode(Int64.self)), productID: ProductID(try row[1].decode(Int64.self)),
            kind: MovementKind(rawValue: try row[2].decode(String.self)) ?? .adjustment, documentID: documentID,
            position: LedgerPosition(effectiveAt: try row[4].decode(Instant.self).milliseconds, sequence: documentID, lineNo: try row[5].decode(Int.self)),
            recordedAt: try row[6].decode(Instant.self).milliseconds, quantity: Quantity(thousandths: try row[7].decode(Int64.self)),
            unitAmount: Money(minorUnits: try row[8].decode(Int64.self)), revenue: Money(minorUnits: try row[9].decode(Int64.self)),
            tax: Money(minorUnits: try row[10].decode(Int64.self)), valueChange: Money(minorUnits: try row[11].decode(Int64.self)),
            costAdjustment: Money(minorUnits: try row[12].decode(Int64.self)),
            balance: LedgerBalance(quantity: Quantity(thousandths: try row[13].decode(Int64.self)), value: Money(minorUnits: try row[14].decode(Int64.self)),
                                   averageCost: UnitCost(scaled: try row[15].decode(Int64.self))),
            reason: try row[16].decode(String?.self).flatMap(AdjustmentReason.init(rawValue:)), discount: Money(minorUnits: try row[17].decode(Int64.self)),
            taxRate: Percent(hundredths: try row[18].decode(Int64.self)), beyondStock: try row[19].decode(Bool.self))
    }

    // MARK: - Re-pricing (SettingsRepository)

    public func reprice(pricesIncludeTax: Bool) async throws -> Int {
        try await self.write { connection, _, log in
            // One settings change at a time, whichever instance makes it (as saveSettings); read again under the lock.
            try await connection.run("SELECT pg_advisory_xact_lock(hashtext('stockroom-settings'))", logger: self.logger)
            let old = try await Self.loadSettings(connection, logger: self.logger)
            guard old.pricesIncludeTax != pricesIncludeTax else { return 0 }
            let ids = try await connection.prepared("SELECT id FROM product ORDER BY id FOR UPDATE", logger: self.logger).collect(Int64.self)
            let products = try await self.products(connection, "SELECT \(constant: Self.productColumns) FROM product p WHERE p.id = ANY(\(ids)) ORDER BY p.id")
            for before in products {
                var after = before
                after.details = before.details.repriced(toIncludeTax: pricesIncludeTax)
                guard after != before else { continue }
                try await connection.run("""
                    UPDATE product SET salePrice = \(after.details.salePrice.minorUnits), minimumSalePrice = \(after.details.minimumSalePrice?.minorUnits),
                    updatedAt = \(Self.now) WHERE id = \(before.id.rawValue)
                    """, logger: self.logger)
                try await log.recordProductChanged(old: before, new: after)
            }
            var new = old
            new.pricesIncludeTax = pricesIncludeTax
            for (key, value) in new.storedValues where key == "pricesIncludeTax" {
                try await connection.run("""
                    INSERT INTO setting (key, value) VALUES (\(key), \(value)) ON CONFLICT (key) DO UPDATE SET value = excluded.value
                    """, logger: self.logger)
            }
            try await log.record(.settingsChanged, changes: ShopActivity.Change.between(old, new))
            return ids.count
        }
    }
}
