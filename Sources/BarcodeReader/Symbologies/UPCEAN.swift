/// EAN-13, UPC-A, EAN-8 and UPC-E row decoding (zxing's guard/digit scheme on run lengths).
enum UPCEAN {
    static let lPatterns: [[Int]] = [
        [3, 2, 1, 1], [2, 2, 2, 1], [2, 1, 2, 2], [1, 4, 1, 1], [1, 1, 3, 2],
        [1, 2, 3, 1], [1, 1, 1, 4], [1, 3, 1, 2], [1, 2, 1, 3], [3, 1, 1, 2],
    ]
    /// L patterns followed by G patterns (the reversed L patterns), index 10...19.
    static let lgPatterns: [[Int]] = lPatterns + lPatterns.map { Array($0.reversed()) }
    /// Parity (1 = G) of the six left digits of EAN-13, indexed by the implied first digit.
    static let firstDigitEncodings = [0x00, 0x0B, 0x0D, 0x0E, 0x13, 0x19, 0x1C, 0x15, 0x16, 0x1A]
    /// UPC-E parity patterns: index / 10 is the number system, index % 10 the check digit.
    static let upceParity = [
        0x38, 0x34, 0x32, 0x31, 0x2C, 0x26, 0x23, 0x2A, 0x29, 0x25,
        0x07, 0x0B, 0x0D, 0x0E, 0x13, 0x19, 0x1C, 0x15, 0x16, 0x1A,
    ]
    static let guardPattern = [1, 1, 1]
    static let midPattern = [1, 1, 1, 1, 1]
    static let upceEndPattern = [1, 1, 1, 1, 1, 1]
    /// Quiet zones in modules (zxing-cpp's: 6 before; after, the spec's 7 would cut too many real photos).
    static let quietZone = 6.0
    static let rightQuietZone = 6.0
    static let maxAverageVariance = 0.48
    static let maxIndividualVariance = 0.7
    /// A digit is clear when the next-best pattern is worse by this much: a digit halfway between two
    /// patterns is where misreads that still pass the check digit come from (see ``LinearScanner``).
    static let minDigitMargin = 0.02
    /// Adjacent digits (7 modules each) may differ in width by this fraction at most (perspective changes the
    /// module slowly across a symbol; a digit that swallowed or lost a module does not).
    static let maxAdjacentWidthRatio = 0.22
    /// Guard patterns measured against the symbol's module width (their own widths are too few pixels).
    static let maxGuardDeviation = 0.5

    /// The add-on's start guard (bar, space, bar) and the separator between its digits (space, bar).
    static let addOnGuard = [1, 1, 2]
    /// EAN-5 parity (1 = G) of the five digits, indexed by the add-on's checksum (3 × odd + 9 × even positions).
    static let ean5Parity = [0x18, 0x14, 0x12, 0x11, 0x0C, 0x06, 0x03, 0x0A, 0x09, 0x05]
    /// The gap between a symbol and its add-on: 7–12 modules in the specification (zint's `--addongap`),
    /// accepted from 5 to 14 modules of the main symbol (perspective, ink spread); anything else is not an add-on.
    static let addOnGap = 5.0...14.0
    /// Quiet zone after the add-on, in modules (the specification's 5).
    static let addOnQuietZone = 5.0
    /// The add-on's module may differ from the main symbol's by this fraction at most.
    static let maxAddOnModuleDeviation = 0.25

    /// Computes the GTIN (mod 10, weights 3/1 from the right) check digit of `digits` (without check digit).
    static func checkDigit(_ digits: [Int]) -> Int {
        var sum = 0
        for (i, d) in digits.reversed().enumerated() { sum += i % 2 == 0 ? d * 3 : d }
        return (10 - sum % 10) % 10
    }

    /// Validates the trailing check digit of a GTIN string.
    static func validateCheckDigit(_ text: String) throws(BarcodeReaderError) {
        let digits = text.compactMap { $0.wholeNumberValue }
        guard digits.count == text.count, digits.count >= 2, let last = digits.last else {
            throw BarcodeReaderError(.invalidPattern, "not a digit string")
        }
        guard checkDigit(Array(digits.dropLast())) == last else {
            throw BarcodeReaderError(.checksumMismatch, "GTIN check digit")
        }
    }

    /// Expands an 8-digit UPC-E string to its 12-digit UPC-A form.
    static func upceToUPCA(_ upce: String) -> String {
        let c = Array(upce)
        guard c.count == 8 else { return upce }
        let d = Array(c[1...6])
        var res = String(c[0])
        switch d[5] {
        case "0", "1", "2":
            res += String(d[0...1]) + String(d[5]) + "0000" + String(d[2...4])
        case "3":
            res += String(d[0...2]) + "00000" + String(d[3...4])
        case "4":
            res += String(d[0...3]) + "00000" + String(d[4])
        default:
            res += String(d[0...4]) + "0000" + String(d[5])
        }
        return res + String(c[7])
    }

