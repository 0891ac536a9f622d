/// Turns one line of luminance into a pattern row (run lengths), with zxing's global-histogram threshold
/// and a -1 4 -1 sharpening filter.
enum RowBinarizer {
    /// Estimates the black point from a 32-bucket histogram; nil when the line has no two distinct peaks.
    static func blackPoint(_ buckets: UnsafeMutableBufferPointer<Int32>) -> Int? {
        let n = buckets.count
        var maxBucket: Int32 = 0
        var firstPeak = 0
        var firstPeakSize: Int32 = 0
        for x in 0..<n {
            if buckets[x] > firstPeakSize {
                firstPeak = x
                firstPeakSize = buckets[x]
            }
            if buckets[x] > maxBucket { maxBucket = buckets[x] }
        }
        var secondPeak = 0
        var secondPeakScore = 0
        for x in 0..<n {
            let d = x - firstPeak
            let score = Int(buckets[x]) * d * d
            if score > secondPeakScore {
                secondPeak = x
                secondPeakScore = score
            }
        }
        if firstPeak > secondPeak { swap(&firstPeak, &secondPeak) }
        if secondPeak - firstPeak <= n / 16 { return nil }
        var bestValley = secondPeak - 1
        var bestValleyScore = -1
        var x = secondPeak - 1
        while x > firstPeak {
            let fromFirst = x - firstPeak
            let score = fromFirst * fromFirst * (secondPeak - x) * Int(maxBucket - buckets[x])
            if score > bestValleyScore {
                bestValley = x
                bestValleyScore = score
            }
            x -= 1
        }
        return bestValley << 3
    }

    /// The histogram black point of `line` (its 32-bucket histogram's valley); nil when it has no two peaks.
    static func lineBlackPoint(_ line: UnsafeBufferPointer<UInt8>) -> Int? {
        let width = line.count
        return withUnsafeTemporaryAllocation(of: Int32.self, capacity: 4 * 32) { counts in
            // Four interleaved histograms (summed below): neighbouring pixels mostly fall in the same bucket, and
            // one histogram would make every increment wait for the previous one.
            counts.initialize(repeating: 0)
            let c = counts.baseAddress!
            var x = 0
            while x + 4 <= width {
                c[Int(line[x] >> 3)] += 1
                c[32 + Int(line[x + 1] >> 3)] += 1
                c[64 + Int(line[x + 2] >> 3)] += 1
                c[96 + Int(line[x + 3] >> 3)] += 1
                x += 4
            }
            while x < width {
                c[Int(line[x] >> 3)] += 1
                x += 1
            }
            for k in 0..<32 { c[k] += c[32 + k] + c[64 + k] + c[96 + k] }
            return blackPoint(UnsafeMutableBufferPointer(start: c, count: 32))
        }
    }

    /// Pixels of a line per pixel of its fine pattern row (``finePatternRow(_:into:)``).
    static let fineScale = 3

    /// The pattern row of `patternRow(_:into:)` — the same black point and sharpening — with each edge placed to a
    /// third of a pixel: the sharpened values are interpolated linearly between pixels, so the runs are in thirds
    /// of a pixel. At under two pixels a module, a whole pixel is half a module or more; this keeps the rest.
    static func finePatternRow(_ line: UnsafeBufferPointer<UInt8>, into runs: inout [Int32]) -> Bool {
        runs.removeAll(keepingCapacity: true)
        let width = line.count
        guard width >= 3, let blackPoint = Self.lineBlackPoint(line), let base = line.baseAddress else { return false }
        let scale = Self.fineScale
        @inline(__always) func sharpened(_ x: Int) -> Int { Int(base[x]) * 4 - Int(base[x - 1]) - Int(base[x + 1]) }
        // Black where the interpolated sharpened value is below twice the black point (as `patternRow`).
        let limit = 2 * blackPoint * scale
        var last = sharpened(1) * scale < limit
        if last { runs.append(0) }
        var lastPos = 0
        for x in 1..<(width - 1) {
            let here = sharpened(x)
            let next = x + 1 < width - 1 ? sharpened(x + 1) : here
            for k in 0..<scale where x > 1 || k > 0 {
                let v = (scale - k) * here + k * next < limit
                if v != last {
                    let position = scale * x + k
                    runs.append(Int32(position - lastPos))
                    last = v
                    lastPos = position
                }
            }
        }
        runs.append(Int32(scale * width - lastPos))
        if last { runs.append(0) }
        return runs.count >= 3
    }

