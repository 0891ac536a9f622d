import Foundation

/// Decodes a sampled QR module grid into text.
enum QRDecoder {
    struct Result {
        var text: String
        var bytes: [UInt8]
        var version: Int
        var level: QRErrorCorrectionLevel
        var content = MessageContent(text: "")
    }

    @inline(__always)
    static func isMasked(_ mask: Int, row i: Int, column j: Int) -> Bool {
        switch mask {
        case 0: return (i + j) % 2 == 0
        case 1: return i % 2 == 0
        case 2: return j % 3 == 0
        case 3: return (i + j) % 3 == 0
        case 4: return (i / 2 + j / 3) % 2 == 0
        case 5: return (i * j) % 2 + (i * j) % 3 == 0
        case 6: return ((i * j) % 2 + (i * j) % 3) % 2 == 0
        default: return ((i + j) % 2 + (i * j) % 3) % 2 == 0
        }
    }

    /// Reads both copies of the format information.
    static func readFormatInformation(_ m: BitMatrix) -> QRFormatInformation? {
        func bit(_ x: Int, _ y: Int, _ acc: Int) -> Int { (acc << 1) | (m.get(x, y) ? 1 : 0) }
        var b1 = 0
        for i in 0..<6 { b1 = bit(i, 8, b1) }
        b1 = bit(7, 8, b1)
        b1 = bit(8, 8, b1)
        b1 = bit(8, 7, b1)
        for j in stride(from: 5, through: 0, by: -1) { b1 = bit(8, j, b1) }
        let d = m.height
        var b2 = 0
        for j in stride(from: d - 1, through: d - 7, by: -1) { b2 = bit(8, j, b2) }
        for i in (d - 8)..<d { b2 = bit(i, 8, b2) }
        return QRFormatInformation.decode(b1, b2)
    }

    /// Reads the version from the matrix size, or from the version information for versions 7+.
    static func readVersion(_ m: BitMatrix) -> QRVersion? {
        let d = m.height
        let provisional = (d - 17) / 4
        if provisional <= 6 { return QRVersion.forDimension(d) }
        var bits = 0
        for j in stride(from: 5, through: 0, by: -1) {
            for i in stride(from: d - 9, through: d - 11, by: -1) { bits = (bits << 1) | (m.get(i, j) ? 1 : 0) }
        }
        if let v = QRVersion.decodeVersionInformation(bits), v.dimension == d { return v }
        bits = 0
        for i in stride(from: 5, through: 0, by: -1) {
            for j in stride(from: d - 9, through: d - 11, by: -1) { bits = (bits << 1) | (m.get(i, j) ? 1 : 0) }
        }
        if let v = QRVersion.decodeVersionInformation(bits), v.dimension == d { return v }
        return nil
    }

    /// Decodes a square module matrix (1 = dark).
    static func decode(_ m: BitMatrix) throws(BarcodeReaderError) -> Result {
        guard m.width == m.height, m.width >= 21, let version = readVersion(m) else {
            throw BarcodeReaderError(.invalidFormatInformation, "version")
        }
        guard let format = readFormatInformation(m) else {
            throw BarcodeReaderError(.invalidFormatInformation, "format")
        }
        let d = version.dimension
        let function = version.functionPattern()
        // Read codewords in the zig-zag order, unmasking on the fly.
        var raw: [Int] = []
        raw.reserveCapacity(version.totalCodewords)
        var readingUp = true
        var current = 0
        var bitsRead = 0
        var j = d - 1
        while j > 0 {
            if j == 6 { j -= 1 }
            for count in 0..<d {
                let i = readingUp ? d - 1 - count : count
                for col in 0..<2 where !function.get(j - col, i) {
                    var bit = m.get(j - col, i)
                    if isMasked(format.mask, row: i, column: j - col) { bit.toggle() }
                    current = (current << 1) | (bit ? 1 : 0)
                    bitsRead += 1
                    if bitsRead == 8 {
                        raw.append(current)
                        current = 0
                        bitsRead = 0
                    }
                }
            }
            readingUp.toggle()
            j -= 2
        }
        guard raw.count == version.totalCodewords else {
            throw BarcodeReaderError(.invalidData, "codeword count")
        }
        let data = try correct(raw, version: version, level: format.level)
        // A stream that starts with the terminator holds no message: nothing to report, and what a periodic texture
        // sampled as a grid gives (all-zero codewords are a valid Reed–Solomon codeword).
        guard let first = data.first, first >> 4 != 0 else { throw BarcodeReaderError(.invalidData, "no message") }
        let content = try self.content(data, version: version)
        return Result(
            text: content.text, bytes: data.map { UInt8($0) }, version: version.number, level: format.level,
            content: content)
    }

