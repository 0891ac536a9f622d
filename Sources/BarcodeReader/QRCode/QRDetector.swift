/// Locates QR symbols in a binarised image: finder patterns, alignment pattern, perspective sampling.
struct QRDetector {
    struct FinderPattern {
        var x: Double
        var y: Double
        var moduleSize: Double
        var count: Int

        func aboutEquals(moduleSize size: Double, y i: Double, x j: Double) -> Bool {
            guard abs(i - self.y) <= size, abs(j - self.x) <= size else { return false }
            let diff = abs(size - self.moduleSize)
            return diff <= 1 || diff <= self.moduleSize
        }

        func combined(y i: Double, x j: Double, moduleSize size: Double) -> FinderPattern {
            let n = Double(self.count)
            return FinderPattern(
                x: (n * self.x + j) / (n + 1), y: (n * self.y + i) / (n + 1),
                moduleSize: (n * self.moduleSize + size) / (n + 1), count: self.count + 1)
        }
    }

    /// A located symbol: a module-to-image transform plus what is needed to sample it.
    struct Candidate {
        var transform: PerspectiveTransform
        var version: QRVersion
        var moduleSize: Double
        var corners: [Point]
        var finders: [FinderPattern]
        /// Only the first transform of a triple (the one using the alignment pattern) gets the mesh variant.
        var isPrimary: Bool
        /// The fourth point of the transform (alignment pattern or parallelogram corner) and its module position.
        var fourthPoint: (Double, Double)
        var fourthModule: Double

        /// The transform with one of its points (0 = fourth, 1 = top-right, 2 = bottom-left) moved by
        /// (dx, dy) modules along the image axes.
        func jittered(_ dx: Double, _ dy: Double, point: Int = 0) -> PerspectiveTransform {
            let d = Double(self.version.dimension) - 3.5
            let tl = self.finders[1]
            var tr = (self.finders[2].x, self.finders[2].y)
            var bl = (self.finders[0].x, self.finders[0].y)
            var fourth = self.fourthPoint
            let shift = (dx * self.moduleSize, dy * self.moduleSize)
            switch point {
            case 1: tr = (tr.0 + shift.0, tr.1 + shift.1)
            case 2: bl = (bl.0 + shift.0, bl.1 + shift.1)
            default: fourth = (fourth.0 + shift.0, fourth.1 + shift.1)
            }
            return PerspectiveTransform.quadrilateralToQuadrilateral(
                3.5, 3.5, d, 3.5, self.fourthModule, self.fourthModule, 3.5, d,
                tl.x, tl.y, tr.0, tr.1, fourth.0, fourth.1, bl.0, bl.1)
        }
    }

    /// Ways to turn a candidate into modules, cheapest first.
    enum Sampling: CaseIterable { case binary, mesh, grey }

    let image: BitMatrix
    /// The luminance image, for the grey-level resampling fallback.
    var gray: GrayscaleImage?

    // MARK: finder patterns

    static func foundPatternCross(_ s: [Int]) -> Bool {
        Self.foundPatternCross(s[0], s[1], s[2], s[3], s[4])
    }

    /// ``foundPatternCross(_:)`` on five counts held in scalars (the row scan asks at every dark-to-light change).
    @inline(__always)
    static func foundPatternCross(_ s0: Int, _ s1: Int, _ s2: Int, _ s3: Int, _ s4: Int) -> Bool {
        let total = s0 + s1 + s2 + s3 + s4
        guard total >= 7, s0 > 0, s1 > 0, s2 > 0, s3 > 0, s4 > 0 else { return false }
        let module = Double(total) / 7
        // Half a module, plus half a pixel for where a binarised edge lands (as zxing-cpp's IsPattern: rings of
        // modules under 2 pixels come out 1, 2 or 3 pixels wide), but not more than a quarter module (at a pixel a
        // module the runs are whole modules, and data would pass for finders).
        let maxV = module / 2 + min(0.5, module / 4)
        if abs(module - Double(s0)) < maxV && abs(module - Double(s1)) < maxV
            && abs(3 * module - Double(s2)) < 3 * maxV && abs(module - Double(s3)) < maxV
            && abs(module - Double(s4)) < maxV
        {
            return true
        }
        // Edge-to-edge distances (bar + following space) survive ink spread and blur better (as zxing-cpp).
        let tolerance = module * 0.6
        if abs(Double(s0 + s1) - 2.0 * module) > tolerance || abs(Double(s1 + s2) - 4.0 * module) > tolerance
            || abs(Double(s2 + s3) - 4.0 * module) > tolerance || abs(Double(s3 + s4) - 2.0 * module) > tolerance
        {
            return false
        }
        return s2 > s0 && s2 > s4 && Double(s2) >= 2 * module
    }

