import BarcodeImage
import BarcodeReader
import Foundation

/// SplitMix64: small, fast and fully determined by its seed, so every input can be rebuilt from its seed alone.
struct SoakRNG: RandomNumberGenerator {
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
    mutating func int(_ range: Range<Int>) -> Int { Int.random(in: range, using: &self) }
    mutating func chance(_ p: Double) -> Bool { Double.random(in: 0..<1, using: &self) < p }
    mutating func byte() -> UInt8 { UInt8.random(in: 0...255, using: &self) }
    mutating func bytes(_ count: Int) -> [UInt8] { (0..<count).map { _ in self.byte() } }
    mutating func pick<T>(_ items: [T]) -> T { items[self.int(0..<items.count)] }
}

/// The seed of input `iteration` of a run started with `runSeed`.
func inputSeed(run runSeed: UInt64, iteration: Int) -> UInt64 {
    var rng = SoakRNG(seed: runSeed ^ (UInt64(iteration) &* 0xD1B5_4A32_D192_ED03))
    return rng.next()
}

/// What one input exercises.
enum InputKind: String, CaseIterable {
    /// Image loader (and sanitizer): a PNG drawn here (every colour type, bit depth, interlace), intact.
    case pngSynth = "png-synth"
    /// Image loader: a drawn PNG with its chunks or bytes mutated (CRCs mostly fixed up, so libpng reads on).
    case pngSynthMutated = "png-synth-mutated"
    /// Image loader: a corpus PNG or JPEG with mutated bytes, segments or chunks.
    case fileCorpusMutated = "file-corpus-mutated"
    /// Image loader: PNG/JPEG headers declaring huge, zero or boundary sizes over small bodies.
    case fileHugeDims = "file-huge-dims"
    /// Image loader: random bytes, with or without a PNG/JPEG signature.
    case fileRandom = "file-random"
    /// Decoder: degenerate sizes (1×1, 1×N, very thin) and contents.
    case grayDegenerate = "gray-degenerate"
    /// Decoder: noise, textures, stripes, random bars, QR- and Data Matrix-like module grids.
    case graySynthetic = "gray-synthetic"
    /// Decoder: real corpus symbols (loaded at run time) cropped, scaled, sliced, flipped, corrupted.
    case grayCorpusMutated = "gray-corpus-mutated"

    var isFile: Bool { !self.rawValue.hasPrefix("gray") }
}

/// One generated input: file bytes for the loader or a picture for the decoder.
enum SoakInput {
    case file([UInt8])
    case gray(GrayscaleImage)
}

/// The corpus files the mutations start from, read at run time (never copied into the repository).
final class Corpus {
    let pngs: [String]
    let jpegs: [String]
    private var bytesCache: [String: [UInt8]] = [:]
    private var imageCache: [String: GrayscaleImage] = [:]
    private var imageOrder: [String] = []

    init(root: String?) {
        var pngs: [String] = [], jpegs: [String] = []
        if let root, let walker = FileManager.default.enumerator(atPath: root) {
            for case let path as String in walker {
                let lower = path.lowercased()
                if lower.hasSuffix(".png") { pngs.append(root + "/" + path) }
                if lower.hasSuffix(".jpg") || lower.hasSuffix(".jpeg") { jpegs.append(root + "/" + path) }
            }
        }
        self.pngs = pngs.sorted()
        self.jpegs = jpegs.sorted()
    }

    var isEmpty: Bool { self.pngs.isEmpty && self.jpegs.isEmpty }
    var all: [String] { self.pngs + self.jpegs }

    func bytes(_ path: String) -> [UInt8] {
        if let cached = self.bytesCache[path] { return cached }
        let bytes = (FileManager.default.contents(atPath: path)).map { Array($0) } ?? []
        if self.bytesCache.count > 256 { self.bytesCache.removeAll() }
        self.bytesCache[path] = bytes
        return bytes
    }

