@testable import BarcodeReader
import Testing

@Suite struct UPCEANTests {
    @Test(arguments: [("400638133393", 1), ("590123412345", 7), ("03600029145", 2), ("9638507", 4)])
    func checkDigit(_ body: String, _ expected: Int) {
        #expect(UPCEAN.checkDigit(body.compactMap(\.wholeNumberValue)) == expected)
    }

    @Test func badCheckDigitThrowsChecksumMismatch() {
        #expect(throws: BarcodeReaderError(.checksumMismatch)) { try UPCEAN.validateCheckDigit("4006381333932") }
        #expect(throws: Never.self) { try UPCEAN.validateCheckDigit("4006381333931") }
    }

    @Test(arguments: [
        ("01234565", "012345000065"), ("04252614", "042100005264"), ("01234133", "012300000413"),
        ("01234531", "012300000451"),
    ])
    func upceExpandsToUPCA(_ upce: String, _ upca: String) {
        #expect(UPCEAN.upceToUPCA(upce) == upca)
    }

    @Test func decodesRenderedEAN13BothWays() {
        let image = TestSymbols.render(TestSymbols.ean13("4006381333931"))
        let found = BarcodeReader().decode(image)
        #expect(found.map(\.format) == [.ean13])
        #expect(found.first?.text == "4006381333931")
        #expect(found.first?.corners.count == 4)
        #expect(BarcodeReader().decode(image.rotated(clockwiseBy: 180)).first?.text == "4006381333931")
        #expect(BarcodeReader().decode(image.rotated(clockwiseBy: 90)).first?.text == "4006381333931")
    }

    @Test func leadingZeroEAN13IsReportedAsUPCA() {
        let found = BarcodeReader().decode(TestSymbols.render(TestSymbols.ean13("0036000291452")))
        #expect(found.first?.format == .upcA)
        #expect(found.first?.text == "036000291452")
    }

    @Test func corruptedCheckDigitIsNotReported() {
        // Last digit 2 instead of 1: a valid pattern with a wrong check digit.
        #expect(BarcodeReader().decode(TestSymbols.render(TestSymbols.ean13("4006381333932"))).isEmpty)
    }

    @Test func decodesEAN8AndInvertedEAN8() {
        let image = TestSymbols.render(TestSymbols.ean8("96385074"))
        #expect(BarcodeReader().decode(image).first?.text == "96385074")
        #expect(BarcodeReader().decode(image).first?.format == .ean8)
        #expect(BarcodeReader().decode(image.inverted()).first?.text == "96385074")
    }
}

@Suite struct Code128Tests {
    @Test func codeSetBText() throws {
        // Start B, "Hi", 'H' = 40, 'i' = 73.
        #expect(try Code128.text(fromCodes: [104, 40, 73]) == "Hi")
    }

    @Test func codeSetCDigitsAndSwitchToB() throws {
        // Start C, 12 34, Code B, 'A'.
        #expect(try Code128.text(fromCodes: [105, 12, 34, 100, 33]) == "1234A")
    }

    @Test func codeSetAControlCharacterAndShift() throws {
        // Start A, 'A', TAB (73 in set A = 0x09), shift, 'a' from set B (65), 'B'.
        #expect(try Code128.text(fromCodes: [103, 33, 73, 98, 65, 34]) == "A\taB")
    }

    @Test func fnc1FirstIsGS1AndLaterBecomesGroupSeparator() throws {
        // Start C, FNC1, 01, 23, FNC1, 45.
        #expect(try Code128.text(fromCodes: [105, 102, 1, 23, 102, 45]) == "0123\u{1D}45")
    }

    @Test func fnc4ShiftsOneCharacterAndDoubleFNC4Latches() throws {
        // Start B, FNC4, 'S' -> 'Ó'; FNC4 FNC4 latch, 'a', 'b' -> upper half; FNC4 FNC4 unlatch, 'c'.
        let text = try Code128.text(fromCodes: [104, 100, 51, 100, 100, 65, 66, 100, 100, 67])
        #expect(text == "Óáâc")
    }

    @Test func checksum() {
        // "PJJ123C" in set B: 104 + 1*48 + 2*42 + 3*42 + 4*17 + 5*18 + 6*19 + 7*35 = 879 = 8*103 + 55.
        #expect(Code128.checksum([104, 48, 42, 42, 17, 18, 19, 35]) == 55)
    }

    @Test func decodesRenderedSymbolInAllOrientations() {
        let image = TestSymbols.render(TestSymbols.code128([105, 12, 34, 56, 100, 33, 34]))
        for rotation in [0, 90, 180, 270] {
            let found = BarcodeReader().decode(image.rotated(clockwiseBy: rotation))
            #expect(found.first?.format == .code128, "rotation \(rotation)")
            #expect(found.first?.text == "123456AB", "rotation \(rotation)")
        }
    }

