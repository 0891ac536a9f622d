import BarcodeImage
import BarcodeReader
import Foundation

/// A mutable picture used while drawing an input.
struct Canvas {
    var width: Int
    var height: Int
    var pixels: [UInt8]

    init(width: Int, height: Int, fill: UInt8 = 255) {
        self.width = width
        self.height = height
        self.pixels = [UInt8](repeating: fill, count: width * height)
    }

    init(_ image: GrayscaleImage) {
        self.width = image.width
        self.height = image.height
        self.pixels = image.pixels
    }

    var image: GrayscaleImage? { GrayscaleImage(width: self.width, height: self.height, pixels: self.pixels) }

    subscript(x: Int, y: Int) -> UInt8 {
        get { self.pixels[y * self.width + x] }
        set { self.pixels[y * self.width + x] = newValue }
    }
}

enum Pictures {
    /// Sides for synthetic pictures: mostly camera-like sizes, sometimes large.
    static func size(_ rng: inout SoakRNG) -> (Int, Int) {
        if rng.chance(0.03) { return (rng.int(800...2400), rng.int(600...1800)) }
        if rng.chance(0.3) { return (640, 480) }
        return (rng.int(16...800), rng.int(16...700))
    }

    static func degenerate(_ rng: inout SoakRNG) -> GrayscaleImage {
        let long = rng.pick([1, 2, 3, 5, 17, 64, 255, 256, 257, 1000, 4000, rng.int(1...6000)])
        let short = rng.pick([1, 1, 2, 3, 4, 7, rng.int(1...12)])
        let (w, h) = rng.chance(0.5) ? (long, short) : (short, long)
        var c = Canvas(width: w, height: h)
        let mode = rng.int(0..<5)
        for y in 0..<h {
            for x in 0..<w {
                switch mode {
                case 0: c[x, y] = rng.byte()
                case 1: c[x, y] = 0
                case 2: c[x, y] = (x + y) % rng.int(2...4) == 0 ? 0 : 255
                case 3: c[x, y] = UInt8(truncatingIfNeeded: x * 7 + y * 13)
                default: c[x, y] = 255
                }
            }
        }
        if rng.chance(0.3) { self.bars(&c, &rng, angle: rng.chance(0.5) ? 0 : Double.pi / 2) }
        return c.image!
    }

    /// Random bars: a barcode-like pattern of 1–4-module runs, across the whole picture or a band.
    static func bars(_ c: inout Canvas, _ rng: inout SoakRNG, angle: Double) {
        let module = Double(rng.int(1...6)) * (rng.chance(0.3) ? 0.7 : 1)
        var runs: [Int] = []
        let count = rng.int(10...140)
        for _ in 0..<count { runs.append(rng.chance(0.05) ? rng.int(5...12) : rng.int(1...4)) }
        var edges: [Double] = [0]
        for r in runs { edges.append(edges.last! + Double(r) * module) }
        let total = edges.last!
        let (ca, sa) = (cos(angle), sin(angle))
        let cx = Double(c.width) / 2, cy = Double(c.height) / 2
        let band = rng.chance(0.5) ? Double(c.height) : Double(rng.int(4...max(4, c.height)))
        let (dark, light) = (UInt8(rng.int(0...90)), UInt8(rng.int(150...255)))
        for y in 0..<c.height {
            for x in 0..<c.width {
                let u = (Double(x) - cx) * ca + (Double(y) - cy) * sa + total / 2
                let v = -(Double(x) - cx) * sa + (Double(y) - cy) * ca
                guard u >= 0, u < total, abs(v) < band / 2 else { continue }
                var lo = 0, hi = runs.count
                while hi - lo > 1 {
                    let mid = (lo + hi) / 2
                    if edges[mid] <= u { lo = mid } else { hi = mid }
                }
                c[x, y] = lo % 2 == 0 ? dark : light
            }
        }
    }

