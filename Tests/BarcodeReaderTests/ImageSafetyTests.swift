import BarcodeImage
import BarcodeReader
import Foundation
import Testing

/// Builds small PNG files byte by byte (stored deflate blocks), with any chunks, for the image-safety tests.
enum TinyPNG {
    static func crc32(_ bytes: some Sequence<UInt8>) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    static func bigEndian(_ value: UInt32) -> [UInt8] { [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)] }

    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let body = Array(type.utf8) + data
        return self.bigEndian(UInt32(data.count)) + body + self.bigEndian(self.crc32(body))
    }

    static func zlibStored(_ data: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x78, 0x01]
        var index = 0
        repeat {
            let count = min(65_535, data.count - index)
            let final: UInt8 = index + count == data.count ? 1 : 0
            out += [final, UInt8(count & 0xFF), UInt8(count >> 8), UInt8(~count & 0xFF), UInt8((~count >> 8) & 0xFF)]
            out += data[index..<(index + count)]
            index += count
        } while index < data.count
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in data {
            a = (a + UInt32(byte)) % 65_521
            b = (b + a) % 65_521
        }
        return out + self.bigEndian(b << 16 | a)
    }

    static func ihdr(width: Int, height: Int) -> [UInt8] {
        self.chunk("IHDR", self.bigEndian(UInt32(width)) + self.bigEndian(UInt32(height)) + [8, 0, 0, 0, 0])
    }

    /// An 8-bit grayscale PNG whose pixel at (x, y) is `(x * 7 + y * 13) % 256`, with `before` chunks after IHDR,
    /// `after` chunks after IDAT and `trailer` bytes after IEND.
    static func gray(width: Int, height: Int, before: [[UInt8]] = [], after: [[UInt8]] = [], trailer: [UInt8] = []) -> [UInt8] {
        var raw: [UInt8] = []
        for y in 0..<height {
            raw.append(0)
            for x in 0..<width { raw.append(UInt8((x * 7 + y * 13) % 256)) }
        }
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        return signature + self.ihdr(width: width, height: height) + before.joined() + self.chunk("IDAT", self.zlibStored(raw))
            + after.joined() + self.chunk("IEND", []) + trailer
    }

    static func pixels(width: Int, height: Int) -> [UInt8] {
        (0..<height).flatMap { y in (0..<width).map { x in UInt8((x * 7 + y * 13) % 256) } }
    }
}

/// Small JPEG files made with libjpeg (16 × 12 grayscale, quality 75): baseline and progressive.
enum TinyJPEG {
    static let baseline = Array(Data(base64Encoded: "/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDAAgGBgcGBQgHBwcJCQgKDBQNDAsLDBkSEw8UHRofHh0aHBwgJC4nICIsIxwcKDcpLDAxNDQ0Hyc5PTgyPC4zNDL/wAALCAAMABABAREA/8QAHwAAAQUBAQEBAQEAAAAAAAAAAAECAwQFBgcICQoL/8QAtRAAAgEDAwIEAwUFBAQAAAF9AQIDAAQRBRIhMUEGE1FhByJxFDKBkaEII0KxwRVS0fAkM2JyggkKFhcYGRolJicoKSo0NTY3ODk6Q0RFRkdISUpTVFVWV1hZWmNkZWZnaGlqc3R1dnd4eXqDhIWGh4iJipKTlJWWl5iZmqKjpKWmp6ipqrKztLW2t7i5usLDxMXGx8jJytLT1NXW19jZ2uHi4+Tl5ufo6erx8vP09fb3+Pn6/9oACAEBAAA/AOI8HWH+r4r22yvIfDfhq+1mdYylnbtMEeQRiRgPlTcehZsKODyRwa808HQp+74rqPitcS2nw1t4YH2R3eoRQzjaDvQK8gHI4+ZFPHp6Zr//2Q==") ?? Data())
    static let progressive = Array(Data(base64Encoded: "/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDAAgGBgcGBQgHBwcJCQgKDBQNDAsLDBkSEw8UHRofHh0aHBwgJC4nICIsIxwcKDcpLDAxNDQ0Hyc5PTgyPC4zNDL/wgALCAAMABABAREA/8QAFQABAQAAAAAAAAAAAAAAAAAABQb/2gAIAQEAAAABDt5lT//EABgQAAMBAQAAAAAAAAAAAAAAAAECBAAF/9oACAEBAAEFAo0yOJpoxuqxXm//xAAbEAACAgMBAAAAAAAAAAAAAAAAAQIRAyIxsf/aAAgBAQAGPwJE8zrSN9qxEUuSyJP0/8QAGxABAAMAAwEAAAAAAAAAAAAAAQARITFBYbH/2gAIAQEAAT8hiCWiVdHRfrkGGbrE+Sn6Cf/aAAgBAQAAABC//8QAGhABAAMBAQEAAAAAAAAAAAAAAQARIVExQf/aAAgBAQABPxDmjFhAwA9XjQMdTGfKlGOrRrEaZqznLn//2Q==") ?? Data())