    private static func isRightGuard(_ runs: UnsafeBufferPointer<Int32>, _ i: Int, _ pattern: [Int]) -> Bool {
        guard i + pattern.count < runs.count else { return false }
        let module = RowPattern.isPattern(runs, i, pattern)
        guard module > 0 else { return false }
        let after = RowPattern.spaceAfter(runs, i, pattern.count)
        return after == Int.max || Double(after) >= quietZone * module - 1
    }

    /// Bar-width consistency across the whole symbol: every digit is 7 modules wide and adjacent digits agree
    /// within ``maxAdjacentWidthRatio``; the guards (`(run index, run count, modules)`) are their nominal
    /// number of modules of the local module width. Returns the mean module width, or nil.
    static func consistentModule(
        _ runs: UnsafeBufferPointer<Int32>, digitStarts: [Int], guards: [(Int, Int, Int)]
    ) -> Double? {
        let widths = digitStarts.map { Double(RowPattern.sum(runs, $0, 4)) }
        for k in 1..<widths.count {
            let ratio = widths[k] / widths[k - 1]
            guard ratio <= 1 + maxAdjacentWidthRatio, ratio >= 1 / (1 + maxAdjacentWidthRatio) else { return nil }
        }
        for (start, n, modules) in guards {
            // The module next to the guard: the nearest digit's width / 7.
            let nearest = digitStarts.min { abs($0 - start) < abs($1 - start) } ?? start
            let local = Double(RowPattern.sum(runs, nearest, 4)) / 7
            let w = Double(RowPattern.sum(runs, start, n))
            guard abs(w - Double(modules) * local) <= maxGuardDeviation * Double(modules) * local + 1 else {
                return nil
            }
        }
        return widths.reduce(0, +) / Double(widths.count) / 7
    }

    /// Quiet zones on both sides measured in the symbol's own module width (`before`/`after` are run indices
    /// of the white runs around the symbol; the image border counts as quiet).
    static func hasQuietZones(
        _ runs: UnsafeBufferPointer<Int32>, before: Int, after: Int, module: Double, left: Double, right: Double
    ) -> Bool {
        let l = before <= 0 ? Int.max : Int(runs[before])
        let r = after >= runs.count - 1 ? Int.max : Int(runs[after])
        return (l == Int.max || Double(l) >= left * module - 1) && (r == Int.max || Double(r) >= right * module - 1)
    }

    private static func digits(
        _ runs: UnsafeBufferPointer<Int32>, _ start: Int, count: Int, withParity: Bool, text: inout [UInt8],
        parity: inout Int, clear: inout Bool
    ) -> Bool {
        var i = start
        for _ in 0..<count {
            guard
                let (m, margin) = RowPattern.bestMatchWithMargin(
                    runs, i, withParity ? lgPatterns : lPatterns, patternLength: 7,
                    maxAverage: maxAverageVariance, maxIndividual: maxIndividualVariance)
            else { return false }
            if margin < minDigitMargin { clear = false }
            text.append(UInt8(48 + m % 10))
            parity = (parity << 1) | (m >= 10 ? 1 : 0)
            i += 4
        }
        return true
    }

    private static func ean13(_ runs: UnsafeBufferPointer<Int32>, _ b: Int) -> LinearHit? {
        let mid = b + 27
        let end = b + 56
        guard isRightGuard(runs, end, guardPattern), RowPattern.isPattern(runs, mid, midPattern) > 0 else {
            return nil
        }
        var text: [UInt8] = [48]
        var parity = 0
        var ignored = 0
        var clear = true
        let starts = (0..<6).map { b + 3 + 4 * $0 } + (0..<6).map { mid + 5 + 4 * $0 }
        guard
            let module = consistentModule(runs, digitStarts: starts, guards: [(b, 3, 3), (mid, 5, 5), (end, 3, 3)]),
            hasQuietZones(runs, before: b - 1, after: end + 3, module: module, left: quietZone, right: rightQuietZone),
            digits(runs, b + 3, count: 6, withParity: true, text: &text, parity: &parity, clear: &clear),
            digits(runs, mid + 5, count: 6, withParity: false, text: &text, parity: &ignored, clear: &clear),
            let first = firstDigitEncodings.firstIndex(of: parity)
        else { return nil }
        text[0] = UInt8(48 + first)
        return LinearHit(format: .ean13, text: String(decoding: text, as: UTF8.self), start: b, end: end + 3, clear: clear)
    }

