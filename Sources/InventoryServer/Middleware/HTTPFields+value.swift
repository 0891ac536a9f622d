import HTTPTypes

extension HTTPFields {
    /// The value of the fields named `name`, as `self[name]` reads it: nil when there is none, the one field's value,
    /// or several joined by ", " ("; " for `Cookie`). `self[name]` joins through a lazy map and the generic
    /// `joined(separator:)` even for one field, about 4,000 instructions a read; this asks whether there is one, and
    /// joins only when there are several. Every request reads two or three (`Authorization`, the answer's
    /// `Content-Type`).
    func value(_ name: HTTPField.Name) -> String? {
        guard self.contains(name) else { return nil }
        let values = self[values: name]
        return values.count == 1 ? values[0] : values.joined(separator: name == .cookie ? "; " : ", ")
    }
}