    static func segment(_ marker: UInt8, _ payload: [UInt8]) -> [UInt8] {
        let length = payload.count + 2
        return [0xFF, marker, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
    }

    /// `jpeg` with `segments` inserted right after SOI and `trailer` after EOI.
    static func with(_ jpeg: [UInt8], segments: [[UInt8]], trailer: [UInt8] = []) -> [UInt8] {
        Array(jpeg.prefix(2)) + segments.joined() + jpeg.dropFirst(2) + trailer
    }

    /// `jpeg` with its frame header declaring `width` × `height`.
    static func declaring(_ jpeg: [UInt8], width: Int, height: Int) -> [UInt8] {
        var bytes = jpeg
        for index in 2..<(bytes.count - 9) where bytes[index] == 0xFF && (bytes[index + 1] == 0xC0 || bytes[index + 1] == 0xC2) {
            bytes[index + 5] = UInt8(height >> 8)
            bytes[index + 6] = UInt8(height & 0xFF)
            bytes[index + 7] = UInt8(width >> 8)
            bytes[index + 8] = UInt8(width & 0xFF)
            return bytes
        }
        return bytes
    }
}

/// Issue 9, findings 4 and 12: sizes are checked on the header before decoding, decodes are bounded, and
/// uploaded pictures are stripped of everything but the picture.
@Suite struct ImageSafetyTests {
    static func contains(_ haystack: [UInt8], _ text: String) -> Bool {
        let needle = Array(text.utf8)
        guard haystack.count >= needle.count else { return false }
        return (0...(haystack.count - needle.count)).contains { Array(haystack[$0..<($0 + needle.count)]) == needle }
    }

    @Test func headersAreReadWithoutDecoding() throws {
        #expect(try ImageHeader.read(TinyPNG.gray(width: 5, height: 3)) == ImageHeader(format: .png, width: 5, height: 3))
        #expect(try ImageHeader.read(TinyJPEG.baseline) == ImageHeader(format: .jpeg, width: 16, height: 12))
        #expect(try ImageHeader.read(TinyJPEG.progressive) == ImageHeader(format: .jpeg, width: 16, height: 12))
        #expect(ImageHeader.Format.jpeg.fileExtension == "jpg" && ImageHeader.Format.png.fileExtension == "png")
        #expect(throws: ImageLoadError(.unsupportedFormat, "")) { _ = try ImageHeader.read(Array("GIF89a".utf8)) }
        #expect(throws: ImageLoadError(.corrupt, "")) { _ = try ImageHeader.read(Array(TinyPNG.gray(width: 5, height: 3).prefix(20))) }
        #expect(throws: ImageLoadError(.corrupt, "")) { _ = try ImageHeader.read(TinyPNG.gray(width: 0, height: 3)) }
        #expect(throws: ImageLoadError(.corrupt, "")) { _ = try ImageHeader.read(TinyJPEG.declaring(TinyJPEG.baseline, width: 16, height: 0)) }
        #expect(throws: ImageLoadError(.corrupt, "")) { _ = try ImageHeader.read([0xFF, 0xD8, 0xFF, 0xD9]) }
        #expect(throws: ImageLoadError(.corrupt, "")) { _ = try ImageHeader.read(Array(TinyJPEG.baseline.prefix(30))) }
        #expect(throws: ImageLoadError(.corrupt, "")) { _ = try ImageHeader.read([0xFF, 0xD8, 0xFF, 0xC0, 0x00, 0x04, 0x08, 0x00]) }
    }

