import Foundation

/// Finds and decodes Data Matrix (ECC 200) symbols.
enum DataMatrixReader {
    static func transform(_ c: DMDetector.Candidate, topRight tr: (Double, Double), version: DMVersion)
        -> PerspectiveTransform
    {
        let cols = Double(version.columns)
        let rows = Double(version.rows)
        return PerspectiveTransform.quadrilateralToQuadrilateral(
            0, 0, cols, 0, cols, rows, 0, rows,
            c.topLeft.0, c.topLeft.1, tr.0, tr.1, c.bottomRight.0, c.bottomRight.1, c.bottomLeft.0, c.bottomLeft.1)
    }

    /// Moves the top-right corner (a light timing module, invisible to the hull) to where the top and right
    /// timing patterns alternate best.
    /// Sizes worth sampling, best first: the run counts along the timing sides, then every size whose aspect
    /// ratio fits, ranked by how well its timing patterns alternate once the top-right corner is refined.
    /// `dimensions`: the candidate's run counts when the caller has them already (else counted here).
    static func rankedVersions(
        _ c: DMDetector.Candidate, detector: DMDetector, binary: BitMatrix,
        dimensions: [(rows: Int, columns: Int)]? = nil
    ) -> [(DMVersion, (Double, Double))] {
        func dist(_ a: (Double, Double), _ b: (Double, Double)) -> Double {
            ((a.0 - b.0) * (a.0 - b.0) + (a.1 - b.1) * (a.1 - b.1)).squareRoot()
        }
        let width = dist(c.bottomLeft, c.bottomRight)
        let height = dist(c.bottomLeft, c.topLeft)
        guard width > 4, height > 4 else { return [] }
        let aspect = width / height
        var scored: [(Double, DMVersion, (Double, Double))] = []
        let counted = Set((dimensions ?? detector.dimensions(c)).map { "\($0.rows)x\($0.columns)" })
        for version in DMVersion.all {
            let va = Double(version.columns) / Double(version.rows)
            guard abs(va / aspect - 1) < 0.35 else { continue }
            guard width / Double(version.columns) >= 1.2, height / Double(version.rows) >= 1.2 else { continue }
            let (tr, score) = refineTopRight(c, version: version, binary: binary)
            let bonus = counted.contains("\(version.rows)x\(version.columns)") ? 0.05 : 0
            scored.append((score + bonus, version, tr))
        }
        scored.sort { $0.0 > $1.0 }
        return scored.prefix(4).filter { $0.0 > 0.65 }.map { ($0.1, $0.2) }
    }

    static func refineTopRight(_ c: DMDetector.Candidate, version: DMVersion, binary: BitMatrix)
        -> ((Double, Double), Double)
    {
        let module = (
            ((c.bottomRight.0 - c.bottomLeft.0) / Double(version.columns)),
            ((c.bottomRight.1 - c.bottomLeft.1) / Double(version.columns)),
            ((c.topLeft.0 - c.bottomLeft.0) / Double(version.rows)),
            ((c.topLeft.1 - c.bottomLeft.1) / Double(version.rows))
        )
        func score(_ tr: (Double, Double)) -> Int {
            let t = transform(c, topRight: tr, version: version)
            var s = 0
            for x in 0..<version.columns {
                let (px, py) = t.transform(Double(x) + 0.5, 0.5)
                if binary.get(px, py) == (x % 2 == 0) { s += 1 }
            }
            for y in 0..<version.rows {
                let (px, py) = t.transform(Double(version.columns) - 0.5, Double(y) + 0.5)
                if binary.get(px, py) == ((version.rows - 1 - y) % 2 == 0) { s += 1 }
            }
            return s
        }
        // Start from the best of the available estimates (parallelogram, rectangle, hull corner).
        var best = c.topRight
        var bestScore = score(best)
        for start in c.topRightAlternatives {
            let sc = score(start)
            if sc > bestScore {
                best = start
                bestScore = sc
            }
        }
        var step = 1.0
        while step >= 0.25 {
            var improved = true
            // The step just taken: its reverse leads back to a corner that scored less, so it is not sampled again.
            var taken = -1
            while improved {
                improved = false
                for (k, (du, dv)) in [(step, 0.0), (-step, 0.0), (0.0, step), (0.0, -step)].enumerated()
                where k != taken ^ 1 {
                    let cand = (best.0 + du * module.0 + dv * module.2, best.1 + du * module.1 + dv * module.3)
                    let sc = score(cand)
                    if sc > bestScore {
                        bestScore = sc
                        best = cand
                        improved = true
                        taken = k
                    }
                }
            }
            step /= 2
        }
        return (best, Double(bestScore) / Double(version.rows + version.columns))
    }

