/// Perspective from the timing patterns and every alignment pattern (issue 11, point 4), as zxing-cpp's detector
/// samples the grid: the three finder centres fix an affine frame only, which at a steep angle misplaces the far
/// corner by modules. The two timing patterns (row and column 6) give the image position of every module boundary
/// between the finders, and so the foreshortening along both axes; a homography fitted to those boundaries and the
/// finder centres predicts each alignment pattern closely enough to find it by its 5×5 template, and the grid is
/// then sampled cell by cell between the patterns found.
extension QRDetector {
    /// A module-to-image correspondence for the homography fit.
    struct GridPoint {
        var module: (Double, Double)
        var image: (Double, Double)
        var weight: Double
    }

    /// What the timing-pattern fit found: the dimension the timing patterns count, the fitted homography, and the
    /// image position of every alignment-pattern centre (found, or predicted where it was not found).
    struct GridFit {
        var version: QRVersion
        var transform: PerspectiveTransform
        /// `nodes[j][i]`: image position of module point (`centers[i]` + 0.5, `centers[j]` + 0.5), with the
        /// finder centres at the three finder corners of the alignment grid.
        var nodes: [[(Double, Double)]]
        var alignmentsFound: Int
    }

    /// Fits the grid of a located symbol to its timing and alignment patterns; nil when a timing pattern does not
    /// show the module count of a QR Code within 8 of the estimate `d0`, or the fit is poor. The timing lines start
    /// and end beside the finders, placed with each finder's own module size (at a steep angle the near finder's
    /// modules are up to twice the far one's).
    func gridFit(bottomLeft bl: FinderPattern, topLeft tl: FinderPattern, topRight tr: FinderPattern, dimension d0: Int)
        -> GridFit?
    {
        let tlP = (tl.x, tl.y)
        let trP = (tr.x, tr.y)
        let blP = (bl.x, bl.y)
        guard let (across, down, ex, ey) = Self.sides(bottomLeft: bl, topLeft: tl, topRight: tr) else { return nil }
        // Module sizes measured along the symbol's sides, at each finder.
        func local(_ a: FinderPattern, _ b: FinderPattern, _ fallback: Double) -> Double {
            let run = sizeOfBlackWhiteBlackRunBothWays(Int(a.x), Int(a.y), Int(b.x), Int(b.y))
            return run.isFinite && run > 0 ? run / 7 : fallback
        }
        let mean = (across + down) / 2 / (Double(d0) - 7)
        func clamped(_ m: Double) -> Double { min(max(m, mean * 0.6), mean * 1.6) }
        let mTLx = clamped((local(tl, tr, mean) + local(tl, bl, mean)) / 2)
        let mTLy = mTLx
        let mTR = clamped(local(tr, tl, mean))
        let mBL = clamped(local(bl, tl, mean))
        func point(_ p: (Double, Double), _ m: Double, _ alongX: Double, _ alongY: Double) -> (Double, Double) {
            (p.0 + m * (alongX * ex.0 + alongY * ey.0), p.1 + m * (alongX * ex.1 + alongY * ey.1))
        }
        // Row 6 runs 3 modules below the top finders' centres, from 1.5 modules inside one to 1.5 inside the other.
        guard
            let row = timingBoundaries(
                from: point(tlP, mTLx, 1.5, 3), to: point(trP, mTR, -1.5, 3), shiftFrom: (ey.0 * mTLx, ey.1 * mTLx),
                shiftTo: (ey.0 * mTR, ey.1 * mTR), dimension: d0, horizontal: true),
            let column = timingBoundaries(
                from: point(tlP, mTLy, 3, 1.5), to: point(blP, mBL, 3, -1.5), shiftFrom: (ex.0 * mTLy, ex.1 * mTLy),
                shiftTo: (ex.0 * mBL, ex.1 * mBL), dimension: d0, horizontal: false),
            row.dimension == column.dimension, let version = QRVersion.forDimension(row.dimension)
        else { return nil }
        let d = Double(row.dimension)
        var points = row.points + column.points
        points += [
            GridPoint(module: (3.5, 3.5), image: tlP, weight: 4), GridPoint(module: (d - 3.5, 3.5), image: trP, weight: 4),
            GridPoint(module: (3.5, d - 3.5), image: blP, weight: 4),
        ]
        guard let h = Self.fitHomography(points), Self.meanResidual(h, row.points + column.points) < 0.3 * moduleScale(h, d)
        else { return nil }
        return self.aligned(h, version: version, points: points, finders: (tlP, trP, blP))
    }

