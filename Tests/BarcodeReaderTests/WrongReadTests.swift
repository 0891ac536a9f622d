@testable import BarcodeReader
import BarcodeImage
import Foundation
import Testing

/// The rules that keep the EAN/UPC family from reporting a wrong product (issue 11): quiet zones on both
/// sides, bar-width consistency across the whole symbol, no digit guessed between two patterns, no shorter
/// symbol from inside a longer one, and a clear majority when lines disagree.
@Suite struct WrongReadTests {
    static let ean13 = "4006381333931"

    /// Stacks images of possibly different widths (left aligned, paper filling the rest), with `gap` paper rows.
    static func stack(_ images: [GrayscaleImage], gap: Int = 0, paper: UInt8 = 235) -> GrayscaleImage {
        let width = images.map(\.width).max() ?? 0
        var pixels: [UInt8] = []
        for (k, image) in images.enumerated() {
            if k > 0 { pixels += [UInt8](repeating: paper, count: width * gap) }
            for y in 0..<image.height {
                pixels += image.pixels[(y * image.width)..<((y + 1) * image.width)]
                pixels += [UInt8](repeating: paper, count: width - image.width)
            }
        }
        guard let image = GrayscaleImage(width: width, height: pixels.count / width, pixels: pixels) else {
            preconditionFailure("size")
        }
        return image
    }

    @Test func quietZonesAreRequiredOnBothSides() {
        let widths = TestSymbols.ean13(Self.ean13)
        #expect(BarcodeReader().decode(TestSymbols.render(widths)).first?.text == Self.ean13)
        // A bar 3 modules after the right guard, or before the left guard: a fragment of something wider.
        #expect(BarcodeReader().decode(TestSymbols.render(widths + [3, 2])).isEmpty)
        #expect(BarcodeReader().decode(TestSymbols.render([2, 3] + widths)).isEmpty)
    }

    @Test func everyDigitMustBeSevenModulesOfTheSymbolsModule() {
        // Digit 3 drawn twice as wide: every digit's pattern still matches (the match is scale-free) and the
        // check digit still holds, but no real symbol looks like this.
        var widths = TestSymbols.ean13(Self.ean13)
        for k in (3 + 2 * 4)..<(3 + 3 * 4) { widths[k] *= 2 }
        #expect(BarcodeReader().decode(TestSymbols.render(widths, moduleWidth: 2)).isEmpty)
    }

    @Test func consistentModuleMeasuresTheSymbol() {
        let widths = TestSymbols.ean13(Self.ean13).map { Int32($0 * 3) }
        let runs: [Int32] = [30] + widths + [30]
        runs.withUnsafeBufferPointer { r in
            let starts = (0..<6).map { 4 + 4 * $0 } + (0..<6).map { 33 + 4 * $0 }
            let module = UPCEAN.consistentModule(r, digitStarts: starts, guards: [(1, 3, 3), (28, 5, 5), (57, 3, 3)])
            #expect(module == 3)
            // The middle guard read as wide as a digit: inconsistent.
            #expect(UPCEAN.consistentModule(r, digitStarts: starts, guards: [(28, 5, 12)]) == nil)
        }
    }

    @Test func aDigitBetweenTwoPatternsIsNotClear() {
        // At 2 px a module, 4-3-4-3 is as far from digit 1 (2-2-2-1) as from digit 2 (2-1-2-2).
        let tie: [Int32] = [9, 4, 3, 4, 3, 9]
        let clean: [Int32] = [9, 4, 4, 4, 2, 9]
        tie.withUnsafeBufferPointer { r in
            let m = RowPattern.bestMatchWithMargin(r, 1, UPCEAN.lPatterns, patternLength: 7, maxAverage: 0.48, maxIndividual: 0.7)
            #expect(m?.margin == 0)
        }
        clean.withUnsafeBufferPointer { r in
            let m = RowPattern.bestMatchWithMargin(r, 1, UPCEAN.lPatterns, patternLength: 7, maxAverage: 0.48, maxIndividual: 0.7)
            #expect(m?.index == 1)
            #expect((m?.margin ?? 0) > UPCEAN.minDigitMargin)
        }
    }

