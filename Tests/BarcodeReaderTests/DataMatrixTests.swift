@testable import BarcodeReader
import Testing

@Suite struct DataMatrixTests {
    @Test(arguments: DMVersion.all.map { "\($0.rows)x\($0.columns)" })
    func placementCoversEveryCodewordBitOnce(_ size: String) throws {
        let parts = size.split(separator: "x").compactMap { Int($0) }
        let version = try #require(DMVersion.forSize(rows: parts[0], columns: parts[1]))
        let table = DMPlacement.table(rows: version.mappingRows, columns: version.mappingColumns)
        var seen = Set<Int>()
        for p in table where p >= 0 { seen.insert(p) }
        #expect(seen.count == version.totalCodewords * 8, "every bit of every codeword placed exactly once")
        #expect(seen.max() == version.totalCodewords * 8 - 1)
    }

    /// The kept list of a size's data modules is the placement walk's, each module at its place in the whole symbol
    /// (finder, timing and region borders included), and the same list on every call.
    @Test(arguments: DMVersion.all.map { "\($0.rows)x\($0.columns)" })
    func dataModulesAreThePlacementWalksInSymbolCoordinates(_ size: String) throws {
        let parts = size.split(separator: "x").compactMap { Int($0) }
        let version = try #require(DMVersion.forSize(rows: parts[0], columns: parts[1]))
        let (nrow, ncol) = (version.mappingRows, version.mappingColumns)
        let table = DMPlacement.table(rows: nrow, columns: ncol)
        var expected: [[Int32]] = []
        for r in 0..<nrow {
            for c in 0..<ncol where table[r * ncol + c] >= 0 {
                // Each data region is surrounded by its finder (left, bottom) and timing (top, right) modules.
                let y = (r / version.regionRows) * (version.regionRows + 2) + 1 + r % version.regionRows
                let x = (c / version.regionColumns) * (version.regionColumns + 2) + 1 + c % version.regionColumns
                expected.append([Int32(y * version.columns + x), Int32(table[r * ncol + c])])
            }
        }
        #expect(DMPlacement.modules(version).map { [$0.symbolIndex, $0.bit] } == expected)
        #expect(DMPlacement.modules(version).map { [$0.symbolIndex, $0.bit] } == expected)
    }

    /// A symbol's modules read back as its codewords, from a grid of the version's size and from one sampled wider
    /// (whose modules are read where they fall).
    @Test func aSymbolsModulesReadBackAsItsCodewords() throws {
        let version = try #require(DMVersion.forSize(rows: 12, columns: 12))
        let data = [66, 142, 164, 129, 175]  // "A1234"
        let codewords = data + ReedSolomon.encode(data, ecCount: version.ecCodewords, field: .dataMatrix)
        var exact = BitMatrix(width: 12, height: 12)
        var wider = BitMatrix(width: 14, height: 12)
        for (index, p) in DMPlacement.modules(version) where (codewords[Int(p >> 3)] << Int(p & 7)) & 0x80 != 0 {
            exact.set(Int(index) % 12, Int(index) / 12)
            wider.set(Int(index) % 12, Int(index) / 12)
        }
        #expect(try DMDecoder.codewords(exact, version: version) == data)
        #expect(try DMDecoder.codewords(wider, version: version) == data)
        #expect(try DMDecoder.decode(exact, version: version).text == "A1234")
    }

    /// The smallest symbol (10×10, 5 check codewords) is read with up to one codeword corrected, not at its full
    /// capacity of two; the next sizes keep their full capacity (12×12: three of seven).
    @Test func theSmallestSymbolIsNotTrustedAtItsFullCorrection() throws {
        func matrix(_ rows: Int, _ data: [Int], wrong: [Int]) throws -> (BitMatrix, DMVersion) {
            let version = try #require(DMVersion.forSize(rows: rows, columns: rows))
            var codewords = data + ReedSolomon.encode(data, ecCount: version.ecCodewords, field: .dataMatrix)
            for k in wrong { codewords[k] ^= 0x5A }
            var m = BitMatrix(width: rows, height: rows)
            for (index, p) in DMPlacement.modules(version) where (codewords[Int(p >> 3)] << Int(p & 7)) & 0x80 != 0 {
                m.set(Int(index) % rows, Int(index) / rows)
            }
            return (m, version)
        }
        let small = [66, 67, 129]  // "AB", padded
        for wrong in [[], [1], [6]] {
            let (m, version) = try matrix(10, small, wrong: wrong)
            #expect(try DMDecoder.decode(m, version: version).text == "AB", "wrong codewords \(wrong)")
        }
        for wrong in [[0, 4], [2, 7]] {
            let (m, version) = try matrix(10, small, wrong: wrong)
            #expect(throws: BarcodeReaderError(.uncorrectable)) { _ = try DMDecoder.decode(m, version: version) }
        }
        let (m, version) = try matrix(12, [66, 142, 164, 129, 175], wrong: [0, 5, 9])
        #expect(try DMDecoder.decode(m, version: version).text == "A1234")
    }