    private static func ean8(_ runs: UnsafeBufferPointer<Int32>, _ b: Int) -> LinearHit? {
        let mid = b + 19
        let end = b + 40
        guard isRightGuard(runs, end, guardPattern), RowPattern.isPattern(runs, mid, midPattern) > 0 else {
            return nil
        }
        var text: [UInt8] = []
        var parity = 0
        var clear = true
        let starts = (0..<4).map { b + 3 + 4 * $0 } + (0..<4).map { mid + 5 + 4 * $0 }
        guard
            let module = consistentModule(runs, digitStarts: starts, guards: [(b, 3, 3), (mid, 5, 5), (end, 3, 3)]),
            hasQuietZones(runs, before: b - 1, after: end + 3, module: module, left: quietZone, right: rightQuietZone),
            digits(runs, b + 3, count: 4, withParity: false, text: &text, parity: &parity, clear: &clear),
            digits(runs, mid + 5, count: 4, withParity: false, text: &text, parity: &parity, clear: &clear)
        else { return nil }
        return LinearHit(format: .ean8, text: String(decoding: text, as: UTF8.self), start: b, end: end + 3, clear: clear)
    }

    private static func upce(_ runs: UnsafeBufferPointer<Int32>, _ b: Int) -> LinearHit? {
        let end = b + 27
        guard end + 6 < runs.count, RowPattern.isPattern(runs, end, upceEndPattern) > 0 else { return nil }
        // The module size of guards and data must agree (cuts false positives, as in zxing-cpp).
        let guardModule = Double(RowPattern.sum(runs, b, 3) + RowPattern.sum(runs, end, 6)) / 9
        let dataModule = Double(RowPattern.sum(runs, b + 3, 24)) / 42
        guard abs(dataModule / guardModule - 1) < 0.2 else { return nil }
        let starts = (0..<6).map { b + 3 + 4 * $0 }
        guard
            let module = consistentModule(runs, digitStarts: starts, guards: [(b, 3, 3), (end, 6, 6)]),
            hasQuietZones(runs, before: b - 1, after: end + 6, module: module, left: quietZone, right: 0)
        else { return nil }
        // UPC-E's end guard is an EAN-13/UPC-A middle guard and the bar after it, and its six digits with parity
        // are the left half of one (number system 1, the check digit standing for the EAN-13's first digit): where
        // a line leaves an EAN-13 just after that bar (the image border, or the bars' ends across a tilted symbol),
        // its left half reads as a UPC-E, and the check digit holds one time in ten. So the quiet zone after the
        // end guard must be seen (the image border is no proof of one). A line that finds the right half's digits
        // there instead read these digits unended: the lines further into such a symbol, which weigh against the
        // few at its corner (``LinearScanner``). Anything else there (the printed check digit beside a UPC-E) is
        // no reading at all.
        let unended = Double(RowPattern.visibleSpaceAfter(runs, end, 6)) < rightQuietZone * module - 1
        guard !unended || continuesAsRightHalf(runs, end + 5, module: module),
            let (text, clear) = upceDigits(runs, b)
        else { return nil }
        var hit = LinearHit(format: .upcE, text: text, start: b, end: end + 6, clear: clear)
        hit.unended = unended
        return hit
    }

    /// A UPC-E's text from the six digits with parity after the start guard at run `b`: the number system and the
    /// check digit come from the parity pattern; `clear` when every digit matched one pattern clearly.
    private static func upceDigits(_ runs: UnsafeBufferPointer<Int32>, _ b: Int) -> (text: String, clear: Bool)? {
        var text: [UInt8] = [48]
        var parity = 0
        var clear = true
        guard digits(runs, b + 3, count: 6, withParity: true, text: &text, parity: &parity, clear: &clear),
            let i = upceParity.firstIndex(of: parity)
        else { return nil }
        text[0] = UInt8(48 + i / 10)
        text.append(UInt8(48 + i % 10))
        return (String(decoding: text, as: UTF8.self), clear)
    }