    @Test func aSymbolReadOnlyByGuessingIsNotReported() {
        // The right-half digit 1 of a symbol whose check digit is computed with that 1, drawn halfway to a 2
        // (4-3-4-3 px at 2 px a module): every line reads the same valid code, but only by picking one of two
        // equally good patterns.
        let text = "4006381333931"
        var widths = TestSymbols.ean13(text).map { $0 * 2 }
        #expect(BarcodeReader().decode(TestSymbols.render(widths, moduleWidth: 1, quietZone: 24)).first?.text == text)
        // Right half: digits 7...12 start at run 3 + 24 + 5; digit 12 ("1", the check digit) is the last.
        let last = 3 + 24 + 5 + 5 * 4
        #expect(Array(widths[last..<(last + 4)]) == [4, 4, 4, 2])
        widths.replaceSubrange(last..<(last + 4), with: [4, 3, 4, 3])
        #expect(BarcodeReader().decode(TestSymbols.render(widths, moduleWidth: 1, quietZone: 24)).isEmpty)
    }

    @Test func noEAN8FromRowsNextToAnEAN13() {
        let ean13 = TestSymbols.render(TestSymbols.ean13(Self.ean13), height: 30)
        let ean8 = TestSymbols.render(TestSymbols.ean8("96385074"), height: 30)
        let found = BarcodeReader(options: .init(tryRotate: false)).decode(Self.stack([ean13, ean8], gap: 2))
        #expect(found.map(\.text) == [Self.ean13])
        // Far apart, both are real symbols.
        let apart = BarcodeReader(options: .init(tryRotate: false)).decode(Self.stack([ean13, ean8], gap: 30))
        #expect(Set(apart.map(\.text)) == [Self.ean13, "96385074"])
    }

    @Test func noITFFragmentNextToALongerITF() {
        let long = TestSymbols.render(TestSymbols.itf("00012345678905"), moduleWidth: 2, height: 30)
        let short = TestSymbols.render(TestSymbols.itf("123456"), moduleWidth: 2, height: 30)
        let found = BarcodeReader(options: .init(tryRotate: false)).decode(Self.stack([long, short], gap: 2))
        #expect(found.map(\.text) == ["00012345678905"])
    }

    /// An ITF-14 seen whole on one line, and on lines further down (where glare hid its last digit pair) as its first
    /// 12 digits with a quiet zone after them: the 12 digits are a fragment, whatever the rows between
    /// (`barcode-gen.py` seed 917029165, itf-bearer/018).
    @Test func noITFFragmentOfALongerITFSeenElsewhereOnTheSymbol() {
        let long = TestSymbols.render(TestSymbols.itf("83348731803907"), moduleWidth: 2, height: 1)
        let fragment = TestSymbols.render(TestSymbols.itf("833487318039"), moduleWidth: 2, height: 30)
        let found = BarcodeReader(options: .init(tryRotate: false)).decode(Self.stack([long, fragment], gap: 20))
        #expect(found.isEmpty, "read \(found.map(\.text))")
        // Without the longer symbol, the 12-digit ITF is a symbol of its own.
        #expect(BarcodeReader(options: .init(tryRotate: false)).decode(fragment).map(\.text) == ["833487318039"])
    }

    /// Glare fading an ITF-14's right half (`barcode-gen.py` seed 106654469, 30 a set at 640×480,
    /// nested-itf14/003): five lines found a stop pattern and a quiet zone after 10 digits, four read the same 10
    /// with no end after them, and one found an end after 8. The 8 prove that this print fakes an end inside its
    /// bars, and the 10 have no clear majority of ended lines: no symbol. A GS1 ITF-14 (its check digit holds) is
    /// still trusted beside such lines, and so is a symbol whose end is seen on nearly every line that reads it
    /// (a tilted one, whose corner rows read a part: synthetic/itf-synth/026 in the public corpus).
    @Test func anITFWithAFakedEndNeedsItsEndOnAClearMajorityOfItsLines() {
        let reader = BarcodeReader(options: .init(tryRotate: false))
        func rows(_ digits: String, height: Int, ended: Bool = true) -> GrayscaleImage {
            var widths = TestSymbols.itf(digits)
            // No stop pattern: the bars after the last pair are too few for a pair and are no stop either.
            if !ended { widths = Array(widths.dropLast(3)) + [1, 3, 1] }
            return TestSymbols.render(widths, moduleWidth: 2, height: height)
        }
        let ended = rows("6137191344", height: 5)
        let unended = rows("6137191344", height: 4, ended: false)
        #expect(reader.decode(Self.stack([ended, unended], gap: 20)).map(\.text) == ["6137191344"])
        for part in ["61371913", "37191344"] {
            let found = reader.decode(Self.stack([ended, unended, rows(part, height: 1)], gap: 20))
            #expect(found.isEmpty, "with \(part): read \(found.map(\.text))")
        }
        // Seen with an end on a clear majority of its lines, the symbol is read beside the part.
        let tall = rows("6137191344", height: 20)
        let found = reader.decode(Self.stack([tall, unended, rows("61371913", height: 1)], gap: 20))
        #expect(found.map(\.text) == ["6137191344"])
        // A checked ITF-14 beside a line that read its first 12 digits and lines with no end.
        let itf14 = Self.stack([
            rows("00012345678905", height: 5), rows("00012345678905", height: 4, ended: false),
            rows("000123456789", height: 1),
        ], gap: 20)
        #expect(reader.decode(itf14).map(\.text) == ["00012345678905"])
        #expect(LinearScanner.isCheckedITF14("00012345678905"))
        #expect(!LinearScanner.isCheckedITF14("00012345678904"))
        #expect(!LinearScanner.isCheckedITF14("6137191344"))
        #expect(LinearScanner.isClearMajority(4, over: 2) && !LinearScanner.isClearMajority(3, over: 2))
    }

