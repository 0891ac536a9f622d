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

/// The place of one symbol in a structured-append sequence (a message split over several QR Code or Data Matrix
/// symbols).
public struct StructuredAppend: Sendable, Equatable, Hashable {
    /// This symbol's place in the sequence, from 0.
    public var position: Int
    /// The number of symbols in the sequence; 0 when the symbol states an impossible count.
    public var total: Int
    /// What ties the symbols of one message together. QR Code: the parity byte (the XOR of every byte of the
    /// whole message); Data Matrix: the file identification (its two codewords as one 16-bit number).
    public var parity: Int

    /// Creates a structured-append position.
    public init(position: Int, total: Int, parity: Int) {
        self.position = position
        self.total = total
        self.parity = parity
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
    /// True when the symbol carries GS1 data: FNC1 in the first position (Data Matrix, QR Code). The FNC1 itself is
    /// not in ``text``; later FNC1s (the separators after variable-length fields) are GS, `"\u{1D}"`.
    public var gs1: Bool
    /// The ECI designators (character-set switches) the symbol used, in order; empty when it has none. ``text`` is
    /// already decoded in those character sets (QR Code, Data Matrix).
    public var eci: [Int]
    /// The symbol's place in a structured-append sequence, or nil when it stands alone (QR Code, Data Matrix).
    public var structuredAppend: StructuredAppend?

    /// Creates a result.
    public init(
        format: BarcodeFormat, text: String, rawBytes: [UInt8]? = nil, corners: [Point] = [], addOn: String? = nil,
        gs1: Bool = false, eci: [Int] = [], structuredAppend: StructuredAppend? = nil
    ) {
        self.format = format
        self.text = text
        self.rawBytes = rawBytes
        self.corners = corners
        self.addOn = addOn
        self.gs1 = gs1
        self.eci = eci
        self.structuredAppend = structuredAppend
    }
}