    static func read(_ binary: BitMatrix, gray: GrayscaleImage?) -> [DecodedBarcode] {
        var promising = false
        return read(binary, gray: gray, promising: &promising)
    }

    /// ``read(_:gray:)``, also telling whether a candidate's timing patterns alternated as a symbol's do (worth
    /// reading again with another binarisation when nothing decoded).
    static func read(_ binary: BitMatrix, gray: GrayscaleImage?, promising: inout Bool) -> [DecodedBarcode] {
        let detector = DMDetector(image: binary)
        var results: [DecodedBarcode] = []
        var edgeFits = 0  // at most six per frame (see below)
        promising = false
        for c in detector.detect() {
            // A candidate whose centre lies on a symbol already read is a part of it (a data region's modules, a
            // piece of its finder): it cannot be another symbol.
            let centre = (
                (c.topLeft.0 + c.topRight.0 + c.bottomLeft.0 + c.bottomRight.0) / 4,
                (c.topLeft.1 + c.topRight.1 + c.bottomLeft.1 + c.bottomRight.1) / 4
            )
            if results.contains(where: { Self.quad($0.corners, contains: centre) }) { continue }
            var tried = Attempts()
            // The sizes that the timing sides' run counts name, when one of them alternates as a symbol's timing
            // does once its corner is placed: most symbols decode there, without the climb of every size that fits
            // the candidate's shape (the costliest part of reading a Data Matrix photo). A candidate that does not
            // decode there goes through every size, as if this had not been tried (what it sampled is not sampled
            // again).
            let dimensions = detector.dimensions(c)
            let counted = countedVersions(c, dimensions: dimensions, binary: binary)
            var decoded = attempt(c, ranked: counted, binary: binary, gray: gray, results: &results, tried: &tried)
            let ranked = decoded ? [] : rankedVersions(c, detector: detector, binary: binary, dimensions: dimensions)
            if !ranked.isEmpty || !counted.isEmpty { promising = true }
            if !decoded {
                decoded = attempt(c, ranked: ranked, binary: binary, gray: gray, results: &results, tried: &tried)
            }
            // The sides moved onto the symbol's edges (rounded hull corners, a thin, large or oblique symbol), the
            // top-right corner where the two timing sides cross; each fit once (within a pixel), at most six fits
            // per frame (candidates come largest first; texture and 1-D symbols make candidates that never decode).
            if !decoded {
                // The top-right corner is not on the hull: the timing sides start from each of its estimates.
                var tried: [[(Double, Double)]] = []
                for guess in ((ranked.first.map { [$0.1] } ?? []) + c.topRightAlternatives + [c.topRight]).prefix(3) {
                    guard edgeFits < 6 else { break }
                    edgeFits += 1
                    guard let e = detector.edgeFitted([c.topLeft, guess, c.bottomRight, c.bottomLeft]) else { continue }
                    let corners = e
                    let seen = tried.contains { old in
                        zip(old, corners).allSatisfy { abs($0.0 - $1.0) < 1 && abs($0.1 - $1.1) < 1 }
                    }
                    if seen { continue }
                    tried.append(corners)
                    let edged = DMDetector.Candidate(
                        bottomLeft: e[3], topLeft: e[0], bottomRight: e[2], topRight: e[1], topRightAlternatives: [guess])
                    var triedEdged = Attempts()
                    decoded = attempt(
                        edged, ranked: rankedVersions(edged, detector: detector, binary: binary), binary: binary,
                        gray: gray, results: &results, tried: &triedEdged)
                    if decoded { break }
                }
            }
            // Last resort: fit all four corners to the finder L, the timing patterns and the region borders.
            if !decoded {
                for (version, refined) in ranked.prefix(2) {
                    // Only worth it when the timing patterns already mostly fit (a real symbol, slightly off).
                    guard refineTopRight(c, version: version, binary: binary).1 >= 0.8 else { continue }
                    let t = fitted(c, topRight: refined, version: version, binary: binary)
                    var bits = BitMatrix(width: version.columns, height: version.rows)
                    for y in 0..<version.rows {
                        for x in 0..<version.columns {
                            let (px, py) = t.transform(Double(x) + 0.5, Double(y) + 0.5)
                            if binary.get(px, py) { bits.set(x, y) }
                        }
                    }
                    var r = try? DMDecoder.decode(bits, version: version)
                    if r == nil, let gray,
                        let grey = GreySampler.sample(gray, t, width: version.columns, height: version.rows)
                    {
                        r = try? DMDecoder.decode(grey, version: version)
                    }
                    if let r, !results.contains(where: { $0.text == r.text }) {
                        let cols = Double(version.columns)
                        let rows = Double(version.rows)
                        let corners = [(0.0, 0.0), (cols, 0.0), (cols, rows), (0.0, rows)].map { m in
                            let q = t.transform(m.0, m.1)
                            return Point(x: q.0, y: q.1)
                        }
                        results.append(
                            DecodedBarcode(
                                    format: .dataMatrix, text: r.text, rawBytes: r.bytes, corners: corners,
                                    gs1: r.content.gs1, eci: r.content.eci,
                                    structuredAppend: r.content.structuredAppend))
                        break
                    }
                }
            }
        }
        return results
    }