    static func foundPatternDiagonal(_ s: [Int]) -> Bool {
        let total = s[0] + s[1] + s[2] + s[3] + s[4]
        guard total >= 7, s.allSatisfy({ $0 > 0 }) else { return false }
        let module = Double(total) / 7
        let maxV = module / 1.333
        return abs(module - Double(s[0])) < maxV && abs(module - Double(s[1])) < maxV
            && abs(3 * module - Double(s[2])) < 3 * maxV && abs(module - Double(s[3])) < maxV
            && abs(module - Double(s[4])) < maxV
    }

    static func centerFromEnd(_ s: [Int], _ end: Int) -> Double {
        Double(end - s[4] - s[3]) - Double(s[2]) / 2
    }

    /// The five runs along column `centerJ` through row `startI` (dark, light, dark centre, light, dark; each
    /// outer one at most `maxCount` long), checked as a finder pattern; the centre row, or nil.
    func crossCheckVertical(_ startI: Int, _ centerJ: Int, _ maxCount: Int, _ originalTotal: Int) -> Double? {
        let img = self.image
        guard centerJ >= 0, centerJ < img.width else { return nil }
        return img.bits.withUnsafeBufferPointer { bits in
            Self.crossCheck(
                bits, start: startI, count: img.height, first: centerJ, stride: img.width, maxCount: maxCount,
                originalTotal: originalTotal, tolerance: 2)
        }
    }

    /// ``crossCheckVertical(_:_:_:_:)`` along row `centerI`; a tighter check of the total (within a fifth).
    func crossCheckHorizontal(_ startJ: Int, _ centerI: Int, _ maxCount: Int, _ originalTotal: Int) -> Double? {
        let img = self.image
        guard centerI >= 0, centerI < img.height else { return nil }
        return img.bits.withUnsafeBufferPointer { bits in
            Self.crossCheck(
                bits, start: startJ, count: img.width, first: centerI * img.width, stride: 1, maxCount: maxCount,
                originalTotal: originalTotal, tolerance: 1)
        }
    }

    /// The cross-check along one line of the image: pixel `k` of the line (0 ≤ k < `count`) is
    /// `bits[first + k * stride]`. The total of the five runs must be within `tolerance` fifths of `originalTotal`.
    @inline(__always)
    private static func crossCheck(
        _ bits: UnsafeBufferPointer<UInt8>, start: Int, count: Int, first: Int, stride: Int, maxCount: Int,
        originalTotal: Int, tolerance: Int
    ) -> Double? {
        @inline(__always) func dark(_ k: Int) -> Bool { bits[first + k * stride] != 0 }
        var s0 = 0
        var s1 = 0
        var s2 = 0
        var s3 = 0
        var s4 = 0
        // The total is checked last; the centre alone already past its upper bound fails it (long stripes and
        // fence posts would otherwise be walked to their ends).
        let limit = (5 + tolerance) * originalTotal
        var k = start
        while k >= 0 && k < count && dark(k) && 5 * s2 < limit {
            s2 += 1
            k -= 1
        }
        if k < 0 || 5 * s2 >= limit { return nil }
        while k >= 0 && !dark(k) && s1 <= maxCount {
            s1 += 1
            k -= 1
        }
        if k < 0 || s1 > maxCount { return nil }
        while k >= 0 && dark(k) && s0 <= maxCount {
            s0 += 1
            k -= 1
        }
        if s0 > maxCount { return nil }
        k = start + 1
        while k >= 0 && k < count && dark(k) && 5 * s2 < limit {
            s2 += 1
            k += 1
        }
        if k == count || 5 * s2 >= limit { return nil }
        while k < count && !dark(k) && s3 < maxCount {
            s3 += 1
            k += 1
        }
        if k == count || s3 >= maxCount { return nil }
        while k < count && dark(k) && s4 < maxCount {
            s4 += 1
            k += 1
        }
        if s4 >= maxCount { return nil }
        let total = s0 + s1 + s2 + s3 + s4
        if 5 * abs(total - originalTotal) >= tolerance * originalTotal { return nil }
        return Self.foundPatternCross(s0, s1, s2, s3, s4) ? Double(k - s4 - s3) - Double(s2) / 2 : nil
    }

