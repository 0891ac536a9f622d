import Foundation

/// Writes what `JSONEncoder` with `[.sortedKeys, .withoutEscapingSlashes]` writes, byte for byte, without its costs:
/// Foundation's encoder sorted every object's keys through a generic comparison and built an intermediate tree of
/// existentials, about a fifth of a barcode lookup's instructions (BENCHMARKS.md, issue 15 point 7).
///
/// It covers what the API's answers are made of: objects, arrays, strings, integers, booleans and nulls. Anything for
/// which `JSONEncoder` has a strategy of its own (`Date`, `Data`, `URL`, `Decimal`, floating point), a string with a
/// control character other than a line feed, carriage return or tab, and any unusual use of the `Encoder` protocol
/// (`superEncoder`, two kinds of container for one value) makes ``encode(_:)`` return nil, and the caller then uses
/// `JSONEncoder` itself. Debug builds encode every answer both ways and stop on a difference (``APIJSON``).
public enum SortedJSONEncoder {
    /// The JSON text of `value`, or nil when `JSONEncoder` must write it.
    public static func encode(_ value: some Encodable) -> [UInt8]? {
        // A value that writes itself (a page of products) needs no tree, nor the casts that `box` tries first.
        if let writable = value as? any SortedJSONWritable {
            var object = SortedJSONObject()
            writable.writeSortedJSON(to: &object)
            return object.finished()
        }
        let state = State()
        guard let tree = try? Self.box(value, codingPath: [], state: state), !state.refused else { return nil }
        let output = JSONBytes(capacity: 512)
        Self.write(tree, to: output)
        return output.refused ? nil : output.bytes
    }

    /// A value not supported here: `JSONEncoder` writes it.
    struct Unsupported: Error {}

    /// Set when a value used the `Encoder` protocol in a way this writer does not follow (even if it then wrote
    /// nothing through it): the whole value is then left to `JSONEncoder`.
    final class State {
        var refused = false
    }

    /// A JSON value being built.
    enum Value {
        case null
        case bool(Bool)
        case number(String)
        case string(String)
        case object(Container)
        case array(Container)
        /// JSON text a ``SortedJSONWritable`` value wrote itself.
        case raw([UInt8])
    }

    /// The members of an object or the elements of an array, shared by the containers that fill it.
    final class Container {
        var members: [(key: String, value: Value)] = []
        var elements: [Value] = []
    }

    static func box<T: Encodable>(_ value: T, codingPath: [any CodingKey], state: State) throws -> Value {
        switch value {
        case let string as String: return .string(string)
        case let bool as Bool: return .bool(bool)
        case let number as Int: return .number(String(number))
        case let number as Int64: return .number(String(number))
        case let number as Int32: return .number(String(number))
        case let number as Int16: return .number(String(number))
        case let number as Int8: return .number(String(number))
        case let number as UInt: return .number(String(number))
        case let number as UInt64: return .number(String(number))
        case let number as UInt32: return .number(String(number))
        case let number as UInt16: return .number(String(number))
        case let number as UInt8: return .number(String(number))
        case is Date, is Data, is URL, is Decimal, is Double, is Float: throw Unsupported()
        default:
            if let writable = value as? any SortedJSONWritable {
                var object = SortedJSONObject()
                writable.writeSortedJSON(to: &object)
                if let bytes = object.finished() { return .raw(bytes) }
            }
            let encoder = ValueEncoder(codingPath: codingPath, state: state)
            try value.encode(to: encoder)
            guard let result = encoder.value else { throw Unsupported() }  // nothing encoded: JSONEncoder says why
            return result
        }
    }

    // MARK: - Writing

