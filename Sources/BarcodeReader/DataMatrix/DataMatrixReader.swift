import Foundation

/// Finds and decodes Data Matrix (ECC 200) symbols.
enum DataMatrixReader {
    static func read(_ binary: BitMatrix) -> [DecodedBarcode] {
        let detector = DMDetector(image: binary)
        var results: [DecodedBarcode] = []
        for c in detector.detect() {
            var decoded = false
            for dims in detector.dimensions(c).prefix(6) {
                guard let version = DMVersion.forSize(rows: dims.rows, columns: dims.columns) else { continue }
                for tr in [c.topRight] + c.topRightAlternatives {
                    let cols = Double(version.columns)
                    let rows = Double(version.rows)
                    let t = PerspectiveTransform.quadrilateralToQuadrilateral(
                        0, 0, cols, 0, cols, rows, 0, rows,
                        c.topLeft.0, c.topLeft.1, tr.0, tr.1, c.bottomRight.0, c.bottomRight.1,
                        c.bottomLeft.0, c.bottomLeft.1)
                    var bits = BitMatrix(width: version.columns, height: version.rows)
                    for y in 0..<version.rows {
                        for x in 0..<version.columns {
                            let (px, py) = t.transform(Double(x) + 0.5, Double(y) + 0.5)
                            if binary.get(Int(px), Int(py)) { bits.set(x, y) }
                        }
                    }
                    if let r = try? DMDecoder.decode(bits, version: version) {
                        let corners = [c.topLeft, tr, c.bottomRight, c.bottomLeft].map { Point(x: $0.0, y: $0.1) }
                        if !results.contains(where: { $0.text == r.text }) {
                            results.append(
                                DecodedBarcode(format: .dataMatrix, text: r.text, rawBytes: r.bytes, corners: corners))
                        }
                        decoded = true
                        break
                    }
                }
                if decoded { break }
            }
        }
        return results
    }
}