    @Test func edgeToEdgeDecodingSurvivesInkSpread() {
        // 2-pixel modules with every bar one pixel too wide: bar/space widths are off by half a module,
        // but edge-to-similar-edge distances are unchanged.
        let widths = TestSymbols.code128([104, 40, 73, 74, 75, 76])
        let found = BarcodeReader().decode(TestSymbols.render(widths, moduleWidth: 2, inkSpread: 1))
        #expect(found.first?.text == "Hijkl")
        #expect(Code128.edgeTable.count > 90, "nearly every symbol has a unique edge pattern")
    }

    @Test func gradientEdgesKeepNarrowElementsUnderBlur() {
        // A 3-pixel-module symbol blurred to about half a module (sigma ~1.6 px): narrow spaces lose contrast,
        // but the gradient peaks still sit at the element edges.
        let image = TestSymbols.render(TestSymbols.code128([105, 12, 34, 56, 78, 90]), moduleWidth: 3, height: 1)
        var row = image.pixels.map(Int.init)
        for _ in 0..<2 {
            var next = row
            for x in 2..<(row.count - 2) {
                next[x] = (row[x - 2] + 2 * row[x - 1] + 3 * row[x] + 2 * row[x + 1] + row[x + 2]) / 9
            }
            row = next
        }
        let blurred = row.map { UInt8(clamping: $0) }
        var runs: [Int32] = []
        let ok = blurred.withUnsafeBufferPointer { RowBinarizer.edgePatternRow($0, into: &runs) }
        #expect(ok)
        let hit = runs.withUnsafeBufferPointer { Code128.decode($0, from: 1).hit }
        #expect(hit?.text == "1234567890")
    }

    /// A line that starts on a bar keeps that bar: its first (white) run is empty, as the thresholds write it. The
    /// gradient edges used to drop the bar's rising edge, merging the bar at the image border into the space after
    /// it, so that a symbol cut by the border showed a quiet zone there (an ITF cut at its left end read as 957123).
    @Test func gradientEdgesKeepABarAtTheLineStart() {
        // A bar of 6 pixels at the border, then a space, bars and spaces of 6, 4, 4, 4 and 8 pixels, each edge a
        // one-pixel ramp (a grey pixel between the two levels) as a camera's softness makes it.
        var line: [UInt8] = []
        for (k, width) in [6, 6, 4, 4, 4, 8, 20].enumerated() {
            line += Array(repeating: k & 1 == 0 ? 40 : 200, count: width)
            if k > 0 { line[line.count - width] = 120 }
        }
        var runs: [Int32] = []
        let ok = line.withUnsafeBufferPointer { RowBinarizer.edgePatternRow($0, into: &runs) }
        #expect(ok)
        #expect(runs.first == 0, "\(runs)")
        #expect(runs.count > 2 && (6...7).contains(runs[1]), "the bar at the border, 6.5 pixels: \(runs)")
        #expect(runs.count > 2 && runs[2] == 6, "the space after it, 6 pixels: \(runs)")
    }

    @Test func wrongCheckSymbolIsRejected() {
        var widths = TestSymbols.code128([104, 40, 73, 74])
        // Replace the check symbol (third from last pattern group) with a different valid symbol.
        let checkStart = widths.count - 13 - 6
        widths.replaceSubrange(checkStart..<(checkStart + 6), with: TestSymbols.code128Patterns[0])
        #expect(BarcodeReader().decode(TestSymbols.render(widths)).isEmpty)
    }
}

@Suite struct Code39Tests {
    @Test func decodesRenderedSymbol() {
        let found = BarcodeReader().decode(TestSymbols.render(TestSymbols.code39("CODE-39"), moduleWidth: 2))
        #expect(found.first?.format == .code39)
        #expect(found.first?.text == "CODE-39")
    }

    @Test func fullASCIIExpansion() {
        #expect(Code39.fullASCII("+A+B/A%J$M") == "ab!?\r")
        #expect(Code39.fullASCII("A$") == nil)
        let found = BarcodeReader().decode(TestSymbols.render(TestSymbols.code39("12+A+B"), moduleWidth: 2))
        #expect(found.first?.text == "12ab")
    }
}

@Suite struct ITFTests {
    @Test func digitWeights() {
        #expect(ITF.digit(wideMask: [false, false, true, true, false]) == 0)
        #expect(ITF.digit(wideMask: [true, false, false, false, true]) == 1)
        #expect(ITF.digit(wideMask: [true, true, true, false, false]) == nil)
    }

    @Test func decodesRenderedSymbol() {
        let found = BarcodeReader().decode(TestSymbols.render(TestSymbols.itf("00012345678905"), moduleWidth: 2))
        #expect(found.first?.format == .itf)
        #expect(found.first?.text == "00012345678905")
    }

    @Test func tooShortIsRejected() {
        #expect(BarcodeReader().decode(TestSymbols.render(TestSymbols.itf("1234"), moduleWidth: 2)).isEmpty)
    }
}
