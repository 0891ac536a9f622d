import Foundation

/// Locates Data Matrix symbols: a large dark connected component whose minimum-area rectangle has two solid
/// sides (the L finder) and two alternating sides (the timing pattern).
struct DMDetector {
    let image: BitMatrix

    struct Candidate {
        var bottomLeft: (Double, Double)
        var topLeft: (Double, Double)
        var bottomRight: (Double, Double)
        var topRight: (Double, Double)
        /// Alternative top-right estimates (the timing corner is light, so the hull misses it).
        var topRightAlternatives: [(Double, Double)] = []
    }

    /// Per-component data gathered from row runs.
    struct Component {
        var count = 0
        var minX = Int.max, maxX = Int.min, minY = Int.max, maxY = Int.min
        var edgePoints: [(Double, Double)] = []
    }

    /// Union-find root with path halving (each label on the way is pointed at its grandparent, in one pass).
    @inline(__always)
    private static func find(_ parent: UnsafeMutablePointer<Int32>, _ x: Int32) -> Int32 {
        var r = x
        while true {
            let p = parent[Int(r)]
            if p == r { return r }
            let g = parent[Int(p)]
            parent[Int(r)] = g
            r = g
        }
    }

    /// Bounding box and pixel count of one connected component (or of one label before merging).
    /// 32-bit fields: one per run of a noisy frame (tens of thousands), so the smaller the better for the caches.
    struct Box {
        var count: Int32 = 0
        var minX = Int32.max, maxX = Int32.min, minY = Int32.max, maxY = Int32.min
    }

