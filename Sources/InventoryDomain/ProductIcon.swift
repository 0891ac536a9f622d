/// Picks an emoji for a product from its name, used as the default picture.
public enum ProductIcon {
    private static let table: [(keywords: [String], emoji: String)] = [
        (["espresso", "coffee", "latte", "cappuccino", "americano", "mocha", "macchiato", "flat white", "kaffee", "café"], "☕"),
        (["tea", "chai", "matcha", "tee"], "🍵"),
        (["croissant"], "🥐"), (["bagel"], "🥯"), (["bread", "loaf", "baguette", "brot", "toast"], "🍞"),
        (["muffin", "cupcake"], "🧁"), (["cake", "cheesecake", "brownie", "torte", "kuchen"], "🍰"), (["cookie", "biscuit"], "🍪"),
        (["donut", "doughnut"], "🍩"), (["pie", "tart"], "🥧"), (["sandwich", "panini", "sub"], "🥪"), (["salad"], "🥗"),
        (["soup"], "🍲"), (["pizza"], "🍕"), (["burger"], "🍔"), (["fries"], "🍟"), (["hot dog"], "🌭"),
        (["milk", "cream", "oat"], "🥛"), (["juice", "orange"], "🧃"), (["water", "sparkling"], "💧"),
        (["soda", "cola", "lemonade", "tonic"], "🥤"), (["beer", "ale", "lager"], "🍺"), (["wine"], "🍷"),
        (["chocolate", "cocoa"], "🍫"), (["candy", "sweet"], "🍬"), (["ice cream", "gelato"], "🍨"),
        (["apple"], "🍎"), (["banana"], "🍌"), (["lemon"], "🍋"), (["strawberr"], "🍓"), (["grape"], "🍇"),
        (["egg"], "🥚"), (["cheese"], "🧀"), (["honey"], "🍯"), (["sugar", "syrup"], "🍯"), (["bean"], "🫘"),
        (["cup", "lid", "sleeve"], "🥤"), (["napkin", "tissue", "paper"], "🧻"), (["bag"], "🛍️"),
        (["book"], "📕"), (["pen", "pencil"], "✏️"), (["card"], "🃏"), (["game", "puzzle"], "🧩"), (["toy"], "🧸"),
        (["battery"], "🔋"), (["cable", "charger"], "🔌"), (["soap", "shampoo"], "🧼"), (["candle"], "🕯️"),
        (["flower", "rose", "tulip"], "🌷"), (["plant"], "🪴"), (["shirt", "t-shirt", "tee shirt"], "👕"),
        (["hat", "cap"], "🧢"), (["sock"], "🧦"), (["box"], "📦"),
    ]

    /// The table's keywords for a quick look-up: a short keyword is a whole word of the name (or it with "s" or
    /// "es"), a long one (six characters or more, or with a space) a part of it. Each maps to its entry's position,
    /// the earliest entry winning, so the answer is the table's first entry with a keyword in the name.
    private static let index: (words: [String: Int], parts: [(entry: Int, keyword: String, bytes: [UInt8])]) = {
        var words: [String: Int] = [:]
        var parts: [(entry: Int, keyword: String, bytes: [UInt8])] = []
        for (entry, row) in Self.table.enumerated() {
            for keyword in row.keywords {
                if keyword.contains(" ") || keyword.count >= 6 {
                    parts.append((entry, keyword, Array(keyword.utf8)))
                } else {
                    for form in [keyword, keyword + "s", keyword + "es"] where words[form] == nil { words[form] = entry }
                }
            }
        }
        return (words, parts)
    }()

    /// The emoji for a product name, or 📦 when nothing matches.
    public static func emoji(for name: String) -> String {
        let lower = name.lowercased()
        var best = Int.max
        let bytes = Array(lower.utf8)
        func look(_ word: String) {
            if let entry = Self.index.words[word], entry < best { best = entry }
        }
        if bytes.allSatisfy({ $0 < 0x80 }) {
            // ASCII (most names): the letters of a lower-cased name are a–z, and its words are their runs.
            var start: Int?
            for (offset, byte) in bytes.enumerated() {
                let letter = byte >= 0x61 && byte <= 0x7A
                if letter, start == nil { start = offset }
                if !letter, let first = start {
                    look(String(decoding: bytes[first..<offset], as: UTF8.self))
                    start = nil
                }
            }
            if let first = start { look(String(decoding: bytes[first...], as: UTF8.self)) }
        } else {
            for word in lower.split(whereSeparator: { !$0.isLetter }) { look(String(word)) }
        }
        // A long keyword's bytes must occur in the name's before the (slower, Unicode-aware) `contains` is asked; the
        // keywords are ASCII, so a match as characters is always a match as bytes. The parts are in table order.
        for part in Self.index.parts where part.entry < best {
            if Self.occurs(part.bytes, in: bytes) && lower.contains(part.keyword) { best = part.entry; break }
        }
        return best == .max ? "📦" : Self.table[best].emoji
    }

    private static func occurs(_ needle: [UInt8], in haystack: [UInt8]) -> Bool {
        guard needle.count <= haystack.count, let first = needle.first else { return needle.isEmpty }
        var start = 0
        while start <= haystack.count - needle.count {
            if haystack[start] == first {
                var offset = 1
                while offset < needle.count && haystack[start + offset] == needle[offset] { offset += 1 }
                if offset == needle.count { return true }
            }
            start += 1
        }
        return false
    }
}

extension ProductIcon {
    /// Checks an icon: one character (an emoji, possibly joined or with a skin tone), at most
    /// ``TextLimit/icon`` (16 Unicode scalars, 64 bytes).
    /// - Throws: ``InventoryError`` naming `field`.
    public static func validate(_ icon: String, field: String) throws {
        if let reason = TextLimit.icon.violation(icon) {
            throw InventoryError(.invalidValue, field: field, "must be a single emoji (\(reason))")
        }
    }
}