    /// A QR Code- or Data Matrix-like grid: finder patterns or the L and timing border, random modules inside.
    static func grid(_ c: inout Canvas, _ rng: inout SoakRNG) {
        let qr = rng.chance(0.5)
        let n = qr ? 17 + 4 * rng.int(1...15) : 2 * rng.int(5...36)
        let m = n + (qr ? 0 : (rng.chance(0.2) ? -n / 2 : 0))
        var cells = [[Bool]](repeating: [Bool](repeating: false, count: n), count: m)
        for y in 0..<m { for x in 0..<n { cells[y][x] = rng.chance(0.5) } }
        if qr {
            for (ox, oy) in [(0, 0), (n - 7, 0), (0, m - 7)] {
                for y in 0..<7 { for x in 0..<7 where oy + y < m && ox + x < n {
                    let d = max(abs(x - 3), abs(y - 3))
                    cells[oy + y][ox + x] = d != 2
                } }
            }
            for i in 8..<(n - 8) where i < m { cells[6][i] = i % 2 == 0; cells[i][6] = i % 2 == 0 }
        } else {
            for y in 0..<m { cells[y][0] = true; cells[y][n - 1] = y % 2 == 0 }
            for x in 0..<n { cells[m - 1][x] = true; cells[0][x] = x % 2 == 0 }
        }
        let module = Double(rng.int(1...9)) * (rng.chance(0.3) ? 0.8 : 1)
        let angle = rng.chance(0.5) ? 0 : Double.random(in: 0..<(2 * Double.pi), using: &rng)
        let (ca, sa) = (cos(angle), sin(angle))
        let skew = rng.chance(0.3) ? Double.random(in: -0.3...0.3, using: &rng) : 0
        let cx = Double(c.width) / 2 + Double(rng.int(-40...40)), cy = Double(c.height) / 2 + Double(rng.int(-40...40))
        for y in 0..<c.height {
            for x in 0..<c.width {
                let dx = Double(x) - cx, dy = Double(y) - cy
                let u = (dx * ca + dy * sa) / module + Double(n) / 2 + skew * dy / module
                let v = (-dx * sa + dy * ca) / module + Double(m) / 2
                guard u >= 0, v >= 0, Int(u) < n, Int(v) < m else { continue }
                c[x, y] = cells[Int(v)][Int(u)] ? 20 : 235
            }
        }
    }

    static func synthetic(_ rng: inout SoakRNG) -> GrayscaleImage {
        let (w, h) = self.size(&rng)
        var c = Canvas(width: w, height: h, fill: UInt8(rng.int(0...255)))
        switch rng.int(0..<8) {
        case 0: for i in 0..<c.pixels.count { c.pixels[i] = rng.byte() }
        case 1:
            // Woven texture: sums of sines.
            let (f1, f2, f3) = (Double.random(in: 0.05...1.5, using: &rng), Double.random(in: 0.05...1.5, using: &rng), Double.random(in: 0.01...0.3, using: &rng))
            for y in 0..<h { for x in 0..<w {
                let v = sin(Double(x) * f1) + sin(Double(y) * f2) + sin(Double(x + y) * f3)
                c[x, y] = UInt8(max(0, min(255, 128 + v * 42)))
            } }
        case 2:
            // Stripes and fences.
            let period = rng.int(2...40), duty = rng.int(1...max(1, period - 1)), vertical = rng.chance(0.6)
            for y in 0..<h { for x in 0..<w { c[x, y] = ((vertical ? x : y) % period) < duty ? 0 : 255 } }
        case 3: self.bars(&c, &rng, angle: rng.chance(0.5) ? 0 : Double.random(in: 0..<(2 * Double.pi), using: &rng))
        case 4: self.grid(&c, &rng)
        case 5:
            // Checkerboard or concentric squares (finder-pattern-like everywhere).
            let s = rng.int(1...20), concentric = rng.chance(0.5)
            for y in 0..<h { for x in 0..<w {
                c[x, y] = concentric ? (max(abs(x - w / 2), abs(y - h / 2)) / s) % 2 == 0 ? 0 : 255 : ((x / s + y / s) % 2 == 0 ? 0 : 255)
            } }
        case 6:
            for _ in 0..<rng.int(1...6) { self.bars(&c, &rng, angle: Double(rng.int(0...3)) * Double.pi / 2) }
            for _ in 0..<rng.int(0...2) { self.grid(&c, &rng) }
        default:
            // Blocky noise.
            let s = rng.int(2...16)
            var blocks = [UInt8](repeating: 0, count: (w / s + 1) * (h / s + 1))
            for i in 0..<blocks.count { blocks[i] = rng.byte() }
            for y in 0..<h { for x in 0..<w { c[x, y] = blocks[(y / s) * (w / s + 1) + x / s] } }
        }
        self.effects(&c, &rng, count: rng.int(0...2))
        return c.image!
    }