    /// Dark connected components (8-connected runs), largest first, with their row-extreme points.
    func components(maxCount: Int) -> [Component] {
        let w = self.image.width
        let h = self.image.height
        // Runs, one label each (its index), in flat buffers sized for the worst case (a row holds at most
        // (w + 1) / 2 dark runs), so the labelling loop neither grows arrays nor checks their uniqueness.
        let capacity = h * ((w + 1) / 2) + 1
        let parent = UnsafeMutablePointer<Int32>.allocate(capacity: capacity)
        let runY = UnsafeMutablePointer<Int32>.allocate(capacity: capacity)
        let runX0 = UnsafeMutablePointer<Int32>.allocate(capacity: capacity)
        let runX1 = UnsafeMutablePointer<Int32>.allocate(capacity: capacity)
        // The first run of each row (runs are labelled row by row), and the count after the last row.
        var firstRun = [Int](repeating: 0, count: h + 1)
        defer {
            parent.deallocate()
            runY.deallocate()
            runX0.deallocate()
            runX1.deallocate()
        }
        var runCount = 0
        var prevStart = 0
        var prevEnd = 0
        // Each row as a bit mask (bit x % 64 of word x / 64 set for a dark pixel): runs are then found a word at a
        // time by counting zero bits, instead of pixel by pixel (noisy pictures binarise into runs of a few pixels).
        let wordCount = (w + 63) / 64
        let mask = UnsafeMutablePointer<UInt64>.allocate(capacity: wordCount + 1)
        defer { mask.deallocate() }
        self.image.bits.withUnsafeBufferPointer { bits in
            guard let raw = UnsafeRawPointer(bits.baseAddress) else { return }
            for y in 0..<h {
                let rowStart = runCount
                firstRun[y] = rowStart
                var cursor = prevStart
                let base = y * w
                // Pack the row: eight bytes of 0 or 1 become eight bits by one multiplication (bytes other than 0
                // and 1, which a BitMatrix does not hold, are packed one by one as "not 0").
                for k in 0...wordCount { mask[k] = 0 }
                var x = 0
                while x + 8 <= w {
                    let v = raw.loadUnaligned(fromByteOffset: base + x, as: UInt64.self)
                    let packed: UInt64
                    if v & 0xFEFE_FEFE_FEFE_FEFE == 0 {
                        packed = (v &* 0x0102_0408_1020_4080) >> 56
                    } else {
                        var p: UInt64 = 0
                        for i in 0..<8 where bits[base + x + i] != 0 { p |= 1 << UInt64(i) }
                        packed = p
                    }
                    mask[x >> 6] |= packed << UInt64(x & 63)
                    x += 8
                }
                while x < w {
                    if bits[base + x] != 0 { mask[x >> 6] |= 1 << UInt64(x & 63) }
                    x += 1
                }
                // Runs: the next set bit from x is a run's start, the next clear bit after it its end (the word past
                // the row is 0, so every run ends by w).
                x = 0
                while x < w {
                    var word = x >> 6
                    var bitsLeft = mask[word] & (~0 << UInt64(x & 63))
                    while bitsLeft == 0 && word < wordCount - 1 {
                        word += 1
                        bitsLeft = mask[word]
                    }
                    if bitsLeft == 0 { break }
                    let x0 = word << 6 + bitsLeft.trailingZeroBitCount
                    if x0 >= w { break }
                    var clear = ~mask[word] & (~0 << UInt64(x0 & 63))
                    while clear == 0 {
                        word += 1
                        clear = ~mask[word]
                    }
                    x = min(w, word << 6 + clear.trailingZeroBitCount)
                    let label = Int32(runCount)
                    parent[runCount] = label
                    runY[runCount] = Int32(y)
                    runX0[runCount] = Int32(x0)
                    runX1[runCount] = Int32(x - 1)
                    runCount += 1
                    // Union with overlapping runs of the previous row (8-connected); both rows are sorted by x. The
                    // new run's root is kept at hand (it changes only by these unions), not looked up each time.
                    while cursor < prevEnd && Int(runX1[cursor]) < x0 - 1 { cursor += 1 }
                    var k = cursor
                    var root = label
                    while k < prevEnd && Int(runX0[k]) <= x {
                        let a = Self.find(parent, Int32(k))
                        // The smaller label becomes the root: a component's root is its first run in raster order.
                        if a < root {
                            parent[Int(root)] = a
                            root = a
                        } else if a > root {
                            parent[Int(a)] = root
                        }
                        k += 1
                    }
                }
                prevStart = rowStart
                prevEnd = runCount
            }
        }
        firstRun[h] = runCount
        // Each run's root, written into `parent`: a label only ever points at a smaller one (a union makes the smaller
        // label the root, path halving points further down), so in label order a run's parent is a root or a run
        // already pointing at its root. Statistics per root label, in a flat array (dictionaries of structs copy too
        // much on noisy images).
        var stats = [Box](repeating: Box(), count: runCount)
        stats.withUnsafeMutableBufferPointer { stats in
            for i in 0..<runCount {
                let root = Int(parent[Int(parent[i])])
                parent[i] = Int32(root)
                let x0 = runX0[i]
                let x1 = runX1[i] + 1
                let y = runY[i]
                stats[root].count += x1 - x0
                stats[root].minX = min(stats[root].minX, x0)
                stats[root].maxX = max(stats[root].maxX, x1)
                stats[root].minY = min(stats[root].minY, y)
                stats[root].maxY = max(stats[root].maxY, y + 1)
            }
        }
        // The labels that are roots (components), in label order: the loops below need no others.
        var roots: [Int] = []
        for k in 0..<runCount where parent[k] == Int32(k) { roots.append(k) }
        let minSide: Int32 = 8
        let chosen = roots.filter { k in
            let c = stats[k]
            // A symbol has a quiet zone: a component touching the image border is background, not a symbol.
            return c.count >= 40 && c.maxX - c.minX >= minSide && c.maxY - c.minY >= minSide && c.minX > 0
                && c.minY > 0 && Int(c.maxX) < w && Int(c.maxY) < h
        }.sorted { stats[$0].count > stats[$1].count }.prefix(maxCount)
        guard !chosen.isEmpty else { return [] }
        var result: [Component] = []
        var isMember = [Bool](repeating: false, count: stats.count)
        func build(_ members: [Int]) -> Component {
            var c = Component()
            for m in members {
                c.count += Int(stats[m].count)
                c.minX = min(c.minX, Int(stats[m].minX))
                c.maxX = max(c.maxX, Int(stats[m].maxX))
                c.minY = min(c.minY, Int(stats[m].minY))
                c.maxY = max(c.maxY, Int(stats[m].maxY))
                isMember[m] = true
            }
            // Outer corners of the extreme pixels of each row.
            var lo = [Int](repeating: Int.max, count: c.maxY - c.minY)
            var hi = [Int](repeating: Int.min, count: c.maxY - c.minY)
            // Only the rows the component spans hold its runs.
            for i in firstRun[c.minY]..<firstRun[c.maxY] where isMember[Int(parent[i])] {
                let y = Int(runY[i]) - c.minY
                lo[y] = min(lo[y], Int(runX0[i]))
                hi[y] = max(hi[y], Int(runX1[i]) + 1)
            }
            for m in members { isMember[m] = false }
            for k in lo.indices where lo[k] != Int.max {
                let y = Double(k + c.minY)
                c.edgePoints += [
                    (Double(lo[k]), y), (Double(lo[k]), y + 1), (Double(hi[k]), y), (Double(hi[k]), y + 1),
                ]
            }
            return c
        }
        for root in chosen {
            result.append(build([root]))
            // Blur or perspective can cut the timing pattern off the L: add the pieces lying within a small
            // margin of the component's box as a second, merged candidate.
            let c = stats[root]
            let margin = max(c.maxX - c.minX, c.maxY - c.minY) / 12 + 2
            var members = [root]
            for k in roots where k != root {
                let o = stats[k]
                // Pieces strictly inside the box cannot change the hull's corners much; only outliers matter.
                if o.minX >= c.minX - margin && o.maxX <= c.maxX + margin && o.minY >= c.minY - margin
                    && o.maxY <= c.maxY + margin
                    && (o.minX < c.minX + margin || o.maxX > c.maxX - margin || o.minY < c.minY + margin
                        || o.maxY > c.maxY - margin)
                {
                    members.append(k)
                }
            }
            if members.count > 1 { result.append(build(members)) }
        }
        return result
    }

