@testable import BarcodeReader
import Foundation
import Testing

/// The candidate-first pass of the 1-D scans (issue 11, point 5): ``LineGate`` lets through every line that crosses a
/// symbol, whatever its tilt, contrast or polarity, and keeps the scans off noise and flat ground.
@Suite struct LineGateTests {
    /// An EAN-13 (2 px a module, 180 px tall, so that a row crosses it whole up to about 35°) tilted by `degrees` in the middle of a 640×480 frame of pixel noise,
    /// and the frame rows (or columns, when it stands upright) it spans.
    static func frame(degrees: Double, turned: Bool = false, seed: UInt64 = 7) -> (GrayscaleImage, ClosedRange<Int>) {
        let symbol = TestSymbols.render(TestSymbols.ean13("4006381333931"), moduleWidth: 2, height: 180, quietZone: 10)
        let (w, h) = (640.0, 480.0)
        let (sw, sh) = (Double(symbol.width), Double(symbol.height))
        let angle = degrees * .pi / 180
        func corner(_ x: Double, _ y: Double) -> (Double, Double) {
            (w / 2 + x * cos(angle) - y * sin(angle), h / 2 + x * sin(angle) + y * cos(angle))
        }
        let quad = [corner(-sw / 2, -sh / 2), corner(sw / 2, -sh / 2), corner(sw / 2, sh / 2), corner(-sw / 2, sh / 2)]
        let background = PerspectiveRender.noise(width: 640, height: 480, seed: seed)
        var image = PerspectiveRender.warp(symbol, onto: quad, width: 640, height: 480, background: background)
        let ys = quad.map(\.1)
        var span = Int(ys.min()!.rounded(.up))...Int(ys.max()!.rounded(.down))
        if turned {
            image = image.rotated(clockwiseBy: 90)
            // Turned clockwise, frame row y becomes column 479 − y.
            span = (479 - span.upperBound)...(479 - span.lowerBound)
        }
        return (image, span)
    }

    /// The lines of the symbol's middle three quarters (its ends are where a tilted symbol meets the noise).
    static func middle(_ span: ClosedRange<Int>) -> ClosedRange<Int> {
        let q = span.count / 8
        return (span.lowerBound + q)...(span.upperBound - q)
    }

    @Test(arguments: [0.0, 12.0, -25.0, 30.0])
    func theSymbolsRowsPassTheNoiseRowsDoNot(degrees: Double) {
        let (image, span) = Self.frame(degrees: degrees)
        let gate = LineGate.build(image)
        let missed = Self.middle(span).filter { !gate.rows[$0] }
        #expect(missed.isEmpty, "rows across the symbol not scanned at \(degrees)°: \(missed)")
        let outside = (0..<image.height).filter { !span.contains($0) }
        let scanned = outside.filter { gate.rows[$0] }.count
        // The symbol's own rows, the windows that hold a part of it and a cell beyond them; noise marks nothing else.
        #expect(scanned <= 6 * LineGate.cell, "\(scanned) of \(outside.count) noise rows scanned at \(degrees)°")
        #expect(gate.columns.filter { $0 }.count <= 4 * LineGate.cell, "columns scanned across upright bars at \(degrees)°")
        // The reader, held to these lines, still reads it.
        #expect(BarcodeReader().decode(image).map(\.text).contains("4006381333931"), "\(degrees)°")
    }

    @Test(arguments: [0.0, 20.0])
    func turnedBy90TheColumnsPass(degrees: Double) {
        let (image, span) = Self.frame(degrees: degrees, turned: true)
        let gate = LineGate.build(image)
        let missed = Self.middle(span).filter { !gate.columns[$0] }
        #expect(missed.isEmpty, "columns across the symbol not scanned at \(degrees)° + 90°: \(missed)")
        #expect(gate.columns.filter { $0 }.count <= span.count + 6 * LineGate.cell)
        #expect(BarcodeReader().decode(image).map(\.text).contains("4006381333931"))
    }

    @Test func polarityAndContrastDoNotHideASymbol() {
        let (image, span) = Self.frame(degrees: 8)
        let gate = LineGate.build(image)
        // Inverted: every gradient changes sign, no sum the gate looks at changes.
        let inverted = LineGate.build(image.inverted())
        #expect(inverted.rows == gate.rows && inverted.columns == gate.columns)
        // A quarter of the contrast, on a light ground (low light and glare squeeze the range the same way).
        guard let faint = GrayscaleImage(width: image.width, height: image.height, pixels: image.pixels.map { 150 + $0 / 4 }) else {
            Issue.record("size")
            return
        }
        let faintGate = LineGate.build(faint)
        #expect(Self.middle(span).allSatisfy { faintGate.rows[$0] })
    }

