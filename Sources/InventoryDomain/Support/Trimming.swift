import Foundation

extension String {
    /// The text without leading and trailing white space (and line breaks, unless `andNewlines` is false), as
    /// Foundation's `trimmingCharacters(in:)` gives it, but answered without Foundation when the text starts and ends
    /// with a printable ASCII character other than a space: a barcode, a token or an amount, which is what most
    /// requests carry (Foundation's trimming was a measurable part of a barcode lookup, see BENCHMARKS.md).
    public func trimmingWhitespace(andNewlines: Bool = true) -> String {
        guard let first = self.utf8.first, let last = self.utf8.last else { return self }
        if (0x21...0x7E).contains(first) && (0x21...0x7E).contains(last) { return self }
        return self.trimmingCharacters(in: andNewlines ? .whitespacesAndNewlines : .whitespaces)
    }
}