    /// An ITF-14 whose right end the image border cut (`barcode-gen.py --seed 1926463284 --hard`, itf-bearer/030):
    /// 3 lines found a stop pattern and a quiet zone after its first 10 digits, 16 read 12 digits and ran on. The
    /// symbol went on where the few saw an end, so the 10 digits are no symbol; seen ended on a clear majority of
    /// lines, they are.
    @Test func anITFWhoseLinesReadOnPastItsEndIsNoSymbol() {
        let reader = BarcodeReader(options: .init(tryRotate: false))
        func rows(_ digits: String, height: Int, ended: Bool = true) -> GrayscaleImage {
            var widths = TestSymbols.itf(digits)
            if !ended { widths = Array(widths.dropLast(3)) + [1, 3, 1] }
            return TestSymbols.render(widths, moduleWidth: 2, height: height)
        }
        let runOn = rows("613719134412", height: 16, ended: false)
        let found = reader.decode(Self.stack([rows("6137191344", height: 3), runOn], gap: 20))
        #expect(found.isEmpty, "read \(found.map(\.text))")
        let tall = reader.decode(Self.stack([rows("6137191344", height: 40), runOn], gap: 20))
        #expect(tall.map(\.text) == ["6137191344"])
    }

    /// Lines across the corner of a tilted ITF-14 (`barcode-gen.py --seed 584695366`, itf-bearer/025) cross its
    /// bars' ends and read 6 other digits, rows away from the lines that read the symbol but with its bars all the
    /// way between: a part of it, not a second symbol. Paper between the two is two labels, and both are read.
    @Test func aFewDigitsReadAcrossATiltedITFsCornerAreNoSecondSymbol() {
        let reader = BarcodeReader(options: .init(tryRotate: false))
        let widths = TestSymbols.itf("00012345678905")
        let symbol = TestSymbols.render(widths, moduleWidth: 2, height: 30)
        // The symbol's bars without its start pattern: bars all the way, no symbol.
        let bars = TestSymbols.render(Array(widths.dropFirst(6)), moduleWidth: 2, height: 20)
        let corner = TestSymbols.render(TestSymbols.itf("184530"), moduleWidth: 2, height: 3)
        #expect(reader.decode(bars).isEmpty)
        let found = reader.decode(Self.stack([corner, bars, symbol]))
        #expect(found.map(\.text) == ["00012345678905"])
        let labels = reader.decode(Self.stack([corner, symbol], gap: 20))
        #expect(Set(labels.map(\.text)) == ["00012345678905", "184530"])
    }

