@testable import BarcodeReader
import Foundation
import Testing

/// The false-positive discipline on textures (issue 11, point 2): no read at all on pictures drawn without a symbol
/// (``NegativeTextures``: woven sines, stripes, fences, block noise, pixel noise), and the rules that keep it so —
/// one wide and one narrow width throughout a Code 39 or ITF symbol, quiet zones seen rather than assumed at the
/// image border — without losing symbols printed as their specifications say.
@Suite struct NegativeTextureTests {
    /// A fresh seed on every run (printed with any failure), so that the set grows with each run; fixed seeds below.
    static let freshSeed: UInt64 = {
        if let s = ProcessInfo.processInfo.environment["BARCODE_NEGATIVE_SEED"], let v = UInt64(s) { return v }
        return UInt64.random(in: 1...(1 << 40))
    }()

    static func reads(_ image: GrayscaleImage) -> [String] {
        BarcodeReader().decode(image).map { "\($0.format) \($0.text.debugDescription)" }
    }

    @Test(arguments: NegativeTextures.Kind.allCases)
    func noReadOnTextures(_ kind: NegativeTextures.Kind) {
        // Six pictures from fixed seeds and six from this run's fresh seed.
        let fixed: [UInt64] = (1...6).map { UInt64($0) &* 0x9E37_79B9 }
        let fresh: [UInt64] = (0..<6).map { Self.freshSeed &+ UInt64($0) }
        for seed in fixed + fresh {
            let image = NegativeTextures.picture(kind, seed: seed)
            let found = Self.reads(image)
            #expect(
                found.isEmpty,
                "\(kind.rawValue) seed \(seed) (\(image.width)×\(image.height); rerun with BARCODE_NEGATIVE_SEED=\(Self.freshSeed)): read \(found)"
            )
        }
    }

    /// Pictures on which the reader of commit 6ceb924 read a symbol, found with ``NegativeTextures`` over thousands
    /// of seeds: the soak's textures ("P", "PP", "%", "1616161616", "303030303030", block-noise ITF). The last three
    /// still read after the width-ratio and visible-quiet-zone rules alone.
    @Test(arguments: [
        (NegativeTextures.Kind.wovenSines, UInt64(2_734_068_842_070)),  // Code 39 "P"
        (.wovenSines, 4_132_956_492_333),  // Code 39 "PP"
        (.wovenSines, 5_242_510_643_775),  // Code 39 "PC1"
        (.wovenSines, 6_710_413_624_032),  // Code 39 "%"
        (.wovenSines, 9_792_213_551_841),  // Code 39 "PPP"
        (.wovenSines, 5_407_085_661_453),  // Code 39 "P" with 5-element gaps and quiet zones
        (.wovenSines, 9_271_944_141_117),  // Code 39 "%"
        (.wovenSines, 8_188_934_347_365),  // QR Code whose stream holds no message (read as "")
        (.wovenSines, 4_846_999_714_194),  // ITF "1616161616"
        (.wovenSines, 5_237_201_772_237),  // ITF "82925982928224"
        (.wovenSines, 10_543_418_874_468),  // ITF "303030303030"
        (.blockNoise, 3_336_625_761_633),  // ITF "702417"
        (.blockNoise, 5_383_195_739_532),  // ITF "473166", "547759"
        (.blockNoise, 4_350_620_225_391),  // ITF "19315362"
    ])
    func texturesThatOnceReadReadNothing(_ kind: NegativeTextures.Kind, _ seed: UInt64) {
        let found = Self.reads(NegativeTextures.picture(kind, seed: seed))
        #expect(found.isEmpty, "\(kind.rawValue) seed \(seed): read \(found)")
    }

    /// `widths` in modules with every wide element (3) drawn `wide` and every narrow one (1) drawn `narrow` pixels.
    static func scaled(_ widths: [Int], narrow: Int, wide: Int) -> [Int] { widths.map { $0 == 3 ? wide : narrow } }

    @Test func aShortCode39WithQuietZonesIsRead() {
        for text in ["P", "PP", "7", "A1"] {
            let found = BarcodeReader().decode(TestSymbols.render(TestSymbols.code39(text), moduleWidth: 2))
            #expect(found.map(\.text) == [text], "\(text)")
        }
    }

    @Test func aShortCode39AtTheImageBorderIsNotRead() {
        for text in ["P", "PP", "PPP"] {
            let image = TestSymbols.render(TestSymbols.code39(text), moduleWidth: 2, quietZone: 0)
            #expect(Self.reads(image).isEmpty, "\(text)")
        }
        // A longer symbol carries enough to check it by: cropped to its bars (as photos often are), it is still read.
        let long = TestSymbols.render(TestSymbols.code39("CODE-39"), moduleWidth: 2, quietZone: 0)
        #expect(BarcodeReader().decode(long).map(\.text) == ["CODE-39"])
    }

    @Test func code39WhoseWideElementsAreBarelyWiderIsNotRead() {
        let symbol = TestSymbols.code39("CODE-39")
        // Wide 1.5 times the narrow: what woven textures give; 2 times: the specification's least.
        #expect(Self.reads(TestSymbols.render(Self.scaled(symbol, narrow: 4, wide: 6), moduleWidth: 1, quietZone: 40)).isEmpty)
        let spec = BarcodeReader().decode(TestSymbols.render(Self.scaled(symbol, narrow: 3, wide: 6), moduleWidth: 1, quietZone: 40))
        #expect(spec.map(\.text) == ["CODE-39"])
    }

    @Test func itfNeedsVisibleQuietZonesAndTwoWidths() {
        let symbol = TestSymbols.itf("00012345678905")
        #expect(BarcodeReader().decode(TestSymbols.render(symbol, moduleWidth: 2)).map(\.text) == ["00012345678905"])
        // Touching the image border on either side: a texture or a cut symbol, not a proof of a quiet zone.
        #expect(Self.reads(TestSymbols.render(symbol, moduleWidth: 2, quietZone: 0)).isEmpty)
        #expect(Self.reads(TestSymbols.render(symbol, moduleWidth: 2, quietZone: 2)).isEmpty)
        // Wide 1.5 times the narrow.
        #expect(Self.reads(TestSymbols.render(Self.scaled(symbol, narrow: 4, wide: 6), moduleWidth: 1, quietZone: 40)).isEmpty)
    }

    /// An ITF whose last bar is a piece of a wide one (a label's or the image's edge across it) has no stop pattern:
    /// the stop's narrow bar must be nearer the symbol's narrow bars than its wide ones.
    @Test func anITFWhoseStopEndsInAPieceOfAWideBarIsNotRead() {
        let symbol = TestSymbols.itf("123456")
        #expect(Self.reads(TestSymbols.render(symbol, moduleWidth: 3, quietZone: 30)) == ["itf \"123456\""])
        for piece in [2, 3] {
            let cut = Array(symbol.dropLast()) + [piece]
            #expect(Self.reads(TestSymbols.render(cut, moduleWidth: 3, quietZone: 30)).isEmpty, "last bar \(piece) narrow")
        }
        var tally = RowPattern.WidthTally()
        #expect(tally.isNarrowBar(9), "nothing tallied yet")
        tally.add(3, bar: true, wide: false)
        tally.add(8, bar: true, wide: true)
        #expect(tally.isNarrowBar(5) && !tally.isNarrowBar(6))
    }

    @Test func widthTallyRatioIsInkSpreadInvariant() {
        var tally = RowPattern.WidthTally()
        // Bars one pixel wider, spaces one pixel narrower than printed (narrow 4, wide 10).
        for _ in 0..<3 {
            tally.add(5, bar: true, wide: false)
            tally.add(11, bar: true, wide: true)
            tally.add(3, bar: false, wide: false)
            tally.add(9, bar: false, wide: true)
        }
        #expect(abs(tally.ratio - 2.5) < 1e-9)
        #expect(abs(tally.narrow - 4) < 1e-9)
        #expect(RowPattern.WidthTally().ratio == 0)
    }
}
