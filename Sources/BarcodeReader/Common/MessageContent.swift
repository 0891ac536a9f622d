/// A 2-D symbol's decoded message with what its codewords said about it (QR Code, Data Matrix).
struct MessageContent: Equatable {
    var text: String
    /// FNC1 in the first position: GS1 data.
    var gs1 = false
    /// ECI designators in order.
    var eci: [Int] = []
    var structuredAppend: StructuredAppend?
}
