import Foundation
import Hummingbird
import InventoryDomain

/// The shop's currency and calendar, for reading and writing amounts and dates.
struct Formats: Sendable {
    var currency: Currency
    var calendar: ShopCalendar

    /// An amount a request gave, within the domain's limit (``Money/maximum``; far beyond any shop, small enough that
    /// the books' sums stay inside 64 bits).
    func money(_ text: String, field: String) throws -> Money {
        let money = try Money.parse(text, currency: self.currency, field: field)
        try money.requireWithinLimit(field: field, currency: self.currency)
        return money
    }
    func money(_ text: String?, field: String) throws -> Money? { try text.map { try self.money($0, field: field) } }

    /// A quantity a request gave, within the domain's limit (``Quantity/maximum``).
    func quantity(_ text: String, field: String) throws -> Quantity {
        let quantity = try Quantity.parse(text, field: field)
        try quantity.requireWithinLimit(field: field)
        return quantity
    }

    func string(_ money: Money) -> String { money.decimalString(self.currency) }
    /// A kept average at full precision (`0.255000` in EUR); to show an average, write
    /// ``LedgerBalance/roundedAverageCost`` with ``string(_:)-(Money)``.
    func exactString(_ cost: UnitCost) -> String { cost.exactDecimalString(self.currency) }

    /// A date-time a request gave (any form ``ShopCalendar/parseDateTime(_:field:endOfDay:)`` reads), or now.
    func date(_ text: String?, field: String) throws -> Instant {
        guard let text else { return .now }
        return try self.calendar.parseDateTime(text, field: field)
    }

    func day(_ text: String, field: String) throws -> Int {
        guard let day = ShopCalendar.dayNumber(isoDate: text) else {
            throw InventoryError(.invalidValue, field: field, "'\(text)' is not a date (write YYYY-MM-DD)")
        }
        return day
    }

    /// An instant as the API writes every time: UTC with milliseconds (`2026-01-20T10:00:00.100Z`), exact.
    func string(_ instant: Instant) -> String { instant.iso8601 }
}

extension SettingsRepository {
    /// The shop's formats and settings, read once per request.
    func formats() async throws -> (Formats, ShopSettings) {
        let settings = try await self.settings()
        return (Formats(currency: settings.currency, calendar: settings.calendar), settings)
    }
}

/// A JSON response with a status.
struct JSON<Value: Encodable & Sendable>: ResponseGenerator {
    var status: HTTPResponse.Status = .ok
    var value: Value
    /// Extra header fields.
    var headers: HTTPFields = [:]

    init(_ value: Value, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]) {
        self.value = value
        self.status = status
        self.headers = headers
    }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        try self.makeResponse()
    }

    /// The response, without a request at hand.
    func makeResponse() throws -> Response {
        let data = try APIJSON.encode(self.value)
        var headers = self.headers
        headers[.contentType] = "application/json; charset=utf-8"
        return Response(status: self.status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}

/// A CSV file to download: `text/csv`, saved as `stockroom-<name>[-<suffix>].csv`.
struct CSVFile: ResponseGenerator {
    var text: String
    var fileName: String

    init(text: String, name: String, suffix: String? = nil) {
        self.text = text
        // Only letters, digits, dashes and dots reach the header (a suffix may come from the query).
        let safe = ([name] + (suffix.map { [$0] } ?? [])).joined(separator: "-").map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "." ? $0 : "-" }
        self.fileName = "stockroom-\(String(safe)).csv"
    }

    init(_ sheet: ReportSheet, suffix: String? = nil) { self.init(text: sheet.csv, name: sheet.name, suffix: suffix) }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        Response(status: .ok, headers: [.contentType: "text/csv; charset=utf-8", .contentDisposition: "attachment; filename=\"\(self.fileName)\""],
                 body: .init(byteBuffer: ByteBuffer(string: self.text)))
    }
}

/// A request body whose members are listed, so a member it does not know is refused with a 400 naming its path (a
/// misspelt field is an error, not silently ignored): the one way the API refuses unknown fields.
/// ``Request/decodeJSONBody(as:context:limit:)`` checks the raw JSON before decoding it.
protocol KnownFields: Decodable {
    /// Members of the object (for a type with `CaseIterable` coding keys: `CodingKeys.allCases.map(\.stringValue)`).
    static var fields: [String] { get }
    /// The types of the objects held by members (or of the objects in arrays held by members), checked as theirs.
    static var nested: [String: any KnownFields.Type] { get }
}

extension KnownFields {
    static var nested: [String: any KnownFields.Type] { [:] }

    /// Throws a 400 problem naming the first unknown member of `object` (its path starting with `prefix`), then of the
    /// objects nested in it.
    static func check(_ object: [String: Any], prefix: String = "") throws {
        for key in object.keys.sorted() where !self.fields.contains(key) {
            throw Problem(.badRequest, code: .invalidValue, title: "Invalid value",
                          detail: "unknown field; known fields are \(self.fields.sorted().joined(separator: ", "))", field: prefix + key)
        }
        for (key, type) in self.nested.sorted(by: { $0.key < $1.key }) {
            if let inner = object[key] as? [String: Any] { try type.check(inner, prefix: "\(prefix)\(key).") }
            if let list = object[key] as? [Any] {
                for (index, item) in list.enumerated() {
                    if let inner = item as? [String: Any] { try type.check(inner, prefix: "\(prefix)\(key)[\(index)].") }
                }
            }
        }
    }
}

extension Request {
    /// Decodes a JSON body as `T`; malformed bodies become 400 problems naming the field.
    func decodeJSON<T: Decodable>(as type: T.Type, context: some RequestContext, limit: Int = 1 << 20) async throws -> T {
        try await self.decodeJSONBody(as: type, context: context, limit: limit).value
    }