    /// Writes `value`; a text this writer leaves to `JSONEncoder` sets the output's ``JSONBytes/refused``.
    private static func write(_ value: Value, to output: JSONBytes) {
        switch value {
        case .null: output.append("null")
        case .bool(let bool): output.append(bool ? "true" : "false")
        case .number(let text): output.appendUnquoted(text)
        case .string(let string): output.appendQuoted(string)
        case .raw(let bytes): bytes.withUnsafeBufferPointer { output.append($0) }
        case .array(let container):
            output.append(UInt8(ascii: "["))
            for (index, element) in container.elements.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                self.write(element, to: output)
            }
            output.append(UInt8(ascii: "]"))
        case .object(let container):
            output.append(UInt8(ascii: "{"))
            // Sorted by the keys' UTF-8 bytes, as JSONEncoder's `.sortedKeys`; a key given twice keeps its last value.
            // Swift's own comparison is that order for ASCII keys (all of the API's), and much cheaper.
            let members = container.members
            let ascii = members.allSatisfy { $0.key.utf8.allSatisfy { $0 < 0x80 } }
            var order = Array(members.indices)
            order.sort { i, j in
                let a = members[i].key, b = members[j].key
                if a == b { return i < j }
                return ascii ? a < b : Self.precedes(a, b)
            }
            var first = true
            for (position, index) in order.enumerated() {
                // Of equal keys (adjacent now, in the order given) the last is written.
                if position + 1 < order.count, members[order[position + 1]].key == members[index].key { continue }
                if !first { output.append(UInt8(ascii: ",")) }
                first = false
                output.appendQuoted(members[index].key)
                output.append(UInt8(ascii: ":"))
                self.write(members[index].value, to: output)
            }
            output.append(UInt8(ascii: "}"))
        }
    }

    /// Whether `a` sorts before `b` by their UTF-8 bytes.
    static func precedes(_ a: String, _ b: String) -> Bool {
        a.utf8.lexicographicallyPrecedes(b.utf8)
    }

    // MARK: - The Encoder protocol

    /// The encoder handed to one value's `encode(to:)`.
    final class ValueEncoder: Encoder {
        let codingPath: [any CodingKey]
        let state: State
        var userInfo: [CodingUserInfoKey: Any] { [:] }
        var value: Value?

        init(codingPath: [any CodingKey], state: State) {
            self.codingPath = codingPath
            self.state = state
        }

        func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
            let container: Container
            switch self.value {
            case .object(let existing): container = existing
            case nil:
                container = Container()
                self.value = .object(container)
            default:
                // Another kind of container for the same value: JSONEncoder's behaviour, which this does not copy.
                self.state.refused = true
                return KeyedEncodingContainer(RefusingKeyed<Key>(codingPath: self.codingPath))
            }
            return KeyedEncodingContainer(Keyed<Key>(container: container, codingPath: self.codingPath, state: self.state))
        }

        func unkeyedContainer() -> any UnkeyedEncodingContainer {
            switch self.value {
            case .array(let existing): return Unkeyed(container: existing, codingPath: self.codingPath, state: self.state)
            case nil:
                let container = Container()
                self.value = .array(container)
                return Unkeyed(container: container, codingPath: self.codingPath, state: self.state)
            default:
                self.state.refused = true
                return Unkeyed(container: nil, codingPath: self.codingPath, state: self.state)
            }
        }

        func singleValueContainer() -> any SingleValueEncodingContainer { Single(encoder: self) }
    }

    struct Keyed<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let container: Container
        let codingPath: [any CodingKey]
        let state: State

        mutating func encodeNil(forKey key: Key) throws { self.container.members.append((key.stringValue, .null)) }
        // The leaves synthesized `Encodable` conformances write, without a dynamic cast each.
        mutating func encode(_ value: String, forKey key: Key) throws { self.container.members.append((key.stringValue, .string(value))) }
        mutating func encode(_ value: Bool, forKey key: Key) throws { self.container.members.append((key.stringValue, .bool(value))) }
        mutating func encode(_ value: Int, forKey key: Key) throws { self.container.members.append((key.stringValue, .number(String(value)))) }
        mutating func encode(_ value: Int64, forKey key: Key) throws { self.container.members.append((key.stringValue, .number(String(value)))) }
        mutating func encode(_ value: Int32, forKey key: Key) throws { self.container.members.append((key.stringValue, .number(String(value)))) }
        mutating func encode(_ value: UInt64, forKey key: Key) throws { self.container.members.append((key.stringValue, .number(String(value)))) }
        mutating func encode(_ value: Double, forKey key: Key) throws { throw Unsupported() }
        mutating func encode(_ value: Float, forKey key: Key) throws { throw Unsupported() }
        mutating func encodeIfPresent(_ value: String?, forKey key: Key) throws {
            if let value { self.container.members.append((key.stringValue, .string(value))) }
        }
        mutating func encodeIfPresent(_ value: Int64?, forKey key: Key) throws {
            if let value { self.container.members.append((key.stringValue, .number(String(value)))) }
        }
        mutating func encodeIfPresent(_ value: Int?, forKey key: Key) throws {
            if let value { self.container.members.append((key.stringValue, .number(String(value)))) }
        }
        mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) throws {
            if let value { self.container.members.append((key.stringValue, .bool(value))) }
        }
        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
            self.container.members.append((key.stringValue, try SortedJSONEncoder.box(value, codingPath: self.codingPath + [key], state: self.state)))
        }
        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
            let nested = Container()
            self.container.members.append((key.stringValue, .object(nested)))
            return KeyedEncodingContainer(Keyed<NestedKey>(container: nested, codingPath: self.codingPath + [key], state: self.state))
        }
        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
            let nested = Container()
            self.container.members.append((key.stringValue, .array(nested)))
            return Unkeyed(container: nested, codingPath: self.codingPath + [key], state: self.state)
        }
        mutating func superEncoder() -> any Encoder { RefusingEncoder(codingPath: self.codingPath, state: self.state) }
        mutating func superEncoder(forKey key: Key) -> any Encoder { RefusingEncoder(codingPath: self.codingPath + [key], state: self.state) }
    }

    struct Unkeyed: UnkeyedEncodingContainer {
        /// Nil when the value already had another kind of container: every call then fails.
        let container: Container?
        let codingPath: [any CodingKey]
        let state: State
        var count: Int { self.container?.elements.count ?? 0 }

        private func target() throws -> Container {
            guard let container = self.container else { throw Unsupported() }
            return container
        }
        mutating func encodeNil() throws { try self.target().elements.append(.null) }
        mutating func encode(_ value: String) throws { try self.target().elements.append(.string(value)) }
        mutating func encode(_ value: Int) throws { try self.target().elements.append(.number(String(value))) }
        mutating func encode(_ value: Int64) throws { try self.target().elements.append(.number(String(value))) }
        mutating func encode(_ value: Double) throws { throw Unsupported() }
        mutating func encode(_ value: Float) throws { throw Unsupported() }
        mutating func encode<T: Encodable>(_ value: T) throws {
            let container = try self.target()
            container.elements.append(try SortedJSONEncoder.box(value, codingPath: self.codingPath + [IndexKey(intValue: container.elements.count)], state: self.state))
        }
        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
            guard let container = self.container else { return KeyedEncodingContainer(RefusingKeyed<NestedKey>(codingPath: self.codingPath)) }
            let nested = Container()
            container.elements.append(.object(nested))
            return KeyedEncodingContainer(Keyed<NestedKey>(container: nested, codingPath: self.codingPath, state: self.state))
        }
        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
            guard let container = self.container else { return Unkeyed(container: nil, codingPath: self.codingPath, state: self.state) }
            let nested = Container()
            container.elements.append(.array(nested))
            return Unkeyed(container: nested, codingPath: self.codingPath, state: self.state)
        }
        mutating func superEncoder() -> any Encoder { RefusingEncoder(codingPath: self.codingPath, state: self.state) }
    }

    struct Single: SingleValueEncodingContainer {
        let encoder: ValueEncoder
        var codingPath: [any CodingKey] { self.encoder.codingPath }

        mutating func encodeNil() throws { try self.set(.null) }
        mutating func encode(_ value: String) throws { try self.set(.string(value)) }
        mutating func encode(_ value: Bool) throws { try self.set(.bool(value)) }
        mutating func encode(_ value: Int) throws { try self.set(.number(String(value))) }
        mutating func encode(_ value: Int64) throws { try self.set(.number(String(value))) }
        mutating func encode(_ value: Double) throws { throw Unsupported() }
        mutating func encode(_ value: Float) throws { throw Unsupported() }
        mutating func encode<T: Encodable>(_ value: T) throws {
            try self.set(try SortedJSONEncoder.box(value, codingPath: self.codingPath, state: self.encoder.state))
        }
        private func set(_ value: Value) throws {
            guard self.encoder.value == nil else { throw Unsupported() }
            self.encoder.value = value
        }
    }

    /// Returned where this writer does not follow `JSONEncoder`: any use of it makes the whole encoding fall back.
    struct RefusingKeyed<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let codingPath: [any CodingKey]
        mutating func encodeNil(forKey key: Key) throws { throw Unsupported() }
        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws { throw Unsupported() }
        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
            KeyedEncodingContainer(RefusingKeyed<NestedKey>(codingPath: self.codingPath))
        }
        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer { Unkeyed(container: nil, codingPath: self.codingPath, state: State()) }
        mutating func superEncoder() -> any Encoder { RefusingEncoder(codingPath: self.codingPath, state: State()) }
        mutating func superEncoder(forKey key: Key) -> any Encoder { RefusingEncoder(codingPath: self.codingPath, state: State()) }
    }

    /// An encoder whose every container refuses (for `superEncoder`), so that the whole value falls back.
    final class RefusingEncoder: Encoder {
        let codingPath: [any CodingKey]
        var userInfo: [CodingUserInfoKey: Any] { [:] }
        init(codingPath: [any CodingKey], state: State) {
            self.codingPath = codingPath
            state.refused = true
        }
        func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
            KeyedEncodingContainer(RefusingKeyed<Key>(codingPath: self.codingPath))
        }
        func unkeyedContainer() -> any UnkeyedEncodingContainer { Unkeyed(container: nil, codingPath: self.codingPath, state: State()) }
        func singleValueContainer() -> any SingleValueEncodingContainer { RefusingSingle(codingPath: self.codingPath) }
    }

    struct RefusingSingle: SingleValueEncodingContainer {
        let codingPath: [any CodingKey]
        mutating func encodeNil() throws { throw Unsupported() }
        mutating func encode<T: Encodable>(_ value: T) throws { throw Unsupported() }
    }

    struct IndexKey: CodingKey {
        var stringValue: String { "Index \(self.intValue ?? 0)" }
        var intValue: Int?
        init(intValue: Int) { self.intValue = intValue }
        init?(stringValue: String) { nil }
    }
}

