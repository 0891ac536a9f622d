/// `POST /api/v1/barcodes/decode`: the picture's size, how long reading took, and each code found with the product
/// that has it.
struct BarcodeDecodeResponse: Encodable, Sendable {
    var width: Int
    var height: Int
    var milliseconds: Int
    var barcodes: [Code]

    struct Code: Encodable, Sendable {
        var format: String
        var text: String
        var product: ProductResponse?
    }
}