    /// An ITF-14 running off the image's left border (`barcode-gen.py --hard --seed 1435322806`,
    /// itf-bearer/002, 36186202558824): its first pair's last four elements are narrow, and on the few lines where a
    /// shadow whitened what lay before them they pass for a start pattern with a quiet zone, so those lines read
    /// `186202558824`, a valid length. Every other line, read back from the stop pattern, crosses the same digits and
    /// meets no start before them.
    @Test func anITFWhoseStartRanOffTheImageIsNoShorterSymbol() throws {
        let reader = BarcodeReader(options: .init(tryRotate: false))
        let full = TestSymbols.render(TestSymbols.itf("36186202558824"), moduleWidth: 2, height: 1)
        // Quiet zone 12, start 4 and the first pair's bars and spaces 3 1 3 3 1 3: its fourth bar at module 30.
        let cut = 40
        let fourthBar = 60
        func band(_ height: Int, whitened: Bool) -> [UInt8] {
            var row = Array(full.pixels[cut...])
            if whitened { for x in 0..<(fourthBar - cut) { row[x] = 235 } }
            return Array([[UInt8]](repeating: row, count: height).joined())
        }
        let width = full.width - cut
        func image(_ bands: [[UInt8]]) throws -> GrayscaleImage {
            let pixels = Array(bands.joined())
            return try #require(GrayscaleImage(width: width, height: pixels.count / width, pixels: pixels))
        }
        // The whitened rows alone are a 12-digit ITF, and are read.
        #expect(reader.decode(try image([band(12, whitened: true)])).map(\.text) == ["186202558824"])
        // Beside the rows that run off the image, they are a part of a longer symbol.
        let found = reader.decode(try image([band(3, whitened: true), band(40, whitened: false)]))
        #expect(found.isEmpty, "read \(found.map(\.text))")
        // Lines that read back from the end through the same digits and one pair more, with no start, weigh as
        // the lines that read on past an end do: the shorter reading needs a clear majority over them. Those that
        // read exactly these digits, as above, need four times its lines.
        let longer = TestSymbols.render(TestSymbols.itf("5036186202558824"), moduleWidth: 2, height: 6)
        let cutPixels = (0..<6).flatMap { y in longer.pixels[(y * longer.width + cut)..<((y + 1) * longer.width)] }
        let cutLonger = try #require(GrayscaleImage(width: longer.width - cut, height: 6, pixels: cutPixels))
        let scanner = LinearScanner(image: cutLonger, formats: [.itf], minLineCount: 2, rowDivisor: 96)
        _ = scanner.scanCandidates(
            rotated: false, binarization: .histogram, decoders: [{ ITF.decodeUnstarted($0, from: $1) }])
        #expect(scanner.fragments.unstarted("186202558824", longer: true) > 0)
        #expect(scanner.fragments.unstarted("186202558824", longer: false) == 0)
    }

