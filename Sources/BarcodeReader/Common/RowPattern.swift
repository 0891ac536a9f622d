/// Run-length helpers shared by the 1-D decoders.
///
/// A pattern row is a list of run widths in pixels that alternate white, black, white, ...; index 0 is
/// always white (possibly 0 wide) and the last run is always white (possibly 0 wide), so bars sit at odd
/// indices. The first and last runs touch the image border and count as unlimited quiet zones.
enum RowPattern {
    /// Sum of `count` runs from `start`.
    @inline(__always)
    static func sum(_ runs: UnsafeBufferPointer<Int32>, _ start: Int, _ count: Int) -> Int {
        var s = 0
        for i in start..<(start + count) { s += Int(runs[i]) }
        return s
    }

    /// Width of the white run before index `i`, or `Int.max` at the border.
    @inline(__always)
    static func spaceBefore(_ runs: UnsafeBufferPointer<Int32>, _ i: Int) -> Int {
        i <= 1 ? Int.max : Int(runs[i - 1])
    }

    /// Width of the white run after the window `[i, i+n)`, or `Int.max` at the border.
    @inline(__always)
    static func spaceAfter(_ runs: UnsafeBufferPointer<Int32>, _ i: Int, _ n: Int) -> Int {
        i + n >= runs.count - 1 ? Int.max : Int(runs[i + n])
    }

    /// Checks the runs at `start` against a fixed module pattern; returns the module size, or 0 on mismatch.
    static func isPattern(
        _ runs: UnsafeBufferPointer<Int32>, _ start: Int, _ pattern: [Int], spaceInFront: Int = Int.max,
        minQuietZone: Double = 0, moduleSizeRef: Double = 0, relaxed: Bool = false
    ) -> Double {
        let n = pattern.count
        guard start >= 0, start + n <= runs.count else { return 0 }
        var patternSum = 0
        for p in pattern { patternSum += p }
        let width = Double(sum(runs, start, n))
        if patternSum > n && width < Double(patternSum) { return 0 }
        let moduleSize = width / Double(patternSum)
        if minQuietZone > 0 && spaceInFront != Int.max && Double(spaceInFront) < minQuietZone * moduleSize - 1 {
            return 0
        }
        let ref = moduleSizeRef > 0 ? moduleSizeRef : moduleSize
        let threshold = ref * (relaxed ? 0.75 : 0.5) + 0.5
        for x in 0..<n where abs(Double(runs[start + x]) - Double(pattern[x]) * ref) > threshold {
            return 0
        }
        return moduleSize
    }

    /// zxing's pattern-match variance: average deviation per pixel, or `.infinity` when one element deviates too much.
    @inline(__always)
    static func variance(
        _ runs: UnsafeBufferPointer<Int32>, _ start: Int, _ pattern: [Int], _ patternLength: Int,
        maxIndividual: Double
    ) -> Double {
        let n = pattern.count
        let total = sum(runs, start, n)
        if total < patternLength { return .infinity }
        let unit = Double(total) / Double(patternLength)
        let maxInd = maxIndividual * unit
        var totalVariance = 0.0
        for i in 0..<n {
            let v = abs(Double(runs[start + i]) - Double(pattern[i]) * unit)
            if v > maxInd { return .infinity }
            totalVariance += v
        }
        return totalVariance / Double(total)
    }

    /// Index of the best-matching pattern under the variance limits, or nil.
    static func bestMatch(
        _ runs: UnsafeBufferPointer<Int32>, _ start: Int, _ patterns: [[Int]], patternLength: Int,
        maxAverage: Double, maxIndividual: Double
    ) -> Int? {
        self.bestMatchWithMargin(
            runs, start, patterns, patternLength: patternLength, maxAverage: maxAverage, maxIndividual: maxIndividual)?
            .index
    }

    /// The best-matching pattern under the variance limits with its margin: how much worse the next-best
    /// pattern (or the limit) is. A small margin is an element halfway between two patterns.
    static func bestMatchWithMargin(
        _ runs: UnsafeBufferPointer<Int32>, _ start: Int, _ patterns: [[Int]], patternLength: Int,
        maxAverage: Double, maxIndividual: Double
    ) -> (index: Int, margin: Double)? {
        guard start >= 0, start + patterns[0].count <= runs.count else { return nil }
        var best = maxAverage
        var second = maxAverage
        var bestIndex: Int?
        for (i, p) in patterns.enumerated() {
            let v = variance(runs, start, p, patternLength, maxIndividual: maxIndividual)
            if v < best {
                second = best
                best = v
                bestIndex = i
            } else if v < second {
                second = v
            }
        }
        guard let bestIndex else { return nil }
        return (bestIndex, second - best)
    }

