import Foundation

/// The committed outcome of one command on the shop: who did what, to which record, touching which products, with
/// which figures — and the sentence the audit log shows for it.
///
/// A store builds one for every write it commits (a sale, a receipt, a price change, a new account…), writes it to
/// the audit log in the same transaction as the change and, once the transaction has committed, hands it to its
/// ``ActivityFeed``; the server turns those into live events. A refused write and a dry run therefore leave no
/// activity at all. The sentence is built here, once, from the other fields (see `ActivitySentence.swift`).
public struct ShopActivity: Sendable, Hashable {
    /// What happened.
    public enum Kind: String, Sendable, Hashable, CaseIterable, Codable {
        case saleRecorded, saleChanged, saleDeleted, salesImported
        case purchaseRecorded, purchaseChanged, purchaseDeleted, purchasesImported
        case adjustmentRecorded, adjustmentDeleted
        case customerReturnRecorded, customerReturnDeleted
        case supplierReturnRecorded, supplierReturnDeleted
        case productCreated, productChanged, productDeleted, productsImported
        case categoryCreated, categoryChanged, categoryDeleted
        case supplierCreated, supplierChanged, supplierDeleted
        case customerCreated, customerChanged, customerDeleted
        case settingsChanged, backupRestored
        case firstAdminCreated, userCreated, userChanged, tokenCreated, tokenRevoked, tillUnlocked, sessionsEnded
        /// A staff member opened or closed a shift.
        case clockedIn, clockedOut
        /// A write left a tracked product at or below its threshold when it had been above it (``LowStockCrossing``).
        case stockWentLow
        /// The cash drawer was closed with its counted cash (a difference from the expected cash is an alert).
        case drawerClosed
        /// The daily check found lots expiring within ``ShopAlert/expiryWindowDays`` days (``ExpiryCheck``).
        case lotsExpiring
        /// An admin's restore was refused (the file was not a backup this server accepts); nothing was restored.
        case restoreRefused
        /// A backup (the daily one or one taken on request) could not be written or failed its check; the shop has no
        /// new good backup until one succeeds.
        case backupFailed

        /// What a command did to a document of the books.
        public enum Verb: Sendable { case recorded, changed, deleted }

        /// The kind for a document of the books.
        public static func document(_ kind: MovementKind, _ verb: Verb) -> Kind {
            switch (kind, verb) {
            // A recipe's consumption is part of its sale.
            case (.sale, .recorded), (.consumption, .recorded): .saleRecorded
            case (.sale, .changed), (.consumption, .changed): .saleChanged
            case (.sale, .deleted), (.consumption, .deleted): .saleDeleted
            case (.purchase, .recorded): .purchaseRecorded
            case (.purchase, .changed): .purchaseChanged
            case (.purchase, .deleted): .purchaseDeleted
            case (.adjustment, .recorded), (.adjustment, .changed): .adjustmentRecorded
            case (.adjustment, .deleted): .adjustmentDeleted
            case (.customerReturn, .recorded), (.customerReturn, .changed): .customerReturnRecorded
            case (.customerReturn, .deleted): .customerReturnDeleted
            case (.supplierReturn, .recorded), (.supplierReturn, .changed): .supplierReturnRecorded
            case (.supplierReturn, .deleted): .supplierReturnDeleted
            }
        }

        /// Whether the shop's sales changed (the `sale` live event).
        public var changesSales: Bool {
            [.saleRecorded, .saleChanged, .saleDeleted, .salesImported].contains(self)
        }

        /// Whether products, their stock or what decides their low-stock state may have changed (the `product` live
        /// event and a fresh low-stock list).
        public var changesProducts: Bool {
            switch self {
            case .saleRecorded, .saleChanged, .saleDeleted, .salesImported, .purchaseRecorded, .purchaseChanged, .purchaseDeleted,
                .purchasesImported, .adjustmentRecorded, .adjustmentDeleted, .customerReturnRecorded, .customerReturnDeleted,
                .supplierReturnRecorded, .supplierReturnDeleted, .productCreated, .productChanged, .productDeleted, .productsImported,
                .categoryChanged, .categoryDeleted, .settingsChanged, .backupRestored:
                true
            case .categoryCreated, .supplierCreated, .supplierChanged, .supplierDeleted, .customerCreated, .customerChanged,
                .customerDeleted, .firstAdminCreated, .userCreated, .userChanged, .tokenCreated, .tokenRevoked, .tillUnlocked,
                .sessionsEnded, .clockedIn, .clockedOut, .stockWentLow, .drawerClosed, .lotsExpiring, .restoreRefused, .backupFailed:
                false
            }
        }
    }