    /// De-interleaves the blocks, corrects each, and returns the data codewords.
    static func correct(_ raw: [Int], version: QRVersion, level: QRErrorCorrectionLevel) throws(BarcodeReaderError)
        -> [Int]
    {
        let ecb = version.ecBlocks[level.rawValue]
        var blocks: [(data: Int, codewords: [Int])] = []
        for g in ecb.groups {
            for _ in 0..<g.count {
                blocks.append(
                    (g.dataCodewords, [Int](repeating: 0, count: g.dataCodewords + ecb.ecCodewordsPerBlock)))
            }
        }
        let shorterTotal = blocks[0].codewords.count
        var longerStart = blocks.count - 1
        while longerStart >= 0 {
            if blocks[longerStart].codewords.count == shorterTotal { break }
            longerStart -= 1
        }
        longerStart += 1
        let shorterData = shorterTotal - ecb.ecCodewordsPerBlock
        var offset = 0
        for i in 0..<shorterData {
            for j in blocks.indices {
                blocks[j].codewords[i] = raw[offset]
                offset += 1
            }
        }
        for j in longerStart..<blocks.count {
            blocks[j].codewords[shorterData] = raw[offset]
            offset += 1
        }
        let maxLen = blocks[0].codewords.count
        for i in shorterData..<maxLen {
            for j in blocks.indices {
                let k = j < longerStart ? i : i + 1
                blocks[j].codewords[k] = raw[offset]
                offset += 1
            }
        }
        var out: [Int] = []
        for var block in blocks {
            try ReedSolomon.decode(&block.codewords, ecCount: ecb.ecCodewordsPerBlock, field: .qrCode)
            out += block.codewords[0..<block.data]
        }
        return out
    }

    struct BitSource {
        let bytes: [Int]
        var position = 0  // in bits
        var available: Int { self.bytes.count * 8 - self.position }

        mutating func read(_ n: Int) throws(BarcodeReaderError) -> Int {
            guard n <= self.available, n <= 32 else { throw BarcodeReaderError(.invalidData, "bit stream ended") }
            var v = 0
            for _ in 0..<n {
                let byte = self.bytes[self.position >> 3]
                let bit = (byte >> (7 - (self.position & 7))) & 1
                v = (v << 1) | bit
                self.position += 1
            }
            return v
        }
    }

    static let alphanumeric = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ $%*+-./:".utf8)

    /// Character-count bits for a mode in a version.
    static func countBits(mode: Int, version: Int) -> Int {
        let idx = version <= 9 ? 0 : (version <= 26 ? 1 : 2)
        switch mode {
        case 1: return [10, 12, 14][idx]
        case 2: return [9, 11, 13][idx]
        case 4: return [8, 16, 16][idx]
        case 8, 0xD: return [8, 10, 12][idx]
        default: return 0
        }
    }

    /// A run of text in one character encoding.
    private struct Segment {
        var bytes: [UInt8] = []
        var encoding: String.Encoding?  // nil = guess (no ECI)
    }

    /// Parses the data bit stream into text (see ``content(_:version:)``).
    static func parseBitStream(_ data: [Int], version: QRVersion) throws(BarcodeReaderError) -> String {
        try content(data, version: version).text
    }

