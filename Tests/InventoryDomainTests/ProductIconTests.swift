import InventoryDomain
import Testing

/// The default icon from a product's name: the table's first entry with a keyword in the name.
@Suite struct ProductIconTests {
    @Test(arguments: [
        ("Espresso beans", "☕"), ("Oat milk latte", "☕"), ("Coffee cake", "☕"), ("Café crème", "☕"),
        ("cafe\u{301} au lait", "☕"),            // "café" written with a combining accent is the same word
        ("Teas", "🍵"), ("Tea cup", "🍵"), ("Cheesecake slice", "🍰"), ("Brownies", "🍰"),
        ("Chocolate chip cookies", "🍪"), ("Hot dog bun", "🌭"), ("HOT-DOG", "📦"), ("Orange juice", "🧃"),
        ("Sparkling water", "💧"), ("Rosé wine", "🍷"), ("Rose", "🌷"), ("Roses", "🌷"), ("Eggs", "🥚"),
        ("Strawberries", "🍓"), ("Tote BAG", "🛍️"), ("Boxes", "📦"), ("Flat white", "☕"), ("Flat-white", "📦"),
        ("T-shirt, blue", "👕"), ("Tee shirt", "🍵"), ("Pencils", "✏️"), ("Caps", "🧢"), ("Subway map", "📦"),
        ("Torx screwdriver", "📦"), ("", "📦"), ("🍩 special", "📦"), ("Doughnut", "🍩"), ("Gift card", "🃏"), ("Milk,2l", "🥛"), ("eggs12", "🥚"), ("AA batteries 4-pack", "📦"),
        ("12 x tea", "🍵"), ("naïve tea", "🍵"), ("tea\r\ncake", "🍵"),
    ])
    func picksTheFirstEntryWithAKeywordInTheName(name: String, emoji: String) {
        #expect(ProductIcon.emoji(for: name) == emoji, "\(name)")
    }
}