/// A type that writes its own JSON object, its members in the order of their keys' bytes, exactly as `JSONEncoder` with
/// `.sortedKeys` writes its `Encodable` conformance (absent optionals left out), without building a tree of values
/// first: for the answers listed by the hundred (a page of products). Debug builds compare every answer with
/// `JSONEncoder`'s (``APIJSON``), so a member added to the type but not here fails every test that gets one back.
public protocol SortedJSONWritable: Encodable {
    /// Writes the members, in sorted order, into `object`.
    func writeSortedJSON(to object: inout SortedJSONObject)
}

/// One JSON object being written member by member (see ``SortedJSONWritable``), into one growing byte buffer that the
/// objects nested in it (``objects(_:_:)``) write into as well. Every write stores through a pointer: a page of products
/// writes about three hundred members, and `Array.append` paid a uniqueness and a capacity check per byte.
public struct SortedJSONObject {
    @usableFromInline let output: JSONBytes
    @usableFromInline var empty = true

    public init() {
        self.output = JSONBytes(capacity: 1024)
        self.output.append(UInt8(ascii: "{"))
    }

    /// The object's text, or nil when `JSONEncoder` must write it.
    public mutating func finished() -> [UInt8]? {
        guard !self.output.refused else { return nil }
        self.output.append(UInt8(ascii: "}"))
        return self.output.bytes
    }