    /// The record an activity is about: a document of the books, or a catalogue or staff record.
    public struct Record: Sendable, Hashable, Codable {
        public enum Kind: String, Sendable, Hashable, CaseIterable, Codable {
            case purchase, sale, adjustment, customerReturn, supplierReturn, product, category, supplier, customer, user, token, shift, drawerSession

            /// The record kind of a document of the books.
            public init(_ kind: MovementKind) {
                switch kind {
                case .purchase: self = .purchase
                case .sale, .consumption: self = .sale
                case .adjustment: self = .adjustment
                case .customerReturn: self = .customerReturn
                case .supplierReturn: self = .supplierReturn
                }
            }

            /// How a sentence names it.
            public var label: String {
                switch self {
                case .customerReturn: "customer return"
                case .supplierReturn: "supplier return"
                case .token: "API token"
                case .drawerSession: "drawer session"
                default: self.rawValue
                }
            }
        }

        public var kind: Kind
        public var id: Int64

        /// Creates a reference.
        public init(_ kind: Kind, _ id: Int64) {
            self.kind = kind
            self.id = id
        }

        /// `sale #12`.
        public var label: String { "\(self.kind.label) #\(self.id)" }
    }

    /// The numbers of an activity; each is set only where it means something for the kind.
    public struct Figures: Sendable, Hashable {
        /// Lines of a document.
        public var lines: Int?
        /// Units on a document's lines, all lines added (a count, whatever the direction).
        public var items: Quantity?
        /// What a document is worth: a sale's takings with tax and tip, a purchase's cost, a customer return's refund,
        /// the stock value sent back to a supplier or changed by an adjustment; the sum of imported documents.
        public var total: Money?
        /// A sale's cost of goods sold.
        public var costOfGoodsSold: Money?
        /// A sale's (or a refund's) tax.
        public var tax: Money?
        /// An adjustment's change of stock, signed.
        public var quantityChange: Quantity?
        /// A new product's sale price.
        public var price: Money?
        /// How many: documents imported, sessions ended.
        public var count: Int?
        /// Products an import created and updated.
        public var created: Int?
        public var updated: Int?
        /// A product's stock on hand and the threshold that applies to it (a product gone low).
        public var stock: Quantity?
        public var threshold: Quantity?
        /// A closed drawer's expected cash and the counted cash's difference from it (`total` is the counted cash).
        public var expected: Money?
        public var difference: Money?

        /// Creates figures.
        public init(lines: Int? = nil, items: Quantity? = nil, total: Money? = nil, costOfGoodsSold: Money? = nil, tax: Money? = nil,
                    quantityChange: Quantity? = nil, price: Money? = nil, count: Int? = nil, created: Int? = nil, updated: Int? = nil,
                    stock: Quantity? = nil, threshold: Quantity? = nil, expected: Money? = nil, difference: Money? = nil) {
            self.expected = expected
            self.difference = difference
            self.stock = stock
            self.threshold = threshold
            self.lines = lines
            self.items = items
            self.total = total
            self.costOfGoodsSold = costOfGoodsSold
            self.tax = tax
            self.quantityChange = quantityChange
            self.price = price
            self.count = count
            self.created = created
            self.updated = updated
        }

        /// Every figure that is set, by name, as an exact integer (money in minor units, quantities in thousandths).
        public var stored: [String: Int64] {
            var values: [String: Int64] = [:]
            values["lines"] = self.lines.map(Int64.init)
            values["items"] = self.items?.thousandths
            values["total"] = self.total?.minorUnits
            values["costOfGoodsSold"] = self.costOfGoodsSold?.minorUnits
            values["tax"] = self.tax?.minorUnits
            values["quantityChange"] = self.quantityChange?.thousandths
            values["price"] = self.price?.minorUnits
            values["count"] = self.count.map(Int64.init)
            values["created"] = self.created.map(Int64.init)
            values["updated"] = self.updated.map(Int64.init)
            values["stock"] = self.stock?.thousandths
            values["threshold"] = self.threshold?.thousandths
            values["expected"] = self.expected?.minorUnits
            values["difference"] = self.difference?.minorUnits
            return values
        }

