/// `Int(value)` (truncated toward zero) for a pixel coordinate computed in floating point, without the trap:
/// a degenerate perspective transform answers NaN, infinite or huge coordinates, which become a coordinate far
/// outside any picture (±2⁴⁰; NaN as −2⁴⁰) instead of crashing the process. Found by scripts/barcode-soak.sh.
@inline(__always)
func pixelIndex(_ value: Double) -> Int {
    if value.isNaN { return -(1 << 40) }
    return Int(Swift.min(Swift.max(value, -1e12), 1e12))
}

/// A binarised image: one byte per pixel, 1 = dark.
struct BitMatrix {
    let width: Int
    let height: Int
    var bits: [UInt8]

    init(width: Int, height: Int, bits: [UInt8]) {
        self.width = width
        self.height = height
        self.bits = bits
    }

    init(width: Int, height: Int) {
        self.init(width: width, height: height, bits: [UInt8](repeating: 0, count: width * height))
    }

    /// True when the pixel at floating-point coordinates (truncated toward zero) is dark; false outside the image
    /// and for NaN or infinite coordinates.
    @inline(__always)
    func get(_ x: Double, _ y: Double) -> Bool { self.get(pixelIndex(x), pixelIndex(y)) }

    /// True when the pixel is dark; false outside the image.
    @inline(__always)
    func get(_ x: Int, _ y: Int) -> Bool {
        guard x >= 0, y >= 0, x < self.width, y < self.height else { return false }
        return self.bits[y * self.width + x] != 0
    }

    @inline(__always)
    mutating func set(_ x: Int, _ y: Int, _ value: Bool = true) {
        self.bits[y * self.width + x] = value ? 1 : 0
    }

    /// Marks a rectangle.
    mutating func setRegion(left: Int, top: Int, width: Int, height: Int) {
        for y in top..<(top + height) {
            for x in left..<(left + width) where x < self.width && y < self.height { self.set(x, y) }
        }
    }

    /// The matrix with dark and light swapped.
    func inverted() -> BitMatrix {
        // A plain loop over raw buffers (which the compiler vectorises), not `map` with a closure.
        let count = self.bits.count
        let out = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            self.bits.withUnsafeBufferPointer { src in
                for i in 0..<count { buffer[i] = src[i] ^ 1 }
            }
            initialized = count
        }
        return BitMatrix(width: self.width, height: self.height, bits: out)
    }
}

/// zxing's hybrid binariser: a threshold per 8×8 block from the 5×5 neighbourhood of block black points.
enum HybridBinarizer {
    static let blockSize = 8
    static let minDynamicRange = 24

    static func binarize(_ image: GrayscaleImage) -> BitMatrix {
        let width = image.width
        let height = image.height
        guard width >= 40, height >= 40 else { return globalBinarize(image) }
        let subWidth = (width + blockSize - 1) / blockSize
        let subHeight = (height + blockSize - 1) / blockSize
        var matrix = BitMatrix(width: width, height: height)
        // Block black points in a raw buffer: the loops below index it ~50 times per block.
        let blackPoints = UnsafeMutablePointer<Int>.allocate(capacity: subWidth * subHeight)
        blackPoints.initialize(repeating: 0, count: subWidth * subHeight)
        defer { blackPoints.deallocate() }
        // The block loops below read and write eight pixels at a time (blockSize is 8).
        precondition(blockSize == 8)
        image.pixels.withUnsafeBufferPointer { lum in
            let lumRaw = UnsafeRawPointer(lum.baseAddress!)
            let maxYOffset = height - blockSize
            let maxXOffset = width - blockSize
            for y in 0..<subHeight {
                let yoffset = min(y * blockSize, maxYOffset)
                for x in 0..<subWidth {
                    let xoffset = min(x * blockSize, maxXOffset)
                    let (lo, hi, sum) = blockStatistics(lumRaw, width: width, x: xoffset, y: yoffset)
                    var average = sum >> 6
                    if hi - lo <= minDynamicRange {
                        average = lo / 2
                        if y > 0 && x > 0 {
                            let neighbours =
                                (blackPoints[(y - 1) * subWidth + x] + 2 * blackPoints[y * subWidth + x - 1]
                                    + blackPoints[(y - 1) * subWidth + x - 1]) / 4
                            if lo < neighbours { average = neighbours }
                        }
                    }
                    blackPoints[y * subWidth + x] = average
                }
            }
            matrix.bits.withUnsafeMutableBufferPointer { out in
                for y in 0..<subHeight {
                    let yoffset = min(y * blockSize, maxYOffset)
                    let top = cap(y, subHeight - 3)
                    for x in 0..<subWidth {
                        let xoffset = min(x * blockSize, maxXOffset)
                        let left = cap(x, subWidth - 3)
                        var sum = 0
                        for z in -2...2 {
                            let row = (top + z) * subWidth
                            for k in -2...2 { sum += blackPoints[row + left + k] }
                        }
                        let threshold = sum / 25
                        guard threshold >= 0 else { continue }
                        thresholdBlock(
                            lumRaw, UnsafeMutableRawPointer(out.baseAddress!), width: width, x: xoffset, y: yoffset,
                            threshold: threshold, keepingSetBits: true)
                    }
                }
            }
        }
        return matrix
    }

