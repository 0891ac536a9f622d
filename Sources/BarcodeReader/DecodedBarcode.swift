/// A point in image coordinates (pixels, origin top left).
public struct Point: Sendable, Equatable, Hashable {
    /// Horizontal coordinate.
    public var x: Double
    /// Vertical coordinate.
    public var y: Double

    /// Creates a point.
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }
}

/// One barcode found in an image.
public struct DecodedBarcode: Sendable, Equatable {
    /// The symbology.
    public var format: BarcodeFormat
    /// The decoded text.
    public var text: String
    /// The raw payload bytes, for symbologies that carry bytes (QR Code); nil otherwise.
    public var rawBytes: [UInt8]?
    /// Corner points, clockwise from the top left of the symbol as read.
    public var corners: [Point]
    /// The EAN-2 or EAN-5 add-on (supplement) printed after an EAN-13, UPC-A or UPC-E: its 2 or 5 digits, or nil
    /// when none was read. ``text`` stays the main code alone (what product lookup uses).
    public var addOn: String?

    /// Creates a result.
    public init(
        format: BarcodeFormat, text: String, rawBytes: [UInt8]? = nil, corners: [Point] = [], addOn: String? = nil
    ) {
        self.format = format
        self.text = text
        self.rawBytes = rawBytes
        self.corners = corners
        self.addOn = addOn
    }
}
