import ArgumentParser
import Foundation
import InventoryDomain
import InventoryStore

/// `stockroom purchase add`: goods received.
struct PurchaseCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "purchase", abstract: "Record purchases.", subcommands: [Add.self])

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Record a purchase: stock goes up and the cost becomes the weighted average.",
            discussion: "Each --line is PRODUCT:QUANTITY@UNIT_COST, optionally followed by ;lot=CODE;expiry=YYYY-MM-DD. PRODUCT is an id, SKU, barcode or name.")
        @OptionGroup var database: DatabaseOptions
        @Option(help: "Supplier name or id.") var supplier: String?
        @Option(help: "When it happened (2026-11-22, 2026-11-22T14:30, or with a zone); default now. Back-dating re-costs later movements.") var date: String?
        @Option(help: "A note.") var note: String = ""
        @Option(name: .customLong("line"), help: "PRODUCT:QUANTITY@UNIT_COST[;lot=L;expiry=YYYY-MM-DD]") var lines: [String] = []
        @Option(help: "table, or json (what POST /api/v1/purchases answers).") var format: RecordFormat = .table

        func validate() throws {
            if self.lines.isEmpty { throw ValidationError("give at least one --line PRODUCT:QUANTITY@UNIT_COST") }
        }

        func run() async throws { try await self.run(on: try await self.database.open()) }


        func run(on store: some ShopStore) async throws {
            let settings = try await store.settings()
            let lookup = Lookup(store: store)
            var draftLines: [PurchaseDraft.Line] = []
            for (index, text) in self.lines.enumerated() {
                let spec = try LineSpec.parse(text, index: index, amountRequired: true)
                let product = try await lookup.product(spec.product, field: "line[\(index)].product")
                let cost = try Money.parse(spec.amount ?? "", currency: settings.currency, field: "line[\(index)].unitCost")
                draftLines.append(.init(productID: product.id, quantity: spec.quantity, unitCost: cost,
                                        lotCode: spec.options["lot"], expiryDate: spec.options["expiry"]))
            }
            let draft = PurchaseDraft(
                effectiveAt: try parseDate(self.date, calendar: settings.calendar, field: "date"),
                supplierID: try await self.supplier.asyncMap { try await lookup.supplier($0) }, note: self.note, lines: draftLines
            ).dating(whenBooked: self.date == nil)
            let purchase = try await store.postPurchase(draft)
            if self.format == .json { return printJSON(try await store.api.purchase(purchase.id)) }
            print("Recorded purchase \(purchase.id): \(purchase.lines.count) line(s), total \(purchase.total.decimalString(settings.currency))")
            for line in purchase.lines {
                print("  \(line.productName): \(line.quantity.decimalString) @ \(line.unitCost.decimalString(settings.currency)) → average cost \(line.balanceAfter.roundedAverageCost.decimalString(settings.currency)) (exact \(line.averageCostAfter.exactDecimalString(settings.currency)))")
            }
        }
    }
}

