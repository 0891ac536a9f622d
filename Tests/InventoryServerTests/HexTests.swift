import Foundation
@testable import InventoryServer
import Testing

/// Digests as text: the token hash every signed-in request computes, and the names of pictures and assets.
@Suite struct HexTests {
    @Test func bytesAreTwoLowerCaseDigitsEach() {
        #expect([UInt8]().lowercaseHex == "")
        #expect([0x00, 0x0f, 0x10, 0xab, 0xff].lowercaseHex == "000f10abff")
        // SHA-256 of "abc" (FIPS 180-2, appendix B.1).
        #expect(Secrets.hashToken("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect([0xba, 0x78, 0x16, 0xbf, 0x8f][...3].lowercaseHex == "ba7816bf")
    }
}
