/// Rewrites a PNG or JPEG file keeping only what is needed to show the picture, so an uploaded file cannot carry
/// a second document (HTML, a script, an archive) that a browser or another program might find in it.
///
/// - PNG: keeps `IHDR`, `PLTE`, `tRNS`, `gAMA`, `cHRM`, `sRGB`, `iCCP`, `sBIT`, `pHYs`, `IDAT` and `IEND`; drops
///   text chunks (`tEXt`, `zTXt`, `iTXt`), animation and every other chunk, and anything after `IEND`.
/// - JPEG: keeps the frame, tables, scans and APP0 JFIF, APP1 Exif, APP2 ICC profile and APP14 Adobe; drops
///   comments (`COM`), every other application segment (XMP, MPF …) and anything after the end-of-image marker.
///
/// The pixels are untouched (no re-encoding, no quality loss). Decode the result to check it is still a picture.
public enum ImageSanitizer {
    static let pngChunksKept: Set<String> = ["IHDR", "PLTE", "tRNS", "gAMA", "cHRM", "sRGB", "iCCP", "sBIT", "pHYs", "IDAT", "IEND"]

    /// The cleaned file.
    /// - Throws: ``ImageLoadError`` for bytes that are not a well-formed PNG or JPEG (truncated, no end marker).
    public static func clean(_ bytes: [UInt8]) throws(ImageLoadError) -> [UInt8] {
        switch ImageHeader.format(of: bytes) {
        case .png: return try self.cleanPNG(bytes)
        case .jpeg: return try self.cleanJPEG(bytes)
        case nil: throw ImageLoadError(.unsupportedFormat, "not a PNG or JPEG image")
        }
    }

    static func cleanPNG(_ bytes: [UInt8]) throws(ImageLoadError) -> [UInt8] {
        var output = ImageHeader.pngSignature
        output.reserveCapacity(bytes.count)
        for chunk in try PNGChunks.walk(bytes) where self.pngChunksKept.contains(chunk.type) { output += bytes[chunk.range] }
        return output
    }

    static func cleanJPEG(_ bytes: [UInt8]) throws(ImageLoadError) -> [UInt8] {
        var output: [UInt8] = [0xFF, 0xD8]
        output.reserveCapacity(bytes.count)
        var walker = JPEGSegments(bytes)
        while let segment = try walker.next() {
            guard self.keeps(segment, in: bytes) else { continue }
            output += [0xFF, segment.marker]
            if !segment.payload.isEmpty || !self.hasNoLength(segment.marker) {
                let length = segment.payload.count + 2
                output += [UInt8(length >> 8), UInt8(length & 0xFF)]
                output += bytes[segment.payload]
            }
            output += bytes[segment.scanData]
            if segment.marker == 0xD9 { return output }
        }
        throw ImageLoadError(.corrupt, "truncated JPEG file (no end-of-image marker)")
    }

    static func hasNoLength(_ marker: UInt8) -> Bool { marker == 0x01 || (0xD0...0xD9).contains(marker) }

    static func keeps(_ segment: JPEGSegments.Segment, in bytes: [UInt8]) -> Bool {
        func starts(with signature: String) -> Bool { bytes[segment.payload].starts(with: Array(signature.utf8)) }
        switch segment.marker {
        case 0xE0: return starts(with: "JFIF\0")
        case 0xE1: return starts(with: "Exif\0\0")
        case 0xE2: return starts(with: "ICC_PROFILE\0")
        case 0xEE: return starts(with: "Adobe")
        case 0xE3...0xED, 0xEF, 0xFE: return false
        default: return true
        }
    }
}
