/// Samples a module grid from luminance: a 3×3 average at each module centre, thresholded against the mean
/// of the surrounding 9×9 modules (codes are roughly half dark), which tolerates blur and uneven light.
enum GreySampler {
    /// Samples `width × height` module centres through `t` (module coordinates to image pixels).
    static func sample(_ g: GrayscaleImage, _ t: PerspectiveTransform, width: Int, height: Int) -> BitMatrix? {
        var values = [Int](repeating: 0, count: width * height)
        let gw = g.width
        let gh = g.height
        g.pixels.withUnsafeBufferPointer { px in
            for y in 0..<height {
                for x in 0..<width {
                    let (fx, fy) = t.transform(Double(x) + 0.5, Double(y) + 0.5)
                    guard fx.isFinite, fy.isFinite else { continue }
                    let cx = min(max(pixelIndex(fx), 1), gw - 2)
                    let cy = min(max(pixelIndex(fy), 1), gh - 2)
                    var sum = 0
                    for dy in -1...1 { for dx in -1...1 { sum += Int(px[(cy + dy) * gw + cx + dx]) } }
                    values[y * width + x] = sum / 9
                }
            }
        }
        // Threshold: mean of the 9×9-module neighbourhood (summed-area table), QR data being about half dark.
        let n = width + 1
        var integral = [Int](repeating: 0, count: n * (height + 1))
        for y in 0..<height {
            var rowSum = 0
            for x in 0..<width {
                rowSum += values[y * width + x]
                integral[(y + 1) * n + x + 1] = integral[y * n + x + 1] + rowSum
            }
        }
        var out = BitMatrix(width: width, height: height)
        let r = 4
        for y in 0..<height {
            let y0 = max(0, y - r)
            let y1 = min(height, y + r + 1)
            for x in 0..<width {
                let x0 = max(0, x - r)
                let x1 = min(width, x + r + 1)
                let sum = integral[y1 * n + x1] - integral[y0 * n + x1] - integral[y1 * n + x0] + integral[y0 * n + x0]
                if values[y * width + x] * (y1 - y0) * (x1 - x0) < sum { out.set(x, y) }
            }
        }
        return out
    }

}
