import Foundation

/// A product as the existing iOS client reads it from `GET /api/public/get` and in `POST /api/public/add`'s answer:
/// snake_case names and JSON numbers, as that client expects (Foundation's `Decimal`, exact, never a `Double`).
struct PublicProductResponse: Encodable, Sendable {
    var image: String
    var price: Decimal
    var product_name: String
    var product_type: String
    var tax: Decimal
}

/// `POST /api/public/add`'s answer: `success` and a message, with the product when it was added.
struct PublicAddResponse: Encodable, Sendable {
    var message: String
    var product_details: PublicProductResponse?
    var product_id: Int64?
    var success: Bool
}
