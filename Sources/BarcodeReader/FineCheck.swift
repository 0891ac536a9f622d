extension LinearScanner {
    /// Modules across a GTIN of `format`, guards included (add-on not counted).
    static func modules(of format: BarcodeFormat) -> Int? {
        switch format {
        case .ean13, .upcA: 95
        case .ean8: 67
        case .upcE: 51
        default: nil
        }
    }

    /// Pixels a module below which a GTIN is also read with its edges placed to a third of a pixel: at 1.5 pixels,
    /// one pixel of error in an edge is two thirds of a module, and a digit's patterns differ by one module, so a
    /// threshold on whole pixels can turn one digit into another on every line alike (with blur, noise or JPEG;
    /// two or three such swaps can keep the check digit).
    static let fineModule = 1.5

    /// Whether `barcode`, read on lines of this scanner's image (columns when `rotated`), may be reported: any
    /// symbol but a GTIN; a GTIN of 1.5 pixels a module or more; a smaller one unless the same lines with edges
    /// to a third of a pixel (``fineReading(_:rotated:)``) read another GTIN of its length there, without a clear
    /// majority for `barcode` itself (``isClearMajority(_:over:)``): the symbol was read two ways, and neither is
    /// trusted. Lines that read nothing that finely say nothing: requiring a confirmation lost 60 of 318 right
    /// reads of such small symbols in fresh generated sets, refusing on a contradiction 3 (and 2 of their 3 wrong
    /// reads).
    func passesFineCheck(_ barcode: DecodedBarcode, rotated: Bool) -> Bool {
        guard let modules = Self.modules(of: barcode.format), !barcode.corners.isEmpty else { return true }
        let along = barcode.corners.map { rotated ? $0.y : $0.x }
        guard ((along.max() ?? 0) - (along.min() ?? 0)) / Double(modules) < Self.fineModule else { return true }
        let fine = self.fineReading(barcode, rotated: rotated)
        return fine.others == 0 || Self.isClearMajority(fine.same, over: fine.others)
    }

    /// Lines across `barcode` (and two line steps beyond) that read it itself with edges to a third of a pixel
    /// (``Binarization/fine``), and that read another GTIN of its length.
    func fineReading(_ barcode: DecodedBarcode, rotated: Bool) -> (same: Int, others: Int) {
        let across = barcode.corners.map { rotated ? $0.x : $0.y }
        let lines = rotated ? self.image.width : self.image.height
        let margin = self.nearLines(rotated: rotated)
        let only = max(0, Int(across.min() ?? 0) - margin)...min(lines - 1, max(0, Int(across.max() ?? 0) + margin))
        // Every line there, not only this scanner's.
        let scanner = LinearScanner(image: self.image, formats: Self.gtinFormats, minLineCount: 1, rowDivisor: Int.max)
        var same = 0
        var others = 0
        for c in scanner.scanCandidates(rotated: rotated, binarization: .fine, only: only) where c.lineCount > 0 {
            if Self.gtin13(c.text) == Self.gtin13(barcode.text) {
                same += c.lineCount
            } else if Self.sameGTINLength(c.format, barcode.format) {
                others += c.lineCount
            }
        }
        return (same, others)
    }
}
