import GRDB
import InventoryDomain

/// The schema as ordered, named, frozen steps. Never edit a shipped step: add a new one.
enum SQLiteMigrations {
    /// Step names in order; the PostgreSQL backend must use the same names.
    static let names = ["v1-catalogue", "v1-books", "v1-reports", "v1-staff", "v2-sale-till", "v2-session-expiry", "v3-idempotency",
                         "v4-product-pictures", "v5-activity-audit", "v6-receipt-numbers",
                         "v7-tax-inclusive-prices", "v8-parked-sales",
                         "v9-sale-approval", "v10-sale-payments", "v11-cash-drawer",
                         "v12-customer-cards", "v13-beyond-stock",
                         "v14-product-options", "v15-recipes", "v16-shop-logo", "v17-product-search",
                         "v18-staff-job-titles", "v19-stocktakes", "v20-reorder", "v21-activity-feed", "v22-product-description",
                         "v23-product-shelf", "v24-throttle-previous-failure"]

    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1-catalogue") { db in
            try db.execute(sql: """
                CREATE TABLE setting (key TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL);
                CREATE TABLE category (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    name TEXT NOT NULL UNIQUE COLLATE NOCASE,
                    color TEXT NOT NULL,
                    lowStockThreshold INTEGER,
                    markup INTEGER NOT NULL DEFAULT 0
                );
                CREATE TABLE supplier (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    name TEXT NOT NULL, location TEXT NOT NULL DEFAULT '', phone TEXT NOT NULL DEFAULT '',
                    email TEXT NOT NULL DEFAULT '', note TEXT NOT NULL DEFAULT '', searchKey TEXT NOT NULL
                );
                CREATE TABLE customer (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    name TEXT NOT NULL, location TEXT NOT NULL DEFAULT '', phone TEXT NOT NULL DEFAULT '',
                    email TEXT NOT NULL DEFAULT '', note TEXT NOT NULL DEFAULT '', searchKey TEXT NOT NULL
                );
                CREATE TABLE product (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    name TEXT NOT NULL,
                    searchKey TEXT NOT NULL,
                    sku TEXT UNIQUE,
                    barcode TEXT UNIQUE,
                    categoryId INTEGER REFERENCES category(id) ON DELETE SET NULL,
                    unit TEXT NOT NULL,
                    imageRef TEXT,
                    salePrice INTEGER NOT NULL,
                    minimumSalePrice INTEGER,
                    taxRate INTEGER NOT NULL,
                    lowStockThreshold INTEGER,
                    tracksStock INTEGER NOT NULL,
                    allowsNegativeStock INTEGER NOT NULL,
                    iconEmoji TEXT NOT NULL,
                    isArchived INTEGER NOT NULL DEFAULT 0,
                    createdAt INTEGER NOT NULL,
                    updatedAt INTEGER NOT NULL,
                    quantity INTEGER NOT NULL DEFAULT 0,
                    value INTEGER NOT NULL DEFAULT 0,
                    averageCost INTEGER NOT NULL DEFAULT 0,
                    lastEffectiveAt INTEGER,
                    lastSequence INTEGER,
                    lastLineNo INTEGER
                );
                CREATE INDEX product_category ON product(categoryId);
                """)
        }
        migrator.registerMigration("v1-books") { db in
            try db.execute(sql: """
                CREATE TABLE document (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    kind TEXT NOT NULL,
                    effectiveAt INTEGER NOT NULL,
                    day INTEGER NOT NULL,
                    recordedAt INTEGER NOT NULL,
                    supplierId INTEGER REFERENCES supplier(id),
                    customerId INTEGER REFERENCES customer(id),
                    saleId INTEGER REFERENCES document(id),
                    note TEXT NOT NULL DEFAULT '',
                    tip INTEGER NOT NULL DEFAULT 0,
                    paymentMethod TEXT,
                    reason TEXT
                );
                CREATE TABLE movement (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    documentId INTEGER NOT NULL REFERENCES document(id) ON DELETE CASCADE,
                    kind TEXT NOT NULL,
                    lineNo INTEGER NOT NULL,
                    productId INTEGER NOT NULL REFERENCES product(id),
                    effectiveAt INTEGER NOT NULL,
                    day INTEGER NOT NULL,
                    recordedAt INTEGER NOT NULL,
                    effect TEXT NOT NULL,
                    quantity INTEGER NOT NULL,
                    unitAmount INTEGER NOT NULL DEFAULT 0,
                    discount INTEGER NOT NULL DEFAULT 0,
                    taxRate INTEGER NOT NULL DEFAULT 0,
                    revenue INTEGER NOT NULL DEFAULT 0,
                    tax INTEGER NOT NULL DEFAULT 0,
                    lotCode TEXT,
                    expiryDate TEXT,
                    sourceMovementId INTEGER REFERENCES movement(id),
                    valueChange INTEGER NOT NULL,
                    costAdjustment INTEGER NOT NULL,
                    quantityAfter INTEGER NOT NULL,
                    valueAfter INTEGER NOT NULL,
                    averageCostAfter INTEGER NOT NULL
                );
                CREATE UNIQUE INDEX movement_ledger ON movement(productId, effectiveAt, documentId, lineNo);
                CREATE INDEX movement_document ON movement(documentId);
                CREATE INDEX movement_source ON movement(sourceMovementId) WHERE sourceMovementId IS NOT NULL;
                CREATE INDEX document_kind ON document(kind, effectiveAt);
                """)
        }
        migrator.registerMigration("v1-reports") { db in
            // One covering index serves the daily figures and the raw edges of top-N ranges.
            // productSalesYear holds each product's net sales per calendar month (shop time zone), one row per
            // product and year, so a year of top-N reads two rows per product instead of every sale line.
            try db.execute(sql: """
                CREATE INDEX movement_sales ON movement(kind, effectiveAt, day, productId, quantity, revenue, discount, tax, valueChange);
                CREATE INDEX movement_expiry ON movement(expiryDate) WHERE expiryDate IS NOT NULL;
                CREATE INDEX document_day ON document(kind, day, tip);
                CREATE TABLE productSalesYear (
                    year INTEGER NOT NULL,
                    productId INTEGER NOT NULL REFERENCES product(id) ON DELETE CASCADE,
                    q1 INTEGER NOT NULL DEFAULT 0, r1 INTEGER NOT NULL DEFAULT 0,
                    q2 INTEGER NOT NULL DEFAULT 0, r2 INTEGER NOT NULL DEFAULT 0,
                    q3 INTEGER NOT NULL DEFAULT 0, r3 INTEGER NOT NULL DEFAULT 0,
                    q4 INTEGER NOT NULL DEFAULT 0, r4 INTEGER NOT NULL DEFAULT 0,
                    q5 INTEGER NOT NULL DEFAULT 0, r5 INTEGER NOT NULL DEFAULT 0,
                    q6 INTEGER NOT NULL DEFAULT 0, r6 INTEGER NOT NULL DEFAULT 0,
                    q7 INTEGER NOT NULL DEFAULT 0, r7 INTEGER NOT NULL DEFAULT 0,
                    q8 INTEGER NOT NULL DEFAULT 0, r8 INTEGER NOT NULL DEFAULT 0,
                    q9 INTEGER NOT NULL DEFAULT 0, r9 INTEGER NOT NULL DEFAULT 0,
                    q10 INTEGER NOT NULL DEFAULT 0, r10 INTEGER NOT NULL DEFAULT 0,
                    q11 INTEGER NOT NULL DEFAULT 0, r11 INTEGER NOT NULL DEFAULT 0,
                    q12 INTEGER NOT NULL DEFAULT 0, r12 INTEGER NOT NULL DEFAULT 0,
                    PRIMARY KEY (year, productId)
                ) WITHOUT ROWID;
                """)
        }
        migrator.registerMigration("v1-staff") { db in
            try db.execute(sql: """
                CREATE TABLE user (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    username TEXT NOT NULL UNIQUE COLLATE NOCASE,
                    displayName TEXT NOT NULL,
                    role TEXT NOT NULL,
                    passwordHash TEXT NOT NULL,
                    pinHash TEXT,
                    isActive INTEGER NOT NULL DEFAULT 1,
                    createdAt INTEGER NOT NULL
                );
                CREATE TABLE session (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    tokenHash TEXT NOT NULL UNIQUE,
                    userId INTEGER NOT NULL REFERENCES user(id) ON DELETE CASCADE,
                    kind TEXT NOT NULL,
                    name TEXT NOT NULL,
                    csrfToken TEXT NOT NULL,
                    createdAt INTEGER NOT NULL,
                    lastSeenAt INTEGER NOT NULL,
                    isLocked INTEGER NOT NULL DEFAULT 0
                );
                CREATE TABLE shift (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    userId INTEGER NOT NULL REFERENCES user(id) ON DELETE CASCADE,
                    startedAt INTEGER NOT NULL,
                    endedAt INTEGER
                );
                CREATE INDEX shift_user ON shift(userId, startedAt);
                CREATE TABLE loginThrottle (key TEXT PRIMARY KEY NOT NULL, failures INTEGER NOT NULL, lastFailureAt INTEGER NOT NULL);
                CREATE TABLE auditLog (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    at INTEGER NOT NULL,
                    userId INTEGER REFERENCES user(id) ON DELETE SET NULL,
                    username TEXT NOT NULL,
                    action TEXT NOT NULL,
                    detail TEXT NOT NULL
                );
                """)
        }
        // Shipped migrations are frozen; later changes come as new ones.
        migrator.registerMigration("v2-sale-till") { db in
            try db.execute(sql: """
                ALTER TABLE document ADD COLUMN soldBy TEXT NOT NULL DEFAULT '';
                ALTER TABLE document ADD COLUMN cashTendered INTEGER;
                """)
        }
        // Sessions and API tokens can expire (a browser session after its absolute lifetime, a token when its owner chose).
        migrator.registerMigration("v2-session-expiry") { db in
            try db.execute(sql: "ALTER TABLE session ADD COLUMN expiresAt INTEGER")
        }
        // Idempotency keys: a document POST retried with the same key answers the document booked the first time.
        migrator.registerMigration("v3-idempotency") { db in
            try db.execute(sql: """
                CREATE TABLE idempotencyKey (
                    userId INTEGER NOT NULL,
                    key TEXT NOT NULL,
                    fingerprint TEXT NOT NULL,
                    kind TEXT NOT NULL,
                    documentId INTEGER NOT NULL,
                    createdAt INTEGER NOT NULL,
                    PRIMARY KEY (userId, key)
                ) WITHOUT ROWID;
                CREATE INDEX idempotency_created ON idempotencyKey(createdAt);
                """)
        }
        // A product keeps several pictures in order, the main one at position 0 (ProductPictures); the one picture a
        // product had (product.imageRef) becomes its main picture, and the column goes.
        migrator.registerMigration("v4-product-pictures") { db in
            try db.execute(sql: """
                CREATE TABLE productPicture (
                    productId INTEGER NOT NULL REFERENCES product(id) ON DELETE CASCADE,
                    position INTEGER NOT NULL,
                    name TEXT NOT NULL,
                    PRIMARY KEY (productId, position),
                    UNIQUE (productId, name)
                ) WITHOUT ROWID;
                CREATE INDEX productPicture_name ON productPicture(name);
                INSERT INTO productPicture (productId, position, name)
                    SELECT id, 0, imageRef FROM product WHERE imageRef IS NOT NULL AND imageRef != '';
                ALTER TABLE product DROP COLUMN imageRef;
                """)
        }
        // The audit log keeps each command's activity (ShopActivity): `action` its kind, `detail` its sentence, and
        // the record, products and figures it touched. Older rows keep their raw `METHOD path` and read as before.
        migrator.registerMigration("v5-activity-audit") { db in
            try db.execute(sql: """
                ALTER TABLE auditLog ADD COLUMN recordKind TEXT;
                ALTER TABLE auditLog ADD COLUMN recordId INTEGER;
                ALTER TABLE auditLog ADD COLUMN productIds TEXT;
                ALTER TABLE auditLog ADD COLUMN facts TEXT;
                """)
        }
        // Sales get gapless receipt numbers (1, 2, 3 … in booking order, whatever other documents come between);
        // sales booked before this step are numbered in the order they were booked.
        migrator.registerMigration("v6-receipt-numbers") { db in
            try db.execute(sql: """
                ALTER TABLE document ADD COLUMN receiptNumber INTEGER;
                UPDATE document SET receiptNumber = numbered.n
                    FROM (SELECT id, ROW_NUMBER() OVER (ORDER BY id) AS n FROM document WHERE kind = 'sale') AS numbered
                    WHERE document.id = numbered.id;
                CREATE UNIQUE INDEX document_receipt ON document(receiptNumber) WHERE receiptNumber IS NOT NULL;
                """)
        }
        // A sale remembers whether its prices included tax (the shop's setting when it was first booked), so its
        // receipt shows it as charged after the shop switches; older sales were priced before tax.
        migrator.registerMigration("v7-tax-inclusive-prices") { db in
            try db.execute(sql: "ALTER TABLE document ADD COLUMN pricesIncludeTax INTEGER NOT NULL DEFAULT 0")
        }
        // Open tabs: sales parked at a till, lines as asked; they book nothing until charged.
        migrator.registerMigration("v8-parked-sales") { db in
            try db.execute(sql: """
                CREATE TABLE parkedSale (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    label TEXT NOT NULL,
                    customerId INTEGER REFERENCES customer(id) ON DELETE SET NULL,
                    note TEXT NOT NULL DEFAULT '',
                    parkedBy TEXT NOT NULL DEFAULT '',
                    parkedAt INTEGER NOT NULL
                );
                CREATE TABLE parkedSaleLine (
                    parkedSaleId INTEGER NOT NULL REFERENCES parkedSale(id) ON DELETE CASCADE,
                    lineNo INTEGER NOT NULL,
                    productId INTEGER NOT NULL REFERENCES product(id),
                    quantity INTEGER NOT NULL,
                    unitPrice INTEGER,
                    discount INTEGER,
                    discountPercent INTEGER,
                    taxRate INTEGER,
                    PRIMARY KEY (parkedSaleId, lineNo)
                );
                CREATE INDEX parkedSaleLine_product ON parkedSaleLine(productId);
                """)
        }
        // Who approved a sale below a product's minimum price (a manager's PIN at the till, or a manager selling).
        migrator.registerMigration("v9-sale-approval") { db in
            try db.execute(sql: "ALTER TABLE document ADD COLUMN approvedBy TEXT NOT NULL DEFAULT ''")
        }
        // A sale's payments (split, with statuses) and what customer returns gave back to each. Sales booked before
        // get one completed payment of their total by their method, and their returns refund it.
        migrator.registerMigration("v10-sale-payments") { db in
            try db.execute(sql: """
                CREATE TABLE salePayment (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    documentId INTEGER NOT NULL REFERENCES document(id) ON DELETE CASCADE,
                    lineNo INTEGER NOT NULL,
                    method TEXT NOT NULL,
                    amount INTEGER NOT NULL,
                    tendered INTEGER,
                    status TEXT NOT NULL,
                    reference TEXT NOT NULL DEFAULT '',
                    UNIQUE (documentId, lineNo)
                );
                CREATE TABLE paymentRefund (
                    returnId INTEGER NOT NULL REFERENCES document(id) ON DELETE CASCADE,
                    paymentId INTEGER NOT NULL REFERENCES salePayment(id),
                    amount INTEGER NOT NULL,
                    PRIMARY KEY (returnId, paymentId)
                );
                CREATE INDEX paymentRefund_payment ON paymentRefund(paymentId);
                INSERT INTO salePayment (documentId, lineNo, method, amount, tendered, status)
                    SELECT d.id, 0, COALESCE(d.paymentMethod, 'cash'),
                           d.tip + COALESCE((SELECT SUM(m.revenue + m.tax) FROM movement m WHERE m.documentId = d.id), 0),
                           d.cashTendered, 'completed'
                    FROM document d WHERE d.kind = 'sale';
                INSERT INTO paymentRefund (returnId, paymentId, amount)
                    SELECT r.id, p.id, -(SELECT SUM(m.revenue + m.tax) FROM movement m WHERE m.documentId = r.id)
                    FROM document r JOIN salePayment p ON p.documentId = r.saleId
                    WHERE r.kind = 'customerReturn' AND (SELECT SUM(m.revenue + m.tax) FROM movement m WHERE m.documentId = r.id) < 0;
                """)
        }
        // The cash drawer: sessions (one open at a time), cash in and out, the Z report kept at closing; sales and
        // returns are found by when they were recorded.
        migrator.registerMigration("v11-cash-drawer") { db in
            try db.execute(sql: """
                CREATE TABLE drawerSession (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    openedAt INTEGER NOT NULL,
                    openedBy TEXT NOT NULL,
                    openingFloat INTEGER NOT NULL,
                    note TEXT NOT NULL DEFAULT '',
                    closedAt INTEGER,
                    closedBy TEXT,
                    closingReport TEXT
                );
                CREATE UNIQUE INDEX drawerSession_open ON drawerSession((closedAt IS NULL)) WHERE closedAt IS NULL;
                CREATE TABLE cashMovement (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    sessionId INTEGER NOT NULL REFERENCES drawerSession(id) ON DELETE CASCADE,
                    at INTEGER NOT NULL,
                    amount INTEGER NOT NULL,
                    reason TEXT NOT NULL,
                    byUser TEXT NOT NULL
                );
                CREATE INDEX cashMovement_session ON cashMovement(sessionId);
                CREATE INDEX document_recorded ON document(kind, recordedAt);
                """)
        }
        // Loyalty cards (one per customer, a number found exactly when scanned) and the index behind a customer's visits.
        migrator.registerMigration("v12-customer-cards") { db in
            try db.execute(sql: """
                CREATE TABLE customerCard (
                    customerId INTEGER PRIMARY KEY REFERENCES customer(id) ON DELETE CASCADE,
                    number TEXT NOT NULL UNIQUE COLLATE NOCASE
                );
                CREATE INDEX document_customer ON document(customerId, kind, id) WHERE customerId IS NOT NULL;
                """)
        }
        // Selling beyond the stock on record with a manager's approval: the approved sale lines may go below zero (the
        // ledger honours the flag whenever it re-costs them), the sale keeps who approved it and who reviewed it.
        migrator.registerMigration("v13-beyond-stock") { db in
            try db.execute(sql: """
                ALTER TABLE movement ADD COLUMN beyondStock INTEGER NOT NULL DEFAULT 0;
                ALTER TABLE document ADD COLUMN stockApprovedBy TEXT NOT NULL DEFAULT '';
                ALTER TABLE document ADD COLUMN stockReviewedBy TEXT NOT NULL DEFAULT '';
                ALTER TABLE document ADD COLUMN stockReviewedAt INTEGER;
                CREATE INDEX movement_beyondStock ON movement(documentId) WHERE beyondStock = 1;
                """)
        }
        // Options chosen at the till (size, milk, extras) with their price changes; a booked line keeps a copy of what
        // was chosen, a parked line the ids.
        migrator.registerMigration("v14-product-options") { db in
            try db.execute(sql: """
                CREATE TABLE optionGroup (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    productId INTEGER NOT NULL REFERENCES product(id) ON DELETE CASCADE,
                    position INTEGER NOT NULL,
                    name TEXT NOT NULL,
                    multiple INTEGER NOT NULL DEFAULT 0,
                    required INTEGER NOT NULL DEFAULT 0
                );
                CREATE INDEX optionGroup_product ON optionGroup(productId, position);
                CREATE TABLE productOption (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    groupId INTEGER NOT NULL REFERENCES optionGroup(id) ON DELETE CASCADE,
                    position INTEGER NOT NULL,
                    name TEXT NOT NULL,
                    priceChange INTEGER NOT NULL,
                    isDefault INTEGER NOT NULL DEFAULT 0
                );
                CREATE INDEX productOption_group ON productOption(groupId, position);
                CREATE TABLE saleLineOption (
                    movementId INTEGER NOT NULL REFERENCES movement(id) ON DELETE CASCADE,
                    position INTEGER NOT NULL,
                    optionId INTEGER NOT NULL,
                    groupName TEXT NOT NULL,
                    name TEXT NOT NULL,
                    priceChange INTEGER NOT NULL,
                    PRIMARY KEY (movementId, position)
                ) WITHOUT ROWID;
                ALTER TABLE parkedSaleLine ADD COLUMN options TEXT NOT NULL DEFAULT '';
                """)
        }
        // Recipes: what one unit of a product consumes of its ingredients (issued as `consumption` movements).
        migrator.registerMigration("v15-recipes") { db in
            try db.execute(sql: """
                CREATE TABLE recipeComponent (
                    productId INTEGER NOT NULL REFERENCES product(id) ON DELETE CASCADE,
                    position INTEGER NOT NULL,
                    ingredientId INTEGER NOT NULL REFERENCES product(id),
                    quantity INTEGER NOT NULL,
                    PRIMARY KEY (productId, position)
                ) WITHOUT ROWID;
                CREATE INDEX recipeComponent_ingredient ON recipeComponent(ingredientId);
                """)
        }
        // The receipt logo, in the database so a backup carries it and any instance serves it.
        migrator.registerMigration("v16-shop-logo") { db in
            try db.execute(sql: """
                CREATE TABLE shopLogo (
                    id INTEGER PRIMARY KEY CHECK (id = 1),
                    contentType TEXT NOT NULL,
                    data BLOB NOT NULL,
                    version INTEGER NOT NULL
                );
                """)
        }
        // Product search through a trigram index (FTS5, external content: the folded `product.searchKey`), kept by
        // triggers in the same transaction as every product write, so a search finds a substring of three or more
        // characters without reading every product.
        migrator.registerMigration("v17-product-search") { db in
            try db.execute(sql: """
                CREATE VIRTUAL TABLE productSearch USING fts5(searchKey, content='product', content_rowid='id', tokenize='trigram');
                INSERT INTO productSearch(productSearch) VALUES ('rebuild');
                CREATE TRIGGER productSearch_insert AFTER INSERT ON product BEGIN
                    INSERT INTO productSearch(rowid, searchKey) VALUES (new.id, new.searchKey);
                END;
                CREATE TRIGGER productSearch_delete AFTER DELETE ON product BEGIN
                    INSERT INTO productSearch(productSearch, rowid, searchKey) VALUES ('delete', old.id, old.searchKey);
                END;
                CREATE TRIGGER productSearch_update AFTER UPDATE OF searchKey ON product BEGIN
                    INSERT INTO productSearch(productSearch, rowid, searchKey) VALUES ('delete', old.id, old.searchKey);
                    INSERT INTO productSearch(rowid, searchKey) VALUES (new.id, new.searchKey);
                END;
                """)
        }
        // A member of staff's job title (barista, kitchen …), shown with their initials on the till.
        migrator.registerMigration("v18-staff-job-titles") { db in
            try db.execute(sql: "ALTER TABLE user ADD COLUMN jobTitle TEXT NOT NULL DEFAULT ''")
        }
        // Count sheets: a scope, a status, and per counted product the count, its instant and what the books held then
        // (a posted or cancelled sheet also keeps its uncounted products, with no count, so it reads back as it closed).
        migrator.registerMigration("v19-stocktakes") { db in
            try db.execute(sql: """
                CREATE TABLE stocktake (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    scope TEXT NOT NULL,
                    categoryId INTEGER REFERENCES category(id) ON DELETE SET NULL,
                    status TEXT NOT NULL DEFAULT 'open',
                    note TEXT NOT NULL DEFAULT '',
                    createdAt INTEGER NOT NULL,
                    createdBy TEXT NOT NULL DEFAULT '',
                    closedAt INTEGER,
                    closedBy TEXT NOT NULL DEFAULT '',
                    adjustmentId INTEGER REFERENCES document(id) ON DELETE SET NULL
                );
                CREATE TABLE stocktakeLine (
                    stocktakeId INTEGER NOT NULL REFERENCES stocktake(id) ON DELETE CASCADE,
                    productId INTEGER NOT NULL REFERENCES product(id) ON DELETE CASCADE,
                    counted INTEGER,
                    countedAt INTEGER,
                    stockAtCount INTEGER,
                    averageCostAtCount INTEGER,
                    countedBy TEXT NOT NULL DEFAULT '',
                    PRIMARY KEY (stocktakeId, productId)
                ) WITHOUT ROWID;
                CREATE INDEX stocktakeLine_product ON stocktakeLine(productId);
                """)
        }
        // Reordering: a product's preferred supplier (cleared when the supplier is deleted), the supplier's code for it
        // and the pack it is bought in (thousandths, a unit by default); a supplier's lead time in days.
        migrator.registerMigration("v20-reorder") { db in
            try db.execute(sql: """
                ALTER TABLE product ADD COLUMN preferredSupplierId INTEGER REFERENCES supplier(id) ON DELETE SET NULL;
                ALTER TABLE product ADD COLUMN supplierCode TEXT;
                ALTER TABLE product ADD COLUMN packSize INTEGER NOT NULL DEFAULT 1000;
                CREATE INDEX product_preferredSupplier ON product(preferredSupplierId);
                ALTER TABLE supplier ADD COLUMN leadTimeDays INTEGER NOT NULL DEFAULT 0;
                """)
        }
        // The activity feed: each audit row's feed group (ActivityGroup, decided by the domain when the row is written;
        // older rows are given theirs here), and per product whether its going low has been recorded
        // (LowStockCrossing), set for the products low now so an upgrade records no burst of old news; and per account
        // whether it opted in to alerts (ShopAlert).
        migrator.registerMigration("v21-activity-feed") { db in
            try db.execute(sql: """
                ALTER TABLE auditLog ADD COLUMN feedGroup TEXT;
                CREATE INDEX auditLogFeed ON auditLog(feedGroup, id);
                ALTER TABLE product ADD COLUMN lowNoted INTEGER NOT NULL DEFAULT 0;
                ALTER TABLE user ADD COLUMN receivesAlerts INTEGER NOT NULL DEFAULT 0;
                """)
            let rows = try Row.fetchAll(db, sql: """
                SELECT id, at, userId, username, action, detail, recordKind, recordId, productIds, facts FROM auditLog
                WHERE action IN ('saleRecorded', 'customerReturnRecorded', 'productChanged')
                """)
            for row in rows {
                let entry = InventorySQLiteRepository.auditEntry(row)
                guard let group = entry.feedGroup else { continue }
                try db.execute(sql: "UPDATE auditLog SET feedGroup = ? WHERE id = ?", arguments: [group.rawValue, entry.id])
            }
            let shopDefault = (try? InventorySQLiteRepository.loadSettings(db))?.lowStockDefault ?? ShopSettings().lowStockDefault
            try db.execute(sql: """
                UPDATE product SET lowNoted = 1 WHERE id IN (
                    SELECT p.id FROM product p LEFT JOIN category c ON c.id = p.categoryId
                    WHERE p.isArchived = 0 AND \(InventorySQLiteRepository.stockStatusSQL(shopDefault: shopDefault)) IN (?, ?))
                """, arguments: [StockStatus.low.rawValue, StockStatus.out.rawValue])
        }
        // A product's description (issue 14, point 5: as the iOS app had it).
        migrator.registerMigration("v22-product-description") { db in
            try db.execute(sql: "ALTER TABLE product ADD COLUMN description TEXT NOT NULL DEFAULT ''")
        }
        // Where a product sits (issue 14, point 1: a stocktake of one shelf), and the shelf a count sheet covers.
        migrator.registerMigration("v23-product-shelf") { db in
            try db.execute(sql: """
                ALTER TABLE product ADD COLUMN shelf TEXT COLLATE NOCASE;
                CREATE INDEX product_shelf ON product(shelf) WHERE shelf IS NOT NULL;
                ALTER TABLE stocktake ADD COLUMN shelf TEXT;
                """)
        }
        // The last failure before a sign-in's reservation, which a right answer puts back (LoginThrottle.released()).
        migrator.registerMigration("v24-throttle-previous-failure") { db in
            try db.execute(sql: """
                ALTER TABLE loginThrottle ADD COLUMN previousFailureAt INTEGER NOT NULL DEFAULT 0;
                UPDATE loginThrottle SET previousFailureAt = lastFailureAt;
                """)
        }
        return migrator
    }
}
