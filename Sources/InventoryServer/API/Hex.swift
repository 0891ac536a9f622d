extension Sequence<UInt8> {
    /// The bytes as lower-case hexadecimal, two digits each (a digest's usual text form). Written out by hand: it runs
    /// on every signed-in request (the token's hash), where `String(format:)` per byte cost an eighth of a lookup.
    var lowercaseHex: String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(64)
        for byte in self {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
