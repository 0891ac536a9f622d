@testable import BarcodeReader
import Testing

@Suite struct QRFormatTests {
    @Test func formatInformationRoundTripsWithUpToThreeBitErrors() {
        for data in 0..<32 {
            let word = QRFormatInformation.encode(data)
            let expected = QRFormatInformation(level: QRErrorCorrectionLevel(formatBits: data >> 3), mask: data & 7)
            #expect(QRFormatInformation.decode(word, word) == expected)
            let damaged = word ^ 0b100_0000_0100_0001
            #expect(QRFormatInformation.decode(damaged, 0) == expected)
        }
    }

    @Test func knownFormatWord() {
        // ISO 18004 annex C example: level M (00), mask 101 -> 100000011001110.
        #expect(QRFormatInformation.encode(0b00101) == 0b100_0000_1100_1110)
        #expect(QRErrorCorrectionLevel(formatBits: 0b01) == .low)
        #expect(QRErrorCorrectionLevel(formatBits: 0b10) == .high)
    }

    @Test func versionInformation() {
        // ISO 18004 annex D: version 7 is 000111110010010100.
        #expect(QRVersion.versionInfoWords[0] == 0b00_0111_1100_1001_0100)
        #expect(QRVersion.decodeVersionInformation(0x07C94)?.number == 7)
        #expect(QRVersion.decodeVersionInformation(0x07C94 ^ 0b111)?.number == 7)
        #expect(QRVersion.decodeVersionInformation(0x28C69)?.number == 40)
    }

    @Test func versionTableIsConsistent() {
        // Total codewords per version from ISO 18004 table 1 (data + EC, equal for every level).
        let totals = [26, 44, 70, 100, 134, 172, 196, 242, 292, 346]
        for (i, total) in totals.enumerated() {
            guard let v = QRVersion.forNumber(i + 1) else {
                Issue.record("missing version \(i + 1)")
                continue
            }
            for level in 0..<4 {
                let b = v.ecBlocks[level]
                #expect(b.totalDataCodewords + b.ecCodewordsPerBlock * b.blockCount == total)
            }
        }
        #expect(QRVersion.forNumber(40)?.dimension == 177)
    }

    @Test func bitStreamModes() throws {
        guard let v1 = QRVersion.forNumber(1) else { return }
        // Numeric "01234567": 0001 0000001000 0000001100 0101011001 1000011 0000
        let numeric = bitsToBytes("0001" + "0000001000" + "0000001100" + "0101011001" + "1000011" + "0000")
        #expect(try QRDecoder.parseBitStream(numeric, version: v1) == "01234567")
        // Alphanumeric "AC-42": 0010 000000101 00111001110 11100111001 000010 0000
        let alnum = bitsToBytes("0010" + "000000101" + "00111001110" + "11100111001" + "000010" + "0000")
        #expect(try QRDecoder.parseBitStream(alnum, version: v1) == "AC-42")
        // ECI 26 (UTF-8) then byte mode "é": 0111 00011010 0100 00000010 11000011 10101001
        let eci = bitsToBytes("0111" + "00011010" + "0100" + "00000010" + "11000011" + "10101001" + "0000")
        #expect(try QRDecoder.parseBitStream(eci, version: v1) == "é")
        // Kanji mode "点" (Shift-JIS 0x935F): 1000 00000001 0110110011111
        let kanji = bitsToBytes("1000" + "00000001" + "0110110011111" + "0000")
        #expect(try QRDecoder.parseBitStream(kanji, version: v1) == "点")
        #expect(try QRDecoder.content(eci, version: v1).eci == [26])
    }

    @Test func structuredAppendAndGS1AreReported() throws {
        let v1 = try #require(QRVersion.forNumber(1))
        // Structured append: position 1, total − 1 = 2, parity 0xAA; FNC1 in the first position; byte "A".
        let bits = bitsToBytes(
            "0011" + "0001" + "0010" + "10101010" + "0101" + "0100" + "00000001" + "01000001" + "0000")
        let content = try QRDecoder.content(bits, version: v1)
        #expect(content == MessageContent(text: "A", gs1: true, structuredAppend: StructuredAppend(position: 1, total: 3, parity: 0xAA)))
        // FNC1 in the second position (an AIM application indicator) is not GS1.
        let aim = bitsToBytes("1001" + "01000001" + "0100" + "00000001" + "01000010" + "0000")
        #expect(try QRDecoder.content(aim, version: v1).gs1 == false)
    }