    /// The visible white before the bar at `i`: the run before it, also when that run touches the image border (an
    /// image border is no proof of a quiet zone: a texture or a cut symbol runs into it too).
    @inline(__always)
    static func visibleSpaceBefore(_ runs: UnsafeBufferPointer<Int32>, _ i: Int) -> Int {
        i >= 1 ? Int(runs[i - 1]) : 0
    }

    /// The visible white after the window `[i, i+n)`, also at the image border.
    @inline(__always)
    static func visibleSpaceAfter(_ runs: UnsafeBufferPointer<Int32>, _ i: Int, _ n: Int) -> Int {
        i + n < runs.count ? Int(runs[i + n]) : 0
    }

    /// Sums of narrow and wide bars and spaces of a 1-D symbol whose elements were classified narrow or wide, for
    /// the symbol-wide wide-to-narrow ratio.
    struct WidthTally {
        var narrowBar = 0, narrowBars = 0, wideBar = 0, wideBars = 0
        var narrowSpace = 0, narrowSpaces = 0, wideSpace = 0, wideSpaces = 0
        /// The narrowest and widest wide bar and wide space.
        var wideBarRange = (Int32.max, Int32(0)), wideSpaceRange = (Int32.max, Int32(0))

        mutating func add(_ width: Int32, bar: Bool, wide: Bool) {
            switch (bar, wide) {
            case (true, false): self.narrowBar += Int(width); self.narrowBars += 1
            case (true, true):
                self.wideBar += Int(width); self.wideBars += 1
                self.wideBarRange = (min(self.wideBarRange.0, width), max(self.wideBarRange.1, width))
            case (false, false): self.narrowSpace += Int(width); self.narrowSpaces += 1
            case (false, true):
                self.wideSpace += Int(width); self.wideSpaces += 1
                self.wideSpaceRange = (min(self.wideSpaceRange.0, width), max(self.wideSpaceRange.1, width))
            }
        }

        /// Whether the wide bars are one width, and the wide spaces another: the widest of each at most twice the
        /// narrowest and a unit more (a steep perspective and the rounding to whole pixels stay inside that). A printed
        /// symbol's wide elements are; a line of a blurred symbol of another kind whose runs happen to spell a pattern
        /// mixes widths of 3 and 8 among its "wide" bars.
        var wideIsOneWidth: Bool {
            self.wideBarRange.1 <= 2 * self.wideBarRange.0 + 1 && self.wideSpaceRange.1 <= 2 * self.wideSpaceRange.0 + 1
        }

        /// (mean wide bar + mean wide space) / (mean narrow bar + mean narrow space) over the whole symbol. Ink spread
        /// widens bars and narrows spaces by the same amount, so the sum of a bar and a space keeps the printed ratio
        /// (2.0–3.0 for Code 39 and ITF); 0 when a class is missing.
        var ratio: Double {
            guard self.narrowBars > 0, self.wideBars > 0, self.narrowSpaces > 0, self.wideSpaces > 0 else { return 0 }
            let wide = Double(self.wideBar) / Double(self.wideBars) + Double(self.wideSpace) / Double(self.wideSpaces)
            let narrow =
                Double(self.narrowBar) / Double(self.narrowBars) + Double(self.narrowSpace) / Double(self.narrowSpaces)
            return narrow > 0 ? wide / narrow : 0
        }

        /// Whether a bar of `width` is nearer the mean narrow bar than the mean wide bar tallied so far (true while
        /// either is missing).
        func isNarrowBar(_ width: Int32) -> Bool {
            guard self.narrowBars > 0, self.wideBars > 0 else { return true }
            let narrow = Double(self.narrowBar) / Double(self.narrowBars)
            let wide = Double(self.wideBar) / Double(self.wideBars)
            return Double(width) < (narrow + wide) / 2
        }

        /// The mean narrow element (the symbol's X dimension).
        var narrow: Double {
            let n = self.narrowBars + self.narrowSpaces
            return n > 0 ? Double(self.narrowBar + self.narrowSpace) / Double(n) : 0
        }
    }

    /// First bar index at or after `from` where `isGuard(index, spaceInFront)` holds, leaving `minSize` runs.
    static func findLeftGuard(
        _ runs: UnsafeBufferPointer<Int32>, from: Int, minSize: Int, _ isGuard: (Int, Int) -> Bool
    ) -> Int? {
        var i = from | 1
        while i + minSize <= runs.count {
            if isGuard(i, spaceBefore(runs, i)) { return i }
            i += 2
        }
        return nil
    }

