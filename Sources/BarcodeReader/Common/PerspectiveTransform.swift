/// A projective mapping between two quadrilaterals (zxing's PerspectiveTransform).
struct PerspectiveTransform {
    var a11, a12, a13, a21, a22, a23, a31, a32, a33: Double

    static func quadrilateralToQuadrilateral(
        _ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double, _ x3: Double,
        _ y3: Double, _ x0p: Double, _ y0p: Double, _ x1p: Double, _ y1p: Double, _ x2p: Double, _ y2p: Double,
        _ x3p: Double, _ y3p: Double
    ) -> PerspectiveTransform {
        let qToS = quadrilateralToSquare(x0, y0, x1, y1, x2, y2, x3, y3)
        let sToQ = squareToQuadrilateral(x0p, y0p, x1p, y1p, x2p, y2p, x3p, y3p)
        return sToQ.times(qToS)
    }

    static func squareToQuadrilateral(
        _ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double, _ x3: Double, _ y3: Double
    ) -> PerspectiveTransform {
        let dx3 = x0 - x1 + x2 - x3
        let dy3 = y0 - y1 + y2 - y3
        if dx3 == 0 && dy3 == 0 {
            return PerspectiveTransform(
                a11: x1 - x0, a12: y1 - y0, a13: 0, a21: x2 - x1, a22: y2 - y1, a23: 0, a31: x0, a32: y0, a33: 1)
        }
        let dx1 = x1 - x2
        let dx2 = x3 - x2
        let dy1 = y1 - y2
        let dy2 = y3 - y2
        let denominator = dx1 * dy2 - dx2 * dy1
        let a13 = (dx3 * dy2 - dx2 * dy3) / denominator
        let a23 = (dx1 * dy3 - dx3 * dy1) / denominator
        return PerspectiveTransform(
            a11: x1 - x0 + a13 * x1, a12: y1 - y0 + a13 * y1, a13: a13,
            a21: x3 - x0 + a23 * x3, a22: y3 - y0 + a23 * y3, a23: a23,
            a31: x0, a32: y0, a33: 1)
    }

    static func quadrilateralToSquare(
        _ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double, _ x3: Double, _ y3: Double
    ) -> PerspectiveTransform {
        squareToQuadrilateral(x0, y0, x1, y1, x2, y2, x3, y3).adjoint()
    }

    func adjoint() -> PerspectiveTransform {
        PerspectiveTransform(
            a11: a22 * a33 - a23 * a32, a12: a13 * a32 - a12 * a33, a13: a12 * a23 - a13 * a22,
            a21: a23 * a31 - a21 * a33, a22: a11 * a33 - a13 * a31, a23: a13 * a21 - a11 * a23,
            a31: a21 * a32 - a22 * a31, a32: a12 * a31 - a11 * a32, a33: a11 * a22 - a12 * a21)
    }

    /// Composition: applies `o` first, then `self`.
    func times(_ o: PerspectiveTransform) -> PerspectiveTransform {
        PerspectiveTransform(
            a11: a11 * o.a11 + a21 * o.a12 + a31 * o.a13,
            a12: a12 * o.a11 + a22 * o.a12 + a32 * o.a13,
            a13: a13 * o.a11 + a23 * o.a12 + a33 * o.a13,
            a21: a11 * o.a21 + a21 * o.a22 + a31 * o.a23,
            a22: a12 * o.a21 + a22 * o.a22 + a32 * o.a23,
            a23: a13 * o.a21 + a23 * o.a22 + a33 * o.a23,
            a31: a11 * o.a31 + a21 * o.a32 + a31 * o.a33,
            a32: a12 * o.a31 + a22 * o.a32 + a32 * o.a33,
            a33: a13 * o.a31 + a23 * o.a32 + a33 * o.a33)
    }

    @inline(__always)
    func transform(_ x: Double, _ y: Double) -> (Double, Double) {
        let denominator = a13 * x + a23 * y + a33
        return ((a11 * x + a21 * y + a31) / denominator, (a12 * x + a22 * y + a32) / denominator)
    }
}