    /// A UPC-E's digits whose end guard goes on into bars: six digits with parity after a start guard, an EAN-13's
    /// middle guard where a UPC-E's end guard begins, then bars for two digits' width at least (``barsFollow``),
    /// the first of them as wide as the right half's first bar may be (one to four modules, where a UPC-E's end
    /// guard has a one-module bar). A line further into an EAN-13 tilted past its height reads its left half so;
    /// the line at its corner that left it just after that bar read a UPC-E. Reported unended only
    /// (``LinearHit/unended``): it weighs against that reading and is never one.
    private static func upceGoingOn(_ runs: UnsafeBufferPointer<Int32>, _ b: Int) -> LinearHit? {
        let end = b + 27
        guard end + 13 < runs.count, RowPattern.isPattern(runs, end, midPattern) > 0 else { return nil }
        let guardModule = Double(RowPattern.sum(runs, b, 3) + RowPattern.sum(runs, end, 5)) / 8
        let dataModule = Double(RowPattern.sum(runs, b + 3, 24)) / 42
        guard abs(dataModule / guardModule - 1) < 0.2 else { return nil }
        let starts = (0..<6).map { b + 3 + 4 * $0 }
        guard
            let module = consistentModule(runs, digitStarts: starts, guards: [(b, 3, 3), (end, 5, 5)]),
            hasQuietZones(runs, before: b - 1, after: end + 5, module: module, left: quietZone, right: 0),
            barsFollow(runs, end + 5, module: module),
            let (text, clear) = upceDigits(runs, b)
        else { return nil }
        var hit = LinearHit(format: .upcE, text: text, start: b, end: end + 5, clear: clear)
        hit.unended = true
        return hit
    }

    /// Half of an EAN-13 or UPC-A: a start guard after a quiet zone, six digits whose parity pattern is an EAN-13's
    /// (or all even: its right half read backwards, whose patterns reversed are the even ones) and the middle guard,
    /// in one module, where no whole symbol was read. A line that crosses a symbol turned further than its bars'
    /// height allows sees no more of it. Reported as ``LinearHit/half`` only: where to read the symbol along its
    /// own axis (``LinearScanner/readAlongAxes()``), never a reading.
    private static func half(_ runs: UnsafeBufferPointer<Int32>, _ b: Int) -> LinearHit? {
        let mid = b + 27
        guard mid + 5 < runs.count, RowPattern.isPattern(runs, mid, midPattern) > 0 else { return nil }
        let starts = (0..<6).map { b + 3 + 4 * $0 }
        var text: [UInt8] = []
        var parity = 0
        var clear = true
        guard
            let module = consistentModule(runs, digitStarts: starts, guards: [(b, 3, 3), (mid, 5, 5)]),
            hasQuietZones(runs, before: b - 1, after: mid + 5, module: module, left: quietZone, right: 0),
            digits(runs, b + 3, count: 6, withParity: true, text: &text, parity: &parity, clear: &clear),
            parity == 0x3F || firstDigitEncodings.contains(parity)
        else { return nil }
        var hit = LinearHit(format: .ean13, text: String(decoding: text, as: UTF8.self), start: b, end: mid + 5, clear: clear)
        hit.half = true
        return hit
    }

    /// Whether the runs from `start` (a bar) are bars and spaces for two digits' width (14 modules) at least:
    /// eight runs, each half a module to four and a half wide, together twelve modules or more.
    static func barsFollow(_ runs: UnsafeBufferPointer<Int32>, _ start: Int, module: Double) -> Bool {
        guard start + 8 <= runs.count else { return false }
        var width = 0.0
        for k in start..<(start + 8) {
            let v = Double(runs[k])
            guard v >= 0.5 * module, v <= 4.5 * module else { return false }
            width += v
        }
        return width >= 12 * module
    }

    /// Whether the runs from `start` (a bar) read as two digits of an EAN-13/UPC-A right half in this module.
    static func continuesAsRightHalf(_ runs: UnsafeBufferPointer<Int32>, _ start: Int, module: Double) -> Bool {
        guard start + 8 <= runs.count else { return false }
        for k in 0..<2 {
            let at = start + 4 * k
            guard abs(Double(RowPattern.sum(runs, at, 4)) / 7 - module) <= maxAdjacentWidthRatio * module + 0.5,
                RowPattern.bestMatchWithMargin(
                    runs, at, lPatterns, patternLength: 7, maxAverage: maxAverageVariance,
                    maxIndividual: maxIndividualVariance) != nil
            else { return false }
        }
        return true
    }

    /// The EAN-5 checksum: 3 × (digits 1, 3, 5) + 9 × (digits 2, 4), mod 10.
    static func ean5Checksum(_ d: [Int]) -> Int {
        (3 * (d[0] + d[2] + d[4]) + 9 * (d[1] + d[3])) % 10
    }

