import Foundation

/// Decodes a sampled Data Matrix module grid (row 0 on top, solid L on the left and bottom) into text.
enum DMDecoder {
    struct Result {
        var text: String
        var bytes: [UInt8]
        var content = MessageContent(text: "")
    }

    /// Reads the data codewords of a full symbol matrix (`version.columns × version.rows`).
    static func codewords(_ m: BitMatrix, version: DMVersion) throws(BarcodeReaderError) -> [Int] {
        var raw = [Int](repeating: 0, count: version.totalCodewords)
        let modules = DMPlacement.modules(version)
        if m.width == version.columns && m.height == version.rows {
            m.bits.withUnsafeBufferPointer { bits in
                raw.withUnsafeMutableBufferPointer { raw in
                    for (index, p) in modules where bits[Int(index)] != 0 { raw[Int(p >> 3)] |= 0x80 >> Int(p & 7) }
                }
            }
        } else {
            // Not sampled at the version's size: modules outside the matrix read light.
            for (index, p) in modules where m.get(Int(index) % version.columns, Int(index) / version.columns) {
                raw[Int(p >> 3)] |= 0x80 >> Int(p & 7)
            }
        }
        // De-interleave: codeword i belongs to block i % blockCount (data, then error correction).
        let n = version.blockCount
        var dataLengths: [Int] = []
        for b in version.blocks { dataLengths += [Int](repeating: b.data, count: b.count) }
        var blocks = dataLengths.map { [Int](repeating: 0, count: $0 + version.ecCodewords) }
        var offset = 0
        let maxData = dataLengths.max() ?? 0
        for i in 0..<maxData {
            for j in 0..<n where i < dataLengths[j] {
                blocks[j][i] = raw[offset]
                offset += 1
            }
        }
        let special = version.rows == 144
        for i in 0..<version.ecCodewords {
            for j in 0..<n {
                let jj = special ? (j + 8) % n : j
                blocks[jj][dataLengths[jj] + i] = raw[offset]
                offset += 1
            }
        }
        var data = [Int](repeating: 0, count: version.totalDataCodewords)
        for j in 0..<n {
            var block = blocks[j]
            let corrected = try ReedSolomon.decode(&block, ecCount: version.ecCodewords, field: .dataMatrix)
            // The smallest symbol (10×10: 3 data and 5 check codewords) corrected to its full capacity (2 codewords)
            // is not trusted: a random word lies within 2 of one of its codewords once in 600,000 (256⁻⁵ × the
            // 1.8 million words within 2 of a given one), against once in 20 million and more for the next sizes
            // (12×12, 8×18: 3 of 7 check codewords), and the reader samples many grids over a faint symbol, at
            // several sizes. A 10×10 sampled over a noisy 18×18 in low light was "corrected" into `*UR` so.
            if version.ecCodewords <= 5 && corrected >= version.ecCodewords / 2 {
                throw BarcodeReaderError(.uncorrectable, "a small symbol at its full correction")
            }
            for i in 0..<dataLengths[j] { data[i * n + j] = block[i] }
        }
        return data
    }

    static func decode(_ m: BitMatrix, version: DMVersion) throws(BarcodeReaderError) -> Result {
        let data = try codewords(m, version: version)
        let content = try self.content(data)
        return Result(text: content.text, bytes: data.map { UInt8(truncatingIfNeeded: $0) }, content: content)
    }

    private enum Mode { case ascii, c40, text, x12, edifact, base256 }

    /// Parses ECC 200 data codewords into text (see ``content(_:)``).
    static func parse(_ data: [Int]) throws(BarcodeReaderError) -> String {
        try content(data).text
    }

