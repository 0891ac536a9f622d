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


    /// Samples `width × height` module centres through `t` for blurred symbols of
    /// small modules: the luminance at each centre by bilinear interpolation (a pixel average there would blur
    /// more), sharpened against the mean of its four neighbouring modules (blur pulls a lone dark module towards
    /// its light neighbours: `2v − mean`), then thresholded against the mean of the surrounding 9×9 modules.
    static func sampleSharpened(_ g: GrayscaleImage, _ t: PerspectiveTransform, width: Int, height: Int) -> BitMatrix? {
        var centres: [(Double, Double)] = []
        centres.reserveCapacity(width * height)
        for y in 0..<height {
            for x in 0..<width {
                let p = t.transform(Double(x) + 0.5, Double(y) + 0.5)
                guard p.0.isFinite, p.1.isFinite else { return nil }
                centres.append(p)
            }
        }
        return sampleSharpened(g, centres: centres, width: width, height: height)
    }

    /// ``sampleSharpened(_:_:width:height:)`` at given module centres (row by row, `width × height` of them).
    static func sampleSharpened(_ g: GrayscaleImage, centres: [(Double, Double)], width: Int, height: Int) -> BitMatrix? {
        guard centres.count == width * height, width > 0, height > 0, g.width >= 2, g.height >= 2 else { return nil }
        var values = [Double](repeating: 0, count: width * height)
        let gw = g.width
        let gh = g.height
        g.pixels.withUnsafeBufferPointer { px in
            for k in 0..<centres.count {
                let fx = min(max(centres[k].0 - 0.5, 0), Double(gw - 1))
                let fy = min(max(centres[k].1 - 0.5, 0), Double(gh - 1))
                let ix = min(Int(fx), gw - 2)
                let iy = min(Int(fy), gh - 2)
                let ax = fx - Double(ix)
                let ay = fy - Double(iy)
                let i = iy * gw + ix
                let top = Double(px[i]) * (1 - ax) + Double(px[i + 1]) * ax
                let bottom = Double(px[i + gw]) * (1 - ax) + Double(px[i + gw + 1]) * ax
                values[k] = top * (1 - ay) + bottom * ay
            }
        }
        var sharpened = values
        for y in 0..<height {
            for x in 0..<width {
                let v = values[y * width + x]
                let left = x > 0 ? values[y * width + x - 1] : v
                let right = x + 1 < width ? values[y * width + x + 1] : v
                let up = y > 0 ? values[(y - 1) * width + x] : v
                let down = y + 1 < height ? values[(y + 1) * width + x] : v
                sharpened[y * width + x] = 2 * v - (left + right + up + down) / 4
            }
        }
        let n = width + 1
        var integral = [Double](repeating: 0, count: n * (height + 1))
        for y in 0..<height {
            var rowSum = 0.0
            for x in 0..<width {
                rowSum += sharpened[y * width + x]
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
                if sharpened[y * width + x] * Double((y1 - y0) * (x1 - x0)) < sum { out.set(x, y) }
            }
        }
        return out
    }
}
