/// Code 128 row decoding: code sets A/B/C, shifts, FNC1 (GS1) and FNC4 (extended Latin-1).
enum Code128 {
    /// Bar/space module widths of symbols 0...106 (106 = stop, 7 elements).
    static let patterns: [[Int]] = [
        [2, 1, 2, 2, 2, 2], [2, 2, 2, 1, 2, 2], [2, 2, 2, 2, 2, 1], [1, 2, 1, 2, 2, 3], [1, 2, 1, 3, 2, 2],
        [1, 3, 1, 2, 2, 2], [1, 2, 2, 2, 1, 3], [1, 2, 2, 3, 1, 2], [1, 3, 2, 2, 1, 2], [2, 2, 1, 2, 1, 3],
        [2, 2, 1, 3, 1, 2], [2, 3, 1, 2, 1, 2], [1, 1, 2, 2, 3, 2], [1, 2, 2, 1, 3, 2], [1, 2, 2, 2, 3, 1],
        [1, 1, 3, 2, 2, 2], [1, 2, 3, 1, 2, 2], [1, 2, 3, 2, 2, 1], [2, 2, 3, 2, 1, 1], [2, 2, 1, 1, 3, 2],
        [2, 2, 1, 2, 3, 1], [2, 1, 3, 2, 1, 2], [2, 2, 3, 1, 1, 2], [3, 1, 2, 1, 3, 1], [3, 1, 1, 2, 2, 2],
        [3, 2, 1, 1, 2, 2], [3, 2, 1, 2, 2, 1], [3, 1, 2, 2, 1, 2], [3, 2, 2, 1, 1, 2], [3, 2, 2, 2, 1, 1],
        [2, 1, 2, 1, 2, 3], [2, 1, 2, 3, 2, 1], [2, 3, 2, 1, 2, 1], [1, 1, 1, 3, 2, 3], [1, 3, 1, 1, 2, 3],
        [1, 3, 1, 3, 2, 1], [1, 1, 2, 3, 1, 3], [1, 3, 2, 1, 1, 3], [1, 3, 2, 3, 1, 1], [2, 1, 1, 3, 1, 3],
        [2, 3, 1, 1, 1, 3], [2, 3, 1, 3, 1, 1], [1, 1, 2, 1, 3, 3], [1, 1, 2, 3, 3, 1], [1, 3, 2, 1, 3, 1],
        [1, 1, 3, 1, 2, 3], [1, 1, 3, 3, 2, 1], [1, 3, 3, 1, 2, 1], [3, 1, 3, 1, 2, 1], [2, 1, 1, 3, 3, 1],
        [2, 3, 1, 1, 3, 1], [2, 1, 3, 1, 1, 3], [2, 1, 3, 3, 1, 1], [2, 1, 3, 1, 3, 1], [3, 1, 1, 1, 2, 3],
        [3, 1, 1, 3, 2, 1], [3, 3, 1, 1, 2, 1], [3, 1, 2, 1, 1, 3], [3, 1, 2, 3, 1, 1], [3, 3, 2, 1, 1, 1],
        [3, 1, 4, 1, 1, 1], [2, 2, 1, 4, 1, 1], [4, 3, 1, 1, 1, 1], [1, 1, 1, 2, 2, 4], [1, 1, 1, 4, 2, 2],
        [1, 2, 1, 1, 2, 4], [1, 2, 1, 4, 2, 1], [1, 4, 1, 1, 2, 2], [1, 4, 1, 2, 2, 1], [1, 1, 2, 2, 1, 4],
        [1, 1, 2, 4, 1, 2], [1, 2, 2, 1, 1, 4], [1, 2, 2, 4, 1, 1], [1, 4, 2, 1, 1, 2], [1, 4, 2, 2, 1, 1],
        [2, 4, 1, 2, 1, 1], [2, 2, 1, 1, 1, 4], [4, 1, 3, 1, 1, 1], [2, 4, 1, 1, 1, 2], [1, 3, 4, 1, 1, 1],
        [1, 1, 1, 2, 4, 2], [1, 2, 1, 1, 4, 2], [1, 2, 1, 2, 4, 1], [1, 1, 4, 2, 1, 2], [1, 2, 4, 1, 1, 2],
        [1, 2, 4, 2, 1, 1], [4, 1, 1, 2, 1, 2], [4, 2, 1, 1, 1, 2], [4, 2, 1, 2, 1, 1], [2, 1, 2, 1, 4, 1],
        [2, 1, 4, 1, 2, 1], [4, 1, 2, 1, 2, 1], [1, 1, 1, 1, 4, 3], [1, 1, 1, 3, 4, 1], [1, 3, 1, 1, 4, 1],
        [1, 1, 4, 1, 1, 3], [1, 1, 4, 3, 1, 1], [4, 1, 1, 1, 1, 3], [4, 1, 1, 3, 1, 1], [1, 1, 3, 1, 4, 1],
        [1, 1, 4, 1, 3, 1], [3, 1, 1, 1, 4, 1], [4, 1, 1, 1, 3, 1], [2, 1, 1, 4, 1, 2], [2, 1, 1, 2, 1, 4],
        [2, 1, 1, 2, 3, 2], [2, 3, 3, 1, 1, 1, 2],
    ]
    /// The first six elements of every pattern (the stop pattern truncated), all summing to 11.
    static let sixElementPatterns: [[Int]] = patterns.map { Array($0.prefix(6)) }
    static let startPatterns: [[Int]] = [patterns[103], patterns[104], patterns[105]]