    /// The ECI designator at `i` (ISO/IEC 16022 5.4.2: one, two or three codewords); advances `i`.
    static func eciValue(_ data: [Int], _ i: inout Int) throws(BarcodeReaderError) -> Int {
        func next() throws(BarcodeReaderError) -> Int {
            guard i < data.count else { throw BarcodeReaderError(.invalidData, "ECI") }
            i += 1
            return data[i - 1]
        }
        let c1 = try next()
        guard c1 > 127 else { return c1 - 1 }
        let c2 = try next()
        guard c1 > 191 else { return (c1 - 128) * 254 + 127 + c2 - 1 }
        let c3 = try next()
        return (c1 - 192) * 64516 + 16383 + (c2 - 1) * 254 + c3 - 1
    }

    /// Parses ECC 200 data codewords (ASCII, C40, Text, X12, EDIFACT, Base 256, FNC1, ECI, macros, structured
    /// append). FNC1 in the first position (after a structured-append header) marks GS1 data and is dropped;
    /// FNC1 elsewhere is GS (0x1D). Macro 05/06 expand to `[)>␞05␝` / `[)>␞06␝` … `␞␄`. Bytes after an ECI
    /// are decoded in its character set (ISO-8859-1 before any ECI).
    static func content(_ data: [Int]) throws(BarcodeReaderError) -> MessageContent {
        var content = MessageContent(text: "")
        var firstPosition = 1  // index after the codeword that may be FNC1 in the first position
        var out: [UInt8] = []
        var trailer: [UInt8] = []
        var i = 0
        var mode = Mode.ascii
        var upperShift = false
        var eci: String.Encoding?
        var segments: [([UInt8], String.Encoding?)] = []
        var c40 = C40State()
        func flush() {
            if !out.isEmpty { segments.append((out, eci)) }
            out = []
        }
        func emit(_ v: Int) {
            if v < 0 {
                upperShift = true
                return
            }
            out.append(UInt8(truncatingIfNeeded: upperShift ? v + 128 : v))
            upperShift = false
        }
        loop: while i < data.count {
            switch mode {
            case .ascii:
                let c = data[i]
                i += 1
                switch c {
                case 0: throw BarcodeReaderError(.invalidData, "codeword 0")
                case 1...128: emit(c - 1)
                case 129: break loop  // pad
                case 130...229:
                    let v = c - 130
                    emit(48 + v / 10)
                    emit(48 + v % 10)
                case 230: mode = .c40
                case 231: mode = .base256
                case 232:
                    if i == firstPosition {
                        content.gs1 = true
                    } else {
                        out.append(0x1D)
                    }
                case 233:
                    // Structured append, only as the first codeword: sequence indicator and two file id codewords.
                    guard i == 1, i + 3 <= data.count else { throw BarcodeReaderError(.invalidData, "structured append") }
                    let sequence = data[i]
                    let position = sequence >> 4
                    var total = 17 - (sequence & 0x0F)
                    if total > 16 || total <= position { total = 0 }
                    content.structuredAppend = StructuredAppend(
                        position: position, total: total, parity: (data[i + 1] << 8) | data[i + 2])
                    i += 3
                    firstPosition = i + 1
                case 234: break  // reader programming
                case 235: upperShift = true
                case 236, 237:
                    // Macro 05/06 (the first codeword in the specification; read anywhere, as zxing does).
                    out += Array("[)>\u{1E}\(c == 236 ? "05" : "06")\u{1D}".utf8)
                    trailer = Array("\u{1E}\u{04}".utf8)
                case 238: mode = .x12
                case 239: mode = .text
                case 240: mode = .edifact
                case 241:
                    let value = try eciValue(data, &i)
                    flush()
                    eci = QRDecoder.encoding(forECI: value)
                    content.eci.append(value)
                default: throw BarcodeReaderError(.invalidData, "codeword \(c)")
                }
            case .c40, .text:
                guard data[i] != 254 else {
                    i += 1
                    mode = .ascii
                    continue
                }
                guard i + 1 < data.count else {
                    mode = .ascii
                    continue
                }
                let v = data[i] * 256 + data[i + 1] - 1
                i += 2
                try decodeC40Triple([v / 1600, (v / 40) % 40, v % 40], text: mode == .text, emit: emit, state: &c40)
            case .x12:
                guard data[i] != 254 else {
                    i += 1
                    mode = .ascii
                    continue
                }
                guard i + 1 < data.count else {
                    mode = .ascii
                    continue
                }
                let v = data[i] * 256 + data[i + 1] - 1
                i += 2
                for k in [v / 1600, (v / 40) % 40, v % 40] {
                    switch k {
                    case 0: emit(13)
                    case 1: emit(42)
                    case 2: emit(62)
                    case 3: emit(32)
                    case 4...13: emit(48 + k - 4)
                    case 14...39: emit(65 + k - 14)
                    default: throw BarcodeReaderError(.invalidData, "X12")
                    }
                }
            case .edifact:
                // Four 6-bit values in three codewords; 011111 returns to ASCII. With fewer than three codewords
                // left, the symbol returned to ASCII without an unlatch (ISO/IEC 16022 5.2.8.2, as zxing reads it).
                guard data.count - i >= 3 else {
                    mode = .ascii
                    continue
                }
                var bits = 0
                var n = 0
                while n < 3 && i + n < data.count {
                    bits = (bits << 8) | data[i + n]
                    n += 1
                }
                bits <<= (3 - n) * 8
                let start = i
                i += n
                var unlatched = false
                for k in 0..<4 {
                    let v = (bits >> (18 - 6 * k)) & 0x3F
                    if v == 0x1F {
                        // Unlatch: the rest of its codeword is padding and ASCII resumes at the next codeword.
                        unlatched = true
                        i = min(i, start + (6 * k + 5) / 8 + 1)
                        break
                    }
                    emit(v & 0x20 == 0 ? v | 0x40 : v)
                }
                if unlatched || n < 3 { mode = .ascii }
            case .base256:
                func next() throws(BarcodeReaderError) -> Int {
                    guard i < data.count else { throw BarcodeReaderError(.invalidData, "base256") }
                    let position = i + 1
                    let pseudo = ((149 * position) % 255) + 1
                    let t = data[i] - pseudo
                    i += 1
                    return t >= 0 ? t : t + 256
                }
                let d1 = try next()
                var count: Int
                if d1 == 0 {
                    count = data.count - i
                } else if d1 < 250 {
                    count = d1
                } else {
                    count = 250 * (d1 - 249) + (try next())
                }
                guard count >= 0, count <= data.count - i else { throw BarcodeReaderError(.invalidData, "base256") }
                for _ in 0..<count { out.append(UInt8(try next())) }
                mode = .ascii
            }
        }
        out += trailer
        flush()
        for (bytes, enc) in segments {
            content.text += QRDecoder.decodeText(bytes, enc ?? .isoLatin1)
        }
        return content
    }

