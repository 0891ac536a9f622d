import BarcodeReader
import Foundation

/// Pictures without any symbol, drawn from a seed: the textures on which the soak (scripts/barcode-soak.sh) saw
/// short Code 39 ("P", "PP") and ITF digit pairs ("303030") read. Every picture is rebuilt from its seed alone, so a
/// failure names the seed that reproduces it. `scripts/barcode-gen.py --sets 'negative-*'` draws the same kinds
/// (woven sines, exact stripes, block noise) for eval beside zxing-cpp and zbar.
enum NegativeTextures {
    enum Kind: String, CaseIterable, Sendable {
        /// The sum of three sines across, down and diagonally (woven fabric, moiré).
        case wovenSines
        /// Stripes of one whole period and duty across the picture, sometimes with pixel noise.
        case stripes
        /// Two sine periods beating, thresholded (fences, railings, blinds).
        case fence
        /// Random grey squares of 2–16 px.
        case blockNoise
        /// Gaussian pixel noise, sometimes smoothed along the rows.
        case noise
    }

    /// SplitMix64: a small generator whose every output depends on the seed alone.
    struct RNG: RandomNumberGenerator {
        var state: UInt64
        init(seed: UInt64) { self.state = seed }
        mutating func next() -> UInt64 {
            self.state &+= 0x9E37_79B9_7F4A_7C15
            var z = self.state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &self) }
        mutating func double(_ range: ClosedRange<Double>) -> Double { Double.random(in: range, using: &self) }
        mutating func chance(_ p: Double) -> Bool { Double.random(in: 0..<1, using: &self) < p }
    }

    /// The picture of `kind` drawn from `seed` (the size too: 120–640 × 120–480).
    static func picture(_ kind: Kind, seed: UInt64) -> GrayscaleImage {
        var rng = RNG(seed: seed)
        let w = rng.int(120...640)
        let h = rng.int(120...480)
        var px = [UInt8](repeating: 0, count: w * h)
        func clamp(_ v: Double) -> UInt8 { UInt8(max(0, min(255, v.rounded()))) }
        switch kind {
        case .wovenSines:
            let f1 = rng.double(0.05...1.5)
            let f2 = rng.double(0.05...1.5)
            let f3 = rng.double(0.01...0.3)
            let amp = rng.double(30...50)
            let transpose = rng.chance(0.5)
            for y in 0..<h {
                for x in 0..<w {
                    let (u, v) = transpose ? (Double(y), Double(x)) : (Double(x), Double(y))
                    px[y * w + x] = clamp(128 + amp * (sin(u * f1) + sin(v * f2) + sin((u + v) * f3)))
                }
            }
        case .stripes:
            let period = rng.int(2...40)
            let duty = rng.int(1...max(1, period - 1))
            let vertical = rng.chance(0.6)
            let phase = rng.int(0...period)
            let dark = Double(rng.int(0...90))
            let light = Double(rng.int(150...255))
            let noise = rng.chance(0.5) ? rng.double(1...60) : 0
            for y in 0..<h {
                for x in 0..<w {
                    let c = (vertical ? x : y) + phase
                    let v = c % period < duty ? dark : light
                    px[y * w + x] = clamp(v + (noise > 0 ? rng.double(-noise...noise) : 0))
                }
            }
        case .fence:
            let p1 = rng.double(3...30)
            let p2 = rng.double(3...30)
            let beat = rng.chance(0.5) ? 0.7 : 0
            let shift = rng.double(0...6)
            let duty = rng.double(-0.6...0.6)
            let (dark, light) = (UInt8(rng.int(10...90)), UInt8(rng.int(180...250)))
            for x in 0..<w {
                let v = sin(2 * Double.pi * Double(x) / p1) + beat * sin(2 * Double.pi * Double(x) / p2 + shift)
                let c = v > duty ? light : dark
                for y in 0..<h { px[y * w + x] = c }
            }
        case .blockNoise:
            let s = rng.int(2...16)
            let bw = w / s + 1
            var blocks = [UInt8](repeating: 0, count: bw * (h / s + 1))
            for i in blocks.indices { blocks[i] = UInt8(truncatingIfNeeded: rng.next()) }
            for y in 0..<h { for x in 0..<w { px[y * w + x] = blocks[(y / s) * bw + x / s] } }
        case .noise:
            let mean = rng.double(60...190)
            let sigma = rng.double(10...70)
            for i in px.indices {
                // Box–Muller.
                let u1 = max(1e-12, rng.double(0...1))
                let u2 = rng.double(0...1)
                px[i] = clamp(mean + sigma * (-2 * log(u1)).squareRoot() * cos(2 * Double.pi * u2))
            }
            if rng.chance(0.5) {
                let r = rng.int(1...3)
                for y in 0..<h {
                    let row = Array(px[(y * w)..<((y + 1) * w)])
                    for x in 0..<w {
                        var sum = 0
                        var n = 0
                        for k in max(0, x - r)...min(w - 1, x + r) {
                            sum += Int(row[k])
                            n += 1
                        }
                        px[y * w + x] = UInt8(sum / n)
                    }
                }
            }
        }
        return GrayscaleImage(width: w, height: h, pixels: px)!
    }
}