    /// Edge-to-similar-edge widths (bar+space, space+bar, ...) of every symbol, keyed for lookup; symbols that
    /// share their edge pattern are left out (the specification resolves those with the bar-width sum).
    static let edgeTable: [Int: Int] = {
        var table: [Int: Int] = [:]
        var ambiguous = Set<Int>()
        for (code, p) in sixElementPatterns.enumerated() {
            let key = ((p[0] + p[1]) << 12) | ((p[1] + p[2]) << 8) | ((p[2] + p[3]) << 4) | (p[3] + p[4])
            if table[key] != nil { ambiguous.insert(key) }
            table[key] = code
        }
        for key in ambiguous { table[key] = nil }
        return table
    }()

    /// The elements on which the three start patterns agree (2, 1, 1 modules), as (offset, modules).
    static let startCommonElements: [(Int, Int)] = (0..<6).compactMap { k in
        let v = startPatterns[0][k]
        return startPatterns.allSatisfy { $0[k] == v } ? (k, v) : nil
    }

    /// False when `RowPattern.bestMatch(runs, i, startPatterns, ...)` must answer nil: an element on which all three
    /// start patterns agree deviates beyond the individual limit, computed as `RowPattern.variance` does.
    @inline(__always)
    static func couldMatchStartPattern(_ runs: UnsafeBufferPointer<Int32>, _ i: Int, width total: Int) -> Bool {
        guard total >= 11 else { return false }
        let unit = Double(total) / Double(11)
        let maxInd = maxIndividualVariance * unit
        for (k, modules) in startCommonElements where abs(Double(runs[i + k]) - Double(modules) * unit) > maxInd {
            return false
        }
        return true
    }

    /// The `edgeTable` keys of the three start codes (those the table holds), for the guard search.
    static let startEdgeKeys: [Int] = edgeTable.filter { (startA...startC).contains($0.value) }.map(\.key)

    /// Decodes one symbol from its edge-to-edge distances, which are robust to ink spread and tiny modules.
    static func edgeDecode(_ runs: UnsafeBufferPointer<Int32>, _ i: Int) -> Int? {
        guard let key = edgeKey(runs, i) else { return nil }
        return edgeTable[key]
    }

    /// `edgeDecode(runs, i)` is a start code, without the table lookup (asked at every bar of every line).
    @inline(__always)
    static func isEdgeStart(_ runs: UnsafeBufferPointer<Int32>, _ i: Int, width: Int) -> Bool {
        // edgeKey's loop, stopping as soon as the digits so far begin no start code's key. `width` is the sum of the
        // six runs from `i` (the guard search has it already).
        guard i + 6 <= runs.count else { return false }
        let total = Double(width)
        guard total > 0 else { return false }
        var key = 0
        for k in 0..<4 {
            let e = Double(Int(runs[i + k]) + Int(runs[i + k + 1])) * 11 / total
            let m = Int(e.rounded())
            guard m >= 2, m <= 7, abs(e - Double(m)) < 0.45 else { return false }
            key = (key << 4) | m
            let shift = 4 * (3 - k)
            guard startEdgeKeys.contains(where: { $0 >> shift == key }) else { return false }
        }
        return true
    }

    /// The rounded edge-to-similar-edge widths of the symbol at `i`, packed as `edgeTable` keys them.
    @inline(__always)
    static func edgeKey(_ runs: UnsafeBufferPointer<Int32>, _ i: Int) -> Int? {
        guard i + 6 <= runs.count else { return nil }
        let total = Double(RowPattern.sum(runs, i, 6))
        guard total > 0 else { return nil }
        var key = 0
        for k in 0..<4 {
            let e = Double(Int(runs[i + k]) + Int(runs[i + k + 1])) * 11 / total
            let m = Int(e.rounded())
            guard m >= 2, m <= 7, abs(e - Double(m)) < 0.45 else { return nil }
            key = (key << 4) | m
        }
        return key
    }

    static let startA = 103, startB = 104, startC = 105, stop = 106
    static let fnc1 = 102, fnc2 = 97, fnc3 = 96, shift = 98
    static let codeC = 99, codeB = 100, codeA = 101  // in set C / A / B respectively
    static let fnc4A = 101, fnc4B = 100
    static let maxAverageVariance = 0.25
    static let maxIndividualVariance = 0.7

    /// Computes the Code 128 check value of a start code and data symbols.
    static func checksum(_ codes: [Int]) -> Int {
        var sum = codes.first ?? 0
        for i in 1..<max(1, codes.count) { sum += i * codes[i] }
        return sum % 103
    }