    /// Whether `p` lies inside the convex quadrilateral `corners` (in either winding order).
    static func quad(_ corners: [Point], contains p: (Double, Double)) -> Bool {
        guard corners.count == 4 else { return false }
        var sign = 0.0
        for k in 0..<4 {
            let a = corners[k], b = corners[(k + 1) % 4]
            let cross = (b.x - a.x) * (p.1 - a.y) - (b.y - a.y) * (p.0 - a.x)
            if cross == 0 { continue }
            if sign == 0 { sign = cross } else if (cross > 0) != (sign > 0) { return false }
        }
        return sign != 0
    }

    /// What a candidate was sampled with and what it sampled, per size: the same corner gives the same samples,
    /// and the same modules the same failed decode, so each is tried once (the corner estimates often coincide, a
    /// corner a fraction of a module away often samples alike, and a size may be ranked twice).
    struct Attempts {
        var corners: [(size: Int, corner: (Double, Double))] = []
        var modules: [(size: Int, bits: [UInt8])] = []
    }

    /// The sizes among the first of `dimensions` (what ``DMDetector/dimensions(_:)`` counted for `c`) whose timing sides alternate as a
    /// symbol's do (``countedMinScore``) once the top-right corner is placed, best first.
    static func countedVersions(
        _ c: DMDetector.Candidate, dimensions: [(rows: Int, columns: Int)], binary: BitMatrix
    ) -> [(DMVersion, (Double, Double))] {
        var scored: [(Double, DMVersion, (Double, Double))] = []
        for size in dimensions.prefix(2) {
            guard let version = DMVersion.forSize(rows: size.rows, columns: size.columns) else { continue }
            let (tr, score) = refineTopRight(c, version: version, binary: binary)
            if score >= countedMinScore { scored.append((score, version, tr)) }
        }
        return scored.sorted { $0.0 > $1.0 }.map { ($0.1, $0.2) }
    }

    /// The share of timing modules right for a counted size to be tried before every size is climbed: a symbol's
    /// timing read through its own grid, not the 0.65 to 0.8 that a frame's texture reaches at some size.
    static let countedMinScore = 0.85

    /// Samples and decodes a candidate at its best-ranked sizes (``rankedVersions(_:detector:binary:dimensions:)``), with each
    /// top-right estimate; appends a new text to `results`. True when the candidate decoded. What `tried` holds is
    /// not sampled or decoded again, and what this samples is added to it.
    static func attempt(
        _ c: DMDetector.Candidate, ranked: [(DMVersion, (Double, Double))], binary: BitMatrix, gray: GrayscaleImage?,
        results: inout [DecodedBarcode], tried: inout Attempts
    ) -> Bool {
        for (version, refined) in ranked {
            let size = version.rows << 16 | version.columns
            for tr in [refined, c.topRight] + c.topRightAlternatives {
                if tried.corners.contains(where: { $0.size == size && $0.corner == tr }) { continue }
                tried.corners.append((size, tr))
                let t = transform(c, topRight: tr, version: version)
                var bits = BitMatrix(width: version.columns, height: version.rows)
                for y in 0..<version.rows {
                    for x in 0..<version.columns {
                        let (px, py) = t.transform(Double(x) + 0.5, Double(y) + 0.5)
                        if binary.get(px, py) { bits.set(x, y) }
                    }
                }
                // A grid whose own finder L and timing modules are mostly wrong is not the symbol's grid: its data
                // modules, sampled through the same corners, do not decode either way.
                guard fixedPatternShare(bits, version: version) >= minSampledFixedShare else { continue }
                var r: DMDecoder.Result?
                if !tried.modules.contains(where: { $0.size == size && $0.bits == bits.bits }) {
                    tried.modules.append((size, bits.bits))
                    r = try? DMDecoder.decode(bits, version: version)
                }
                if r == nil, let gray,
                    let grey = GreySampler.sample(gray, t, width: version.columns, height: version.rows)
                {
                    r = try? DMDecoder.decode(grey, version: version)
                }
                if r == nil, let gray,
                    let sharp = GreySampler.sampleSharpened(gray, t, width: version.columns, height: version.rows)
                {
                    r = try? DMDecoder.decode(sharp, version: version)
                }
                if let r {
                    let corners = [c.topLeft, tr, c.bottomRight, c.bottomLeft].map { Point(x: $0.0, y: $0.1) }
                    if !results.contains(where: { $0.text == r.text }) {
                        results.append(
                            DecodedBarcode(
                                format: .dataMatrix, text: r.text, rawBytes: r.bytes, corners: corners,
                                gs1: r.content.gs1, eci: r.content.eci, structuredAppend: r.content.structuredAppend))
                    }
                    return true
                }
            }
        }
        return false
    }

