import Foundation
/// Scans rows (or columns) of an image for 1-D symbols, zxing-cpp style: rows from the middle outwards,
/// each read in both directions, a symbol confirmed by at least `minLineCount` rows.
struct LinearScanner {
    struct Candidate {
        var format: BarcodeFormat
        var text: String
        var lineCount: Int
        /// Lines on which every element matched one pattern clearly.
        var clearLines: Int
        /// Lines on which these digits were seen as a fragment of a longer symbol (``LinearHit/fragment``), counted
        /// apart from `lineCount`.
        var fragmentLines = 0
        var firstRow: Int
        var firstSpan: (Double, Double)
        var lastRow: Int
        var lastSpan: (Double, Double)
        /// Add-ons read after the symbol: lines that read each, and how many of them read it clearly.
        var addOns: [String: (lines: Int, clear: Int)] = [:]
        var minRow: Int { min(self.firstRow, self.lastRow) }
        var maxRow: Int { max(self.firstRow, self.lastRow) }
        var minX: Double { min(self.firstSpan.0, self.lastSpan.0) }
        var maxX: Double { max(self.firstSpan.1, self.lastSpan.1) }
    }

    typealias Decoder = (UnsafeBufferPointer<Int32>, Int) -> (hit: LinearHit?, guardIndex: Int?)

    /// Histogram pattern rows of one image kept by a dense pass for a later pass over a subset of its lines (a
    /// scanner of the image's negative reads the same runs with the colours swapped, ``LinearScanner/negative``):
    /// the lines `middle ± k × step` of a sparser scanner, where `step` is that scanner's line step.
    final class RunCache {
        let sparseRowDivisor: Int
        var rows: [Int: [Int32]] = [:]
        var columns: [Int: [Int32]] = [:]
        /// The local-threshold runs of the image's negative on the sparser scanner's lines, binarised beside the
        /// image's own by its local pass (``RowBinarizer/localPatternRows(_:into:negative:)``), for the negative's.
        var negativeLocalRows: [Int: [Int32]] = [:]
        var negativeLocalColumns: [Int: [Int32]] = [:]
        init(sparseRowDivisor: Int) { self.sparseRowDivisor = sparseRowDivisor }

        /// Whether the sparser scanner visits `line` of `lines` (not counting its check lines).
        func wants(_ line: Int, of lines: Int) -> Bool {
            (line - lines / 2) % max(1, lines / self.sparseRowDivisor) == 0
        }
    }

    /// ITF digits seen as a fragment of a longer symbol on some line (``LinearHit/fragment``) by any pass over one
    /// image: a later pass (another threshold, the other direction) may read them on lines that miss the rest.
    final class FragmentLog {
        var lines: [String: Int] = [:]
        /// Lines that read the same digits with no end after them (``LinearHit/unended``), by format and digits.
        var unended: [Key: Int] = [:]

        struct Key: Hashable {
            var format: BarcodeFormat
            var text: String
        }

        func unended(_ format: BarcodeFormat, _ text: String) -> Int {
            self.unended[Key(format: format, text: text)] ?? 0
        }

        /// Lines that read more characters than `text` in one reading holding it, with no end after them.
        func unendedLonger(_ format: BarcodeFormat, than text: String) -> Int {
            self.unended.reduce(0) {
                $0 + ($1.key.format == format && $1.key.text.count > text.count && $1.key.text.contains(text) ? $1.value : 0)
            }
        }

        func countUnended(_ hit: LinearHit) { self.unended[Key(format: hit.format, text: hit.text), default: 0] += 1 }

        /// ITFs whose ends a pass found to be no ends across the bars (``LinearScanner/endsAreEnds(_:rotated:)``),
        /// and short GTINs that the symbol's axis read as a part of a longer one
        /// (``LinearScanner/axisReadsLonger(_:rotated:)``).
        var openEnded: Set<Key> = []

        /// Lines that read digits backwards from an ITF's end with no start before them (``LinearHit/unstarted``).
        var unstarted: [String: Int] = [:]
        /// The directions and thresholds whose lines were read for ``unstarted`` (`rotated negative binarization`).
        var unstartedRead: Set<String> = []

        /// Lines that read these digits backwards from an ITF's end with no start before them: `longer` those that
        /// read more pairs before them, the others exactly these digits.
        func unstarted(_ text: String, longer: Bool) -> Int {
            longer
                ? self.unstarted.reduce(0) { $0 + ($1.key.count > text.count && $1.key.hasSuffix(text) ? $1.value : 0) }
                : self.unstarted[text] ?? 0
        }

        /// Halves of EAN-13s and UPC-As that lines saw with no more of the symbol (``LinearHit/half``): the lines
        /// (columns when `rotated`) and their spans, at most ``maxHalves``.
        var halves: [(rotated: Bool, line: Int, span: (Double, Double))] = []
        static let maxHalves = 32

        /// The readings at places where a pass read one GTIN (or one ITF, Code 39 or Code 128) two ways and reported
        /// neither, with the direction of their lines: a later pass (another threshold, fewer lines) that reads one
        /// way there needs a clear majority over the lines that read it otherwise, in that pass and here.
        var disputed: [(place: Candidate, rotated: Bool)] = []

        /// Every GTIN reading of every pass over the image so far, confirmed or not (one line is a vote too), with the
        /// direction of its lines: a later pass, or the end of the first stage, counts them
        /// (``LinearScanner/outvoted(_:rotated:)``).
        var gtinReadings: [(place: Candidate, rotated: Bool)] = []

        /// Logs the GTIN readings among `candidates`, read along rows or (`rotated`) columns.
        func logGTINs(_ candidates: [Candidate], rotated: Bool) {
            for c in candidates where c.lineCount > 0 && LinearScanner.gtinFormats.contains(c.format) {
                self.gtinReadings.append((c, rotated))
            }
        }
    }

    let image: GrayscaleImage
    let decoders: [Decoder]
    let minLineCount: Int
    let rowDivisor: Int
    /// Where the histogram pass leaves the runs of the lines a sparser pass also visits, and where a sparser
    /// pass looks for them first (a line not found there is binarised as usual).
    let runCache: RunCache?
    /// Shared by the passes over one image.
    let fragments: FragmentLog
    /// The lines that may cross a symbol (``LineGate``); the others are skipped.
    let gate: LineGate?
    /// `image` is the negative of the image whose runs `runCache` holds (light symbols on a dark ground, read dark
    /// on light): runs taken from the cache have their colours swapped, and none are left there.
    let negative: Bool

    init(
        image: GrayscaleImage, formats: Set<BarcodeFormat>, minLineCount: Int, rowDivisor: Int,
        runCache: RunCache? = nil, negative: Bool = false, fragments: FragmentLog = FragmentLog(), gate: LineGate? = nil
    ) {
        self.image = image
        self.negative = negative
        self.gate = gate
        self.fragments = fragments
        self.minLineCount = minLineCount
        self.rowDivisor = rowDivisor
        self.runCache = runCache
        var d: [Decoder] = []
        if !formats.isDisjoint(with: [.ean13, .ean8, .upcA, .upcE]) {
            d.append({ UPCEAN.decode($0, from: $1) })
        }
        if formats.contains(.code39) { d.append({ Code39.decode($0, from: $1) }) }
        if formats.contains(.code128) { d.append({ Code128.decode($0, from: $1) }) }
        if formats.contains(.itf) { d.append({ ITF.decode($0, from: $1) }) }
        self.decoders = d
    }

    /// How a line becomes runs: the histogram threshold (``RowBinarizer/patternRow(_:into:)``), the local mean,
    /// gradient edges, or the histogram threshold with edges to a third of a pixel (runs in thirds of a pixel).
    enum Binarization {
        case histogram, local, edges, fine

        /// Fills `runs` with `line`'s pattern row this way; false when the line has too little contrast.
        func patternRow(_ line: UnsafeBufferPointer<UInt8>, into runs: inout [Int32]) -> Bool {
            switch self {
            case .histogram: RowBinarizer.patternRow(line, into: &runs)
            case .local: RowBinarizer.localPatternRow(line, into: &runs)
            case .edges: RowBinarizer.edgePatternRow(line, into: &runs)
            case .fine: RowBinarizer.finePatternRow(line, into: &runs)
            }
        }
    }