    @Test func disagreeingLinesNeedAClearMajority() {
        // Two different EAN-13s on neighbouring rows, equally tall: neither has a majority.
        let a = TestSymbols.render(TestSymbols.ean13(Self.ean13), height: 20)
        let b = TestSymbols.render(TestSymbols.ean13("5901234123457"), height: 20)
        #expect(BarcodeReader(options: .init(tryRotate: false)).decode(Self.stack([a, b], gap: 1)).isEmpty)
        // One much taller than the other: the majority wins.
        let tall = TestSymbols.render(TestSymbols.ean13(Self.ean13), height: 60)
        let short = TestSymbols.render(TestSymbols.ean13("5901234123457"), height: 4)
        let found = BarcodeReader(options: .init(tryRotate: false)).decode(Self.stack([tall, short], gap: 1))
        #expect(found.map(\.text) == [Self.ean13])
        #expect(LinearScanner.sameGTINLength(.ean13, .upcA))
        #expect(!LinearScanner.sameGTINLength(.ean13, .ean8))
    }
    /// Two readings of one symbol on interleaved rows, each read clearly on several lines: the larger vote does not
    /// make it right. `barcode-gen.py` seed 744123881, ean8-gen/001 (EAN-8 88785080 under perspective and blur): 12
    /// local-threshold lines read 82125080 (8/2 and 7/1 swapped by the blur, the check digit still holding), 5 read
    /// the right code, and 12 against 5 was a "clear majority".
    @Test func aConfirmedDisagreementOnTheSameRowsRefusesTheMajority() throws {
        guard let image = GrayscaleImage(width: 4, height: 4, pixels: [UInt8](repeating: 255, count: 16)) else {
            Issue.record("image")
            return
        }
        let scanner = LinearScanner(image: image, formats: [.ean8], minLineCount: 2, rowDivisor: 96)
        func candidate(_ text: String, lines: Int, clear: Int, rows: ClosedRange<Int>) -> LinearScanner.Candidate {
            .init(
                format: .ean8, text: text, lineCount: lines, clearLines: clear, firstRow: rows.lowerBound,
                firstSpan: (165, 432), lastRow: rows.upperBound, lastSpan: (166, 426))
        }
        let wrong = candidate("82125080", lines: 12, clear: 12, rows: 170...245)
        let right = candidate("88785080", lines: 5, clear: 5, rows: 173...220)
        #expect(scanner.disagreementRefuses(wrong, right))
        #expect(scanner.disagreementRefuses(right, wrong))
        // The same vote with the minority read on a band of rows of its own (a scuff, a neighbouring label): the
        // majority stands.
        #expect(!scanner.disagreementRefuses(wrong, candidate("88785080", lines: 5, clear: 5, rows: 250...262)))
        // Interleaved, but never read clearly on enough lines to be confirmed itself: the majority stands.
        #expect(!scanner.disagreementRefuses(wrong, candidate("88785080", lines: 5, clear: 1, rows: 173...220)))

        // The picture itself (half size, where the old rule still misread it): the right code or nothing.
        let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Fixtures/ean8-88785080-perspective-blur.png")
        let found = BarcodeReader().decode(try ImageLoader.load(path: fixture.path))
        #expect(found.allSatisfy { $0.text == "88785080" }, "read \(found.map(\.text))")
    }
    /// A GTIN read at the histogram threshold is asked of the local threshold's lines (issue 11, "the same line at two
    /// thresholds"): another GTIN of its length read clearly at its place, and itself read nowhere there, refuses it.
    /// The picture is `GeneratedCorpusTests.aShadowAcrossAnEAN13IsNotReadAsAnotherProduct`.
    @Test func aGTINContradictedAtTheSecondThresholdIsRefused() throws {
        let image = try #require(GrayscaleImage(width: 400, height: 300, pixels: [UInt8](repeating: 255, count: 120_000)))
        let scanner = LinearScanner(image: image, formats: [.ean13, .upcA], minLineCount: 2, rowDivisor: 96)
        // Read along rows 124-154 between x 164 and 337 (corners in the picture's coordinates).
        let read = DecodedBarcode(
            format: .ean13, text: "1433728986148",
            corners: [.init(x: 164, y: 124), .init(x: 337, y: 124), .init(x: 337, y: 154), .init(x: 164, y: 154)])
        func local(_ text: String, _ format: BarcodeFormat = .ean13, clear: Int = 1, x: (Double, Double) = (169, 336), row: Int = 130)
            -> LinearScanner.Candidate
        {
            .init(format: format, text: text, lineCount: 1, clearLines: clear, firstRow: row, firstSpan: x, lastRow: row, lastSpan: x)
        }
        #expect(scanner.contradicts(read, [local("2433598986148")], rotated: false))
        // Read the same at the second threshold too, on some line: confirmed, whatever else was read.
        #expect(!scanner.contradicts(read, [local("2433598986148"), local("1433728986148", clear: 0)], rotated: false))
        // The other reading not clear, elsewhere on the line, on rows far away, or of another length: no contradiction.
        #expect(!scanner.contradicts(read, [local("2433598986148", clear: 0)], rotated: false))
        #expect(!scanner.contradicts(read, [local("2433598986148", x: (340, 390))], rotated: false))
        #expect(!scanner.contradicts(read, [local("2433598986148", row: 250)], rotated: false))
        #expect(!scanner.contradicts(read, [local("96385074", .ean8)], rotated: false))
        // A UPC-A is its EAN-13 with a leading 0: the same reading.
        let upcA = DecodedBarcode(format: .upcA, text: "036000291452", corners: read.corners)
        #expect(!scanner.contradicts(upcA, [local("0036000291452")], rotated: false))
        #expect(scanner.contradicts(upcA, [local("0036000241457")], rotated: false))
        // Columns: the coordinates along the scan line are the picture's y.
        let column = DecodedBarcode(
            format: .ean13, text: "1433728986148",
            corners: [.init(x: 124, y: 164), .init(x: 124, y: 337), .init(x: 154, y: 337), .init(x: 154, y: 164)])
        #expect(scanner.contradicts(column, [local("2433598986148")], rotated: true))
        #expect(!scanner.contradicts(column, [local("2433598986148")], rotated: false))
    }

    /// An EAN-13 cut by the image border just after its middle guard and the bar after it: that guard and bar are
    /// UPC-E's end guard and the six digits before them, with first-digit parity 4, read as the UPC-E 1 559248 4,
    /// whose check digit holds. `barcode-gen.py` seed 1005076180, negative-cut/015.
    @Test func noUPCEFromTheLeftHalfOfAnEAN13CutByTheBorder() {
        let widths = Array(TestSymbols.ean13("4559248512340").prefix(3 + 24 + 5 + 1))
        let full = TestSymbols.render(widths, moduleWidth: 3, height: 30, quietZone: 12)
        let width = (12 + widths.reduce(0, +)) * 3
        var pixels: [UInt8] = []
        for y in 0..<full.height { pixels += full.pixels[(y * full.width)..<(y * full.width + width)] }
        guard let cut = GrayscaleImage(width: width, height: full.height, pixels: pixels) else {
            Issue.record("image")
            return
        }
        let found = BarcodeReader().decode(cut)
        #expect(found.isEmpty, "read \(found.map { "\($0.format) \($0.text)" })")
        // With white after it, the same bars are a UPC-E (nothing says otherwise).
        #expect(BarcodeReader().decode(full).map(\.text) == ["15592484"])
    }

