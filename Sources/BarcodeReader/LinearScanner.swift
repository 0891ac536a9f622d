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

    /// Histogram pattern rows of one image kept by a dense pass for a later pass over a subset of its lines (the
    /// inverted pass reads the same runs, one element shifted): the lines `middle ± k × step` of a sparser
    /// scanner, where `step` is that scanner's line step.
    final class RunCache {
        let sparseRowDivisor: Int
        var rows: [Int: [Int32]] = [:]
        var columns: [Int: [Int32]] = [:]
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
        /// Lines that read the same digits with no stop pattern after them (``LinearHit/unended``).
        var unended: [String: Int] = [:]
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

    init(
        image: GrayscaleImage, formats: Set<BarcodeFormat>, minLineCount: Int, rowDivisor: Int,
        runCache: RunCache? = nil, fragments: FragmentLog = FragmentLog(), gate: LineGate? = nil
    ) {
        self.image = image
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

    enum Binarization { case histogram, local, edges }

    /// Scans horizontally (`rotated == false`) or along columns, returning confirmed symbols in image coordinates.
    func scan(rotated: Bool, inverted: Bool, binarization: Binarization) -> [(barcode: DecodedBarcode, lines: Int)] {
        self.finish(self.scanCandidates(rotated: rotated, inverted: inverted, binarization: binarization), rotated: rotated)
    }

    /// Every symbol seen on any line (only the lines in `only`, when given), with the number of lines that agreed.
    func scanCandidates(
        rotated: Bool, inverted: Bool, binarization: Binarization, only: ClosedRange<Int>? = nil
    ) -> [Candidate] {
        guard !self.decoders.isEmpty else { return [] }
        let length = rotated ? self.image.height : self.image.width
        let lines = rotated ? self.image.width : self.image.height
        var candidates: [Candidate] = []
        var runs: [Int32] = []
        runs.reserveCapacity(256)
        var reversed: [Int32] = []
        reversed.reserveCapacity(256)
        var lineBuffer = [UInt8](repeating: 0, count: length)
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
                    let ok = lineBuffer.withUnsafeBufferPointer { line in
                        switch binarization {
                        case .histogram: RowBinarizer.patternRow(line, into: &runs)
                        case .local: RowBinarizer.localPatternRow(line, into: &runs)
                        case .edges: RowBinarizer.edgePatternRow(line, into: &runs)
                        }
                    }
                    if binarization == .histogram, !inverted, !isCheckRow, let cache = self.runCache,
                        cache.wants(row, of: lines)
                    {
                        if rotated { cache.columns[row] = ok ? runs : [] } else { cache.rows[row] = ok ? runs : [] }
                    }
                    guard ok else { continue }
                }
                if inverted { runs.insert(0, at: 0) }
                if runs.count % 2 == 0 { runs.append(0) }
                reversed.removeAll(keepingCapacity: true)
                reversed.append(contentsOf: runs.reversed())
                var found = false
                for upsideDown in [false, true] {
                    let current = upsideDown ? reversed : runs
                    current.withUnsafeBufferPointer { buf in
                        for decoder in self.decoders {
                            var from = 1
                            while from < buf.count {
                                let (hit, g) = decoder(buf, from)
                                if let hit, hit.unended {
                                    self.fragments.unended[hit.text, default: 0] += 1
                                } else if let hit {
                                    var x0 = 0
                                    for k in 0..<hit.start { x0 += Int(buf[k]) }
                                    var x1 = x0
                                    for k in hit.start..<hit.end { x1 += Int(buf[k]) }
                                    var span = (Double(x0), Double(x1))
                                    if upsideDown { span = (Double(length - x1), Double(length - x0)) }
                                    self.record(hit, row: row, span: span, into: &candidates)
                                    found = true
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

    /// A clear majority of `votes` lines over `others`: twice as many, and at least two more.
    static func isClearMajority(_ votes: Int, over others: Int) -> Bool {
        votes >= 2 * others && votes >= others + 2
    }

    /// Whether `text` is a GS1 ITF-14: 14 digits whose last is the GTIN check digit of the others.
    static func isCheckedITF14(_ text: String) -> Bool {
        text.utf8.count == 14 && (try? UPCEAN.validateCheckDigit(text)) != nil
    }

    /// How many lines apart two readings may lie and still be at the same place: two of this scanner's line steps
    /// and two lines more.
    func nearLines(rotated: Bool) -> Int {
        2 * max(1, (rotated ? self.image.width : self.image.height) / self.rowDivisor) + 2
    }

    /// Whether the candidates of another pass over the same lines (`rotated` as that pass) contradict `barcode`, a
    /// GTIN: another GTIN of its length read clearly at the same place (its columns, and rows within two line
    /// steps), and `barcode`'s own digits read nowhere there.
    func contradicts(_ barcode: DecodedBarcode, _ others: [Candidate], rotated: Bool) -> Bool {
        guard Self.gtinFormats.contains(barcode.format), !barcode.corners.isEmpty else { return false }
        let along = barcode.corners.map { rotated ? $0.y : $0.x }
        let across = barcode.corners.map { rotated ? $0.x : $0.y }
        let near = Double(self.nearLines(rotated: rotated))
        let here = others.filter {
            $0.lineCount > 0 && Self.gtinFormats.contains($0.format) && $0.minX < (along.max() ?? 0)
                && (along.min() ?? 0) < $0.maxX && Double($0.minRow) <= (across.max() ?? 0) + near
                && (across.min() ?? 0) <= Double($0.maxRow) + near
        }
        // A UPC-A is the EAN-13 with a leading 0.
        func gtin(_ text: String) -> String { text.utf8.count == 12 ? "0" + text : text }
        let own = gtin(barcode.text)
        return !here.contains { gtin($0.text) == own }
            && here.contains { Self.sameGTINLength($0.format, barcode.format) && $0.clearLines >= 1 }
    }

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

    private func finish(_ all: [Candidate], rotated: Bool) -> [(barcode: DecodedBarcode, lines: Int)] {
        let near = self.nearLines(rotated: rotated)
        func overlaps(_ a: Candidate, _ b: Candidate, rowMargin: Int) -> Bool {
            a.minX < b.maxX && b.minX < a.maxX && a.minRow <= b.maxRow + rowMargin && b.minRow <= a.maxRow + rowMargin
        }
        func digitCount(_ c: Candidate) -> Int { c.text.count }
        var kept = all.filter { c in
            guard c.lineCount >= self.minLineCount else { return false }
            // Digits that lines saw as a part of a longer symbol (a label or glare across its middle): the lines that
            // read them as a whole symbol did not see the rest. One such line in four is enough; fewer are other print
            // beside a real symbol's quiet zone on a few lines (zxing-blackbox itf-2/01: 12 of 300).
            if c.format == .itf, 4 * (self.fragments.lines[c.text] ?? 0) >= c.lineCount { return false }
            // Digits that many more lines read with no end after them: the few that found a stop pattern and a quiet
            // zone saw a label's or a cut's edge across a tilted symbol, whose rest the lines beyond it missed.
            if c.format == .itf, (self.fragments.unended[c.text] ?? 0) >= 4 * c.lineCount { return false }
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
                !Self.isClearMajority(c.lineCount, over: self.fragments.unended[c.text] ?? 0),
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
                // Lines that read a different GTIN at the same place: only a clear majority is trusted, and
                // never one over a reading that is itself confirmed on the same rows.
                if Self.sameGTINLength(c.format, other.format) && self.disagreementRefuses(c, other) { return false }
            }
            return true
        }
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