    /// Fills `runs` with the pattern row of `line`; returns false when the line has too little contrast.
    static func patternRow(_ line: UnsafeBufferPointer<UInt8>, into runs: inout [Int32]) -> Bool {
        runs.removeAll(keepingCapacity: true)
        let width = line.count
        guard width >= 3, let blackPoint = Self.lineBlackPoint(line) else { return false }
        // Specialised loop (hot): -1 4 -1 sharpening, run lengths written straight into the array.
        guard let base = line.baseAddress else { return false }
        let bp2 = blackPoint * 2
        @inline(__always) func isBlack(_ x: Int) -> Bool {
            Int(base[x]) * 4 - Int(base[x - 1]) - Int(base[x + 1]) < bp2
        }
        // Runs go to a raw buffer first (at most one per pixel plus two), then into `runs` in one append.
        withUnsafeTemporaryAllocation(of: Int32.self, capacity: width + 2) { out in
            var writer = RunWriter(out.baseAddress!, first: isBlack(1))
            for x in 2..<(width - 1) { writer.put(isBlack(x), at: x) }
            runs.append(contentsOf: writer.finish(width: width))
        }
        return runs.count >= 3
    }

    /// Pattern row thresholded against a running local mean (for uneven light); window ~ 1/8 of the line.
    static func localPatternRow(_ line: UnsafeBufferPointer<UInt8>, into runs: inout [Int32]) -> Bool {
        var unused: [Int32]?
        return localPatternRows(line, into: &runs, negative: &unused).ok
    }

    /// ``localPatternRow(_:into:)`` of `line`, and, when `negative` is not nil, also of the line's negative
    /// (`255 - v`, as ``GrayscaleImage/inverted()`` makes it) in the same pass: the window sums are computed once.
    /// On the negative a pixel is dark where `(255 - v + 1) * n <= 255 * n - S`, that is `S <= (v - 1) * n`, so the
    /// runs are exactly those that binarising the negative line itself gives (pixels within a grey level of their
    /// window's mean are light on both). `ok` and `negativeOK` are each line's ``localPatternRow(_:into:)`` result.
    static func localPatternRows(
        _ line: UnsafeBufferPointer<UInt8>, into runs: inout [Int32], negative: inout [Int32]?
    ) -> (ok: Bool, negativeOK: Bool) {
        runs.removeAll(keepingCapacity: true)
        negative?.removeAll(keepingCapacity: true)
        let width = line.count
        guard width >= 8 else { return (false, false) }
        let radius = max(8, width / 16)
        var minV = 255
        var maxV = 0
        for p in line {
            minV = min(minV, Int(p))
            maxV = max(maxV, Int(p))
        }
        guard maxV - minV >= 16 else { return (false, false) }
        // Prefix sums in a temporary buffer, not a fresh array per line.
        return withUnsafeTemporaryAllocation(of: Int.self, capacity: width + 1) { prefix in
            prefix[0] = 0
            for x in 0..<width { prefix[x + 1] = prefix[x] + Int(line[x]) }
            let pre = UnsafeBufferPointer(prefix)
            // `v < (S / n)` with truncating division is `(v + 1) * n <= S` (S ≥ 0, n > 0): no division per
            // pixel (a division costs some twenty cycles; this runs on every pixel of the local-threshold lines).
            // As `d = v * n - S`: dark where `d <= -n`, dark on the negative where `d >= n`.
            @inline(__always) func excess(_ x: Int) -> (d: Int, n: Int) {
                let lo = max(0, x - radius)
                let hi = min(width, x + radius + 1)
                return (Int(line[x]) * (hi - lo) - (pre[hi] - pre[lo]), hi - lo)
            }
            guard negative != nil else {
                return (threshold(line, into: &runs) { x in let e = excess(x); return e.d <= -e.n }, false)
            }
            return withUnsafeTemporaryAllocation(of: Int32.self, capacity: 2 * (width + 2)) { out in
                let first = excess(1)
                var dark = RunWriter(out.baseAddress!, first: first.d <= -first.n)
                var light = RunWriter(out.baseAddress! + width + 2, first: first.d >= first.n)
                for x in 2..<(width - 1) {
                    let e = excess(x)
                    dark.put(e.d <= -e.n, at: x)
                    light.put(e.d >= e.n, at: x)
                }
                runs.append(contentsOf: dark.finish(width: width))
                negative!.append(contentsOf: light.finish(width: width))
                return (runs.count >= 3, negative!.count >= 3)
            }
        }
    }