    /// Starts a member (`key` is a plain ASCII name: no escaping): `,"key":`.
    @inlinable mutating func key(_ key: StaticString) {
        let n = key.utf8CodeUnitCount
        let p = self.output.reserve(n + 4)
        var i = 0
        if !self.empty {
            p[0] = UInt8(ascii: ",")
            i = 1
        }
        self.empty = false
        p[i] = UInt8(ascii: "\"")
        (p + i + 1).update(from: key.utf8Start, count: n)
        p[i + n + 1] = UInt8(ascii: "\"")
        p[i + n + 2] = UInt8(ascii: ":")
        self.output.count += i + n + 3
    }

    /// A text member; left out when nil.
    @inlinable public mutating func string(_ key: StaticString, _ value: String?) {
        guard let value else { return }
        self.key(key)
        self.output.appendQuoted(value)
    }

    /// An integer member; left out when nil.
    @inlinable public mutating func integer(_ key: StaticString, _ value: Int64?) {
        guard let value else { return }
        self.key(key)
        self.output.append(value)
    }

    @inlinable public mutating func bool(_ key: StaticString, _ value: Bool) {
        self.key(key)
        self.output.append(value ? "true" : "false")
    }

    /// A true-or-false member; left out when nil.
    @inlinable public mutating func bool(_ key: StaticString, _ value: Bool?) {
        guard let value else { return }
        self.bool(key, value)
    }

