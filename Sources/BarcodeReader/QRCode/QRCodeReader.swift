/// Finds and decodes QR Codes in an image.
enum QRCodeReader {
    static func read(_ binary: BitMatrix, gray: GrayscaleImage?) -> [DecodedBarcode] {
        let detector = QRDetector(image: binary, gray: gray)
        var centers = detector.findFinderPatterns()
        guard centers.count >= 3 else { return [] }
        var results: [DecodedBarcode] = []
        var attempts = 0
        while centers.count >= 3 && attempts < 30 {
            let triples = QRDetector.candidateTriples(centers, limit: 12)
            var decodedTriple: [Int]?
            for (rank, triple) in triples.enumerated() {
                attempts += 1
                let (bl, tl, tr) = QRDetector.order(triple.map { centers[$0] })
                // Only the best-shaped triple is tried unconditionally; others must show timing patterns.
                if let r = decode(detector, bl, tl, tr, minTimingScore: rank == 0 && results.isEmpty ? 0 : 0.6) {
                    if !results.contains(where: { $0.text == r.text }) { results.append(r) }
                    decodedTriple = triple
                    break
                }
                if attempts >= 30 { break }
            }
            guard let used = decodedTriple else { break }
            centers = centers.enumerated().filter { !used.contains($0.offset) }.map(\.element)
        }
        return results
    }

    private static func decode(
        _ detector: QRDetector, _ bl: QRDetector.FinderPattern, _ tl: QRDetector.FinderPattern,
        _ tr: QRDetector.FinderPattern, minTimingScore: Double
    ) -> DecodedBarcode? {
        for delta in [0, 4, -4] {
            let minScore = delta == 0 ? minTimingScore : max(minTimingScore, 0.6)
            if let r = decode(detector, bl, tl, tr, delta: delta, minTimingScore: minScore) { return r }
        }
        return nil
    }

    private static func decode(
        _ detector: QRDetector, _ bl: QRDetector.FinderPattern, _ tl: QRDetector.FinderPattern,
        _ tr: QRDetector.FinderPattern, delta: Int, minTimingScore: Double
    ) -> DecodedBarcode? {
        let candidates = detector.detect(
            bottomLeft: bl, topLeft: tl, topRight: tr, dimensionDelta: delta, minTimingScore: minTimingScore)
        for sampling in QRDetector.Sampling.allCases {
            for candidate in candidates {
                guard let sampled = detector.sample(candidate, sampling) else { continue }
                for mirrored in [false, true] {
                    var bits = sampled
                    if mirrored {
                        var m = BitMatrix(width: bits.width, height: bits.height)
                        for y in 0..<bits.height { for x in 0..<bits.width where bits.get(x, y) { m.set(y, x) } }
                        bits = m
                    }
                    if let r = try? QRDecoder.decode(bits) {
                        return DecodedBarcode(r, corners: candidate.corners)
                    }
                }
            }
        }
        // Last resort for warped symbols: nudge the fourth point when the geometry is otherwise plausible.
        for candidate in candidates {
            guard detector.timingScore(candidate.transform, dimension: candidate.version.dimension) >= 0.7 else {
                continue
            }
            let fourthMoves: [(Double, Double, Int)] = [
                (0.5, 0, 0), (-0.5, 0, 0), (0, 0.5, 0), (0, -0.5, 0), (1, 0, 0), (-1, 0, 0), (0, 1, 0), (0, -1, 0),
                (0.5, 0.5, 0), (-0.5, -0.5, 0), (0.5, -0.5, 0), (-0.5, 0.5, 0),
            ]
            let finderMoves: [(Double, Double, Int)] = [1, 2].flatMap { p in
                [(0.5, 0, p), (-0.5, 0, p), (0, 0.5, p), (0, -0.5, p)]
            }
            for (dx, dy, point) in fourthMoves + finderMoves {
                let t = candidate.jittered(dx, dy, point: point)
                guard let bits = detector.sampleGrid(t, dimension: candidate.version.dimension),
                    let r = try? QRDecoder.decode(bits)
                else { continue }
                return DecodedBarcode(r, corners: candidate.corners)
            }
        }
        // Finally fit all four control points to the fixed patterns.
        for candidate in candidates {
            guard detector.timingScore(candidate.transform, dimension: candidate.version.dimension) >= 0.55 else {
                continue
            }
            let t = detector.fitted(candidate)
            for sampling in [0, 1] {
                let sampled =
                    sampling == 0
                    ? detector.sampleGrid(t, dimension: candidate.version.dimension)
                    : detector.gray.flatMap {
                        GreySampler.sample($0, t, width: candidate.version.dimension, height: candidate.version.dimension)
                    }
                guard let bits = sampled, let r = try? QRDecoder.decode(bits) else { continue }
                return DecodedBarcode(r, corners: candidate.corners)
            }
        }
        return nil
    }
}

extension DecodedBarcode {
    /// A QR Code result with what its bit stream said (GS1, ECI, structured append).
    init(_ r: QRDecoder.Result, corners: [Point]) {
        self.init(
            format: .qrCode, text: r.text, rawBytes: r.bytes, corners: corners, gs1: r.content.gs1,
            eci: r.content.eci, structuredAppend: r.content.structuredAppend)
    }
}
