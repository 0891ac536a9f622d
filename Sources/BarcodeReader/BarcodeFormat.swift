/// The symbologies the reader understands; raw values are the names printed by `stockroom scan`.
public enum BarcodeFormat: String, Sendable, Equatable, Hashable, CaseIterable {
    case ean13 = "EAN-13"
    case ean8 = "EAN-8"
    case upcA = "UPC-A"
    case upcE = "UPC-E"
    case code128 = "Code128"
    case code39 = "Code39"
    case itf = "ITF"
    case qrCode = "QRCode"
    case dataMatrix = "DataMatrix"

    /// True for the row-scanned (1-D) symbologies.
    public var isLinear: Bool {
        switch self {
        case .qrCode, .dataMatrix: return false
        default: return true
        }
    }
}