    /// An object member written in place; left out when nil.
    @inlinable public mutating func object(_ key: StaticString, _ value: (some SortedJSONWritable)?) {
        guard let value else { return }
        self.key(key)
        self.output.append(UInt8(ascii: "{"))
        var object = SortedJSONObject(continuing: self.output)
        value.writeSortedJSON(to: &object)
        self.output.append(UInt8(ascii: "}"))
    }

    /// An object of integers by name, its members in the order of their names' bytes (as `JSONEncoder` writes a
    /// dictionary with `.sortedKeys`); left out when nil.
    public mutating func integers(_ key: StaticString, _ values: [String: Int64]?) {
        guard let values else { return }
        self.key(key)
        self.output.append(UInt8(ascii: "{"))
        for (index, name) in values.keys.sorted(by: SortedJSONEncoder.precedes).enumerated() {
            if index > 0 { self.output.append(UInt8(ascii: ",")) }
            self.output.appendQuoted(name)
            self.output.append(UInt8(ascii: ":"))
            self.output.append(values[name] ?? 0)
        }
        self.output.append(UInt8(ascii: "}"))
    }

    /// An array of texts; left out when nil.
    @inlinable public mutating func strings(_ key: StaticString, _ values: [String]?) {
        guard let values else { return }
        self.key(key)
        self.output.append(UInt8(ascii: "["))
        var index = 0
        while index < values.count {
            if index > 0 { self.output.append(UInt8(ascii: ",")) }
            self.output.appendQuoted(values[index])
            index += 1
        }
        self.output.append(UInt8(ascii: "]"))
    }

    /// An array of objects, each written in place.
    @inlinable public mutating func objects<Element: SortedJSONWritable>(_ key: StaticString, _ values: [Element]) {
        self.key(key)
        self.output.append(UInt8(ascii: "["))
        var index = 0
        while index < values.count {
            if index > 0 { self.output.append(UInt8(ascii: ",")) }
            self.output.append(UInt8(ascii: "{"))
            var object = SortedJSONObject(continuing: self.output)
            values[index].writeSortedJSON(to: &object)
            self.output.append(UInt8(ascii: "}"))
            index += 1
        }
        self.output.append(UInt8(ascii: "]"))
    }

    /// A nested object written into `output` (its opening brace already there).
    @inlinable init(continuing output: JSONBytes) {
        self.output = output
    }
}

/// The bytes of a ``SortedJSONObject`` and the objects nested in it.
public final class JSONBytes {
    @exclusivity(unchecked) @usableFromInline var base: UnsafeMutablePointer<UInt8>
    @exclusivity(unchecked) @usableFromInline var count = 0
    @exclusivity(unchecked) @usableFromInline var capacity: Int
    /// Set when a text needs `JSONEncoder` (a control character): the value is then encoded the general way.
    @exclusivity(unchecked) @usableFromInline var refused = false