    /// The five runs along the diagonal through (`centerJ`, `centerI`), checked with a looser tolerance.
    func crossCheckDiagonal(_ centerI: Int, _ centerJ: Int) -> Bool {
        let img = self.image
        let maxI = img.height
        let maxJ = img.width
        guard centerI >= 0, centerJ >= 0, centerI < maxI, centerJ < maxJ else { return false }
        return img.bits.withUnsafeBufferPointer { bits -> Bool in
            @inline(__always) func dark(_ d: Int) -> Bool { bits[(centerI + d) * maxJ + centerJ + d] != 0 }
            var s0 = 0
            var s1 = 0
            var s2 = 0
            var s3 = 0
            var s4 = 0
            var i = 0
            while centerI >= i && centerJ >= i && dark(-i) {
                s2 += 1
                i += 1
            }
            if s2 == 0 { return false }
            while centerI >= i && centerJ >= i && !dark(-i) {
                s1 += 1
                i += 1
            }
            if s1 == 0 { return false }
            while centerI >= i && centerJ >= i && dark(-i) {
                s0 += 1
                i += 1
            }
            if s0 == 0 { return false }
            i = 1
            while centerI + i < maxI && centerJ + i < maxJ && dark(i) {
                s2 += 1
                i += 1
            }
            while centerI + i < maxI && centerJ + i < maxJ && !dark(i) {
                s3 += 1
                i += 1
            }
            if s3 == 0 { return false }
            while centerI + i < maxI && centerJ + i < maxJ && dark(i) {
                s4 += 1
                i += 1
            }
            if s4 == 0 { return false }
            return Self.foundPatternDiagonal([s0, s1, s2, s3, s4])
        }
    }

    func handlePossibleCenter(_ s: [Int], _ i: Int, _ j: Int, _ centers: inout [FinderPattern]) -> Bool {
        let total = s.reduce(0, +)
        var centerJ = Self.centerFromEnd(s, j)
        guard let centerI = crossCheckVertical(i, Int(centerJ), s[2], total) else { return false }
        guard let cj = crossCheckHorizontal(Int(centerJ), Int(centerI), s[2], total) else { return false }
        centerJ = cj
        // The rings cross the diagonal in the same proportions (concentric squares): noise that passed across and
        // down rarely does.
        guard crossCheckDiagonal(Int(centerI), Int(centerJ)) else { return false }
        let module = Double(total) / 7
        for k in centers.indices where centers[k].aboutEquals(moduleSize: module, y: centerI, x: centerJ) {
            centers[k] = centers[k].combined(y: centerI, x: centerJ, moduleSize: module)
            return true
        }
        centers.append(FinderPattern(x: centerJ, y: centerI, moduleSize: module, count: 1))
        return true
    }

    /// Scans rows for the 1:1:3:1:1 finder pattern.
    func findFinderPatterns() -> [FinderPattern] {
        let img = self.image
        let maxI = img.height
        let maxJ = img.width
        var centers: [FinderPattern] = []
        let iSkip = 2
        var i = iSkip - 1
        // zxing's pixel-by-pixel state machine over five run counts, fed a whole run at a time: the row is packed
        // into 64-pixel bit masks and each run's end found by counting zero bits. A run of n pixels does what its
        // n pixels did one by one: only its first pixel can change the state, the others add to the count.
        let wordCount = (maxJ + 63) / 64
        let mask = UnsafeMutablePointer<UInt64>.allocate(capacity: wordCount + 1)
        defer { mask.deallocate() }
        img.bits.withUnsafeBufferPointer { bits in
            guard let raw = UnsafeRawPointer(bits.baseAddress) else { return }
            while i < maxI {
                var s0 = 0
                var s1 = 0
                var s2 = 0
                var s3 = 0
                var s4 = 0
                var state = 0
                let row = i * maxJ
                for k in 0...wordCount { mask[k] = 0 }
                var x = 0
                while x + 8 <= maxJ {
                    let v = raw.loadUnaligned(fromByteOffset: row + x, as: UInt64.self)
                    let packed: UInt64
                    if v & 0xFEFE_FEFE_FEFE_FEFE == 0 {
                        packed = (v &* 0x0102_0408_1020_4080) >> 56
                    } else {
                        var p: UInt64 = 0
                        for b in 0..<8 where bits[row + x + b] != 0 { p |= 1 << UInt64(b) }
                        packed = p
                    }
                    mask[x >> 6] |= packed << UInt64(x & 63)
                    x += 8
                }
                while x < maxJ {
                    if bits[row + x] != 0 { mask[x >> 6] |= 1 << UInt64(x & 63) }
                    x += 1
                }
                var j = 0
                while j < maxJ {
                    // The run starting at j: its colour, and its end (the first pixel of the other colour, or maxJ).
                    var word = j >> 6
                    let dark = mask[word] >> UInt64(j & 63) & 1 != 0
                    var other = (dark ? ~mask[word] : mask[word]) & (~0 << UInt64(j & 63))
                    while other == 0 && word < wordCount {
                        word += 1
                        other = dark ? ~mask[word] : mask[word]
                    }
                    let end = other == 0 ? maxJ : min(maxJ, word << 6 + other.trailingZeroBitCount)
                    let n = end - j
                    if dark {
                        if state & 1 == 1 { state += 1 }
                        switch state {
                        case 0: s0 += n
                        case 2: s2 += n
                        default: s4 += n
                        }
                    } else if state & 1 == 1 {
                        if state == 1 { s1 += n } else { s3 += n }
                    } else if state == 4 {
                        if Self.foundPatternCross(s0, s1, s2, s3, s4)
                            && handlePossibleCenter([s0, s1, s2, s3, s4], i, j, &centers)
                        {
                            // The first light pixel is spent by the reset; the next one starts state 1.
                            state = n > 1 ? 1 : 0
                            (s0, s1, s2, s3, s4) = (0, n - 1, 0, 0, 0)
                        } else {
                            (s0, s1, s2, s3, s4) = (s2, s3, s4, n, 0)
                            state = 3
                        }
                    } else {
                        state += 1
                        if state == 1 { s1 += n } else { s3 += n }
                    }
                    j = end
                }
                if Self.foundPatternCross(s0, s1, s2, s3, s4) {
                    _ = handlePossibleCenter([s0, s1, s2, s3, s4], i, maxJ, &centers)
                }
                i += iSkip
            }
        }
        return centers
    }

