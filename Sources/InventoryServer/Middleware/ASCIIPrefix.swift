extension String {
    /// Whether the text starts with `prefix` (lower-case ASCII) whatever the case of its own ASCII letters, read from
    /// the UTF-8 bytes without a lower-cased copy. (No non-ASCII text lower-cases to an ASCII prefix without its letters
    /// `i` or `k`, which header schemes and media types such as `bearer ` and `text/html` do not begin with.)
    func hasPrefix(asciiCaseInsensitive prefix: String) -> Bool {
        var bytes = self.utf8.makeIterator()
        for expected in prefix.utf8 {
            guard let byte = bytes.next(), (byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte) == expected else { return false }
        }
        return true
    }
}
