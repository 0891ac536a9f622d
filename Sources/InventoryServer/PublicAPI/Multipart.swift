import Foundation

/// A `multipart/form-data` body (RFC 7578) split into its parts.
struct MultipartForm: Sendable {
    struct Part: Sendable {
        var name: String
        var filename: String?
        var contentType: String?
        var data: [UInt8]
        var text: String? { String(bytes: self.data, encoding: .utf8) }
    }

    var parts: [Part]

    /// The first text field with this name.
    func field(_ name: String) -> String? { self.parts.first { $0.name == name && $0.filename == nil }?.text }

    /// Every file part with this name.
    func files(_ name: String) -> [Part] { self.parts.filter { $0.name == name && $0.filename != nil } }

    /// The boundary of a `multipart/form-data; boundary=…` content type.
    static func boundary(contentType: String?) -> String? {
        guard let contentType, contentType.lowercased().hasPrefix("multipart/form-data") else { return nil }
        for parameter in contentType.split(separator: ";").dropFirst() {
            let pair = parameter.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            if pair.count == 2, pair[0].lowercased() == "boundary" {
                let value = pair[1].trimmingCharacters(in: CharacterSet(charactersIn: "\""))
                return value.isEmpty || value.count > 200 ? nil : value
            }
        }
        return nil
    }

    /// Splits a body; nil when it is not well-formed multipart.
    static func parse(_ body: [UInt8], boundary: String) -> MultipartForm? {
        let delimiter = Array("--\(boundary)".utf8)
        var positions: [Int] = []
        var index = 0
        while let found = Self.find(delimiter, in: body, from: index) {
            positions.append(found)
            index = found + delimiter.count
        }
        guard positions.count >= 2 else { return nil }
        var parts: [Part] = []
        for (start, end) in zip(positions, positions.dropFirst()) {
            var partStart = start + delimiter.count
            // Skip the CRLF after the delimiter.
            if partStart + 1 < body.count, body[partStart] == 13, body[partStart + 1] == 10 { partStart += 2 } else { return nil }
            var partEnd = end
            if partEnd >= 2, body[partEnd - 2] == 13, body[partEnd - 1] == 10 { partEnd -= 2 }
            guard partStart <= partEnd else { return nil }
            let part = Array(body[partStart..<partEnd])
            guard let split = Self.find([13, 10, 13, 10], in: part, from: 0) else { return nil }
            guard let headerText = String(bytes: part[0..<split], encoding: .utf8) else { return nil }
            var name: String?, filename: String?, contentType: String?
            for line in headerText.components(separatedBy: "\r\n") {
                let pair = line.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
                guard pair.count == 2 else { continue }
                switch pair[0].lowercased() {
                case "content-disposition":
                    for item in pair[1].split(separator: ";").map({ $0.trimmingCharacters(in: .whitespaces) }) {
                        let kv = item.split(separator: "=", maxSplits: 1).map(String.init)
                        guard kv.count == 2 else { continue }
                        let value = kv[1].trimmingCharacters(in: CharacterSet(charactersIn: "\""))
                        if kv[0].lowercased() == "name" { name = value }
                        if kv[0].lowercased() == "filename" { filename = value }
                    }
                case "content-type": contentType = pair[1]
                default: break
                }
            }
            guard let name else { return nil }
            parts.append(Part(name: name, filename: filename, contentType: contentType, data: Array(part[(split + 4)...])))
        }
        return MultipartForm(parts: parts)
    }

    static func find(_ needle: [UInt8], in haystack: [UInt8], from start: Int) -> Int? {
        guard !needle.isEmpty, haystack.count >= needle.count, start <= haystack.count - needle.count else { return nil }
        var index = start
        let first = needle[0]
        while index <= haystack.count - needle.count {
            if haystack[index] == first && Array(haystack[index..<(index + needle.count)]) == needle { return index }
            index += 1
        }
        return nil
    }
}