    /// The least share of a sampled grid's outer L and timing modules that must be right for its data to be
    /// decoded. Measured on 799 Data Matrix images (generated at seeds 5551 and 5552, normal and `--hard`, and the
    /// public folders): every grid that decoded, from the binarised image or from the luminance, had 0.80 or more;
    /// half of all the grids sampled had under 0.70, and none of them decoded.
    static let minSampledFixedShare = 0.65

    /// The share of a sampled `version` grid's outer finder L (left column, bottom row) and timing (top row, right
    /// column) modules that read as they are printed.
    static func fixedPatternShare(_ bits: BitMatrix, version: DMVersion) -> Double {
        let (rows, columns) = (version.rows, version.columns)
        var right = 0
        for x in 0..<columns {
            if bits.get(x, rows - 1) { right += 1 }
            if bits.get(x, 0) == (x % 2 == 0) { right += 1 }
        }
        for y in 0..<rows {
            if bits.get(0, y) { right += 1 }
            if bits.get(columns - 1, y) == ((rows - 1 - y) % 2 == 0) { right += 1 }
        }
        return Double(right) / Double(2 * (rows + columns))
    }

    /// Modules of the fixed patterns (solid L, timing, and the borders between data regions) sampled right.
    static func fixedPatternScore(_ t: PerspectiveTransform, version: DMVersion, binary: BitMatrix) -> Int {
        var score = 0
        @inline(__always) func check(_ x: Int, _ y: Int, _ dark: Bool) {
            let (px, py) = t.transform(Double(x) + 0.5, Double(y) + 0.5)
            guard px.isFinite, py.isFinite else { return }
            if binary.get(px, py) == dark { score += 1 }
        }
        let rh = version.regionRows + 2
        let rw = version.regionColumns + 2
        for y in 0..<version.rows {
            let inRow = y % rh
            for x in 0..<version.columns {
                let inCol = x % rw
                if inCol == 0 || inRow == rh - 1 {
                    check(x, y, true)  // solid L of each region
                } else if inRow == 0 {
                    check(x, y, inCol % 2 == 0)  // top timing of each region
                } else if inCol == rw - 1 {
                    check(x, y, (rh - 1 - inRow) % 2 == 0)  // right timing of each region
                }
            }
        }
        return score
    }

    /// Hill-climbs the four corners to maximise ``fixedPatternScore``.
    static func fitted(
        _ c: DMDetector.Candidate, topRight: (Double, Double), version: DMVersion, binary: BitMatrix
    ) -> PerspectiveTransform {
        let cols = Double(version.columns)
        let rows = Double(version.rows)
        var p = [
            c.topLeft.0, c.topLeft.1, topRight.0, topRight.1, c.bottomRight.0, c.bottomRight.1, c.bottomLeft.0,
            c.bottomLeft.1,
        ]
        func make(_ p: [Double]) -> PerspectiveTransform {
            PerspectiveTransform.quadrilateralToQuadrilateral(
                0, 0, cols, 0, cols, rows, 0, rows, p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7])
        }
        let dx = c.bottomRight.0 - c.bottomLeft.0
        let dy = c.bottomRight.1 - c.bottomLeft.1
        let module = (dx * dx + dy * dy).squareRoot() / cols
        var best = fixedPatternScore(make(p), version: version, binary: binary)
        for step in [0.5, 0.25, 0.12].map({ $0 * module }) {
            var rounds = 0
            var improved = true
            while improved && rounds < 12 {
                improved = false
                rounds += 1
                for k in 0..<8 {
                    for sign in [1.0, -1.0] {
                        var q = p
                        q[k] += sign * step
                        let sc = fixedPatternScore(make(q), version: version, binary: binary)
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
}