    /// A threshold per 8×8 block from the blocks that show contrast, as zxing-cpp's current binariser does:
    /// a block whose range exceeds ``minDynamicRange`` gets the middle of its range, the others none; each block's
    /// threshold is then the mean of the known ones in its 5×5 neighbourhood (its own counted twice), and a block
    /// with none known nearby takes the next known one in reading order. A faint part of a symbol under glare or in
    /// shadow is thresholded with its lit neighbours' level, instead of being taken for light background.
    static func binarizeSmoothed(_ image: GrayscaleImage) -> BitMatrix {
        let width = image.width
        let height = image.height
        guard width >= 40, height >= 40 else { return globalBinarize(image) }
        let subWidth = (width + blockSize - 1) / blockSize
        let subHeight = (height + blockSize - 1) / blockSize
        let blocks = subWidth * subHeight
        var matrix = BitMatrix(width: width, height: height)
        let known = UnsafeMutablePointer<Int>.allocate(capacity: blocks)
        known.initialize(repeating: 0, count: blocks)
        defer { known.deallocate() }
        let smoothed = UnsafeMutablePointer<Int>.allocate(capacity: blocks)
        smoothed.initialize(repeating: 0, count: blocks)
        defer { smoothed.deallocate() }
        precondition(blockSize == 8)
        image.pixels.withUnsafeBufferPointer { lum in
            let lumRaw = UnsafeRawPointer(lum.baseAddress!)
            let maxYOffset = height - blockSize
            let maxXOffset = width - blockSize
            for y in 0..<subHeight {
                let yoffset = min(y * blockSize, maxYOffset)
                for x in 0..<subWidth {
                    let xoffset = min(x * blockSize, maxXOffset)
                    let (lo, hi, _) = blockStatistics(lumRaw, width: width, x: xoffset, y: yoffset)
                    // (hi + lo) / 2 with hi - lo > 24 is at least 12: 0 is free to mean "unknown".
                    known[y * subWidth + x] = hi - lo > minDynamicRange ? (hi + lo) / 2 : 0
                }
            }
            // Sums of the known thresholds and their count over each 5×5 window (the window of a block within two
            // of the border is its nearest inner block's), by rows of five and then columns of five: `rows` holds a
            // row's sum for every inner column, in the upper 32 bits the thresholds, the count in the lower.
            let rows = UnsafeMutablePointer<Int>.allocate(capacity: blocks)
            defer { rows.deallocate() }
            for y in 0..<subHeight {
                let line = y * subWidth
                var sum = 0
                for x in 0..<5 {
                    let t = known[line + x]
                    sum += t << 32 | (t > 0 ? 1 : 0)
                }
                rows[line + 2] = sum
                for x in 3..<(subWidth - 2) {
                    let add = known[line + x + 2]
                    let drop = known[line + x - 3]
                    sum += (add << 32 | (add > 0 ? 1 : 0)) - (drop << 32 | (drop > 0 ? 1 : 0))
                    rows[line + x] = sum
                }
            }
            for x in 2..<(subWidth - 2) {
                var sum = 0
                for y in 0..<5 { sum += rows[y * subWidth + x] }
                for y in 0..<subHeight {
                    let top = min(max(y, 2), subHeight - 3)
                    if y > 2 && top == y {
                        sum += rows[(y + 2) * subWidth + x] - rows[(y - 3) * subWidth + x]
                    }
                    // Blocks left of the inner columns share column 2's window, right of them the last one's.
                    for cx in (x == 2 ? 0 : x)...(x == subWidth - 3 ? subWidth - 1 : x) {
                        let own = known[y * subWidth + cx]
                        let total = (sum >> 32) + 2 * own
                        let n = (sum & 0xFFFF_FFFF) + (own > 0 ? 2 : 0)
                        smoothed[y * subWidth + cx] = n > 0 ? total / n : 0
                    }
                }
            }
            // Blocks with no contrast anywhere near: the next known threshold in reading order (the last one for
            // the blocks after it).
            var next = 0
            for i in stride(from: blocks - 1, through: 0, by: -1) {
                if smoothed[i] > 0 { next = smoothed[i] } else { smoothed[i] = next }
            }
            if next == 0 { return }  // no contrast in the whole image: every pixel light
            var last = 0
            for i in 0..<blocks {
                if smoothed[i] > 0 { last = smoothed[i] } else { smoothed[i] = last }
            }
            matrix.bits.withUnsafeMutableBufferPointer { out in
                let outRaw = UnsafeMutableRawPointer(out.baseAddress!)
                for y in 0..<subHeight {
                    let yoffset = min(y * blockSize, maxYOffset)
                    for x in 0..<subWidth {
                        let xoffset = min(x * blockSize, maxXOffset)
                        thresholdBlock(
                            lumRaw, outRaw, width: width, x: xoffset, y: yoffset, threshold: smoothed[y * subWidth + x],
                            keepingSetBits: false)
                    }
                }
            }
        }
        return matrix
    }

