import BarcodeImage
@testable import BarcodeReader
import ChildProcess
import Foundation
import Testing

/// QR Codes rendered by segno with ECI, Kanji mode and structured append (issue 11, point 4), read back with
/// the right characters and the ECI designators and sequence positions reported.
@Suite(.enabled(if: SegnoRender.available, "segno is missing (.venv-barcode with segno, see scripts/barcode-gen.py)"))
struct QRContentTests {
    /// (Python codec, ECI designator, text); segno writes no ECI for ISO-8859-1, QR Code's default (0 here).
    static let eciTexts: [(String, Int, String)] = [
        ("utf-8", 26, "Grüße € 日本"), ("iso-8859-1", 0, "Grüße"), ("iso-8859-2", 4, "Łódź"), ("iso-8859-5", 7, "Привет"),
        ("iso-8859-7", 9, "Καλημέρα"), ("iso-8859-15", 17, "€uro œ"), ("cp1251", 22, "Привет"),
        ("cp1252", 23, "€ “x”"), ("shift_jis", 20, "日本語"), ("big5", 28, "中文"), ("euc_kr", 30, "한글"),
        ("utf-16-be", 25, "Grüße €"),
    ]

    @Test(arguments: eciTexts)
    func eciIsDecodedToTheRightCharacters(_ codec: String, _ eci: Int, _ text: String) throws {
        let images = try SegnoRender.render(
            "q = segno.make_qr(TEXT, eci=True, encoding=\(SegnoRender.literal(codec)), mode='byte')\n"
                + "q.save(out('0'), scale=3, border=4)", text: text)
        let found = BarcodeReader().decode(try #require(images.first))
        #expect(found.map(\.text) == [text], "\(codec)")
        #expect(found.first?.eci == (eci == 0 ? [] : [eci]), "\(codec)")
    }

    @Test(arguments: ["日本語のテキスト", "点茗", "漢字モード、ＱＲコード"])
    func kanjiModeIsShiftJISDecoded(_ text: String) throws {
        let images = try SegnoRender.render(
            "q = segno.make_qr(TEXT, mode='kanji')\nassert q.mode == 'kanji'\nq.save(out('0'), scale=3, border=4)",
            text: text)
        let found = BarcodeReader().decode(try #require(images.first))
        #expect(found.map(\.text) == [text])
        #expect(found.first?.eci == [])
    }

    @Test(arguments: [2, 3, 4])
    func structuredAppendPositionsAndParity(_ count: Int) throws {
        let text = "Stockroom structured append: the quick brown fox jumps over the lazy dog, 0123456789. " + String(count)
        let images = try SegnoRender.render(
            "seq = segno.make_sequence(TEXT, symbol_count=\(count))\nassert len(seq) == \(count)\n"
                + "for i, q in enumerate(seq): q.save(out(str(i)), scale=2, border=4)", text: text)
        #expect(images.count == count)
        let parity = text.utf8.reduce(UInt8(0), ^)
        var parts: [String] = []
        for (k, image) in images.enumerated() {
            let found = BarcodeReader().decode(image)
            #expect(found.count == 1, "symbol \(k)")
            let sa = found.first?.structuredAppend
            #expect(sa == StructuredAppend(position: k, total: count, parity: Int(parity)), "symbol \(k)")
            parts.append(found.first?.text ?? "")
        }
        #expect(parts.joined() == text)
    }

    @Test func aLoneSymbolHasNoSequence() throws {
        let images = try SegnoRender.render("segno.make_qr(TEXT).save(out('0'), scale=3, border=4)", text: "alone")
        let found = BarcodeReader().decode(try #require(images.first))
        #expect(found.map(\.text) == ["alone"])
        #expect(found.first?.structuredAppend == nil)
        #expect(found.first?.gs1 == false)
    }
}

/// Runs a short segno script with the repository's `.venv-barcode` Python; the script sees `segno`, `TEXT` and
/// `out(name)` (a PNG path in a fresh folder) and the images it saved come back sorted by name.
enum SegnoRender {
    static let python = GeneratedCorpus.repository.appendingPathComponent(".venv-barcode/bin/python").path
    static let available: Bool = {
        guard FileManager.default.isExecutableFile(atPath: python) else { return false }
        return (try? run("import segno")) == 0
    }()

    static func literal(_ s: String) -> String {
        "'" + s.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'") + "'"
    }

    private static func run(_ script: String) throws -> Int32 {
        try ChildProcess(python, ["-c", script]).wait()
    }

    static func render(_ body: String, text: String) throws -> [GrayscaleImage] {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("segno-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        // The text travels as UTF-8 hex so that no quoting can change it.
        let hex = text.utf8.map { String(format: "%02x", $0) }.joined()
        let script = """
            import os, segno
            TEXT = bytes.fromhex('\(hex)').decode('utf-8')
            def out(name): return os.path.join(\(literal(folder.path)), name + '.png')
            \(body)
            """
        let status = try run(script)
        #expect(status == 0, "segno script failed: \(body)")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".png") }
            .sorted { $0.count == $1.count ? $0 < $1 : $0.count < $1.count }
        return try names.map { try ImageLoader.load(path: folder.appendingPathComponent($0).path) }
    }
}