    static func convexHull(_ pts: [(Double, Double)]) -> [(Double, Double)] {
        let p = pts.sorted { $0.0 != $1.0 ? $0.0 < $1.0 : $0.1 < $1.1 }
        guard p.count >= 3 else { return p }
        func cross(_ o: (Double, Double), _ a: (Double, Double), _ b: (Double, Double)) -> Double {
            (a.0 - o.0) * (b.1 - o.1) - (a.1 - o.1) * (b.0 - o.0)
        }
        var lower: [(Double, Double)] = []
        for q in p {
            while lower.count >= 2 && cross(lower[lower.count - 2], lower[lower.count - 1], q) <= 0 { lower.removeLast() }
            lower.append(q)
        }
        var upper: [(Double, Double)] = []
        for q in p.reversed() {
            while upper.count >= 2 && cross(upper[upper.count - 2], upper[upper.count - 1], q) <= 0 { upper.removeLast() }
            upper.append(q)
        }
        return Array(lower.dropLast() + upper.dropLast())
    }

    /// Four corners of the hull's minimum-area rectangle, refined to the nearest hull points.
    static func quad(_ hull: [(Double, Double)]) -> (refined: [(Double, Double)], rectangle: [(Double, Double)])? {
        guard hull.count >= 4 else { return nil }
        var bestArea = Double.infinity
        var bestCorners: [(Double, Double)] = []
        var angle = 0.0
        while angle < 90 {
            let a = angle * .pi / 180
            let (c, s) = (cos(a), sin(a))
            var minU = Double.infinity, maxU = -Double.infinity, minV = Double.infinity, maxV = -Double.infinity
            for q in hull {
                let u = q.0 * c + q.1 * s
                let v = -q.0 * s + q.1 * c
                minU = min(minU, u)
                maxU = max(maxU, u)
                minV = min(minV, v)
                maxV = max(maxV, v)
            }
            let area = (maxU - minU) * (maxV - minV)
            if area < bestArea {
                bestArea = area
                let uvs: [(Double, Double)] = [(minU, minV), (maxU, minV), (maxU, maxV), (minU, maxV)]
                bestCorners = uvs.map { uv -> (Double, Double) in
                    let x: Double = uv.0 * c - uv.1 * s
                    let y: Double = uv.0 * s + uv.1 * c
                    return (x, y)
                }
            }
            angle += 1
        }
        // The largest quadrilateral inscribed in the hull follows shear and perspective, unlike the rectangle.
        if let inscribed = maxAreaQuad(hull) {
            return (inscribed, bestCorners)
        }
        let refined = bestCorners.map { corner in
            var best = corner
            var bestD = Double.infinity
            for q in hull {
                let d = (q.0 - corner.0) * (q.0 - corner.0) + (q.1 - corner.1) * (q.1 - corner.1)
                if d < bestD {
                    bestD = d
                    best = q
                }
            }
            return best
        }
        return (refined, bestCorners)
    }