    /// The corner of a tilted EAN-13: the few lines that leave it through the bars' ends just after the middle guard
    /// and the bar after it read its left half as the UPC-E 1 559248 4, with white after; the lines further in
    /// read the same digits going on into the right half (here, three of its digits, then the bars' ends). Those
    /// lines weigh against the corner's: no UPC-E, and the EAN-13 read below is all that is reported.
    /// `barcode-gen.py --seed 557455011 --sets ean13-gen --count 7`, ean13-gen/006.
    @Test func noUPCEFromTheCornerOfATiltedEAN13() {
        let ean = "4559248512340"
        let widths = TestSymbols.ean13(ean)
        let corner = TestSymbols.render(Array(widths.prefix(3 + 24 + 5 + 1)), moduleWidth: 3, height: 4)
        let further = TestSymbols.render(Array(widths.prefix(3 + 24 + 5 + 12)), moduleWidth: 3, height: 30)
        let whole = TestSymbols.render(widths, moduleWidth: 3, height: 20)
        let found = BarcodeReader().decode(Self.stack([corner, further, whole]))
        #expect(found.map(\.text) == [ean], "read \(found.map { "\($0.format) \($0.text)" })")
        // The corner alone, with nothing further in, is a UPC-E: the rule takes nothing else away.
        #expect(BarcodeReader().decode(Self.stack([corner, corner])).map(\.text) == ["15592484"])
    }

    /// An EAN-13 whose right half after its first bar is printed faint (blur and a shadow did this in
    /// `barcode-gen.py --seed 557455011 --sets ean13-addon2 --count 45`, ean13-addon2/044): at the line's threshold,
    /// set by the dark left half, those bars are white, a quiet zone after the middle guard and the bar after
    /// it, and the left half reads as the UPC-E 1 559248 4. In the pixels they are bars that come back to white,
    /// so that UPC-E is refused; an edge into a darker surround there is no bar, and refuses nothing.
    @Test func noUPCEFromAnEAN13WhoseRightHalfIsFaint() {
        let ean = "4559248512340"
        let widths = TestSymbols.ean13(ean)
        let module = 3
        let quiet = 12
        func image(rightHalf: (Int, UInt8) -> UInt8) -> GrayscaleImage {
            let symbol = TestSymbols.render(widths, moduleWidth: module, height: 30, quietZone: quiet)
            // From the end of the right half's first bar on.
            let from = (quiet + widths.prefix(3 + 24 + 5 + 1).reduce(0, +)) * module
            var pixels = symbol.pixels
            for y in 0..<symbol.height {
                for x in from..<symbol.width { pixels[y * symbol.width + x] = rightHalf(x - from, pixels[y * symbol.width + x]) }
            }
            guard let out = GrayscaleImage(width: symbol.width, height: symbol.height, pixels: pixels) else {
                preconditionFailure("size")
            }
            return out
        }
        let faint = image { _, v in v < 128 ? 190 : v }
        let found = BarcodeReader().decode(faint)
        #expect(found.allSatisfy { $0.text == ean }, "read \(found.map { "\($0.format) \($0.text)" })")
        // The same UPC-E with a darker surround from four modules after its end guard: a label's edge, read.
        let edge = image { x, _ in x >= 4 * module ? 150 : 235 }
        #expect(BarcodeReader().decode(edge).map(\.text) == ["15592484"])
    }

    /// One print read as two different EAN-13s on two bands of rows further apart than the same-place margin, with
    /// bars all the way between them (rows that read nothing): one symbol read two ways, so neither is reported,
    /// by this pass or by a later one. The same two symbols with blank rows between are two labels, and both are.
    @Test func twoReadingsOfOneSymbolAtTwoHeightsAreBothRefused() {
        let x = "4006381333931"
        let y = "4559248512340"
        let upper = TestSymbols.render(TestSymbols.ean13(x), moduleWidth: 3, height: 10)
        // The upper symbol without its end guard: bars over the same columns that read nothing.
        let between = TestSymbols.render(Array(TestSymbols.ean13(x).dropLast(3)), moduleWidth: 3, height: 20)
        let lower = TestSymbols.render(TestSymbols.ean13(y), moduleWidth: 3, height: 10)
        let oneSymbol = BarcodeReader().decode(Self.stack([upper, between, lower]))
        #expect(oneSymbol.isEmpty, "read \(oneSymbol.map { "\($0.format) \($0.text)" })")
        let twoLabels = BarcodeReader().decode(Self.stack([upper, lower], gap: 20))
        #expect(Set(twoLabels.map(\.text)) == [x, y])
    }