    private func bitsToBytes(_ bits: String) -> [Int] {
        var padded = Array(bits)
        while padded.count % 8 != 0 { padded.append("0") }
        return stride(from: 0, to: padded.count, by: 8).map { i in
            padded[i..<(i + 8)].reduce(0) { $0 << 1 | ($1 == "1" ? 1 : 0) }
        }
    }
}

/// The share of a sampled grid's finder and timing modules that read right: every one on a symbol's grid, each
/// wrong module counted, and noise under the share that the luminance resampling asks of a grid.
@Suite struct QRFixedPatternShareTests {
    static func symbolGrid(dimension d: Int) -> BitMatrix {
        var m = BitMatrix(width: d, height: d)
        for (ox, oy) in [(0, 0), (d - 7, 0), (0, d - 7)] {
            for y in 0..<7 { for x in 0..<7 where max(abs(x - 3), abs(y - 3)) != 2 { m.set(ox + x, oy + y) } }
        }
        for k in stride(from: 8, to: d - 8, by: 2) {
            m.set(k, 6)
            m.set(6, k)
        }
        return m
    }

    @Test func aSymbolsGridIsAllRightAndEachWrongModuleCounts() {
        let grid = Self.symbolGrid(dimension: 25)
        #expect(QRCodeReader.fixedPatternShare(grid) == 1)
        var broken = grid
        broken.set(3, 3, false)  // a finder's centre
        broken.set(9, 6)  // a light timing module
        #expect(QRCodeReader.fixedPatternShare(broken) == 163.0 / 165)
    }

    @Test func noiseIsUnderTheShareTheLuminanceResamplingAsks() {
        var state: UInt64 = 11
        var noise = BitMatrix(width: 33, height: 33)
        for y in 0..<33 {
            for x in 0..<33 {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                if state >> 63 == 1 { noise.set(x, y) }
            }
        }
        #expect(QRCodeReader.fixedPatternShare(noise) < QRCodeReader.minGreyResamplingShare)
        #expect(QRCodeReader.fixedPatternShare(BitMatrix(width: 20, height: 20)) == 0)
    }
}

@Suite struct ReedSolomonTests {
    struct Generator {
        var state: UInt64
        mutating func next(_ bound: Int) -> Int {
            self.state = self.state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((self.state >> 33) % UInt64(bound))
        }
    }

    @Test(arguments: [(GaloisField.qrCode, 26, 10), (GaloisField.qrCode, 100, 30), (GaloisField.dataMatrix, 40, 20)])
    func correctsUpToTheLimitAndNotOnePast(_ field: GaloisField, _ dataCount: Int, _ ecCount: Int) throws {
        var rng = Generator(state: UInt64(dataCount * 1000 + ecCount))
        for trial in 0..<20 {
            let data = (0..<dataCount).map { _ in rng.next(256) }
            let message = data + ReedSolomon.encode(data, ecCount: ecCount, field: field)
            var clean = message
            #expect(try ReedSolomon.decode(&clean, ecCount: ecCount, field: field) == 0)

            // Up to ecCount / 2 symbol errors: always corrected.
            let limit = ecCount / 2
            var received = message
            var positions = Set<Int>()
            while positions.count < limit { positions.insert(rng.next(message.count)) }
            for p in positions { received[p] ^= 1 + rng.next(255) }
            let corrected = try ReedSolomon.decode(&received, ecCount: ecCount, field: field)
            #expect(corrected == limit, "trial \(trial)")
            #expect(received == message, "trial \(trial)")

            // One past the limit: never silently returns the original message.
            var tooMany = message
            var more = Set<Int>()
            while more.count < limit + 1 { more.insert(rng.next(message.count)) }
            for p in more { tooMany[p] ^= 1 + rng.next(255) }
            do {
                try ReedSolomon.decode(&tooMany, ecCount: ecCount, field: field)
                #expect(tooMany != message, "trial \(trial): miscorrection back to the original is impossible")
            } catch {
                #expect(error.code == .uncorrectable)
            }
        }
    }

    @Test func aCodewordThatIsNotAByteIsUncorrectable() {
        var codewords = [12, 300, 7, 9, 1, 2]
        #expect(throws: BarcodeReaderError.self) { try ReedSolomon.decode(&codewords, ecCount: 2, field: .qrCode) }
        #expect(codewords == [12, 300, 7, 9, 1, 2])
    }
}
