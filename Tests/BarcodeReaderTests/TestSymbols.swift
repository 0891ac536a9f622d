import BarcodeReader

/// Renders simple 1-D symbols for tests: encoders written from the symbology specifications.
enum TestSymbols {
    /// Renders alternating bar/space widths (in modules, starting with a bar) as a light image with dark bars.
    static func render(
        _ widths: [Int], moduleWidth: Int = 3, height: Int = 40, quietZone: Int = 12, ink: UInt8 = 20,
        paper: UInt8 = 235, inkSpread: Int = 0
    ) -> GrayscaleImage {
        let modules = widths.reduce(0, +) + 2 * quietZone
        let width = modules * moduleWidth
        var row = [UInt8](repeating: paper, count: width)
        var x = quietZone * moduleWidth
        for (i, w) in widths.enumerated() {
            if i % 2 == 0 {
                // Ink spread widens every bar by `inkSpread` pixels at the expense of the following space.
                for k in x..<min(row.count, x + w * moduleWidth + inkSpread) { row[k] = ink }
            }
            x += w * moduleWidth
        }
        var pixels: [UInt8] = []
        for _ in 0..<height { pixels += row }
        guard let image = GrayscaleImage(width: width, height: height, pixels: pixels) else {
            preconditionFailure("size")
        }
        return image
    }

    static let lPatterns: [[Int]] = [
        [3, 2, 1, 1], [2, 2, 2, 1], [2, 1, 2, 2], [1, 4, 1, 1], [1, 1, 3, 2],
        [1, 2, 3, 1], [1, 1, 1, 4], [1, 3, 1, 2], [1, 2, 1, 3], [3, 1, 1, 2],
    ]
    static let firstDigitParity = [0x00, 0x0B, 0x0D, 0x0E, 0x13, 0x19, 0x1C, 0x15, 0x16, 0x1A]

    /// EAN-13 bar/space widths (starting with the first guard bar) for 13 digits.
    static func ean13(_ digits: String) -> [Int] {
        let d = digits.compactMap(\.wholeNumberValue)
        var w = [1, 1, 1]
        let parity = firstDigitParity[d[0]]
        for k in 1...6 {
            let l = lPatterns[d[k]]
            let isG = (parity >> (6 - k)) & 1 == 1
            w += isG ? l.reversed() : l
        }
        w += [1, 1, 1, 1, 1]
        for k in 7...12 { w += lPatterns[d[k]] }
        w += [1, 1, 1]
        return w
    }

    /// EAN-5 parity (1 = G, first digit most significant) by the add-on's checksum.
    static let ean5Parity = [0x18, 0x14, 0x12, 0x11, 0x0C, 0x06, 0x03, 0x0A, 0x09, 0x05]

    /// EAN-2/EAN-5 add-on widths starting with the first bar of its start guard (1-1-2), digits separated by
    /// a space and a bar of one module; `parity` replaces the specified L/G parity (to draw a wrong one).
    static func addOn(_ digits: String, parity: Int? = nil) -> [Int] {
        let d = digits.compactMap(\.wholeNumberValue)
        let p =
            parity
            ?? (d.count == 2
                ? (d[0] * 10 + d[1]) % 4 : ean5Parity[(3 * (d[0] + d[2] + d[4]) + 9 * (d[1] + d[3])) % 10])
        var w = [1, 1, 2]
        for (k, digit) in d.enumerated() {
            if k > 0 { w += [1, 1] }
            let isG = (p >> (d.count - 1 - k)) & 1 == 1
            w += isG ? lPatterns[digit].reversed() : lPatterns[digit]
        }
        return w
    }

    /// EAN-8 widths.
    static func ean8(_ digits: String) -> [Int] {
        let d = digits.compactMap(\.wholeNumberValue)
        var w = [1, 1, 1]
        for k in 0..<4 { w += lPatterns[d[k]] }
        w += [1, 1, 1, 1, 1]
        for k in 4..<8 { w += lPatterns[d[k]] }
        return w + [1, 1, 1]
    }