    /// Camera-like and hostile changes to a picture.
    static func effects(_ c: inout Canvas, _ rng: inout SoakRNG, count: Int) {
        for _ in 0..<count {
            switch rng.int(0..<12) {
            case 0:
                let amp = rng.int(1...80)
                for i in 0..<c.pixels.count { c.pixels[i] = UInt8(max(0, min(255, Int(c.pixels[i]) + rng.int(-amp...amp)))) }
            case 1:
                for _ in 0..<rng.int(1...max(1, c.pixels.count / 20)) { c.pixels[rng.int(0..<c.pixels.count)] = rng.chance(0.5) ? 0 : 255 }
            case 2: for i in 0..<c.pixels.count { c.pixels[i] = 255 - c.pixels[i] }
            case 3:
                // Contrast squash (low light).
                let lo = rng.int(0...120), span = rng.int(1...60)
                for i in 0..<c.pixels.count { c.pixels[i] = UInt8(lo + Int(c.pixels[i]) * span / 255) }
            case 4:
                // Box blur along rows.
                let r = rng.int(1...4)
                for y in 0..<c.height {
                    let row = Array(c.pixels[(y * c.width)..<((y + 1) * c.width)])
                    for x in 0..<c.width {
                        var s = 0, n = 0
                        for k in max(0, x - r)...min(c.width - 1, x + r) { s += Int(row[k]); n += 1 }
                        c[x, y] = UInt8(s / n)
                    }
                }
            case 5:
                // Erase or paint a block.
                let bw = rng.int(1...max(1, c.width)), bh = rng.int(1...max(1, c.height))
                let x0 = rng.int(0...(c.width - bw)), y0 = rng.int(0...(c.height - bh)), v = rng.byte()
                for y in y0..<(y0 + bh) { for x in x0..<(x0 + bw) { c[x, y] = v } }
            case 6:
                // Shear: each row shifted.
                let k = Double.random(in: -0.5...0.5, using: &rng)
                var out = c
                for y in 0..<c.height { for x in 0..<c.width {
                    let sx = ((x + Int(k * Double(y))) % c.width + c.width) % c.width
                    out[x, y] = c[sx, y]
                } }
                c = out
            case 7:
                // Mirror (a barcode read backwards).
                var out = c
                for y in 0..<c.height { for x in 0..<c.width { out[x, y] = c[c.width - 1 - x, y] } }
                c = out
            case 8:
                // Transpose (rotate 90° and mirror).
                var out = Canvas(width: c.height, height: c.width)
                for y in 0..<c.height { for x in 0..<c.width { out[y, x] = c[x, y] } }
                c = out
            case 9:
                // Two levels.
                let t = UInt8(rng.int(1...254))
                for i in 0..<c.pixels.count { c.pixels[i] = c.pixels[i] < t ? 0 : 255 }
            case 10:
                // Bit flips of pixel values.
                for _ in 0..<rng.int(1...200) { let i = rng.int(0..<c.pixels.count); c.pixels[i] ^= 1 << UInt8(rng.int(0...7)) }
            default:
                // Glare: a bright disc.
                let r = rng.int(2...max(2, min(c.width, c.height) / 2)), cx = rng.int(0..<c.width), cy = rng.int(0..<c.height)
                for y in max(0, cy - r)..<min(c.height, cy + r) { for x in max(0, cx - r)..<min(c.width, cx + r) where (x - cx) * (x - cx) + (y - cy) * (y - cy) < r * r { c[x, y] = 255 } }
            }
        }
    }

