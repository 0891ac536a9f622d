@testable import BarcodeReader
import Testing

/// Data Matrix sizes and views (issue 11, point 4): every square size up to 144×144 (up to 36 data regions), the
/// rectangular sizes of ISO/IEC 16022 and the DMRE sizes of ISO/IEC 21471, rendered by zint; and large,
/// rectangular and thin symbols at an angle on a noisy background, read with the sides moved onto the symbol's
/// edges (``DMDetector/edgeFitted(_:)``).
@Suite(.enabled(if: ZintRender.available, "zint is missing (apt-get install zint)"))
struct DataMatrixGeometryTests {
    /// zint's `--vers` for each size: 1–24 square (10×10 … 144×144), 25–30 rectangular, 31–48 DMRE.
    @Test(arguments: Array(1...48))
    func everySizeIsRead(_ vers: Int) throws {
        // Digits, two to a codeword: short enough for the 3 data codewords of 10×10 and 8×18.
        let text = "\(vers)" + String(repeating: "0", count: vers < 10 ? 3 : 2)
        let image = try ZintRender.render(barcode: 71, data: text, extra: ["--vers=\(vers)", "--scale", "2"])
        let found = BarcodeReader(options: .init(formats: [.dataMatrix])).decode(image)
        #expect(found.map(\.text) == [text], "zint --vers=\(vers)")
    }

    /// (zint --vers, text, where the symbol lands, frame size).
    static let views: [(Int, String, [(Double, Double)], (Int, Int))] = [
        (30, "Stockroom 16x48 perspective", [(80, 80), (420, 40), (440, 200), (60, 190)], (500, 260)),
        (37, "Stockroom 12x64 rotated", [(60, 120), (500, 60), (510, 150), (70, 200)], (560, 260)),
        (16, String(repeating: "Stockroom 64x64 ", count: 12), [(60, 50), (470, 90), (440, 480), (40, 430)], (520, 520)),
        (19, String(repeating: "Stockroom 88x88 ", count: 28), [(40, 60), (560, 30), (580, 600), (70, 560)], (620, 640)),
        (24, String(repeating: "Stockroom 144x144 ", count: 70), [(20, 40), (700, 20), (690, 700), (40, 690)], (720, 720)),
    ]

    @Test(arguments: 0..<views.count)
    func atAnAngleOnANoisyBackground(_ k: Int) throws {
        let (vers, text, quad, (width, height)) = Self.views[k]
        let flat = try ZintRender.render(barcode: 71, data: text, extra: ["--vers=\(vers)", "--scale", "1"])
        let seen = PerspectiveRender.warp(
            flat, onto: quad, width: width, height: height,
            background: PerspectiveRender.noise(width: width, height: height, seed: UInt64(7 + k)))
        let found = BarcodeReader(options: .init(formats: [.dataMatrix])).decode(seen)
        #expect(found.map(\.text) == [text], "zint --vers=\(vers)")
    }

    @Test func edgeFittingFindsTheCornersBlurRoundedOff() {
        // A dark 60×20 rectangle with a light quiet zone; the quadrilateral given is cut off at two corners (as a
        // hull's inscribed quadrilateral is at blurred corners): the fit puts the corners back.
        var m = BitMatrix(width: 100, height: 50)
        for y in 15..<35 { for x in 20..<80 { m.set(x, y) } }
        let detector = DMDetector(image: m)
        let fitted = detector.edgeFitted([(22, 15), (80, 15), (80, 35), (20, 31)])
        let expected: [(Double, Double)] = [(20, 15), (80, 15), (80, 35), (20, 35)]
        #expect(fitted != nil)
        for (a, b) in zip(fitted ?? [], expected) {
            #expect(abs(a.0 - b.0) < 0.8 && abs(a.1 - b.1) < 0.8, "\(a) vs \(b)")
        }
        // Nothing but light around it: no edge to fit.
        #expect(DMDetector(image: BitMatrix(width: 100, height: 50)).edgeFitted([(22, 15), (80, 15), (80, 35), (20, 31)]) == nil)
    }
}
