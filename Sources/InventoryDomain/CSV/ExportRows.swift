import Foundation

/// The rows of a CSV export (``ExportKind``) as typed values, and how each becomes its CSV cells: every backend reads
/// the rows with its own SQL and hands them here, so the columns, their order and their formatting are written once.
public struct ExportFormat: Sendable {
    public var currency: Currency
    public var calendar: ShopCalendar

    public init(currency: Currency, calendar: ShopCalendar) {
        self.currency = currency
        self.calendar = calendar
    }

    func money(_ value: Int64?) -> String { value.map { Money(minorUnits: $0).decimalString(self.currency) } ?? "" }
    func quantity(_ value: Int64?) -> String { value.map { Quantity(thousandths: $0).decimalString } ?? "" }
    func flag(_ value: Bool) -> String { value ? "true" : "false" }
    func time(_ value: Instant) -> String { self.calendar.localISO8601(value) }
    /// The average cost of a balance, rounded once (``LedgerBalance/roundedAverageCost``).
    func average(quantity: Int64, value: Int64, kept: Int64) -> String {
        LedgerBalance(quantity: Quantity(thousandths: quantity), value: Money(minorUnits: value), averageCost: UnitCost(scaled: kept))
            .roundedAverageCost.decimalString(self.currency)
    }

    // MARK: Products

    public static let productHeader = [
        "id", "name", "sku", "barcode", "category", "unit", "sale_price", "minimum_sale_price", "tax_rate", "low_stock_threshold", "track_stock",
        "allow_negative_stock", "icon", "archived", "cost_price", "quantity", "stock_value", "supplier_code", "pack_size", "description", "shelf",
    ]

    /// A product as stored (amounts in minor units, quantities in thousandths).
    public struct ProductRow: Sendable {
        public var id: Int64, name: String, sku: String?, barcode: String?, category: String?, unit: String, salePrice: Int64
        public var minimumSalePrice: Int64?, taxRate: Int64, lowStockThreshold: Int64?, tracksStock: Bool, allowsNegativeStock: Bool
        public var icon: String, archived: Bool, averageCost: Int64, quantity: Int64, value: Int64, supplierCode: String?, packSize: Int64
        public var description: String, shelf: String?

        public init(id: Int64, name: String, sku: String?, barcode: String?, category: String?, unit: String, salePrice: Int64, minimumSalePrice: Int64?,
                    taxRate: Int64, lowStockThreshold: Int64?, tracksStock: Bool, allowsNegativeStock: Bool, icon: String, archived: Bool,
                    averageCost: Int64, quantity: Int64, value: Int64, supplierCode: String?, packSize: Int64, description: String, shelf: String?) {
            (self.id, self.name, self.sku, self.barcode, self.category, self.unit, self.salePrice) = (id, name, sku, barcode, category, unit, salePrice)
            (self.minimumSalePrice, self.taxRate, self.lowStockThreshold, self.tracksStock) = (minimumSalePrice, taxRate, lowStockThreshold, tracksStock)
            (self.allowsNegativeStock, self.icon, self.archived, self.averageCost) = (allowsNegativeStock, icon, archived, averageCost)
            (self.quantity, self.value, self.supplierCode, self.packSize, self.description, self.shelf) = (quantity, value, supplierCode, packSize, description, shelf)
        }
    }

    public func cells(_ r: ProductRow) -> [String] {
        [String(r.id), r.name, r.sku ?? "", r.barcode ?? "", r.category ?? "", r.unit, self.money(r.salePrice), self.money(r.minimumSalePrice),
         Percent(hundredths: r.taxRate).decimalString, self.quantity(r.lowStockThreshold), self.flag(r.tracksStock), self.flag(r.allowsNegativeStock),
         r.icon, self.flag(r.archived), self.average(quantity: r.quantity, value: r.value, kept: r.averageCost), self.quantity(r.quantity),
         self.money(r.value), r.supplierCode ?? "", self.quantity(r.packSize), r.description, r.shelf ?? ""]
    }

    // MARK: Contacts

    public static let contactHeader = ["id", "name", "location", "phone", "email", "note"]