    /// Scans horizontally (`rotated == false`) or along columns, returning confirmed symbols in image coordinates.
    func scan(rotated: Bool, binarization: Binarization) -> [(barcode: DecodedBarcode, lines: Int)] {
        let candidates = self.scanCandidates(rotated: rotated, binarization: binarization)
        if candidates.contains(where: {
            $0.format == .itf && $0.lineCount >= self.minLineCount && !Self.isCheckedITF14($0.text)
        }) {
            self.readUnstarted(rotated: rotated, binarizations: [.histogram, binarization])
        }
        return self.finish(candidates, rotated: rotated)
    }

    /// How many lines ``readUnstarted(rotated:binarizations:)`` reads across the image: the dense first
    /// pass's.
    static let unstartedRowDivisor = 256

    /// An ITF without a check digit may be the end of a longer one whose start ran off the image or into a shadow
    /// (``ITF/decodeUnstarted``): the lines of the dense pass, read back from ITF ends with the histogram threshold
    /// and with the threshold of the pass that read it, count into ``FragmentLog/unstarted`` the lines that met no
    /// start before the digits they read, like the lines that read on past an end, which every pass counts. Once
    /// an image for each direction and threshold, and only when a pass reads such an ITF: frames without one pay
    /// nothing for it.
    func readUnstarted(rotated: Bool, binarizations: Set<Binarization>) {
        let dense = LinearScanner(
            image: self.image, formats: [.itf], minLineCount: self.minLineCount,
            rowDivisor: max(self.rowDivisor, Self.unstartedRowDivisor), runCache: self.runCache,
            negative: self.negative, fragments: self.fragments, gate: self.gate)
        for binarization in binarizations
        where self.fragments.unstartedRead.insert("\(rotated) \(self.negative) \(binarization)").inserted {
            _ = dense.scanCandidates(
                rotated: rotated, binarization: binarization,
                decoders: [{ ITF.decodeUnstarted($0, from: $1) }])
        }
    }

    /// Every symbol seen on any line (only the lines in `only`, when given), with the number of lines that agreed;
    /// `decoders` in place of the scanner's own, when given.
    func scanCandidates(
        rotated: Bool, binarization: Binarization, only: ClosedRange<Int>? = nil,
        decoders: [Decoder]? = nil
    ) -> [Candidate] {
        let decoders = decoders ?? self.decoders
        guard !decoders.isEmpty else { return [] }
        let length = rotated ? self.image.height : self.image.width
        let lines = rotated ? self.image.width : self.image.height
        var candidates: [Candidate] = []
        var runs: [Int32] = []
        runs.reserveCapacity(256)
        var reversed: [Int32] = []
        reversed.reserveCapacity(256)
        var lineBuffer = [UInt8](repeating: 0, count: length)
        // Pattern-row units per pixel.
        let unit = binarization == .fine ? Double(RowBinarizer.fineScale) : 1
        let middle = lines / 2
        let rowStep = max(1, lines / self.rowDivisor)
        var checkRows: [Int] = []
        var i = 0
        self.image.pixels.withUnsafeBufferPointer { pixels in
            while true {
                var isCheckRow = false
                var row: Int
                if let r = checkRows.popLast() {
                    row = r
                    isCheckRow = true
                    if row < 0 || row >= lines { continue }
                } else {
                    let steps = (i + 1) / 2
                    row = middle + rowStep * (i & 1 == 0 ? steps : -steps)
                    i += 1
                    if row < 0 || row >= lines { break }
                }
                if let only, !only.contains(row) { continue }
                if let gate = self.gate, !(rotated ? gate.columns[row] : gate.rows[row]) { continue }
                if binarization == .histogram, let cache = self.runCache,
                    let cached = rotated ? cache.columns[row] : cache.rows[row]
                {
                    // The same line, binarised the same way by the dense pass: its runs (empty: too little contrast).
                    guard !cached.isEmpty else { continue }
                    runs.removeAll(keepingCapacity: true)
                    runs.append(contentsOf: cached)
                    if self.negative {
                        // The same edges with the colours swapped: the first (light) run is the cached line's
                        // first dark one.
                        if runs.first == 0 { runs.removeFirst() } else { runs.insert(0, at: 0) }
                    }
                } else if binarization == .local, self.negative, !isCheckRow, let cache = self.runCache,
                    let cached = rotated ? cache.negativeLocalColumns[row] : cache.negativeLocalRows[row]
                {
                    // This line of the negative, binarised by the image's own local pass (empty: not a pattern row).
                    guard !cached.isEmpty else { continue }
                    runs.removeAll(keepingCapacity: true)
                    runs.append(contentsOf: cached)
                } else {
                    // Extract the line.
                    // Through raw pointers: element-wise array stores paid a uniqueness and a bounds check each.
                    lineBuffer.withUnsafeMutableBufferPointer { lb in
                        guard let dst = lb.baseAddress, let src = pixels.baseAddress else { return }
                        if rotated {
                            let w = self.image.width
                            for y in 0..<length { dst[y] = src[y * w + row] }
                        } else {
                            dst.update(from: src + row * length, count: length)
                        }
                    }
                    let ok: Bool
                    if binarization == .local, !self.negative, !isCheckRow, let cache = self.runCache,
                        cache.wants(row, of: lines)
                    {
                        // The negative's runs of this line come with the image's (the window sums are shared).
                        var negativeRuns: [Int32]? = []
                        let both = lineBuffer.withUnsafeBufferPointer {
                            RowBinarizer.localPatternRows($0, into: &runs, negative: &negativeRuns)
                        }
                        ok = both.ok
                        let kept = both.negativeOK ? negativeRuns ?? [] : []
                        if rotated { cache.negativeLocalColumns[row] = kept } else { cache.negativeLocalRows[row] = kept }
                    } else {
                        ok = lineBuffer.withUnsafeBufferPointer { binarization.patternRow($0, into: &runs) }
                    }
                    if binarization == .histogram, !self.negative, !isCheckRow, let cache = self.runCache,
                        cache.wants(row, of: lines)
                    {
                        if rotated { cache.columns[row] = ok ? runs : [] } else { cache.rows[row] = ok ? runs : [] }
                    }
                    guard ok else { continue }
                }
                if runs.count % 2 == 0 { runs.append(0) }
                reversed.removeAll(keepingCapacity: true)
                reversed.append(contentsOf: runs.reversed())
                var found = false
                for upsideDown in [false, true] {
                    let current = upsideDown ? reversed : runs
                    current.withUnsafeBufferPointer { buf in
                        for decoder in decoders {
                            var from = 1
                            while from < buf.count {
                                let (hit, g) = decoder(buf, from)
                                if let hit, hit.unended {
                                    self.fragments.countUnended(hit)
                                } else if let hit, hit.unstarted {
                                    self.fragments.unstarted[hit.text, default: 0] += 1
                                } else if let hit, hit.half {
                                    if self.fragments.halves.count < FragmentLog.maxHalves {
                                        let span = Self.span(of: hit, in: buf, length: length, unit: unit, upsideDown: upsideDown)
                                        self.fragments.halves.append((rotated, row, span))
                                    }
                                } else if let hit {
                                    let span = Self.span(of: hit, in: buf, length: length, unit: unit, upsideDown: upsideDown)
                                    if hit.format == .upcE, hit.text.utf8.first == UInt8(ascii: "1"),
                                        !self.isBlankAfterUPCE(line: row, rotated: rotated, span: span, leftwards: upsideDown)
                                    {
                                        self.fragments.countUnended(hit)
                                    } else {
                                        self.record(hit, row: row, span: span, into: &candidates)
                                        found = true
                                    }
                                }
                                guard let g else { break }
                                from = g + 2
                            }
                        }
                    }
                }
                if found && !isCheckRow && self.minLineCount > 1 && rowStep > 1 {
                    checkRows = [row - 1, row + 1]
                    if rowStep > 2 { checkRows += [row - 2, row + 2] }
                }
            }
        }
        return candidates
    }

