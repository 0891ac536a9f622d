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
        /// An EAN-2/EAN-5 add-on printed beside an EAN/UPC code (an issue number, a price); product lookup uses `text`.
        var addOn: String?
        /// GS1 data (FNC1 in the first position; later separators are `\u{1D}`).
        var gs1: Bool
        var product: ProductResponse?
    }
}
