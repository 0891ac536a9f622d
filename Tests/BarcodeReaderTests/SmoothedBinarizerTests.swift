@testable import BarcodeReader
import Testing

/// ``HybridBinarizer/binarizeSmoothed(_:)``, the second binarisation of the 2-D readers: held to a plain statement
/// of its rule (written here the slow way, one block and one window at a time) on random and structured images.
@Suite struct SmoothedBinarizerTests {
    /// The rule, plainly: a block's threshold is the middle of its range when the range exceeds 24 (else unknown,
    /// 0); each block then takes the mean of the known thresholds in the 5×5 window of blocks around it (the nearest
    /// window inside the image at the borders), its own counted twice; blocks with nothing known nearby take the
    /// next known threshold in reading order, or the last one; a pixel at or below its block's threshold is dark.
    static func reference(_ image: GrayscaleImage) -> [UInt8] {
        let (w, h) = (image.width, image.height)
        let sw = (w + 7) / 8
        let sh = (h + 7) / 8
        var known = [Int](repeating: 0, count: sw * sh)
        for by in 0..<sh {
            for bx in 0..<sw {
                let x0 = min(bx * 8, w - 8)
                let y0 = min(by * 8, h - 8)
                var lo = 255
                var hi = 0
                for y in y0..<(y0 + 8) {
                    for x in x0..<(x0 + 8) {
                        lo = min(lo, Int(image.pixels[y * w + x]))
                        hi = max(hi, Int(image.pixels[y * w + x]))
                    }
                }
                known[by * sw + bx] = hi - lo > 24 ? (hi + lo) / 2 : 0
            }
        }
        var smoothed = [Int](repeating: 0, count: sw * sh)
        for by in 0..<sh {
            for bx in 0..<sw {
                let cx = min(max(bx, 2), sw - 3)
                let cy = min(max(by, 2), sh - 3)
                let own = known[by * sw + bx]
                var sum = 2 * own
                var n = own > 0 ? 2 : 0
                for y in (cy - 2)...(cy + 2) {
                    for x in (cx - 2)...(cx + 2) where known[y * sw + x] > 0 {
                        sum += known[y * sw + x]
                        n += 1
                    }
                }
                smoothed[by * sw + bx] = n > 0 ? sum / n : 0
            }
        }
        var filled = smoothed
        for i in filled.indices where filled[i] == 0 {
            filled[i] = smoothed[i...].first { $0 > 0 } ?? smoothed[..<i].last { $0 > 0 } ?? 0
        }
        var out = [UInt8](repeating: 0, count: w * h)
        guard filled.contains(where: { $0 > 0 }) else { return out }
        for by in 0..<sh {
            for bx in 0..<sw {
                let x0 = min(bx * 8, w - 8)
                let y0 = min(by * 8, h - 8)
                for y in y0..<(y0 + 8) {
                    for x in x0..<(x0 + 8) {
                        out[y * w + x] = Int(image.pixels[y * w + x]) <= filled[by * sw + bx] ? 1 : 0
                    }
                }
            }
        }
        return out
    }

    /// Random sizes (from the smallest the block rule takes, 40, to sizes that are not a multiple of 8) and
    /// contents: noise, a dark square on a gradient, flat regions larger than a window (the fill in reading
    /// order), and patches of contrast in a flat ground.
    @Test(arguments: [1, 2, 3, 4, 5, 6])
    func theFastPassFollowsTheRule(seed: UInt64) throws {
        var rng = RobustnessTests.SplitMix(state: seed)
        for _ in 0..<12 {
            let w = 40 + rng.int(90)
            let h = 40 + rng.int(90)
            let kind = rng.int(4)
            var pixels = [UInt8](repeating: 0, count: w * h)
            let ground = 60 + rng.int(150)
            for y in 0..<h {
                for x in 0..<w {
                    let v: Int
                    switch kind {
                    case 0: v = rng.int(256)
                    case 1:
                        let inside = x > w / 4 && x < w / 2 && y > h / 3 && y < 2 * h / 3
                        v = inside ? 20 + rng.int(30) : 100 + (x * 120) / w + rng.int(8)
                    case 2: v = ground + rng.int(6)
                    default:
                        let patch = (x / 16 + y / 16) % 5 == 0
                        v = patch ? (rng.int(2) == 0 ? 30 : 220) : ground + rng.int(10)
                    }
                    pixels[y * w + x] = UInt8(clamping: v)
                }
            }
            let image = try #require(GrayscaleImage(width: w, height: h, pixels: pixels))
            let fast = HybridBinarizer.binarizeSmoothed(image)
            let expected = Self.reference(image)
            #expect(fast.bits == expected, "\(w)×\(h), kind \(kind): \(zip(fast.bits, expected).filter { $0 != $1 }.count) pixels differ")
        }
    }

    /// A flat image has no threshold anywhere: every pixel light (a text page's margin, a wall).
    @Test func aFlatImageIsAllLight() throws {
        let image = try #require(GrayscaleImage(width: 64, height: 48, pixels: [UInt8](repeating: 90, count: 64 * 48)))
        #expect(!HybridBinarizer.binarizeSmoothed(image).bits.contains(1))
    }

    /// A faint mark (30 levels under its ground) is dark throughout: its flat inner blocks take the level of its
    /// edges' blocks, and the flat ground far from any contrast the next level known in reading order.
    @Test func aFaintMarkBesideContrastIsDark() throws {
        let (w, h) = (96, 96)
        var pixels = [UInt8](repeating: 235, count: w * h)
        for y in 0..<h {
            for x in 0..<w {
                if x < 32 && (x / 4) % 2 == 0 { pixels[y * w + x] = 20 }  // strong bars on the left
                if (50..<82).contains(x) && (43..<59).contains(y) { pixels[y * w + x] = 205 }  // a faint square
            }
        }
        let image = try #require(GrayscaleImage(width: w, height: h, pixels: pixels))
        let bits = HybridBinarizer.binarizeSmoothed(image)
        #expect(bits.get(60, 48) && bits.get(78, 45), "the faint square is dark")
        #expect(!bits.get(60, 70) && !bits.get(90, 10), "the ground stays light")
        #expect(bits.get(1, 1) && !bits.get(5, 1), "the bars keep their edges")
    }
}