    public func cells(contact id: Int64, name: String, location: String, phone: String, email: String, note: String) -> [String] {
        [String(id), name, location, phone, email, note]
    }

    // MARK: Purchases

    public static let purchaseHeader = ["purchase_id", "date", "supplier", "note", "line", "product_id", "product", "quantity", "unit_cost", "amount", "lot", "expiry"]

    public struct PurchaseLineRow: Sendable {
        public var documentID: Int64, effectiveAt: Instant, supplier: String?, note: String, lineNo: Int, productID: Int64, product: String
        public var quantity: Int64, unitCost: Int64, lot: String?, expiry: String?

        public init(documentID: Int64, effectiveAt: Instant, supplier: String?, note: String, lineNo: Int, productID: Int64, product: String,
                    quantity: Int64, unitCost: Int64, lot: String?, expiry: String?) {
            (self.documentID, self.effectiveAt, self.supplier, self.note, self.lineNo, self.productID) = (documentID, effectiveAt, supplier, note, lineNo, productID)
            (self.product, self.quantity, self.unitCost, self.lot, self.expiry) = (product, quantity, unitCost, lot, expiry)
        }
    }

    public func cells(_ r: PurchaseLineRow) -> [String] {
        let quantity = Quantity(thousandths: r.quantity), cost = Money(minorUnits: r.unitCost)
        return [String(r.documentID), self.time(r.effectiveAt), r.supplier ?? "", r.note, String(r.lineNo + 1), String(r.productID), r.product,
                quantity.decimalString, cost.decimalString(self.currency), Money.extended(cost, by: quantity).decimalString(self.currency),
                r.lot ?? "", r.expiry ?? ""]
    }

    // MARK: Sales

    public static let saleHeader = [
        "sale_id", "date", "customer", "payment", "tip", "note", "line", "product_id", "product", "quantity", "unit_price", "discount", "revenue",
        "tax_rate", "tax", "cogs", "profit", "prices_include_tax", "type", "return_id", "payments",
    ]

    /// A payment of a document (or, negated, a refund) as stored.
    public struct PaymentRow: Sendable {
        public var documentID: Int64, method: String, amount: Int64, status: String

        public init(documentID: Int64, method: String, amount: Int64, status: String) {
            (self.documentID, self.method, self.amount, self.status) = (documentID, method, amount, status)
        }
    }

    /// Each document's payments as one cell: "cash 10.00; card 5.00 pending".
    public func paymentTexts(_ rows: [PaymentRow]) -> [Int64: String] {
        var texts: [Int64: [String]] = [:]
        for row in rows {
            texts[row.documentID, default: []].append("\(row.method) \(self.money(row.amount))" + (row.status == "completed" ? "" : " \(row.status)"))
        }
        return texts.mapValues { $0.joined(separator: "; ") }
    }

    /// A sale line, or a customer return's line as a line of its sale (quantity, revenue, tax and cost going back).
    public struct SaleLineRow: Sendable {
        public var saleID: Int64, effectiveAt: Instant, customer: String?, paymentMethod: String?, tip: Int64, note: String, lineNo: Int
        public var productID: Int64, product: String, quantity: Int64, unitAmount: Int64, discount: Int64, revenue: Int64, taxRate: Int64
        public var tax: Int64, valueChange: Int64, pricesIncludeTax: Bool, isReturn: Bool, documentID: Int64

        public init(saleID: Int64, effectiveAt: Instant, customer: String?, paymentMethod: String?, tip: Int64, note: String, lineNo: Int,
                    productID: Int64, product: String, quantity: Int64, unitAmount: Int64, discount: Int64, revenue: Int64, taxRate: Int64,
                    tax: Int64, valueChange: Int64, pricesIncludeTax: Bool, isReturn: Bool, documentID: Int64) {
            (self.saleID, self.effectiveAt, self.customer, self.paymentMethod, self.tip, self.note) = (saleID, effectiveAt, customer, paymentMethod, tip, note)
            (self.lineNo, self.productID, self.product, self.quantity, self.unitAmount) = (lineNo, productID, product, quantity, unitAmount)
            (self.discount, self.revenue, self.taxRate, self.tax, self.valueChange) = (discount, revenue, taxRate, tax, valueChange)
            (self.pricesIncludeTax, self.isReturn, self.documentID) = (pricesIncludeTax, isReturn, documentID)
        }
    }