    /// The minimum, maximum and sum of the 8×8 block at (`x`, `y`), lane by lane (a lane sums at most 8 × 255).
    @inline(__always)
    private static func blockStatistics(_ lum: UnsafeRawPointer, width: Int, x: Int, y: Int) -> (lo: Int, hi: Int, sum: Int) {
        var vLo = SIMD8<UInt8>(repeating: 255)
        var vHi = SIMD8<UInt8>(repeating: 0)
        var vSum = SIMD8<UInt16>(repeating: 0)
        for yy in 0..<8 {
            let row = lum.loadUnaligned(fromByteOffset: (y + yy) * width + x, as: SIMD8<UInt8>.self)
            vLo = pointwiseMin(vLo, row)
            vHi = pointwiseMax(vHi, row)
            vSum &+= SIMD8<UInt16>(truncatingIfNeeded: row)
        }
        return (Int(vLo.min()), Int(vHi.max()), Int(vSum.wrappedSum()))
    }

    /// Sets the pixels of the 8×8 block at (`x`, `y`) at or below `threshold` to 1 and the others to 0, or, when
    /// `keepingSetBits`, leaves bits already set (the last block of a row or column overlaps its neighbour when the
    /// size is not a multiple of 8: zxing's binariser keeps a pixel dark if either block's threshold made it so).
    @inline(__always)
    private static func thresholdBlock(
        _ lum: UnsafeRawPointer, _ out: UnsafeMutableRawPointer, width: Int, x: Int, y: Int, threshold: Int,
        keepingSetBits: Bool
    ) {
        let t = SIMD8<UInt8>(repeating: UInt8(clamping: threshold))
        for yy in 0..<8 {
            let base = (y + yy) * width + x
            let row = lum.loadUnaligned(fromByteOffset: base, as: SIMD8<UInt8>.self)
            var dark = SIMD8<UInt8>(repeating: 0).replacing(with: 1, where: row .<= t)
            if keepingSetBits { dark |= out.loadUnaligned(fromByteOffset: base, as: SIMD8<UInt8>.self) }
            out.storeBytes(of: dark, toByteOffset: base, as: SIMD8<UInt8>.self)
        }
    }

    @inline(__always)
    private static func cap(_ value: Int, _ maxValue: Int) -> Int {
        value < 2 ? 2 : min(value, maxValue)
    }

    /// Whole-image histogram threshold, for tiny images.
    static func globalBinarize(_ image: GrayscaleImage) -> BitMatrix {
        var buckets = [Int32](repeating: 0, count: 32)
        for p in image.pixels { buckets[Int(p >> 3)] += 1 }
        let bp = buckets.withUnsafeMutableBufferPointer { RowBinarizer.blackPoint($0) } ?? 128
        return BitMatrix(width: image.width, height: image.height, bits: image.pixels.map { Int($0) < bp ? 1 : 0 })
    }
}
