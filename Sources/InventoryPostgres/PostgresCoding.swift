import InventoryDomain
import NIOCore
import PostgresNIO

/// The errors of this backend, as ``InventoryError``s the server already translates.
enum PostgresStoreError {
    /// A database URL or password file that cannot be used: `invalidValue` on `database`.
    static func location(_ message: String) -> InventoryError { InventoryError(.invalidValue, field: "database", message) }
    /// A schema this build cannot use: `storage` on `database`.
    static func schema(_ message: String) -> InventoryError { InventoryError(.storage, field: "database", message) }
}

/// An instant as `timestamptz` in PostgreSQL's binary form (microseconds since 2000-01-01T00:00:00Z), converted from
/// and to whole milliseconds with integer arithmetic: Foundation's `Date` coding goes through a `Double`, which
/// Stockroom never uses for times.
extension Instant: PostgresEncodable, PostgresDecodable, PostgresNonThrowingEncodable, PostgresArrayEncodable {
    public static var psqlArrayType: PostgresDataType { .timestamptzArray }

    /// 2000-01-01T00:00:00Z in milliseconds since 1970.
    static let postgresEpoch: Int64 = 946_684_800_000

    public static var psqlType: PostgresDataType { .timestamptz }
    public static var psqlFormat: PostgresFormat { .binary }

    /// Saturating: an instant beyond what microseconds since 2000 can hold (about ±292,000 years) is written as
    /// PostgreSQL's `-infinity` or `infinity` (the binary form's `Int64.min` and `Int64.max`) instead of trapping on
    /// the overflow, so an open bound (`Int64.min`, `Int64.max` in a range query) means no bound.
    public func encode<JSONEncoder: PostgresJSONEncoder>(into byteBuffer: inout ByteBuffer, context: PostgresEncodingContext<JSONEncoder>) {
        let (shifted, overflowed) = self.milliseconds.subtractingReportingOverflow(Self.postgresEpoch)
        let (microseconds, overflowedAgain) = shifted.multipliedReportingOverflow(by: 1000)
        byteBuffer.writeInteger(overflowed || overflowedAgain ? (self.milliseconds < 0 ? Int64.min : Int64.max) : microseconds)
    }

    public init<JSONDecoder: PostgresJSONDecoder>(
        from buffer: inout ByteBuffer, type: PostgresDataType, format: PostgresFormat, context: PostgresDecodingContext<JSONDecoder>
    ) throws {
        guard type == .timestamptz || type == .timestamp, format == .binary else { throw PostgresDecodingError.Code.typeMismatch }
        guard buffer.readableBytes == 8, let microseconds = buffer.readInteger(as: Int64.self) else { throw PostgresDecodingError.Code.failure }
        // -infinity and infinity (what a saturated encoding writes) read back as the widest instants, Int64.min and Int64.max ms.
        if microseconds == Int64.min || microseconds == Int64.max {
            self.init(milliseconds: microseconds)
            return
        }
        // Floor division: an instant stored by Stockroom is a whole millisecond; one written by hand rounds down.
        let (quotient, remainder) = microseconds.quotientAndRemainder(dividingBy: 1000)
        self.init(milliseconds: (remainder < 0 ? quotient - 1 : quotient) + Self.postgresEpoch)
    }
}
