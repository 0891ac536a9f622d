import HTTPTypes

extension HTTPFields {
    /// The value of the fields named `name`, as `self[name]` reads it: nil when there is none, the one field's value,
    /// or several joined by ", " ("; " for `Cookie`). `self[name]` joins through a lazy map and the generic
    /// `joined(separator:)` even for one field, about 4,000 instructions a read; this is one pass over the fields,
    /// and every request reads two or three (`Authorization`, the answer's `Content-Type`).
    func value(_ name: HTTPField.Name) -> String? {
        var value: String?
        for field in self where field.name == name {
            if let first = value {
                value = first + (name == .cookie ? "; " : ", ") + field.value
            } else {
                value = field.value
            }
        }
        return value
    }
}