    @Test func flatAndNoisyFramesAreNotScanned() {
        let noise = GrayscaleImage(width: 640, height: 480, pixels: PerspectiveRender.noise(width: 640, height: 480, seed: 99))!
        let flat = GrayscaleImage(width: 640, height: 480, pixels: [UInt8](repeating: 128, count: 640 * 480))!
        for image in [noise, flat] {
            let gate = LineGate.build(image)
            #expect(!gate.rows.contains(true) && !gate.columns.contains(true))
        }
    }

    @Test func smallAndLargeImagesAreNotGated() {
        // Small: the windows would be the whole picture. Large: past the cells whose sums stay exact.
        for (w, h) in [(6 * LineGate.cell - 1, 200), (200, 40), (1025, 6 * 32 - 1), (LineGate.maxSide + 1, 500)] {
            let image = GrayscaleImage(width: w, height: h, pixels: [UInt8](repeating: 200, count: w * h))!
            let gate = LineGate.build(image)
            #expect(gate.rows.count == h && gate.columns.count == w)
            #expect(gate.rows.allSatisfy { $0 } && gate.columns.allSatisfy { $0 }, "\(w)×\(h)")
        }
    }

    @Test func theCellGrowsWithTheFrame() {
        #expect(LineGate.cellSize(width: 640, height: 480) == 16)
        #expect(LineGate.cellSize(width: 1024, height: 1024) == 16)
        #expect(LineGate.cellSize(width: 1280, height: 720) == 32)
        #expect(LineGate.cellSize(width: 1500, height: 3000) == 48)
        // A camera frame of 1,280 × 720 (the scan screen's largest) filled by an EAN-13 of 10-pixel modules: with
        // the frame's 32-pixel cells every row across it is still scanned, and the reader reads it. (16-pixel cells
        // happen to pass this symbol too: its thin bars give enough windows three edges a row; the cell grows for
        // symbols whose wide elements fill a window.)
        let symbol = TestSymbols.render(TestSymbols.ean13("4006381333931"), moduleWidth: 10, height: 300, quietZone: 7)
        let (w, h) = (1280, 720)
        var pixels = PerspectiveRender.noise(width: w, height: h, seed: 5)
        let (x0, y0) = ((w - symbol.width) / 2, (h - symbol.height) / 2)
        for y in 0..<symbol.height {
            for x in 0..<symbol.width { pixels[(y0 + y) * w + x0 + x] = symbol.pixels[y * symbol.width + x] }
        }
        let image = GrayscaleImage(width: w, height: h, pixels: pixels)!
        let gate = LineGate.build(image)
        #expect((y0 + 40..<y0 + symbol.height - 40).allSatisfy { gate.rows[$0] })
        #expect(gate.rows.filter { $0 }.count <= symbol.height + 6 * 32)
        #expect(BarcodeReader().decode(image).map(\.text).contains("4006381333931"))
    }

    @Test func aWidthThatIsNotAMultipleOfTheCellIsMeasuredToItsLastColumn() {
        // Bars only in the last, partial cell column: its columns must still be measured.
        let w = 16 * 20 + 9, h = 200
        var pixels = [UInt8](repeating: 200, count: w * h)
        for y in 0..<h {
            for x in (w - 40)..<w where (x / 2) % 2 == 0 { pixels[y * w + x] = 30 }
        }
        let gate = LineGate.build(GrayscaleImage(width: w, height: h, pixels: pixels)!)
        #expect(gate.rows.allSatisfy { $0 })
    }

    /// The cells' sums (eight columns at a time in vector lanes) are the 2 × 2 block gradients' sums written the plain
    /// way, on random images whose sizes leave partial cells and partial lane groups, at two cell sizes.
    @Test(arguments: [(97, 61, 16), (640, 480, 16), (129, 200, 32), (33, 33, 16), (1030, 70, 32)])
    func cellSumsAreThePlainSums(_ w: Int, _ h: Int, _ c: Int) {
        var state = UInt64(w * 7919 + h * 31 + c)
        let pixels = (0..<(w * h)).map { _ -> UInt8 in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(truncatingIfNeeded: state >> 56)
        }
        let image = GrayscaleImage(width: w, height: h, pixels: pixels)!
        let cw = (w + c - 1) / c, ch = (h + c - 1) / c
        var plain = [Int64](repeating: 0, count: cw * ch * 5)
        for y in 0..<(h - 1) {
            for x in 0..<(w - 1) {
                let a = Int64(pixels[y * w + x]), b = Int64(pixels[y * w + x + 1])
                let cc = Int64(pixels[(y + 1) * w + x]), d = Int64(pixels[(y + 1) * w + x + 1])
                let gx = b + d - a - cc, gy = cc + d - a - b
                let k = ((y / c) * cw + x / c) * 5
                plain[k] += gx * gx
                plain[k + 1] += gy * gy
                plain[k + 2] += gx * gy
                plain[k + 3] += abs(gx)
                plain[k + 4] += abs(gy)
            }
        }
        #expect(LineGate.cellSums(image, cell: c).map(Int64.init) == plain)
    }
}