    @Test func decompressionBombsAreRefusedBeforeDecoding() throws {
        // A small PNG declaring 16384 × 16384 (the finding): refused on the header, at once.
        let bomb = TinyPNG.gray(width: 16, height: 16).replacing(TinyPNG.ihdr(width: 16, height: 16), with: TinyPNG.ihdr(width: 16_384, height: 16_384))
        #expect(try ImageHeader.read(bomb).width == 16_384)
        // Refused as too large from the header (a decode would have failed differently, or taken gigabytes).
        #expect(throws: ImageLoadError(.tooLarge, "")) { _ = try ImageLoader.decode(bomb) }
        do {
            _ = try ImageLoader.decode(bomb)
        } catch {
            #expect(error.message.contains("12000"), "\(error.message)")
        }
        // Each side within 12,000 but 49 megapixels in all: above the 40-megapixel limit.
        let wide = TinyPNG.gray(width: 16, height: 16).replacing(TinyPNG.ihdr(width: 16, height: 16), with: TinyPNG.ihdr(width: 7000, height: 7000))
        do {
            _ = try ImageLoader.decode(wide)
            Issue.record("a 49-megapixel picture was decoded")
        } catch {
            #expect(error.code == .tooLarge && error.message.contains("40 megapixels"), "\(error.message)")
        }
        // The same through JPEG's frame header, and with a tighter limit.
        let jpegBomb = TinyJPEG.declaring(TinyJPEG.baseline, width: 60_000, height: 60_000)
        #expect(throws: ImageLoadError(.tooLarge, "")) { _ = try ImageLoader.decode(jpegBomb) }
        #expect(throws: ImageLoadError(.tooLarge, "")) { _ = try ImageLoader.decode(TinyJPEG.progressive, limits: ImageLimits(maxSide: 10, maxPixels: 100)) }
        #expect(throws: ImageLoadError(.tooLarge, "")) { _ = try ImageLoader.decode(TinyPNG.gray(width: 20, height: 20), limits: ImageLimits(maxSide: 100, maxPixels: 399)) }
        // Within the limits, both decode.
        #expect(try ImageLoader.decode(TinyPNG.gray(width: 20, height: 20), limits: ImageLimits(maxSide: 20, maxPixels: 400)).pixels == TinyPNG.pixels(width: 20, height: 20))
        #expect(try ImageLoader.decode(TinyJPEG.baseline).width == 16)
    }

    /// Found by the soak (`barcode-soak --input-seed 0x99452d40b1f601cd`, a 741-byte mutated PNG): libpng allocates a
    /// chunk's declared length before reading it, so a file of a hundred bytes declaring a 1.8 GB text chunk took
    /// 1.8 GB of memory and seconds of CPU before libpng found it short. The loader walks the chunks first.
    @Test func aChunkDeclaringMoreThanTheFileHoldsIsRefusedBeforeLibpng() throws {
        for type in ["tEXt", "zTXt", "iCCP", "prVt"] {
            var lie = TinyPNG.chunk(type, Array("abc\u{0}\u{0}xyz".utf8))
            lie.replaceSubrange(0..<4, with: TinyPNG.bigEndian(0x6D3A_0000))
            let bomb = TinyPNG.gray(width: 10, height: 10, before: [lie])
            do {
                _ = try ImageLoader.decode(bomb)
                Issue.record("\(type): a PNG whose chunk runs past its end was decoded")
            } catch {
                #expect(error.code == .corrupt && error.message.contains("a chunk runs past the end"), "\(type): \(error.message)")
            }
        }
        // Cut anywhere, a PNG is refused; whole, and with bytes after IEND, it decodes.
        let png = TinyPNG.gray(width: 10, height: 10)
        for cut in [30, png.count - 13, png.count - 12] {
            #expect(throws: ImageLoadError(.corrupt, "")) { _ = try ImageLoader.decode(Array(png.prefix(cut))) }
        }
        #expect(try ImageLoader.decode(png).pixels == TinyPNG.pixels(width: 10, height: 10))
        #expect(try ImageLoader.decode(TinyPNG.gray(width: 10, height: 10, trailer: [1, 2, 3])).width == 10)
    }

