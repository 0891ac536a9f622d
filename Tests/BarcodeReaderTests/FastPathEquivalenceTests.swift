@testable import BarcodeReader
import Testing

/// The speed work on frames without a code (issue 11, point 5) rewrote hot loops with raw buffers and SIMD lanes; it
/// must not change a single bit. These tests hold the rewritten loops against plain reference versions (the code
/// as it was) on random pictures whose sizes are not multiples of 8 or 4, where the block and lane edges fall.
@Suite struct FastPathEquivalenceTests {
    /// A deterministic pseudo-random picture: blocks of random grey with pixel noise, so both the low-contrast and
    /// the high-contrast branches of the binarisers are taken.
    static func picture(width: Int, height: Int, seed: UInt64) -> GrayscaleImage {
        var state = seed | 1
        func next() -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(truncatingIfNeeded: state >> 33)
        }
        let block = 3 + next() % 13
        var levels: [Int] = []
        for _ in 0..<((width / block + 1) * (height / block + 1)) { levels.append(next() % 256) }
        var pixels = [UInt8](repeating: 0, count: width * height)
        for y in 0..<height {
            for x in 0..<width {
                let level = levels[(y / block) * (width / block + 1) + x / block]
                pixels[y * width + x] = UInt8(max(0, min(255, level + next() % 21 - 10)))
            }
        }
        return GrayscaleImage(width: width, height: height, pixels: pixels)!
    }

    static let sizes = [(41, 43), (67, 50), (100, 97), (123, 64), (640, 480)]

    /// The hybrid binariser as it was before the SIMD rewrite.
    static func referenceHybrid(_ image: GrayscaleImage) -> [UInt8] {
        let width = image.width
        let height = image.height
        let blockSize = 8
        let subWidth = (width + blockSize - 1) / blockSize
        let subHeight = (height + blockSize - 1) / blockSize
        var out = [UInt8](repeating: 0, count: width * height)
        let lum = image.pixels
        var blackPoints = [Int](repeating: 0, count: subWidth * subHeight)
        let maxYOffset = height - blockSize
        let maxXOffset = width - blockSize
        for y in 0..<subHeight {
            let yoffset = min(y * blockSize, maxYOffset)
            for x in 0..<subWidth {
                let xoffset = min(x * blockSize, maxXOffset)
                var sum = 0
                var lo = 255
                var hi = 0
                for yy in 0..<blockSize {
                    for xx in 0..<blockSize {
                        let p = Int(lum[(yoffset + yy) * width + xoffset + xx])
                        sum += p
                        lo = min(lo, p)
                        hi = max(hi, p)
                    }
                }
                var average = sum >> 6
                if hi - lo <= 24 {
                    average = lo / 2
                    if y > 0 && x > 0 {
                        let neighbours =
                            (blackPoints[(y - 1) * subWidth + x] + 2 * blackPoints[y * subWidth + x - 1]
                                + blackPoints[(y - 1) * subWidth + x - 1]) / 4
                        if lo < neighbours { average = neighbours }
                    }
                }
                blackPoints[y * subWidth + x] = average
            }
        }
        func cap(_ v: Int, _ m: Int) -> Int { v < 2 ? 2 : min(v, m) }
        for y in 0..<subHeight {
            let yoffset = min(y * blockSize, maxYOffset)
            let top = cap(y, subHeight - 3)
            for x in 0..<subWidth {
                let xoffset = min(x * blockSize, maxXOffset)
                let left = cap(x, subWidth - 3)
                var sum = 0
                for z in -2...2 { for k in -2...2 { sum += blackPoints[(top + z) * subWidth + left + k] } }
                let threshold = sum / 25
                for yy in 0..<blockSize {
                    for xx in 0..<blockSize where Int(lum[(yoffset + yy) * width + xoffset + xx]) <= threshold {
                        out[(yoffset + yy) * width + xoffset + xx] = 1
                    }
                }
            }
        }
        return out
    }

    @Test func hybridBinariserMatchesTheScalarVersion() {
        for (k, (w, h)) in Self.sizes.enumerated() {
            for seed in 1...4 {
                let image = Self.picture(width: w, height: h, seed: UInt64(seed * 1000 + k))
                #expect(HybridBinarizer.binarize(image).bits == Self.referenceHybrid(image), "\(w)×\(h) seed \(seed)")
            }
        }
    }

    /// The histogram row binariser as it was (one histogram, runs appended one by one).
    static func referencePatternRow(_ line: [UInt8]) -> [Int32]? {
        let width = line.count
        guard width >= 3 else { return nil }
        var counts = [Int32](repeating: 0, count: 32)
        for p in line { counts[Int(p >> 3)] += 1 }
        let bp = counts.withUnsafeMutableBufferPointer { RowBinarizer.blackPoint($0) }
        guard let blackPoint = bp else { return nil }
        func isBlack(_ x: Int) -> Bool { Int(line[x]) * 4 - Int(line[x - 1]) - Int(line[x + 1]) < blackPoint * 2 }
        var runs: [Int32] = []
        var last = isBlack(1)
        if last { runs.append(0) }
        var lastPos = 0
        for x in 2..<(width - 1) where isBlack(x) != last {
            runs.append(Int32(x - lastPos))
            last.toggle()
            lastPos = x
        }
        runs.append(Int32(width - lastPos))
        if last { runs.append(0) }
        return runs.count >= 3 ? runs : nil
    }

    @Test func histogramRowBinariserMatchesTheScalarVersion() {
        for (k, (w, h)) in Self.sizes.enumerated() {
            let image = Self.picture(width: w, height: h, seed: UInt64(77 + k))
            for row in stride(from: 0, to: h, by: 3) {
                let line = Array(image.pixels[(row * w)..<(row * w + w)])
                var runs: [Int32] = []
                let ok = line.withUnsafeBufferPointer { RowBinarizer.patternRow($0, into: &runs) }
                let expected = Self.referencePatternRow(line)
                #expect(ok == (expected != nil), "\(w)×\(h) row \(row)")
                if let expected, ok { #expect(runs == expected, "\(w)×\(h) row \(row)") }
            }
        }
    }

    /// The fine pattern row (edges to a third of a pixel) is the histogram row refined: the same colour at every
    /// whole pixel, runs in thirds of a pixel that add up to three times the line, and on a blurred step from
    /// paper to ink its edge between the two pixels the threshold lies between.
    @Test func finePatternRowRefinesTheHistogramRow() {
        func colours(_ runs: [Int32]) -> [Bool] {
            var out: [Bool] = []
            for (k, r) in runs.enumerated() { out += [Bool](repeating: k % 2 == 1, count: Int(r)) }
            return out
        }
        for (k, (w, h)) in Self.sizes.enumerated() {
            let image = Self.picture(width: w, height: h, seed: UInt64(91 + k))
            for row in stride(from: 0, to: h, by: 5) {
                let line = Array(image.pixels[(row * w)..<(row * w + w)])
                var runs: [Int32] = []
                var fine: [Int32] = []
                let ok = line.withUnsafeBufferPointer { RowBinarizer.patternRow($0, into: &runs) }
                let fineOK = line.withUnsafeBufferPointer { RowBinarizer.finePatternRow($0, into: &fine) }
                #expect(ok == fineOK, "\(w)×\(h) row \(row)")
                guard ok, fineOK else { continue }
                #expect(fine.reduce(0, +) == 3 * Int32(w))
                let whole = colours(runs)
                let thirds = colours(fine)
                let differing = (1..<(w - 1)).filter { whole[$0] != thirds[3 * $0] }
                #expect(differing.isEmpty, "\(w)×\(h) row \(row): pixels \(differing.prefix(5))")
            }
        }
        // Paper 200, ink 20, one pixel of 80 between: the threshold (black point about 110) lies between the
        // pixels of 200 and 80, so the edge is a third of a pixel or two after the last paper pixel, not on a pixel.
        let step: [UInt8] = [UInt8](repeating: 200, count: 20) + [80] + [UInt8](repeating: 20, count: 20)
        var runs: [Int32] = []
        var fine: [Int32] = []
        _ = step.withUnsafeBufferPointer { RowBinarizer.patternRow($0, into: &runs) }
        _ = step.withUnsafeBufferPointer { RowBinarizer.finePatternRow($0, into: &fine) }
        #expect(runs.count == 3 && fine.count == 3, "\(runs) \(fine)")
        #expect(fine.first.map { $0 % 3 != 0 && abs(Int($0) - 3 * Int(runs[0])) < 3 } == true, "\(runs) \(fine)")
    }

    /// Code 39's start/stop test (with its cheap refusal of windows whose wide elements are not the widest) answers
    /// as decoding the character and comparing it with "*" does, on random windows and on jittered asterisks.
    @Test func code39StartStopTestMatchesDecodingTheCharacter() {
        var state: UInt64 = 0x5EED
        func next(_ n: Int) -> Int32 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int32(truncatingIfNeeded: (state >> 33) % UInt64(n))
        }
        let asterisk: [Int32] = [1, 3, 1, 1, 3, 1, 3, 1, 1]
        var windows = 0
        var starts = 0
        for trial in 0..<200_000 {
            var runs: [Int32] = [next(20) + 1]
            for k in 0..<9 {
                if trial % 2 == 0 {
                    runs.append(next(8) + 1)
                } else {
                    // An asterisk of narrow width n, each element off by up to ±(n/2 + 1).
                    let n = Int32(1 + trial % 5)
                    let jitter = next(Int(n) + 3) - (n / 2 + 1)
                    runs.append(max(1, asterisk[k] * n + jitter))
                }
            }
            runs.append(next(20) + 1)
            runs.withUnsafeBufferPointer { buf in
                let expected = Code39.character(buf, 1) == "*"
                #expect(Code39.isStartStop(buf, 1) == expected, "runs \(runs)")
                windows += 1
                if expected { starts += 1 }
            }
        }
        #expect(starts > 1000, "only \(starts) of \(windows) windows were asterisks: the test would prove little")
    }

    /// The local-mean row binariser as it was (a truncating division per pixel).
    static func referenceLocalPatternRow(_ line: [UInt8]) -> [Int32]? {
        let width = line.count
        guard width >= 8 else { return nil }
        let radius = max(8, width / 16)
        guard Int(line.max()!) - Int(line.min()!) >= 16 else { return nil }
        var prefix = [Int](repeating: 0, count: width + 1)
        for x in 0..<width { prefix[x + 1] = prefix[x] + Int(line[x]) }
        func isBlack(_ x: Int) -> Bool {
            let lo = max(0, x - radius)
            let hi = min(width, x + radius + 1)
            return Int(line[x]) < (prefix[hi] - prefix[lo]) / (hi - lo)
        }
        var runs: [Int32] = []
        var last = isBlack(1)
        if last { runs.append(0) }
        var lastPos = 0
        for x in 2..<(width - 1) where isBlack(x) != last {
            runs.append(Int32(x - lastPos))
            last.toggle()
            lastPos = x
        }
        runs.append(Int32(width - lastPos))
        if last { runs.append(0) }
        return runs.count >= 3 ? runs : nil
    }

    /// The gradient-edge row binariser as it was (fresh arrays of differences and of edges per line).
    static func referenceEdgePatternRow(_ line: [UInt8]) -> [Int32]? {
        let width = line.count
        guard width >= 8 else { return nil }
        let lo = Int(line.min()!)
        let hi = Int(line.max()!)
        let minGradient = max(6, (hi - lo) / 10)
        guard hi - lo >= 24 else { return nil }
        var d = [Int](repeating: 0, count: width)
        for x in 1..<(width - 1) { d[x] = Int(line[x + 1]) - Int(line[x - 1]) }
        var edges: [(position: Double, falling: Bool, strength: Int)] = []
        for x in 2..<(width - 2) {
            let a = abs(d[x])
            guard a >= minGradient, a >= abs(d[x - 1]), a > abs(d[x + 1]) else { continue }
            let l = Double(abs(d[x - 1]))
            let c = Double(a)
            let r = Double(abs(d[x + 1]))
            let denom = l - 2 * c + r
            let offset = denom < 0 ? max(-0.5, min(0.5, 0.5 * (l - r) / denom)) : 0
            let edge = (position: Double(x) + offset, falling: d[x] < 0, strength: a)
            if let last = edges.last, last.falling == edge.falling {
                if edge.strength > last.strength { edges[edges.count - 1] = edge }
                continue
            }
            edges.append(edge)
        }
        guard edges.count >= 4 else { return nil }
        // A line whose first edge rises starts dark: its first (white) run is empty.
        var runs: [Int32] = edges[0].falling ? [] : [0]
        var last = 0.0
        for e in edges {
            let pos = e.position + 0.5
            runs.append(Int32(max(1, (pos - last).rounded())))
            last = pos
        }
        runs.append(Int32(max(0, (Double(width) - last).rounded())))
        if runs.count % 2 == 0 { runs.append(0) }
        return runs
    }

    /// Lines of the test pictures as they are and box-blurred (soft edges: the gradient binariser's parabola and
    /// same-direction replacement branches), plus short lines.
    static func testLines() -> [[UInt8]] {
        var lines: [[UInt8]] = []
        for (k, (w, h)) in Self.sizes.enumerated() {
            let image = Self.picture(width: w, height: h, seed: UInt64(311 + k))
            for row in stride(from: 0, to: h, by: 2) {
                let line = Array(image.pixels[(row * w)..<(row * w + w)])
                lines.append(line)
                let radius = 1 + row % 4
                lines.append(
                    line.indices.map { x in
                        let window = line[max(0, x - radius)...min(w - 1, x + radius)]
                        return UInt8(window.reduce(0) { $0 + Int($1) } / window.count)
                    })
                lines.append(Array(line.prefix(8 + row % 13)))
            }
        }
        return lines
    }

    @Test func localAndEdgeRowBinarisersMatchTheReferenceVersions() {
        var localRead = 0
        var edgeRead = 0
        for (n, line) in Self.testLines().enumerated() {
            var runs: [Int32] = []
            let localOK = line.withUnsafeBufferPointer { RowBinarizer.localPatternRow($0, into: &runs) }
            let local = Self.referenceLocalPatternRow(line)
            #expect(localOK == (local != nil), "line \(n)")
            if let local, localOK {
                #expect(runs == local, "line \(n)")
                localRead += 1
            }
            let edgeOK = line.withUnsafeBufferPointer { RowBinarizer.edgePatternRow($0, into: &runs) }
            let edge = Self.referenceEdgePatternRow(line)
            #expect(edgeOK == (edge != nil), "line \(n)")
            if let edge, edgeOK {
                #expect(runs == edge, "line \(n)")
                edgeRead += 1
            }
        }
        // Both binarisers must have produced runs on most lines, or the comparison proves little.
        #expect(localRead > 300 && edgeRead > 300, "local \(localRead), edges \(edgeRead)")
    }

    /// The local threshold of a line's negative, computed beside the line's own from the same window sums, must be
    /// the one binarising the negative line itself gives (its runs and whether it is a pattern row at all).
    @Test func localRunsOfTheNegativeMatchTheNegativeLineBinarised() {
        var compared = 0
        for (n, line) in Self.testLines().enumerated() {
            var runs: [Int32] = []
            var negative: [Int32]? = []
            let both = line.withUnsafeBufferPointer { RowBinarizer.localPatternRows($0, into: &runs, negative: &negative) }
            var alone: [Int32] = []
            let aloneOK = line.withUnsafeBufferPointer { RowBinarizer.localPatternRow($0, into: &alone) }
            #expect(both.ok == aloneOK && (!aloneOK || runs == alone), "line \(n)")
            let inverted = line.map { 255 - $0 }
            var invertedRuns: [Int32] = []
            let invertedOK = inverted.withUnsafeBufferPointer { RowBinarizer.localPatternRow($0, into: &invertedRuns) }
            #expect(both.negativeOK == invertedOK, "line \(n)")
            if invertedOK {
                #expect(negative == invertedRuns, "line \(n)")
                compared += 1
            }
        }
        #expect(compared > 300, "too few lines compared: \(compared)")
    }

    /// The local pass over the image's negative reads the runs the image's own local pass binarised for it: it must
    /// find what it finds binarising the negative's lines itself.
    @Test func negativeLocalPassWithTheImagePassRunsFindsTheSame() {
        func describe(_ c: [LinearScanner.Candidate]) -> [String] {
            c.map { "\($0.format) \($0.text) \($0.lineCount) \($0.clearLines) \($0.firstRow) \($0.lastRow) \($0.firstSpan) \($0.lastSpan)" }
        }
        var images = [
            TestSymbols.render(TestSymbols.ean8("96385074")).inverted(),
            TestSymbols.render(TestSymbols.ean13("4006381333931"), moduleWidth: 2, height: 200).inverted(),
            TestSymbols.render(TestSymbols.itf("12345678"), height: 120).inverted(),
        ]
        images += NegativeTextures.Kind.allCases.map { NegativeTextures.picture($0, seed: 43) }
        images.append(Self.picture(width: 640, height: 480, seed: 10))
        var found = 0
        for (n, image) in images.enumerated() {
            let formats = Set(BarcodeFormat.allCases.filter(\.isLinear))
            let cache = LinearScanner.RunCache(sparseRowDivisor: 96)
            let sparse = LinearScanner(image: image, formats: formats, minLineCount: 2, rowDivisor: 96, runCache: cache)
            for rotated in [false, true] { _ = sparse.scanCandidates(rotated: rotated, binarization: .local) }
            #expect(!cache.negativeLocalRows.isEmpty && !cache.negativeLocalColumns.isEmpty, "image \(n): nothing kept")
            let negative = image.inverted()
            let cached = LinearScanner(
                image: negative, formats: formats, minLineCount: 2, rowDivisor: 96, runCache: cache, negative: true)
            let plain = LinearScanner(image: negative, formats: formats, minLineCount: 2, rowDivisor: 96)
            for rotated in [false, true] {
                let a = cached.scanCandidates(rotated: rotated, binarization: .local)
                let b = plain.scanCandidates(rotated: rotated, binarization: .local)
                #expect(describe(a) == describe(b), "image \(n) rotated \(rotated)")
                found += a.count
            }
        }
        #expect(found >= 2, "the inverted symbols must be seen, or the comparison proves little")
    }

    /// The 1-D pass over the image's negative reads the histogram runs the first pass kept for its lines, with the
    /// colours swapped: it must find what it finds binarising the negative's lines itself, on the same rows with the
    /// same spans.
    @Test func invertedPassWithTheFirstPassRunsFindsTheSame() {
        func describe(_ c: [LinearScanner.Candidate]) -> [String] {
            c.map { "\($0.format) \($0.text) \($0.lineCount) \($0.clearLines) \($0.firstRow) \($0.lastRow) \($0.firstSpan) \($0.lastSpan)" }
        }
        var images = [
            TestSymbols.render(TestSymbols.ean8("96385074")).inverted(),
            TestSymbols.render(TestSymbols.ean13("4006381333931"), moduleWidth: 2, height: 200).inverted(),
            TestSymbols.render(TestSymbols.itf("12345678"), height: 120).inverted(),
        ]
        images += NegativeTextures.Kind.allCases.map { NegativeTextures.picture($0, seed: 42) }
        images.append(Self.picture(width: 640, height: 480, seed: 9))
        var found = 0
        for (n, image) in images.enumerated() {
            let formats = Set(BarcodeFormat.allCases.filter(\.isLinear))
            let cache = LinearScanner.RunCache(sparseRowDivisor: 96)
            let dense = LinearScanner(image: image, formats: formats, minLineCount: 2, rowDivisor: 256, runCache: cache)
            for rotated in [false, true] { _ = dense.scanCandidates(rotated: rotated, binarization: .histogram) }
            #expect(!cache.rows.isEmpty && !cache.columns.isEmpty, "image \(n): nothing kept")
            let kept = (cache.rows, cache.columns)
            let negative = image.inverted()
            let cached = LinearScanner(
                image: negative, formats: formats, minLineCount: 2, rowDivisor: 96, runCache: cache, negative: true)
            let plain = LinearScanner(image: negative, formats: formats, minLineCount: 2, rowDivisor: 96)
            for rotated in [false, true] {
                let a = cached.scanCandidates(rotated: rotated, binarization: .histogram)
                let b = plain.scanCandidates(rotated: rotated, binarization: .histogram)
                #expect(describe(a) == describe(b), "image \(n) rotated \(rotated)")
                found += a.count
            }
            // The negative's runs are not left for the image's own passes.
            #expect(cache.rows == kept.0 && cache.columns == kept.1, "image \(n): the negative wrote into the cache")
        }
        #expect(found >= 2, "the inverted symbols must be seen, or the comparison proves little")
    }

    /// The Data Matrix labelling finds runs a 64-pixel word at a time: its components must be those an 8-connected
    /// flood fill finds (pixel count and box), on widths around multiples of 8 and 64.
    @Test func dataMatrixLabellingMatchesAFloodFill() {
        var checked = 0
        let sizes = [(61, 40), (64, 41), (65, 66), (127, 50), (130, 77), (200, 120)]
        for (k, (w, h)) in (sizes + sizes + sizes + sizes).enumerated() {
            let gray = Self.picture(width: w, height: h, seed: UInt64(900 + k))
            var bits = HybridBinarizer.globalBinarize(gray).bits
            // A light frame, so that components can avoid the border (the detector drops those touching it).
            for y in 0..<h { for x in 0..<w where x < 2 || y < 2 || x >= w - 2 || y >= h - 2 { bits[y * w + x] = 0 } }
            // Every other picture marks dark pixels 255 instead of 1 (a BitMatrix holds 0 and 1, but the labelling
            // reads any other byte as dark, as it did pixel by pixel).
            if k % 2 == 1 { bits = bits.map { $0 == 0 ? 0 : 255 } }
            let matrix = BitMatrix(width: w, height: h, bits: bits)
            // Flood fill, 8-connected.
            var label = [Int](repeating: -1, count: w * h)
            var boxes: [(count: Int, minX: Int, maxX: Int, minY: Int, maxY: Int)] = []
            for start in 0..<(w * h) where bits[start] != 0 && label[start] < 0 {
                var stack = [start]
                label[start] = boxes.count
                var b = (count: 0, minX: Int.max, maxX: Int.min, minY: Int.max, maxY: Int.min)
                while let p = stack.popLast() {
                    let x = p % w
                    let y = p / w
                    b.count += 1
                    b.minX = min(b.minX, x)
                    b.maxX = max(b.maxX, x + 1)
                    b.minY = min(b.minY, y)
                    b.maxY = max(b.maxY, y + 1)
                    for dy in -1...1 {
                        for dx in -1...1 {
                            let nx = x + dx
                            let ny = y + dy
                            guard nx >= 0, ny >= 0, nx < w, ny < h, bits[ny * w + nx] != 0, label[ny * w + nx] < 0 else {
                                continue
                            }
                            label[ny * w + nx] = boxes.count
                            stack.append(ny * w + nx)
                        }
                    }
                }
                boxes.append(b)
            }
            let eligible = boxes.filter {
                $0.count >= 40 && $0.maxX - $0.minX >= 8 && $0.maxY - $0.minY >= 8 && $0.minX > 0 && $0.minY > 0
                    && $0.maxX < w && $0.maxY < h
            }
            let found = DMDetector(image: matrix).components(maxCount: 1000)
            func key(_ c: Int, _ a: Int, _ b: Int, _ d: Int, _ e: Int) -> String { "\(c) \(a) \(b) \(d) \(e)" }
            let foundKeys = Set(found.map { key($0.count, $0.minX, $0.maxX, $0.minY, $0.maxY) })
            for b in eligible {
                #expect(foundKeys.contains(key(b.count, b.minX, b.maxX, b.minY, b.maxY)), "\(w)×\(h): \(b)")
                checked += 1
            }
        }
        #expect(checked >= 20, "only \(checked) components: the comparison proves little")
    }

    /// The QR finder row scan as it was: zxing's state machine fed pixel by pixel.
    static func referenceFinderPatterns(_ d: QRDetector) -> [QRDetector.FinderPattern] {
        let img = d.image
        var centers: [QRDetector.FinderPattern] = []
        var i = 1
        while i < img.height {
            var s = [0, 0, 0, 0, 0]
            var state = 0
            for j in 0..<img.width {
                if img.bits[i * img.width + j] != 0 {
                    if state & 1 == 1 { state += 1 }
                    s[state] += 1
                } else if state & 1 == 0 {
                    if state == 4 {
                        if QRDetector.foundPatternCross(s) && d.handlePossibleCenter(s, i, j, &centers) {
                            state = 0
                            s = [0, 0, 0, 0, 0]
                        } else {
                            s = [s[2], s[3], s[4], 1, 0]
                            state = 3
                        }
                    } else {
                        state += 1
                        s[state] += 1
                    }
                } else {
                    s[state] += 1
                }
            }
            if QRDetector.foundPatternCross(s) { _ = d.handlePossibleCenter(s, i, img.width, &centers) }
            i += 2
        }
        return centers
    }

    /// Finder patterns (7×7 modules) of several sizes scattered on random blocks, as they are and inverted, and the
    /// negative textures: the run-by-run finder scan finds the same centres as the pixel-by-pixel one.
    @Test func qrFinderScanMatchesThePixelByPixelVersion() {
        var pictures: [BitMatrix] = []
        for (k, (w, h)) in [(101, 77), (128, 96), (190, 141), (320, 240)].enumerated() {
            var bits = HybridBinarizer.globalBinarize(Self.picture(width: w, height: h, seed: UInt64(500 + k))).bits
            for (n, module) in [2, 3, 4, 5].enumerated() {
                let x0 = 3 + (n * 37 + k * 11) % max(1, w - 7 * module - 6)
                let y0 = 3 + (n * 23 + k * 7) % max(1, h - 7 * module - 6)
                for my in -1..<8 {
                    for mx in -1..<8 {
                        let ring = max(abs(mx - 3), abs(my - 3))
                        let dark = ring != 2 && ring != 4
                        for y in (y0 + my * module)..<(y0 + (my + 1) * module) {
                            for x in (x0 + mx * module)..<(x0 + (mx + 1) * module) where x >= 0 && y >= 0 && x < w && y < h {
                                bits[y * w + x] = dark ? 1 : 0
                            }
                        }
                    }
                }
            }
            let matrix = BitMatrix(width: w, height: h, bits: bits)
            // Also with dark pixels marked 255 (any byte but 0 is dark to both scans).
            pictures += [matrix, matrix.inverted(), BitMatrix(width: w, height: h, bits: bits.map { $0 == 0 ? 0 : 255 })]
        }
        for kind in NegativeTextures.Kind.allCases {
            pictures.append(HybridBinarizer.binarize(NegativeTextures.picture(kind, seed: 7)))
        }
        var found = 0
        for (n, matrix) in pictures.enumerated() {
            let detector = QRDetector(image: matrix, gray: nil)
            let a = detector.findFinderPatterns().map { "\($0.x) \($0.y) \($0.moduleSize) \($0.count)" }
            let b = Self.referenceFinderPatterns(detector).map { "\($0.x) \($0.y) \($0.moduleSize) \($0.count)" }
            #expect(a == b, "picture \(n)")
            found += a.count
        }
        #expect(found >= 10, "only \(found) finder patterns: the comparison proves little")
    }

    @Test func invertedCopiesInvertEveryPixel() {
        let image = Self.picture(width: 67, height: 50, seed: 5)
        #expect(image.inverted().pixels == image.pixels.map { 255 - $0 })
        let binary = HybridBinarizer.binarize(image)
        #expect(binary.inverted().bits == binary.bits.map { $0 ^ 1 })
    }
}
