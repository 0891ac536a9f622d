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

    /// The emoji for a product name, or 📦 when nothing matches.
    public static func emoji(for name: String) -> String {
        let lower = name.lowercased()
        let words = Set(lower.split(whereSeparator: { !$0.isLetter }).map(String.init))
        for entry in self.table {
            for keyword in entry.keywords {
                if keyword.contains(" ") || keyword.count >= 6 {
                    if lower.contains(keyword) { return entry.emoji }
                } else if words.contains(keyword) || words.contains(keyword + "s") || words.contains(keyword + "es") {
                    return entry.emoji
                }
            }
        }
        return "📦"
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