    /// The four hull vertices spanning the largest area, in hull order.
    static func maxAreaQuad(_ fullHull: [(Double, Double)]) -> [(Double, Double)]? {
        guard fullHull.count >= 4 else { return nil }
        // Search on at most ~48 hull points (the search is cubic), then refine each vertex on the full hull.
        let stride = max(1, (fullHull.count + 47) / 48)
        let picked = Swift.stride(from: 0, to: fullHull.count, by: stride).map { $0 }
        let hull = picked.map { fullHull[$0] }
        let m = hull.count
        guard m >= 4 else { return nil }
        func area2(_ a: (Double, Double), _ b: (Double, Double), _ c: (Double, Double)) -> Double {
            abs((b.0 - a.0) * (c.1 - a.1) - (b.1 - a.1) * (c.0 - a.0))
        }
        var best = -1.0
        var result: [Int] = []
        for i in 0..<m {
            var k = i + 1
            for j in (i + 2)..<(i + m - 1) {
                // Best apex between i and j (monotone in j for convex polygons).
                if k <= i { k = i + 1 }
                while k + 1 < j && area2(hull[i], hull[(k + 1) % m], hull[j % m]) >= area2(hull[i], hull[k % m], hull[j % m]) {
                    k += 1
                }
                var l = j + 1
                var bestL = area2(hull[j % m], hull[l % m], hull[i])
                var t = j + 2
                while t < i + m {
                    let a = area2(hull[j % m], hull[t % m], hull[i])
                    if a > bestL {
                        bestL = a
                        l = t
                    }
                    t += 1
                }
                let total = area2(hull[i], hull[k % m], hull[j % m]) + bestL
                if total > best {
                    best = total
                    result = [i, k % m, j % m, l % m]
                }
            }
        }
        guard result.count == 4 else { return nil }
        var vertices = result.map { picked[$0] }
        if stride > 1 {
            let n = fullHull.count
            func area(_ v: [Int]) -> Double {
                area2(fullHull[v[0]], fullHull[v[1]], fullHull[v[2]]) + area2(fullHull[v[2]], fullHull[v[3]], fullHull[v[0]])
            }
            for k in 0..<4 {
                var bestV = vertices[k]
                var bestA = area(vertices)
                for off in -stride...stride {
                    var v = vertices
                    v[k] = ((vertices[k] + off) % n + n) % n
                    let a = area(v)
                    if a > bestA {
                        bestA = a
                        bestV = v[k]
                    }
                }
                vertices[k] = bestV
            }
        }
        return vertices.map { fullHull[$0] }
    }

    /// Dark fraction and run count along a side, offset `inset` pixels towards `center`.
    func profile(
        _ a: (Double, Double), _ b: (Double, Double), center: (Double, Double), inset: Double, samples: Int
    ) -> (dark: Double, runs: Int) {
        var dark = 0
        var runs = 0
        var last: Bool?
        for k in 0..<samples {
            let t = (Double(k) + 0.5) / Double(samples)
            var x = a.0 + (b.0 - a.0) * t
            var y = a.1 + (b.1 - a.1) * t
            let dx = center.0 - x
            let dy = center.1 - y
            let d = (dx * dx + dy * dy).squareRoot()
            if d > 0 {
                x += dx / d * inset
                y += dy / d * inset
            }
            let v = self.image.get(x, y)
            if v { dark += 1 }
            if v != last {
                runs += 1
                last = v
            }
        }
        return (Double(dark) / Double(samples), runs)
    }

    func detect(maxCandidates: Int = 3) -> [Candidate] {
        var out: [Candidate] = []
        var edgeFits = 0  // at most two per frame: the largest components, and a frame without a code pays little
        for component in components(maxCount: maxCandidates) {
            let hull = Self.convexHull(component.edgePoints)
            guard let (q, rect) = Self.quad(hull) else { continue }
            var structured = false
            var found = candidates(q, rect, structured: &structured)
            // No L on the hull's quadrilateral, but a solid or alternating side: its corners may be rounded off
            // (blur, a thin or a large symbol); try again with the sides moved onto the symbol's edges.
            let fill = Self.fill(component.count, q)
            if found.isEmpty, structured, edgeFits < 2, fill > 0.3, fill < 0.85 {
                edgeFits += 1
                if let fitted = edgeFitted(q) { found = candidates(fitted, fitted, structured: &structured) }
            }
            out += found
        }
        return out
    }