    struct C40State {
        var shift = 0
    }

    static func decodeC40Triple(
        _ values: [Int], text: Bool, emit: (Int) -> Void, state: inout C40State
    ) throws(BarcodeReaderError) {
        for v in values {
            switch state.shift {
            case 0:
                switch v {
                case 0...2: state.shift = v + 1
                case 3: emit(32)
                case 4...13: emit(48 + v - 4)
                case 14...39: emit((text ? 97 : 65) + v - 14)
                default: throw BarcodeReaderError(.invalidData, "C40")
                }
            case 1:
                emit(v)
                state.shift = 0
            case 2:
                switch v {
                case 0...14: emit(33 + v)
                case 15...21: emit(58 + v - 15)
                case 22...26: emit(91 + v - 22)
                case 27: emit(0x1D)
                case 30: emit(-1)  // upper shift marker handled by caller
                default: throw BarcodeReaderError(.invalidData, "C40 shift 2")
                }
                state.shift = 0
            default:
                if text {
                    switch v {
                    case 0: emit(96)
                    case 1...26: emit(65 + v - 1)
                    case 27...31: emit(123 + v - 27)
                    default: throw BarcodeReaderError(.invalidData, "Text shift 3")
                    }
                } else {
                    guard v <= 31 else { throw BarcodeReaderError(.invalidData, "C40 shift 3") }
                    emit(96 + v)
                }
                state.shift = 0
            }
        }
    }
}