    /// A fit completed with every alignment pattern: each found by its template near where `h` puts it, the
    /// homography refitted to `points` and the patterns found, and the mesh's nodes set to the patterns found (the
    /// refitted prediction where one was not) and to the finder centres at the three finder corners.
    func aligned(
        _ h0: PerspectiveTransform, version: QRVersion, points: [GridPoint],
        finders: (tl: (Double, Double), tr: (Double, Double), bl: (Double, Double))
    ) -> GridFit {
        var h = h0
        let c = version.alignmentCenters
        let n = c.count
        var nodes = [[(Double, Double)]](repeating: [(Double, Double)](repeating: (0, 0), count: n), count: n)
        var found = 0
        if n > 0 {
            var located: [GridPoint] = []
            // Nearest the top-left finder first, one anti-diagonal of the pattern grid at a time, the homography
            // refitted after each diagonal that found any: at a steep angle a fit to the timing patterns alone can
            // be modules off at the far corner, and the nearer patterns bring the prediction there.
            for d in stride(from: 1, through: 2 * n - 2, by: 1) {
                var foundHere = false
                for j in max(0, d - n + 1)...min(d, n - 1) {
                    let i = d - j
                    if (i == n - 1 && j == 0) || (i == 0 && j == n - 1) { continue }
                    let m = (Double(c[i]) + 0.5, Double(c[j]) + 0.5)
                    if let p = locateAlignment(h, module: m) {
                        located.append(GridPoint(module: m, image: p, weight: 1))
                        foundHere = true
                    }
                }
                if foundHere, let refit = Self.fitHomography(points + located) { h = refit }
            }
            found = located.count
            for j in 0..<n {
                for i in 0..<n {
                    let m = (Double(c[i]) + 0.5, Double(c[j]) + 0.5)
                    nodes[j][i] = h.transform(m.0, m.1)
                }
            }
            for p in located {
                guard let i = c.firstIndex(of: Int(p.module.0)), let j = c.firstIndex(of: Int(p.module.1)) else { continue }
                nodes[j][i] = p.image
            }
            nodes[0][0] = finders.tl
            nodes[0][n - 1] = finders.tr
            nodes[n - 1][0] = finders.bl
        }
        return GridFit(version: version, transform: h, nodes: nodes, alignmentsFound: found)
    }

    /// The lengths of the symbol's top side (top-left to top-right finder) and left side (top-left to bottom-left),
    /// and their unit vectors; nil when two finders coincide.
    static func sides(bottomLeft bl: FinderPattern, topLeft tl: FinderPattern, topRight tr: FinderPattern)
        -> (across: Double, down: Double, ex: (Double, Double), ey: (Double, Double))?
    {
        let across = length((tl.x, tl.y), (tr.x, tr.y))
        let down = length((tl.x, tl.y), (bl.x, bl.y))
        guard across > 0, down > 0 else { return nil }
        return (across, down, ((tr.x - tl.x) / across, (tr.y - tl.y) / across), ((bl.x - tl.x) / down, (bl.y - tl.y) / down))
    }

    /// Image length of one module at the middle of the symbol under `h`.
    func moduleScale(_ h: PerspectiveTransform, _ d: Double) -> Double {
        let a = h.transform(d / 2, d / 2)
        let b = h.transform(d / 2 + 1, d / 2)
        let c = h.transform(d / 2, d / 2 + 1)
        return (Self.length(a, b) + Self.length(a, c)) / 2
    }

    static func length(_ a: (Double, Double), _ b: (Double, Double)) -> Double {
        ((a.0 - b.0) * (a.0 - b.0) + (a.1 - b.1) * (a.1 - b.1)).squareRoot()
    }