    /// Parses the data bit stream (numeric, alphanumeric, byte, Kanji, Hanzi, ECI, FNC1, structured append).
    /// FNC1 in the first position marks GS1 data; structured append gives the symbol's place in its sequence.
    static func content(_ data: [Int], version: QRVersion) throws(BarcodeReaderError) -> MessageContent {
        var content = MessageContent(text: "")
        var bits = BitSource(bytes: data)
        var segments: [Segment] = [Segment()]
        var eci: String.Encoding?
        var fnc1 = false
        func append(_ bytes: [UInt8], _ enc: String.Encoding?) {
            if let last = segments.last, last.encoding == enc {
                segments[segments.count - 1].bytes += bytes
            } else {
                segments.append(Segment(bytes: bytes, encoding: enc))
            }
        }
        while bits.available >= 4 {
            let mode = try bits.read(4)
            switch mode {
            case 0:
                bits.position = bits.bytes.count * 8
            case 1:
                var count = try bits.read(countBits(mode: 1, version: version.number))
                var out: [UInt8] = []
                while count >= 3 {
                    let v = try bits.read(10)
                    guard v < 1000 else { throw BarcodeReaderError(.invalidData, "numeric") }
                    out += [UInt8(48 + v / 100), UInt8(48 + (v / 10) % 10), UInt8(48 + v % 10)]
                    count -= 3
                }
                if count == 2 {
                    let v = try bits.read(7)
                    guard v < 100 else { throw BarcodeReaderError(.invalidData, "numeric") }
                    out += [UInt8(48 + v / 10), UInt8(48 + v % 10)]
                } else if count == 1 {
                    let v = try bits.read(4)
                    guard v < 10 else { throw BarcodeReaderError(.invalidData, "numeric") }
                    out.append(UInt8(48 + v))
                }
                append(out, .ascii)
            case 2:
                var count = try bits.read(countBits(mode: 2, version: version.number))
                var out: [UInt8] = []
                while count > 1 {
                    let v = try bits.read(11)
                    guard v < 45 * 45 else { throw BarcodeReaderError(.invalidData, "alphanumeric") }
                    out += [alphanumeric[v / 45], alphanumeric[v % 45]]
                    count -= 2
                }
                if count == 1 {
                    let v = try bits.read(6)
                    guard v < 45 else { throw BarcodeReaderError(.invalidData, "alphanumeric") }
                    out.append(alphanumeric[v])
                }
                if fnc1 {
                    // %% -> %, lone % -> GS
                    var fixed: [UInt8] = []
                    var k = 0
                    while k < out.count {
                        if out[k] == UInt8(ascii: "%") {
                            if k + 1 < out.count && out[k + 1] == UInt8(ascii: "%") {
                                fixed.append(UInt8(ascii: "%"))
                                k += 1
                            } else {
                                fixed.append(0x1D)
                            }
                        } else {
                            fixed.append(out[k])
                        }
                        k += 1
                    }
                    out = fixed
                }
                append(out, .ascii)
            case 4:
                let count = try bits.read(countBits(mode: 4, version: version.number))
                guard count * 8 <= bits.available else { throw BarcodeReaderError(.invalidData, "byte count") }
                var out: [UInt8] = []
                out.reserveCapacity(count)
                for _ in 0..<count { out.append(UInt8(try bits.read(8))) }
                append(out, eci)
            case 8:
                let count = try bits.read(countBits(mode: 8, version: version.number))
                var out: [UInt8] = []
                for _ in 0..<count {
                    let v = try bits.read(13)
                    var assembled = ((v / 0xC0) << 8) | (v % 0xC0)
                    assembled += assembled < 0x1F00 ? 0x8140 : 0xC140
                    out += [UInt8(truncatingIfNeeded: assembled >> 8), UInt8(truncatingIfNeeded: assembled)]
                }
                append(out, .shiftJIS)
            case 0xD:
                // Hanzi (GB 2312): subset indicator then 13-bit characters.
                let subset = try bits.read(4)
                let count = try bits.read(countBits(mode: 0xD, version: version.number))
                guard subset == 1 else { throw BarcodeReaderError(.invalidData, "hanzi subset") }
                var out: [UInt8] = []
                for _ in 0..<count {
                    let v = try bits.read(13)
                    var assembled = ((v / 0x60) << 8) | (v % 0x60)
                    assembled += assembled < 0x00A00 ? 0x0A1A1 : 0x0A6A1
                    out += [UInt8(truncatingIfNeeded: assembled >> 8), UInt8(truncatingIfNeeded: assembled)]
                }
                append(out, cfEncoding(0x0632))  // GB 18030
            case 7:
                let first = try bits.read(8)
                var value: Int
                if first & 0x80 == 0 {
                    value = first & 0x7F
                } else if first & 0xC0 == 0x80 {
                    value = ((first & 0x3F) << 8) | (try bits.read(8))
                } else if first & 0xE0 == 0xC0 {
                    value = ((first & 0x1F) << 16) | (try bits.read(16))
                } else {
                    throw BarcodeReaderError(.invalidData, "ECI")
                }
                eci = encoding(forECI: value)
                content.eci.append(value)
            case 3:
                // Structured append: position and total - 1 (4 bits each), then the message's parity byte.
                let position = try bits.read(4)
                let total = try bits.read(4) + 1
                let parity = try bits.read(8)
                content.structuredAppend = StructuredAppend(
                    position: position, total: total > position ? total : 0, parity: parity)
            case 5:
                content.gs1 = true
                fnc1 = true
            case 9:
                fnc1 = true
                _ = try bits.read(8)
            default:
                throw BarcodeReaderError(.invalidData, "mode \(mode)")
            }
        }
        // Byte segments without ECI share one guessed encoding; Kanji segments make Shift-JIS likely.
        let hasKanji = segments.contains { $0.encoding == .shiftJIS }
        let unlabelled = segments.filter { $0.encoding == nil }.flatMap(\.bytes)
        let guessed = guessEncoding(unlabelled, preferShiftJIS: hasKanji)
        for s in segments where !s.bytes.isEmpty {
            content.text += decodeText(s.bytes, s.encoding ?? guessed)
        }
        return content
    }