    /// Where `hit` lies along its line of `length` pixels, in pixels (runs of `unit` to a pixel); `upsideDown` when
    /// `runs` are the line's runs reversed.
    static func span(
        of hit: LinearHit, in runs: UnsafeBufferPointer<Int32>, length: Int, unit: Double, upsideDown: Bool
    ) -> (Double, Double) {
        var x0 = 0
        for k in 0..<hit.start { x0 += Int(runs[k]) }
        var x1 = x0
        for k in hit.start..<hit.end { x1 += Int(runs[k]) }
        let span = (Double(x0) / unit, Double(x1) / unit)
        return upsideDown ? (Double(length) - span.1, Double(length) - span.0) : span
    }

    /// The pixel at `x` along `line` (a row, or a column when `rotated`).
    func pixel(_ x: Int, of line: Int, rotated: Bool) -> UInt8 {
        rotated ? self.image.pixels[x * self.image.width + line] : self.image.pixels[line * self.image.width + x]
    }

    /// The mean of the pixels at `x - 1`, `x` and `x + 1` along `line` (the line's ends repeated), so that noise
    /// alone makes no bar.
    func meanOfThree(_ x: Int, of line: Int, rotated: Bool) -> Int {
        let length = rotated ? self.image.height : self.image.width
        return (Int(self.pixel(max(0, x - 1), of: line, rotated: rotated)) + Int(self.pixel(x, of: line, rotated: rotated))
            + Int(self.pixel(min(length - 1, x + 1), of: line, rotated: rotated))) / 3
    }

    /// Whether the quiet zone after a UPC-E of number system 1 (whose digits an EAN-13's left half also reads
    /// as, ``UPCEAN``) is free of bars in the pixels of `line`, not only at this line's threshold. Blur and a
    /// threshold set by darker bars elsewhere on the line turn an EAN-13's thin right-hand bars into one white run:
    /// a quiet zone at that threshold, and the left half reads as this UPC-E. A bar is a dip below the white there
    /// by a fifth of the symbol's contrast for a module or more, two to six modules after the end guard (clear of
    /// its last bar's blur), that comes back within a tenth of it in four modules; a step into a darker surround (a
    /// label's edge, a shadow) does not come back. Pixels are means of three, so that noise alone makes no bar.
    func isBlankAfterUPCE(line: Int, rotated: Bool, span: (Double, Double), leftwards: Bool) -> Bool {
        let length = rotated ? self.image.height : self.image.width
        let module = (span.1 - span.0) / 51
        func mean(_ x: Int) -> Int { self.meanOfThree(x, of: line, rotated: rotated) }
        var dark = 255
        for x in max(0, Int(span.0))..<max(0, min(length, Int(span.1))) { dark = min(dark, mean(x)) }
        let edge = leftwards ? span.0 : span.1
        // The pixels from the end guard outwards.
        var after: [Int] = []
        for k in 0...Int(10 * module) {
            let x = Int(edge + (leftwards ? -1.0 : 1.0) * Double(k))
            guard x >= 0, x < length else { break }
            after.append(mean(x))
        }
        let from = Int(2 * module)
        let to = min(after.count - 1, Int(6 * module))
        guard from < to else { return true }
        let white = after[Int(0.5 * module)...to].max() ?? 0
        let contrast = Double(max(white - dark, 1))
        var below = 0
        for k in from...to {
            if Double(white - after[k]) > 0.2 * contrast { below += 1 } else { below = 0 }
            guard below > 0, Double(below) >= module, k + 1 < after.count else { continue }
            let back = after[(k + 1)...min(after.count - 1, k + Int(4 * module) + 1)]
            if back.contains(where: { Double(white - $0) <= 0.1 * contrast }) { return false }
        }
        return true
    }

    /// Whether an ITF's ends are ends across its bars, not only on the lines that read it: beside each end, on the
    /// lines two and three narrow elements to either side of the line midway between those that read it, the quiet
    /// zone holds no bar. A line that crosses a symbol tilted more than its height allows leaves it through the
    /// bars' ends (its top or bottom edge), and the stop pattern it found there is pieces of bars (the ITF read as
    /// its first pairs): a line or two further into the symbol, the bars go on past that "end". The quiet zone is
    /// looked at from two to six narrow elements beyond the end, which allows for a tilt of up to a half (27°)
    /// between the lines; a bar is a complete dark run there (light on both sides) of half a narrow element to 3.6,
    /// below the middle of the reading line's dark and its quiet zone's light; a shadow's edge, or a bearer bar
    /// along the lines, is not one. Pixels are means of three. A refusal is kept for the later passes over the
    /// same image. (Not for UPC-E and EAN-8, whose check and number-system digits are printed in that quiet zone:
    /// on 9,625 images the same test, then on the first and the last line, lost 56 UPC-E reads.)
    func endsAreEnds(_ c: Candidate, rotated: Bool) -> Bool {
        let key = FragmentLog.Key(format: c.format, text: c.text)
        if self.fragments.openEnded.contains(key) { return false }
        // Narrow elements with wide ones 2.5 narrow: start 4, each digit 8, stop 4.5.
        let modules = 8 * Double(c.text.utf8.count) + 8.5
        // Midway between the first and the last line that read it: the lines at either extreme may lie at the bars'
        // top or bottom, where the lines beside them cross the print above or below a symbol (its digits, a label).
        let line = (c.firstRow + c.lastRow) / 2
        let span = ((c.firstSpan.0 + c.lastSpan.0) / 2, (c.firstSpan.1 + c.lastSpan.1) / 2)
        guard self.endsAreEnds(line: line, span: span, module: (span.1 - span.0) / modules, rotated: rotated) else {
            self.fragments.openEnded.insert(key)
            return false
        }
        return true
    }

    /// ``endsAreEnds(_:rotated:)`` for the reading of one line.
    func endsAreEnds(line: Int, span: (Double, Double), module: Double, rotated: Bool) -> Bool {
        let length = rotated ? self.image.height : self.image.width
        let lines = rotated ? self.image.width : self.image.height
        guard module >= 0.5 else { return true }
        func mean(_ x: Int, _ l: Int) -> Int { self.meanOfThree(x, of: l, rotated: rotated) }
        for (end, outwards, middle) in self.endsWithContrast(line: line, span: span, module: module, rotated: rotated) {
            for offset in [2.0, -2.0, 3.0, -3.0] {
                let other = line + Int((offset * module).rounded())
                guard other >= 0, other < lines else { continue }
                // Runs below the middle, from the first light pixel on: a bar is one that ends in light again.
                var sawLight = false
                var darkRun = 0
                for k in Int(2 * module)...Int(6 * module) {
                    let x = Int(end + outwards * Double(k))
                    guard x >= 0, x < length else { break }
                    if mean(x, other) < middle {
                        if sawLight { darkRun += 1 }
                    } else {
                        if darkRun > 0, Double(darkRun) >= 0.5 * module, Double(darkRun) <= 3.6 * module { return false }
                        sawLight = true
                        darkRun = 0
                    }
                }
            }
        }
        return true
    }

    /// The two ends of a reading on `line` (`span`, in pixels along it; modules of `module` pixels), each with the
    /// direction away from the symbol and the grey level midway between the line's darkest pixel over the symbol and
    /// the lightest of its quiet zone one to five modules out (pixels are means of three); an end whose quiet zone is
    /// within 16 grey levels of that dark is left out.
    func endsWithContrast(
        line: Int, span: (Double, Double), module: Double, rotated: Bool
    ) -> [(end: Double, outwards: Double, middle: Int)] {
        let length = rotated ? self.image.height : self.image.width
        func mean(_ x: Int) -> Int { self.meanOfThree(x, of: line, rotated: rotated) }
        var dark = 255
        for x in max(0, Int(span.0))..<max(0, min(length, Int(span.1))) { dark = min(dark, mean(x)) }
        return [(span.1, 1.0), (span.0, -1.0)].compactMap { end, outwards in
            var light = 0
            for k in Int(module)...Int(5 * module) {
                let x = Int(end + outwards * Double(k))
                guard x >= 0, x < length else { break }
                light = max(light, mean(x))
            }
            return light - dark >= 16 ? (end, outwards, (light + dark) / 2) : nil
        }
    }