    func image(_ path: String) -> GrayscaleImage? {
        if let cached = self.imageCache[path] { return cached }
        guard let image = try? ImageLoader.decode(self.bytes(path)) else { return nil }
        self.imageCache[path] = image
        self.imageOrder.append(path)
        if self.imageOrder.count > 48 { self.imageCache[self.imageOrder.removeFirst()] = nil }
        return image
    }
}

// MARK: PNG writing (stored or fixed-Huffman deflate, so zlib's inflate paths are both exercised)

enum PNGWriter {
    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    static let crcTable: [UInt32] = (0..<256).map { n in
        var c = UInt32(n)
        for _ in 0..<8 { c = c & 1 == 1 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }

    static func crc32(_ bytes: ArraySlice<UInt8>) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for b in bytes { crc = self.crcTable[Int((crc ^ UInt32(b)) & 0xFF)] ^ (crc >> 8) }
        return ~crc
    }

    static func be32(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }

    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let body = Array(type.utf8) + data
        return self.be32(UInt32(data.count)) + body + self.be32(self.crc32(body[...]))
    }

    static func adler32(_ data: [UInt8]) -> UInt32 {
        var a: UInt32 = 1, b: UInt32 = 0
        for d in data {
            a = (a + UInt32(d)) % 65521
            b = (b + a) % 65521
        }
        return b << 16 | a
    }

    struct BitWriter {
        var out: [UInt8] = []
        var acc: UInt32 = 0
        var n: UInt32 = 0
        mutating func put(_ value: UInt32, _ count: UInt32) {  // LSB first
            self.acc |= value << self.n
            self.n += count
            while self.n >= 8 {
                self.out.append(UInt8(self.acc & 0xFF))
                self.acc >>= 8
                self.n -= 8
            }
        }
        mutating func putReversed(_ code: UInt32, _ count: UInt32) {  // Huffman codes go MSB first
            var r: UInt32 = 0
            for i in 0..<count { r |= ((code >> i) & 1) << (count - 1 - i) }
            self.put(r, count)
        }
        mutating func flush() -> [UInt8] {
            if self.n > 0 { self.out.append(UInt8(self.acc & 0xFF)) }
            return self.out
        }
    }

    static func zlib(_ data: [UInt8], huffman: Bool) -> [UInt8] {
        var out: [UInt8] = [0x78, 0x01]
        if huffman {
            var w = BitWriter()
            w.put(1, 1)  // final
            w.put(1, 2)  // fixed Huffman
            for d in data {
                let v = UInt32(d)
                if v < 144 { w.putReversed(0x30 + v, 8) } else { w.putReversed(0x190 + (v - 144), 9) }
            }
            w.putReversed(0, 7)  // end of block (256)
            out += w.flush()
        } else {
            var index = 0
            repeat {
                let n = min(65535, data.count - index)
                let final: UInt8 = index + n >= data.count ? 1 : 0
                out += [final, UInt8(n & 0xFF), UInt8(n >> 8), UInt8(~n & 0xFF), UInt8((~n >> 8) & 0xFF)]
                out += data[index..<(index + n)]
                index += n
            } while index < data.count
        }
        return out + self.be32(self.adler32(data))
    }

    /// A valid PNG of random colour type, bit depth and interlace, with optional ancillary chunks.
    static func random(_ rng: inout SoakRNG) -> [UInt8] {
        let types: [(UInt8, [UInt8], Int)] = [(0, [1, 2, 4, 8, 16], 1), (2, [8, 16], 3), (3, [1, 2, 4, 8], 1), (4, [8, 16], 2), (6, [8, 16], 4)]
        let (colorType, depths, channels) = rng.pick(types)
        let depth = rng.pick(depths)
        let interlace: UInt8 = rng.chance(0.3) ? 1 : 0
        let width = rng.chance(0.2) ? rng.int(1...8) : rng.int(1...400)
        let height = rng.chance(0.2) ? rng.int(1...8) : rng.int(1...400)
        let bpp = channels * Int(depth)
        func rowBytes(_ w: Int) -> Int { (w * bpp + 7) / 8 }
        let pattern = rng.int(0..<4)
        var raw: [UInt8] = []
        func rows(_ w: Int, _ h: Int, _ rng: inout SoakRNG) {
            guard w > 0, h > 0 else { return }
            for y in 0..<h {
                raw.append(rng.chance(0.7) ? 0 : UInt8(rng.int(0...4)))
                let n = rowBytes(w)
                for x in 0..<n {
                    switch pattern {
                    case 0: raw.append(rng.byte())
                    case 1: raw.append((x / max(1, channels)) % 7 < 3 ? 0 : 255)
                    case 2: raw.append(UInt8(truncatingIfNeeded: x &* 3 &+ y))
                    default: raw.append(y % 5 < 2 ? 0x10 : 0xF0)
                    }
                }
            }
        }
        if interlace == 1 {
            let passes = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]
            for (xs, ys, dx, dy) in passes {
                let pw = width > xs ? (width - xs + dx - 1) / dx : 0
                let ph = height > ys ? (height - ys + dy - 1) / dy : 0
                rows(pw, ph, &rng)
            }
        } else {
            rows(width, height, &rng)
        }
        var out = self.signature
        out += self.chunk("IHDR", self.be32(UInt32(width)) + self.be32(UInt32(height)) + [depth, colorType, 0, 0, interlace])
        if rng.chance(0.3) { out += self.chunk("gAMA", self.be32(UInt32(rng.pick([45455, 100000, 0, 1])))) }
        if rng.chance(0.2) { out += self.chunk("sRGB", [UInt8(rng.int(0...3))]) }
        if rng.chance(0.2) { out += self.chunk("tEXt", Array("Comment\0".utf8) + rng.bytes(rng.int(0...40))) }
        if rng.chance(0.1) { out += self.chunk("prVt", rng.bytes(rng.int(0...40))) }
        if colorType == 3 || (colorType & 2 != 0 && rng.chance(0.2)) {
            let entries = colorType == 3 && rng.chance(0.8) ? (1 << min(8, Int(depth))) : rng.int(1...256)
            out += self.chunk("PLTE", rng.bytes(entries * 3))
        }
        if rng.chance(0.3) {
            let length = colorType == 0 ? 2 : colorType == 2 ? 6 : colorType == 3 ? rng.int(1...256) : rng.int(0...8)
            out += self.chunk("tRNS", rng.bytes(length))
        }
        if rng.chance(0.1) { out += self.chunk("bKGD", rng.bytes(rng.pick([1, 2, 6]))) }
        let z = self.zlib(raw, huffman: rng.chance(0.5))
        var index = 0
        repeat {
            let n = rng.chance(0.7) ? z.count - index : min(z.count - index, rng.int(1...max(1, z.count)))
            out += self.chunk("IDAT", Array(z[index..<(index + n)]))
            index += n
        } while index < z.count
        if rng.chance(0.1) { out += self.chunk("tEXt", Array("After\0".utf8) + rng.bytes(8)) }
        out += self.chunk("IEND", [])
        return out
    }
}