        /// Figures from ``stored``; unknown names are ignored.
        public init(stored values: [String: Int64]) {
            self.init(
                lines: values["lines"].map { Int(clamping: $0) }, items: values["items"].map(Quantity.init(thousandths:)),
                total: values["total"].map(Money.init(minorUnits:)), costOfGoodsSold: values["costOfGoodsSold"].map(Money.init(minorUnits:)),
                tax: values["tax"].map(Money.init(minorUnits:)), quantityChange: values["quantityChange"].map(Quantity.init(thousandths:)),
                price: values["price"].map(Money.init(minorUnits:)), count: values["count"].map { Int(clamping: $0) },
                created: values["created"].map { Int(clamping: $0) }, updated: values["updated"].map { Int(clamping: $0) },
                stock: values["stock"].map(Quantity.init(thousandths:)), threshold: values["threshold"].map(Quantity.init(thousandths:)),
                expected: values["expected"].map(Money.init(minorUnits:)), difference: values["difference"].map(Money.init(minorUnits:)))
        }
    }

    /// One field a change command changed.
    public struct Change: Sendable, Hashable {
        public enum Field: String, Sendable, Hashable, CaseIterable {
            case name, sku, barcode, category, unit, picture, pictures, salePrice, minimumSalePrice, taxRate, lowStockThreshold, tracksStock
            case allowsNegativeStock, icon, archived, color, markup, location, phone, email, note, options, recipe
            case shopName, currency, timeZone, defaultTaxRate, lowStockDefault, lockMinutes, address, taxID = "taxId", receiptFooter, pricesIncludeTax, logo
            case username, displayName, role, active, password, pin, jobTitle, alerts
            case description, shelf

            /// How a sentence names it.
            public var label: String {
                switch self {
                case .sku: "SKU"
                case .salePrice: "sale price"
                case .minimumSalePrice: "minimum price"
                case .taxRate: "tax rate"
                case .lowStockThreshold: "low-stock threshold"
                case .tracksStock: "stock tracking"
                case .allowsNegativeStock: "negative stock"
                case .color: "colour"
                case .shopName: "shop name"
                case .timeZone: "time zone"
                case .defaultTaxRate: "default tax rate"
                case .lowStockDefault: "default low-stock threshold"
                case .lockMinutes: "minutes before the till locks"
                case .taxID: "tax ID"
                case .receiptFooter: "receipt footer"
                case .pricesIncludeTax: "prices include tax"
                case .displayName: "display name"
                case .pin: "PIN"
                case .jobTitle: "job title"
                default: self.rawValue
                }
            }
        }

        /// A field's value before or after.
        public enum Value: Sendable, Hashable {
            case none
            case text(String)
            case money(Money)
            case percent(Percent)
            case quantity(Quantity)
            case number(Int)
            case flag(Bool)
            /// A value that is never shown (a password or PIN hash, a picture's file name): only whether there is one.
            case hidden(String)

            /// Whether there is a value.
            public var isSet: Bool { self != .none }

            /// The value as the API shows it: exact decimal strings, `true`/`false`, nil for none, `set` for a hidden one.
            public func plainText(_ currency: Currency) -> String? {
                switch self {
                case .none: nil
                case .text(let text): text
                case .money(let money): money.decimalString(currency)
                case .percent(let percent): percent.decimalString
                case .quantity(let quantity): quantity.decimalString
                case .number(let number): String(number)
                case .flag(let flag): flag ? "true" : "false"
                case .hidden: "set"
                }
            }

            init<T>(_ value: T?, _ wrap: (T) -> Value) {
                self = value.map(wrap) ?? .none
            }
        }

        public var field: Field
        public var old: Value
        public var new: Value

        /// Creates a change.
        public init(_ field: Field, from old: Value, to new: Value) {
            self.field = field
            self.old = old
            self.new = new
        }