    static let code128Patterns: [[Int]] = [
        [2, 1, 2, 2, 2, 2], [2, 2, 2, 1, 2, 2], [2, 2, 2, 2, 2, 1], [1, 2, 1, 2, 2, 3], [1, 2, 1, 3, 2, 2],
        [1, 3, 1, 2, 2, 2], [1, 2, 2, 2, 1, 3], [1, 2, 2, 3, 1, 2], [1, 3, 2, 2, 1, 2], [2, 2, 1, 2, 1, 3],
        [2, 2, 1, 3, 1, 2], [2, 3, 1, 2, 1, 2], [1, 1, 2, 2, 3, 2], [1, 2, 2, 1, 3, 2], [1, 2, 2, 2, 3, 1],
        [1, 1, 3, 2, 2, 2], [1, 2, 3, 1, 2, 2], [1, 2, 3, 2, 2, 1], [2, 2, 3, 2, 1, 1], [2, 2, 1, 1, 3, 2],
        [2, 2, 1, 2, 3, 1], [2, 1, 3, 2, 1, 2], [2, 2, 3, 1, 1, 2], [3, 1, 2, 1, 3, 1], [3, 1, 1, 2, 2, 2],
        [3, 2, 1, 1, 2, 2], [3, 2, 1, 2, 2, 1], [3, 1, 2, 2, 1, 2], [3, 2, 2, 1, 1, 2], [3, 2, 2, 2, 1, 1],
        [2, 1, 2, 1, 2, 3], [2, 1, 2, 3, 2, 1], [2, 3, 2, 1, 2, 1], [1, 1, 1, 3, 2, 3], [1, 3, 1, 1, 2, 3],
        [1, 3, 1, 3, 2, 1], [1, 1, 2, 3, 1, 3], [1, 3, 2, 1, 1, 3], [1, 3, 2, 3, 1, 1], [2, 1, 1, 3, 1, 3],
        [2, 3, 1, 1, 1, 3], [2, 3, 1, 3, 1, 1], [1, 1, 2, 1, 3, 3], [1, 1, 2, 3, 3, 1], [1, 3, 2, 1, 3, 1],
        [1, 1, 3, 1, 2, 3], [1, 1, 3, 3, 2, 1], [1, 3, 3, 1, 2, 1], [3, 1, 3, 1, 2, 1], [2, 1, 1, 3, 3, 1],
        [2, 3, 1, 1, 3, 1], [2, 1, 3, 1, 1, 3], [2, 1, 3, 3, 1, 1], [2, 1, 3, 1, 3, 1], [3, 1, 1, 1, 2, 3],
        [3, 1, 1, 3, 2, 1], [3, 3, 1, 1, 2, 1], [3, 1, 2, 1, 1, 3], [3, 1, 2, 3, 1, 1], [3, 3, 2, 1, 1, 1],
        [3, 1, 4, 1, 1, 1], [2, 2, 1, 4, 1, 1], [4, 3, 1, 1, 1, 1], [1, 1, 1, 2, 2, 4], [1, 1, 1, 4, 2, 2],
        [1, 2, 1, 1, 2, 4], [1, 2, 1, 4, 2, 1], [1, 4, 1, 1, 2, 2], [1, 4, 1, 2, 2, 1], [1, 1, 2, 2, 1, 4],
        [1, 1, 2, 4, 1, 2], [1, 2, 2, 1, 1, 4], [1, 2, 2, 4, 1, 1], [1, 4, 2, 1, 1, 2], [1, 4, 2, 2, 1, 1],
        [2, 4, 1, 2, 1, 1], [2, 2, 1, 1, 1, 4], [4, 1, 3, 1, 1, 1], [2, 4, 1, 1, 1, 2], [1, 3, 4, 1, 1, 1],
        [1, 1, 1, 2, 4, 2], [1, 2, 1, 1, 4, 2], [1, 2, 1, 2, 4, 1], [1, 1, 4, 2, 1, 2], [1, 2, 4, 1, 1, 2],
        [1, 2, 4, 2, 1, 1], [4, 1, 1, 2, 1, 2], [4, 2, 1, 1, 1, 2], [4, 2, 1, 2, 1, 1], [2, 1, 2, 1, 4, 1],
        [2, 1, 4, 1, 2, 1], [4, 1, 2, 1, 2, 1], [1, 1, 1, 1, 4, 3], [1, 1, 1, 3, 4, 1], [1, 3, 1, 1, 4, 1],
        [1, 1, 4, 1, 1, 3], [1, 1, 4, 3, 1, 1], [4, 1, 1, 1, 1, 3], [4, 1, 1, 3, 1, 1], [1, 1, 3, 1, 4, 1],
        [1, 1, 4, 1, 3, 1], [3, 1, 1, 1, 4, 1], [4, 1, 1, 1, 3, 1], [2, 1, 1, 4, 1, 2], [2, 1, 1, 2, 1, 4],
        [2, 1, 1, 2, 3, 2], [2, 3, 3, 1, 1, 1, 2],
    ]

    /// Code 128 widths for symbol values (start code first); appends the check symbol and stop.
    static func code128(_ codes: [Int]) -> [Int] {
        var sum = codes[0]
        for i in 1..<codes.count { sum += i * codes[i] }
        var w: [Int] = []
        for c in codes + [sum % 103, 106] { w += code128Patterns[c] }
        return w
    }

    static let code39Alphabet = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ-. $/+%*")
    static let code39Encodings: [Int] = [
        0x034, 0x121, 0x061, 0x160, 0x031, 0x130, 0x070, 0x025, 0x124, 0x064,
        0x109, 0x049, 0x148, 0x019, 0x118, 0x058, 0x00D, 0x10C, 0x04C, 0x01C,
        0x103, 0x043, 0x142, 0x013, 0x112, 0x052, 0x007, 0x106, 0x046, 0x016,
        0x181, 0x0C1, 0x1C0, 0x091, 0x190, 0x0D0, 0x085, 0x184, 0x0C4, 0x0A8,
        0x0A2, 0x08A, 0x02A, 0x094,
    ]

    /// Code 39 widths for `*text*` (wide = 3 modules), one-module gaps.
    static func code39(_ text: String) -> [Int] {
        var w: [Int] = []
        for (n, ch) in ("*" + text + "*").enumerated() {
            guard let k = code39Alphabet.firstIndex(of: ch) else { continue }
            if n > 0 { w.append(1) }
            let e = code39Encodings[k]
            for bit in stride(from: 8, through: 0, by: -1) { w.append((e >> bit) & 1 == 1 ? 3 : 1) }
        }
        return w
    }

    /// ITF widths for an even number of digits (wide = 3 modules).
    static func itf(_ digits: String) -> [Int] {
        let patterns: [[Int]] = [
            [1, 1, 3, 3, 1], [3, 1, 1, 1, 3], [1, 3, 1, 1, 3], [3, 3, 1, 1, 1], [1, 1, 3, 1, 3],
            [3, 1, 3, 1, 1], [1, 3, 3, 1, 1], [1, 1, 1, 3, 3], [3, 1, 1, 3, 1], [1, 3, 1, 3, 1],
        ]
        let d = digits.compactMap(\.wholeNumberValue)
        var w = [1, 1, 1, 1]
        var i = 0
        while i + 1 < d.count {
            let bars = patterns[d[i]]
            let spaces = patterns[d[i + 1]]
            for k in 0..<5 { w += [bars[k], spaces[k]] }
            i += 2
        }
        return w + [3, 1, 1]
    }
}
