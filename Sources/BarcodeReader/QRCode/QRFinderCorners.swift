import Foundation

/// Perspective from the corners of the three finder patterns, as zxing-cpp's detector finds it: each finder's
/// dark outer ring is a square of 7 × 7 modules whose four corners the image shows even where the timing patterns
/// are broken by blur, noise or small modules, so the three finders give twelve points (and their centres three
/// more) of a planar homography — enough to fix a steep perspective without the timing patterns. The version
/// information (versions 7+) then gives the dimension exactly, and every alignment pattern refines the grid as in
/// ``QRDetector/gridFit(bottomLeft:topLeft:topRight:dimension:)``.
extension QRDetector {
    /// The outer corners of a finder pattern's dark ring, in the order (−,−), (+,−), (+,+), (−,+) of the frame whose
    /// axes are `ex` (from the top-left finder to the top-right one) and `ey` (from the top-left to the
    /// bottom-left). Rays from the centre cross the dark core, the light ring and the dark ring; where the dark
    /// ring ends is a point of the square's outline (rays whose rings are not in the proportions of a finder,
    /// 3.5 : 1.5 modules from the centre, are dropped). The corners are where lines fitted to each side's points
    /// meet. Nil when too few rays show the pattern.
    func finderCorners(_ f: FinderPattern, ex: (Double, Double), ey: (Double, Double)) -> [(Double, Double)]? {
        let rays = 72
        let step = 0.5
        let limit = f.moduleSize * 10
        var outline: [(Double, Double)] = []
        for k in 0..<rays {
            let angle = Double(k) * 2 * Double.pi / Double(rays)
            let dx = cos(angle)
            let dy = sin(angle)
            var state = 0
            var r = 0.0
            var coreEdge = 0.0
            var lastDark = 0.0
            var outer: Double?
            while r < limit {
                let dark = self.image.get(f.x + dx * r, f.y + dy * r)
                switch state {
                case 0:
                    if !dark {
                        coreEdge = r - step / 2
                        state = 1
                    }
                case 1:
                    if dark {
                        lastDark = r
                        state = 2
                    }
                default:
                    if dark {
                        lastDark = r
                    } else {
                        outer = lastDark + step / 2
                    }
                }
                if outer != nil { break }
                r += step
            }
            guard let edge = outer, coreEdge > 0 else { continue }
            let ratio = edge / coreEdge
            guard ratio > 1.7, ratio < 3.3 else { continue }
            outline.append((f.x + dx * edge, f.y + dy * edge))
        }
        guard outline.count >= rays / 2 else { return nil }
        // Coordinates in the symbol's skewed frame: p − centre = u·ex + v·ey.
        let det = ex.0 * ey.1 - ex.1 * ey.0
        guard abs(det) > 1e-9 else { return nil }
        let uv = outline.map { p -> (Double, Double) in
            let px = p.0 - f.x
            let py = p.1 - f.y
            return ((px * ey.1 - py * ey.0) / det, (ex.0 * py - ex.1 * px) / det)
        }
        let signs: [(Double, Double)] = [(-1, -1), (1, -1), (1, 1), (-1, 1)]
        var extreme: [(Double, Double)] = []
        for (su, sv) in signs {
            var best = -Double.infinity
            var at = 0
            for (k, q) in uv.enumerated() where su * q.0 + sv * q.1 > best {
                best = su * q.0 + sv * q.1
                at = k
            }
            extreme.append(outline[at])
        }
        // Each side: the outline points between its two corners, away from the corners; a line fitted to them.
        var lines: [(point: (Double, Double), direction: (Double, Double))?] = []
        for s in 0..<4 {
            let a = extreme[s]
            let b = extreme[(s + 1) % 4]
            let length = Self.length(a, b)
            guard length > 1 else {
                lines.append(nil)
                continue
            }
            let d = ((b.0 - a.0) / length, (b.1 - a.1) / length)
            let side = outline.filter { p in
                let t = ((p.0 - a.0) * d.0 + (p.1 - a.1) * d.1) / length
                let off = abs((p.0 - a.0) * d.1 - (p.1 - a.1) * d.0)
                return t > 0.15 && t < 0.85 && off < max(1.5, f.moduleSize)
            }
            lines.append(side.count >= 3 ? Self.fitLine(side) : nil)
        }
        var corners: [(Double, Double)] = []
        for s in 0..<4 {
            // Corner s lies between side s−1 (from corner s−1 to s) and side s (from corner s to s+1).
            if let l1 = lines[(s + 3) % 4], let l2 = lines[s], let p = Self.intersect(l1, l2),
                Self.length(p, extreme[s]) < 2 * f.moduleSize
            {
                corners.append(p)
            } else {
                corners.append(extreme[s])
            }
        }
        return corners
    }

    /// Total least squares: the line through the points' mean along their main direction.
    static func fitLine(_ points: [(Double, Double)]) -> (point: (Double, Double), direction: (Double, Double))? {
        let n = Double(points.count)
        let mx = points.map(\.0).reduce(0, +) / n
        let my = points.map(\.1).reduce(0, +) / n
        var sxx = 0.0
        var sxy = 0.0
        var syy = 0.0
        for p in points {
            sxx += (p.0 - mx) * (p.0 - mx)
            sxy += (p.0 - mx) * (p.1 - my)
            syy += (p.1 - my) * (p.1 - my)
        }
        let angle = 0.5 * atan2(2 * sxy, sxx - syy)
        let direction = (cos(angle), sin(angle))
        return direction.0.isFinite && direction.1.isFinite ? ((mx, my), direction) : nil
    }