    /// Turns symbol values (start code first, no checksum or stop) into text; FNC1 in first position is
    /// dropped (GS1), later FNC1s become GS (0x1D), FNC4 selects Latin-1 upper half.
    static func text(fromCodes codes: [Int]) throws(BarcodeReaderError) -> String {
        guard let start = codes.first, (startA...startC).contains(start) else {
            throw BarcodeReaderError(.invalidPattern, "no start code")
        }
        var set = start - startA  // 0 = A, 1 = B, 2 = C
        var out: [UInt8] = []
        var shiftNext = false
        var fnc4Once = false
        var fnc4Latch = false
        var lastWasFNC4 = false
        for (position, code) in codes.dropFirst().enumerated() {
            let currentSet = shiftNext ? (set == 0 ? 1 : 0) : set
            shiftNext = false
            let wasFNC4 = lastWasFNC4
            lastWasFNC4 = false
            func emit(_ c: Int) {
                let upper = fnc4Latch != fnc4Once
                out.append(UInt8(truncatingIfNeeded: upper ? c + 128 : c))
                fnc4Once = false
            }
            guard code < 103 else { throw BarcodeReaderError(.invalidPattern, "unexpected start code") }
            if code == fnc1 {
                if position > 0 { out.append(0x1D) }
                continue
            }
            switch currentSet {
            case 2:
                if code < 100 {
                    out.append(UInt8(48 + code / 10))
                    out.append(UInt8(48 + code % 10))
                } else if code == codeB {
                    set = 1
                } else if code == codeA {
                    set = 0
                }
            default:
                let isA = currentSet == 0
                if code < 64 {
                    emit(code + 32)
                } else if code < 96 {
                    emit(isA ? code - 64 : code + 32)
                } else if code == fnc2 || code == fnc3 {
                    continue
                } else if code == shift {
                    shiftNext = true
                } else if code == codeC {
                    set = 2
                } else if (isA && code == fnc4A) || (!isA && code == fnc4B) {
                    if wasFNC4 {
                        fnc4Latch.toggle()
                        fnc4Once = false
                    } else {
                        fnc4Once = true
                        lastWasFNC4 = true
                    }
                } else {
                    set = isA ? 1 : 0
                }
            }
        }
        // Latin-1 bytes map one to one onto Unicode scalars.
        return String(String.UnicodeScalarView(out.map { Unicode.Scalar($0) }))
    }

    /// Finds and decodes the first Code 128 symbol starting at or after run `from`.
    static func decode(_ runs: UnsafeBufferPointer<Int32>, from: Int) -> (hit: LinearHit?, guardIndex: Int?) {
        let minCharCount = 4  // start, one data symbol, checksum, stop
        guard
            let b = RowPattern.findLeftGuard(
                runs, from: from, minSize: minCharCount * 6 + 1,
                { i, space in
                    let width = RowPattern.sum(runs, i, 6)
                    guard space == Int.max || space * 4 >= width else { return false }
                    if couldMatchStartPattern(runs, i, width: width), RowPattern.bestMatch(
                        runs, i, startPatterns, patternLength: 11, maxAverage: maxAverageVariance,
                        maxIndividual: maxIndividualVariance) != nil
                    {
                        return true
                    }
                    return isEdgeStart(runs, i, width: width)
                })
        else { return (nil, nil) }
        var codes: [Int] = []
        var i = b
        var foundStop = false
        var lastWidth = Double(RowPattern.sum(runs, b, 6))
        while i + 6 <= runs.count {
            // All symbols are 11 modules: reject a symbol whose width is far from the previous one's.
            let w = Double(RowPattern.sum(runs, i, 6))
            defer { lastWidth = w }
            guard w > lastWidth * 0.7, w < lastWidth * 1.4,
                let code = RowPattern.bestMatch(
                    runs, i, sixElementPatterns, patternLength: 11, maxAverage: maxAverageVariance,
                    maxIndividual: maxIndividualVariance) ?? edgeDecode(runs, i)
            else { return (nil, b) }
            if codes.isEmpty && !(startA...startC).contains(code) { return (nil, b) }
            if code == stop {
                guard i + 7 <= runs.count, Int(runs[i + 6]) * 13 <= Int(w * 13 / 11 * 2.5 + 13) else {
                    return (nil, b)
                }
                let after = RowPattern.spaceAfter(runs, i, 7)
                guard after == Int.max || Double(after) >= w / 2 else { return (nil, b) }
                i += 7
                foundStop = true
                break
            }
            codes.append(code)
            i += 6
        }
        guard foundStop, codes.count >= 3, let check = codes.last else { return (nil, b) }
        let data = Array(codes.dropLast())
        guard checksum(data) == check else { return (nil, b) }
        guard let text = try? Self.text(fromCodes: data), !text.isEmpty else { return (nil, b) }
        return (LinearHit(format: .code128, text: text, start: b, end: i), b)
    }
}
