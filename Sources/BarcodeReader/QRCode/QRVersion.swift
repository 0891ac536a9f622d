/// QR error-correction level.
enum QRErrorCorrectionLevel: Int, Sendable {
    case low, medium, quartile, high

    /// Level from the two format-information bits (01 = L, 00 = M, 11 = Q, 10 = H).
    init(formatBits bits: Int) {
        switch bits & 3 {
        case 0: self = .medium
        case 1: self = .low
        case 2: self = .high
        default: self = .quartile
        }
    }
}

/// Version-dependent layout: size, alignment patterns and error-correction blocks (ISO 18004 table 9).
struct QRVersion: Sendable {
    struct ECBlocks: Sendable {
        let ecCodewordsPerBlock: Int
        /// (count, data codewords per block) groups.
        let groups: [(count: Int, dataCodewords: Int)]
        var blockCount: Int { self.groups.reduce(0) { $0 + $1.count } }
        var totalDataCodewords: Int { self.groups.reduce(0) { $0 + $1.count * $1.dataCodewords } }
    }

    let number: Int
    let alignmentCenters: [Int]
    /// Indexed by `QRErrorCorrectionLevel.rawValue` (L, M, Q, H).
    let ecBlocks: [ECBlocks]

    var dimension: Int { 17 + 4 * self.number }
    var totalCodewords: Int {
        let b = self.ecBlocks[0]
        return b.totalDataCodewords + b.ecCodewordsPerBlock * b.blockCount
    }

    static func forNumber(_ n: Int) -> QRVersion? {
        guard (1...40).contains(n) else { return nil }
        return all[n - 1]
    }

    static func forDimension(_ d: Int) -> QRVersion? {
        guard d % 4 == 1 else { return nil }
        return forNumber((d - 17) / 4)
    }

