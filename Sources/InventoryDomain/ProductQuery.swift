import Foundation

/// The rule for every search box: at most ``maximumWords`` words and ``maximumCharacters`` characters, so no search
/// can make the database check an unbounded number of conditions.
public enum SearchText {
    /// The most words a search may have (each is one more condition for the database to check).
    public static let maximumWords = 8
    /// The longest search text, in Unicode scalars.
    public static let maximumCharacters = 200

    /// The search split into words (an empty list when there is no search).
    /// - Throws: ``InventoryError`` naming `search` when it has more than ``maximumWords`` words or
    ///   ``maximumCharacters`` characters.
    public static func words(_ text: String?) throws -> [String] {
        guard let search = text?.trimmingCharacters(in: .whitespacesAndNewlines), !search.isEmpty else { return [] }
        guard search.unicodeScalars.count <= self.maximumCharacters else {
            throw InventoryError(.invalidValue, field: "search", "must be at most \(self.maximumCharacters) characters")
        }
        let words = search.split(whereSeparator: \.isWhitespace).map(String.init)
        guard words.count <= self.maximumWords else {
            throw InventoryError(.invalidValue, field: "search", "may have at most \(self.maximumWords) words (it has \(words.count))")
        }
        return words
    }

    /// The text a record is found by (`searchKey` in every backend): its parts joined by spaces, lower-cased, with
    /// accents and widths folded, so "creme" finds "Crème" whatever the database's own collation does.
    public static func key(_ parts: String?...) -> String {
        self.key(parts)
    }

    /// ``key(_:)-(String?...)`` of a list of parts.
    public static func key(_ parts: [String?]) -> String {
        let text = parts.compactMap { $0 }.joined(separator: " ")
        // Printable ASCII has no accents or widths to fold: lower-casing its capitals is the whole folding, and costs a
        // fraction of Foundation's (about 200 instructions a byte; every search folds its text and each word).
        if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) {
            return String(decoding: text.utf8.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }, as: UTF8.self)
        }
        return Self.foldedByFoundation(text)
    }

    /// The folding of ``key(_:)-(String?...)`` for any text (what its ASCII path is held to in the tests).
    public static func foldedByFoundation(_ text: String) -> String {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: Locale(identifier: "en_US_POSIX"))
            .lowercased()
    }
}

/// How to list products.
public struct ProductQuery: Sendable, Hashable {
    /// Words matched against name, SKU and barcode (case- and accent-insensitive, substring).
    public var search: String?
    public var categoryID: CategoryID?
    public var status: StockStatus?
    public var includeArchived: Bool
    public var sort: Sort
    public var limit: Int
    public var offset: Int

    /// Sort orders.
    public enum Sort: String, Sendable, CaseIterable {
        case name, quantity, value, salePrice, updated
    }

    /// The search split into words (see ``SearchText/words(_:)``).
    public func searchWords() throws -> [String] { try SearchText.words(self.search) }

    /// Creates a query.
    public init(search: String? = nil, categoryID: CategoryID? = nil, status: StockStatus? = nil, includeArchived: Bool = false,
                sort: Sort = .name, limit: Int = 100, offset: Int = 0) {
        self.search = search
        self.categoryID = categoryID
        self.status = status
        self.includeArchived = includeArchived
        self.sort = sort
        self.limit = limit
        self.offset = offset
    }
}