/// `stockroom sale add`: goods sold.
struct SaleCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "sale", abstract: "Record and find sales.", subcommands: [Add.self, List.self])

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Find sales, newest first: every word of --search must match the receipt number (#12: receipt 12 only), the customer, a line's product or the note.")
        @OptionGroup var database: DatabaseOptions
        @Option(help: "Words to find.") var search: String?
        @Option(help: "Customer name or id.") var customer: String?
        @Option(help: "Product id, SKU, barcode or name.") var product: String?
        @Option(help: "First day or date-time (shop time).") var from: String?
        @Option(help: "Last day (to its end) or date-time.") var to: String?
        @Option(help: "At most this many.") var limit: Int = 50
        @Option(help: "table, csv, or json (what GET /api/v1/sales answers).") var format: OutputFormat = .table

        func run() async throws { try await self.run(on: try await self.database.open()) }


        func run(on store: some ShopStore) async throws {
            let settings = try await store.settings()
            let lookup = Lookup(store: store)
            let range = try settings.calendar.range(from: self.from, to: self.to)
            let query = SaleQuery(search: self.search, customerID: try await self.customer.asyncMap { try await lookup.customer($0) },
                                  productID: try await self.product.asyncMap { try await lookup.product($0, field: "product").id },
                                  from: range.from, to: range.to, limit: self.limit)
            if self.format == .json { return printJSON(try await store.api.sales(query)) }
            let currency = settings.currency
            let table = Table(
                columns: ["receipt", "id", "date", "customer", "lines", "total", "note"],
                rows: try await store.sales(query).map {
                    [$0.receiptNumber.map(String.init) ?? "", String($0.id), settings.calendar.display($0.effectiveAt), $0.partyName ?? "",
                     String($0.lineCount), $0.total.decimalString(currency), $0.note]
                },
                numeric: [0, 1, 4, 5])
            print(table.render(self.format), terminator: "")
        }
    }

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Record a sale: stock goes down and cost of goods sold is booked at the average cost.",
            discussion: "Each --line is PRODUCT:QUANTITY[@UNIT_PRICE][;discount=AMOUNT]; the price defaults to the product's.")
        @OptionGroup var database: DatabaseOptions
        @Option(help: "Customer name or id.") var customer: String?
        @Option(help: "When it happened; default now.") var date: String?
        @Option(help: "A note.") var note: String = ""
        @Option(help: "Tip.") var tip: String = "0"
        @Option(help: "cash, card or other.") var payment: String = "cash"
        @Flag(help: "A manager approves prices below the minimum sale price.") var allowBelowMinimum = false
        @Option(name: .customLong("line"), help: "PRODUCT:QUANTITY[@UNIT_PRICE][;discount=AMOUNT]") var lines: [String] = []
        @Option(help: "table, or json (what POST /api/v1/sales answers).") var format: RecordFormat = .table

        func validate() throws {
            if self.lines.isEmpty { throw ValidationError("give at least one --line PRODUCT:QUANTITY[@UNIT_PRICE]") }
        }

        func run() async throws { try await self.run(on: try await self.database.open()) }


        func run(on store: some ShopStore) async throws {
            let settings = try await store.settings()
            let currency = settings.currency
            let lookup = Lookup(store: store)
            guard let payment = PaymentMethod(rawValue: self.payment) else {
                throw InventoryError(.invalidValue, field: "payment", "must be cash, card or other")
            }
            var draftLines: [SaleDraft.Line] = []
            for (index, text) in self.lines.enumerated() {
                let spec = try LineSpec.parse(text, index: index, amountRequired: false)
                let product = try await lookup.product(spec.product, field: "line[\(index)].product")
                let price = try spec.amount.map { try Money.parse($0, currency: currency, field: "line[\(index)].unitPrice") }  // nil: the product's
                let discount = try spec.options["discount"].map { try Money.parse($0, currency: currency, field: "line[\(index)].discount") } ?? .zero
                draftLines.append(.init(productID: product.id, quantity: spec.quantity, unitPrice: price, discount: discount))
            }
            let draft = SaleDraft(
                effectiveAt: try parseDate(self.date, calendar: settings.calendar, field: "date"),
                customerID: try await self.customer.asyncMap { try await lookup.customer($0) }, note: self.note, lines: draftLines,
                tip: try Money.parse(self.tip, currency: currency, field: "tip"), paymentMethod: payment, allowBelowMinimum: self.allowBelowMinimum
            ).dating(whenBooked: self.date == nil)
            let sale = try await store.postSale(draft)
            if self.format == .json { return printJSON(try await store.api.sale(sale.id)) }
            print("Recorded sale \(sale.id): revenue \(sale.revenue.decimalString(currency)), tax \(sale.tax.decimalString(currency)), total \(sale.total.decimalString(currency)), cost of goods \(sale.costOfGoodsSold.decimalString(currency))")
        }
    }
}

/// `stockroom adjust`: counts, write-offs and corrections.
struct AdjustCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "adjust", abstract: "Adjust a product's stock with a reason.")
    @OptionGroup var database: DatabaseOptions
    @Argument(help: "Product id, SKU, barcode or name.") var product: String
    @Option(name: .customLong("by"), parsing: .unconditional, help: "Signed change, e.g. -2 (damaged) or 5 (found).") var quantity: String?
    @Option(help: "A count: the quantity found (the difference to the stock on record is booked, reason count).") var counted: String?
    @Option(help: "initial, count, damage, expired, return, correction or transfer (not with --counted).") var reason: String?
    @Option(help: "Unit cost of stock added (default: the average cost).") var cost: String?
    @Option(help: "When it happened; default now.") var date: String?
    @Option(help: "A note.") var note: String = ""
    @Option(help: "table, or json (what POST /api/v1/adjustments answers).") var format: RecordFormat = .table

    func validate() throws {
        switch (self.quantity, self.counted) {
        case (nil, nil): throw ValidationError("give --by CHANGE with --reason, or --counted QUANTITY")
        case (.some, .some): throw ValidationError("give either --by or --counted, not both")
        case (.some, nil) where self.reason == nil: throw ValidationError("--by needs a --reason")
        case (nil, .some) where self.reason != nil && self.reason != AdjustmentReason.count.rawValue:
            throw ValidationError("a count's reason is count")
        default: break
        }
    }

    func run() async throws { try await self.run(on: try await self.database.open()) }


    func run(on store: some ShopStore) async throws {
        let settings = try await store.settings()
        let product = try await Lookup(store: store).product(self.product, field: "product")
        let effectiveAt = try parseDate(self.date, calendar: settings.calendar, field: "date")
        let unitCost = try self.cost.map { try Money.parse($0, currency: settings.currency, field: "cost") }
        let draft: AdjustmentDraft
        if let counted = self.counted {
            draft = AdjustmentDraft(effectiveAt: effectiveAt, productID: product.id, counted: try Quantity.parse(counted, field: "counted"),
                                    note: self.note, unitCost: unitCost)
        } else {
            let reason = try AdjustmentReason.parse(self.reason ?? "", field: "reason")
            draft = AdjustmentDraft(effectiveAt: effectiveAt, productID: product.id, quantityChange: try Quantity.parse(self.quantity ?? "", field: "quantity"),
                                    reason: reason, note: self.note, unitCost: unitCost)
        }
        let id = try await store.postAdjustment(draft.dating(whenBooked: self.date == nil))
        if self.format == .json { return printJSON(try store.api.created(id.rawValue)) }
        let after = try await store.product(product.id)
        print("Recorded adjustment \(id): \(product.name) now \(after.stock.quantity.decimalString) \(after.details.unit)")
    }
}
