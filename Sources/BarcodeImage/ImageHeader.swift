/// The size an image file declares, read from its header without decoding any pixel.
///
/// Checking this first keeps a small file that declares an enormous picture (a "decompression bomb") from being
/// given memory: a 32 KB PNG may claim 16384 × 16384 pixels, which is a gigabyte once decoded.
public struct ImageHeader: Sendable, Hashable {
    /// The two formats the decoders read.
    public enum Format: String, Sendable, Hashable {
        case png, jpeg

        /// The usual file extension (`png`, `jpg`).
        public var fileExtension: String { self == .png ? "png" : "jpg" }
    }

    /// The format, from the file's signature.
    public var format: Format
    /// Declared width in pixels.
    public var width: Int
    /// Declared height in pixels.
    public var height: Int

    /// Creates a header.
    public init(format: Format, width: Int, height: Int) {
        self.format = format
        self.width = width
        self.height = height
    }

    static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// The format of the bytes by their signature, or nil for anything but PNG and JPEG.
    public static func format(of bytes: [UInt8]) -> Format? {
        if bytes.starts(with: self.pngSignature) { return .png }
        if bytes.starts(with: [0xFF, 0xD8, 0xFF]) { return .jpeg }
        return nil
    }

    /// Reads the declared size: the PNG `IHDR` chunk, or the first JPEG start-of-frame (`SOFn`) marker.
    /// - Throws: ``ImageLoadError`` (`unsupportedFormat` or `corrupt`) when the bytes are no PNG or JPEG or the
    ///   header is missing, truncated or declares an empty picture.
    public static func read(_ bytes: [UInt8]) throws(ImageLoadError) -> ImageHeader {
        switch self.format(of: bytes) {
        case .png: return try self.readPNG(bytes)
        case .jpeg: return try self.readJPEG(bytes)
        case nil: throw ImageLoadError(.unsupportedFormat, "not a PNG or JPEG image")
        }
    }

    /// Refuses a header above `limits`.
    /// - Throws: ``ImageLoadError`` with code `tooLarge`, naming the limit.
    public func check(_ limits: ImageLimits) throws(ImageLoadError) {
        guard self.width <= limits.maxSide, self.height <= limits.maxSide else {
            throw ImageLoadError(.tooLarge, "the picture is \(self.width) × \(self.height) pixels; each side may be at most \(limits.maxSide)")
        }
        guard self.width * self.height <= limits.maxPixels else {
            throw ImageLoadError(.tooLarge, "the picture is \(self.width) × \(self.height) pixels; at most \(limits.maxPixels / 1_000_000) megapixels are accepted")
        }
    }

    static func bigEndian(_ bytes: [UInt8], _ at: Int, count: Int) -> Int {
        var value = 0
        for index in at..<(at + count) { value = value << 8 | Int(bytes[index]) }
        return value
    }

    private static func readPNG(_ bytes: [UInt8]) throws(ImageLoadError) -> ImageHeader {
        // Signature, then the IHDR chunk: length 13, "IHDR", width, height (4 bytes each, big-endian).
        guard bytes.count >= 33, self.bigEndian(bytes, 8, count: 4) == 13, Array(bytes[12..<16]) == Array("IHDR".utf8) else {
            throw ImageLoadError(.corrupt, "the PNG file has no IHDR header")
        }
        let width = self.bigEndian(bytes, 16, count: 4), height = self.bigEndian(bytes, 20, count: 4)
        guard (1...0x7FFF_FFFF).contains(width), (1...0x7FFF_FFFF).contains(height) else {
            throw ImageLoadError(.corrupt, "the PNG header declares an invalid size (\(width) × \(height))")
        }
        return ImageHeader(format: .png, width: width, height: height)
    }

    private static func readJPEG(_ bytes: [UInt8]) throws(ImageLoadError) -> ImageHeader {
        var walker = JPEGSegments(bytes)
        while let segment = try walker.next() {
            if JPEGSegments.isStartOfFrame(segment.marker) {
                guard segment.payload.count >= 5 else { throw ImageLoadError(.corrupt, "the JPEG frame header is truncated") }
                let height = self.bigEndian(bytes, segment.payload.lowerBound + 1, count: 2)
                let width = self.bigEndian(bytes, segment.payload.lowerBound + 3, count: 2)
                guard width > 0, height > 0 else {
                    throw ImageLoadError(.corrupt, "the JPEG header declares an empty or deferred size (\(width) × \(height))")
                }
                return ImageHeader(format: .jpeg, width: width, height: height)
            }
            if segment.marker == 0xDA || segment.marker == 0xD9 { break }
        }
        throw ImageLoadError(.corrupt, "the JPEG file has no frame header before its image data")
    }
}

/// The largest picture a decoder accepts, checked on the header before decoding.
public struct ImageLimits: Sendable, Hashable {
    /// Longest accepted side in pixels.
    public var maxSide: Int
    /// Most accepted pixels (width × height).
    public var maxPixels: Int

    /// Creates limits.
    public init(maxSide: Int, maxPixels: Int) {
        self.maxSide = maxSide
        self.maxPixels = maxPixels
    }

