/// Code 39 row decoding, with full-ASCII expansion when the text uses the shift characters.
enum Code39 {
    static let alphabet = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ-. $/+%*")
    /// Wide (1) / narrow (0) masks of the nine elements of each character in `alphabet`.
    static let encodings: [Int] = [
        0x034, 0x121, 0x061, 0x160, 0x031, 0x130, 0x070, 0x025, 0x124, 0x064,
        0x109, 0x049, 0x148, 0x019, 0x118, 0x058, 0x00D, 0x10C, 0x04C, 0x01C,
        0x103, 0x043, 0x142, 0x013, 0x112, 0x052, 0x007, 0x106, 0x046, 0x016,
        0x181, 0x0C1, 0x1C0, 0x091, 0x190, 0x0D0, 0x085, 0x184, 0x0C4, 0x0A8,
        0x0A2, 0x08A, 0x02A, 0x094,
    ]
    static let asterisk = 0x094
    /// `encodings.contains(p)` for every nine-element pattern `p`, as a table (the guard search asks at every bar).
    static let isEncoding: [Bool] = (0..<512).map { encodings.contains($0) }
    /// Lowest symbol-wide wide-to-narrow ratio (``RowPattern/WidthTally/ratio``): the specification's 2.0 less a
    /// margin for pixel quantisation (the public corpora's symbols measure 2.2–3.0).
    static let minWidthRatio = 1.8
    /// Symbols with fewer data characters than this (before full-ASCII expansion) must show quiet zones of at least
    /// `shortQuietZone` narrow elements on both sides (the specification asks 10); the image border does not count.
    static let shortLength = 4
    static let shortQuietZone = 8.0

    /// Decodes the full-ASCII shift pairs (`$`, `%`, `/`, `+` followed by a letter); nil when malformed.
    static func fullASCII(_ text: String) -> String? {
        var out: [UInt8] = []
        var it = Array(text.utf8).makeIterator()
        while let c = it.next() {
            guard c == UInt8(ascii: "$") || c == UInt8(ascii: "%") || c == UInt8(ascii: "/") || c == UInt8(ascii: "+")
            else {
                out.append(c)
                continue
            }
            guard let n = it.next(), n >= UInt8(ascii: "A"), n <= UInt8(ascii: "Z") else { return nil }
            switch c {
            case UInt8(ascii: "$"): out.append(n - 64)
            case UInt8(ascii: "+"): out.append(n + 32)
            case UInt8(ascii: "/"):
                guard n <= UInt8(ascii: "O") || n == UInt8(ascii: "Z") else { return nil }
                out.append(n - 32)
            default:
                let k = Int(n - UInt8(ascii: "A"))
                let table: [UInt8] = [
                    27, 28, 29, 30, 31, 59, 60, 61, 62, 63, 91, 92, 93, 94, 95, 123, 124, 125, 126, 127, 0, 64, 96,
                    127, 127, 127,
                ]
                out.append(table[k])
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    static func character(_ runs: UnsafeBufferPointer<Int32>, _ i: Int) -> Character? {
        let p = RowPattern.thresholdPattern(runs, i, 9)
        if p >= 0, let k = encodings.firstIndex(of: p) { return alphabet[k] }
        let q = RowPattern.narrowWidePattern(runs, i, 9, wideCount: 3)
        guard q >= 0, let k = encodings.firstIndex(of: q) else { return nil }
        return alphabet[k]
    }

    /// `character(runs, i) == "*"` without building a `Character`: the guard search asks this at every bar.
    @inline(__always)
    static func isStartStop(_ runs: UnsafeBufferPointer<Int32>, _ i: Int) -> Bool {
        // "*" is narrow-wide-narrow-narrow-wide-narrow-wide-narrow-narrow: its wide bars (offsets 4, 6) wider than
        // its narrow bars (0, 2, 8) and its wide space (1) wider than its narrow spaces (3, 5, 7). Both patterns
        // below can only answer "*" when that holds (each wide element is above a threshold its narrow ones are
        // not), so most bars of a line are refused here, before either is computed.
        guard i + 9 <= runs.count else { return false }
        let narrowBar = max(runs[i], runs[i + 2], runs[i + 8])
        let narrowSpace = max(runs[i + 3], runs[i + 5], runs[i + 7])
        guard min(runs[i + 4], runs[i + 6]) > narrowBar, runs[i + 1] > narrowSpace else { return false }
        let p = RowPattern.thresholdPattern(runs, i, 9)
        if p >= 0, isEncoding[p] { return p == asterisk }
        return RowPattern.narrowWidePattern(runs, i, 9, wideCount: 3) == asterisk
    }

    /// Finds and decodes the first Code 39 symbol starting at or after run `from`.
    static func decode(_ runs: UnsafeBufferPointer<Int32>, from: Int) -> (hit: LinearHit?, guardIndex: Int?) {
        guard
            let b = RowPattern.findLeftGuard(
                runs, from: from, minSize: 3 * 10,
                { i, space in
                    guard space == Int.max || space * 3 >= RowPattern.sum(runs, i, 9) else { return false }
                    return isStartStop(runs, i)
                })
        else { return (nil, nil) }
        // Character widths are compared with the previous character, which tolerates perspective.
        var charWidth = RowPattern.sum(runs, b, 9)
        var text = ""
        var i = b
        var tally = RowPattern.WidthTally()
        func count(_ at: Int, _ c: Character) {
            guard let k = alphabet.firstIndex(of: c) else { return }
            let e = encodings[k]
            for j in 0..<9 { tally.add(runs[at + j], bar: j & 1 == 0, wide: (e >> (8 - j)) & 1 == 1) }
        }
        count(b, "*")
        while true {
            // Skip the current character and the inter-character gap.
            i += 9
            guard i + 10 <= runs.count, Int(runs[i]) * 2 <= charWidth else { return (nil, b) }
            i += 1
            let w = RowPattern.sum(runs, i, 9)
            guard w * 4 > charWidth * 3, w * 3 < charWidth * 4, let c = character(runs, i) else { return (nil, b) }
            charWidth = w
            count(i, c)
            if c == "*" { break }
            text.append(c)
        }
        let after = RowPattern.spaceAfter(runs, i, 9)
        guard !text.isEmpty, after == Int.max || after * 3 >= RowPattern.sum(runs, i, 9) else { return (nil, b) }
        let x = tally.narrow
        let ratio = tally.ratio
        let qBefore = Double(RowPattern.visibleSpaceBefore(runs, b)) / x
        let qAfter = Double(RowPattern.visibleSpaceAfter(runs, i, 9)) / x
        // A printed Code 39 has one narrow and one wide width (2–3 times the narrow) throughout; periodic textures
        // split into runs whose "wide" ones are barely wider (1.5–1.7 on woven sines).
        guard ratio >= minWidthRatio else { return (nil, b) }
        // A short symbol has little to check it by: it needs quiet zones seen on both sides, not an image border.
        if text.count < shortLength {
            guard qBefore >= shortQuietZone, qAfter >= shortQuietZone else { return (nil, b) }
        }
        if text.contains(where: { "$%/+".contains($0) }), let expanded = fullASCII(text) {
            text = expanded
        }
        return (LinearHit(format: .code39, text: text, start: b, end: i + 9), b)
    }
}
