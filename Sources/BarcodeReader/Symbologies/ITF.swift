/// Interleaved 2 of 5 row decoding.
enum ITF {
    static let startPattern = [1, 1, 1, 1]
    static let stopPatterns = [[2, 1, 1], [3, 1, 1]]
    /// Quiet zone before the start and after the stop pattern, in narrow elements: the specification asks 10, and a
    /// symbol printed with exactly 10 (zint's ITF-14 inside its bearer box) measures 8-10 once blur and ink spread
    /// move its edges; zxing-cpp asks 6. A fragment of a longer symbol behind a label is refused by ``barsBeyond``.
    static let quietZone = 8.0
    static let minLength = 6
    /// Lowest symbol-wide wide-to-narrow ratio (``RowPattern/WidthTally/ratio``): the specification's 2.0 less a
    /// margin for pixel quantisation (the public corpora's symbols measure 2.1–2.7).
    static let minWidthRatio = 1.8
    /// Quiet zone that must be visible on both sides, in narrow elements (half the specification's 10: blur and a
    /// tight crop eat into it; the public corpora's symbols show 5.7 and more).
    static let visibleQuietZone = 5.0

    /// Digit value from a 5-element narrow/wide mask (weights 1, 2, 4, 7, 0; 11 means 0).
    static func digit(wideMask: [Bool]) -> Int? {
        let weights = [1, 2, 4, 7, 0]
        var v = 0
        var wide = 0
        for (k, w) in wideMask.enumerated() where w {
            v += weights[k]
            wide += 1
        }
        guard wide == 2 else { return nil }
        return v == 11 ? 0 : (v < 10 ? v : nil)
    }

    /// Whether element `element` (0–4) of digit `digit` is wide (weights 1, 2, 4, 7, 0; 0 is 4 + 7).
    static func isWide(digit: Int, element: Int) -> Bool {
        let masks = [0b00110, 0b10001, 0b01001, 0b11000, 0b00101, 0b10100, 0b01100, 0b00011, 0b10010, 0b01010]
        return (masks[digit] >> (4 - element)) & 1 == 1
    }

    /// Wide flags for 5 interleaved elements at `start`, step 2; nil when the split is ambiguous.
    private static func wideFlags(_ runs: UnsafeBufferPointer<Int32>, _ start: Int) -> [Bool]? {
        var w = [Int](repeating: 0, count: 5)
        for k in 0..<5 { w[k] = Int(runs[start + 2 * k]) }
        let sorted = w.sorted()
        // Exactly two wide elements: the gap between the 3rd and 4th smallest must dominate.
        guard sorted[3] * 2 >= sorted[2] * 3 else { return nil }
        let threshold = Double(sorted[2] + sorted[3]) / 2
        guard Double(sorted[4]) < Double(sorted[0]) * 4.5 + 1 else { return nil }
        return w.map { Double($0) > threshold }
    }

    /// The narrow/wide flags of the ten interleaved elements at `i` (a digit pair): `even` for the elements at even
    /// offsets, `odd` for the others; nil unless each five hold exactly two wide ones. Any two of five wide is a
    /// digit, read forwards or backwards.
    static func pairMasks(_ runs: UnsafeBufferPointer<Int32>, _ i: Int) -> (even: [Bool], odd: [Bool])? {
        if let t = RowPattern.narrowWideThreshold(runs, i, 10) {
            var even = [Bool](repeating: false, count: 5)
            var odd = [Bool](repeating: false, count: 5)
            var valid = true
            for k in 0..<10 {
                let th = k & 1 == 0 ? t.0 : t.1
                let v = Double(runs[i + k])
                if v > th * 2 { valid = false }
                if k & 1 == 0 { even[k / 2] = v > th } else { odd[k / 2] = v > th }
            }
            if valid, digit(wideMask: even) != nil, digit(wideMask: odd) != nil { return (even, odd) }
        }
        if let even = wideFlags(runs, i), let odd = wideFlags(runs, i + 1), digit(wideMask: even) != nil,
            digit(wideMask: odd) != nil
        {
            return (even, odd)
        }
        return nil
    }

