import InventoryDomain

/// `POST /api/v1/adjustments`: a stock count or correction with its reason.
struct AdjustmentRequest: Decodable, Sendable, KnownFields {
    var effectiveAt: String?
    var productId: Int64
    /// A signed change; or, instead,
    var quantityChange: String?
    /// a count: the quantity found, booked as the difference to the stock on record (reason `count`).
    var countedQuantity: String?
    var reason: String?
    var note: String?
    var unitCost: String?
    static var fields: [String] { ["effectiveAt", "productId", "quantityChange", "countedQuantity", "reason", "note", "unitCost"] }

    func draft(_ formats: Formats) throws -> AdjustmentDraft {
        let effectiveAt = try formats.date(self.effectiveAt, field: "effectiveAt")
        let unitCost = try formats.money(self.unitCost, field: "unitCost")
        switch (self.quantityChange, self.countedQuantity) {
        case (nil, let counted?):
            if let reason = self.reason, reason != AdjustmentReason.count.rawValue {
                throw InventoryError(.invalidValue, field: "reason", "a count's reason is count")
            }
            return AdjustmentDraft(effectiveAt: effectiveAt, productID: ProductID(self.productId),
                                   counted: try formats.quantity(counted, field: "countedQuantity"), note: self.note ?? "", unitCost: unitCost)
                .dating(whenBooked: self.effectiveAt == nil)
        case (let change?, nil):
            guard let text = self.reason else { throw InventoryError(.missingValue, field: "reason", "is required") }
            let reason = try AdjustmentReason.parse(text, field: "reason")
            return AdjustmentDraft(effectiveAt: effectiveAt, productID: ProductID(self.productId),
                                   quantityChange: try formats.quantity(change, field: "quantityChange"), reason: reason, note: self.note ?? "",
                                   unitCost: unitCost)
                .dating(whenBooked: self.effectiveAt == nil)
        case (nil, nil):
            throw InventoryError(.missingValue, field: "quantityChange", "give quantityChange, or countedQuantity for a count")
        case (.some, .some):
            throw InventoryError(.invalidValue, field: "countedQuantity", "give either quantityChange or countedQuantity, not both")
        }
    }
}