    /// Pattern row from gradient extrema (edges at the steepest points between bars and spaces): keeps the
    /// widths of narrow elements that blur shrinks below any global or local threshold.
    static func edgePatternRow(_ line: UnsafeBufferPointer<UInt8>, into runs: inout [Int32]) -> Bool {
        runs.removeAll(keepingCapacity: true)
        let width = line.count
        guard width >= 8 else { return false }
        var lo = 255
        var hi = 0
        for p in line {
            lo = min(lo, Int(p))
            hi = max(hi, Int(p))
        }
        let minGradient = max(6, (hi - lo) / 10)
        guard hi - lo >= 24 else { return false }
        // Central differences, then local extrema of |d| above the threshold, alternating in sign. In temporary
        // buffers (an edge at most every other pixel), not fresh arrays per line.
        withUnsafeTemporaryAllocation(of: Int.self, capacity: width) { dBuffer in
            withUnsafeTemporaryAllocation(of: Double.self, capacity: width) { position in
                withUnsafeTemporaryAllocation(of: Int.self, capacity: width) { strength in
                    let d = dBuffer.baseAddress!
                    d[0] = 0
                    d[width - 1] = 0
                    for x in 1..<(width - 1) { d[x] = Int(line[x + 1]) - Int(line[x - 1]) }
                    // An edge's sign is its strength's: falling edges are stored negative.
                    var n = 0
                    for x in 2..<(width - 2) {
                        let a = abs(d[x])
                        guard a >= minGradient, a >= abs(d[x - 1]), a > abs(d[x + 1]) else { continue }
                        // Sub-pixel peak of |d| by a parabola through x-1, x, x+1.
                        let l = Double(abs(d[x - 1]))
                        let c = Double(a)
                        let r = Double(abs(d[x + 1]))
                        let denom = l - 2 * c + r
                        let offset = denom < 0 ? max(-0.5, min(0.5, 0.5 * (l - r) / denom)) : 0
                        let falling = d[x] < 0
                        if n > 0, (strength[n - 1] < 0) == falling {
                            if a > abs(strength[n - 1]) {
                                position[n - 1] = Double(x) + offset
                                strength[n - 1] = falling ? -a : a
                            }
                            continue
                        }
                        position[n] = Double(x) + offset
                        strength[n] = falling ? -a : a
                        n += 1
                    }
                    // Runs start with white: a line whose first edge rises starts dark, so its first (white) run is
                    // empty, as the thresholds write it. Dropping that edge instead merged the dark run at the image
                    // border into the white after it, and a symbol cut by the border showed a quiet zone there.
                    guard n >= 4 else { return }
                    if strength[0] > 0 { runs.append(0) }
                    var last = 0.0
                    for k in 0..<n {
                        let pos = position[k] + 0.5
                        runs.append(Int32(max(1, (pos - last).rounded())))
                        last = pos
                    }
                    runs.append(Int32(max(0, (Double(width) - last).rounded())))
                }
            }
        }
        guard !runs.isEmpty else { return false }
        if runs.count % 2 == 0 { runs.append(0) }
        return true
    }

    @inline(__always)
    private static func threshold(
        _ line: UnsafeBufferPointer<UInt8>, into runs: inout [Int32], _ isBlack: (Int) -> Bool
    ) -> Bool {
        let width = line.count
        // Runs go to a raw buffer first (at most one per pixel plus two), then into `runs` in one append.
        withUnsafeTemporaryAllocation(of: Int32.self, capacity: width + 2) { out in
            var writer = RunWriter(out.baseAddress!, first: isBlack(1))
            for x in 2..<(width - 1) { writer.put(isBlack(x), at: x) }
            runs.append(contentsOf: writer.finish(width: width))
        }
        return runs.count >= 3
    }

    /// Writes the run lengths of a line's dark/light sequence (pixel 1 decides the first, pixels 2 to `width - 2`
    /// follow, as every thresholded pattern row here) into a raw buffer of at least `width + 2` values.
    private struct RunWriter {
        let out: UnsafeMutablePointer<Int32>
        var count = 0
        var last: Bool
        var lastPos = 0

        /// Starts with a light run, empty when the first pixel is dark.
        @inline(__always) init(_ out: UnsafeMutablePointer<Int32>, first: Bool) {
            self.out = out
            self.last = first
            if first {
                out[0] = 0
                self.count = 1
            }
        }

        @inline(__always) mutating func put(_ dark: Bool, at x: Int) {
            guard dark != self.last else { return }
            self.out[self.count] = Int32(x - self.lastPos)
            self.count += 1
            self.last = dark
            self.lastPos = x
        }

        /// Ends the last run at `width` (and with an empty light run when it is dark); the runs written.
        @inline(__always) mutating func finish(width: Int) -> UnsafeBufferPointer<Int32> {
            self.out[self.count] = Int32(width - self.lastPos)
            self.count += 1
            if self.last {
                self.out[self.count] = 0
                self.count += 1
            }
            return UnsafeBufferPointer(start: self.out, count: self.count)
        }
    }
}