        /// The changes between two values of one field list, in the list's order; fields left alone are not listed.
        static func between(_ pairs: [(Field, Value, Value)]) -> [Change] {
            pairs.filter { $0.1 != $0.2 }.map { Change($0.0, from: $0.1, to: $0.2) }
        }

        /// What an edit changed on a product. `categoryName` names a category by id.
        public static func between(_ old: ProductDetails, _ new: ProductDetails, categoryName: (CategoryID) -> String?) -> [Change] {
            func category(_ id: CategoryID?) -> Value { id.map { .text(categoryName($0) ?? "#\($0)") } ?? .none }
            return self.between([
                (.name, .text(old.name), .text(new.name)),
                (.salePrice, .money(old.salePrice), .money(new.salePrice)),
                (.minimumSalePrice, Value(old.minimumSalePrice, Value.money), Value(new.minimumSalePrice, Value.money)),
                (.taxRate, .percent(old.taxRate), .percent(new.taxRate)),
                (.sku, Value(old.sku, Value.text), Value(new.sku, Value.text)),
                (.barcode, Value(old.barcode, Value.text), Value(new.barcode, Value.text)),
                (.category, category(old.categoryID), category(new.categoryID)),
                (.unit, .text(old.unit), .text(new.unit)),
                (.lowStockThreshold, Value(old.lowStockThreshold, Value.quantity), Value(new.lowStockThreshold, Value.quantity)),
                (.tracksStock, .flag(old.tracksStock), .flag(new.tracksStock)),
                (.allowsNegativeStock, .flag(old.allowsNegativeStock), .flag(new.allowsNegativeStock)),
                (.icon, .text(old.iconEmoji), .text(new.iconEmoji)),
                (.archived, .flag(old.isArchived), .flag(new.isArchived)),
                (.description, Value(old.description.nilIfEmpty, Value.text), Value(new.description.nilIfEmpty, Value.text)),
                (.shelf, Value(old.shelf, Value.text), Value(new.shelf, Value.text)),
            ])
        }

        /// What a change of a product's pictures (main first) changed: the main picture, else how many there are.
        public static func between(pictures old: [String], _ new: [String]) -> [Change] {
            if old.first != new.first { return [Change(.picture, from: Value(old.first, Value.hidden), to: Value(new.first, Value.hidden))] }
            return old == new ? [] : [Change(.pictures, from: .number(old.count), to: .number(new.count))]
        }

        /// What a change of a product's option groups changed: each side summed up as "Size: Regular, Large +0.50; …".
        public static func between(options old: [ModifierGroup], _ new: [ModifierGroup], currency: Currency) -> [Change] {
            func summary(_ groups: [ModifierGroup]) -> Value {
                guard !groups.isEmpty else { return .none }
                return .text(groups.map { group in
                    "\(group.name): " + group.options.map { option in
                        option.priceChange == .zero ? option.name
                            : "\(option.name) \(option.priceChange > .zero ? "+" : "")\(option.priceChange.decimalString(currency))"
                    }.joined(separator: ", ")
                }.joined(separator: "; "))
            }
            return self.between([(.options, summary(old), summary(new))])
        }

        /// What an edit changed on a category.
        public static func between(_ old: Category, _ new: Category) -> [Change] {
            self.between([
                (.name, .text(old.name), .text(new.name)),
                (.color, .text(old.color), .text(new.color)),
                (.lowStockThreshold, Value(old.lowStockThreshold, Value.quantity), Value(new.lowStockThreshold, Value.quantity)),
                (.markup, .percent(old.markup), .percent(new.markup)),
            ])
        }

        /// What an edit changed on a supplier or customer.
        public static func between<Kind>(_ old: Contact<Kind>, _ new: Contact<Kind>) -> [Change] {
            let text = { (value: String) -> Value in value.isEmpty ? .none : .text(value) }
            return self.between([
                (.name, .text(old.name), .text(new.name)),
                (.location, text(old.location), text(new.location)),
                (.phone, text(old.phone), text(new.phone)),
                (.email, text(old.email), text(new.email)),
                (.note, text(old.note), text(new.note)),
            ])
        }