// MARK: byte mutations

enum Mutate {
    static let interesting: [[UInt8]] = [
        [0], [0xFF], [0x7F], [0x80], [0x01], [0, 0], [0xFF, 0xFF], [0x7F, 0xFF], [0x80, 0x00], [0, 0, 0, 0],
        [0xFF, 0xFF, 0xFF, 0xFF], [0x7F, 0xFF, 0xFF, 0xFF], [0x80, 0, 0, 0], [0, 0, 0x2E, 0xE0], [0, 0, 0x2E, 0xE1],
    ]

    /// Generic byte-level mutations, `count` of them.
    static func bytes(_ data: inout [UInt8], _ rng: inout SoakRNG, count: Int, protectPrefix: Int = 0) {
        for _ in 0..<count {
            guard data.count > protectPrefix else {
                data += rng.bytes(rng.int(1...16))
                continue
            }
            let at = rng.int(protectPrefix..<data.count)
            switch rng.int(0..<10) {
            case 0, 1, 2: data[at] ^= 1 << UInt8(rng.int(0...7))
            case 3: data[at] = rng.byte()
            case 4:
                let value = rng.pick(self.interesting)
                for (k, b) in value.enumerated() where at + k < data.count { data[at + k] = b }
            case 5: data.insert(contentsOf: rng.bytes(rng.int(1...32)), at: at)
            case 6: data.removeSubrange(at..<min(data.count, at + rng.int(1...64)))
            case 7:
                let end = min(data.count, at + rng.int(1...256))
                data.insert(contentsOf: Array(data[at..<end]), at: rng.int(protectPrefix...data.count))
            case 8: data.removeSubrange(max(protectPrefix, at)..<data.count)  // truncation
            default:
                let other = rng.int(protectPrefix..<data.count)
                data.swapAt(at, other)
            }
        }
    }

