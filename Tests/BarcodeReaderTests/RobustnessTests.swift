import BarcodeImage
import BarcodeReader
import Foundation
import Testing

/// Seeded random and corrupt inputs must never crash the reader or the image loader.
///
/// This is the project's fuzzer stand-in: a fixed-seed generator so failures reproduce. It runs a few
/// hundred decodes per `swift test` (several seconds in debug).
@Suite struct RobustnessTests {
    struct SplitMix: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            self.state &+= 0x9E37_79B9_7F4A_7C15
            var z = self.state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        mutating func int(_ bound: Int) -> Int { Int(self.next() % UInt64(bound)) }
    }

    @Test(arguments: [1, 2, 3, 4])
    func randomImagesDoNotCrash(seed: UInt64) {
        var rng = SplitMix(state: seed)
        let reader = BarcodeReader()
        for _ in 0..<25 {
            let w = 1 + rng.int(320)
            let h = 1 + rng.int(240)
            var pixels = [UInt8](repeating: 0, count: w * h)
            switch rng.int(4) {
            case 0:  // white noise
                for i in pixels.indices { pixels[i] = UInt8(truncatingIfNeeded: rng.next()) }
            case 1:  // random vertical bars: looks like a 1-D code to the row scanner
                var x = 0
                var dark = true
                while x < w {
                    let run = 1 + rng.int(6)
                    for y in 0..<h { for k in x..<min(w, x + run) { pixels[y * w + k] = dark ? 10 : 240 } }
                    x += run
                    dark.toggle()
                }
            case 2:  // random blocks: finder-pattern-like structures for the QR detector
                let cell = 1 + rng.int(6)
                for y in 0..<h { for x in 0..<w { pixels[y * w + x] = (x / cell * 31 + y / cell * 17) % 3 == 0 ? 0 : 255 } }
                for _ in 0..<(w * h / 8) { pixels[rng.int(w * h)] = UInt8(truncatingIfNeeded: rng.next()) }
            default:  // flat
                let v = UInt8(truncatingIfNeeded: rng.next())
                for i in pixels.indices { pixels[i] = v }
            }
            guard let image = GrayscaleImage(width: w, height: h, pixels: pixels) else { continue }
            _ = reader.decode(image)
        }
    }

    @Test func renderedSymbolsWithNoiseDoNotCrashAndMostlyDecode() {
        var rng = SplitMix(state: 99)
        let clean = TestSymbols.render(TestSymbols.ean13("5901234123457"), moduleWidth: 3, height: 60)
        var decoded = 0
        for _ in 0..<20 {
            var pixels = clean.pixels
            for i in pixels.indices {
                let noise = rng.int(61) - 30
                pixels[i] = UInt8(clamping: Int(pixels[i]) + noise)
            }
            guard let noisy = GrayscaleImage(width: clean.width, height: clean.height, pixels: pixels) else { continue }
            let found = BarcodeReader().decode(noisy)
            #expect(found.allSatisfy { $0.text == "5901234123457" }, "a wrong read under noise")
            if !found.isEmpty { decoded += 1 }
        }
        #expect(decoded >= 18)
    }

    @Test func corruptImageFilesThrowInsteadOfCrashing() throws {
        var rng = SplitMix(state: 7)
        let pngs = try [TestImageFiles.png(), TestImageFiles.jpeg()]
        for original in pngs {
            // Truncations at many lengths.
            for cut in stride(from: 0, to: original.count, by: max(1, original.count / 40)) {
                let truncated = Array(original.prefix(cut))
                #expect(throws: ImageLoadError.self) { _ = try ImageLoader.decode(truncated) }
            }
            // Random byte flips after the signature: must either decode or throw, never crash.
            for _ in 0..<60 {
                var damaged = original
                for _ in 0..<(1 + rng.int(8)) {
                    let i = 8 + rng.int(damaged.count - 8)
                    damaged[i] = UInt8(truncatingIfNeeded: rng.next())
                }
                _ = try? ImageLoader.decode(damaged)
            }
        }
        #expect(throws: ImageLoadError(.unsupportedFormat, "")) { _ = try ImageLoader.decode([1, 2, 3]) }
        #expect(throws: ImageLoadError(.unreadable, "")) { _ = try ImageLoader.load(path: "/nonexistent/file.png") }
    }
}

/// Small image files from the corpus (or nothing when it is absent).
enum TestImageFiles {
    struct Missing: Error {}

    static func file(_ relative: String) throws -> [UInt8] {
        guard let root = Corpus.root,
            let data = FileManager.default.contents(atPath: root.appendingPathComponent(relative).path)
        else { throw Missing() }
        return Array(data)
    }

    static func png() throws -> [UInt8] { try file("ean8-1/1.png") }

    static func jpeg() throws -> [UInt8] {
        let root = Corpus.root?.deletingLastPathComponent().appendingPathComponent("synthetic/ean13-synth")
        let names = root.flatMap { try? FileManager.default.contentsOfDirectory(atPath: $0.path) } ?? []
        guard let root, let name = names.sorted().first(where: { $0.hasSuffix(".jpg") }),
            let data = FileManager.default.contents(atPath: root.appendingPathComponent(name).path)
        else { throw Missing() }
        return Array(data)
    }
}

@Suite(.enabled(if: Corpus.root != nil, "barcode corpus not found"))
struct ImageLoaderTests {
    @Test func loadsPNGAndJPEG() throws {
        let png = try ImageLoader.decode(TestImageFiles.png())
        #expect(png.width > 0 && png.height > 0)
        #expect(png.pixels.count == png.width * png.height)
        let jpeg = try ImageLoader.decode(TestImageFiles.jpeg())
        #expect(jpeg.pixels.count == jpeg.width * jpeg.height)
    }

    @Test func decodesAQRCodeFromAFile() throws {
        let root = try #require(Corpus.root)
        let image = try ImageLoader.load(path: root.appendingPathComponent("qrcode-3/01.png").path)
        let found = BarcodeReader().decode(image)
        #expect(found.first?.format == .qrCode)
        #expect(found.first?.text.hasPrefix("http://arnaud.sahuguet.com/graffiti/test.php") == true)
        #expect(found.first?.rawBytes?.isEmpty == false)
        #expect(found.first?.corners.count == 4)
    }
}