        /// What a save changed in the shop's settings.
        public static func between(_ old: ShopSettings, _ new: ShopSettings) -> [Change] {
            self.between([
                (.shopName, .text(old.shopName), .text(new.shopName)),
                (.currency, .text(old.currency.code), .text(new.currency.code)),
                (.timeZone, .text(old.timeZoneIdentifier), .text(new.timeZoneIdentifier)),
                (.defaultTaxRate, .percent(old.defaultTaxRate), .percent(new.defaultTaxRate)),
                (.lowStockDefault, .quantity(old.lowStockDefault), .quantity(new.lowStockDefault)),
                (.lockMinutes, .number(old.lockMinutes), .number(new.lockMinutes)),
                (.address, .text(old.address), .text(new.address)),
                (.taxID, .text(old.taxID), .text(new.taxID)),
                (.receiptFooter, .text(old.receiptFooter), .text(new.receiptFooter)),
                (.pricesIncludeTax, .flag(old.pricesIncludeTax), .flag(new.pricesIncludeTax)),
            ])
        }

        /// What an edit changed on a staff account (secrets only as "a new one").
        public static func between(_ old: StaffAccount, _ new: StaffAccount) -> [Change] {
            self.between([
                (.username, .text(old.username), .text(new.username)),
                (.displayName, .text(old.displayName), .text(new.displayName)),
                (.role, .text(old.role.rawValue), .text(new.role.rawValue)),
                (.jobTitle, .text(old.jobTitle), .text(new.jobTitle)),
                (.active, .flag(old.isActive), .flag(new.isActive)),
                (.password, .hidden(old.passwordHash), .hidden(new.passwordHash)),
                (.pin, Value(old.pinHash, Value.hidden), Value(new.pinHash, Value.hidden)),
            ])
        }
    }

    public let kind: Kind
    /// Who did it.
    public let agent: Agent
    /// When it was committed.
    public let at: Instant
    /// The record it created, changed or deleted.
    public let record: Record?
    /// A record it refers to: the sale a customer return is against.
    public let related: Record?
    /// The products whose stock or details it touched, each once, in order of first appearance.
    public let productIDs: [ProductID]
    /// What it acted on, by name: a product, category, contact, account or token; a one-line document's product.
    public let subject: String?
    /// The other side: a document's supplier or customer, a token's owner, the user a till was taken over from.
    public let party: String?
    /// An adjustment's reason.
    public let reason: AdjustmentReason?
    public let figures: Figures
    /// The fields an edit changed.
    public let changes: [Change]
    /// The activity as one sentence in the shop's currency, e.g. `ada sold 3 items for €9.40 (sale #12)`.
    public let sentence: String

    /// Creates an activity and its sentence (amounts in `currency`).
    public init(_ kind: Kind, by agent: Agent, at: Instant = .now, record: Record? = nil, related: Record? = nil, productIDs: [ProductID] = [],
                subject: String? = nil, party: String? = nil, reason: AdjustmentReason? = nil, figures: Figures = Figures(),
                changes: [Change] = [], currency: Currency) {
        self.kind = kind
        self.agent = agent
        self.at = at
        self.record = record
        self.related = related
        var seen = Set<ProductID>()
        self.productIDs = productIDs.filter { seen.insert($0).inserted }
        self.subject = subject
        self.party = party
        self.reason = reason
        self.figures = figures
        self.changes = changes
        self.sentence = ActivitySentence(kind: kind, agent: agent, record: record, related: related, subject: subject, party: party,
                                         reason: reason, figures: figures, changes: changes, currency: currency).text
    }

    /// An activity as it was stored, with the sentence it was stored with (``StoredAudit/activity(at:userID:username:action:detail:recordKind:recordID:productIDs:facts:)``):
    /// the sentence is not built again, since the shop's currency may have changed since.
    init(stored kind: Kind, by agent: Agent, at: Instant, record: Record?, related: Record?, productIDs: [ProductID], subject: String?,
         party: String?, reason: AdjustmentReason?, figures: Figures, changes: [Change], sentence: String) {
        self.kind = kind
        self.agent = agent
        self.at = at
        self.record = record
        self.related = related
        self.productIDs = productIDs
        self.subject = subject
        self.party = party
        self.reason = reason
        self.figures = figures
        self.changes = changes
        self.sentence = sentence
    }
}

// MARK: - Staff