    struct Chunk {
        var type: [UInt8]
        var data: [UInt8]
    }

    static func pngChunks(_ bytes: [UInt8]) -> [Chunk]? {
        guard bytes.starts(with: PNGWriter.signature) else { return nil }
        var chunks: [Chunk] = []
        var i = 8
        while i + 12 <= bytes.count {
            let length = Int(bytes[i]) << 24 | Int(bytes[i + 1]) << 16 | Int(bytes[i + 2]) << 8 | Int(bytes[i + 3])
            guard i + 12 + length <= bytes.count else { return nil }
            chunks.append(Chunk(type: Array(bytes[(i + 4)..<(i + 8)]), data: Array(bytes[(i + 8)..<(i + 8 + length)])))
            i += 12 + length
        }
        return chunks
    }

    static func pngJoin(_ chunks: [Chunk], fixCRC: Bool, _ rng: inout SoakRNG) -> [UInt8] {
        var out = PNGWriter.signature
        for chunk in chunks {
            let body = chunk.type + chunk.data
            out += PNGWriter.be32(UInt32(chunk.data.count)) + body
            let crc = PNGWriter.crc32(body[...])
            out += PNGWriter.be32(fixCRC ? crc : (rng.chance(0.5) ? crc ^ 1 : crc))
        }
        return out
    }

    /// Chunk-aware PNG mutation: the chunk structure survives (lengths and, mostly, CRCs are rewritten) so that
    /// libpng reads into the mutated data instead of stopping at the first checksum.
    static func png(_ bytes: [UInt8], _ rng: inout SoakRNG) -> [UInt8] {
        guard var chunks = self.pngChunks(bytes), !chunks.isEmpty else {
            var copy = bytes
            self.bytes(&copy, &rng, count: rng.int(1...8), protectPrefix: 8)
            return copy
        }
        for _ in 0..<(rng.chance(0.5) ? 1 : rng.int(2...4)) {
            guard !chunks.isEmpty else { break }  // every chunk removed by an earlier mutation
            let k = rng.int(0..<chunks.count)
            switch rng.int(0..<9) {
            case 0, 1, 2, 3:
                // Mutate the data of one chunk (IHDR and IDAT most interesting).
                let target = rng.chance(0.5) ? (chunks.firstIndex { $0.type == Array("IDAT".utf8) } ?? k) : rng.chance(0.3) ? 0 : k
                self.bytes(&chunks[target].data, &rng, count: rng.int(1...6))
            case 4: chunks.remove(at: k)
            case 5: chunks.insert(chunks[k], at: rng.int(0...chunks.count))
            case 6: chunks.swapAt(k, rng.int(0..<chunks.count))
            case 7: chunks.insert(Chunk(type: Array(rng.pick(["IDAT", "PLTE", "tRNS", "IHDR", "IEND", "ABCD", "acTL", "fcTL", "iCCP", "zTXt", "sBIT"]).utf8), data: rng.bytes(rng.int(0...40))), at: rng.int(0...chunks.count))
            default: chunks[k].type[rng.int(0..<4)] ^= 0x20  // flip a chunk's critical/ancillary bit
            }
        }
        var out = self.pngJoin(chunks, fixCRC: rng.chance(0.85), &rng)
        if rng.chance(0.2) { self.bytes(&out, &rng, count: rng.int(1...3), protectPrefix: 8) }
        return out
    }

