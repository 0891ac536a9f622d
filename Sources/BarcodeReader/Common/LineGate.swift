/// Which scan lines can cross a 1-D symbol, found before any line is binarised (the candidate-first pass).
///
/// A 1-D symbol is a patch of parallel edges: its luminance gradients all point one way (high coherence of the
/// structure tensor `Σgx², Σgy², Σgx·gy`) and each line across it meets several edges (`(Σ|g|)² / (n · Σg²)` is the
/// number of equally strong edges on each of `n` lines, whatever the contrast). The image is cut into cells of
/// ``cell`` pixels and looked at through windows of 2 × 2 cells, one cell apart. A window passes for the row scan
/// when its gradients are coherent, mostly across the rows, with at least ``minEdges`` edges a row; ``minRun``
/// passing windows side by side along a row of windows (a symbol is wider than a window) mark the rows they cover
/// and one cell beyond on either side. The column scan is the same turned by 90°. Lines that nothing marks are not
/// scanned: noise (no coherence), a product's few outlines (too few edges a line, or too few windows side by side),
/// a page of text (short coherent patches) and flat areas (no edges) cost the 1-D passes little. Every measure but
/// the least mean gradient is a ratio, so low contrast, low light, blur (which spreads an edge, so counts more of
/// them) and inversion (which flips the gradients' signs) do not hide a symbol from it.
///
/// The gradients are those of 2 × 2 pixel blocks (`gx = b + d − a − c`, `gy = c + d − a − b`): independent of each
/// other on pixel noise (forward differences from one pixel correlate, which makes noise look half coherent), and
/// sharp enough for bars one pixel wide. The cell grows with the image (``cellSize(width:height:)``: 16 pixels up to
/// 1,024 a side, 32 up to 2,048, …), so that a symbol filling a large frame, with modules of up to a hundredth of
/// its width, still crosses several edges a window. Images under six cells a side (the windows would be the image)
/// and over ``maxSide`` are not gated: every line is scanned.
struct LineGate {
    /// Whether each row (for the row scan) may cross a symbol.
    let rows: [Bool]
    /// Whether each column (for the column scan) may cross a symbol.
    let columns: [Bool]

    /// The cell of images up to 1,024 pixels a side.
    static let cell = 16
    /// The largest side gated (cells of 80 pixels; a cell's 32-bit sums stay exact up to 90).
    static let maxSide = 5 * 1024

    /// The cell for an image: ``cell`` for every 1,024 pixels (or part) of its longer side.
    static func cellSize(width: Int, height: Int) -> Int {
        Self.cell * ((max(width, height) + 1023) / 1024)
    }
    /// The least coherence `√((Sxx − Syy)² + 4Sxy²) / (Sxx + Syy)` of a window's gradients.
    static let minCoherence = 0.5
    /// The least number of edges on each line of a window, along the scan direction.
    static let minEdges = 2.5
    /// The least mean absolute gradient of a window along the scan direction (flat areas have none).
    static let minMeanGradient = 2.0
    /// How much weaker the scan direction's gradient energy may be than the other's: symbols tilted up to about 50°
    /// from square to the lines pass both ways near 45°.
    static let minShare = 0.7
    /// Passing windows side by side that make a candidate.
    static let minRun = 3

    /// Every line of `image` (no gating).
    static func all(_ image: GrayscaleImage) -> LineGate {
        LineGate(rows: Array(repeating: true, count: image.height), columns: Array(repeating: true, count: image.width))
    }

    /// The gate for `image`.
    static func build(_ image: GrayscaleImage) -> LineGate {
        let w = image.width, h = image.height, c = Self.cellSize(width: w, height: h)
        guard max(w, h) <= Self.maxSide, min(w, h) >= 6 * c else { return Self.all(image) }
        let cw = (w + c - 1) / c, ch = (h + c - 1) / c
        let sums = Self.cellSums(image, cell: c)
        // Windows: whether each passes for the row scan and for the column scan.
        let ww = cw - 1, wh = ch - 1
        var forRows = [Bool](repeating: false, count: ww * wh)
        var forColumns = [Bool](repeating: false, count: ww * wh)
        let lines = Double(2 * c)
        let samples = lines * lines
        for wy in 0..<wh {
            for wx in 0..<ww {
                var t = (0.0, 0.0, 0.0, 0.0, 0.0)
                for (dy, dx) in [(0, 0), (0, 1), (1, 0), (1, 1)] {
                    let k = ((wy + dy) * cw + wx + dx) * 5
                    t.0 += Double(sums[k])
                    t.1 += Double(sums[k + 1])
                    t.2 += Double(sums[k + 2])
                    t.3 += Double(sums[k + 3])
                    t.4 += Double(sums[k + 4])
                }
                let (sxx, syy, sxy, ax, ay) = t
                let energy = sxx + syy
                guard energy > 0 else { continue }
                let coherence = ((sxx - syy) * (sxx - syy) + 4 * sxy * sxy).squareRoot() / energy
                guard coherence >= Self.minCoherence else { continue }
                forRows[wy * ww + wx] =
                    sxx >= Self.minShare * syy && ax >= Self.minMeanGradient * samples && ax * ax >= Self.minEdges * lines * sxx
                forColumns[wy * ww + wx] =
                    syy >= Self.minShare * sxx && ay >= Self.minMeanGradient * samples && ay * ay >= Self.minEdges * lines * syy
            }
        }
        // Runs of passing windows along the scan direction mark the cells they cover, and one beyond either side:
        // window (line l, step k along it) is `passing[index(l, k)]`, covering cells l and l + 1 across the lines.
        func marked(_ passing: [Bool], lines: Int, steps: Int, cells: Int, index: (Int, Int) -> Int) -> [Bool] {
            var marked = [Bool](repeating: false, count: cells)
            for l in 0..<lines {
                var run = 0
                for k in 0..<steps {
                    run = passing[index(l, k)] ? run + 1 : 0
                    if run >= Self.minRun {
                        for m in max(0, l - 1)...min(cells - 1, l + 2) { marked[m] = true }
                        break
                    }
                }
            }
            return marked
        }
        let rowCells = marked(forRows, lines: wh, steps: ww, cells: ch) { wy, wx in wy * ww + wx }
        let columnCells = marked(forColumns, lines: ww, steps: wh, cells: cw) { wx, wy in wy * ww + wx }
        return LineGate(rows: (0..<h).map { rowCells[$0 / c] }, columns: (0..<w).map { columnCells[$0 / c] })
    }