    static func meanResidual(_ h: PerspectiveTransform, _ points: [GridPoint]) -> Double {
        guard !points.isEmpty else { return .infinity }
        var sum = 0.0
        for p in points { sum += length(h.transform(p.module.0, p.module.1), p.image) }
        return sum / Double(points.count)
    }

    /// The module boundaries along one timing pattern (row 6 from the top-left finder to the top-right one, or
    /// column 6 down to the bottom-left one), on the segment `a`→`b` moved by up to ±0.9 × `shiftFrom` at its
    /// start and ±0.9 × `shiftTo` at its end (one module across the pattern at either end), in steps of 0.3 and
    /// then of 0.1 around the middle of the positions that showed a timing pattern. The segment must cross
    /// exactly the dark, light, …, dark runs of a timing pattern: the finders' outer rings at both ends and one
    /// module each between them. The dimension is the one the most positions agree on (at least three of them).
    func timingBoundaries(
        from a0: (Double, Double), to b0: (Double, Double), shiftFrom sa: (Double, Double), shiftTo sb: (Double, Double),
        dimension d0: Int, horizontal: Bool
    ) -> (dimension: Int, points: [GridPoint])? {
        func end(_ p: (Double, Double), _ s: (Double, Double), _ offset: Double) -> (Double, Double) {
            (p.0 + s.0 * offset, p.1 + s.1 * offset)
        }
        var accepted: [(a: Double, b: Double, dimension: Int, boundaries: [(Double, Double)])] = []
        func tryLine(_ oa: Double, _ ob: Double) {
            let a = end(a0, sa, oa)
            let b = end(b0, sb, ob)
            guard a.0.isFinite, a.1.isFinite, b.0.isFinite, b.1.isFinite,
                let boundaries = timingRuns(from: a, to: b, expectedModules: d0 - 10)
            else { return }
            let dim = boundaries.count + 13
            guard abs(dim - d0) <= 8, QRVersion.forDimension(dim) != nil else { return }
            accepted.append((oa, ob, dim, boundaries))
        }
        // Coarse steps of 0.3 module at each end, then steps of 0.1 around the middle of what showed a pattern.
        let coarse = [-0.9, -0.6, -0.3, 0, 0.3, 0.6, 0.9]
        for oa in coarse { for ob in coarse { tryLine(oa, ob) } }
        guard !accepted.isEmpty else { return nil }
        let centreA = accepted.map(\.a).reduce(0, +) / Double(accepted.count)
        let centreB = accepted.map(\.b).reduce(0, +) / Double(accepted.count)
        let fine = [-0.2, -0.1, 0, 0.1, 0.2]
        for da in fine {
            for db in fine where !coarse.contains(centreA + da) || !coarse.contains(centreB + db) {
                tryLine(centreA + da, centreB + db)
            }
        }
        // The dimension most offsets agree on; the line nearest the middle of the band that shows it.
        var votes: [Int: Int] = [:]
        for a in accepted { votes[a.dimension, default: 0] += 1 }
        guard let (dimension, count) = votes.max(by: { $0.value < $1.value || ($0.value == $1.value && $0.key > $1.key) }),
            count >= 3
        else { return nil }
        let agreeing = accepted.filter { $0.dimension == dimension }
        let meanA = agreeing.map(\.a).reduce(0, +) / Double(agreeing.count)
        let meanB = agreeing.map(\.b).reduce(0, +) / Double(agreeing.count)
        guard
            let best = agreeing.min(by: {
                abs($0.a - meanA) + abs($0.b - meanB) < abs($1.a - meanA) + abs($1.b - meanB)
            })
        else { return nil }
        let points = best.boundaries.enumerated().map { k, p in
            GridPoint(module: horizontal ? (Double(7 + k), 6.5) : (6.5, Double(7 + k)), image: p, weight: 1)
        }
        return (dimension, points)
    }

