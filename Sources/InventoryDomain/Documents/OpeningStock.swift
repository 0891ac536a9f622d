import Foundation

/// The stock a product starts with when it is created (what the iOS app asked for on its "add product" screen): a
/// quantity and what one unit of it cost.
///
/// The books receive it as an opening balance: an adjustment with the reason ``AdjustmentReason/initial`` that adds
/// the quantity at the given unit cost (``MovementEffect/receipt(quantity:unitCost:)``), so the product's average cost
/// starts at that cost, and dated when the ledger books it (the product has no earlier movement to land before). It is
/// booked in the same transaction as the product, so a refusal of either leaves neither.
public struct OpeningStock: Sendable, Hashable {
    /// The quantity on hand at creation; more than zero.
    public var quantity: Quantity
    /// What one unit cost; required (an opening balance without a cost would enter the books at zero value).
    public var unitCost: Money?

    /// Creates an opening stock.
    public init(quantity: Quantity, unitCost: Money?) {
        self.quantity = quantity
        self.unitCost = unitCost
    }

    /// Checks the opening stock of a product with `details` (already validated).
    /// - Throws: ``InventoryError`` on `openingStock.quantity` (not above zero, too large), `openingStock.unitCost`
    ///   (missing, negative, too large) or `openingStock` (the product does not track stock).
    public func validated(for details: ProductDetails) throws -> OpeningStock {
        guard details.tracksStock else {
            throw InventoryError(.invalidValue, field: "openingStock", "applies only to a product that tracks stock")
        }
        guard self.quantity > .zero else {
            throw InventoryError(.invalidValue, field: "openingStock.quantity", "must be more than zero")
        }
        try self.quantity.requireWithinLimit(field: "openingStock.quantity")
        guard let cost = self.unitCost else {
            throw InventoryError(.missingValue, field: "openingStock.unitCost", "is required with an opening stock: what one unit cost")
        }
        guard cost >= .zero else { throw InventoryError(.invalidValue, field: "openingStock.unitCost", "must not be negative") }
        try cost.requireWithinLimit(field: "openingStock.unitCost")
        return self
    }

    /// The adjustment that books it for `productID`: reason ``AdjustmentReason/initial``, at the unit cost, dated when
    /// the ledger books it (`askedAt` being the earliest).
    public func adjustment(of productID: ProductID, askedAt: Instant) -> AdjustmentDraft {
        AdjustmentDraft(effectiveAt: askedAt, productID: productID, quantityChange: self.quantity, reason: .initial,
                        note: "Opening stock", unitCost: self.unitCost ?? .zero)
            .dating(whenBooked: true)
    }
}
