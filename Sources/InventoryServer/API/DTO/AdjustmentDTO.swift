import InventoryDomain

/// `POST /api/v1/adjustments`: a stock count or correction with its reason.
struct AdjustmentRequest: Decodable, Sendable, KnownFields {
    var effectiveAt: String?
    var productId: Int64
    var quantityChange: String
    var reason: String
    var note: String?
    var unitCost: String?
    static var fields: [String] { ["effectiveAt", "productId", "quantityChange", "reason", "note", "unitCost"] }
}
