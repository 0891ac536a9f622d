extension GrayscaleImage {
    /// The image rotated clockwise by a multiple of 90 degrees.
    /// - Parameter degrees: 0, 90, 180 or 270 (other values are taken modulo 360 and rounded down to a quarter turn).
    /// - Returns: the rotated image.
    public func rotated(clockwiseBy degrees: Int) -> GrayscaleImage {
        let quarter = ((degrees / 90) % 4 + 4) % 4
        if quarter == 0 { return self }
        let w = self.width
        let h = self.height
        var out = [UInt8](repeating: 0, count: w * h)
        let src = self.pixels
        switch quarter {
        case 1:  // new width h, new height w; dst(x', y') = src(x = y', y = h - 1 - x')
            for y in 0..<h { for x in 0..<w { out[x * h + (h - 1 - y)] = src[y * w + x] } }
        case 2:
            for i in 0..<(w * h) { out[w * h - 1 - i] = src[i] }
        default:
            for y in 0..<h { for x in 0..<w { out[(w - 1 - x) * h + y] = src[y * w + x] } }
        }
        let (nw, nh) = quarter == 2 ? (w, h) : (h, w)
        return GrayscaleImage(uncheckedWidth: nw, height: nh, pixels: out)
    }

    /// The image with every luminance value inverted (255 - v).
    public func inverted() -> GrayscaleImage {
        // A plain loop over raw buffers (which the compiler vectorises), not `map` with a closure.
        let count = self.pixels.count
        let out = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            self.pixels.withUnsafeBufferPointer { src in
                for i in 0..<count { buffer[i] = 255 &- src[i] }
            }
            initialized = count
        }
        return GrayscaleImage(uncheckedWidth: self.width, height: self.height, pixels: out)
    }

    /// Internal initializer for sizes already known to be consistent.
    init(uncheckedWidth width: Int, height: Int, pixels: [UInt8]) {
        guard let image = GrayscaleImage(width: width, height: height, pixels: pixels) else {
            preconditionFailure("pixel count \(pixels.count) does not match \(width)x\(height)")
        }
        self = image
    }
}