    /// Samples the segment a→b and returns the image positions of the boundaries between its runs when they form
    /// a timing pattern: dark first and last, runs inside between a third and three times their median length;
    /// runs shorter than a third of a module (noise) are merged into their neighbours first.
    func timingRuns(from a: (Double, Double), to b: (Double, Double), expectedModules: Int) -> [(Double, Double)]? {
        let len = Self.length(a, b)
        guard len.isFinite, len >= Double(expectedModules), expectedModules > 4 else { return nil }
        let n = min(4000, max(64, Int(len * 2)))
        let module = Double(n) / Double(expectedModules)
        // Run lengths in samples, starting with the colour of the first sample. A run inside the line longer than
        // four modules cannot be part of a timing pattern: give up at once (texture and data usually show one).
        var runs: [Int] = []
        var firstDark = false
        var last: Bool?
        let longest = Int(4 * module) + 1
        for i in 0..<n {
            let t = (Double(i) + 0.5) / Double(n)
            let v = self.image.get(a.0 + (b.0 - a.0) * t, a.1 + (b.1 - a.1) * t)
            if v != last {
                if last == nil {
                    firstDark = v
                    guard firstDark else { return nil }
                }
                if runs.count >= 2, runs[runs.count - 1] > longest { return nil }
                runs.append(0)
                last = v
            }
            runs[runs.count - 1] += 1
        }
        let minRun = max(1, Int(0.3 * module))
        // Merge the shortest inner run below minRun with both neighbours until none is left.
        while runs.count >= 3 {
            var shortest = -1
            for k in 1..<(runs.count - 1) where runs[k] < minRun && (shortest < 0 || runs[k] < runs[shortest]) {
                shortest = k
            }
            guard shortest > 0 else { break }
            runs[shortest - 1] += runs[shortest] + runs[shortest + 1]
            runs.removeSubrange(shortest...(shortest + 1))
        }
        // Dark first and last: an odd count; at least the two finder runs and three timing modules.
        guard runs.count % 2 == 1, runs.count >= 5 else { return nil }
        let inner = runs[1..<(runs.count - 1)].sorted()
        let median = Double(inner[inner.count / 2])
        guard median > 0 else { return nil }
        for r in runs[1..<(runs.count - 1)] where Double(r) < median / 3 || Double(r) > median * 3 { return nil }
        var boundaries: [(Double, Double)] = []
        var s = 0
        for r in runs.dropLast() {
            s += r
            let t = Double(s) / Double(n)
            boundaries.append((a.0 + (b.0 - a.0) * t, a.1 + (b.1 - a.1) * t))
        }
        return boundaries
    }

    /// The offsets tried around an alignment pattern's predicted centre, in modules.
    private static let alignmentOffsets: [Double] = stride(from: -1.5, through: 1.5, by: 0.25).map { $0 }

    /// The image centre of the alignment pattern at module point `m`: the offset within 1.5 modules of where `h`
    /// puts it at which the 5×5 template (dark ring, light ring, dark centre) is sampled best, at least 23 of 25
    /// modules right; the centre of all offsets with that best score.
    ///
    /// An offset is left at its third wrong module: it can no longer reach 23, and an offset below 23 changes the
    /// answer neither when another reaches 23 (it is not among the best) nor when none does (the answer is nil). On a
    /// frame without a symbol most offsets are left after a few samples (a dense junk fit asks for up to 46 patterns
    /// of 169 offsets each).
    func locateAlignment(_ h: PerspectiveTransform, module m: (Double, Double)) -> (Double, Double)? {
        let p = h.transform(m.0, m.1)
        guard p.0.isFinite, p.1.isFinite else { return nil }
        let ex = h.transform(m.0 + 1, m.1)
        let ey = h.transform(m.0, m.1 + 1)
        let ux = (ex.0 - p.0, ex.1 - p.1)
        let uy = (ey.0 - p.0, ey.1 - p.1)
        var bestScore = 0
        var sum = (0.0, 0.0)
        var count = 0
        let steps = Self.alignmentOffsets
        for sy in steps {
            for sx in steps {
                let cx = p.0 + sx * ux.0 + sy * uy.0
                let cy = p.1 + sx * ux.1 + sy * uy.1
                var misses = 0
                sampling: for dy in -2...2 {
                    for dx in -2...2 {
                        let dark = max(abs(dx), abs(dy)) != 1
                        let x = cx + Double(dx) * ux.0 + Double(dy) * uy.0
                        let y = cy + Double(dx) * ux.1 + Double(dy) * uy.1
                        if self.image.get(x, y) != dark {
                            misses += 1
                            if misses > 2 { break sampling }
                        }
                    }
                }
                guard misses <= 2 else { continue }
                let score = 25 - misses
                if score > bestScore {
                    bestScore = score
                    sum = (cx, cy)
                    count = 1
                } else if score == bestScore {
                    sum.0 += cx
                    sum.1 += cy
                    count += 1
                }
            }
        }
        guard bestScore >= 23, count > 0 else { return nil }
        return (sum.0 / Double(count), sum.1 / Double(count))
    }

