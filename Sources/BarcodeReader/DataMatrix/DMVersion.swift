import Synchronization

/// Data Matrix ECC 200 symbol sizes (ISO/IEC 16022 table 7, ISO/IEC 21471 DMRE).
struct DMVersion: Sendable {
    let rows: Int
    let columns: Int
    let regionRows: Int
    let regionColumns: Int
    let ecCodewords: Int
    /// (count, data codewords per block).
    let blocks: [(count: Int, data: Int)]

    var totalDataCodewords: Int { self.blocks.reduce(0) { $0 + $1.count * $1.data } }
    var blockCount: Int { self.blocks.reduce(0) { $0 + $1.count } }
    var totalCodewords: Int { self.totalDataCodewords + self.ecCodewords * self.blockCount }
    var mappingRows: Int { (self.rows / (self.regionRows + 2)) * self.regionRows }
    var mappingColumns: Int { (self.columns / (self.regionColumns + 2)) * self.regionColumns }

    private static let table: [[Int]] = [
        [10, 10, 8, 8, 5, 1, 3], [12, 12, 10, 10, 7, 1, 5], [14, 14, 12, 12, 10, 1, 8], [16, 16, 14, 14, 12, 1, 12],
        [18, 18, 16, 16, 14, 1, 18], [20, 20, 18, 18, 18, 1, 22], [22, 22, 20, 20, 20, 1, 30],
        [24, 24, 22, 22, 24, 1, 36], [26, 26, 24, 24, 28, 1, 44], [32, 32, 14, 14, 36, 1, 62],
        [36, 36, 16, 16, 42, 1, 86], [40, 40, 18, 18, 48, 1, 114], [44, 44, 20, 20, 56, 1, 144],
        [48, 48, 22, 22, 68, 1, 174], [52, 52, 24, 24, 42, 2, 102], [64, 64, 14, 14, 56, 2, 140],
        [72, 72, 16, 16, 36, 4, 92], [80, 80, 18, 18, 48, 4, 114], [88, 88, 20, 20, 56, 4, 144],
        [96, 96, 22, 22, 68, 4, 174], [104, 104, 24, 24, 56, 6, 136], [120, 120, 18, 18, 68, 6, 175],
        [132, 132, 20, 20, 62, 8, 163], [144, 144, 22, 22, 62, 8, 156, 2, 155],
        [8, 18, 6, 16, 7, 1, 5], [8, 32, 6, 14, 11, 1, 10], [12, 26, 10, 24, 14, 1, 16], [12, 36, 10, 16, 18, 1, 22],
        [16, 36, 14, 16, 24, 1, 32], [16, 48, 14, 22, 28, 1, 49],
        [8, 48, 6, 22, 15, 1, 18], [8, 64, 6, 14, 18, 1, 24], [8, 80, 6, 18, 22, 1, 32], [8, 96, 6, 22, 28, 1, 38],
        [8, 120, 6, 18, 32, 1, 49], [8, 144, 6, 22, 36, 1, 63], [12, 64, 10, 14, 27, 1, 43],
        [12, 88, 10, 20, 36, 1, 64], [16, 64, 14, 14, 36, 1, 62], [20, 36, 18, 16, 28, 1, 44],
        [20, 44, 18, 20, 34, 1, 56], [20, 64, 18, 14, 42, 1, 84], [22, 48, 20, 22, 38, 1, 72],
        [24, 48, 22, 22, 41, 1, 80], [24, 64, 22, 14, 46, 1, 108], [26, 40, 24, 18, 38, 1, 70],
        [26, 48, 24, 22, 42, 1, 90], [26, 64, 24, 14, 50, 1, 118],
    ]

    static let all: [DMVersion] = table.map { r in
        var blocks = [(count: r[5], data: r[6])]
        if r.count > 7 { blocks.append((r[7], r[8])) }
        return DMVersion(
            rows: r[0], columns: r[1], regionRows: r[2], regionColumns: r[3], ecCodewords: r[4], blocks: blocks)
    }

    static func forSize(rows: Int, columns: Int) -> DMVersion? {
        all.first { $0.rows == rows && $0.columns == columns }
    }
}