    /// A Core Foundation string encoding as a `String.Encoding` (its documented conversion: the CF value with the
    /// high bit set), for the character sets that have no named constant.
    static func cfEncoding(_ cf: UInt) -> String.Encoding { String.Encoding(rawValue: 0x8000_0000 | cf) }

    /// The character set of an ECI designator (AIM ECI register), or nil for one Foundation cannot decode.
    static func encoding(forECI value: Int) -> String.Encoding? {
        switch value {
        case 0, 2: return cfEncoding(0x0400)  // Code page 437
        case 1, 3: return .isoLatin1
        case 4: return .isoLatin2
        // ISO-8859-3 … -11 and -13 … -16 (ECI 14 is unassigned): CF's ISO Latin encodings 0x02nn, nn = the part.
        case 5...13, 15...18: return cfEncoding(0x0200 + UInt(value - 2))
        case 20: return .shiftJIS
        case 21: return .windowsCP1250
        case 22: return .windowsCP1251
        case 23: return .windowsCP1252
        case 25: return .utf16BigEndian
        case 26: return .utf8
        case 27, 170: return .ascii
        case 28: return cfEncoding(0x0A03)  // Big5
        case 29: return cfEncoding(0x0930)  // GB 2312 (EUC-CN)
        case 30: return cfEncoding(0x0940)  // EUC-KR
        case 31, 32: return cfEncoding(0x0632)  // GBK, GB 18030 (GB 18030 decodes both)
        case 33: return .utf16LittleEndian
        case 34: return .utf32BigEndian
        case 35: return .utf32LittleEndian
        default: return nil
        }
    }

    /// Guesses the encoding of byte-mode data without ECI: UTF-8 when valid, Shift-JIS when it parses and
    /// looks Japanese, else ISO-8859-1.
    static func guessEncoding(_ bytes: [UInt8], preferShiftJIS: Bool) -> String.Encoding {
        if bytes.allSatisfy({ $0 < 0x80 }) { return preferShiftJIS ? .shiftJIS : .utf8 }
        if String(validating: bytes, as: UTF8.self) != nil { return .utf8 }
        if looksLikeShiftJIS(bytes, lenient: preferShiftJIS) { return .shiftJIS }
        return .isoLatin1
    }

    /// Turns bytes into text in `encoding`, falling back to ISO-8859-1.
    static func decodeText(_ bytes: [UInt8], _ encoding: String.Encoding) -> String {
        if let s = String(data: Data(bytes), encoding: encoding) { return s }
        return String(String.UnicodeScalarView(bytes.map { Unicode.Scalar($0) }))
    }

    /// Checks that the bytes are valid Shift-JIS with a double-byte character or a run of 3+ half-width
    /// katakana (any valid Shift-JIS when `lenient`).
    static func looksLikeShiftJIS(_ bytes: [UInt8], lenient: Bool) -> Bool {
        var i = 0
        var doubleBytes = 0
        var katakanaRun = 0
        var maxKatakanaRun = 0
        while i < bytes.count {
            let b = bytes[i]
            if (0xA1...0xDF).contains(b) {
                katakanaRun += 1
                maxKatakanaRun = max(maxKatakanaRun, katakanaRun)
                i += 1
                continue
            }
            katakanaRun = 0
            if b < 0x80 {
                i += 1
                continue
            }
            guard (0x81...0x9F).contains(b) || (0xE0...0xEF).contains(b), i + 1 < bytes.count else { return false }
            let t = bytes[i + 1]
            guard (0x40...0xFC).contains(t), t != 0x7F else { return false }
            doubleBytes += 1
            i += 2
        }
        return lenient || doubleBytes > 0 || maxKatakanaRun >= 3
    }
}
