@testable import BarcodeReader
import Foundation
import Testing

/// Dense QR Codes whose timing patterns blur, noise and small modules break (issue 11, point 4): the perspective
/// comes from the corners of the three finder patterns, the dimension from the version information, and the
/// modules are sampled from the luminance, sharpened.
@Suite(.enabled(if: SegnoRender.available, "segno is missing (.venv-barcode with segno, see scripts/barcode-gen.py)"))
struct QRFinderCornersTests {
    /// A version-`version` symbol (2 pixels a module, quiet zone of 4) seen at a steep angle on a 520×480 frame:
    /// the quad its image lands on, and the module-to-frame map (the finder corners' true positions).
    static func rendered(version: Int, text: String, quad: [(Double, Double)]) throws
        -> (image: GrayscaleImage, moduleToFrame: (Double, Double) -> (Double, Double))
    {
        let images = try SegnoRender.render(
            "q = segno.make_qr(TEXT, version=\(version), error='l', boost_error=False)\n"
                + "q.save(out('0'), scale=2, border=4)", text: text)
        let flat = try #require(images.first)
        let seen = PerspectiveRender.warp(flat, onto: quad, width: 520, height: 480)
        let side = Double(flat.width) / 2  // modules across the image, quiet zone included
        let map = PerspectiveRender.homography(
            from: [(-4, -4), (side - 4, -4), (side - 4, side - 4), (-4, side - 4)], to: quad)
        return (seen, map)
    }

    /// Blur (a 3×3 box filter, `passes` times) and seeded noise, as a cheap camera does to small modules.
    static func degraded(_ image: GrayscaleImage, passes: Int, noise: Double, seed: UInt64) -> GrayscaleImage {
        var pixels = image.pixels.map(Double.init)
        let w = image.width
        let h = image.height
        for _ in 0..<passes {
            var next = pixels
            for y in 1..<(h - 1) {
                for x in 1..<(w - 1) {
                    var sum = 0.0
                    for dy in -1...1 { for dx in -1...1 { sum += pixels[(y + dy) * w + x + dx] } }
                    next[y * w + x] = sum / 9
                }
            }
            pixels = next
        }
        var rng = SeededGenerator(state: seed)
        let out = pixels.map { v -> UInt8 in
            let n = (0..<4).reduce(0.0) { acc, _ in acc + Double.random(in: -1...1, using: &rng) } * noise * 0.866
            return UInt8(max(0, min(255, (v + n).rounded())))
        }
        return GrayscaleImage(width: w, height: h, pixels: out)!
    }

    static let steep: [(Double, Double)] = [(40, 60), (430, 20), (470, 450), (70, 400)]

    @Test func theFinderOutlinesCornersAreTheRingsCorners() throws {
        let version = 12
        let (image, map) = try Self.rendered(version: version, text: "finder corners", quad: Self.steep)
        let binary = HybridBinarizer.binarize(image)
        let detector = QRDetector(image: binary, gray: image)
        let finders = detector.findFinderPatterns().filter { $0.count >= 2 }
        try #require(finders.count == 3, "three finder patterns, found \(finders.count)")
        let (bl, tl, tr) = QRDetector.order(finders)
        let (_, _, ex, ey) = try #require(QRDetector.sides(bottomLeft: bl, topLeft: tl, topRight: tr))
        let d = Double(17 + 4 * version)
        for (finder, origin) in [(tl, (0.0, 0.0)), (tr, (d - 7, 0.0)), (bl, (0.0, d - 7))] {
            let corners = try #require(detector.finderCorners(finder, ex: ex, ey: ey))
            for (k, m) in [(0.0, 0.0), (7.0, 0.0), (7.0, 7.0), (0.0, 7.0)].enumerated() {
                let truth = map(origin.0 + m.0, origin.1 + m.1)
                // Within a module (2 pixels here, 1.3 to 2.8 under this perspective).
                #expect(QRDetector.length(corners[k], truth) < 1.5, "finder at \(origin), corner \(k)")
            }
        }
    }

