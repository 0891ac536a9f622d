import InventoryDomain

/// Whether the answer being written may show what things cost the shop (cost prices, average costs, stock values, the
/// cost of goods sold, profit): the caller's ``Permission/viewCosts``.
///
/// Decided once per request, where the route admits its caller (``Routes``), and read by every figure marked
/// ``Cost``: without the permission those members are left out of the JSON, and the screens show what they get.
/// Outside a request (the command line's `--format json`, run by whoever holds the database) figures are shown only
/// where the caller says so with ``$visible``; anything else answers without them.
enum CostDisclosure {
    @TaskLocal static var visible = false

    /// Whether `identity` may see costs (no identity: no).
    static func visible(to identity: Identity?) -> Bool { identity?.allows(.viewCosts) ?? false }

    /// `value` when costs may be shown, else nil (for the screens drawn on the server).
    static func reveal<Value>(_ value: @autoclosure () -> Value) -> Value? { Self.visible ? value() : nil }
}

/// A member of an answer that tells what something cost the shop: written only when ``CostDisclosure/visible``,
/// otherwise left out of the answer altogether (not `null`, not zero).
@propertyWrapper
struct Cost<Value: Sendable>: Sendable {
    var wrappedValue: Value

    init(wrappedValue: Value) { self.wrappedValue = wrappedValue }
}

extension Cost: Equatable where Value: Equatable {}
extension Cost: Hashable where Value: Hashable {}

extension Cost: Encodable where Value: Encodable {
    /// Only used when a cost is encoded on its own (not as a member): then it is `null` unless costs may be shown.
    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if CostDisclosure.visible { try container.encode(self.wrappedValue) } else { try container.encodeNil() }
    }
}

extension Cost: Decodable where Value: Decodable {
    init(from decoder: any Decoder) throws {
        self.wrappedValue = try decoder.singleValueContainer().decode(Value.self)
    }
}

extension KeyedEncodingContainer {
    /// A ``Cost`` member: written when costs may be shown, else left out.
    mutating func encode<Value: Encodable>(_ cost: Cost<Value>, forKey key: Key) throws {
        guard CostDisclosure.visible else { return }
        try self.encode(cost.wrappedValue, forKey: key)
    }

    /// An optional ``Cost`` member: written when costs may be shown and it has a value (as other optional members).
    mutating func encode<Value: Encodable>(_ cost: Cost<Value?>, forKey key: Key) throws {
        guard CostDisclosure.visible else { return }
        try self.encodeIfPresent(cost.wrappedValue, forKey: key)
    }
}

extension KeyedDecodingContainer {
    /// A ``Cost`` member read back (tests, the command line): absent when the answer left costs out.
    func decode<Value: Decodable>(_ type: Cost<Value?>.Type, forKey key: Key) throws -> Cost<Value?> {
        Cost(wrappedValue: try self.decodeIfPresent(Value.self, forKey: key))
    }
}