    /// The stop patterns as a line read against the symbol's direction meets them.
    static let reversedStopPatterns = stopPatterns.map { Array($0.reversed()) }

    /// Reads an ITF backwards from its end: the first stop pattern (met reversed, after a quiet zone) at or after run
    /// `from`, then digit pairs against the line's direction. A line on which these pairs end in a start pattern
    /// with white after it read a whole symbol, which the line read the other way reports: nothing here. Otherwise
    /// the digits (in the symbol's order) are returned marked ``LinearHit/unstarted``: where the symbol's start ran
    /// off the image or into a shadow, a line that found a start pattern inside its first pair (a digit's last
    /// four elements can all be narrow) read a shorter symbol that these lines contradict.
    static func decodeUnstarted(_ runs: UnsafeBufferPointer<Int32>, from: Int) -> (hit: LinearHit?, guardIndex: Int?) {
        guard
            let e = RowPattern.findLeftGuard(
                runs, from: from, minSize: 3 + minLength / 2 * 10,
                { i, space in
                    reversedStopPatterns.contains {
                        RowPattern.isPattern(runs, i, $0, spaceInFront: space, minQuietZone: quietZone) > 0
                    }
                })
        else { return (nil, nil) }
        let module = Double(runs[e] + runs[e + 1]) / 2
        var reversedDigits: [UInt8] = []
        var i = e + 3
        while i + 10 <= runs.count {
            let w = Double(RowPattern.sum(runs, i, 10))
            guard w > module * 10, w < module * 26, let masks = pairMasks(runs, i),
                let d1 = digit(wideMask: Array(masks.odd.reversed())), let d2 = digit(wideMask: Array(masks.even.reversed()))
            else { break }
            reversedDigits.append(UInt8(48 + d2))
            reversedDigits.append(UInt8(48 + d1))
            i += 10
        }
        guard reversedDigits.count >= minLength else { return (nil, e) }
        if i + 4 <= runs.count, case let startModule = RowPattern.isPattern(runs, i, startPattern), startModule > 0,
            Double(RowPattern.visibleSpaceAfter(runs, i, 4)) >= visibleQuietZone * startModule
        {
            return (nil, e)
        }
        var hit = LinearHit(format: .itf, text: String(decoding: reversedDigits.reversed(), as: UTF8.self), start: e, end: i)
        hit.unstarted = true
        return (hit, e)
    }

    /// How far beyond a quiet zone ``barsBeyond`` looks, in narrow elements, and how many elements it wants there.
    static let gapSpan = 8.0
    static let gapElements = 4

    /// Whether the white run next to run `from` (`step` -1: before it, 1: after it) is a gap inside a longer symbol
    /// rather than a quiet zone: the `gapSpan` narrow elements from `from` away from the symbol hold at least
    /// `gapElements` runs, each between half a narrow and a wide element (3.6 narrow) wide; the first of them may be
    /// narrower (whatever a label's edge left of a bar or space). A bearer bar (5 narrow), the background (one long
    /// run) or sensor noise on it (slivers of a pixel or two) is no such gap, nor is the image border.
    static func barsBeyond(_ runs: UnsafeBufferPointer<Int32>, from: Int, step: Int, narrow: Double) -> Bool {
        var k = from
        var width = 0.0
        var count = 0
        while width < gapSpan * narrow {
            guard k >= 1, k < runs.count - 1 else { return false }
            let v = Double(runs[k])
            guard v <= narrow * 3.6, count == 0 || v >= narrow * 0.5 else { return false }
            width += v
            count += 1
            k += step
        }
        return count >= gapElements
    }