    /// Raw table: per version, four levels L/M/Q/H of (ec per block, count1, data1, count2, data2).
    private static let table: [(Int, [Int], [Int])] = [
        (1, [], [7, 1, 19, 0, 0, 10, 1, 16, 0, 0, 13, 1, 13, 0, 0, 17, 1, 9, 0, 0]),
        (2, [6, 18], [10, 1, 34, 0, 0, 16, 1, 28, 0, 0, 22, 1, 22, 0, 0, 28, 1, 16, 0, 0]),
        (3, [6, 22], [15, 1, 55, 0, 0, 26, 1, 44, 0, 0, 18, 2, 17, 0, 0, 22, 2, 13, 0, 0]),
        (4, [6, 26], [20, 1, 80, 0, 0, 18, 2, 32, 0, 0, 26, 2, 24, 0, 0, 16, 4, 9, 0, 0]),
        (5, [6, 30], [26, 1, 108, 0, 0, 24, 2, 43, 0, 0, 18, 2, 15, 2, 16, 22, 2, 11, 2, 12]),
        (6, [6, 34], [18, 2, 68, 0, 0, 16, 4, 27, 0, 0, 24, 4, 19, 0, 0, 28, 4, 15, 0, 0]),
        (7, [6, 22, 38], [20, 2, 78, 0, 0, 18, 4, 31, 0, 0, 18, 2, 14, 4, 15, 26, 4, 13, 1, 14]),
        (8, [6, 24, 42], [24, 2, 97, 0, 0, 22, 2, 38, 2, 39, 22, 4, 18, 2, 19, 26, 4, 14, 2, 15]),
        (9, [6, 26, 46], [30, 2, 116, 0, 0, 22, 3, 36, 2, 37, 20, 4, 16, 4, 17, 24, 4, 12, 4, 13]),
        (10, [6, 28, 50], [18, 2, 68, 2, 69, 26, 4, 43, 1, 44, 24, 6, 19, 2, 20, 28, 6, 15, 2, 16]),
        (11, [6, 30, 54], [20, 4, 81, 0, 0, 30, 1, 50, 4, 51, 28, 4, 22, 4, 23, 24, 3, 12, 8, 13]),
        (12, [6, 32, 58], [24, 2, 92, 2, 93, 22, 6, 36, 2, 37, 26, 4, 20, 6, 21, 28, 7, 14, 4, 15]),
        (13, [6, 34, 62], [26, 4, 107, 0, 0, 22, 8, 37, 1, 38, 24, 8, 20, 4, 21, 22, 12, 11, 4, 12]),
        (14, [6, 26, 46, 66], [30, 3, 115, 1, 116, 24, 4, 40, 5, 41, 20, 11, 16, 5, 17, 24, 11, 12, 5, 13]),
        (15, [6, 26, 48, 70], [22, 5, 87, 1, 88, 24, 5, 41, 5, 42, 30, 5, 24, 7, 25, 24, 11, 12, 7, 13]),
        (16, [6, 26, 50, 74], [24, 5, 98, 1, 99, 28, 7, 45, 3, 46, 24, 15, 19, 2, 20, 30, 3, 15, 13, 16]),
        (17, [6, 30, 54, 78], [28, 1, 107, 5, 108, 28, 10, 46, 1, 47, 28, 1, 22, 15, 23, 28, 2, 14, 17, 15]),
        (18, [6, 30, 56, 82], [30, 5, 120, 1, 121, 26, 9, 43, 4, 44, 28, 17, 22, 1, 23, 28, 2, 14, 19, 15]),
        (19, [6, 30, 58, 86], [28, 3, 113, 4, 114, 26, 3, 44, 11, 45, 26, 17, 21, 4, 22, 26, 9, 13, 16, 14]),
        (20, [6, 34, 62, 90], [28, 3, 107, 5, 108, 26, 3, 41, 13, 42, 30, 15, 24, 5, 25, 28, 15, 15, 10, 16]),
        (21, [6, 28, 50, 72, 94], [28, 4, 116, 4, 117, 26, 17, 42, 0, 0, 28, 17, 22, 6, 23, 30, 19, 16, 6, 17]),
        (22, [6, 26, 50, 74, 98], [28, 2, 111, 7, 112, 28, 17, 46, 0, 0, 30, 7, 24, 16, 25, 24, 34, 13, 0, 0]),
        (23, [6, 30, 54, 78, 102], [30, 4, 121, 5, 122, 28, 4, 47, 14, 48, 30, 11, 24, 14, 25, 30, 16, 15, 14, 16]),
        (24, [6, 28, 54, 80, 106], [30, 6, 117, 4, 118, 28, 6, 45, 14, 46, 30, 11, 24, 16, 25, 30, 30, 16, 2, 17]),
        (25, [6, 32, 58, 84, 110], [26, 8, 106, 4, 107, 28, 8, 47, 13, 48, 30, 7, 24, 22, 25, 30, 22, 15, 13, 16]),
        (26, [6, 30, 58, 86, 114], [28, 10, 114, 2, 115, 28, 19, 46, 4, 47, 28, 28, 22, 6, 23, 30, 33, 16, 4, 17]),
        (27, [6, 34, 62, 90, 118], [30, 8, 122, 4, 123, 28, 22, 45, 3, 46, 30, 8, 23, 26, 24, 30, 12, 15, 28, 16]),
        (28, [6, 26, 50, 74, 98, 122], [30, 3, 117, 10, 118, 28, 3, 45, 23, 46, 30, 4, 24, 31, 25, 30, 11, 15, 31, 16]),
        (29, [6, 30, 54, 78, 102, 126], [30, 7, 116, 7, 117, 28, 21, 45, 7, 46, 30, 1, 23, 37, 24, 30, 19, 15, 26, 16]),
        (30, [6, 26, 52, 78, 104, 130], [30, 5, 115, 10, 116, 28, 19, 47, 10, 48, 30, 15, 24, 25, 25, 30, 23, 15, 25, 16]),
        (31, [6, 30, 56, 82, 108, 134], [30, 13, 115, 3, 116, 28, 2, 46, 29, 47, 30, 42, 24, 1, 25, 30, 23, 15, 28, 16]),
        (32, [6, 34, 60, 86, 112, 138], [30, 17, 115, 0, 0, 28, 10, 46, 23, 47, 30, 10, 24, 35, 25, 30, 19, 15, 35, 16]),
        (33, [6, 30, 58, 86, 114, 142], [30, 17, 115, 1, 116, 28, 14, 46, 21, 47, 30, 29, 24, 19, 25, 30, 11, 15, 46, 16]),
        (34, [6, 34, 62, 90, 118, 146], [30, 13, 115, 6, 116, 28, 14, 46, 23, 47, 30, 44, 24, 7, 25, 30, 59, 16, 1, 17]),
        (35, [6, 30, 54, 78, 102, 126, 150], [30, 12, 121, 7, 122, 28, 12, 47, 26, 48, 30, 39, 24, 14, 25, 30, 22, 15, 41, 16]),
        (36, [6, 24, 50, 76, 102, 128, 154], [30, 6, 121, 14, 122, 28, 6, 47, 34, 48, 30, 46, 24, 10, 25, 30, 2, 15, 64, 16]),
        (37, [6, 28, 54, 80, 106, 132, 158], [30, 17, 122, 4, 123, 28, 29, 46, 14, 47, 30, 49, 24, 10, 25, 30, 24, 15, 46, 16]),
        (38, [6, 32, 58, 84, 110, 136, 162], [30, 4, 122, 18, 123, 28, 13, 46, 32, 47, 30, 48, 24, 14, 25, 30, 42, 15, 32, 16]),
        (39, [6, 26, 54, 82, 110, 138, 166], [30, 20, 117, 4, 118, 28, 40, 47, 7, 48, 30, 43, 24, 22, 25, 30, 10, 15, 67, 16]),
        (40, [6, 30, 58, 86, 114, 142, 170], [30, 19, 118, 6, 119, 28, 18, 47, 31, 48, 30, 34, 24, 34, 25, 30, 20, 15, 61, 16]),
    ]