    /// Whether bars go on past either end of a short GTIN (UPC-E, EAN-8) on a line beside those that read it: a line
    /// that crosses a longer symbol near its bars' ends (its top or bottom edge, tilted against the lines by the
    /// symbol's turn or its perspective) leaves it through those ends, and where it does so just after a middle guard,
    /// or anywhere the threshold made one of the bars there, it reads a UPC-E or an EAN-8 whose check digit holds one
    /// time in ten. A line two, four or six modules further in, on either side, crosses the rest of that symbol: after
    /// at most four modules of paper from the reading's end (a symbol's widest space), six bars and spaces or more of
    /// half a module to four and a half, twelve modules together. A real short symbol has its quiet zones there, where
    /// at most the one printed digit beside a guard stands (a glyph's two or three strokes, then paper), and an add-on
    /// starts five modules out or more (seven in the specification); on a line where the symbol's end lies further
    /// in, that end's bar comes first and the gap after it breaks the run of elements. Pixels are means of three,
    /// dark below the middle of each end (``endsWithContrast(line:span:module:rotated:)``).
    /// ``axisReadsLonger(_:rotated:)`` reads such a longer symbol along its own axis, when the lines are more than 15°
    /// off it; this one needs no reading of it, only its bars.
    func barsGoOnPastEnds(_ c: Candidate, rotated: Bool) -> Bool {
        guard let modules = Self.modules(of: c.format) else { return false }
        let length = rotated ? self.image.height : self.image.width
        let lines = rotated ? self.image.width : self.image.height
        let line = (c.firstRow + c.lastRow) / 2
        let span = ((c.firstSpan.0 + c.lastSpan.0) / 2, (c.firstSpan.1 + c.lastSpan.1) / 2)
        let module = (span.1 - span.0) / Double(modules)
        guard module >= 0.5 else { return false }
        func mean(_ x: Int, _ l: Int) -> Int { self.meanOfThree(x, of: l, rotated: rotated) }
        for (end, outwards, middle) in self.endsWithContrast(line: line, span: span, module: module, rotated: rotated) {
            for offset in [2.0, -2.0, 4.0, -4.0, 6.0, -6.0] {
                let other = line + Int((offset * module).rounded())
                guard other >= 0, other < lines, other != line else { continue }
                // The runs from the end outwards, light first.
                var runs: [Int] = [0]
                var isDark = false
                for k in 0...Int(16 * module) {
                    let x = Int(end + outwards * Double(k))
                    guard x >= 0, x < length else { break }
                    let d = mean(x, other) < middle
                    if d != isDark {
                        runs.append(0)
                        isDark = d
                    }
                    runs[runs.count - 1] += 1
                }
                guard runs.count > 1, Double(runs[0]) <= 4 * module + 1 else { continue }
                var elements = 0
                var width = 0.0
                for run in runs.dropFirst() {
                    let w = Double(run)
                    guard w >= 0.5 * module, w <= 4.5 * module + 1 else { break }
                    elements += 1
                    width += w
                }
                if elements >= 6 && width >= 12 * module { return true }
            }
        }
        return false
    }

    /// Whether a short GTIN (UPC-E, EAN-8) or an ITF without a check digit read on lines that cross its bars obliquely
    /// is a part of a longer symbol, read along that symbol's own axis. A line across an EAN-13 turned further than its
    /// bars' height allows leaves it through the bars' ends (its long edge); one that does so just after the middle
    /// guard reads the left half as a UPC-E (the middle guard and the next bar make UPC-E's end guard, paper after it),
    /// whose check digit holds one time in ten, and no line crosses the whole symbol to say otherwise. The image's
    /// gradients over the reading give the direction across the bars (``gradientDirection(line:span:rotated:)``); lines
    /// sampled from the image in that direction (bilinear, two samples a pixel), through the reading's middle and a
    /// sixth of its width to either side along the bars, reach the rest of the symbol. One that reads an EAN-13 or
    /// UPC-A over that middle, or the same digits going on into bars (``UPCEAN``'s unended UPC-E), at any of three
    /// thresholds, refuses the reading; the refusal is kept for the later passes over the image. Only for lines more
    /// than 15° off the axis: nearer it, the lines that read it would have met the rest. An ITF the same way: lines
    /// leaving one turned further than its bars' height allows through the bars' ends find a stop pattern in the cut
    /// bars and read its first pairs (an ITF-14 as 8 digits); the axis reads the longer ITF that holds them, or them
    /// going on with no end. (``endsAreEnds(_:rotated:)`` looks for the bars going on beside such an end, which covers
    /// turns up to about 27°.)
    func axisReadsLonger(_ c: Candidate, rotated: Bool) -> Bool {
        let key = FragmentLog.Key(format: c.format, text: c.text)
        if self.fragments.openEnded.contains(key) { return true }
        let line = Double(c.firstRow + c.lastRow) / 2
        let span = ((c.firstSpan.0 + c.lastSpan.0) / 2, (c.firstSpan.1 + c.lastSpan.1) / 2)
        guard let axis = self.gradientDirection(line: Int(line), span: span, rotated: rotated) else { return false }
        // The cosine of the angle between the lines and the axis.
        let cosine = abs(rotated ? axis.1 : axis.0)
        guard cosine < 0.966 else { return false }
        let bars = (-axis.1, axis.0)
        let width = (span.1 - span.0) * cosine
        let isITF = c.format == .itf
        // Narrow elements of an ITF (start 4, each digit 8 with wide ones 2.5 narrow, stop 4.5), modules of a GTIN.
        let module = width / (isITF ? 8 * Double(c.text.utf8.count) + 8.5 : c.format == .ean8 ? 67 : 51)
        guard module >= 1 else { return false }
        let middle = (span.0 + span.1) / 2
        let centre = rotated ? (line, middle) : (middle, line)
        // Far enough for an EAN-13 with an add-on whichever end the reading lies at, and for an ITF of up to three
        // times the digits read (an ITF-14's first 4) and its quiet zones.
        let reach = isITF ? 2.5 * width + 20 * module : 140 * module
        let decoder: Decoder = isITF ? { ITF.decode($0, from: $1) } : { UPCEAN.decode($0, from: $1) }
        for offset in [0.0, -width / 6, width / 6] {
            let through = (centre.0 + bars.0 * offset, centre.1 + bars.1 * offset)
            let hits = self.axisHits(through: through, axis: axis, reach: reach, decoder: decoder)
            if hits.contains(where: {
                isITF
                    ? $0.hit.format == .itf && $0.hit.text.contains(c.text)
                        && ($0.hit.text.utf8.count > c.text.utf8.count || $0.hit.unended)
                    : (($0.hit.format == .ean13 || $0.hit.format == .upcA) && !$0.hit.half && !$0.hit.unended)
                        || ($0.hit.unended && $0.hit.format == c.format && $0.hit.text == c.text)
            }) {
                self.fragments.openEnded.insert(key)
                return true
            }
        }
        return false
    }