    /// Least-squares homography from module to image coordinates (the direct linear transform with `a33` = 1, on
    /// normalised coordinates); nil when the points do not determine one.
    static func fitHomography(_ points: [GridPoint]) -> PerspectiveTransform? {
        guard points.count >= 4 else { return nil }
        var cx = 0.0
        var cy = 0.0
        var wsum = 0.0
        var mscale = 1.0
        for p in points {
            cx += p.image.0 * p.weight
            cy += p.image.1 * p.weight
            wsum += p.weight
            mscale = max(mscale, abs(p.module.0), abs(p.module.1))
        }
        cx /= wsum
        cy /= wsum
        var spread = 0.0
        for p in points { spread += length(p.image, (cx, cy)) * p.weight }
        spread /= wsum
        guard spread > 0 else { return nil }
        // Normal equations of the 8 unknowns (a11, a21, a31, a12, a22, a32, a13, a23).
        var ata = [Double](repeating: 0, count: 64)
        var atb = [Double](repeating: 0, count: 8)
        func add(_ row: [Double], _ rhs: Double, _ w: Double) {
            for r in 0..<8 where row[r] != 0 {
                for c in 0..<8 { ata[r * 8 + c] += w * row[r] * row[c] }
                atb[r] += w * row[r] * rhs
            }
        }
        for p in points {
            let u = p.module.0 / mscale
            let v = p.module.1 / mscale
            let x = (p.image.0 - cx) / spread
            let y = (p.image.1 - cy) / spread
            add([u, v, 1, 0, 0, 0, -u * x, -v * x], x, p.weight)
            add([0, 0, 0, u, v, 1, -u * y, -v * y], y, p.weight)
        }
        guard let s = solve8(ata, atb) else { return nil }
        let normalised = PerspectiveTransform(
            a11: s[0], a12: s[3], a13: s[6], a21: s[1], a22: s[4], a23: s[7], a31: s[2], a32: s[5], a33: 1)
        let scaleIn = PerspectiveTransform(
            a11: 1 / mscale, a12: 0, a13: 0, a21: 0, a22: 1 / mscale, a23: 0, a31: 0, a32: 0, a33: 1)
        let scaleOut = PerspectiveTransform(a11: spread, a12: 0, a13: 0, a21: 0, a22: spread, a23: 0, a31: cx, a32: cy, a33: 1)
        return scaleOut.times(normalised.times(scaleIn))
    }

    /// Gaussian elimination with partial pivoting on an 8×8 system; nil when it is singular.
    static func solve8(_ a0: [Double], _ b0: [Double]) -> [Double]? {
        var a = a0
        var b = b0
        for col in 0..<8 {
            var pivot = col
            for r in (col + 1)..<8 where abs(a[r * 8 + col]) > abs(a[pivot * 8 + col]) { pivot = r }
            guard abs(a[pivot * 8 + col]) > 1e-12 else { return nil }
            if pivot != col {
                for c in 0..<8 { a.swapAt(col * 8 + c, pivot * 8 + c) }
                b.swapAt(col, pivot)
            }
            for r in (col + 1)..<8 {
                let f = a[r * 8 + col] / a[col * 8 + col]
                if f == 0 { continue }
                for c in col..<8 { a[r * 8 + c] -= f * a[col * 8 + c] }
                b[r] -= f * b[col]
            }
        }
        var x = [Double](repeating: 0, count: 8)
        for r in stride(from: 7, through: 0, by: -1) {
            var s = b[r]
            for c in (r + 1)..<8 { s -= a[r * 8 + c] * x[c] }
            x[r] = s / a[r * 8 + r]
        }
        return x.allSatisfy(\.isFinite) ? x : nil
    }