    static func distance(_ a: FinderPattern, _ b: FinderPattern) -> Double {
        ((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y)).squareRoot()
    }

    /// Orders three patterns as (bottomLeft, topLeft, topRight).
    static func order(_ p: [FinderPattern]) -> (FinderPattern, FinderPattern, FinderPattern) {
        let d01 = distance(p[0], p[1])
        let d12 = distance(p[1], p[2])
        let d02 = distance(p[0], p[2])
        var a: FinderPattern
        let b: FinderPattern
        var c: FinderPattern
        if d12 >= d01 && d12 >= d02 {
            (b, a, c) = (p[0], p[1], p[2])
        } else if d02 >= d12 && d02 >= d01 {
            (b, a, c) = (p[1], p[0], p[2])
        } else {
            (b, a, c) = (p[2], p[0], p[1])
        }
        if (c.x - b.x) * (a.y - b.y) - (c.y - b.y) * (a.x - b.x) < 0 { swap(&a, &c) }
        return (a, b, c)
    }

    /// Candidate triples, best-shaped first (right angle, equal legs, similar module sizes).
    static let maxCandidates = 12

    static func candidateTriples(_ centers: [FinderPattern], limit: Int) -> [[Int]] {
        // Noise yields many one-off candidates: keep the most often confirmed ones (bounded O(n^3) search).
        let usable = centers.indices.sorted { centers[$0].count > centers[$1].count }.prefix(maxCandidates).map { $0 }
        var scored: [(Double, [Int])] = []
        for ai in 0..<usable.count {
            for bi in (ai + 1)..<max(ai + 1, usable.count) {
                for ci in (bi + 1)..<max(bi + 1, usable.count) {
                    let idx = [usable[ai], usable[bi], usable[ci]]
                    let p = idx.map { centers[$0] }
                    let sizes = p.map(\.moduleSize)
                    // A steep perspective makes the near finder up to about twice the far one (zxing-cpp allows as
                    // much); such triples come after every triple of similar finders, and only when each finder was
                    // seen on more than one scan line (texture makes many one-line finders of any size).
                    guard let lo = sizes.min(), let hi = sizes.max(), hi <= lo * 2 else { continue }
                    let unequal = hi > lo * 1.4 ? 10.0 : 0
                    if unequal > 0 && p.contains(where: { $0.count < 2 }) { continue }
                    var d = [
                        sq(p[0], p[1]), sq(p[1], p[2]), sq(p[0], p[2]),
                    ].sorted()
                    // Legs roughly at least a version-1 symbol apart (14 modules; module estimates run high).
                    guard d[0] >= pow2(lo * 10) else { continue }
                    let distortion = abs(d[2] - 2 * d[1]) + abs(d[2] - 2 * d[0])
                    d[0] = distortion / d[2]
                    guard d[0] < 1.2 else { continue }
                    // Finders confirmed on more than one scan line before any seen once: a noisy background makes
                    // one-line finders of every size that form well-shaped triples among themselves, which would
                    // otherwise push a real symbol at an angle (unequal finders) out of the triples tried.
                    let unconfirmed = p.contains(where: { $0.count < 2 }) ? 100.0 : 0
                    scored.append((d[0] + unequal + unconfirmed, idx))
                }
            }
        }
        scored.sort { $0.0 < $1.0 }
        return scored.prefix(limit).map(\.1)
    }

    private static func sq(_ a: FinderPattern, _ b: FinderPattern) -> Double {
        (a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y)
    }

    private static func pow2(_ v: Double) -> Double { v * v }

    // MARK: geometry