    /// EAN/UPC symbols read along the axes of symbols turned further than their bars' height allows, where the
    /// passes saw halves of them (``FragmentLog/halves``): no row or column crosses such a symbol whole, and
    /// lines that cross one of its halves from guard to guard leave it through the bars' ends. At each place (one
    /// try for halves within half a half's width of each other), lines sampled in the direction across the bars
    /// (``gradientDirection(line:span:rotated:)``; only where the lines were more than 15° off it) through the
    /// half's middle and a sixth of the half's width to either side along the bars are read at three thresholds
    /// (``axisHits(through:axis:reach:)``). An EAN-13 or UPC-A read over the middle on two of the three lines,
    /// clearly on one, and no other read there, is reported, with an add-on read so on two lines.
    func readAlongAxes() -> [(barcode: DecodedBarcode, lines: Int)] {
        var found: [(barcode: DecodedBarcode, lines: Int)] = []
        var tried: [(Double, Double, Double)] = []
        for half in self.fragments.halves {
            let size = half.span.1 - half.span.0
            let middle = (half.span.0 + half.span.1) / 2
            let centre = half.rotated ? (Double(half.line), middle) : (middle, Double(half.line))
            if tried.contains(where: { abs($0.0 - centre.0) + abs($0.1 - centre.1) < min($0.2, size) / 2 }) { continue }
            tried.append((centre.0, centre.1, size))
            guard let axis = self.gradientDirection(line: half.line, span: half.span, rotated: half.rotated) else {
                continue
            }
            let cosine = abs(half.rotated ? axis.1 : axis.0)
            let width = size * cosine
            // Start guard, six digits and the middle guard: 50 modules.
            guard cosine < 0.966, width / 50 >= 1 else { continue }
            let bars = (-axis.1, axis.0)
            var texts: [String: (lines: Int, clear: Bool, addOns: [String: Int], span: (Double, Double))] = [:]
            for offset in [0.0, -width / 6, width / 6] {
                let through = (centre.0 + bars.0 * offset, centre.1 + bars.1 * offset)
                var seen = Set<String>()
                for (hit, span) in self.axisHits(through: through, axis: axis, reach: 110 * width / 50)
                where !hit.half && !hit.unended && (hit.format == .ean13 || hit.format == .upcA) {
                    var entry = texts[hit.text] ?? (0, false, [:], span)
                    if seen.insert(hit.text).inserted {
                        entry.lines += 1
                        if let add = hit.addOn { entry.addOns[add, default: 0] += 1 }
                    }
                    entry.clear = entry.clear || hit.clear
                    if offset == 0 { entry.span = span }
                    texts[hit.text] = entry
                }
            }
            guard texts.count == 1, let (text, entry) = texts.first, entry.lines >= 2, entry.clear,
                !found.contains(where: { $0.barcode.text == text })
            else { continue }
            let side = width / 6
            func point(_ across: Double, _ t: Double) -> Point {
                Point(x: centre.0 + bars.0 * across + axis.0 * t, y: centre.1 + bars.1 * across + axis.1 * t)
            }
            let corners = [
                point(-side, entry.span.0), point(-side, entry.span.1), point(side, entry.span.1), point(side, entry.span.0),
            ]
            let addOn = entry.addOns.first { $0.value >= 2 }?.key
            let barcode = DecodedBarcode(
                format: text.utf8.count == 12 ? .upcA : .ean13, text: text, rawBytes: nil, corners: corners, addOn: addOn)
            found.append((barcode, entry.lines))
        }
        return found
    }

    /// The readings of `decoder` (EAN/UPC by default; halves and unended ones included) over the middle of a line
    /// sampled from the image through `through` along the unit vector `axis`, `reach` pixels to either side
    /// (bilinear, two samples a pixel), in either direction, at the histogram threshold, the local one and the
    /// gradient edges; each with its place along the line, in pixels from `through`.
    func axisHits(
        through: (Double, Double), axis: (Double, Double), reach: Double,
        decoder: Decoder = { UPCEAN.decode($0, from: $1) }
    ) -> [(hit: LinearHit, span: (Double, Double))] {
        let samplesEachSide = Int(2 * reach)
        var samples = [UInt8](repeating: 0, count: 2 * samplesEachSide + 1)
        var first = samples.count
        var last = -1
        for k in 0..<samples.count {
            let t = Double(k - samplesEachSide) / 2
            guard let v = self.bilinear(x: through.0 + axis.0 * t, y: through.1 + axis.1 * t) else { continue }
            samples[k] = v
            first = min(first, k)
            last = max(last, k)
        }
        // The sampled part of the line must hold its middle.
        guard first < samplesEachSide, last > samplesEachSide else { return [] }
        let middle = Double(samplesEachSide - first)
        var result: [(hit: LinearHit, span: (Double, Double))] = []
        samples[first...last].withUnsafeBufferPointer { line in
            var runs: [Int32] = []
            for binarization in [Binarization.histogram, .local, .edges] {
                guard binarization.patternRow(line, into: &runs) else { continue }
                if runs.count % 2 == 0 { runs.append(0) }
                for upsideDown in [false, true] {
                    let current: [Int32] = upsideDown ? runs.reversed() : runs
                    current.withUnsafeBufferPointer { buf in
                        var from = 1
                        while from < buf.count {
                            let (hit, g) = decoder(buf, from)
                            if let hit {
                                let span = Self.span(of: hit, in: buf, length: line.count, unit: 1, upsideDown: upsideDown)
                                if span.0 <= middle && middle <= span.1 {
                                    result.append((hit, ((span.0 - middle) / 2, (span.1 - middle) / 2)))
                                }
                            }
                            guard let g else { break }
                            from = g + 2
                        }
                    }
                }
            }
        }
        return result
    }

    /// The luminance at a point between pixels, interpolated from the four around it; nil outside the image.
    func bilinear(x: Double, y: Double) -> UInt8? {
        let w = self.image.width
        let h = self.image.height
        guard w >= 2, h >= 2, x >= 0, y >= 0, x <= Double(w - 1), y <= Double(h - 1) else { return nil }
        let x0 = min(Int(x), w - 2)
        let y0 = min(Int(y), h - 2)
        let fx = x - Double(x0)
        let fy = y - Double(y0)
        let p = self.image.pixels
        let i = y0 * w + x0
        let top = Double(p[i]) * (1 - fx) + Double(p[i + 1]) * fx
        let bottom = Double(p[i + w]) * (1 - fx) + Double(p[i + w + 1]) * fx
        return UInt8((top * (1 - fy) + bottom * fy).rounded())
    }

    /// The direction across a symbol's bars (a unit vector in image coordinates) from the image's gradients over
    /// a reading (`span` along `line`, and the lines two either side): the principal direction of their structure
    /// tensor (the sum of each gradient's outer product with itself), which a bar's two edges share whichever way
    /// light turns to dark. Nil where the pixels are flat.
    func gradientDirection(line: Int, span: (Double, Double), rotated: Bool) -> (Double, Double)? {
        let w = self.image.width
        let h = self.image.height
        let lines = rotated ? w : h
        let length = rotated ? h : w
        var xx = 0.0, yy = 0.0, xy = 0.0
        let p = self.image.pixels
        let along = max(1, Int(span.0))..<max(1, Int(span.0), min(length - 1, Int(span.1)))
        for l in max(1, line - 2)...max(1, line - 2, min(lines - 2, line + 2)) {
            for a in along {
                let (x, y) = rotated ? (l, a) : (a, l)
                guard x >= 1, y >= 1, x < w - 1, y < h - 1 else { continue }
                let i = y * w + x
                // Sobel.
                let gx =
                    Double(Int(p[i - w + 1]) + 2 * Int(p[i + 1]) + Int(p[i + w + 1]))
                    - Double(Int(p[i - w - 1]) + 2 * Int(p[i - 1]) + Int(p[i + w - 1]))
                let gy =
                    Double(Int(p[i + w - 1]) + 2 * Int(p[i + w]) + Int(p[i + w + 1]))
                    - Double(Int(p[i - w - 1]) + 2 * Int(p[i - w]) + Int(p[i - w + 1]))
                xx += gx * gx
                yy += gy * gy
                xy += gx * gy
            }
        }
        guard xx + yy > 0 else { return nil }
        let angle = 0.5 * atan2(2 * xy, xx - yy)
        return (cos(angle), sin(angle))
    }