    /// Finds and decodes the first ITF symbol starting at or after run `from`.
    static func decode(_ runs: UnsafeBufferPointer<Int32>, from: Int) -> (hit: LinearHit?, guardIndex: Int?) {
        guard
            let b = RowPattern.findLeftGuard(
                runs, from: from, minSize: 4 + minLength / 2 * 10 + 3,
                { i, space in
                    RowPattern.isPattern(runs, i, startPattern, spaceInFront: space, minQuietZone: quietZone) > 0
                })
        else { return (nil, nil) }
        var digits: [UInt8] = []
        var i = b + 4
        var tally = RowPattern.WidthTally()
        for k in 0..<4 { tally.add(runs[b + k], bar: k & 1 == 0, wide: false) }
        let module = Double(RowPattern.sum(runs, b, 4)) / 4
        while i + 10 + 3 <= runs.count {
            let w = Double(RowPattern.sum(runs, i, 10))
            // A digit pair is 14-18 modules wide (wide = 2-3 narrow).
            guard w > module * 10, w < module * 26 else { break }
            guard let masks = pairMasks(runs, i), let d1 = digit(wideMask: masks.even),
                let d2 = digit(wideMask: masks.odd)
            else { break }
            for k in 0..<10 {
                let d = k & 1 == 0 ? d1 : d2
                tally.add(runs[i + k], bar: k & 1 == 0, wide: Self.isWide(digit: d, element: k / 2))
            }
            digits.append(UInt8(48 + d1))
            digits.append(UInt8(48 + d2))
            i += 10
        }
        guard digits.count >= minLength, i + 3 <= runs.count else { return (nil, b) }
        // A stop pattern whose narrow bar is narrow in this symbol's own widths: nearer its narrow bars' mean than its
        // wide bars'. A label or the image's edge across a wide bar leaves a piece of it that the pattern's
        // tolerance takes for the stop's narrow bar (an ITF-14 behind a label read as its first six digits).
        let stopsHere =
            stopPatterns.contains(where: { RowPattern.isPattern(runs, i, $0) > 0 })
            && tally.isNarrowBar(runs[i + 2])
        guard stopsHere else {
            var unended = LinearHit(format: .itf, text: String(decoding: digits, as: UTF8.self), start: b, end: i)
            unended.unended = true
            return (unended, b)
        }
        // The quiet zone after the stop pattern in its own narrow elements (its space and last bar), as the start
        // pattern's: the module of a matched stop pattern is a guess when wide is 3 narrow (2-1-1 matches 3-1-1 at
        // 1.25 narrow, and asked 12.5 narrow of white after a symbol printed with 10).
        let stopModule = Double(runs[i + 1] + runs[i + 2]) / 2
        let after = RowPattern.spaceAfter(runs, i, 3)
        guard after == Int.max || Double(after) >= quietZone * stopModule - 1 else { return (nil, b) }
        tally.add(runs[i], bar: true, wide: true)
        tally.add(runs[i + 1], bar: false, wide: false)
        tally.add(runs[i + 2], bar: true, wide: false)
        // One narrow and one wide width throughout (woven textures and stripes split into runs of barely different
        // widths), and quiet zones seen on both sides: the image border does not count, since a texture or a symbol
        // cut by the border runs into it too.
        let quietBefore = Double(RowPattern.visibleSpaceBefore(runs, b)) / tally.narrow
        let quietAfter = Double(RowPattern.visibleSpaceAfter(runs, i, 3)) / tally.narrow
        guard tally.ratio >= minWidthRatio, tally.wideIsOneWidth, quietBefore >= visibleQuietZone,
            quietAfter >= visibleQuietZone
        else {
            return (nil, b)
        }
        // A white label or a glare across the middle of a longer symbol leaves a white gap as wide as a quiet zone;
        // beyond a real quiet zone lies the paper, a bearer bar or other print, beyond such a gap more of the same
        // symbol's bars. Such a part is a fragment (6 or 8 digits of an ITF-14), whichever end the gap is at.
        // The hit is returned marked, so that the scanner refuses the same digits read on other lines, where the row
        // beyond the gap missed the rest of the symbol (a tilted symbol, the end of its bars).
        var hit = LinearHit(format: .itf, text: String(decoding: digits, as: UTF8.self), start: b, end: i + 3)
        hit.fragment =
            barsBeyond(runs, from: b - 2, step: -1, narrow: tally.narrow)
            || barsBeyond(runs, from: i + 4, step: 1, narrow: tally.narrow)
        return (hit, b)
    }
}
