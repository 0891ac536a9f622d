import Foundation
import Hummingbird
import InventoryDomain

/// A coding key for any JSON member, to find members a request type does not know.
struct AnyCodingKey: CodingKey {
    var stringValue: String
    var intValue: Int?
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) {
        self.stringValue = String(intValue)
        self.intValue = intValue
    }
}

extension Decoder {
    /// Refuses members that `Keys` does not list, so a misspelt field is an error, not silently ignored.
    func rejectUnknownKeys<Keys: CodingKey & CaseIterable>(_ keys: Keys.Type) throws {
        let known = Set(Keys.allCases.map(\.stringValue))
        let container = try self.container(keyedBy: AnyCodingKey.self)
        for key in container.allKeys where !known.contains(key.stringValue) {
            throw DecodingError.dataCorrupted(.init(
                codingPath: self.codingPath + [key], debugDescription: "unknown field; known fields are \(known.sorted().joined(separator: ", "))"))
        }
    }
}

/// The shop's currency and calendar, for reading and writing amounts and dates.
struct Formats: Sendable {
    var currency: Currency
    var calendar: ShopCalendar

    func money(_ text: String, field: String) throws -> Money { try Money.parse(text, currency: self.currency, field: field) }
    func money(_ text: String?, field: String) throws -> Money? { try text.map { try self.money($0, field: field) } }
    func string(_ money: Money) -> String { money.decimalString(self.currency) }
    func string(_ cost: UnitCost) -> String { cost.decimalString(self.currency) }

    func date(_ text: String?, field: String) throws -> Date {
        guard let text else { return Date() }
        return try self.calendar.parseDateTime(text, field: field)
    }

    func day(_ text: String, field: String) throws -> Int {
        guard let day = ShopCalendar.dayNumber(isoDate: text) else {
            throw InventoryError(.invalidValue, field: field, "'\(text)' is not a date (write YYYY-MM-DD)")
        }
        return day
    }

    func string(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }
}

/// A JSON response with a status.
struct JSON<Value: Encodable & Sendable>: ResponseGenerator {
    var status: HTTPResponse.Status = .ok
    var value: Value

    init(_ value: Value, status: HTTPResponse.Status = .ok) {
        self.value = value
        self.status = status
    }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        try self.makeResponse()
    }

    /// The response, without a request at hand.
    func makeResponse() throws -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let data = try encoder.encode(self.value)
        return Response(status: self.status, headers: [.contentType: "application/json; charset=utf-8"],
                        body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}

extension Request {
    /// Decodes a JSON body as `T`; malformed bodies become 400 problems naming the field.
    func decodeJSON<T: Decodable>(as type: T.Type, context: some RequestContext, limit: Int = 1 << 20) async throws -> T {
        let buffer: ByteBuffer
        do {
            buffer = try await self.body.collect(upTo: limit)
        } catch {
            throw Problem(.contentTooLarge, code: "tooLarge", title: "Body too large", detail: "the request body is larger than \(limit / 1024) KiB")
        }
        guard buffer.readableBytes > 0 else {
            throw Problem(.badRequest, code: "malformedJSON", title: "Malformed JSON", detail: "the request body is empty; send a JSON object")
        }
        return try JSONDecoder().decode(T.self, from: Data(buffer.readableBytesView))
    }

    /// An integer path parameter; a malformed id is a 400 naming it.
    func id(_ context: some RequestContext, _ name: String = "id") throws -> Int64 {
        guard let text = context.parameters.get(name), let value = Int64(text), value > 0 else {
            throw Problem(.badRequest, code: "invalidValue", title: "Invalid id", detail: "'\(context.parameters.get(name) ?? "")' is not an id", field: name)
        }
        return value
    }

    /// A query parameter.
    func query(_ name: String) -> String? { self.uri.queryParameters.get(name) }

    /// An integer query parameter within a range.
    func queryInt(_ name: String, default value: Int, range: ClosedRange<Int>) throws -> Int {
        guard let text = self.query(name) else { return value }
        guard let number = Int(text), range.contains(number) else {
            throw InventoryError(.invalidValue, field: name, "must be a whole number from \(range.lowerBound) to \(range.upperBound)")
        }
        return number
    }
}