    static let all: [QRVersion] = table.map { number, centers, raw in
        var blocks: [ECBlocks] = []
        for level in 0..<4 {
            let r = Array(raw[(level * 5)..<(level * 5 + 5)])
            var groups: [(count: Int, dataCodewords: Int)] = [(r[1], r[2])]
            if r[3] > 0 { groups.append((r[3], r[4])) }
            blocks.append(ECBlocks(ecCodewordsPerBlock: r[0], groups: groups))
        }
        return QRVersion(number: number, alignmentCenters: centers, ecBlocks: blocks)
    }

    /// Modules that are not data: finders, separators, format/version info, timing and alignment patterns.
    func functionPattern() -> BitMatrix {
        let d = self.dimension
        var m = BitMatrix(width: d, height: d)
        m.setRegion(left: 0, top: 0, width: 9, height: 9)
        m.setRegion(left: d - 8, top: 0, width: 8, height: 9)
        m.setRegion(left: 0, top: d - 8, width: 9, height: 8)
        let c = self.alignmentCenters
        let n = c.count
        for x in 0..<n {
            for y in 0..<n {
                if (x == 0 && (y == 0 || y == n - 1)) || (x == n - 1 && y == 0) { continue }
                m.setRegion(left: c[y] - 2, top: c[x] - 2, width: 5, height: 5)
            }
        }
        m.setRegion(left: 6, top: 9, width: 1, height: d - 17)
        m.setRegion(left: 9, top: 6, width: d - 17, height: 1)
        if self.number > 6 {
            m.setRegion(left: d - 11, top: 0, width: 3, height: 6)
            m.setRegion(left: 0, top: d - 11, width: 6, height: 3)
        }
        return m
    }

    /// BCH(18,6) version information words for versions 7...40.
    static let versionInfoWords: [Int] = (7...40).map { v in
        var rem = v << 12
        for bit in stride(from: 17, through: 12, by: -1) where rem & (1 << bit) != 0 {
            rem ^= 0x1F25 << (bit - 12)
        }
        return (v << 12) | rem
    }

    /// Decodes 18 version-information bits, tolerating up to 3 bit errors.
    static func decodeVersionInformation(_ bits: Int) -> QRVersion? {
        var best = Int.max
        var bestVersion = 0
        for (i, word) in versionInfoWords.enumerated() {
            let d = (bits ^ word).nonzeroBitCount
            if d < best {
                best = d
                bestVersion = i + 7
            }
        }
        return best <= 3 ? forNumber(bestVersion) : nil
    }
}

/// The 15-bit format information: error-correction level and data mask.
struct QRFormatInformation: Sendable, Equatable {
    let level: QRErrorCorrectionLevel
    let mask: Int

    static let xorMask = 0x5412

    /// The masked BCH(15,5) word for 5 data bits.
    static func encode(_ data: Int) -> Int {
        var rem = data << 10
        for bit in stride(from: 14, through: 10, by: -1) where rem & (1 << bit) != 0 {
            rem ^= 0x537 << (bit - 10)
        }
        return ((data << 10) | rem) ^ xorMask
    }

    static let words: [Int] = (0..<32).map { encode($0) }

    /// Decodes from the two copies read from the symbol, tolerating up to 3 bit errors.
    static func decode(_ bits1: Int, _ bits2: Int) -> QRFormatInformation? {
        var best = Int.max
        var bestData = 0
        for (data, word) in words.enumerated() {
            for bits in [bits1, bits2] {
                let d = (bits ^ word).nonzeroBitCount
                if d < best {
                    best = d
                    bestData = data
                }
            }
        }
        guard best <= 3 else { return nil }
        return QRFormatInformation(level: QRErrorCorrectionLevel(formatBits: bestData >> 3), mask: bestData & 7)
    }
}
