import BarcodeImage
@testable import BarcodeReader
import ChildProcess
import Foundation
import Testing

/// EAN-2 and EAN-5 add-ons (issue 11, point 3): reported in `addOn` beside the main code, whose text stays the
/// main code alone; never from a stray pattern.
@Suite struct AddOnTests {
    static let ean13 = "4006381333931"

    static func read(_ widths: [Int], moduleWidth: Int = 2) -> [DecodedBarcode] {
        BarcodeReader().decode(TestSymbols.render(widths, moduleWidth: moduleWidth, height: 50))
    }

    @Test(arguments: [
        ("4006381333931", "12"), ("4006381333931", "00"), ("9781234567897", "51995"), ("9781234567897", "00000"),
        ("0012345678905", "07"), ("0012345678905", "24680"),
    ])
    func addOnIsReportedBesideTheMainCode(_ main: String, _ add: String) {
        for moduleWidth in [1, 2, 3] {
            for gap in [7, 9, 12] {
                let found = Self.read(TestSymbols.ean13(main) + [gap] + TestSymbols.addOn(add), moduleWidth: moduleWidth)
                let expectedText = main.first == "0" ? String(main.dropFirst()) : main
                #expect(found.count == 1, "module \(moduleWidth), gap \(gap): \(found)")
                #expect(found.first?.text == expectedText)
                #expect(found.first?.format == (main.first == "0" ? .upcA : .ean13))
                #expect(found.first?.addOn == add, "module \(moduleWidth), gap \(gap)")
            }
        }
    }

    @Test func upsideDownAndRotatedAddOnsAreRead() {
        let image = TestSymbols.render(TestSymbols.ean13(Self.ean13) + [9] + TestSymbols.addOn("52495"), height: 50)
        for angle in [90, 180, 270] {
            let found = BarcodeReader().decode(image.rotated(clockwiseBy: angle))
            #expect(found.map(\.text) == [Self.ean13], "\(angle)°")
            #expect(found.first?.addOn == "52495", "\(angle)°")
        }
    }

    @Test func noAddOnWhenNoneIsPrinted() {
        let found = Self.read(TestSymbols.ean13(Self.ean13))
        #expect(found.map(\.text) == [Self.ean13])
        #expect(found.first?.addOn == nil)
    }

    @Test func theAddOnsParityMustHold() {
        // EAN-2: 12 mod 4 = 0 → LL; drawn LG. EAN-5: drawn with the parity of another checksum.
        for widths in [TestSymbols.addOn("12", parity: 1), TestSymbols.addOn("51995", parity: 0x18)] {
            let found = Self.read(TestSymbols.ean13(Self.ean13) + [9] + widths)
            #expect(found.map(\.text) == [Self.ean13], "the main code stays readable")
            #expect(found.first?.addOn == nil)
        }
        // The specification's example: 52495 → 3 × (5 + 4 + 5) + 9 × (2 + 9) = 141 → 1.
        #expect(UPCEAN.ean5Checksum([5, 2, 4, 9, 5]) == 1)
    }

    @Test func aStrayPatternIsNotAnAddOn() {
        let main = TestSymbols.ean13(Self.ean13)
        // Too far from the symbol (20 modules) to belong to it.
        #expect(Self.read(main + [20] + TestSymbols.addOn("12")).first?.addOn == nil)
        // No quiet zone after the add-on: a bar 2 modules after it.
        #expect(Self.read(main + [9] + TestSymbols.addOn("12") + [2, 2]).first?.addOn == nil)
        // Half the main symbol's module: another symbol's bars, not this symbol's add-on.
        let half = main.map { $0 * 2 } + [18] + TestSymbols.addOn("12")
        #expect(Self.read(half, moduleWidth: 1).first?.addOn == nil)
        // A wrong separator (a 2-module space between the digits).
        var bad = TestSymbols.addOn("12")
        bad[7] = 2
        #expect(Self.read(main + [9] + bad).first?.addOn == nil)
        // Stripes of a fence after the symbol.
        #expect(Self.read(main + [9] + Array(repeating: 1, count: 21)).first?.addOn == nil)
    }

