import BarcodeImage
import Foundation
import Testing

@testable import BarcodeReader

/// ITF-14 with bearer bars (issue 11): zint's default bearer box (vertical bars touching the quiet zones, exactly 10
/// narrow elements of white inside) and its top-and-bottom bars, read whole; and a label over the middle of a longer
/// ITF, whose remaining part must never be reported as a shorter ITF.
@Suite(.enabled(if: ZintRender.available, "zint is missing (apt-get install zint)"))
struct ITFBearerTests {
    /// zint ITF-14 (it adds the check digit) with fresh digits on every run; the seed is in every failure message.
    @Test(arguments: ["box", "bind"])
    func itf14WithBearerBarsIsReadWhole(_ bearers: String) throws {
        let seed = UInt64.random(in: 1...UInt64(UInt32.max))
        var rng = SeededGenerator(state: seed)
        for scale in ["1", "1.5", "2"] {
            let d = (0..<13).map { _ in Int.random(in: 0...9, using: &rng) }
            let data = d.map(String.init).joined()
            let text = data + String(UPCEAN.checkDigit(d))
            let image = try ZintRender.render(
                barcode: 89, data: data, extra: ["--scale", scale] + (bearers == "bind" ? ["--bind"] : []))
            let found = BarcodeReader().decode(image)
            #expect(found.map(\.text) == [text], "seed \(seed), \(bearers), scale \(scale): \(found.map(\.text))")
        }
    }

    /// A white label across a zint ITF-14 in its bearer box, at every place along the symbol: whatever is left on either
    /// side of the label is not reported.
    @Test func labelOverAnITF14LeavesNoFragment() throws {
        let image = try ZintRender.render(barcode: 89, data: "6022431451801", extra: ["--scale", "1"])
        #expect(BarcodeReader().decode(image).map(\.text) == ["60224314518019"])
        // 2 px per module; the symbol's bars run from 30 px (box 10, quiet zone 20) to width - 30.
        let labelWidth = 40
        var reads: [String] = []
        for left in stride(from: 30, through: image.width - 30 - labelWidth, by: 3) {
            var pixels = image.pixels
            for y in 0..<image.height {
                for x in left..<(left + labelWidth) { pixels[y * image.width + x] = 255 }
            }
            let covered = try #require(GrayscaleImage(width: image.width, height: image.height, pixels: pixels))
            reads += BarcodeReader().decode(covered).map { "\($0.text) (label at \(left) px)" }
        }
        #expect(reads.isEmpty, "\(reads)")
    }

    /// A label over the middle of an ITF-14 whose part on one side reads, alone, as a 6-digit ITF with its own start
    /// and stop pattern: beyond the white gap lie more of the longer symbol's bars, so the part is a fragment.
    @Test func partBesideALabelIsNotASymbol() {
        let long = TestSymbols.itf("00012345678905")
        let short = TestSymbols.itf("123456")
        let reader = BarcodeReader(options: .init(tryRotate: false))
        // The part alone is a symbol of its own.
        #expect(reader.decode(TestSymbols.render(short, moduleWidth: 2)).map(\.text) == ["123456"])
        // The longer symbol's start and first two digit pairs, a label 20 modules wide, then the part.
        let before = Array(long.prefix(23)) + [20] + short
        #expect(reader.decode(TestSymbols.render(before, moduleWidth: 2)).isEmpty)
        // The part, a label, then the longer symbol's last two digit pairs and stop pattern.
        let after = short + [20] + Array(long.suffix(23))
        #expect(reader.decode(TestSymbols.render(after, moduleWidth: 2)).isEmpty)
    }
}