    /// `taken`: the sales' payments, `refunded`: the returns' refunds (``paymentTexts(_:)``).
    public func cells(_ r: SaleLineRow, taken: [Int64: String], refunded: [Int64: String]) -> [String] {
        let cogs = -r.valueChange
        let quantity = Quantity(thousandths: -r.quantity)
        guard !r.isReturn else {
            return [String(r.saleID), self.time(r.effectiveAt), r.customer ?? "", r.paymentMethod ?? "", "", r.note, String(r.lineNo + 1),
                    String(r.productID), r.product, quantity.decimalString, self.money(r.unitAmount), "", self.money(r.revenue),
                    Percent(hundredths: r.taxRate).decimalString, self.money(r.tax), self.money(cogs), self.money(r.revenue - cogs),
                    self.flag(r.pricesIncludeTax), "return", String(r.documentID), refunded[r.documentID] ?? ""]
        }
        // The price and the discount as the receipt shows them (with tax where the sale's prices include it).
        let line = SaleRecord.Line(
            movementID: MovementID(0), productID: ProductID(r.productID), productName: r.product, quantity: quantity,
            unitPrice: Money(minorUnits: r.unitAmount), discount: Money(minorUnits: r.discount), taxRate: Percent(hundredths: r.taxRate),
            tax: Money(minorUnits: r.tax), revenue: Money(minorUnits: r.revenue), costOfGoodsSold: Money(minorUnits: cogs), taxIncluded: r.pricesIncludeTax)
        return [String(r.saleID), self.time(r.effectiveAt), r.customer ?? "", r.paymentMethod ?? "", self.money(r.tip), r.note, String(r.lineNo + 1),
                String(r.productID), r.product, line.quantity.decimalString, self.money(r.unitAmount), line.discount.decimalString(self.currency),
                self.money(r.revenue), line.taxRate.decimalString, self.money(r.tax), self.money(cogs), self.money(r.revenue - cogs),
                self.flag(r.pricesIncludeTax), "sale", "", taken[r.documentID] ?? ""]
    }

    // MARK: Movements

    public static let movementHeader = [
        "movement_id", "date", "recorded_at", "product_id", "product", "kind", "reason", "document_id", "quantity", "value_change",
        "cost_adjustment", "quantity_after", "value_after", "average_cost_after",
    ]

    public struct MovementRow: Sendable {
        public var id: Int64, effectiveAt: Instant, recordedAt: Instant, productID: Int64, product: String, kind: String, reason: String?
        public var documentID: Int64, quantity: Int64, valueChange: Int64, costAdjustment: Int64, quantityAfter: Int64, valueAfter: Int64
        public var averageCostAfter: Int64

        public init(id: Int64, effectiveAt: Instant, recordedAt: Instant, productID: Int64, product: String, kind: String, reason: String?,
                    documentID: Int64, quantity: Int64, valueChange: Int64, costAdjustment: Int64, quantityAfter: Int64, valueAfter: Int64,
                    averageCostAfter: Int64) {
            (self.id, self.effectiveAt, self.recordedAt, self.productID, self.product, self.kind) = (id, effectiveAt, recordedAt, productID, product, kind)
            (self.reason, self.documentID, self.quantity, self.valueChange, self.costAdjustment) = (reason, documentID, quantity, valueChange, costAdjustment)
            (self.quantityAfter, self.valueAfter, self.averageCostAfter) = (quantityAfter, valueAfter, averageCostAfter)
        }
    }

    public func cells(_ r: MovementRow) -> [String] {
        [String(r.id), self.time(r.effectiveAt), self.time(r.recordedAt), String(r.productID), r.product, r.kind, r.reason ?? "", String(r.documentID),
         self.quantity(r.quantity), self.money(r.valueChange), self.money(r.costAdjustment), self.quantity(r.quantityAfter), self.money(r.valueAfter),
         self.average(quantity: r.quantityAfter, value: r.valueAfter, kept: r.averageCostAfter)]
    }
}