    @Test func linesThatDisagreeOnTheAddOnReportNone() {
        // Two add-ons stacked under one main symbol, equally tall: neither is trusted.
        let a = TestSymbols.render(TestSymbols.ean13(Self.ean13) + [9] + TestSymbols.addOn("12"), height: 20)
        let b = TestSymbols.render(TestSymbols.ean13(Self.ean13) + [9] + TestSymbols.addOn("13"), height: 20)
        let found = BarcodeReader(options: .init(tryRotate: false)).decode(WrongReadTests.stack([a, b]))
        #expect(found.map(\.text) == [Self.ean13])
        #expect(found.first?.addOn == nil)
    }
}

/// Symbols with add-ons rendered by zint with fresh random digits, gap and size on every run (the seed is in
/// every failure message): EAN-13, UPC-A and UPC-E with EAN-2 and EAN-5, and the same symbols without.
@Suite(.enabled(if: ZintRender.available, "zint is missing (apt-get install zint)"))
struct ZintAddOnTests {
    enum Kind: String, CaseIterable { case ean13, upcA, upcE }

    @Test(arguments: Kind.allCases)
    func freshAddOnsAreReadExactly(_ kind: Kind) throws {
        let seed = UInt64.random(in: 1...UInt64(UInt32.max))
        var rng = SeededGenerator(state: seed)
        for scale in ["0.5", "1", "1.5", "2"] {
            for length in [0, 2, 5] {
                let (data, main) = ZintRender.gtin(kind, using: &rng)
                let add = String((0..<length).map { _ in Character(String(Int.random(in: 0...9, using: &rng))) })
                let gap = String(Int.random(in: 7...12, using: &rng))
                let args = ["--scale", scale, "--addongap", gap] + (Bool.random(using: &rng) ? ["--notext"] : [])
                let image = try ZintRender.render(
                    barcode: kind == .ean13 ? 13 : kind == .upcA ? 34 : 37, data: data + (add.isEmpty ? "" : "+" + add),
                    extra: args)
                let found = BarcodeReader().decode(image)
                let context = "seed \(seed), \(kind) \(data)+\(add), scale \(scale), gap \(gap)"
                #expect(found.map(\.text) == [main], "\(context): \(found)")
                #expect(found.first?.addOn == (add.isEmpty ? nil : add), "\(context)")
            }
        }
    }
}

/// The robustness tests' seeded generator (SplitMix64), so that a failing run can be repeated from its seed.
typealias SeededGenerator = RobustnessTests.SplitMix

/// Renders symbols with the `zint` command into a temporary PNG and loads it.
enum ZintRender {
    static let path: String? = ["/usr/bin/zint", "/usr/local/bin/zint"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }
    static var available: Bool { path != nil }

    static func render(barcode: Int, data: String, extra: [String] = []) throws -> GrayscaleImage {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("zint-\(UUID().uuidString).png")
        defer { try? FileManager.default.removeItem(at: out) }
        let status = try ChildProcess(try #require(path), ["-b", String(barcode), "-d", data, "--quietzones", "-o", out.path] + extra).wait()
        #expect(status == 0, "zint -b \(barcode) -d \(data) \(extra)")
        return try ImageLoader.load(path: out.path)
    }

    /// Random data for zint and the text the reader reports (EAN-13 13 digits, UPC-A 12, UPC-E 8).
    static func gtin(_ kind: ZintAddOnTests.Kind, using rng: inout SeededGenerator) -> (data: String, text: String) {
        func digits(_ n: Int) -> [Int] { (0..<n).map { _ in Int.random(in: 0...9, using: &rng) } }
        func string(_ d: [Int]) -> String { d.map(String.init).joined() }
        switch kind {
        case .ean13:
            let d = [Int.random(in: 1...9, using: &rng)] + digits(11)
            let text = string(d + [UPCEAN.checkDigit(d)])
            return (text, text)
        case .upcA:
            let d = [Int.random(in: 1...9, using: &rng)] + digits(10)
            let text = string(d + [UPCEAN.checkDigit(d)])
            return (String(text.dropLast()), text)
        case .upcE:
            // Number system 0; a last digit 5...9 after a non-zero digit is always a valid UPC-E (zint refuses
            // bodies that another UPC-E form should have encoded).
            let body = [0] + digits(4) + [Int.random(in: 1...9, using: &rng), Int.random(in: 5...9, using: &rng)]
            let upca = UPCEAN.upceToUPCA(string(body) + "0")
            let check = UPCEAN.checkDigit(Array(upca.compactMap(\.wholeNumberValue).dropLast()))
            return (string(body), string(body) + String(check))
        }
    }
}
