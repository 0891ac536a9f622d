@testable import BarcodeReader
import Testing

@Suite struct DataMatrixTests {
    @Test(arguments: DMVersion.all.map { "\($0.rows)x\($0.columns)" })
    func placementCoversEveryCodewordBitOnce(_ size: String) throws {
        let parts = size.split(separator: "x").compactMap { Int($0) }
        let version = try #require(DMVersion.forSize(rows: parts[0], columns: parts[1]))
        let table = DMPlacement.table(rows: version.mappingRows, columns: version.mappingColumns)
        var seen = Set<Int>()
        for p in table where p >= 0 { seen.insert(p) }
        #expect(seen.count == version.totalCodewords * 8, "every bit of every codeword placed exactly once")
        #expect(seen.max() == version.totalCodewords * 8 - 1)
    }

    @Test func asciiDigitPairsAndPadding() throws {
        // "A" (66), digits "12" (130 + 12), "34" (164), pad 129.
        #expect(try DMDecoder.parse([66, 142, 164, 129, 175]) == "A1234")
    }

    @Test func c40AndUnlatch() throws {
        // Latch C40, "AIM" = values 14+0, 14+8, 14+12 -> 1600*14 + 40*22 + 26 + 1 = 23307 -> 91, 11; unlatch; 'a'.
        #expect(try DMDecoder.parse([230, 91, 11, 254, 98]) == "AIMa")
    }

    @Test func base256WithRandomisation() throws {
        // Latch Base 256 at position 1, length 2, bytes 0xC3 0xA9 ("é" in UTF-8 as raw bytes, read as Latin-1).
        func randomise(_ value: Int, position: Int) -> Int {
            let pseudo = ((149 * position) % 255) + 1
            let t = value + pseudo
            return t <= 255 ? t : t - 256
        }
        let data = [231, randomise(2, position: 2), randomise(0xC3, position: 3), randomise(0xA9, position: 4)]
        #expect(try DMDecoder.parse(data) == "Ã©")
    }

    @Test func invalidCodewordThrows() {
        #expect(throws: BarcodeReaderError(.invalidData)) { _ = try DMDecoder.parse([0]) }
    }
}