    func sizeOfBlackWhiteBlackRun(_ fromX0: Int, _ fromY0: Int, _ toX0: Int, _ toY0: Int) -> Double {
        var fromX = fromX0
        var fromY = fromY0
        var toX = toX0
        var toY = toY0
        let steep = abs(toY - fromY) > abs(toX - fromX)
        if steep {
            swap(&fromX, &fromY)
            swap(&toX, &toY)
        }
        let dx = abs(toX - fromX)
        let dy = abs(toY - fromY)
        var error = -dx / 2
        let xstep = fromX < toX ? 1 : -1
        let ystep = fromY < toY ? 1 : -1
        var state = 0
        let xLimit = toX + xstep
        var x = fromX
        var y = fromY
        func dist(_ ax: Int, _ ay: Int) -> Double {
            let ddx = Double(ax - fromX)
            let ddy = Double(ay - fromY)
            return (ddx * ddx + ddy * ddy).squareRoot()
        }
        while x != xLimit {
            let realX = steep ? y : x
            let realY = steep ? x : y
            if (state == 1) == self.image.get(realX, realY) {
                if state == 2 { return dist(x, y) }
                state += 1
            }
            error += dy
            if error > 0 {
                if y == toY { break }
                y += ystep
                error -= dx
            }
            x += xstep
        }
        if state == 2 { return dist(toX + xstep, toY) }
        return .nan
    }

    func sizeOfBlackWhiteBlackRunBothWays(_ fromX: Int, _ fromY: Int, _ toX: Int, _ toY: Int) -> Double {
        var result = sizeOfBlackWhiteBlackRun(fromX, fromY, toX, toY)
        let w = self.image.width
        let h = self.image.height
        var scale = 1.0
        var otherToX = fromX - (toX - fromX)
        if otherToX < 0 {
            scale = Double(fromX) / Double(fromX - otherToX)
            otherToX = 0
        } else if otherToX >= w {
            scale = Double(w - 1 - fromX) / Double(otherToX - fromX)
            otherToX = w - 1
        }
        var otherToY = Int(Double(fromY) - Double(toY - fromY) * scale)
        scale = 1.0
        if otherToY < 0 {
            scale = Double(fromY) / Double(fromY - otherToY)
            otherToY = 0
        } else if otherToY >= h {
            scale = Double(h - 1 - fromY) / Double(otherToY - fromY)
            otherToY = h - 1
        }
        otherToX = Int(Double(fromX) + Double(otherToX - fromX) * scale)
        result += sizeOfBlackWhiteBlackRun(fromX, fromY, otherToX, otherToY)
        return result - 1
    }

    func moduleSizeOneWay(_ a: FinderPattern, _ b: FinderPattern) -> Double {
        let e1 = sizeOfBlackWhiteBlackRunBothWays(Int(a.x), Int(a.y), Int(b.x), Int(b.y))
        let e2 = sizeOfBlackWhiteBlackRunBothWays(Int(b.x), Int(b.y), Int(a.x), Int(a.y))
        if e1.isNaN { return e2 / 7 }
        if e2.isNaN { return e1 / 7 }
        return (e1 + e2) / 14
    }

    /// Looks for the 1:1:1 white-black-white alignment pattern near an estimate.
    func findAlignment(moduleSize: Double, estX: Int, estY: Int, allowanceFactor: Double) -> (Double, Double)? {
        let allowance = Int(allowanceFactor * moduleSize)
        let left = max(0, estX - allowance)
        let right = min(self.image.width - 1, estX + allowance)
        let top = max(0, estY - allowance)
        let bottom = min(self.image.height - 1, estY + allowance)
        guard Double(right - left) >= moduleSize * 3, Double(bottom - top) >= moduleSize * 3 else { return nil }
        var best: (Double, Double)?
        var bestDistance = Double.infinity
        let middleI = (top + bottom) / 2
        let height = bottom - top + 1
        for k in 0..<height {
            let i = middleI + ((k & 1) == 0 ? (k + 1) / 2 : -((k + 1) / 2))
            guard i >= top, i <= bottom else { continue }
            var s = [0, 0, 0]
            var j = left
            while j <= right && !self.image.get(j, i) { j += 1 }
            var state = 0
            while j <= right {
                if self.image.get(j, i) {
                    if state == 1 {
                        s[1] += 1
                    } else if state == 2 {
                        if let c = alignmentCandidate(s, i, j, moduleSize) {
                            let d = abs(c.0 - Double(estX)) + abs(c.1 - Double(estY))
                            if d < bestDistance {
                                bestDistance = d
                                best = c
                            }
                        }
                        s = [s[2], 1, 0]
                        state = 1
                    } else {
                        state += 1
                        s[state] += 1
                    }
                } else {
                    if state == 1 { state += 1 }
                    s[state] += 1
                }
                j += 1
            }
            if let best, bestDistance < moduleSize * 2 { return best }
        }
        return best
    }