    /// A real symbol from the corpus, cut, scaled and corrupted.
    static func corpusMutated(_ corpus: Corpus, _ rng: inout SoakRNG) -> GrayscaleImage {
        let paths = corpus.all
        guard !paths.isEmpty, let source = corpus.image(rng.pick(paths)) else { return self.synthetic(&rng) }
        var c = Canvas(source)
        for _ in 0..<rng.int(1...3) {
            switch rng.int(0..<5) {
            case 0:
                // Crop, often to a thin slice across the symbol.
                let thin = rng.chance(0.4)
                let w = thin && rng.chance(0.5) ? rng.int(1...min(c.width, 6)) : rng.int(1...c.width)
                let h = thin && w > 6 ? rng.int(1...min(c.height, 6)) : rng.int(1...c.height)
                let x0 = rng.int(0...(c.width - w)), y0 = rng.int(0...(c.height - h))
                var out = Canvas(width: w, height: h)
                for y in 0..<h { for x in 0..<w { out[x, y] = c[x0 + x, y0 + y] } }
                c = out
            case 1:
                // Nearest-neighbour scale, at most 2000 pixels a side.
                let s = Double.random(in: 0.1...2.5, using: &rng)
                let w = max(1, min(2000, Int(Double(c.width) * s))), h = max(1, min(2000, Int(Double(c.height) * (rng.chance(0.8) ? s : Double.random(in: 0.1...2.5, using: &rng)))))
                var out = Canvas(width: w, height: h)
                for y in 0..<h { for x in 0..<w { out[x, y] = c[x * c.width / w, y * c.height / h] } }
                c = out
            case 2:
                // Tile 2×2 (several symbols, and symbols cut at the seams).
                guard c.width * 2 <= 2400, c.height * 2 <= 2400 else { continue }
                var out = Canvas(width: c.width * 2, height: c.height * 2)
                let dx = rng.int(0..<c.width), dy = rng.int(0..<c.height)
                for y in 0..<out.height { for x in 0..<out.width { out[x, y] = c[(x + dx) % c.width, (y + dy) % c.height] } }
                c = out
            default: self.effects(&c, &rng, count: 1)
            }
        }
        return c.image!
    }
}

/// Builds input `seed` (its kind included) from the seed and the corpus alone.
func makeInput(seed: UInt64, corpus: Corpus, only: InputKind? = nil) -> (InputKind, SoakInput) {
    var rng = SoakRNG(seed: seed)
    // Weights: the decoder kinds cost milliseconds, the file kinds mostly microseconds.
    let table: [(InputKind, Int)] = [
        (.pngSynth, 6), (.pngSynthMutated, 14), (.fileCorpusMutated, 20), (.fileHugeDims, 4), (.fileRandom, 4),
        (.grayDegenerate, 10), (.graySynthetic, 22), (.grayCorpusMutated, 20),
    ]
    var kind = only ?? .fileRandom
    if only == nil {
        var roll = rng.int(0..<table.reduce(0) { $0 + $1.1 })
        for (k, w) in table {
            if roll < w { kind = k; break }
            roll -= w
        }
    }
    let corpusFiles = corpus.all
    switch kind {
    case .pngSynth: return (kind, .file(PNGWriter.random(&rng)))
    case .pngSynthMutated: return (kind, .file(Mutate.png(PNGWriter.random(&rng), &rng)))
    case .fileCorpusMutated:
        guard !corpusFiles.isEmpty else { return (kind, .file(Mutate.png(PNGWriter.random(&rng), &rng))) }
        let bytes = corpus.bytes(rng.pick(corpusFiles))
        if ImageHeader.format(of: bytes) == .png { return (kind, .file(Mutate.png(bytes, &rng))) }
        return (kind, .file(Mutate.jpeg(bytes, &rng)))
    case .fileHugeDims:
        let base = corpusFiles.isEmpty || rng.chance(0.4) ? PNGWriter.random(&rng) : corpus.bytes(rng.pick(corpusFiles))
        let sides = [0, 1, 2, 65535, 65536, 12_000, 12_001, 3333, 3334, 40_000, 0x7FFF_FFFF, 0x8000_0000, 0xFFFF_FFFF, rng.int(1...20_000)]
        var out = Mutate.declaring(base, width: rng.pick(sides), height: rng.pick(sides), fixCRC: rng.chance(0.9), &rng)
        if rng.chance(0.5) { out = Array(out.prefix(rng.int(0...out.count))) + (rng.chance(0.5) ? PNGWriter.chunk("IEND", []) : []) }
        return (kind, .file(out))
    case .fileRandom:
        let prefix: [UInt8] = rng.pick([[], PNGWriter.signature, [0xFF, 0xD8, 0xFF], PNGWriter.signature + PNGWriter.be32(13) + Array("IHDR".utf8), [0xFF, 0xD8, 0xFF, 0xC0]])
        var out = prefix + rng.bytes(rng.int(0...2048))
        if rng.chance(0.5) { out += PNGWriter.chunk("IEND", []) }
        return (kind, .file(out))
    case .grayDegenerate: return (kind, .gray(Pictures.degenerate(&rng)))
    case .graySynthetic: return (kind, .gray(Pictures.synthetic(&rng)))
    case .grayCorpusMutated: return (kind, .gray(Pictures.corpusMutated(corpus, &rng)))
    }
}