    /// An EAN-13 turned further than its bars' height allows (40° to 60° off a row or a column, bars half to
    /// two thirds of its width): no row or column crosses it whole, and the lines that leave it through its long
    /// edge just after the middle guard and the bar after it read its left half as the UPC-E 1 559248 4, with
    /// paper after (`barcode-gen.py --wild`, seeds 5101 nested-addon/020 and 7939699 ean13-gen/067; zxing-cpp
    /// reads them so too). Read along the symbol's own axis, across its bars, those digits go on into the right
    /// half: that UPC-E is refused, and the EAN-13 is read along the axis from the halves the lines saw. The same
    /// left half printed alone, turned the same way, is a UPC-E and is still read where its lines cross it.
    @Test func anEAN13TurnedPastItsHeightIsReadAlongItsAxisNotAsAUPCE() {
        let ean = "4559248512340"
        let widths = TestSymbols.ean13(ean)
        var eanRead = 0
        var upceRead = 0
        for degrees in [40.0, 50.0, 130.0, 140.0] {
            for height in [140, 160] {
                let whole = Self.turned(TestSymbols.render(widths, moduleWidth: 3, height: height), degrees: degrees)
                let found = BarcodeReader().decode(whole)
                #expect(found.allSatisfy { $0.text == ean }, "\(degrees)° \(height): \(found.map { "\($0.format) \($0.text)" })")
                if found.map(\.text) == [ean] { eanRead += 1 }
                let alone = TestSymbols.render(Array(widths.prefix(3 + 24 + 5 + 1)), moduleWidth: 3, height: height)
                let read = BarcodeReader().decode(Self.turned(alone, degrees: degrees)).map(\.text)
                #expect(read.allSatisfy { $0 == "15592484" })
                if read == ["15592484"] { upceRead += 1 }
            }
        }
        #expect(eanRead >= 6)
        #expect(upceRead >= 4)
    }

    /// An ITF turned further than its bars' height allows: lines leaving it through the bars' ends find a stop
    /// pattern in the cut bars, with paper after it, and read its first pairs as a whole symbol (an ITF-14 as 8
    /// digits, at 27° with bars 90 pixels high). Past about 27° the check for bars going on beside such an end
    /// looks too near; the symbol's own axis reads the ITF-14 that holds the digits, and refuses them.
    @Test func anITFTurnedPastItsHeightIsNotReadAsItsFirstPairs() {
        let itf = "92354623547970"
        var fragments: [String] = []
        for degrees in [22.0, 27.0, 32.0, 37.0, 143.0, 153.0] {
            for height in [70, 90, 110] {
                let turned = Self.turned(TestSymbols.render(TestSymbols.itf(itf), moduleWidth: 2, height: height), degrees: degrees)
                fragments += BarcodeReader().decode(turned).map(\.text).filter { $0 != itf }.map { "\($0) at \(degrees)° \(height)" }
            }
        }
        #expect(fragments.isEmpty, "\(fragments)")
    }

    /// Light symbols on a dark ground are read on the image's negative, so the checks that look at pixels see them
    /// as printed. Read with the colours swapped on the image itself, an ITF-14 turned past its height (`barcode-gen.py
    /// --wild --seed 1147222458`, itf-bearer/017, light on dark) was reported as its first 8 digits (the checks
    /// looked at light bars as paper), and a UPC-E of number system 1 light on dark was never read (the check of the
    /// quiet zone after it saw the light bars as a bar there; zint's clean UPC-Es too, inverted).
    @Test func lightSymbolsOnADarkGroundAreCheckedOnTheirNegative() {
        let itf = "92354623547970"
        var fragments: [String] = []
        for degrees in [27.0, 32.0, 153.0] {
            let turned = Self.turned(TestSymbols.render(TestSymbols.itf(itf), moduleWidth: 2, height: 90), degrees: degrees)
            fragments += BarcodeReader().decode(turned.inverted()).map(\.text).filter { $0 != itf }
        }
        #expect(fragments.isEmpty, "\(fragments)")
        // The left half of an EAN-13 and its middle guard print the UPC-E 15592484.
        let upce = TestSymbols.render(Array(TestSymbols.ean13("4559248512340").prefix(3 + 24 + 5 + 1)), moduleWidth: 3)
        #expect(BarcodeReader().decode(upce).map(\.text) == ["15592484"])
        #expect(BarcodeReader().decode(upce.inverted()).map(\.text) == ["15592484"])
    }