    private func alignmentCandidate(_ s: [Int], _ i: Int, _ j: Int, _ moduleSize: Double) -> (Double, Double)? {
        let maxV = moduleSize / 2
        for c in s where abs(moduleSize - Double(c)) >= maxV { return nil }
        let centerJ = Double(j - s[2]) - Double(s[1]) / 2
        // Vertical cross-check: white, black, white of about a module each.
        let cj = Int(centerJ)
        let maxCount = 2 * s[1]
        var v = [0, 0, 0]
        var y = i
        while y >= 0 && self.image.get(cj, y) && v[1] <= maxCount {
            v[1] += 1
            y -= 1
        }
        if y < 0 || v[1] > maxCount { return nil }
        while y >= 0 && !self.image.get(cj, y) && v[0] <= maxCount {
            v[0] += 1
            y -= 1
        }
        if v[0] > maxCount { return nil }
        y = i + 1
        while y < self.image.height && self.image.get(cj, y) && v[1] <= maxCount {
            v[1] += 1
            y += 1
        }
        if y == self.image.height || v[1] > maxCount { return nil }
        while y < self.image.height && !self.image.get(cj, y) && v[2] <= maxCount {
            v[2] += 1
            y += 1
        }
        if v[2] > maxCount { return nil }
        for c in v where abs(moduleSize - Double(c)) >= maxV { return nil }
        let centerI = Double(y - v[2]) - Double(v[1]) / 2
        return (centerJ, centerI)
    }

    /// Samples a `dimension`² module grid through the transform.
    func sampleGrid(_ t: PerspectiveTransform, dimension: Int) -> BitMatrix? {
        var out = BitMatrix(width: dimension, height: dimension)
        var outside = 0
        for y in 0..<dimension {
            for x in 0..<dimension {
                let (px, py) = t.transform(Double(x) + 0.5, Double(y) + 0.5)
                guard px.isFinite, py.isFinite else { return nil }
                let ix = pixelIndex(px.rounded(.down))
                let iy = pixelIndex(py.rounded(.down))
                if ix < -1 || iy < -1 || ix > self.image.width || iy > self.image.height {
                    outside += 1
                    if outside > dimension { return nil }
                    continue
                }
                let cx = min(max(ix, 0), self.image.width - 1)
                let cy = min(max(iy, 0), self.image.height - 1)
                if self.image.get(cx, cy) { out.set(x, y) }
            }
        }
        return out
    }

    /// How many fixed modules (finder patterns, timing patterns, alignment patterns) a transform samples right.
    func fixedPatternScore(_ t: PerspectiveTransform, version: QRVersion) -> Int {
        let d = version.dimension
        var score = 0
        @inline(__always) func check(_ x: Int, _ y: Int, _ dark: Bool) {
            let (px, py) = t.transform(Double(x) + 0.5, Double(y) + 0.5)
            guard px.isFinite, py.isFinite else { return }
            if self.image.get(px, py) == dark { score += 1 }
        }
        for k in 8..<(d - 8) {
            check(k, 6, k % 2 == 0)
            check(6, k, k % 2 == 0)
        }
        for (ox, oy) in [(0, 0), (d - 7, 0), (0, d - 7)] {
            for y in 0..<7 {
                for x in 0..<7 {
                    let ring = x == 0 || x == 6 || y == 0 || y == 6
                    let core = x >= 2 && x <= 4 && y >= 2 && y <= 4
                    check(ox + x, oy + y, ring || core)
                }
            }
        }
        let c = version.alignmentCenters
        let n = c.count
        for i in 0..<n {
            for j in 0..<n {
                if (i == 0 && (j == 0 || j == n - 1)) || (i == n - 1 && j == 0) { continue }
                for dy in -2...2 { for dx in -2...2 { check(c[i] + dx, c[j] + dy, max(abs(dx), abs(dy)) != 1) } }
            }
        }
        return score
    }