extension ShopActivity {
    /// A staff activity recorded around the store's own writes (a till unlocked or taken over, sessions ended); its
    /// sentence has no amounts, so no currency.
    public static func staff(_ kind: Kind, by agent: Agent, user: (id: UserID, username: String)? = nil, party: String? = nil,
                             count: Int? = nil) -> ShopActivity {
        ShopActivity(kind, by: agent, record: user.map { Record(.user, $0.id.rawValue) }, subject: user?.username, party: party,
                     figures: Figures(count: count), currency: .eur)
    }
}

// MARK: - Documents of the books

extension ShopActivity {
    /// One line of a document as the books hold it (quantities signed as booked: a sale's negative).
    public struct DocumentLine: Sendable, Hashable {
        public var productID: ProductID
        public var productName: String
        public var quantity: Quantity
        public var unitAmount: Money
        public var revenue: Money
        public var tax: Money
        public var valueChange: Money

        /// Creates a line.
        public init(productID: ProductID, productName: String, quantity: Quantity, unitAmount: Money = .zero, revenue: Money = .zero,
                    tax: Money = .zero, valueChange: Money = .zero) {
            self.productID = productID
            self.productName = productName
            self.quantity = quantity
            self.unitAmount = unitAmount
            self.revenue = revenue
            self.tax = tax
            self.valueChange = valueChange
        }
    }

    /// A document of the books recorded, changed or deleted, with the figures its lines add up to: a sale's takings
    /// (revenue, tax and tip) and cost of goods sold, a purchase's cost, a customer return's refund, the value sent back
    /// to a supplier, an adjustment's change of stock and value.
    /// - Parameters:
    ///   - party: the document's supplier or customer.
    ///   - saleID: the sale a customer return is against.
    public static func document(
        _ verb: Kind.Verb, _ kind: MovementKind, id: Int64, lines: [DocumentLine], tip: Money = .zero, party: String? = nil,
        reason: AdjustmentReason? = nil, saleID: SaleID? = nil, by agent: Agent, at: Instant = .now, currency: Currency
    ) -> ShopActivity {
        let sum = { (amount: (DocumentLine) -> Money) in lines.reduce(Money.zero) { $0 + amount($1) } }
        var figures = Figures(lines: lines.count, items: lines.reduce(Quantity.zero) { $0 + $1.quantity.magnitude })
        switch kind {
        case .sale, .consumption:
            figures.tax = sum(\.tax)
            figures.total = sum { $0.revenue + $0.tax } + tip
            figures.costOfGoodsSold = -sum(\.valueChange)
        case .purchase:
            figures.total = sum { Money.extended($0.unitAmount, by: $0.quantity) }
        case .customerReturn:
            figures.tax = -sum(\.tax)
            figures.total = -sum { $0.revenue + $0.tax }
        case .supplierReturn:
            figures.total = -sum(\.valueChange)
        case .adjustment:
            figures.quantityChange = lines.reduce(Quantity.zero) { $0 + $1.quantity }
            figures.total = sum(\.valueChange)
        }
        return ShopActivity(
            .document(kind, verb), by: agent, at: at, record: Record(Record.Kind(kind), id), related: saleID.map { Record(.sale, $0.rawValue) },
            productIDs: lines.map(\.productID), subject: lines.count == 1 ? lines.first?.productName : nil, party: party, reason: reason,
            figures: figures, currency: currency)
    }

    /// A sale as just booked (`recorded`, `changed`), from the record the store read back: the activity
    /// ``document(_:_:id:lines:tip:party:reason:saleID:by:at:currency:)`` makes of its stored lines, without reading them
    /// again. A line's value change is its cost of goods sold, its recipe's ingredients included; what it issued is
    /// its quantity out of stock.
    public static func sale(_ verb: Kind.Verb, _ sale: SaleRecord, by agent: Agent, at: Instant = .now, currency: Currency) -> ShopActivity {
        let lines = sale.lines.map { line in
            DocumentLine(productID: line.productID, productName: line.productName, quantity: -line.quantity, unitAmount: line.unitPrice,
                         revenue: line.revenue, tax: line.tax, valueChange: -line.costOfGoodsSold)
        }
        return self.document(verb, .sale, id: sale.id.rawValue, lines: lines, tip: sale.tip, party: sale.customerName, by: agent, at: at,
                             currency: currency)
    }
}