    /// Pictures scanned for barcodes: each side at most 12,000 pixels and at most 40 megapixels in all (a
    /// 40-megapixel photo takes about 200 MB while it is decoded).
    public static let barcode = ImageLimits(maxSide: 12_000, maxPixels: 40_000_000)
}

/// The chunks of a PNG file up to and including IEND, each checked to lie within the file before anything reads it
/// (libpng allocates a chunk's declared length first: a 90-byte file declaring a 1.8 GB text chunk took 1.8 GB).
enum PNGChunks {
    /// Each chunk's type and its whole extent (length, type, data and CRC) in `bytes`.
    /// - Throws: ``ImageLoadError`` (`corrupt`) for a chunk that runs past the end, a type that is not four letters,
    ///   a first chunk other than IHDR, or no IEND.
    static func walk(_ bytes: [UInt8]) throws(ImageLoadError) -> [(type: String, range: Range<Int>)] {
        var chunks: [(type: String, range: Range<Int>)] = []
        var index = ImageHeader.pngSignature.count
        while index + 12 <= bytes.count {
            let length = ImageHeader.bigEndian(bytes, index, count: 4)
            guard length <= 0x7FFF_FFFF, index + 12 + length <= bytes.count else {
                throw ImageLoadError(.corrupt, "truncated PNG file (a chunk runs past the end)")
            }
            let typeBytes = bytes[(index + 4)..<(index + 8)]
            guard typeBytes.allSatisfy({ (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) }) else {
                throw ImageLoadError(.corrupt, "corrupt PNG file (a chunk type is not four letters)")
            }
            let type = String(decoding: typeBytes, as: UTF8.self)
            guard !chunks.isEmpty || type == "IHDR" else {
                throw ImageLoadError(.corrupt, "the PNG file has no IHDR header")
            }
            chunks.append((type, index..<(index + 12 + length)))
            index += 12 + length
            if type == "IEND" { return chunks }
        }
        throw ImageLoadError(.corrupt, "truncated PNG file (no IEND chunk)")
    }
}

/// Walks the marker segments of a JPEG file, skipping over entropy-coded scan data.
struct JPEGSegments {
    /// One marker: its code and where its bytes are in the file.
    struct Segment {
        /// The marker code (the byte after 0xFF).
        var marker: UInt8
        /// The segment's payload (after the length field); empty for markers without one.
        var payload: Range<Int>
        /// The entropy-coded data after a start-of-scan, up to the next marker.
        var scanData: Range<Int>
    }

    let bytes: [UInt8]
    var index = 2
    var finished = false

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// Whether `marker` starts a frame (SOF0–SOF15 except DHT, JPG and DAC).
    static func isStartOfFrame(_ marker: UInt8) -> Bool {
        (0xC0...0xCF).contains(marker) && marker != 0xC4 && marker != 0xC8 && marker != 0xCC
    }

    /// The next segment; nil after the end-of-image marker.
    /// - Throws: ``ImageLoadError`` (`corrupt`) for a truncated file or bytes that are not a marker.
    mutating func next() throws(ImageLoadError) -> Segment? {
        guard !self.finished else { return nil }
        guard self.index < self.bytes.count, self.bytes[self.index] == 0xFF else {
            throw ImageLoadError(.corrupt, self.index >= self.bytes.count ? "truncated JPEG file (no end-of-image marker)" : "corrupt JPEG structure")
        }
        while self.index < self.bytes.count, self.bytes[self.index] == 0xFF { self.index += 1 }  // fill bytes
        guard self.index < self.bytes.count else { throw ImageLoadError(.corrupt, "truncated JPEG file (no end-of-image marker)") }
        let marker = self.bytes[self.index]
        self.index += 1
        switch marker {
        case 0xD9:
            self.finished = true
            return Segment(marker: marker, payload: self.index..<self.index, scanData: self.index..<self.index)
        case 0x01, 0xD0...0xD7:
            return Segment(marker: marker, payload: self.index..<self.index, scanData: self.index..<self.index)
        case 0x00, 0xD8:
            throw ImageLoadError(.corrupt, "corrupt JPEG structure")
        default:
            break
        }
        guard self.index + 2 <= self.bytes.count else { throw ImageLoadError(.corrupt, "truncated JPEG file") }
        let length = ImageHeader.bigEndian(self.bytes, self.index, count: 2)
        guard length >= 2, self.index + length <= self.bytes.count else { throw ImageLoadError(.corrupt, "truncated JPEG file") }
        let payload = (self.index + 2)..<(self.index + length)
        self.index += length
        var scan = self.index..<self.index
        if marker == 0xDA {
            // Entropy-coded data runs to the next marker: 0xFF followed by anything but 0x00 (a stuffed byte) or
            // RST0–RST7 (restart markers inside the scan).
            let start = self.index
            while self.index < self.bytes.count {
                if self.bytes[self.index] == 0xFF, self.index + 1 < self.bytes.count {
                    let next = self.bytes[self.index + 1]
                    if next == 0x00 || (0xD0...0xD7).contains(next) {
                        self.index += 2
                        continue
                    }
                    break
                }
                self.index += 1
            }
            scan = start..<self.index
        }
        return Segment(marker: marker, payload: payload, scanData: scan)
    }
}