/// The ECC 200 module placement (ISO/IEC 16022 annex F): for each mapping-matrix module, its codeword and bit.
enum DMPlacement {
    /// `result[row * ncol + col]` = codeword index * 8 + bit (bit 0 = most significant), or -1 (unused / fixed).
    static func table(rows nrow: Int, columns ncol: Int) -> [Int] {
        var array = [Int](repeating: -1, count: nrow * ncol)
        var visited = [Bool](repeating: false, count: nrow * ncol)
        func module(_ r0: Int, _ c0: Int, _ chr: Int, _ bit: Int) {
            var row = r0
            var col = c0
            if row < 0 {
                row += nrow
                col += 4 - ((nrow + 4) % 8)
            }
            if col < 0 {
                col += ncol
                row += 4 - ((ncol + 4) % 8)
            }
            if row >= nrow { row -= nrow }
            guard row >= 0, row < nrow, col >= 0, col < ncol else { return }
            array[row * ncol + col] = chr * 8 + bit
            visited[row * ncol + col] = true
        }
        func utah(_ row: Int, _ col: Int, _ chr: Int) {
            module(row - 2, col - 2, chr, 0)
            module(row - 2, col - 1, chr, 1)
            module(row - 1, col - 2, chr, 2)
            module(row - 1, col - 1, chr, 3)
            module(row - 1, col, chr, 4)
            module(row, col - 2, chr, 5)
            module(row, col - 1, chr, 6)
            module(row, col, chr, 7)
        }
        func corner(_ cells: [(Int, Int)], _ chr: Int) {
            for (bit, cell) in cells.enumerated() { module(cell.0, cell.1, chr, bit) }
        }
        var chr = 0
        var row = 4
        var col = 0
        repeat {
            if row == nrow && col == 0 {
                corner(
                    [(nrow - 1, 0), (nrow - 1, 1), (nrow - 1, 2), (0, ncol - 2), (0, ncol - 1), (1, ncol - 1),
                        (2, ncol - 1), (3, ncol - 1)], chr)
                chr += 1
            }
            if row == nrow - 2 && col == 0 && ncol % 4 != 0 {
                corner(
                    [(nrow - 3, 0), (nrow - 2, 0), (nrow - 1, 0), (0, ncol - 4), (0, ncol - 3), (0, ncol - 2),
                        (0, ncol - 1), (1, ncol - 1)], chr)
                chr += 1
            }
            if row == nrow - 2 && col == 0 && ncol % 8 == 4 {
                corner(
                    [(nrow - 3, 0), (nrow - 2, 0), (nrow - 1, 0), (0, ncol - 2), (0, ncol - 1), (1, ncol - 1),
                        (2, ncol - 1), (3, ncol - 1)], chr)
                chr += 1
            }
            if row == nrow + 4 && col == 2 && ncol % 8 == 0 {
                corner(
                    [(nrow - 1, 0), (nrow - 1, ncol - 1), (0, ncol - 3), (0, ncol - 2), (0, ncol - 1), (1, ncol - 3),
                        (1, ncol - 2), (1, ncol - 1)], chr)
                chr += 1
            }
            repeat {
                if row < nrow && col >= 0 && row >= 0 && col < ncol && !visited[row * ncol + col] {
                    utah(row, col, chr)
                    chr += 1
                }
                row -= 2
                col += 2
            } while row >= 0 && col < ncol
            row += 1
            col += 3
            repeat {
                if row >= 0 && col < ncol && row < nrow && col >= 0 && !visited[row * ncol + col] {
                    utah(row, col, chr)
                    chr += 1
                }
                row += 2
                col -= 2
            } while row < nrow && col >= 0
            row += 3
            col += 1
        } while row < nrow || col < ncol
        return array
    }

    /// The modules of a whole `version` symbol that carry codeword bits, in the order ``table(rows:columns:)``
    /// lists them: `symbolIndex` is `y * version.columns + x` in the symbol (finder and timing included, as a
    /// sampled ``BitMatrix`` holds it), `bit` is codeword index * 8 + bit (bit 0 = most significant). Made once per
    /// size and kept: a frame tries many candidates at the same few sizes, and the placement walk costs more than
    /// reading the bits.
    static func modules(_ version: DMVersion) -> [(symbolIndex: Int32, bit: Int32)] {
        let key = version.rows << 16 | version.columns
        if let known = Self.cache.withLock({ $0[key] }) { return known }
        let nrow = version.mappingRows
        let ncol = version.mappingColumns
        let placement = Self.table(rows: nrow, columns: ncol)
        var list: [(symbolIndex: Int32, bit: Int32)] = []
        list.reserveCapacity(version.totalCodewords * 8)
        for r in 0..<nrow {
            let symbolRow = (r / version.regionRows) * (version.regionRows + 2) + 1 + r % version.regionRows
            for c in 0..<ncol {
                let p = placement[r * ncol + c]
                guard p >= 0, p >> 3 < version.totalCodewords else { continue }
                let symbolColumn =
                    (c / version.regionColumns) * (version.regionColumns + 2) + 1 + c % version.regionColumns
                list.append((Int32(symbolRow * version.columns + symbolColumn), Int32(p)))
            }
        }
        Self.cache.withLock { $0[key] = list }
        return list
    }

    private static let cache = Mutex<[Int: [(symbolIndex: Int32, bit: Int32)]]>([:])
}
