/// Text as both stores receive it: up to its first NUL.
///
/// SQLite gets every text parameter as a C string (GRDB binds it with length -1), so a NUL ends it: a product named
/// "Jam\u{0}x" is stored as "Jam", and a search or lookup for "ff-1\u{0}x" looks for "ff-1". PostgreSQL refuses a
/// NUL in text altogether; binding the same prefix there keeps the two stores' answers the same (and never fails).
public enum StoredText {
    /// `text` up to its first NUL (all of it when it has none).
    public static func bound(_ text: String) -> String {
        guard text.utf8.contains(0) else { return text }
        var scalars = String.UnicodeScalarView()
        scalars.append(contentsOf: text.unicodeScalars.prefix { $0.value != 0 })
        return String(scalars)
    }

    /// ``bound(_:)`` of an optional text.
    public static func bound(_ text: String?) -> String? { text.map { self.bound($0) } }
}