    /// The share of a quadrilateral's area that `count` dark pixels would cover: a Data Matrix (its L, timing and
    /// about half its data modules) covers roughly half to two thirds of its own.
    static func fill(_ count: Int, _ q: [(Double, Double)]) -> Double {
        var area = 0.0
        for i in 0..<q.count {
            let a = q[i]
            let b = q[(i + 1) % q.count]
            area += a.0 * b.1 - b.0 * a.1
        }
        area = abs(area) / 2
        return area > 0 ? Double(count) / area : 0
    }

    /// The candidates a quadrilateral (`q`, in hull order, and its minimum-area rectangle `rect`) makes: each
    /// corner between two solid sides with an alternating side beyond them. `structured` tells whether any side
    /// was solid or alternating at all.
    func candidates(_ q: [(Double, Double)], _ rect: [(Double, Double)], structured: inout Bool) -> [Candidate] {
        var result: [Candidate] = []
        let center = ((q[0].0 + q[1].0 + q[2].0 + q[3].0) / 4, (q[0].1 + q[1].1 + q[2].1 + q[3].1) / 4)
        // Which corner joins two solid sides?
        // Classify the sides on the rectangle (the hull corner at the light top-right module can be far off).
        var solid = [Bool](repeating: false, count: 4)
        var alternating = [Bool](repeating: false, count: 4)
        for i in 0..<4 {
            var solidNear = false
            var solidFar = false
            var alternatingNearCount = 0
            for (a, b) in [(rect[i], rect[(i + 1) % 4]), (q[i], q[(i + 1) % 4])] {
                let len = ((b.0 - a.0) * (b.0 - a.0) + (b.1 - a.1) * (b.1 - a.1)).squareRoot()
                for inset in [1.5, 3.0] {
                    let p = profile(a, b, center: center, inset: inset, samples: max(16, Int(len)))
                    if p.dark > 0.88 {
                        if inset < 2 { solidNear = true } else { solidFar = true }
                    }
                    if p.dark > 0.2 && p.dark < 0.8 && p.runs >= 5 { alternating[i] = true }
                    if inset < 2 && p.dark > 0.3 && p.dark < 0.7 && p.runs >= 8 { alternatingNearCount += 1 }
                }
            }
            // The far inset helps blurred edges but, with small modules, reaches the row inside the timing.
            solid[i] = solidNear || (solidFar && alternatingNearCount < 2)
        }
        structured = solid.contains(true) || alternating.contains(true)
        // Two adjacent solid sides (the L) and two alternating ones (the timing pattern).
        for k in 0..<4
        where solid[(k + 3) % 4] && solid[k] && (alternating[(k + 1) % 4] || alternating[(k + 2) % 4])
        {
            // Sides (k-1 -> k) and (k -> k+1) are solid: corner k is the L corner.
            let bl = q[k]
            var tl = q[(k + 3) % 4]
            var br = q[(k + 1) % 4]
            let crossZ = (bl.0 - tl.0) * (br.1 - bl.1) - (bl.1 - tl.1) * (br.0 - bl.0)
            if crossZ > 0 { swap(&tl, &br) }
            let parallelogram = (tl.0 + br.0 - bl.0, tl.1 + br.1 - bl.1)
            result.append(
                Candidate(
                    bottomLeft: bl, topLeft: tl, bottomRight: br, topRight: parallelogram,
                    topRightAlternatives: [rect[(k + 2) % 4], q[(k + 2) % 4]]))
        }
        return result
    }

