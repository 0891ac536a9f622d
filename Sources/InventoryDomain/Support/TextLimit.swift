/// How long a text field may be, counted three ways: characters (what a person sees), Unicode scalars and UTF-8 bytes.
///
/// Counting characters alone is not enough: one letter followed by two megabytes of combining marks is a single
/// character. Every text field checks its length through ``check(_:field:)`` so the rule lives in one place.
///
/// By default a field of `n` characters may hold `4 n` scalars (accents, joined emoji and flags take several) and
/// `8 n` bytes; the bytes are checked first because that costs nothing, whatever the input.
public struct TextLimit: Sendable, Hashable {
    /// Most characters (grapheme clusters).
    public var characters: Int
    /// Most Unicode scalars.
    public var scalars: Int
    /// Most UTF-8 bytes.
    public var bytes: Int

    /// A limit of `characters` characters, with `scalars` scalars (default 4 per character) and `bytes` bytes
    /// (default 8 per character).
    public init(characters: Int, scalars: Int? = nil, bytes: Int? = nil) {
        self.characters = characters
        self.scalars = scalars ?? characters * 4
        self.bytes = bytes ?? characters * 8
    }

    /// Product, contact and user names.
    public static let name = TextLimit(characters: 200)
    /// Category names and the shop's name.
    public static let shortName = TextLimit(characters: 100)
    /// A member of staff's job title (barista, kitchen, shift manager).
    public static let jobTitle = TextLimit(characters: 40)
    /// Usernames (which also allow only letters, digits, `.`, `-` and `_`).
    public static let username = TextLimit(characters: 40)
    /// Barcodes as text (Code 128, QR …).
    public static let barcode = TextLimit(characters: 128)
    /// Where a product sits: an aisle, a shelf or a bin.
    public static let shelf = TextLimit(characters: 40)
    /// SKUs.
    public static let sku = TextLimit(characters: 64)
    /// Units such as `pcs` or `kg`.
    public static let unit = TextLimit(characters: 20)
    /// Phone numbers.
    public static let phone = TextLimit(characters: 40)
    /// E-mail addresses (RFC 5321's 254 octets).
    public static let email = TextLimit(characters: 254, bytes: 254)
    /// Addresses, lot codes and other one-line details.
    public static let line = TextLimit(characters: 200)
    /// Notes on documents and contacts.
    public static let note = TextLimit(characters: 2000)
    /// A product's icon: one character (an emoji, possibly joined and with a skin tone) of at most 16 scalars and 64 bytes.
    public static let icon = TextLimit(characters: 1, scalars: 16, bytes: 64)

    /// Why `text` is too long, or nil when it fits.
    public func violation(_ text: String) -> String? {
        if text.utf8.count > self.bytes { return "is longer than \(self.bytes) bytes of UTF-8 text" }
        // SQLite keeps a NUL, but text read back as a C string ends there: "\u{0}Acme" would come back empty.
        if text.utf8.contains(0) { return "must not contain a NUL character" }
        // Stop counting once past the limit: a long text costs no more than the limit.
        var scalars = 0
        for _ in text.unicodeScalars {
            scalars += 1
            if scalars > self.scalars {
                return "has more than \(self.scalars) Unicode code points (too many accents or joined symbols)"
            }
        }
        var characters = 0
        for _ in text {
            characters += 1
            if characters > self.characters { return "is longer than \(self.characters) \(self.characters == 1 ? "character" : "characters")" }
        }
        return nil
    }

    /// Checks `text` against the limit.
    /// - Throws: ``InventoryError`` (`invalidValue`) naming `field`, saying which limit was passed.
    public func check(_ text: String, field: String) throws {
        if let reason = self.violation(text) { throw InventoryError(.invalidValue, field: field, reason) }
    }
}