    private func record(_ hit: LinearHit, row: Int, span: (Double, Double), into candidates: inout [Candidate]) {
        func vote(_ c: inout Candidate) {
            guard let add = hit.addOn else { return }
            let old = c.addOns[add] ?? (0, 0)
            c.addOns[add] = (old.lines + 1, old.clear + (hit.addOnClear ? 1 : 0))
        }
        if hit.fragment {
            self.fragments.lines[hit.text, default: 0] += 1
            if let k = candidates.firstIndex(where: { $0.format == hit.format && $0.text == hit.text }) {
                candidates[k].fragmentLines += 1
            } else {
                candidates.append(
                    Candidate(
                        format: hit.format, text: hit.text, lineCount: 0, clearLines: 0, fragmentLines: 1,
                        firstRow: row, firstSpan: span, lastRow: row, lastSpan: span))
            }
            return
        }
        for k in candidates.indices where candidates[k].format == hit.format && candidates[k].text == hit.text {
            // The same symbol again: extend its extent.
            vote(&candidates[k])
            candidates[k].lineCount += 1
            if hit.clear { candidates[k].clearLines += 1 }
            if row < candidates[k].minRow {
                if candidates[k].firstRow < candidates[k].lastRow {
                    candidates[k].firstRow = row
                    candidates[k].firstSpan = span
                } else {
                    candidates[k].lastRow = row
                    candidates[k].lastSpan = span
                }
            } else if row > candidates[k].maxRow {
                if candidates[k].firstRow > candidates[k].lastRow {
                    candidates[k].firstRow = row
                    candidates[k].firstSpan = span
                } else {
                    candidates[k].lastRow = row
                    candidates[k].lastSpan = span
                }
            }
            return
        }
        var c = Candidate(
            format: hit.format, text: hit.text, lineCount: 1, clearLines: hit.clear ? 1 : 0, firstRow: row, firstSpan: span,
            lastRow: row, lastSpan: span)
        vote(&c)
        candidates.append(c)
    }

    /// The add-on to report with a symbol: read on at least `minLineCount` lines, clearly on one of them, and by a
    /// clear majority over any other add-on read after the same symbol (as for the main code).
    func confirmedAddOn(_ c: Candidate) -> String? {
        let ranked = c.addOns.sorted { $0.value.lines > $1.value.lines }
        guard let best = ranked.first, best.value.lines >= self.minLineCount, best.value.clear >= 1 else { return nil }
        let second = ranked.count > 1 ? ranked[1].value.lines : 0
        guard Self.isClearMajority(best.value.lines, over: second) else { return nil }
        return best.key
    }

    /// Symbols that a fragment of a longer symbol can pass for, and the symbols they hide in.
    static let shortFormats: Set<BarcodeFormat> = [.ean8, .upcE]
    static let longFormats: Set<BarcodeFormat> = [.ean13, .upcA, .itf, .code128, .code39]
    static let gtinFormats: Set<BarcodeFormat> = [.ean13, .upcA, .ean8, .upcE]
    /// Symbols of any text or length, with a weak check or none, that one print read two ways can pass for.
    static let textFormats: Set<BarcodeFormat> = [.itf, .code39, .code128]

    /// A clear majority of `votes` lines over `others`: twice as many, and at least two more.
    static func isClearMajority(_ votes: Int, over others: Int) -> Bool {
        votes >= 2 * others && votes >= others + 2
    }

    /// Whether `text` is a GS1 ITF-14: 14 digits whose last is the GTIN check digit of the others.
    static func isCheckedITF14(_ text: String) -> Bool {
        text.utf8.count == 14 && (try? UPCEAN.validateCheckDigit(text)) != nil
    }

    /// The lines (rows, or columns when `rotated`) that cross the points, and this scanner's ``nearLines(rotated:)``
    /// beyond them on each side.
    func linesAcross(_ points: [Point], rotated: Bool) -> ClosedRange<Int> {
        let across = points.map { Int(rotated ? $0.x : $0.y) }
        let lineCount = rotated ? self.image.width : self.image.height
        let margin = self.nearLines(rotated: rotated)
        return max(0, (across.min() ?? 0) - margin)...max(0, min(lineCount - 1, (across.max() ?? 0) + margin))
    }

    /// How many lines apart two readings may lie and still be at the same place: two of this scanner's line steps
    /// and two lines more.
    func nearLines(rotated: Bool) -> Int {
        2 * max(1, (rotated ? self.image.width : self.image.height) / self.rowDivisor) + 2
    }

    /// Whether the candidates of another pass over the same lines (`rotated` as that pass) contradict `barcode`, a
    /// GTIN: another GTIN of its length read clearly at the same place (its columns, and rows within two line
    /// steps), and `barcode`'s own digits read nowhere there, or never clearly and on far fewer lines than the
    /// other's clear ones (a clear majority).
    func contradicts(_ barcode: DecodedBarcode, _ others: [Candidate], rotated: Bool) -> Bool {
        guard Self.gtinFormats.contains(barcode.format), !barcode.corners.isEmpty else { return false }
        let here = self.readings(at: barcode, in: others, rotated: rotated)
        let own = Self.gtin13(barcode.text)
        // This pass's readings of the barcode's own digits there: none, or none clear and far fewer lines than the
        // clear readings of another GTIN (a shadow or a perspective skewing the first threshold on most lines).
        let ownLines = here.reduce(0) { $0 + (Self.gtin13($1.text) == own ? $1.lineCount : 0) }
        let ownClear = here.contains { Self.gtin13($0.text) == own && $0.clearLines > 0 }
        return here.contains {
            Self.sameGTINLength($0.format, barcode.format) && Self.gtin13($0.text) != own && $0.clearLines >= 1
                && (ownLines == 0 || (!ownClear && Self.isClearMajority($0.clearLines, over: ownLines)))
        }
    }

    /// Whether the GTIN readings logged for the image (``FragmentLog/gtinReadings``: every pass's lines, at every
    /// threshold, confirmed or not) at `barcode`'s place (its columns, and rows within two of this scanner's line
    /// steps), read along the same direction, give its digits no clear majority over the lines that read another
    /// GTIN of its length there. A symbol the histogram threshold read on few lines, where the local threshold read
    /// other digits or its own as often as others, was read two ways.
    func outvoted(_ barcode: DecodedBarcode, rotated: Bool) -> Bool {
        guard Self.gtinFormats.contains(barcode.format), !barcode.corners.isEmpty else { return false }
        let logged = self.fragments.gtinReadings.filter { $0.rotated == rotated }.map(\.place)
        let here = self.readings(at: barcode, in: logged, rotated: rotated)
            .filter { Self.sameGTINLength($0.format, barcode.format) }
        let (votes, against) = Self.lines(for: barcode.text, in: here)
        return against > 0 && !Self.isClearMajority(votes, over: against)
    }

    /// The lines among `readings` that read `text` (a UPC-A as the EAN-13 it is), and those that read other digits.
    static func lines(for text: String, in readings: [Candidate]) -> (own: Int, other: Int) {
        let own = Self.gtin13(text)
        return readings.reduce((0, 0)) {
            Self.gtin13($1.text) == own ? ($0.0 + $1.lineCount, $0.1) : ($0.0, $0.1 + $1.lineCount)
        }
    }

    /// The GTIN readings among `candidates` at `barcode`'s place: over its columns, on rows within two of this
    /// scanner's line steps of its own.
    func readings(at barcode: DecodedBarcode, in candidates: [Candidate], rotated: Bool) -> [Candidate] {
        let along = barcode.corners.map { rotated ? $0.y : $0.x }
        let across = barcode.corners.map { rotated ? $0.x : $0.y }
        let near = Double(self.nearLines(rotated: rotated))
        return candidates.filter {
            $0.lineCount > 0 && Self.gtinFormats.contains($0.format) && $0.minX < (along.max() ?? 0)
                && (along.min() ?? 0) < $0.maxX && Double($0.minRow) <= (across.max() ?? 0) + near
                && (across.min() ?? 0) <= Double($0.maxRow) + near
        }
    }

    /// Whether the local threshold, on the lines across `barcode` (an ITF without a check digit, read along rows or
    /// `rotated` columns), reads its digits going on with no end after them, or a longer ITF holding them, on more
    /// lines than a clear majority of its own readings allows. Uses this scanner's own ``FragmentLog``.
    func endIsNoneAtTheLocalThreshold(_ barcode: DecodedBarcode, rotated: Bool) -> Bool {
        guard barcode.format == .itf, !Self.isCheckedITF14(barcode.text), !barcode.corners.isEmpty else { return false }
        let only = self.linesAcross(barcode.corners, rotated: rotated)
        let text = barcode.text
        let before = self.fragments.unended(.itf, text) + self.fragments.unendedLonger(.itf, than: text)
        let second = self.scanCandidates(rotated: rotated, binarization: .local, only: only)
        let goingOn = self.fragments.unended(.itf, text) + self.fragments.unendedLonger(.itf, than: text) - before
        let longer = second.reduce(0) {
            $0 + ($1.format == .itf && $1.text.utf8.count > text.utf8.count && $1.text.contains(text) ? $1.lineCount : 0)
        }
        let own = second.reduce(0) { $0 + ($1.format == .itf && $1.text == text ? $1.lineCount : 0) }
        return longer + goingOn > 0 && !Self.isClearMajority(own, over: longer + goingOn)
    }

