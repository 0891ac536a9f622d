@testable import BarcodeReader
import Foundation
import Testing

/// QR Codes of versions 7–20 seen at a steep camera angle (issue 11, point 4): the grid fitted to the timing
/// patterns and every alignment pattern reads them; the three finder centres alone (an affine frame) did not.
@Suite(.enabled(if: SegnoRender.available, "segno is missing (.venv-barcode with segno, see scripts/barcode-gen.py)"))
struct QRPerspectiveTests {
    /// Where the symbol's image (quiet zone included) lands on a 600×600 frame, clockwise from its top left: one
    /// side foreshortened to two thirds or so of the opposite one, as a phone held at 35–45° sees a label.
    static let views: [String: [(Double, Double)]] = [
        "right side away": [(60, 40), (540, 110), (540, 470), (60, 560)],
        "top side away": [(80, 60), (520, 20), (560, 580), (40, 520)],
        "left side away, tilted": [(40, 90), (560, 40), (520, 560), (90, 500)],
    ]

    static let cases: [(Int, String)] = [
        (7, "right side away"), (7, "left side away, tilted"), (10, "right side away"), (10, "left side away, tilted"),
        (15, "right side away"), (15, "top side away"), (15, "left side away, tilted"), (20, "right side away"),
        (20, "top side away"), (20, "left side away, tilted"),
    ]

    @Test(arguments: cases)
    func denseSymbolAtASteepAngle(_ version: Int, _ view: String) throws {
        let length = [7: 80, 10: 150, 15: 300, 20: 500][version] ?? 80
        let text = String(String(repeating: "Stockroom grid \(version) ", count: 40).prefix(length))
        let images = try SegnoRender.render(
            "q = segno.make_qr(TEXT, version=\(version), error='m', boost_error=False)\n"
                + "q.save(out('0'), scale=4, border=4)", text: text)
        let flat = try #require(images.first)
        let quad = try #require(Self.views[view])
        let seen = PerspectiveRender.warp(flat, onto: quad, width: 600, height: 600)
        let found = BarcodeReader(options: .init(formats: [.qrCode])).decode(seen)
        #expect(found.map(\.text) == [text], "version \(version), \(view)")
    }

    @Test func homographyFitRecoversAPerspective() throws {
        let truth = PerspectiveTransform.quadrilateralToQuadrilateral(
            0, 0, 45, 0, 45, 45, 0, 45, 12, 20, 310, 44, 280, 262, 30, 300)
        // Points along the two timing patterns and the three finder centres, as the grid fit gathers them.
        var points: [QRDetector.GridPoint] = []
        for k in 7...38 {
            points.append(.init(module: (Double(k), 6.5), image: truth.transform(Double(k), 6.5), weight: 1))
            points.append(.init(module: (6.5, Double(k)), image: truth.transform(6.5, Double(k)), weight: 1))
        }
        for m in [(3.5, 3.5), (41.5, 3.5), (3.5, 41.5)] {
            points.append(.init(module: m, image: truth.transform(m.0, m.1), weight: 4))
        }
        let fitted = try #require(QRDetector.fitHomography(points))
        // The far corner, which no point constrains directly, is where the perspective puts it.
        for m in [(45.0, 45.0), (38.5, 38.5), (22.5, 30.5)] {
            let a = truth.transform(m.0, m.1)
            let b = fitted.transform(m.0, m.1)
            #expect(QRDetector.length(a, b) < 1e-6, "\(m)")
        }
        #expect(QRDetector.fitHomography(Array(points.prefix(3))) == nil, "three points determine no homography")
    }
}