    /// A grid's outer finder and timing modules: all right on a symbol, about half right on noise (below the share a
    /// grid needs for its data to be decoded), and the share counts each wrong module.
    @Test func theShareOfAGridsFinderAndTimingModulesThatAreRight() throws {
        let version = try #require(DMVersion.forSize(rows: 16, columns: 16))
        var symbol = BitMatrix(width: 16, height: 16)
        for k in 0..<16 {
            symbol.set(0, k)  // solid left
            symbol.set(k, 15)  // solid bottom
            if k % 2 == 0 { symbol.set(k, 0) }  // top timing, dark first
            if (15 - k) % 2 == 0 { symbol.set(15, k) }  // right timing, dark at the bottom
        }
        #expect(DataMatrixReader.fixedPatternShare(symbol, version: version) == 1)
        var broken = symbol
        broken.set(0, 5, false)
        broken.set(3, 15, false)
        #expect(DataMatrixReader.fixedPatternShare(broken, version: version) == 62.0 / 64)
        var state: UInt64 = 7
        var noise = BitMatrix(width: 16, height: 16)
        for y in 0..<16 {
            for x in 0..<16 {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                if state >> 63 == 1 { noise.set(x, y) }
            }
        }
        #expect(DataMatrixReader.fixedPatternShare(noise, version: version) < DataMatrixReader.minSampledFixedShare)
    }

    @Test func aPointOnAQuadrilateralInEitherWinding() {
        let square = [Point(x: 0, y: 0), Point(x: 10, y: 0), Point(x: 10, y: 10), Point(x: 0, y: 10)]
        #expect(DataMatrixReader.quad(square, contains: (5, 5)))
        #expect(DataMatrixReader.quad(Array(square.reversed()), contains: (5, 5)))
        #expect(!DataMatrixReader.quad(square, contains: (11, 5)))
        #expect(!DataMatrixReader.quad(square, contains: (5, -0.5)))
        #expect(!DataMatrixReader.quad(Array(square.prefix(3)), contains: (5, 5)))
    }

    @Test func asciiDigitPairsAndPadding() throws {
        // "A" (66), digits "12" (130 + 12), "34" (164), pad 129.
        #expect(try DMDecoder.parse([66, 142, 164, 129, 175]) == "A1234")
    }

    @Test func c40AndUnlatch() throws {
        // Latch C40, "AIM" = values 14+0, 14+8, 14+12 -> 1600*14 + 40*22 + 26 + 1 = 23307 -> 91, 11; unlatch; 'a'.
        #expect(try DMDecoder.parse([230, 91, 11, 254, 98]) == "AIMa")
    }

    @Test func base256WithRandomisation() throws {
        // Latch Base 256 at position 1, length 2, bytes 0xC3 0xA9 ("é" in UTF-8 as raw bytes, read as Latin-1).
        func randomise(_ value: Int, position: Int) -> Int {
            let pseudo = ((149 * position) % 255) + 1
            let t = value + pseudo
            return t <= 255 ? t : t - 256
        }
        let data = [231, randomise(2, position: 2), randomise(0xC3, position: 3), randomise(0xA9, position: 4)]
        #expect(try DMDecoder.parse(data) == "Ã©")
    }

    @Test func invalidCodewordThrows() {
        #expect(throws: BarcodeReaderError(.invalidData)) { _ = try DMDecoder.parse([0]) }
    }
}

