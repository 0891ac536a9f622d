import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import InventoryStore
@testable import InventoryServer
import Testing

/// How the sign-in middleware reads a token: the bearer scheme in any case, the session cookie as Hummingbird reads it,
/// and the token's hash as the store keeps it.
@Suite struct SignInHeaderTests {
    @Test func theBearerSchemeIsReadInAnyCaseAndNothingElseIsIt() {
        for header in ["Bearer abc", "bearer abc", "BEARER abc", "bEaReR abc", "Bearer "] {
            #expect(AuthMiddleware<InventorySQLiteRepository>.isBearer(header), "\(header)")
        }
        for header in ["Basic abc", "Bearer", "Bearerabc", "Bearer\tabc", " Bearer abc", "", "Béarer abc", "Bearer\u{0}abc"] {
            #expect(!AuthMiddleware<InventorySQLiteRepository>.isBearer(header), "\(header)")
        }
        // The answer by bytes is the answer of lower-casing the header (what the middleware asked before).
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array("bBeEaArRiIkK \u{212A}\u{130}xé")
        for _ in 0..<5_000 {
            // Half the headers start with the scheme in a random case, with a letter or the space sometimes changed.
            var header = Bool.random(using: &generator)
                ? String("bearer ".map { Bool.random(using: &generator) ? Character($0.uppercased()) : $0 }) : ""
            if !header.isEmpty && Int.random(in: 0..<4, using: &generator) == 0 {
                var characters = Array(header)
                characters[Int.random(in: 0..<characters.count, using: &generator)] = alphabet.randomElement(using: &generator)!
                header = String(characters)
            }
            header += String((0..<Int.random(in: 0...9, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! })
            #expect(AuthMiddleware<InventorySQLiteRepository>.isBearer(header) == header.lowercased().hasPrefix("bearer "), "\(header.debugDescription)")
        }
    }

    @Test func aTokensHashIsTheSHA256OfItsUTF8InLowercaseHex() {
        for token in ["", "abc", "tötö-🔑", String(repeating: "x", count: 1_000)] {
            let expected = SHA256.hash(data: Data(token.utf8)).map { String(format: "%02x", $0) }.joined()
            #expect(Secrets.hashToken(token) == expected)
        }
    }

    /// The session cookie read from the bytes is the one Hummingbird's cookie parser reads, on random `Cookie` fields
    /// made of names, separators, spaces, tabs and (for the fallback) non-ASCII text.
    @Test func theSessionCookieIsWhatHummingbirdsParserReads() {
        typealias Auth = AuthMiddleware<InventorySQLiteRepository>
        #expect(Auth.sessionCookie(["stockroom_session=abc"]) == "abc")
        #expect(Auth.sessionCookie(["theme=dark", " stockroom_session=a=b; Path=/"]) == "a=b")
        #expect(Auth.sessionCookie(["stockroom_session"]) == nil && Auth.sessionCookie([]) == nil)
        #expect(Auth.sessionCookie(["stockroom_session =x; stockroom_session=y"]) == "y")
        var generator = SystemRandomNumberGenerator()
        let pieces = ["stockroom_session", "stockroom_sessio", "other", "=", "=", ";", ";", " ", "\t", "\r\n", "abc", "\"q\"",
                      "\u{A0}", "é"]
        var nonASCII = 0
        for _ in 0..<20_000 {
            let fields = (0..<Int.random(in: 0...3, using: &generator)).map { _ in
                (0..<Int.random(in: 0...8, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined()
            }
            if fields.contains(where: { $0.utf8.contains { $0 >= 0x80 } }) { nonASCII += 1 }
            #expect(Auth.sessionCookie(fields) == Cookies(from: fields)[AuthNames.cookie]?.value, "\(fields)")
        }
        #expect(nonASCII > 1_000 && nonASCII < 19_000, "both readings were compared")
    }

    /// `HTTPFields.value(_:)` reads what the library's subscript reads: none, one, several joined (cookies by "; ").
    @Test func aFieldsValueIsWhatTheSubscriptReads() throws {
        var generator = SystemRandomNumberGenerator()
        let names: [HTTPField.Name] = [.authorization, .contentType, .cookie, .ifNoneMatch, try #require(HTTPField.Name("X-Other"))]
        let values = ["", "a", "Bearer abc", "text/html; charset=utf-8", "x=1", "é", " spaced "]
        var several = 0
        for _ in 0..<5_000 {
            var fields = HTTPFields()
            for _ in 0..<Int.random(in: 0...6, using: &generator) {
                fields.append(HTTPField(name: names.randomElement(using: &generator)!, value: values.randomElement(using: &generator)!))
            }
            for name in names {
                if fields[fields: name].count > 1 { several += 1 }
                #expect(fields.value(name) == fields[name], "\(fields) \(name)")
            }
        }
        #expect(several > 1_000, "several fields of one name were read")
    }
}
