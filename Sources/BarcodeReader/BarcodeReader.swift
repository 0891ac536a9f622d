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
        let linearFormats = self.options.formats.filter(\.isLinear)
        let wantsQR = self.options.formats.contains(.qrCode)
        // The pass over the image's negative reads the lines of `sparse` with the histogram threshold again: the
        // first pass keeps their runs.
        let runCache = LinearScanner.RunCache(sparseRowDivisor: 96)
        // ITF digits that one pass saw as a part of a longer symbol are refused by every pass.
        let fragments = LinearScanner.FragmentLog()
        // Only lines that cross a patch of parallel edges can read a 1-D symbol: found once, for every pass.
        let gate = linearFormats.isEmpty ? nil : LineGate.build(image)
        let scanner = LinearScanner(
            image: image, formats: linearFormats, minLineCount: self.options.minLineCount, rowDivisor: 256,
            runCache: runCache, fragments: fragments, gate: gate)
        let rotations = self.options.tryRotate ? [false, true] : [false]

        // Cheapest and most common first: rows and columns with a histogram threshold, and QR Code.
        var (linear, rotated) = self.firstHitAndRotation(rotations.map { (scanner, $0, .histogram) })
        let sparse = LinearScanner(
            image: image, formats: linearFormats, minLineCount: self.options.minLineCount, rowDivisor: 96,
            runCache: runCache, fragments: fragments, gate: gate)
        // The local threshold's pass over the sparse lines, when the first stage ran it: its lines are in the votes
        // from then on, so the fallback below takes its reads as they are (held to the first stage's checks) instead
        // of reading the same lines again, which counted them twice and let a reading that the votes had refused
        // outvote the histogram's lines the second time (a small EAN-13 read right on two lines and wrong on three).
        var localPass: (hits: [(barcode: DecodedBarcode, lines: Int)], rotated: Bool)?
        if !linear.isEmpty && linear.allSatisfy({ $0.lines <= self.options.minLineCount }) {
            // A barely confirmed read: let the local threshold outvote it when it sees the symbol better.
            let local = self.firstHitAndRotation(rotations.map { (sparse, $0, .local) })
            localPass = local
            if let best = local.hits.first, best.lines > (linear.first?.lines ?? 0) { (linear, rotated) = local }
        } else if linear.contains(where: { LinearScanner.gtinFormats.contains($0.barcode.format) }) {
            // A product code read at one threshold is asked of the same lines at a second one (the local mean): a
            // shadow's edge across a symbol skews a line's one histogram threshold over part of it, which shifts
            // every edge there alike, on every line through it, and two or three digits can change with the check
            // digit still holding. The local threshold follows the shadow. Where it reads another GTIN of the same
            // length at the same place, clearly, and never this one, the symbol was read two ways: neither is
            // reported (zxing-cpp reads such prints wrong).
            // Only the lines across the symbols read (and a step beyond): the rest of the frame has nothing to say.
            // Product codes only, with a log of ITF fragments of its own: this pass has nothing else to decide.
            let gtins = LinearScanner(
                image: image, formats: linearFormats.filter { LinearScanner.gtinFormats.contains($0) },
                minLineCount: self.options.minLineCount, rowDivisor: 96, gate: gate)
            let only = gtins.linesAcross(linear.flatMap(\.barcode.corners), rotated: rotated)
            let second = gtins.scanCandidates(rotated: rotated, binarization: .local, only: only)
            linear.removeAll { gtins.contradicts($0.barcode, second, rotated: rotated) }
            fragments.logGTINs(second, rotated: rotated)
        }
        // The checks every read of the first stage is held to, whichever threshold read it.
        func firstStageChecked(
            _ hits: [(barcode: DecodedBarcode, lines: Int)], rotated: Bool
        ) -> [(barcode: DecodedBarcode, lines: Int)] {
            var hits = hits
            // Every line of both thresholds so far, confirmed or not, votes at a GTIN's place: a product code read on
            // few lines at one threshold and otherwise as often at the other was read two ways (the barely confirmed
            // read that the local threshold did not outvote, and the read asked of the second threshold, alike).
            hits.removeAll { sparse.outvoted($0.barcode, rotated: rotated) }
            // An ITF without a check digit is asked of the local threshold on the lines across it: glare or a fade
            // that turned the rest of a longer symbol into one white run at the histogram threshold leaves bars that
            // the local mean still sees. Lines there that read its digits going on (no end after them), or a longer
            // ITF holding them, say its end was none: its own digits with an end then need a clear majority over them.
            if hits.contains(where: { $0.barcode.format == .itf && !LinearScanner.isCheckedITF14($0.barcode.text) }) {
                let itfs = LinearScanner(
                    image: image, formats: [.itf], minLineCount: self.options.minLineCount, rowDivisor: 96, gate: gate)
                hits.removeAll { itfs.endIsNoneAtTheLocalThreshold($0.barcode, rotated: rotated) }
            }
            // A small GTIN (under 1.5 pixels a module) whose lines, with edges placed to a third of a pixel, read
            // another GTIN of its length: read two ways, so not reported (every pass's 1-D reads are asked the same).
            hits.removeAll { !scanner.passesFineCheck($0.barcode, rotated: rotated) }
            return hits
        }
        linear = firstStageChecked(linear, rotated: rotated)
        // Nothing read, but halves of EAN-13s or UPC-As seen: symbols turned further than their bars' height
        // allows, which no row or column crosses whole, read along their own axes.
        if linear.isEmpty { linear = scanner.readAlongAxes() }
        var results = linear.map(\.barcode)
        let wantsDM = self.options.formats.contains(.dataMatrix)
        var binary: BitMatrix?
        if wantsQR || wantsDM {
            let b = HybridBinarizer.binarize(image)
            binary = b
            var qrPromising = false
            var dmPromising = false
            if wantsQR { results += QRCodeReader.read(b, gray: image, promising: &qrPromising) }
            if wantsDM { results += DataMatrixReader.read(b, gray: image, promising: &dmPromising) }
            // Nothing decoded where a symbol seemed to be: binarise again with thresholds carried from the blocks
            // that show contrast into the faint ones (glare, shadow, low light), as zxing-cpp's current binariser
            // does. Only as a second pass: the first binarisation reads some real photos (Data Matrix under uneven
            // light) that this one does not.
            if results.isEmpty && (qrPromising || dmPromising) {
                let smoothed = HybridBinarizer.binarizeSmoothed(image)
                if qrPromising { results += QRCodeReader.read(smoothed, gray: image) }
                if dmPromising { results += DataMatrixReader.read(smoothed, gray: image) }
            }
        }
        if !results.isEmpty { return results }

        // Uneven light: a local-mean threshold along the lines (a sparser set of lines: this is a fallback).
        if let localPass {
            // Read at the first stage: held to its checks (a read refused there is not reported here).
            results = firstStageChecked(localPass.hits, rotated: localPass.rotated).map(\.barcode)
        } else {
            results = self.fineChecked(self.firstHitAndRotation(rotations.map { (sparse, $0, .local) }), sparse)
        }
        if !results.isEmpty { return results }

        // Blur: edges at the gradient peaks keep narrow bars and spaces that every threshold loses.
        // Gradient edges also find structure in texture: ask for one more agreeing line.
        let sparseStrict = LinearScanner(
            image: image, formats: linearFormats, minLineCount: self.options.minLineCount + 1, rowDivisor: 40,
            fragments: fragments, gate: gate)
        results = self.fineChecked(self.firstHitAndRotation(rotations.map { (sparseStrict, $0, .edges) }), sparseStrict)
        if !results.isEmpty { return results }

        // Small symbols (about 1.5 pixels a module): thresholded to whole pixels, a narrow bar or space that straddles
        // two pixels is lost or doubled, so a digit's (or a character's) bars and spaces miss its pattern by a module
        // on every line; with their edges placed to a third of a pixel they match. Product codes, Code 128 and
        // Code 39, on the sparser lines, with the same confirmation. Not ITF: its fragments are the family's wrong
        // reads, and these runs read no ITF that the other passes miss (0 of 720 generated ITF-14s).
        let fine = LinearScanner(
            image: image, formats: linearFormats.subtracting([.itf]),
            minLineCount: self.options.minLineCount, rowDivisor: 96, fragments: fragments, gate: gate)
        results = self.fineChecked(self.firstHitAndRotation(rotations.map { (fine, $0, .fine) }), fine)
        if !results.isEmpty || !self.options.tryInvert { return results }

        // Light symbols on a dark ground, read on the image's negative, where they are dark on light: every check
        // that looks at the pixels (an ITF's ends across its bars, a short GTIN's own axis, the quiet zone after a
        // UPC-E, the fine check) then sees them as the other passes see printed symbols. (Reading the light
        // symbols' runs with the colours swapped on the image itself left those checks looking at light bars as
        // paper: an ITF-14 turned past its height, light on dark, was reported as its first 8 digits.)
        let negativeImage = image.inverted()
        let negative = LinearScanner(
            image: negativeImage, formats: linearFormats, minLineCount: self.options.minLineCount, rowDivisor: 96,
            runCache: runCache, negative: true, fragments: fragments, gate: gate)
        results = self.fineChecked(self.firstHitAndRotation(rotations.map { (negative, $0, .histogram) }), negative)
        if results.isEmpty {
            // Uneven light on the negative too (shadows, glare, light falling away across the symbol).
            results = self.fineChecked(self.firstHitAndRotation(rotations.map { (negative, $0, .local) }), negative)
        }
        if let binary {
            let inverted = binary.inverted()
            if wantsQR { results += QRCodeReader.read(inverted, gray: negativeImage) }
            if wantsDM { results += DataMatrixReader.read(inverted, gray: negativeImage) }
        }
        return results
    }

    /// The GTINs of a pass that pass ``LinearScanner/passesFineCheck(_:rotated:)``, and every other symbol.
    private func fineChecked(
        _ pass: (hits: [(barcode: DecodedBarcode, lines: Int)], rotated: Bool), _ scanner: LinearScanner
    ) -> [DecodedBarcode] {
        pass.hits.map(\.barcode).filter { scanner.passesFineCheck($0, rotated: pass.rotated) }
    }

    /// The symbols of the first pass that finds any, and whether that pass read columns.
    private func firstHitAndRotation(
        _ passes: [(LinearScanner, Bool, LinearScanner.Binarization)]
    ) -> (hits: [(barcode: DecodedBarcode, lines: Int)], rotated: Bool) {
        for (scanner, rotated, binarization) in passes {
            let found = scanner.scan(rotated: rotated, binarization: binarization)
            if !found.isEmpty { return (found, rotated) }
        }
        return ([], false)
    }
}