    /// A UPC-A's 12 digits as the EAN-13 they are (a leading 0); any other reading as it is.
    static func gtin13(_ text: String) -> String { text.utf8.count == 12 ? "0" + text : text }

    /// EAN-13 and UPC-A (a 13-digit GTIN with a leading 0) are one length; EAN-8 and UPC-E each another.
    static func sameGTINLength(_ a: BarcodeFormat, _ b: BarcodeFormat) -> Bool {
        let long: Set<BarcodeFormat> = [.ean13, .upcA]
        return a == b ? gtinFormats.contains(a) : long.contains(a) && long.contains(b)
    }

    /// Whether `other`, a different GTIN of the same length read across the same columns, makes `c` untrustworthy:
    /// `c` lacks a clear majority over it, or `other` was read clearly on at least `minLineCount` lines interleaved
    /// with `c`'s rows. Two confirmed readings on the same rows are one symbol read two ways (blur and ink spread
    /// turn digits 1/7 and 2/8 into each other, and two or three such swaps can keep the check digit), so neither is
    /// reported, whatever the vote; readings on separate bands of rows are left to the majority.
    func disagreementRefuses(_ c: Candidate, _ other: Candidate) -> Bool {
        if !Self.isClearMajority(c.lineCount, over: other.lineCount) { return true }
        let sameRows = other.minRow <= c.maxRow && c.minRow <= other.maxRow
        return sameRows && other.clearLines >= self.minLineCount
    }

    /// Whether two readings can be one print read two ways: GTINs of one length (``sameGTINLength(_:_:)``), ITFs of
    /// one length (a shorter one is a fragment, which other rules judge), or two Code 39s or two Code 128s.
    static func sameKind(_ a: Candidate, _ b: Candidate) -> Bool {
        if Self.gtinFormats.contains(a.format) { return Self.sameGTINLength(a.format, b.format) }
        return a.format == b.format && Self.textFormats.contains(a.format)
            && (a.format != .itf || a.text.utf8.count == b.text.utf8.count)
    }

    /// Whether two GTIN readings span the same width within a module (a module of `a`'s width), one shifted along
    /// the lines from the other by at most a module or the symbol's tilt: the same guards, so the same symbol.
    static func sameEnds(_ a: Candidate, _ b: Candidate) -> Bool {
        guard let modules = Self.modules(of: a.format), Self.sameGTINLength(a.format, b.format) else { return false }
        let module = (a.maxX - a.minX) / Double(modules)
        // A tilted symbol's guards move along the lines from one row to the next: readings further apart may be
        // shifted by up to half the rows between them (a tilt of 27°), their widths still within a module.
        let rowsApart = Double(max(0, max(a.minRow, b.minRow) - min(a.maxRow, b.maxRow)))
        let shift = max(module, rowsApart / 2)
        return abs((a.maxX - a.minX) - (b.maxX - b.minX)) <= module && abs(a.minX - b.minX) <= shift
            && abs(a.maxX - b.maxX) <= shift
    }

    /// Whether the lines between two bands of rows that read symbols over the same columns cross bars all the way
    /// (the histogram threshold finds at least ten elements over the columns both cover, on each of up to five
    /// lines spread over the gap), so that the two are one symbol.
    func barsContinue(between a: Candidate, and b: Candidate, rotated: Bool) -> Bool {
        let (upper, lower) = a.maxRow < b.minRow ? (a, b) : (b, a)
        let gap = (upper.maxRow + 1)..<lower.minRow
        let from = Int(max(a.minX, b.minX))
        let to = Int(min(a.maxX, b.maxX))
        guard to - from >= 8 else { return false }
        guard !gap.isEmpty else { return true }
        let samples = min(5, gap.count)
        var segment = [UInt8](repeating: 0, count: to - from)
        var runs: [Int32] = []
        for k in 0..<samples {
            let line = gap.lowerBound + (gap.count * (2 * k + 1)) / (2 * samples)
            for x in from..<to {
                segment[x - from] = self.pixel(x, of: line, rotated: rotated)
            }
            let ok = segment.withUnsafeBufferPointer { RowBinarizer.patternRow($0, into: &runs) }
            if !ok || runs.count < 10 { return false }
        }
        return true
    }

