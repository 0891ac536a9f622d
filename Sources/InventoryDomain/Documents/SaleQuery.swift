import Foundation

/// How to find sales: a search box's words, a customer, a product and a date range, newest first.
///
/// Every word must match the sale (words narrow the list), each in any of: the sale's receipt number (a word of digits
/// is that receipt number exactly), its customer's name, phone, email or location, the name, SKU or barcode of a
/// product on one of its lines, or its note — case- and accent-insensitive, anywhere in the text. A word of digits after
/// `#` (`#1234`) is the receipt number only.
public struct SaleQuery: Sendable, Hashable {
    /// The search box (see the rule above and ``SearchText``).
    public var search: String?
    /// Only this customer's sales.
    public var customerID: CustomerID?
    /// Only sales with a line of this product.
    public var productID: ProductID?
    /// Only sales from this instant on, and up to this one (both inclusive).
    public var from: Instant?
    public var to: Instant?
    public var limit: Int
    public var offset: Int

    /// One word of the search.
    public struct Word: Sendable, Hashable {
        /// The word as typed (matched as text).
        public var text: String
        /// The receipt number it names, when it is a number (`1234` or `#1234`).
        public var receiptNumber: Int64?
        /// Whether it names the receipt number only (`#1234`), not text.
        public var receiptOnly: Bool
    }

    /// A query; checked by ``check()``.
    public init(search: String? = nil, customerID: CustomerID? = nil, productID: ProductID? = nil, from: Instant? = nil, to: Instant? = nil,
                limit: Int = 50, offset: Int = 0) {
        self.search = search
        self.customerID = customerID
        self.productID = productID
        self.from = from
        self.to = to
        self.limit = limit
        self.offset = offset
    }

    /// The search's words (``SearchText/words(_:)``), each with the receipt number it may name.
    /// - Throws: ``InventoryError`` naming `search` (too long, too many words).
    public func words() throws -> [Word] {
        try SearchText.words(self.search).map { word in
            let digits = word.hasPrefix("#") ? word.dropFirst() : Substring(word)
            let number = !digits.isEmpty && digits.count <= 18 && digits.allSatisfy(\.isASCII) && digits.allSatisfy(\.isNumber) ? Int64(digits) : nil
            return Word(text: word, receiptNumber: number, receiptOnly: word.hasPrefix("#") && number != nil)
        }
    }

    /// Checks the query as a whole.
    /// - Throws: ``InventoryError`` naming `to` when the range ends before it starts, or `search` (``words()``).
    public func check() throws {
        _ = try DateRange(from: self.from, to: self.to)
        _ = try self.words()
    }
}