    static func intersect(
        _ l1: (point: (Double, Double), direction: (Double, Double)),
        _ l2: (point: (Double, Double), direction: (Double, Double))
    ) -> (Double, Double)? {
        let det = l1.direction.0 * l2.direction.1 - l1.direction.1 * l2.direction.0
        guard abs(det) > 0.2 else { return nil }
        let dx = l2.point.0 - l1.point.0
        let dy = l2.point.1 - l1.point.1
        let t = (dx * l2.direction.1 - dy * l2.direction.0) / det
        return (l1.point.0 + t * l1.direction.0, l1.point.1 + t * l1.direction.1)
    }

    /// The grid of a symbol fitted to its finders' corners (see the extension's note); nil when a finder's outline
    /// is not found or the fit is poor. The dimension is the version information's when the version is 7 or more
    /// and it reads, else the one of `d0` and its neighbours whose timing patterns sample best.
    func cornerFit(bottomLeft bl: FinderPattern, topLeft tl: FinderPattern, topRight tr: FinderPattern, dimension d0: Int)
        -> GridFit?
    {
        let tlP = (tl.x, tl.y)
        let trP = (tr.x, tr.y)
        let blP = (bl.x, bl.y)
        guard let (_, _, ex, ey) = Self.sides(bottomLeft: bl, topLeft: tl, topRight: tr) else { return nil }
        guard let cTL = finderCorners(tl, ex: ex, ey: ey), let cTR = finderCorners(tr, ex: ex, ey: ey),
            let cBL = finderCorners(bl, ex: ex, ey: ey)
        else { return nil }
        func points(_ d: Double) -> [GridPoint] {
            let square: [(Double, Double)] = [(0, 0), (7, 0), (7, 7), (0, 7)]
            var out: [GridPoint] = []
            for (corners, centre, origin) in [(cTL, tlP, (0.0, 0.0)), (cTR, trP, (d - 7, 0.0)), (cBL, blP, (0.0, d - 7))] {
                for (k, p) in corners.enumerated() {
                    out.append(GridPoint(module: (origin.0 + square[k].0, origin.1 + square[k].1), image: p, weight: 1))
                }
                out.append(GridPoint(module: (origin.0 + 3.5, origin.1 + 3.5), image: centre, weight: 1))
            }
            return out
        }
        // The dimension: the version information where it reads, else the best-sampled timing patterns.
        var best: (score: Double, dimension: Int, h: PerspectiveTransform)?
        for delta in [0, -4, 4, -8, 8] {
            let d = d0 + delta
            guard QRVersion.forDimension(d) != nil, let h = Self.fitHomography(points(Double(d))) else { continue }
            // Random bits pass one block's check about one time in eight (3 errors in 18 bits are tolerated): a
            // version is taken when both blocks give it, or one does and the timing patterns agree with it, or
            // (timing patterns scuffed) at least half its alignment patterns are where it puts them.
            if d >= 45 {
                let (topRight, bottomLeft) = self.versionInformation(h, dimension: d)
                if let v = topRight ?? bottomLeft,
                    let hv = v.dimension == d ? h : Self.fitHomography(points(Double(v.dimension)))
                {
                    if topRight?.number == bottomLeft?.number || timingScore(hv, dimension: v.dimension) >= 0.6 {
                        best = (2, v.dimension, hv)
                        break
                    }
                    let n = v.alignmentCenters.count
                    let fit = self.aligned(hv, version: v, points: points(Double(v.dimension)), finders: (tlP, trP, blP))
                    if 2 * fit.alignmentsFound >= n * n - 3 { return fit }
                }
            }
            let score = timingScore(h, dimension: d)
            if score > (best?.score ?? 0.75) { best = (score, d, h) }
        }
        guard let (_, dimension, h) = best, let version = QRVersion.forDimension(dimension),
            Self.meanResidual(h, points(Double(dimension))) < 0.35 * moduleScale(h, Double(dimension))
        else { return nil }
        return self.aligned(h, version: version, points: points(Double(dimension)), finders: (tlP, trP, blP))
    }

    /// The versions that the two version-information blocks sampled through `h` hold (up to 3 bit errors each):
    /// the one beside the top-right finder and the one beside the bottom-left finder.
    func versionInformation(_ h: PerspectiveTransform, dimension d: Int) -> (topRight: QRVersion?, bottomLeft: QRVersion?) {
        func dark(_ x: Int, _ y: Int) -> Int {
            let p = h.transform(Double(x) + 0.5, Double(y) + 0.5)
            return self.image.get(p.0, p.1) ? 1 : 0
        }
        var topRight = 0
        var bottomLeft = 0
        for j in stride(from: 5, through: 0, by: -1) {
            for i in stride(from: d - 9, through: d - 11, by: -1) {
                topRight = (topRight << 1) | dark(i, j)
                bottomLeft = (bottomLeft << 1) | dark(j, i)
            }
        }
        return (QRVersion.decodeVersionInformation(topRight), QRVersion.decodeVersionInformation(bottomLeft))
    }
}