    /// Module counts along the timing sides (top: TL->TR, right: TR->BR).
    func dimensions(_ c: Candidate) -> [(rows: Int, columns: Int)] {
        let center = (
            (c.topLeft.0 + c.topRight.0 + c.bottomLeft.0 + c.bottomRight.0) / 4,
            (c.topLeft.1 + c.topRight.1 + c.bottomLeft.1 + c.bottomRight.1) / 4
        )
        // Run counts along a timing side at a few insets (blur and binarisation make any single one unreliable).
        func counts(_ a: (Double, Double), _ b: (Double, Double)) -> [Int] {
            let len = ((b.0 - a.0) * (b.0 - a.0) + (b.1 - a.1) * (b.1 - a.1)).squareRoot()
            let samples = max(32, Int(len * 2))
            let first = profile(a, b, center: center, inset: 1, samples: samples).runs
            guard first > 0 else { return [] }
            var module = len / Double(first)
            var result: [Int] = []
            for factor in [0.5, 0.35, 0.65] {
                let n = profile(a, b, center: center, inset: max(1, module * factor), samples: samples).runs
                result.append(n + (n & 1))
                if factor == 0.5, n > 0 { module = len / Double(n) }
            }
            return result
        }
        let colCounts = counts(c.topLeft, c.topRight)
        let rowCounts = counts(c.bottomRight, c.topRight)
        var result: [(rows: Int, columns: Int)] = []
        func add(_ r: Int, _ c: Int) {
            if DMVersion.forSize(rows: r, columns: c) != nil && !result.contains(where: { $0 == (r, c) }) {
                result.append((r, c))
            }
        }
        for (r0, c0) in zip(rowCounts, colCounts) {
            add(r0, c0)
            if abs(r0 - c0) <= 4 {
                add(max(r0, c0), max(r0, c0))
                add(min(r0, c0), min(r0, c0))
            }
        }
        for (r0, c0) in zip(rowCounts, colCounts) {
            for dr in [-2, 0, 2] { for dc in [-2, 0, 2] { add(r0 + dr, c0 + dc) } }
        }
        return result
    }
}

// MARK: - Edge lines (issue 11, point 4)

extension DMDetector {
    /// A straight line through `point` along the unit vector `direction`.
    struct Line {
        var point: (Double, Double)
        var direction: (Double, Double)

        func intersection(_ o: Line) -> (Double, Double)? {
            let det = self.direction.0 * o.direction.1 - self.direction.1 * o.direction.0
            guard abs(det) > 1e-6 else { return nil }
            let dx = o.point.0 - self.point.0
            let dy = o.point.1 - self.point.1
            let t = (dx * o.direction.1 - dy * o.direction.0) / det
            return (self.point.0 + t * self.direction.0, self.point.1 + t * self.direction.1)
        }
    }