/// ECI, GS1, macro and structured-append codewords (issue 11, point 4), encoded by hand from ISO/IEC 16022.
@Suite struct DataMatrixContentTests {
    /// An ASCII-mode byte ≥ 128: upper shift (235) then the byte − 128 + 1.
    static func upper(_ byte: UInt8) -> [Int] { [235, Int(byte) - 127] }

    @Test(arguments: [([27], 26), ([4], 3), ([131, 112], 1000), ([192, 15, 62], 20000)])
    func eciDesignatorsOfOneTwoAndThreeCodewords(_ codewords: [Int], _ value: Int) throws {
        var i = 0
        #expect(try DMDecoder.eciValue(codewords, &i) == value)
        #expect(i == codewords.count)
    }

    @Test func eciSwitchesTheCharacterSet() throws {
        // "é" as UTF-8 (C3 A9) after ECI 26; the same bytes without ECI are ISO-8859-1.
        let bytes = Self.upper(0xC3) + Self.upper(0xA9)
        let utf8 = try DMDecoder.content([241, 27] + bytes)
        #expect(utf8.text == "é")
        #expect(utf8.eci == [26])
        #expect(try DMDecoder.content(bytes) == MessageContent(text: "Ã©"))
        // ISO-8859-5 (ECI 7) 0xBF is П, ISO-8859-7 (ECI 9) 0xE1 is α: two switches in one message.
        let mixed = try DMDecoder.content([66] + [241, 8] + Self.upper(0xBF) + [241, 10] + Self.upper(0xE1))
        #expect(mixed.text == "AПα")
        #expect(mixed.eci == [7, 9])
    }

    @Test func fnc1FirstIsGS1AndLaterIsGroupSeparator() throws {
        // FNC1, "10" "AB" (digit pair 10, A, B), FNC1, "21".
        let gs1 = try DMDecoder.content([232, 140, 66, 67, 232, 151])
        #expect(gs1 == MessageContent(text: "10AB\u{1D}21", gs1: true))
        let plain = try DMDecoder.content([66, 232, 67])
        #expect(plain == MessageContent(text: "A\u{1D}B", gs1: false))
    }

    @Test func structuredAppendHeaderAndGS1AfterIt() throws {
        // Symbol 2 of 3 (upper nibble 1, lower 17 − 3 = 14), file id 1, 2; then FNC1 in the first data position.
        let c = try DMDecoder.content([233, 0x1E, 1, 2, 232, 140])
        #expect(c.structuredAppend == StructuredAppend(position: 1, total: 3, parity: 258))
        #expect(c.gs1)
        #expect(c.text == "10")
        // Anywhere but first it is not a structured-append header.
        #expect(throws: BarcodeReaderError(.invalidData)) { _ = try DMDecoder.content([66, 233, 0x1E, 1, 2]) }
    }

    @Test func macroHeadersAreExpanded() throws {
        #expect(try DMDecoder.parse([236, 66, 142]) == "[)>\u{1E}05\u{1D}A12\u{1E}\u{04}")
        #expect(try DMDecoder.parse([237, 66, 129]) == "[)>\u{1E}06\u{1D}A\u{1E}\u{04}")
    }

    @Test func edifactUnlatchResumesAtTheNextCodeword() throws {
        // EDIFACT "ABC1", then unlatch in the first sextet of 124 (011111 00), then ASCII 153 = digits "23".
        #expect(try DMDecoder.parse([240, 4, 32, 241, 124, 153, 129]) == "ABC123")
        // Fewer than three codewords left in EDIFACT: ASCII again without an unlatch.
        #expect(try DMDecoder.parse([240, 66, 67]) == "AB")
    }
}