    /// A light symbol on a dark ground in light that falls away along it (to a tenth or a fifth of itself), which no
    /// single threshold along a line gets right: the negative is read with the local threshold too, as printed
    /// symbols are. Without it none of these was read light on dark (each printed one was).
    @Test func lightSymbolsInFallingLightAreReadWithTheLocalThreshold() {
        let ean = "4006381333931"
        let printed = TestSymbols.render(TestSymbols.ean13(ean), moduleWidth: 3, height: 60)
        // From `edge` of the width on, the light falls linearly to `light` of itself at the right end.
        for (edge, light) in [(0.0, 0.1), (0.2, 0.2), (0.3, 0.15), (0.5, 0.05)] {
            var pixels = printed.pixels
            let w = printed.width
            for i in pixels.indices where Double(i % w) > edge * Double(w) {
                let t = (Double(i % w) - edge * Double(w)) / ((1 - edge) * Double(w))
                pixels[i] = UInt8((Double(pixels[i]) * (1 - t * (1 - light))).rounded())
            }
            guard let shaded = GrayscaleImage(width: w, height: printed.height, pixels: pixels) else {
                Issue.record("size")
                return
            }
            let light = "light falling from \(edge) to \(light)"
            #expect(BarcodeReader().decode(shaded).map(\.text) == [ean], "printed, \(light)")
            #expect(BarcodeReader().decode(shaded.inverted()).map(\.text) == [ean], "light on dark, \(light)")
        }
    }

    /// Half of an EAN-13 and two digits past its middle guard, then paper (a line leaving a turned symbol through
    /// its bars' ends): a half, in either direction (the right half read backwards has all-even parity), never a
    /// reading; with the parity broken (two digits' patterns reversed), not even a half.
    @Test func halvesOfAnEAN13AreOnlyPlacesToLookAgain() {
        let widths = TestSymbols.ean13("4559248512340")
        func hits(_ w: [Int], reversed: Bool = false) -> [LinearHit] {
            let image = TestSymbols.render(reversed ? w.reversed() : w, moduleWidth: 3, height: 1)
            var runs: [Int32] = []
            let ok = image.pixels.withUnsafeBufferPointer { RowBinarizer.patternRow($0, into: &runs) }
            guard ok else { return [] }
            if runs.count % 2 == 0 { runs.append(0) }
            return runs.withUnsafeBufferPointer { buf in
                var found: [LinearHit] = []
                var from = 1
                while from < buf.count {
                    let (hit, g) = UPCEAN.decode(buf, from: from)
                    if let hit { found.append(hit) }
                    guard let g else { break }
                    from = g + 2
                }
                return found
            }
        }
        let left = hits(Array(widths.prefix(3 + 24 + 5 + 8)))
        #expect(left.map(\.text) == ["559248"] && left.allSatisfy(\.half))
        let right = hits(Array(widths.suffix(8 + 5 + 24 + 3)), reversed: true)
        #expect(right.count == 1 && right.allSatisfy(\.half))
        #expect(BarcodeReader().decode(TestSymbols.render(Array(widths.prefix(3 + 24 + 5 + 8)), moduleWidth: 3, height: 40)).isEmpty)
        // The first digit's pattern reversed (even for odd): every first digit's parity starts odd.
        var broken = Array(widths.prefix(3 + 24 + 5 + 8))
        broken.replaceSubrange(3..<7, with: broken[3..<7].reversed())
        #expect(hits(broken).isEmpty)
    }

    /// `image` turned by `degrees` (counterclockwise) about the middle of a 640×480 frame of light grey.
    static func turned(_ image: GrayscaleImage, degrees: Double) -> GrayscaleImage {
        let angle = degrees * Double.pi / 180
        let (w, h) = (Double(image.width) / 2, Double(image.height) / 2)
        let quad = [(-w, -h), (w, -h), (w, h), (-w, h)].map { (x, y) in
            (320 + x * cos(angle) + y * sin(angle), 240 - x * sin(angle) + y * cos(angle))
        }
        return PerspectiveRender.warp(image, onto: quad, width: 640, height: 480)
    }
}