    @Test func pngsKeepOnlyThePicture() throws {
        let script = TinyPNG.chunk("tEXt", Array("Comment\0<script>alert(1)</script>".utf8))
        let unknown = TinyPNG.chunk("prVt", Array("<html>private</html>".utf8))
        let gamma = TinyPNG.chunk("gAMA", TinyPNG.bigEndian(45_455))
        let zip = TinyPNG.chunk("zTXt", Array("Raw\0\0PK\u{3}\u{4}".utf8))
        let dirty = TinyPNG.gray(width: 9, height: 7, before: [gamma, script, unknown], after: [zip], trailer: Array("<html><script>x</script>".utf8))
        let clean = try ImageSanitizer.clean(dirty)
        #expect(clean == TinyPNG.gray(width: 9, height: 7, before: [gamma]))
        for text in ["script", "html", "prVt", "tEXt", "zTXt", "PK"] { #expect(!Self.contains(clean, text), "\(text)") }
        #expect(try ImageLoader.decode(clean).pixels == TinyPNG.pixels(width: 9, height: 7))
        // Cleaning is idempotent, and a clean file is left as it is.
        #expect(try ImageSanitizer.clean(clean) == clean)
    }

    @Test func jpegsKeepOnlyThePicture() throws {
        for original in [TinyJPEG.baseline, TinyJPEG.progressive] {
            let exif = TinyJPEG.segment(0xE1, Array("Exif\0\0MM\0*".utf8))
            let xmp = TinyJPEG.segment(0xE1, Array("http://ns.adobe.com/xap/1.0/\0<x:xmpmeta><script>".utf8))
            let comment = TinyJPEG.segment(0xFE, Array("<script>alert(1)</script>".utf8))
            let photoshop = TinyJPEG.segment(0xED, Array("Photoshop 3.0\0<html>".utf8))
            let mpf = TinyJPEG.segment(0xE2, Array("MPF\0<html>".utf8))
            let icc = TinyJPEG.segment(0xE2, Array("ICC_PROFILE\0\u{1}\u{1}".utf8))
            let adobe = TinyJPEG.segment(0xEE, Array("Adobe\0d\0\0\0\0\u{1}".utf8))
            let dirty = TinyJPEG.with(original, segments: [exif, xmp, comment, photoshop, mpf, icc, adobe], trailer: Array("PK\u{3}\u{4}<html>".utf8))
            let clean = try ImageSanitizer.clean(dirty)
            for text in ["script", "html", "xmpmeta", "PK", "MPF", "Photoshop"] { #expect(!Self.contains(clean, text), "\(text)") }
            #expect(Self.contains(clean, "Exif") && Self.contains(clean, "ICC_PROFILE") && Self.contains(clean, "Adobe") && Self.contains(clean, "JFIF"))
            #expect(Array(clean.suffix(2)) == [0xFF, 0xD9])
            #expect(try ImageLoader.decode(clean).pixels == ImageLoader.decode(original).pixels)
            // A file with nothing to drop comes out byte for byte.
            #expect(try ImageSanitizer.clean(original) == original)
        }
    }

    @Test func malformedFilesAreRefusedByTheCleaner() {
        let png = TinyPNG.gray(width: 4, height: 4)
        #expect(throws: ImageLoadError(.unsupportedFormat, "")) { _ = try ImageSanitizer.clean(Array("<html>".utf8)) }
        #expect(throws: ImageLoadError(.corrupt, "")) { _ = try ImageSanitizer.clean(Array(png.dropLast(12))) }  // no IEND
        #expect(throws: ImageLoadError(.corrupt, "")) { _ = try ImageSanitizer.clean(Array(png.dropLast(14))) }  // a chunk cut short
        let noHeader = Array(png.prefix(8)) + TinyPNG.chunk("gAMA", [0, 0, 0, 1]) + png.dropFirst(8)
        #expect(throws: ImageLoadError(.corrupt, "")) { _ = try ImageSanitizer.clean(noHeader) }
        var badType = png
        badType[12] = 0x31  // "1HDR"
        #expect(throws: ImageLoadError(.corrupt, "")) { _ = try ImageSanitizer.clean(badType) }
        #expect(throws: ImageLoadError(.corrupt, "")) { _ = try ImageSanitizer.clean(Array(TinyJPEG.baseline.dropLast(2))) }  // no EOI
        #expect(throws: ImageLoadError(.corrupt, "")) { _ = try ImageSanitizer.clean(Array(TinyJPEG.baseline.prefix(40))) }
        #expect(throws: ImageLoadError(.corrupt, "")) { _ = try ImageSanitizer.clean([0xFF, 0xD8, 0xFF, 0xD8, 0xFF, 0xD9]) }
        #expect(throws: ImageLoadError(.corrupt, "")) { _ = try ImageSanitizer.clean([0xFF, 0xD8, 0xFF, 0xE0, 0x00]) }
        #expect(throws: ImageLoadError(.corrupt, "")) { _ = try ImageSanitizer.clean([0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x09, 0x00]) }
        #expect(throws: ImageLoadError(.corrupt, "")) { _ = try ImageSanitizer.clean([0xFF, 0xD8, 0xFF, 0xFF]) }
        #expect(throws: ImageLoadError(.corrupt, "")) { _ = try ImageSanitizer.clean([0xFF, 0xD8, 0xFF, 0xC4, 0x00, 0x02, 0x00]) }
        // Restart and padding markers outside a scan are kept as they are.
        #expect((try? ImageSanitizer.clean([0xFF, 0xD8, 0xFF, 0xD0, 0xFF, 0x01, 0xFF, 0xFF, 0xD9])) == [0xFF, 0xD8, 0xFF, 0xD0, 0xFF, 0x01, 0xFF, 0xD9])
    }

    @Test func theGateBoundsConcurrentDecodes() async throws {
        let gate = ImageDecodeGate(width: 2)
        #expect(gate.width == 2 && ImageDecodeGate(width: 0).width == 1)
        let results = await withTaskGroup(of: Int.self) { group in
            for index in 0..<6 {
                group.addTask {
                    await gate.run {
                        usleep(40_000)
                        return index
                    }
                }
            }
            return await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(results.sorted() == Array(0..<6))
        #expect(gate.peak == 2)
        // Through the loader: a decode runs behind the gate; a bomb is refused without entering it.
        let fresh = ImageDecodeGate(width: 1)
        let bomb = TinyJPEG.declaring(TinyJPEG.baseline, width: 50_000, height: 50_000)
        await #expect(throws: ImageLoadError(.tooLarge, "")) { _ = try await ImageLoader.decode(bomb, gate: fresh) }
        #expect(fresh.peak == 0)
        #expect(try await ImageLoader.decode(TinyJPEG.baseline, gate: fresh).height == 12)
        #expect(fresh.peak == 1)
        await #expect(throws: ImageLoadError(.corrupt, "")) { _ = try await ImageLoader.decode(Array(TinyJPEG.baseline.dropLast(60)), gate: fresh) }
    }
}