    /// Hill-climbs the four control points of a candidate so the sampled fixed patterns fit best; for warped or
    /// oblique symbols whose finder centres are a little off.
    func fitted(_ c: Candidate) -> PerspectiveTransform {
        let d = Double(c.version.dimension) - 3.5
        var p = [
            c.finders[1].x, c.finders[1].y, c.finders[2].x, c.finders[2].y, c.fourthPoint.0, c.fourthPoint.1,
            c.finders[0].x, c.finders[0].y,
        ]
        func make(_ p: [Double]) -> PerspectiveTransform {
            PerspectiveTransform.quadrilateralToQuadrilateral(
                3.5, 3.5, d, 3.5, c.fourthModule, c.fourthModule, 3.5, d, p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7])
        }
        var best = fixedPatternScore(make(p), version: c.version)
        for step in [0.75, 0.4, 0.2].map({ $0 * c.moduleSize }) {
            var rounds = 0
            var improved = true
            while improved && rounds < 12 {
                improved = false
                rounds += 1
                for k in 0..<8 {
                    for sign in [1.0, -1.0] {
                        var q = p
                        q[k] += sign * step
                        let sc = fixedPatternScore(make(q), version: c.version)
                        if sc > best {
                            best = sc
                            p = q
                            improved = true
                        }
                    }
                }
            }
        }
        return make(p)
    }

    /// Fraction of timing-pattern modules (row and column 6) that alternate as they should.
    func timingScore(_ t: PerspectiveTransform, dimension: Int) -> Double {
        var good = 0
        var total = 0
        for k in 8..<(dimension - 8) {
            let expected = k % 2 == 0
            for (mx, my) in [(Double(k) + 0.5, 6.5), (6.5, Double(k) + 0.5)] {
                let (px, py) = t.transform(mx, my)
                guard px.isFinite, py.isFinite else { return 0 }
                total += 1
                if self.image.get(px, py) == expected { good += 1 }
            }
        }
        return total == 0 ? 0 : Double(good) / Double(total)
    }

    /// Samples a candidate's modules; nil when the variant does not apply or the grid leaves the image.
    func sample(_ c: Candidate, _ sampling: Sampling) -> BitMatrix? {
        switch sampling {
        case .binary:
            return sampleGrid(c.transform, dimension: c.version.dimension)
        case .mesh:
            guard c.isPrimary, c.version.alignmentCenters.count >= 3 else { return nil }
            return sampleMesh(
                c.transform, version: c.version, moduleSize: c.moduleSize, bl: c.finders[0], tl: c.finders[1],
                tr: c.finders[2])
        case .grey:
            guard let g = self.gray else { return nil }
            return sampleGrey(g, c.transform, dimension: c.version.dimension)
        }
    }

    /// Piecewise sampling for versions 7+: every alignment pattern is located near where the global transform
    /// predicts it, and each cell of the finder/alignment mesh gets its own perspective transform.
    func sampleMesh(
        _ global: PerspectiveTransform, version: QRVersion, moduleSize: Double, bl: FinderPattern, tl: FinderPattern,
        tr: FinderPattern
    ) -> BitMatrix? {
        let c = version.alignmentCenters
        let n = c.count
        let dim = version.dimension
        var moduleX = [[Double]](repeating: [Double](repeating: 0, count: n), count: n)
        var moduleY = moduleX
        var imageX = moduleX
        var imageY = moduleX
        for j in 0..<n {
            for i in 0..<n {
                var mx = Double(c[i]) + 0.5
                var my = Double(c[j]) + 0.5
                var p: (Double, Double)
                if i == 0 && j == 0 {
                    (mx, my) = (3.5, 3.5)
                    p = (tl.x, tl.y)
                } else if i == n - 1 && j == 0 {
                    (mx, my) = (Double(dim) - 3.5, 3.5)
                    p = (tr.x, tr.y)
                } else if i == 0 && j == n - 1 {
                    (mx, my) = (3.5, Double(dim) - 3.5)
                    p = (bl.x, bl.y)
                } else {
                    p = global.transform(mx, my)
                    guard p.0.isFinite, p.1.isFinite else { return nil }
                    if let a = findAlignment(
                        moduleSize: moduleSize, estX: pixelIndex(p.0), estY: pixelIndex(p.1), allowanceFactor: 2.5),
                        abs(a.0 - p.0) + abs(a.1 - p.1) < moduleSize * 3
                    {
                        p = a
                    }
                }
                moduleX[j][i] = mx
                moduleY[j][i] = my
                imageX[j][i] = p.0
                imageY[j][i] = p.1
            }
        }
        var cells: [[PerspectiveTransform]] = []
        for j in 0..<(n - 1) {
            var row: [PerspectiveTransform] = []
            for i in 0..<(n - 1) {
                row.append(
                    PerspectiveTransform.quadrilateralToQuadrilateral(
                        moduleX[j][i], moduleY[j][i], moduleX[j][i + 1], moduleY[j][i + 1],
                        moduleX[j + 1][i + 1], moduleY[j + 1][i + 1], moduleX[j + 1][i], moduleY[j + 1][i],
                        imageX[j][i], imageY[j][i], imageX[j][i + 1], imageY[j][i + 1],
                        imageX[j + 1][i + 1], imageY[j + 1][i + 1], imageX[j + 1][i], imageY[j + 1][i]))
            }
            cells.append(row)
        }
        var out = BitMatrix(width: dim, height: dim)
        for y in 0..<dim {
            var cj = 0
            while cj < n - 2 && y >= c[cj + 1] { cj += 1 }
            for x in 0..<dim {
                var ci = 0
                while ci < n - 2 && x >= c[ci + 1] { ci += 1 }
                let (px, py) = cells[cj][ci].transform(Double(x) + 0.5, Double(y) + 0.5)
                guard px.isFinite, py.isFinite else { return nil }
                let ix = min(max(pixelIndex(px), 0), self.image.width - 1)
                let iy = min(max(pixelIndex(py), 0), self.image.height - 1)
                if self.image.get(ix, iy) { out.set(x, y) }
            }
        }
        return out
    }

    func sampleGrey(_ g: GrayscaleImage, _ t: PerspectiveTransform, dimension: Int) -> BitMatrix? {
        GreySampler.sample(g, t, width: dimension, height: dimension)
    }

    /// The symbol's dimension from the finder distances in modules (rounded to a valid size) and the module size.
    func estimatedDimension(bottomLeft bl: FinderPattern, topLeft tl: FinderPattern, topRight tr: FinderPattern)
        -> (Int, Double)?
    {
        let moduleSize = (moduleSizeOneWay(tl, tr) + moduleSizeOneWay(tl, bl)) / 2
        guard moduleSize.isFinite, moduleSize >= 1 else { return nil }
        let tltr = Int((Self.distance(tl, tr) / moduleSize).rounded())
        let tlbl = Int((Self.distance(tl, bl) / moduleSize).rounded())
        var dimension = (tltr + tlbl) / 2 + 7
        switch dimension & 3 {
        case 0: dimension += 1
        case 2: dimension -= 1
        case 3: dimension += 2  // zxing gives up here; try the nearest valid size instead
        default: break
        }
        return (dimension, moduleSize)
    }

    /// Builds the sampling grid for three ordered finder patterns.
    func detect(
        bottomLeft bl: FinderPattern, topLeft tl: FinderPattern, topRight tr: FinderPattern, dimensionDelta: Int = 0,
        minTimingScore: Double = 0
    ) -> [Candidate] {
        guard let (dimension, moduleSize) = estimatedDimension(bottomLeft: bl, topLeft: tl, topRight: tr) else {
            return []
        }
        let dims = [dimension + dimensionDelta]
        var results: [Candidate] = []
        for dim in dims {
            guard let version = QRVersion.forDimension(dim) else { continue }
            let modulesBetween = Double(dim - 7)
            // The timing patterns run between the finders, where the parallelogram transform is accurate:
            // reject a wrong dimension (or a noise triple) before the costly alignment search.
            let dimMinus = Double(dim) - 3.5
            let parallelogram = PerspectiveTransform.quadrilateralToQuadrilateral(
                3.5, 3.5, dimMinus, 3.5, dimMinus, dimMinus, 3.5, dimMinus,
                tl.x, tl.y, tr.x, tr.y, tr.x - tl.x + bl.x, tr.y - tl.y + bl.y, bl.x, bl.y)
            guard minTimingScore == 0 || timingScore(parallelogram, dimension: dim) >= minTimingScore else { continue }
            var alignment: (Double, Double)?
            if version.alignmentCenters.count > 0 {
                let brX = tr.x - tl.x + bl.x
                let brY = tr.y - tl.y + bl.y
                let correction = 1 - 3 / modulesBetween
                let estX = Int(tl.x + correction * (brX - tl.x))
                let estY = Int(tl.y + correction * (brY - tl.y))
                for factor in [4.0, 8.0, 16.0] {
                    if let a = findAlignment(moduleSize: moduleSize, estX: estX, estY: estY, allowanceFactor: factor) {
                        alignment = a
                        break
                    }
                }
            }
            let dimMinusThree = Double(dim) - 3.5
            var transforms: [(PerspectiveTransform, (Double, Double), Double)] = []
            let brX = tr.x - tl.x + bl.x
            let brY = tr.y - tl.y + bl.y
            if let a = alignment {
                transforms.append(
                    (
                        PerspectiveTransform.quadrilateralToQuadrilateral(
                            3.5, 3.5, dimMinusThree, 3.5, dimMinusThree - 3, dimMinusThree - 3, 3.5, dimMinusThree,
                            tl.x, tl.y, tr.x, tr.y, a.0, a.1, bl.x, bl.y), a, dimMinusThree - 3
                    ))
            }
            transforms.append(
                (
                    PerspectiveTransform.quadrilateralToQuadrilateral(
                        3.5, 3.5, dimMinusThree, 3.5, dimMinusThree, dimMinusThree, 3.5, dimMinusThree,
                        tl.x, tl.y, tr.x, tr.y, brX, brY, bl.x, bl.y), (brX, brY), dimMinusThree
                ))
            for (n, (t, fourth, fourthModule)) in transforms.enumerated() {
                let d = Double(dim)
                let corners = [(0.0, 0.0), (d, 0.0), (d, d), (0.0, d)].map { c in
                    let p = t.transform(c.0, c.1)
                    return Point(x: p.0, y: p.1)
                }
                results.append(
                    Candidate(
                        transform: t, version: version, moduleSize: moduleSize, corners: corners,
                        finders: [bl, tl, tr], isPrimary: n == 0, fourthPoint: fourth, fourthModule: fourthModule))
            }
        }
        return results
    }
}