    /// Samples the grid of a fit from the binarised image: cell by cell between the alignment patterns (versions 2+:
    /// the finder centres and alignment patterns as the mesh's nodes), or through the homography alone.
    func sample(_ fit: GridFit, mesh: Bool) -> BitMatrix? {
        let d = fit.version.dimension
        guard mesh, fit.version.alignmentCenters.count >= 2 else { return sampleGrid(fit.transform, dimension: d) }
        guard let centres = moduleCentres(fit, mesh: mesh) else { return nil }
        var out = BitMatrix(width: d, height: d)
        for y in 0..<d {
            for x in 0..<d {
                let (px, py) = centres[y * d + x]
                let ix = min(max(pixelIndex(px), 0), self.image.width - 1)
                let iy = min(max(pixelIndex(py), 0), self.image.height - 1)
                if self.image.get(ix, iy) { out.set(x, y) }
            }
        }
        return out
    }

    /// The image position of every module centre of a fit, row by row: with `mesh`, one perspective transform per
    /// cell of the node mesh (a module belongs to the cell whose alignment-centre interval holds it), else the
    /// homography alone. Nil when a position is not finite.
    func moduleCentres(_ fit: GridFit, mesh: Bool) -> [(Double, Double)]? {
        let c = fit.version.alignmentCenters
        let dim = fit.version.dimension
        let n = c.count
        var out: [(Double, Double)] = []
        out.reserveCapacity(dim * dim)
        guard mesh, n >= 2 else {
            for y in 0..<dim {
                for x in 0..<dim {
                    let p = fit.transform.transform(Double(x) + 0.5, Double(y) + 0.5)
                    guard p.0.isFinite, p.1.isFinite else { return nil }
                    out.append(p)
                }
            }
            return out
        }
        var modules = [[(Double, Double)]](repeating: [(Double, Double)](repeating: (0, 0), count: n), count: n)
        for j in 0..<n {
            for i in 0..<n {
                modules[j][i] = (Double(c[i]) + 0.5, Double(c[j]) + 0.5)
            }
        }
        modules[0][0] = (3.5, 3.5)
        modules[0][n - 1] = (Double(dim) - 3.5, 3.5)
        modules[n - 1][0] = (3.5, Double(dim) - 3.5)
        let images = fit.nodes
        // Version 2-6 have one alignment pattern: its grid is the three finders and it, one cell.
        var cells: [[PerspectiveTransform]] = []
        for j in 0..<(n - 1) {
            var row: [PerspectiveTransform] = []
            for i in 0..<(n - 1) {
                row.append(
                    PerspectiveTransform.quadrilateralToQuadrilateral(
                        modules[j][i].0, modules[j][i].1, modules[j][i + 1].0, modules[j][i + 1].1,
                        modules[j + 1][i + 1].0, modules[j + 1][i + 1].1, modules[j + 1][i].0, modules[j + 1][i].1,
                        images[j][i].0, images[j][i].1, images[j][i + 1].0, images[j][i + 1].1,
                        images[j + 1][i + 1].0, images[j + 1][i + 1].1, images[j + 1][i].0, images[j + 1][i].1))
            }
            cells.append(row)
        }
        for y in 0..<dim {
            var cj = 0
            while cj < n - 2 && y >= c[cj + 1] { cj += 1 }
            for x in 0..<dim {
                var ci = 0
                while ci < n - 2 && x >= c[ci + 1] { ci += 1 }
                let p = cells[cj][ci].transform(Double(x) + 0.5, Double(y) + 0.5)
                guard p.0.isFinite, p.1.isFinite else { return nil }
                out.append(p)
            }
        }
        return out
    }
}
