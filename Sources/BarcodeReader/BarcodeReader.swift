/// Decodes barcodes from grayscale images. A pure value: no I/O, safe to share between tasks.
public struct BarcodeReader: Sendable {
    /// Tuning knobs for a reader.
    public struct Options: Sendable, Equatable {
        /// The symbologies to look for.
        public var formats: Set<BarcodeFormat>
        /// Also scan columns, to read 1-D codes at 90° and 270°.
        public var tryRotate: Bool
        /// Retry with inverted luminance (light bars on a dark ground) when nothing was found.
        public var tryInvert: Bool
        /// Number of scan lines that must agree before a 1-D symbol is reported.
        public var minLineCount: Int

        /// Creates options; by default every supported format, with rotation and inversion.
        public init(
            formats: Set<BarcodeFormat> = Set(BarcodeFormat.allCases), tryRotate: Bool = true, tryInvert: Bool = true,
            minLineCount: Int = 2
        ) {
            self.formats = formats
            self.tryRotate = tryRotate
            self.tryInvert = tryInvert
            self.minLineCount = minLineCount
        }
    }

    /// The options this reader uses.
    public let options: Options

    /// Creates a reader.
    /// - Parameter options: formats and search effort.
    public init(options: Options = Options()) {
        self.options = options
    }

    /// Finds and decodes all barcodes in `image`.
    /// - Parameter image: the luminance image.
    /// - Returns: the barcodes found, most confident first; empty when there is nothing to read.
    public func decode(_ image: GrayscaleImage) -> [DecodedBarcode] {
        var results: [DecodedBarcode] = []
        let linearFormats = self.options.formats.filter(\.isLinear)
        if !linearFormats.isEmpty {
            results += self.decodeLinear(image, formats: linearFormats)
        }
        if self.options.formats.contains(.qrCode) {
            results += QRCodeReader.read(image, tryInvert: self.options.tryInvert)
        }
        return results
    }

    private func decodeLinear(_ image: GrayscaleImage, formats: Set<BarcodeFormat>) -> [DecodedBarcode] {
        let scanner = LinearScanner(
            image: image, formats: formats, minLineCount: self.options.minLineCount, rowDivisor: 256)
        var passes: [(rotated: Bool, inverted: Bool, bin: LinearScanner.Binarization)] = [
            (false, false, .histogram)
        ]
        if self.options.tryRotate { passes.append((true, false, .histogram)) }
        passes.append((false, false, .local))
        if self.options.tryRotate { passes.append((true, false, .local)) }
        if self.options.tryInvert {
            passes.append((false, true, .histogram))
            if self.options.tryRotate { passes.append((true, true, .histogram)) }
        }
        for pass in passes {
            let found = scanner.scan(rotated: pass.rotated, inverted: pass.inverted, binarization: pass.bin)
            if !found.isEmpty { return found }
        }
        return []
    }
}
