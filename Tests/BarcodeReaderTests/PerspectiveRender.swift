import BarcodeReader

/// Renders a flat symbol image as a camera sees it at an angle, for tests: a true perspective (a homography, as
/// opposed to the bilinear warps that bend lines), bilinear interpolation, on a plain or noisy background.
enum PerspectiveRender {
    /// Renders `image` (its whole rectangle) onto the quadrilateral `quad` (clockwise from its top left) of a
    /// `width`×`height` frame whose other pixels are `background` (row-major; a light grey when nil).
    static func warp(
        _ image: GrayscaleImage, onto quad: [(Double, Double)], width: Int, height: Int, background: [UInt8]? = nil
    ) -> GrayscaleImage {
        let w = Double(image.width)
        let h = Double(image.height)
        let back = homography(from: quad, to: [(0, 0), (w, 0), (w, h), (0, h)])
        var pixels = background ?? [UInt8](repeating: 200, count: width * height)
        for y in 0..<height {
            for x in 0..<width {
                let (sx, sy) = back(Double(x) + 0.5, Double(y) + 0.5)
                let fx = sx - 0.5
                let fy = sy - 0.5
                guard fx >= 0, fy >= 0, fx < w - 1, fy < h - 1 else { continue }
                let x0 = Int(fx)
                let y0 = Int(fy)
                let tx = fx - Double(x0)
                let ty = fy - Double(y0)
                func p(_ xx: Int, _ yy: Int) -> Double { Double(image.pixels[yy * image.width + xx]) }
                let top = p(x0, y0) * (1 - tx) + p(x0 + 1, y0) * tx
                let bottom = p(x0, y0 + 1) * (1 - tx) + p(x0 + 1, y0 + 1) * tx
                pixels[y * width + x] = UInt8(max(0, min(255, (top * (1 - ty) + bottom * ty).rounded())))
            }
        }
        guard let out = GrayscaleImage(width: width, height: height, pixels: pixels) else {
            preconditionFailure("size")
        }
        return out
    }

    /// A mid-grey frame with seeded Gaussian-like noise (the sum of four uniform values): binarised, it is a
    /// field of dark and light specks right up to a symbol's quiet zone.
    static func noise(width: Int, height: Int, mean: Double = 125, spread: Double = 22, seed: UInt64) -> [UInt8] {
        var rng = SeededGenerator(state: seed)
        return (0..<(width * height)).map { _ in
            var sum = 0.0
            for _ in 0..<4 { sum += Double.random(in: -1...1, using: &rng) }
            return UInt8(max(0, min(255, (mean + sum * spread * 0.866).rounded())))
        }
    }

    /// The map of the plane taking the four points `a` to the four points `b` (in order).
    static func homography(from a: [(Double, Double)], to b: [(Double, Double)]) -> (Double, Double) -> (Double, Double) {
        // Solve the 8 unknowns of x' = (p0 x + p1 y + p2) / (p6 x + p7 y + 1), y' = (p3 x + p4 y + p5) / (…).
        var m = [[Double]]()
        for k in 0..<4 {
            let (x, y) = a[k]
            let (u, v) = b[k]
            m.append([x, y, 1, 0, 0, 0, -u * x, -u * y, u])
            m.append([0, 0, 0, x, y, 1, -v * x, -v * y, v])
        }
        for col in 0..<8 {
            let pivot = (col..<8).max { abs(m[$0][col]) < abs(m[$1][col]) } ?? col
            m.swapAt(col, pivot)
            for r in 0..<8 where r != col {
                let f = m[r][col] / m[col][col]
                for c in col..<9 { m[r][c] -= f * m[col][c] }
            }
        }
        let p = (0..<8).map { m[$0][8] / m[$0][$0] }
        return { x, y in
            let d = p[6] * x + p[7] * y + 1
            return ((p[0] * x + p[1] * y + p[2]) / d, (p[3] * x + p[4] * y + p[5]) / d)
        }
    }
}