    /// The case the timing-pattern fit cannot read: a dense symbol at a steep angle whose timing patterns are
    /// scuffed (a crease, a scratch: they carry no data, so nothing is lost to the error correction). The finders'
    /// corners fix the perspective, the version information the dimension, and the symbol reads.
    @Test(arguments: [(10, UInt64(1)), (14, 2), (17, 3), (20, 4)])
    func aDenseSymbolWithScuffedTimingPatternsReadsFromItsFinderCorners(_ version: Int, _ seed: UInt64) throws {
        var rng = SeededGenerator(state: seed)
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 -./:")
        let text = String((0..<(version * 12)).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &rng)] })
        let images = try SegnoRender.render(
            "q = segno.make_qr(TEXT, version=\(version), error='m', boost_error=False)\n"
                + "q.save(out('0'), scale=3, border=4)", text: text)
        let flat = try #require(images.first)
        // Every timing module between the finders set at random, dark or light.
        let d = 17 + 4 * version
        var pixels = flat.pixels
        for k in 8..<(d - 8) {
            for (x, y) in [(k, 6), (6, k)] {
                let value: UInt8 = Bool.random(using: &rng) ? 0 : 255
                for dy in 0..<3 { for dx in 0..<3 { pixels[((y + 4) * 3 + dy) * flat.width + (x + 4) * 3 + dx] = value } }
            }
        }
        let scuffed = try #require(GrayscaleImage(width: flat.width, height: flat.height, pixels: pixels))
        let quad: [(Double, Double)] = [(60, 40), (540, 110), (540, 470), (60, 560)]
        let image = Self.degraded(
            PerspectiveRender.warp(scuffed, onto: quad, width: 600, height: 600), passes: 1, noise: 6, seed: seed)
        let detector = QRDetector(image: HybridBinarizer.binarize(image), gray: image)
        let centers = detector.findFinderPatterns()
        let best = try #require(QRDetector.candidateTriples(centers, limit: 12).first, "no finder triple")
        let (bl, tl, tr) = QRDetector.order(best.map { centers[$0] })
        let (estimate, _) = try #require(detector.estimatedDimension(bottomLeft: bl, topLeft: tl, topRight: tr))
        let timingFit = detector.gridFit(bottomLeft: bl, topLeft: tl, topRight: tr, dimension: estimate)
        #expect(timingFit == nil, "the scuffed timing patterns still fitted")
        let fit = detector.cornerFit(bottomLeft: bl, topLeft: tl, topRight: tr, dimension: estimate)
        #expect(fit?.version.number == version, "the version information gives the dimension (estimate \(estimate))")
        #expect((fit?.alignmentsFound ?? 0) > 0)
        let found = BarcodeReader(options: .init(formats: [.qrCode])).decode(image)
        #expect(found.map(\.text) == [text], "version \(version)")
    }

    /// Blur pulls a lone dark module towards its light neighbours: sampled with a 3×3 pixel average and a local
    /// mean, such modules flip; sharpened against their neighbours at the module centre, they do not.
    @Test func sharpenedSamplingKeepsLoneModulesUnderBlur() throws {
        var rng = SeededGenerator(state: 7)
        let modules = 41
        let scale = 3
        let margin = 8
        let side = modules * scale + 2 * margin
        var bits = [Bool](repeating: false, count: modules * modules)
        for k in bits.indices { bits[k] = Bool.random(using: &rng) }
        var pixels = [UInt8](repeating: 230, count: side * side)
        for y in 0..<modules {
            for x in 0..<modules where bits[y * modules + x] {
                for dy in 0..<scale {
                    for dx in 0..<scale { pixels[(margin + y * scale + dy) * side + margin + x * scale + dx] = 30 }
                }
            }
        }
        let image = Self.degraded(GrayscaleImage(width: side, height: side, pixels: pixels)!, passes: 3, noise: 6, seed: 7)
        let t = PerspectiveTransform.quadrilateralToQuadrilateral(
            0, 0, Double(modules), 0, Double(modules), Double(modules), 0, Double(modules),
            Double(margin), Double(margin), Double(margin + modules * scale), Double(margin),
            Double(margin + modules * scale), Double(margin + modules * scale), Double(margin),
            Double(margin + modules * scale))
        func errors(_ m: BitMatrix) -> Int {
            var n = 0
            for y in 0..<modules { for x in 0..<modules where m.get(x, y) != bits[y * modules + x] { n += 1 } }
            return n
        }
        let plain = errors(try #require(GreySampler.sample(image, t, width: modules, height: modules)))
        let sharpened = errors(try #require(GreySampler.sampleSharpened(image, t, width: modules, height: modules)))
        #expect(sharpened * 4 <= plain, "sharpened \(sharpened) module errors, plain \(plain)")
        #expect(sharpened <= modules * modules / 200, "sharpened \(sharpened) of \(modules * modules) modules wrong")
    }

    @Test func versionInformationIsReadThroughAHomography() throws {
        let (image, map) = try Self.rendered(version: 16, text: "version information", quad: Self.steep)
        let binary = HybridBinarizer.binarize(image)
        let detector = QRDetector(image: binary, gray: image)
        // The true module-to-frame map, as a transform (four corners of the symbol).
        let d = 81.0
        let c = [(0.0, 0.0), (d, 0.0), (d, d), (0.0, d)].map { map($0.0, $0.1) }
        let h = PerspectiveTransform.quadrilateralToQuadrilateral(
            0, 0, d, 0, d, d, 0, d, c[0].0, c[0].1, c[1].0, c[1].1, c[2].0, c[2].1, c[3].0, c[3].1)
        let both = detector.versionInformation(h, dimension: 81)
        #expect(both.topRight?.number == 16 && both.bottomLeft?.number == 16)
        // Either block: the top-right one blanked, the bottom-left one still reads.
        var blanked = binary
        for j in 0..<6 {
            for i in 70...72 {
                let p = h.transform(Double(i) + 0.5, Double(j) + 0.5)
                for dy in -2...2 { for dx in -2...2 { blanked.set(Int(p.0) + dx, Int(p.1) + dy, false) } }
            }
        }
        let one = QRDetector(image: blanked, gray: image).versionInformation(h, dimension: 81)
        #expect(one.topRight == nil && one.bottomLeft?.number == 16)
        // A frame with nothing there reads no version.
        let empty = BitMatrix(width: binary.width, height: binary.height)
        let none = QRDetector(image: empty, gray: image).versionInformation(h, dimension: 81)
        #expect(none.topRight == nil && none.bottomLeft == nil)
    }
}

/// The finder-pattern search on what a camera makes of small modules, and on what noise makes of nothing.
struct QRFinderPatternTests {
    /// Rings of modules under 2 pixels come out 1, 2 or 3 pixels wide: a pattern 13 pixels across (1.86 pixels a
    /// module) measured 3, 1, 5, 2, 2 is a finder; runs of 1 and 2 pixels alternating are not one at 1 pixel a module.
    @Test func runsOffByAPixelAreStillAFinder() {
        #expect(QRDetector.foundPatternCross(3, 1, 5, 2, 2))
        #expect(QRDetector.foundPatternCross(2, 2, 5, 1, 3))
        #expect(QRDetector.foundPatternCross(1, 1, 3, 1, 1))
        #expect(!QRDetector.foundPatternCross(1, 2, 1, 2, 1))
        #expect(!QRDetector.foundPatternCross(2, 1, 1, 1, 2))
        #expect(!QRDetector.foundPatternCross(4, 1, 3, 1, 4))
    }

    /// Triples of finders seen on several scan lines come before any triple with a finder seen on one line only,
    /// even when the confirmed one is unequal (a steep angle) and the one-line ones form a perfect square.
    @Test func confirmedFindersAreTriedFirst() {
        var centers: [QRDetector.FinderPattern] = [
            .init(x: 100, y: 100, moduleSize: 5, count: 6), .init(x: 400, y: 90, moduleSize: 7.5, count: 5),
            .init(x: 110, y: 380, moduleSize: 5.2, count: 4),
        ]
        for k in 0..<9 {
            let x = Double(600 + (k % 3) * 90)
            let y = Double(50 + (k / 3) * 90)
            centers.append(.init(x: x, y: y, moduleSize: 1.5, count: 1))
        }
        let triples = QRDetector.candidateTriples(centers, limit: 12)
        #expect(triples.first.map(Set.init) == Set([0, 1, 2]), "\(triples.prefix(3))")
    }

    /// A plus sign of bars passes the row and column checks of a finder but not the diagonal one: noise and
    /// texture make such crossings; concentric squares cross every line through their centre alike.
    @Test func aCrossOfBarsIsNotAFinder() {
        func image(square: Bool) -> BitMatrix {
            var m = BitMatrix(width: 60, height: 60)
            let c = 30
            for y in 0..<60 {
                for x in 0..<60 {
                    let dx = abs(x - c)
                    let dy = abs(y - c)
                    let ring = max(dx, dy)
                    let dark: Bool
                    if square {
                        dark = ring <= 4 || (ring >= 7 && ring <= 9)
                    } else {
                        // Bars only along the row and the column through the centre.
                        let along = min(dx, dy) <= 4 ? max(dx, dy) : 99
                        dark = along <= 4 || (along >= 7 && along <= 9)
                    }
                    if dark { m.set(x, y) }
                }
            }
            return m
        }
        var found: [QRDetector.FinderPattern] = []
        let square = QRDetector(image: image(square: true), gray: nil)
        #expect(square.handlePossibleCenter([3, 2, 9, 2, 3], 30, 40, &found))
        #expect(found.count == 1)
        found = []
        let cross = QRDetector(image: image(square: false), gray: nil)
        #expect(cross.crossCheckVertical(30, 30, 9, 19) != nil && cross.crossCheckHorizontal(30, 30, 9, 19) != nil)
        #expect(!cross.handlePossibleCenter([3, 2, 9, 2, 3], 30, 40, &found))
        #expect(found.isEmpty)
    }
}
