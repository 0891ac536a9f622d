import InventoryDomain
import Testing

@Suite struct BarcodeTests {
    @Test(arguments: [
        ("4006381333931", "4006381333931"),  // EAN-13
        ("036000291452", "0036000291452"),  // UPC-A → GTIN-13
        ("96385074", "96385074"),  // EAN-8
        ("00036000291452", "0036000291452"),  // GTIN-14 with leading zero
        ("01234565", "0012345000065"),  // UPC-E → its UPC-A as GTIN-13
        ("ABC-123", "ABC-123"),  // Code 128 / Code 39 text kept
        ("https://example.com/p/1", "https://example.com/p/1"),  // QR text kept
    ])
    func normalises(input: String, expected: String) throws {
        #expect(try Barcode.normalize(input) == expected)
    }

    @Test(arguments: ["4006381333932", "036000291453", "96385075", "01234567"])
    func refusesBadCheckDigits(input: String) {
        #expect(throws: InventoryError(.invalidValue, field: "barcode", "")) { try Barcode.normalize(input) }
    }

    @Test func badCheckDigitMessageSaysTheRightDigit() {
        do {
            _ = try Barcode.normalize("4006381333932")
        } catch let error as InventoryError {
            #expect(error.userMessage.contains("should be 1"))
        } catch {
            Issue.record("unexpected error \(error)")
        }
    }

    @Test func upcAUpcEAndEan13FindTheSameProduct() throws {
        let stored = try Barcode.normalize("012345000065")
        #expect(Barcode.lookupCandidates("01234565").contains(stored))
        #expect(Barcode.lookupCandidates("012345000065").contains(stored))
        #expect(Barcode.lookupCandidates("0012345000065").contains(stored))
    }

    @Test func upcEExpansionRules() {
        #expect(Barcode.expandUPCE("01234565") == "012345000065")
        #expect(Barcode.expandUPCE("04252614") == "042100005264")
        #expect(Barcode.expandUPCE("21234565") == nil)
        #expect(Barcode.expandUPCE("0123") == nil)
    }

    @Test func refusesEmptyAndUnprintable() {
        #expect(throws: InventoryError(.missingValue, field: "barcode", "")) { try Barcode.normalize("  ") }
        #expect(throws: InventoryError(.invalidValue, field: "barcode", "")) { try Barcode.normalize("ab\u{7}c") }
    }

    @Test func checkDigit() {
        #expect(Barcode.checkDigit([4, 0, 0, 6, 3, 8, 1, 3, 3, 3, 9, 3]) == 1)
        #expect(Barcode.hasValidCheckDigit([9, 6, 3, 8, 5, 0, 7, 4]))
        #expect(!Barcode.hasValidCheckDigit([1]))
    }
}