    /// The quadrilateral `quad` (four corners in order around it) with each side moved onto the symbol's outer
    /// edge: along the side, the first dark run met coming in from outside, and a line through the most of those
    /// points (within a pixel), fitted to them. A solid side gives points all along; a timing side gives them at its
    /// dark modules only, and the light modules' deeper points are left out as outliers. The corners are the
    /// crossings of neighbouring lines; nil when a side shows too few edge points or a corner moves by more than a
    /// quarter of the shorter side (blurred or broken edges, where the hull's corners are the better guess).
    /// Large, thin (8-row) and perspective symbols need this: a hull corner rounded off by blur tilts a whole side.
    func edgeFitted(_ quad: [(Double, Double)]) -> [(Double, Double)]? {
        guard quad.count == 4 else { return nil }
        let center = (
            (quad[0].0 + quad[1].0 + quad[2].0 + quad[3].0) / 4, (quad[0].1 + quad[1].1 + quad[2].1 + quad[3].1) / 4
        )
        func length(_ a: (Double, Double), _ b: (Double, Double)) -> Double {
            ((a.0 - b.0) * (a.0 - b.0) + (a.1 - b.1) * (a.1 - b.1)).squareRoot()
        }
        let sides = (0..<4).map { length(quad[$0], quad[($0 + 1) % 4]) }
        guard let shortest = sides.min(), shortest >= 8 else { return nil }
        var lines: [Line] = []
        for i in 0..<4 {
            let a = quad[i]
            let b = quad[(i + 1) % 4]
            let len = sides[i]
            let dir = ((b.0 - a.0) / len, (b.1 - a.1) / len)
            var normal = (-dir.1, dir.0)
            let mid = ((a.0 + b.0) / 2, (a.1 + b.1) / 2)
            if normal.0 * (mid.0 - center.0) + normal.1 * (mid.1 - center.1) < 0 { normal = (-normal.0, -normal.1) }
            // How far to look either side of the current side: a share of the neighbouring sides' length, and of
            // its own (a long reach from a short side would mostly meet whatever lies outside the quiet zone).
            let across = (sides[(i + 1) % 4] + sides[(i + 3) % 4]) / 2
            let reach = max(3, min(across * 0.07, len * 0.15))
            let count = max(12, min(240, Int(len / 1.5)))
            var points: [(Double, Double)] = []
            for k in 0..<count {
                let t = 0.03 + 0.94 * (Double(k) + 0.5) / Double(count)
                let base = (a.0 + (b.0 - a.0) * t, a.1 + (b.1 - a.1) * t)
                // Coming in from outside, the first dark run of at least 1.5 px after a light run of at least
                // 1.5 px (the quiet zone; specks of noise in the background make shorter runs).
                var s = reach
                var light = 0
                while s > -reach {
                    if !self.image.get(base.0 + normal.0 * s, base.1 + normal.1 * s) {
                        light += 1
                    } else {
                        if light >= 3 {
                            var dark = 1
                            while dark < 3 && self.image.get(
                                base.0 + normal.0 * (s - 0.5 * Double(dark)), base.1 + normal.1 * (s - 0.5 * Double(dark)))
                            {
                                dark += 1
                            }
                            if dark >= 3 {
                                let e = s + 0.25
                                points.append((base.0 + normal.0 * e, base.1 + normal.1 * e))
                                break
                            }
                        }
                        light = 0
                    }
                    s -= 0.5
                }
            }
            guard points.count >= max(6, count / 4), let line = Self.robustLine(points, minInliers: max(6, count / 4))
            else { return nil }
            lines.append(line)
        }
        var corners: [(Double, Double)] = []
        for i in 0..<4 {
            guard let c = lines[(i + 3) % 4].intersection(lines[i]), length(c, quad[i]) <= shortest / 4 else {
                return nil
            }
            corners.append(c)
        }
        return corners
    }

    /// The line through the most points within a pixel (up to about 30 candidate lines through pairs of points a
    /// half, a third and a fifth of the list apart), refitted to those points by least squares; nil with fewer than
    /// `minInliers` of them.
    static func robustLine(_ points: [(Double, Double)], minInliers: Int) -> Line? {
        let n = points.count
        guard n >= 2 else { return nil }
        // Count first, collect once: the candidate lines are many, the best one's inliers are needed only once.
        var best = (count: 0, p: (0.0, 0.0), nx: 0.0, ny: 0.0)
        let step = max(1, n / 30)  // at most about 30 candidate lines per gap
        for gap in [n / 2, n / 3, n / 5] where gap > 0 {
            for i in stride(from: 0, to: n - gap, by: step) {
                let p = points[i]
                let q = points[i + gap]
                let len = ((q.0 - p.0) * (q.0 - p.0) + (q.1 - p.1) * (q.1 - p.1)).squareRoot()
                guard len > 0 else { continue }
                let nx = -(q.1 - p.1) / len
                let ny = (q.0 - p.0) / len
                var count = 0
                for r in points where abs((r.0 - p.0) * nx + (r.1 - p.1) * ny) <= 1 { count += 1 }
                if count > best.count { best = (count, p, nx, ny) }
            }
        }
        guard best.count >= minInliers else { return nil }
        let bestInliers = points.filter { abs(($0.0 - best.p.0) * best.nx + ($0.1 - best.p.1) * best.ny) <= 1 }
        guard bestInliers.count >= minInliers else { return nil }
        // Total least squares: the principal direction of the inliers.
        let m = Double(bestInliers.count)
        let cx = bestInliers.reduce(0) { $0 + $1.0 } / m
        let cy = bestInliers.reduce(0) { $0 + $1.1 } / m
        var sxx = 0.0
        var sxy = 0.0
        var syy = 0.0
        for r in bestInliers {
            sxx += (r.0 - cx) * (r.0 - cx)
            sxy += (r.0 - cx) * (r.1 - cy)
            syy += (r.1 - cy) * (r.1 - cy)
        }
        let angle = 0.5 * atan2(2 * sxy, sxx - syy)
        return Line(point: (cx, cy), direction: (cos(angle), sin(angle)))
    }
}