    /// Marker-aware JPEG mutation: bytes right after markers (headers, tables) are hit more often than scan data.
    static func jpeg(_ bytes: [UInt8], _ rng: inout SoakRNG) -> [UInt8] {
        var out = bytes
        var markers: [Int] = []
        var i = 2
        while i + 1 < out.count && markers.count < 64 {
            if out[i] == 0xFF, out[i + 1] != 0, out[i + 1] != 0xFF, !(0xD0...0xD7).contains(out[i + 1]) { markers.append(i) }
            i += 1
        }
        for _ in 0..<rng.int(1...6) {
            guard out.count > 4 else { break }
            switch rng.int(0..<6) {
            case 0, 1, 2:
                if let m = markers.isEmpty ? nil : rng.pick(markers), m + 4 < out.count {
                    let at = min(out.count - 1, m + 2 + rng.int(0...24))
                    if rng.chance(0.5) { out[at] ^= 1 << UInt8(rng.int(0...7)) } else { out[at] = rng.pick([0, 0xFF, 0x7F, 0x80, 1, 2, 3, 4, 0x10, 0x11, 0x22, rng.byte()]) }
                }
            case 3:
                // A SOF's size, a DHT's counts or an SOS's components replaced by extremes.
                if let m = markers.isEmpty ? nil : rng.pick(markers), m + 9 < out.count {
                    let value = rng.pick(self.interesting)
                    for (k, b) in value.enumerated() where m + 5 + k < out.count { out[m + 5 + k] = b }
                }
            case 4:
                // Insert a random marker segment.
                let marker = rng.pick([0xC0, 0xC2, 0xC4, 0xDB, 0xDA, 0xDD, 0xD9, 0xD0, 0xE0, 0xE1, 0xFE, 0xC1, 0xC9, 0xF7]) as UInt8
                let payload = rng.bytes(rng.int(0...20))
                let segment: [UInt8] = [0xFF, marker, UInt8((payload.count + 2) >> 8), UInt8((payload.count + 2) & 0xFF)] + payload
                out.insert(contentsOf: segment, at: rng.int(2...out.count))
            default: self.bytes(&out, &rng, count: 1, protectPrefix: 3)
            }
        }
        return out
    }

    /// A copy of `bytes` declaring `width × height` (PNG IHDR with its CRC fixed, or every JPEG SOF).
    static func declaring(_ bytes: [UInt8], width: Int, height: Int, fixCRC: Bool, _ rng: inout SoakRNG) -> [UInt8] {
        if var chunks = self.pngChunks(bytes), !chunks.isEmpty, chunks[0].data.count >= 8 {
            let w = PNGWriter.be32(UInt32(truncatingIfNeeded: width)), h = PNGWriter.be32(UInt32(truncatingIfNeeded: height))
            chunks[0].data.replaceSubrange(0..<8, with: w + h)
            return self.pngJoin(chunks, fixCRC: fixCRC, &rng)
        }
        var out = bytes
        var i = 2
        while i + 9 < out.count {
            if out[i] == 0xFF, (0xC0...0xCF).contains(out[i + 1]), ![0xC4, 0xC8, 0xCC].contains(out[i + 1]) {
                out[i + 5] = UInt8((height >> 8) & 0xFF); out[i + 6] = UInt8(height & 0xFF)
                out[i + 7] = UInt8((width >> 8) & 0xFF); out[i + 8] = UInt8(width & 0xFF)
            }
            i += 1
        }
        return out
    }
}
