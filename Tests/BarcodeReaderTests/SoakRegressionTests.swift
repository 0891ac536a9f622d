@testable import BarcodeReader
import Testing

/// Crashes found by the soak harness (scripts/barcode-soak.sh), each kept as a test.
@Suite struct SoakRegressionTests {
    /// Coordinates from a degenerate perspective transform (NaN, infinite, beyond Int) are outside the picture.
    @Test func pixelCoordinatesFromDegenerateTransformsDoNotTrap() {
        let matrix = BitMatrix(width: 8, height: 8, bits: [UInt8](repeating: 1, count: 64))
        for bad in [Double.nan, .infinity, -.infinity, 1e300, -1e300, 9.3e18, -9.3e18] {
            #expect(!matrix.get(bad, 3.0))
            #expect(!matrix.get(3.0, bad))
        }
        // Finite coordinates keep Int()'s truncation toward zero.
        #expect(matrix.get(-0.5, 0.2))
        #expect(matrix.get(7.9, 7.9))
        #expect(!matrix.get(8.0, 0))
        #expect(!matrix.get(-1.0, 0))
        #expect(pixelIndex(3.99) == 3 && pixelIndex(-3.99) == -3)
        #expect(pixelIndex(.nan) < -1_000_000 && pixelIndex(.infinity) > 1_000_000 && pixelIndex(-.infinity) < -1_000_000)
    }

    /// Soak input 2366 of run seed 1 (a corpus Data Matrix, mutated): a candidate whose corners make the module
    /// grid's transform degenerate trapped in `Int(px)` while the top-right corner was refined.
    @Test func dataMatrixCandidateWithDegenerateCornersIsRejectedNotTrapped() throws {
        var bits = [UInt8](repeating: 0, count: 64 * 64)
        for i in stride(from: 0, to: bits.count, by: 3) { bits[i] = 1 }
        let binary = BitMatrix(width: 64, height: 64, bits: bits)
        let version = try #require(DMVersion.all.first)
        // The top-right estimate on the bottom-left corner, and one at infinity: the quadrilateral has no area.
        let candidate = DMDetector.Candidate(
            bottomLeft: (10, 50), topLeft: (10, 10), bottomRight: (50, 50), topRight: (10, 50),
            topRightAlternatives: [(.infinity, 10), (.nan, .nan), (1e300, -1e300)])
        _ = DataMatrixReader.refineTopRight(candidate, version: version, binary: binary)
        _ = DataMatrixReader.rankedVersions(candidate, detector: DMDetector(image: binary), binary: binary)
    }
}
