/// A sale line a manager approved beyond the stock on record, listed for review (issue: "the count was wrong, the
/// delivery is not booked yet").
///
/// The rule: a sale whose ``SaleDraft/stockApprovedBy`` is set may take a product that does not allow negative stock
/// below zero; the ledger costs it as it costs negative stock (``StockLedger``), and a later receipt into the negative
/// balance books the difference as a cost adjustment. Every such line stays on the review list until a manager marks
/// its sale reviewed (after counting the shelf or booking the delivery). A line whose stock is no longer below zero
/// after it — a back-dated purchase arrived before it — is not on the list: nothing was sold beyond the stock on record.
public struct SoldBeyondStock: Sendable, Hashable {
    /// The sale.
    public var saleID: SaleID
    /// Its receipt number.
    public var receiptNumber: Int64
    /// When it was sold.
    public var effectiveAt: Instant
    /// The sale line's movement.
    public var movementID: MovementID
    public var productID: ProductID
    public var productName: String
    /// The quantity the line sold.
    public var quantity: Quantity
    /// How far below zero the line took the stock on record, at most ``quantity``.
    public var shortBy: Quantity
    /// The product's stock on record now.
    public var stockNow: Quantity
    /// Who rang the sale up.
    public var soldBy: String
    /// The manager who approved it.
    public var approvedBy: String
    /// The manager who marked the sale reviewed (empty while it waits for review).
    public var reviewedBy: String
    /// When it was reviewed.
    public var reviewedAt: Instant?

    /// Creates a value; ``shortBy`` is worked out from the line's quantity and the stock after it.
    public init(saleID: SaleID, receiptNumber: Int64, effectiveAt: Instant, movementID: MovementID, productID: ProductID, productName: String,
                quantity: Quantity, stockAfter: Quantity, stockNow: Quantity, soldBy: String, approvedBy: String,
                reviewedBy: String = "", reviewedAt: Instant? = nil) {
        self.saleID = saleID
        self.receiptNumber = receiptNumber
        self.effectiveAt = effectiveAt
        self.movementID = movementID
        self.productID = productID
        self.productName = productName
        self.quantity = quantity
        self.shortBy = Self.shortBy(quantity: quantity, stockAfter: stockAfter)
        self.stockNow = stockNow
        self.soldBy = soldBy
        self.approvedBy = approvedBy
        self.reviewedBy = reviewedBy
        self.reviewedAt = reviewedAt
    }

    /// How much of a line of `quantity` went beyond the stock on record, given the stock after it: the part below
    /// zero, at most the line's quantity (stock already below zero before the line).
    public static func shortBy(quantity: Quantity, stockAfter: Quantity) -> Quantity {
        stockAfter.thousandths >= 0 ? .zero : min(quantity.magnitude, stockAfter.magnitude)
    }
}