    private func finish(_ all: [Candidate], rotated: Bool) -> [(barcode: DecodedBarcode, lines: Int)] {
        let near = self.nearLines(rotated: rotated)
        let lines = rotated ? self.image.width : self.image.height
        func overlaps(_ a: Candidate, _ b: Candidate, rowMargin: Int) -> Bool {
            a.minX < b.maxX && b.minX < a.maxX && a.minRow <= b.maxRow + rowMargin && b.minRow <= a.maxRow + rowMargin
        }
        func digitCount(_ c: Candidate) -> Int { c.text.count }
        // The same symbol: the same columns, on rows within two line steps, or further off with bars all the way
        // between (one print read two ways at two heights, not two labels one above the other). Further off, only
        // a reading of its own (confirmed, and clear on a line) counts: one stray line is no second reading,
        // unless it found the other reading's guards, both ends within a module (``sameEnds(_:_:)``): a clear
        // GTIN between the same guards is the same print read two ways (a small EAN-13 under glare, read by the
        // local threshold as another EAN-13 on two lines and as itself on one line further up).
        func samePlace(_ a: Candidate, _ b: Candidate) -> Bool {
            overlaps(a, b, rowMargin: near)
                || (overlaps(a, b, rowMargin: lines)
                    && ([a, b].allSatisfy { $0.lineCount >= self.minLineCount && $0.clearLines >= 1 }
                        || ([a, b].allSatisfy { $0.clearLines >= 1 } && Self.sameEnds(a, b)))
                    && self.barsContinue(between: a, and: b, rotated: rotated))
        }
        let earlierDisputes = self.fragments.disputed
        let earlierGTINs = self.fragments.gtinReadings.filter { $0.rotated == rotated }.map(\.place)
        defer { self.fragments.logGTINs(all, rotated: rotated) }
        var refused: [Candidate] = []
        var kept = all.filter { c in
            guard c.lineCount >= self.minLineCount else { return false }
            // Digits that lines saw as a part of a longer symbol (a label or glare across its middle): the lines that
            // read them as a whole symbol did not see the rest. One such line in four is enough; fewer are other print
            // beside a real symbol's quiet zone on a few lines (zxing-blackbox itf-2/01: 12 of 300).
            if c.format == .itf, 4 * (self.fragments.lines[c.text] ?? 0) >= c.lineCount { return false }
            // Ends that are not ends a little further along the bars: lines leaving a tilted symbol through its
            // bars' ends (a GS1 ITF-14, whose check digit holds, is trusted as it is).
            if c.format == .itf, !Self.isCheckedITF14(c.text), !self.endsAreEnds(c, rotated: rotated) { return false }
            // Digits that many more lines read with no end after them (or, read backwards from the end, no start
            // before them): the few that found a stop pattern and a quiet zone saw a label's or a cut's edge across a
            // tilted symbol, whose rest the lines beyond it missed.
            if c.format == .itf,
                self.fragments.unended(.itf, c.text) + self.fragments.unstarted(c.text, longer: false) >= 4 * c.lineCount
            {
                return false
            }
            // Lines that read these digits and more pairs after them, with no end: where the few found a stop
            // pattern and a quiet zone, the symbol went on (an ITF-14 whose right end a fade or the image border
            // took, read as its first 10 digits). The same at the start: lines that read from the end back through
            // these digits and more before them, with no start. The ends need a clear majority over those lines.
            if c.format == .itf, !Self.isCheckedITF14(c.text),
                !Self.isClearMajority(
                    c.lineCount,
                    over: self.fragments.unendedLonger(.itf, than: c.text) + self.fragments.unstarted(c.text, longer: true))
            {
                return false
            }
            // A UPC-E that lines across the same digits saw go on into more bars (the left half of an EAN-13 whose
            // corner the reading lines crossed, leaving it through the bars' ends) needs a clear majority over them.
            if c.format == .upcE, case let u = self.fragments.unended(.upcE, c.text), u > 0,
                !Self.isClearMajority(c.lineCount, over: u)
            {
                return false
            }
            // A short GTIN, or an ITF without a check digit, read obliquely that the symbol's own axis reads as a part
            // of a longer one.
            if Self.shortFormats.contains(c.format) || (c.format == .itf && !Self.isCheckedITF14(c.text)),
                self.axisReadsLonger(c, rotated: rotated)
            {
                return false
            }
            // A short GTIN whose bars go on past an end on a line beside it: a longer symbol's bars' ends.
            if Self.shortFormats.contains(c.format), self.barsGoOnPastEnds(c, rotated: rotated) { return false }
            // A GTIN only when at least one line read every digit clearly: guesses between two patterns
            // that happen to pass the check digit are how wrong products get rung up.
            if Self.gtinFormats.contains(c.format) && c.clearLines < 1 { return false }
            // An ITF whose digits a longer ITF across the same columns also holds is a fragment of it, at whatever
            // height that one was seen (once is enough): glare or a fold can hide a symbol's end on some rows.
            if c.format == .itf,
                all.contains(where: {
                    $0.format == .itf && $0.text.count > c.text.count && $0.text.contains(c.text) && $0.minX < c.maxX
                        && c.minX < $0.maxX
                })
            {
                return false
            }
            // The other way round: a line that read a part of these digits over the same columns as a whole
            // symbol found a stop (or start) pattern and a quiet zone inside this symbol's bars, where glare, a fade
            // or the symbol's tilt turned the rest white. On such a print an end is no proof by itself: these
            // digits must then be read with an end by a clear majority of the lines that read them at all (a fade
            // one pair further gives an end on some lines and none on others; a tilted symbol's real end is seen
            // on nearly every line). A GS1 ITF-14 (its check digit holds) is trusted as it is.
            if c.format == .itf, !Self.isCheckedITF14(c.text),
                !Self.isClearMajority(c.lineCount, over: self.fragments.unended(.itf, c.text)),
                all.contains(where: {
                    $0.format == .itf && $0.text.count < c.text.count && c.text.contains($0.text) && $0.minX < c.maxX
                        && c.minX < $0.maxX
                })
            {
                return false
            }
            for other in all where other.lineCount > 0 && other.text != c.text && overlaps(c, other, rowMargin: near) {
                // Never an EAN-8/UPC-E from inside a longer symbol seen on the same or neighbouring rows, nor
                // an ITF fragment inside a longer ITF.
                if Self.shortFormats.contains(c.format) && Self.longFormats.contains(other.format) { return false }
                if c.format == .itf && other.format == .itf && digitCount(other) > digitCount(c) { return false }
            }
            // Nor one read further off on rows with the longer one's bars all the way between: lines across the
            // corner of a tilted symbol, through its bars' ends, read a few pairs of other digits.
            if c.format == .itf,
                all.contains(where: {
                    $0.lineCount > 0 && $0.format == .itf && digitCount($0) > digitCount(c) && samePlace(c, $0)
                })
            {
                return false
            }
            // Other digits of the same length read as an ITF at the same place: one print read two ways (a cut
            // piece of bars read in both directions can find a start and a stop pattern each way; a whole ITF's stop
            // pattern read backwards is seldom a start, but blur can make it one on a few lines). Only a clear
            // majority is trusted. The same for Code 39 and Code 128, whatever the length: a small Code 39 (it has no
            // check character) under moiré read as "LOO" on three lines and "LOS" on two was printed "LOP".
            if Self.textFormats.contains(c.format),
                all.contains(where: {
                    Self.sameKind(c, $0) && $0.lineCount > 0 && $0.text != c.text
                        && !Self.isClearMajority(c.lineCount, over: $0.lineCount) && samePlace(c, $0)
                })
            {
                refused.append(c)
                return false
            }
            // A place where an earlier pass read a GTIN of this length (or a symbol of this kind) two ways: a clear
            // majority over the lines that read it otherwise there, then. (A small Code 39 read "RU6" on two lines
            // and "KU6" on two at the histogram threshold, refused, was read "KU6" on two lines of the last pass.)
            let disputes = earlierDisputes.filter {
                $0.rotated == rotated && Self.sameKind(c, $0.place) && samePlace(c, $0.place)
            }
            let otherwise = disputes.filter { $0.place.text != c.text }.reduce(0) { $0 + $1.place.lineCount }
            if !disputes.isEmpty, !Self.isClearMajority(c.lineCount, over: otherwise) {
                return false
            }
            guard Self.gtinFormats.contains(c.format) else { return true }
            // Lines of earlier passes (other thresholds over the same place) that read another GTIN of this length
            // there, confirmed or not: these digits need a clear majority over them, counting the earlier lines that
            // read these digits too. One line of a threshold that saw the symbol better outweighs two of one that
            // a shadow skewed.
            let before = earlierGTINs.filter { Self.sameGTINLength(c.format, $0.format) && samePlace(c, $0) }
            let (forBefore, againstBefore) = Self.lines(for: c.text, in: before)
            if againstBefore > 0, !Self.isClearMajority(c.lineCount + forBefore, over: againstBefore) {
                return false
            }
            // Lines that read a different GTIN at the same place: only a clear majority is trusted, and never one
            // over a reading that is itself confirmed on the same rows.
            for other in all
            where other.lineCount > 0 && other.text != c.text && Self.sameGTINLength(c.format, other.format)
                && self.disagreementRefuses(c, other) && samePlace(c, other)
            {
                refused.append(c)
                return false
            }
            return true
        }
        // Readings refused for another reading at their place, where no reading of their length was kept: a
        // symbol read two ways. Every reading there is kept for the later passes, with its lines.
        var disputedHere = Set<Int>()
        for c in refused where !kept.contains(where: { Self.sameKind(c, $0) && samePlace(c, $0) }) {
            for (k, other) in all.enumerated()
            where other.lineCount > 0 && Self.sameKind(c, other) && samePlace(c, other) {
                disputedHere.insert(k)
            }
        }
        for k in disputedHere.sorted() { self.fragments.disputed.append((all[k], rotated)) }
        // Overlapping symbols: keep the one seen on more rows.
        var drop = Set<Int>()
        for a in kept.indices {
            for b in kept.indices where b > a && !drop.contains(a) && !drop.contains(b) {
                let ka = kept[a]
                let kb = kept[b]
                if overlaps(ka, kb, rowMargin: 1) { drop.insert(ka.lineCount < kb.lineCount ? a : b) }
            }
        }
        kept = kept.enumerated().filter { !drop.contains($0.offset) }.map(\.element)
        kept.sort { $0.lineCount > $1.lineCount }
        return kept.map { c in
            let top = c.firstRow <= c.lastRow ? (c.firstRow, c.firstSpan) : (c.lastRow, c.lastSpan)
            let bottom = c.firstRow <= c.lastRow ? (c.lastRow, c.lastSpan) : (c.firstRow, c.firstSpan)
            var pts = [
                (top.1.0, Double(top.0)), (top.1.1, Double(top.0)),
                (bottom.1.1, Double(bottom.0)), (bottom.1.0, Double(bottom.0)),
            ]
            if rotated { pts = pts.map { ($0.1, $0.0) } }
            let barcode = DecodedBarcode(
                format: c.format, text: c.text, rawBytes: nil, corners: pts.map { Point(x: $0.0, y: $0.1) },
                addOn: self.confirmedAddOn(c))
            return (barcode, c.lineCount)
        }
    }
}