/// Data Matrix rendered by zint with ECI, GS1, macro 05/06 and structured append, read back exactly.
@Suite(.enabled(if: ZintRender.available, "zint is missing (apt-get install zint)"))
struct ZintDataMatrixTests {
    /// (ECI, text) in every character set of the AIM register zint encodes and Foundation decodes.
    static let eciTexts: [(Int, String)] = [
        (3, "Grüße"), (4, "Łódź"), (5, "Ħĉĝ"), (6, "ĀĒĪ ŗ"), (7, "Привет"), (8, "مرحبا"), (9, "Καλημέρα"),
        (10, "שלום"), (11, "İstanbul ş"), (12, "Ŋŧ ĸ"), (13, "สวัสดี"), (15, "Ąžuolas ė"), (16, "Ḃṁŷ"),
        (17, "€uro œ"), (18, "Ș ț"), (20, "日本"), (21, "Łódź"), (22, "Привет"), (23, "€ “x”"), (25, "Grüße €"),
        (26, "Grüße € 日本"), (28, "中文"), (29, "中文"), (30, "한글"), (32, "中文"), (33, "Grüße"), (34, "Grüße"),
        (35, "Grüße"),
    ]

    @Test(arguments: eciTexts)
    func eciIsDecodedToTheRightCharacters(_ eci: Int, _ text: String) throws {
        for scale in ["2", "4"] {
            let image = try ZintRender.render(barcode: 71, data: text, extra: ["--eci=\(eci)", "--scale", scale])
            let found = BarcodeReader().decode(image)
            #expect(found.map(\.text) == [text], "ECI \(eci), scale \(scale)")
            #expect(found.first?.eci == [eci])
        }
    }

    /// Two symbols in one frame, a large one and a small one beside it, both read: a candidate is passed over
    /// only when it lies on a symbol already read (the parts of the large one's data regions), never beside it.
    @Test func twoSymbolsSideBySideAreBothRead() throws {
        let long = String(repeating: "STOCKROOM-0123456789 ", count: 4)
        let large = try ZintRender.render(barcode: 71, data: long, extra: ["--scale", "4"])
        let small = try ZintRender.render(barcode: 71, data: "SKU-42", extra: ["--scale", "4"])
        let w = large.width + small.width + 40, h = max(large.height, small.height) + 40
        var pixels = [UInt8](repeating: 255, count: w * h)
        for (image, x0) in [(large, 20), (small, large.width + 20)] {
            for y in 0..<image.height {
                for x in 0..<image.width { pixels[(20 + y) * w + x0 + x] = image.pixels[y * image.width + x] }
            }
        }
        let found = BarcodeReader().decode(GrayscaleImage(width: w, height: h, pixels: pixels)!)
        #expect(Set(found.map(\.text)) == [long, "SKU-42"])
    }

    @Test func noECIIsLatin1() throws {
        let found = BarcodeReader().decode(try ZintRender.render(barcode: 71, data: "Grüße", extra: ["--scale", "3"]))
        #expect(found.map(\.text) == ["Grüße"])
        #expect(found.first?.eci == [])
        #expect(found.first?.gs1 == false)
    }

    @Test func gs1() throws {
        let image = try ZintRender.render(
            barcode: 71, data: "[01]09501101530003[10]AB-123[21]XYZ", extra: ["--gs1", "--scale", "3"])
        let found = BarcodeReader().decode(image)
        // The lot (10) is variable-length and not last: FNC1 after it, read as GS.
        #expect(found.map(\.text) == ["0109501101530003" + "10AB-123\u{1D}" + "21XYZ"])
        #expect(found.first?.gs1 == true)
    }

    @Test(arguments: ["05", "06"])
    func macroHeaders(_ macro: String) throws {
        let image = try ZintRender.render(
            barcode: 71, data: "[)>\\R\(macro)\\GABC123\\R\\E", extra: ["--esc", "--scale", "3"])
        let found = BarcodeReader().decode(image)
        #expect(found.map(\.text) == ["[)>\u{1E}\(macro)\u{1D}ABC123\u{1E}\u{04}"])
        #expect(found.first?.rawBytes?.first == (macro == "05" ? 236 : 237), "zint used the macro codeword")
    }

    @Test func structuredAppend() throws {
        for (position, total) in [(1, 2), (2, 3), (16, 16)] {
            let image = try ZintRender.render(
                barcode: 71, data: "part \(position)", extra: ["--structapp=\(position),\(total),003004", "--scale", "3"])
            let found = BarcodeReader().decode(image)
            #expect(found.map(\.text) == ["part \(position)"])
            #expect(found.first?.structuredAppend == StructuredAppend(position: position - 1, total: total, parity: 3 << 8 | 4))
        }
    }
}