    /// Per cell of `c × c` pixels (row by row, `⌈w / c⌉` cells a row): Σgx², Σgy², Σgx·gy, Σ|gx|, Σ|gy| of the 2 × 2
    /// pixel blocks whose top-left pixel is in the cell (the last row and column have none).
    static func cellSums(_ image: GrayscaleImage, cell c: Int) -> [Int32] {
        // Per cell: Σgx², Σgy², Σgx·gy, Σ|gx|, Σ|gy|. A cell's sums stay below 2³¹ (|g| ≤ 510, at most 80 × 80
        // pixels), so 32-bit wrapping arithmetic is exact.
        let w = image.width, h = image.height
        let cw = (w + c - 1) / c, ch = (h + c - 1) / c
        var sums = [Int32](repeating: 0, count: cw * ch * 5)
        image.pixels.withUnsafeBufferPointer { px in
            sums.withUnsafeMutableBufferPointer { s in
                guard let p = px.baseAddress, let out = s.baseAddress else { return }
                // Cell (cx, cy) sums the pairs of neighbouring columns (x, x + 1), x in [cx·c, min((cx + 1)·c, w − 1)),
                // of the pairs of rows (y, y + 1), y in [cy·c, min((cy + 1)·c, h − 1)).
                for cy in 0..<ch {
                    let y0 = cy * c, y1 = min(h - 1, y0 + c)
                    guard y0 < y1 else { continue }
                    for cx in 0..<cw {
                        let x0 = cx * c, x1 = min(w - 1, x0 + c)
                        guard x0 < x1 else { continue }
                        let cell = out + (cy * cw + cx) * 5
                        // Eight pairs at a time in vector lanes, summed over the cell's rows before the lanes are
                        // added up; the pairs left over (at the right edge) one by one. The sums are the same.
                        let vectorEnd = x0 + (x1 - x0) / 8 * 8
                        var vxx = SIMD8<Int32>(), vyy = SIMD8<Int32>(), vxy = SIMD8<Int32>()
                        var vax = SIMD8<Int32>(), vay = SIMD8<Int32>()
                        var xx: Int32 = 0, yy: Int32 = 0, xy: Int32 = 0, ax: Int32 = 0, ay: Int32 = 0
                        for y in y0..<y1 {
                            let top = UnsafeRawPointer(p + y * w), bottom = top + w
                            var x = x0
                            while x < vectorEnd {
                                let a = Self.lanes(top, x), b = Self.lanes(top, x + 1)
                                let cc = Self.lanes(bottom, x), d = Self.lanes(bottom, x + 1)
                                let gx = (b &+ d) &- (a &+ cc)
                                let gy = (cc &+ d) &- (a &+ b)
                                vxx &+= gx &* gx
                                vyy &+= gy &* gy
                                vxy &+= gx &* gy
                                let sx = gx &>> 31, sy = gy &>> 31
                                vax &+= (gx ^ sx) &- sx
                                vay &+= (gy ^ sy) &- sy
                                x += 8
                            }
                            let t = p + y * w, u = t + w
                            while x < x1 {
                                let a = Int32(t[x]), b = Int32(t[x &+ 1]), cc = Int32(u[x]), d = Int32(u[x &+ 1])
                                let gx = (b &+ d) &- (a &+ cc)
                                let gy = (cc &+ d) &- (a &+ b)
                                xx = xx &+ gx &* gx
                                yy = yy &+ gy &* gy
                                xy = xy &+ gx &* gy
                                ax = ax &+ (gx ^ (gx >> 31)) &- (gx >> 31)
                                ay = ay &+ (gy ^ (gy >> 31)) &- (gy >> 31)
                                x += 1
                            }
                        }
                        cell[0] = xx &+ vxx.wrappedSum()
                        cell[1] = yy &+ vyy.wrappedSum()
                        cell[2] = xy &+ vxy.wrappedSum()
                        cell[3] = ax &+ vax.wrappedSum()
                        cell[4] = ay &+ vay.wrappedSum()
                    }
                }
            }
        }
        return sums
    }

    /// Eight pixels from `offset`, widened.
    @inline(__always)
    private static func lanes(_ row: UnsafeRawPointer, _ offset: Int) -> SIMD8<Int32> {
        SIMD8<Int32>(truncatingIfNeeded: row.loadUnaligned(fromByteOffset: offset, as: SIMD8<UInt8>.self))
    }
}