    /// Decodes an EAN-5 or EAN-2 add-on after a symbol whose trailing white run (the gap) is run `gap` and
    /// whose module is `module` pixels. Every part must hold: the gap's width, the start guard and separators in
    /// the add-on's module, that module close to the symbol's, every digit 7 modules, the quiet zone after, and
    /// the add-on's own parity check (EAN-2: value mod 4; EAN-5: its checksum). Returns the digits and whether
    /// every digit matched one pattern clearly; nil when any part fails.
    static func addOn(_ runs: UnsafeBufferPointer<Int32>, gap: Int, module: Double) -> (text: String, clear: Bool)? {
        // The gap must be a white run between bars, not the image border.
        guard module > 0, gap >= 1, gap + 1 < runs.count - 1, gap % 2 == 0 else { return nil }
        let gapWidth = Double(runs[gap])
        guard gapWidth >= addOnGap.lowerBound * module - 1, gapWidth <= addOnGap.upperBound * module + 1 else {
            return nil
        }
        let g = gap + 1
        let guardModule = RowPattern.isPattern(runs, g, addOnGuard)
        guard guardModule > 0 else { return nil }
        for n in [5, 2] {
            let count = 3 + 4 * n + 2 * (n - 1)
            // The run after the last bar is the quiet zone (or the border).
            guard g + count < runs.count else { continue }
            let starts = (0..<n).map { g + 3 + 6 * $0 }
            let widths = starts.map { Double(RowPattern.sum(runs, $0, 4)) }
            let addModule = (Double(RowPattern.sum(runs, g, count))) / Double(4 + 7 * n + 2 * (n - 1))
            guard abs(addModule / module - 1) <= maxAddOnModuleDeviation,
                abs(guardModule / addModule - 1) <= maxGuardDeviation
            else { continue }
            var consistent = true
            for k in 0..<n {
                if abs(widths[k] / 7 - addModule) > 0.3 * addModule + 0.5 { consistent = false }
                if k > 0 {
                    let ratio = widths[k] / widths[k - 1]
                    if ratio > 1 + maxAdjacentWidthRatio || ratio < 1 / (1 + maxAdjacentWidthRatio) { consistent = false }
                    // The separator before digit k: one space and one bar of one module each.
                    if RowPattern.isPattern(runs, starts[k] - 2, [1, 1], moduleSizeRef: addModule) == 0 {
                        consistent = false
                    }
                }
            }
            guard consistent else { continue }
            let after = g + count
            guard after == runs.count - 1 || Double(runs[after]) >= addOnQuietZone * addModule - 1 else { continue }
            var digits: [Int] = []
            var parity = 0
            var clear = true
            for start in starts {
                guard
                    let (m, margin) = RowPattern.bestMatchWithMargin(
                        runs, start, lgPatterns, patternLength: 7, maxAverage: maxAverageVariance,
                        maxIndividual: maxIndividualVariance)
                else { break }
                if margin < minDigitMargin { clear = false }
                digits.append(m % 10)
                parity = (parity << 1) | (m >= 10 ? 1 : 0)
            }
            guard digits.count == n else { continue }
            let valid = n == 2 ? (digits[0] * 10 + digits[1]) % 4 == parity : ean5Parity[ean5Checksum(digits)] == parity
            guard valid else { continue }
            return (String(digits.map { Character(String($0)) }), clear)
        }
        return nil
    }

    /// Finds and decodes the first EAN/UPC symbol whose start guard is at or after run `from`.
    static func decode(_ runs: UnsafeBufferPointer<Int32>, from: Int) -> (hit: LinearHit?, guardIndex: Int?) {
        let minSize = 3 + 6 * 4 + 6
        guard
            let b = RowPattern.findLeftGuard(
                runs, from: from, minSize: minSize,
                { i, space in
                    RowPattern.isPattern(runs, i, guardPattern, spaceInFront: space, minQuietZone: quietZone) > 0
                })
        else { return (nil, nil) }
        guard let hit = ean13(runs, b) ?? ean8(runs, b) ?? upce(runs, b) ?? upceGoingOn(runs, b) else {
            return (half(runs, b), b)
        }
        do {
            try validateCheckDigit(hit.format == .upcE ? upceToUPCA(hit.text) : hit.text)
        } catch {
            return (nil, b)
        }
        if hit.unended { return (hit, b) }
        var result = hit
        if hit.format == .ean13 || hit.format == .upcE {
            // An add-on follows EAN-13/UPC-A and UPC-E (never EAN-8).
            let modules = hit.format == .upcE ? 51.0 : 95.0
            let module = Double(RowPattern.sum(runs, hit.start, hit.end - hit.start)) / modules
            if let add = addOn(runs, gap: hit.end, module: module) {
                result.addOn = add.text
                result.addOnClear = add.clear
            }
        }
        if hit.format == .ean13, hit.text.first == "0" {
            result.format = .upcA
            result.text = String(hit.text.dropFirst())
        }
        return (result, b)
    }
}