    /// Decodes a JSON body as `T` (as ``decodeJSON(as:context:limit:)``) and answers the body's bytes too.
    func decodeJSONBody<T: Decodable>(as type: T.Type, context: some RequestContext, limit: Int = 1 << 20) async throws -> (value: T, bytes: Data) {
        // Only JSON is read as JSON: a cross-site form can send `text/plain` without asking, never `application/json`.
        let mediaType = self.headers.value(.contentType)?.split(separator: ";").first.map { String($0).trimmingWhitespace(andNewlines: false).lowercased() } ?? ""
        guard mediaType == "application/json" || (mediaType.hasPrefix("application/") && mediaType.hasSuffix("+json")) else {
            throw Problem(.unsupportedMediaType, code: .unsupportedMediaType, title: "Send JSON",
                          detail: "send the body as application/json (Content-Type was '\(mediaType)')", field: "Content-Type")
        }
        let buffer: ByteBuffer
        do {
            buffer = try await self.body.collect(upTo: limit)
        } catch {
            throw Problem(.contentTooLarge, code: .tooLarge, title: "Body too large", detail: "the request body is larger than \(limit / 1024) KiB")
        }
        guard buffer.readableBytes > 0 else {
            throw Problem(.badRequest, code: .malformedJSON, title: "Malformed JSON", detail: "the request body is empty; send a JSON object")
        }
        let data = Data(buffer.readableBytesView)
        if let known = T.self as? any KnownFields.Type {
            guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
                throw Problem(.badRequest, code: .malformedJSON, title: "Malformed JSON", detail: "the request body is not a JSON object")
            }
            try known.check(object)
        }
        return (try JSONDecoder().decode(T.self, from: data), data)
    }

    /// An integer path parameter; a malformed id is a 400 naming it.
    func id(_ context: some RequestContext, _ name: String = "id") throws -> Int64 {
        guard let text = context.parameters.get(name), let value = Int64(text), value > 0 else {
            throw Problem(.badRequest, code: .invalidValue, title: "Invalid id", detail: "'\(context.parameters.get(name) ?? "")' is not an id", field: name)
        }
        return value
    }

    /// A query parameter, decoded as browsers encode forms and `URLSearchParams` (`+` is a space, `%XX` a byte); the
    /// first pair named `name` answers (a pair without `=` has the empty value).
    func query(_ name: String) -> String? {
        guard let raw = self.uri.query else { return nil }
        return QueryString.value(of: name, in: raw)
    }

    /// An integer query parameter within a range.
    func queryInt(_ name: String, default value: Int, range: ClosedRange<Int>) throws -> Int {
        guard let text = self.query(name) else { return value }
        guard let number = Int(text), range.contains(number) else {
            throw InventoryError(.invalidValue, field: name, "must be a whole number from \(range.lowerBound) to \(range.upperBound)")
        }
        return number
    }
}

/// A URL's query string read as a form (`application/x-www-form-urlencoded`), by its bytes.
///
/// A product list reads up to a dozen parameters a request; Foundation's `removingPercentEncoding` and
/// `replacingOccurrences` on every pair's name for each of them were a sixth of a search's instructions (callgrind).
enum QueryString {
    /// The value of the first pair named `name` in `query` (pairs split at `&`, name and value at the first `=`).
    static func value(of name: String, in query: some StringProtocol) -> String? {
        let bytes = query.utf8
        var start = bytes.startIndex
        while start < bytes.endIndex {
            let end = bytes[start...].firstIndex(of: UInt8(ascii: "&")) ?? bytes.endIndex
            let pair = bytes[start..<end]
            if !pair.isEmpty {
                let equals = pair.firstIndex(of: UInt8(ascii: "="))
                let key = pair[..<(equals ?? pair.endIndex)]
                if Self.isNamed(key, name) {
                    return equals.map { Self.decoded(pair[bytes.index(after: $0)...]) } ?? ""
                }
            }
            start = end == bytes.endIndex ? end : bytes.index(after: end)
        }
        return nil
    }

    /// Whether a pair's name, decoded, is `name` (compared by bytes when there is nothing to decode).
    private static func isNamed<Bytes: Collection<UInt8>>(_ key: Bytes, _ name: String) -> Bool {
        if !key.contains(where: { $0 == UInt8(ascii: "%") || $0 == UInt8(ascii: "+") }) {
            return key.elementsEqual(name.utf8)
        }
        return Self.decoded(key) == name
    }

    /// A name or value decoded: `+` a space, `%XX` the byte XX. A `%` without two hexadecimal digits after it, or bytes
    /// that are not UTF-8 once decoded, leave the text as it came (with `+` still a space), as Foundation's
    /// `removingPercentEncoding` answering nil did.
    static func decoded<Bytes: Collection<UInt8>>(_ part: Bytes) -> String {
        guard part.contains(where: { $0 == UInt8(ascii: "%") || $0 == UInt8(ascii: "+") }) else {
            return String(decoding: part, as: UTF8.self)
        }
        let spaced = part.map { $0 == UInt8(ascii: "+") ? UInt8(ascii: " ") : $0 }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(spaced.count)
        var index = 0
        while index < spaced.count {
            let byte = spaced[index]
            if byte == UInt8(ascii: "%") {
                guard index + 2 < spaced.count, let high = Self.hex(spaced[index + 1]), let low = Self.hex(spaced[index + 2]) else {
                    return String(decoding: spaced, as: UTF8.self)
                }
                bytes.append(high << 4 | low)
                index += 3
            } else {
                bytes.append(byte)
                index += 1
            }
        }
        return String(validating: bytes, as: UTF8.self) ?? String(decoding: spaced, as: UTF8.self)
    }

    private static func hex(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
