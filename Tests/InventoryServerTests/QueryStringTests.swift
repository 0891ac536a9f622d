import Foundation
@testable import InventoryServer
import InventoryDomain
import Testing

/// ``QueryString`` reads a query by its bytes; what it answers is what Foundation's decoding of each pair answered.
@Suite struct QueryStringTests {
    /// The reading it replaced: pairs split at `&`, each name and value with `+` made a space and then
    /// `removingPercentEncoding` (the text as it was when that answers nil).
    static func foundationValue(of name: String, in raw: String) -> String? {
        func decode(_ part: Substring) -> String {
            let text = part.replacingOccurrences(of: "+", with: " ")
            return text.removingPercentEncoding ?? text
        }
        for pair in raw.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            if decode(parts[0]) == name { return parts.count > 1 ? decode(parts[1]) : "" }
        }
        return nil
    }

    @Test func knownQueries() {
        #expect(QueryString.value(of: "search", in: "search=flat+white") == "flat white")
        #expect(QueryString.value(of: "search", in: "limit=8&search=flat%20white&search=x") == "flat white")
        #expect(QueryString.value(of: "search", in: "search") == "")
        #expect(QueryString.value(of: "search", in: "se%61rch=cr%C3%A8me") == "crème")
        #expect(QueryString.value(of: "search", in: "search=100%") == "100%", "a lone % is kept as it came")
        #expect(QueryString.value(of: "search", in: "search=%FF+x") == "%FF x", "bytes that are not UTF-8 are kept as they came")
        #expect(QueryString.value(of: "search", in: "&&search=a=b") == "a=b")
        #expect(QueryString.value(of: "search", in: "searching=1&Search=2") == nil)
        #expect(QueryString.value(of: "limit", in: "") == nil)
    }

    /// Random queries of the pieces that matter (separators, `+`, `%` with and without hexadecimal digits, encoded UTF-8
    /// and broken UTF-8, non-ASCII text): every parameter reads as Foundation read it.
    @Test func everyValueIsWhatFoundationsDecodingGave() {
        var random = SeededRandom(seed: 2_026_113_0)
        let pieces = ["&", "&", "=", "=", "+", "%", "%2", "%20", "%2B", "%26", "%3D", "%C3%A8", "%C3", "%A8", "%e2%82%ac", "%zz", "%0",
                      "%00", "search", "limit", "sea", "rch", "a", "B", "1", "é", "e\u{301}", "€", " ", "-", "_", "."]
        let names = ["search", "limit", "a", "B", "search=", "", "é", "e\u{301}", " "]
        var compared = 0
        for _ in 0..<20_000 {
            let count = Int(random.next() % 9)
            let raw = (0..<count).map { _ in pieces[Int(random.next() % UInt64(pieces.count))] }.joined()
            for name in names {
                let expected = Self.foundationValue(of: name, in: raw)
                let actual = QueryString.value(of: name, in: raw)
                // Foundation compared names as Swift strings (canonical equivalence); the bytes are compared here, so
                // "é" written two ways are two names. Only those cases may differ.
                if name.unicodeScalars.allSatisfy(\.isASCII) || expected == nil && actual == nil {
                    #expect(actual == expected, "\(name.debugDescription) in \(raw.debugDescription)")
                }
                if expected != nil { compared += 1 }
            }
        }
        #expect(compared > 2_000, "many queries hold one of the names")
    }
}