    @usableFromInline init(capacity: Int) {
        self.base = .allocate(capacity: capacity)
        self.capacity = capacity
    }

    deinit { self.base.deallocate() }

    var bytes: [UInt8] { Array(UnsafeBufferPointer(start: self.base, count: self.count)) }

    /// Room for `n` more bytes: where they go (`count` is left to the caller).
    @inlinable func reserve(_ n: Int) -> UnsafeMutablePointer<UInt8> {
        if self.count + n > self.capacity { self.grow(n) }
        return self.base + self.count
    }

    @usableFromInline func grow(_ n: Int) {
        let capacity = max(2 * self.capacity, self.count + n)
        let base = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
        base.update(from: self.base, count: self.count)
        self.base.deallocate()
        self.base = base
        self.capacity = capacity
    }

    @inlinable func append(_ byte: UInt8) {
        self.reserve(1).pointee = byte
        self.count += 1
    }

    @inlinable func append(_ text: StaticString) {
        let n = text.utf8CodeUnitCount
        self.reserve(n).update(from: text.utf8Start, count: n)
        self.count += n
    }

    @usableFromInline func append(_ value: Int64) {
        self.appendUnquoted(String(value))
    }

    /// `text`'s bytes as they are (a number's digits).
    func appendUnquoted(_ text: String) {
        var text = text
        text.withUTF8 { self.append($0) }
    }

    func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let start = bytes.baseAddress else { return }
        self.reserve(bytes.count).update(from: start, count: bytes.count)
        self.count += bytes.count
    }

    /// `"text"`, escaped as `JSONEncoder` escapes it; a control character other than a line feed, carriage return or
    /// tab sets ``refused``.
    @usableFromInline func appendQuoted(_ text: String) {
        var text = text
        text.withUTF8 { bytes in
            // At worst every byte is escaped (two bytes), plus the quotes.
            var p = self.reserve(2 * bytes.count + 2)
            p.pointee = UInt8(ascii: "\"")
            p += 1
            for byte in bytes {
                let escape: UInt8
                switch byte {
                case UInt8(ascii: "\""): escape = UInt8(ascii: "\"")
                case UInt8(ascii: "\\"): escape = UInt8(ascii: "\\")
                case UInt8(ascii: "\n"): escape = UInt8(ascii: "n")
                case UInt8(ascii: "\r"): escape = UInt8(ascii: "r")
                case UInt8(ascii: "\t"): escape = UInt8(ascii: "t")
                case 0..<0x20, 0x7F:
                    self.refused = true
                    p.pointee = byte
                    p += 1
                    continue
                default:
                    p.pointee = byte
                    p += 1
                    continue
                }
                p[0] = UInt8(ascii: "\\")
                p[1] = escape
                p += 2
            }
            p.pointee = UInt8(ascii: "\"")
            p += 1
            self.count = p - self.base
        }
    }
}

/// The API's JSON encoding: sorted keys, slashes unescaped. Every JSON reply, the command line's `--format json`, the
/// live events' data and the audit trail's stored facts are written by it.
public enum APIJSON {
    /// `value` as the API writes it: by ``SortedJSONEncoder`` (the same bytes, faster), or by `JSONEncoder` for what
    /// that does not cover.
    public static func encode(_ value: some Encodable) throws -> Data {
        guard let bytes = SortedJSONEncoder.encode(value) else { return try self.foundationEncode(value) }
        #if DEBUG
        // Every test that gets an answer checks the two writers agree, byte for byte.
        let expected = try self.foundationEncode(value)
        precondition(Data(bytes) == expected, "SortedJSONEncoder wrote \(String(decoding: bytes, as: UTF8.self)) where JSONEncoder wrote \(String(decoding: expected, as: UTF8.self))")
        #endif
        return Data(bytes)
    }

    public static func foundationEncode(_ value: some Encodable) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(value)
    }
}