    /// zxing-cpp's narrow/wide thresholds for bars (even offsets) and spaces (odd offsets) of a window;
    /// nil when the widths are implausible (wide > 4 narrow, bars and spaces too different).
    static func narrowWideThreshold(_ runs: UnsafeBufferPointer<Int32>, _ start: Int, _ n: Int) -> (Double, Double)? {
        guard start + n <= runs.count, n >= 2 else { return nil }
        // Bars (even offsets) and spaces (odd offsets) in scalars: this runs at every bar of every scan line.
        var lo0 = Int(runs[start])
        var lo1 = Int(runs[start + 1])
        var hi0 = lo0
        var hi1 = lo1
        var i = 2
        while i < n {
            let v = Int(runs[start + i])
            if i & 1 == 0 {
                lo0 = min(lo0, v)
                hi0 = max(hi0, v)
            } else {
                lo1 = min(lo1, v)
                hi1 = max(hi1, v)
            }
            i += 1
        }
        if hi0 > 4 * (lo0 + 1) || hi0 > 3 * hi1 || lo0 > 2 * (lo1 + 1) { return nil }
        if hi1 > 4 * (lo1 + 1) || hi1 > 3 * hi0 || lo1 > 2 * (lo0 + 1) { return nil }
        return (max(Double(lo0 + hi0) / 2, Double(lo0) * 1.5), max(Double(lo1 + hi1) / 2, Double(lo1) * 1.5))
    }

    /// Narrow/wide bit pattern of `n` elements using ``narrowWideThreshold``; -1 when implausible.
    static func thresholdPattern(_ runs: UnsafeBufferPointer<Int32>, _ start: Int, _ n: Int) -> Int {
        guard let t = narrowWideThreshold(runs, start, n) else { return -1 }
        var pattern = 0
        for i in 0..<n {
            let th = i & 1 == 0 ? t.0 : t.1
            let v = Double(runs[start + i])
            if v > th * 2 { return -1 }
            pattern = (pattern << 1) | (v > th ? 1 : 0)
        }
        return pattern
    }

    /// Converts a pattern of narrow (0) / wide (1) elements into a bitmask, zxing style; -1 when not exactly
    /// `wideCount` wide elements can be separated.
    static func narrowWidePattern(_ runs: UnsafeBufferPointer<Int32>, _ start: Int, _ n: Int, wideCount: Int) -> Int {
        guard start + n <= runs.count else { return -1 }
        var maxNarrow = 0
        while true {
            var minCounter = Int.max
            for i in 0..<n {
                let c = Int(runs[start + i])
                if c < minCounter && c > maxNarrow { minCounter = c }
            }
            if minCounter == Int.max { return -1 }
            maxNarrow = minCounter
            var wide = 0
            var totalWide = 0
            var pattern = 0
            for i in 0..<n {
                let c = Int(runs[start + i])
                if c > maxNarrow {
                    pattern |= 1 << (n - 1 - i)
                    wide += 1
                    totalWide += c
                }
            }
            if wide == wideCount {
                for i in 0..<n {
                    let c = Int(runs[start + i])
                    if c > maxNarrow && c * 2 >= totalWide { return -1 }
                }
                return pattern
            }
            if wide < wideCount { return -1 }
        }
    }
}

/// One 1-D symbol found on a pattern row.
struct LinearHit {
    var format: BarcodeFormat
    var text: String
    /// Run index of the first bar.
    var start: Int
    /// Run index one past the last bar.
    var end: Int
    /// Every element matched one pattern clearly (no near tie between two patterns); EAN/UPC only.
    var clear = true
    /// A part of a longer symbol seen on this line (ITF: more of the same bars beyond one of its quiet zones): never
    /// reported, and its digits are not reported from other lines either.
    var fragment = false
    /// Not a symbol: digits this line read where the symbol did not end (ITF: no stop pattern after them), kept to
    /// weigh against lines that saw the same digits end there.
    var unended = false
    /// Not a symbol: digits this line read backwards from a symbol's end where no start came before them (ITF), kept
    /// to weigh against lines that saw a start there.
    var unstarted = false
    /// Not a symbol: half of an EAN-13 or UPC-A where the line saw no more of it (``UPCEAN``), kept as a place to
    /// read the symbol along its own axis.
    var half = false
    /// The EAN-2/EAN-5 add-on read after the symbol on this line (EAN-13, UPC-A, UPC-E), and whether its digits
    /// were clear.
    var addOn: String? = nil
    var addOnClear = false
}
